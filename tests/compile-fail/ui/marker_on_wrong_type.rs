use std::collections::BTreeMap;

use kubegen::KubeSchema;
use serde::{Deserialize, Serialize};

#[derive(KubeSchema, Serialize, Deserialize)]
pub struct Spec {
    /// +kubebuilder:validation:Minimum=1
    pub name: String,
    #[kube(max_items = 3)]
    pub labels: BTreeMap<String, String>,
    /// +listType=set
    pub count: i32,
    #[kube(max_length = 5)]
    pub ports: Vec<i32>,
    #[kube(items(minimum = 1))]
    pub hosts: Vec<String>,
}

fn main() {}
