use kubegen::CustomResource;
use serde::{Deserialize, Serialize};

/// +kubebuilder:subresource:stats
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Foo")]
pub struct FooSpec {
    /// The name.
    /// +kubebuilder:validation:MaxLenght=63
    pub name: String,
}

fn main() {}
