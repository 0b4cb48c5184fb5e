// `+kubebuilder:rbac` and `+kubebuilder:webhook` in a derived type's doc comment are
// `codegen-cli manifests`' to read (from any comment); the derive checks them with the
// same parser instead of calling them unknown markers. Valid ones build; a bad verb and a
// webhook without its required arguments are errors at the line.
use kubegen::CustomResource;
use serde::{Deserialize, Serialize};

/// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch
/// +kubebuilder:rbac:groups=apps,resources=deployments/status,verbs=fetch
/// +kubebuilder:webhook:path=/validate,mutating=false
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Sample")]
pub struct SampleSpec {
    pub size: i32,
}

fn main() {}
