use kubegen::KubeSchema;
use serde::{Deserialize, Serialize};

/// +kubebuilder:validation:XValidation:rule="self.replica > 0",message="typo"
/// +kubebuilder:validation:ExactlyOneOf=owner;team
#[derive(KubeSchema, Serialize, Deserialize)]
pub struct Spec {
    pub replicas: i32,
    pub owner: String,
    pub team: Option<String>,
}

fn main() {}

#[derive(KubeSchema, Serialize, Deserialize)]
pub struct Broken {
    #[kube(validation(rule = "self.size( > 1", message = "broken"))]
    pub names: Vec<String>,
}
