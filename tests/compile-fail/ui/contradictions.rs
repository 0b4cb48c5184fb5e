use kubegen::KubeSchema;
use serde::{Deserialize, Serialize};

#[derive(KubeSchema, Serialize, Deserialize)]
pub struct Bounds {
    /// +kubebuilder:validation:Minimum=10
    /// +kubebuilder:validation:Maximum=1
    pub replicas: i32,
    #[kube(pattern = "^(?=a)b$")]
    pub name: String,
    #[kube(unique_items)]
    pub tags: Vec<String>,
    #[kube(validation(rule = "self != ''", reason = "Bad"))]
    pub other: String,
}

fn main() {}
