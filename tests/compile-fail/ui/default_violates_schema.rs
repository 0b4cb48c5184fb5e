use kubegen::KubeSchema;
use serde::{Deserialize, Serialize};

#[derive(KubeSchema, Serialize, Deserialize)]
pub struct Spec {
    /// +kubebuilder:validation:Minimum=1
    /// +kubebuilder:default=0
    pub replicas: Option<i32>,
    /// +kubebuilder:validation:Enum=fast;safe
    /// +kubebuilder:default=slow
    pub mode: Option<String>,
    #[kube(pattern = "^[a-z]+$", default = "Nope")]
    pub name: Option<String>,
    #[kube(default = "three")]
    pub count: Option<i32>,
    /// +kubebuilder:validation:Enum=1;two
    pub level: i32,
}

fn main() {}
