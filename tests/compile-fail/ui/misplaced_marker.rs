use kubegen::KubeSchema;
use serde::{Deserialize, Serialize};

/// +kubebuilder:subresource:status
#[derive(KubeSchema, Serialize, Deserialize)]
pub struct Nested {
    #[kube(shortname = "n")]
    pub name: String,
}

fn main() {}
