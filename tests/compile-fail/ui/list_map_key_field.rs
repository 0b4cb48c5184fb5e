// A list-map key that names no field of the items: the API server refuses the CRD, so
// the build does — for an item struct in the same file and for a Kubernetes type.
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition;
use kubegen::{CustomResource, CustomResourceExt, KubeSchema};
use serde::{Deserialize, Serialize};

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Port {
    pub port_name: String,
    pub number: i32,
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Gate")]
pub struct GateSpec {
    /// +listType=map
    /// +listMapKey=port_name
    pub ports: Vec<Port>,
    /// +listType=map
    /// +listMapKey=typ
    pub conditions: Vec<Condition>,
    /// +listType=map
    /// +listMapKey=portName
    pub good: Vec<Port>,
}

fn main() {
    let _ = Gate::crd();
}
