//! A transition rule (reading `oldSelf`) on a type whose values stand under a list that is
//! not a list-map fails `cargo build` at that field: the API server pairs such items with no
//! old value and refuses the CRD ("oldSelf cannot be used on the uncorrelatable portion of
//! the schema"). Found by issue 28's trial; the rules below a list-map or a map build.

use std::collections::BTreeMap;

use kubegen::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};

/// +kubebuilder:validation:XValidation:rule="self.port == oldSelf.port",message="the port is fixed"
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Port {
    pub name: String,
    pub port: i32,
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Volume {
    /// +k8s:immutable
    pub id: String,
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Disk {
    pub volume: Option<Volume>,
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Plain {
    pub size: i32,
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Svc")]
pub struct SvcSpec {
    pub ports: Vec<Port>,
    /// +listType=map
    /// +listMapKey=name
    pub keyed: Vec<Port>,
    pub disks: Option<Vec<Disk>>,
    pub by_name: BTreeMap<String, Port>,
    pub grid: BTreeMap<String, Vec<Volume>>,
    pub plain: Vec<Plain>,
    pub port: Option<Port>,
}

fn main() {}
