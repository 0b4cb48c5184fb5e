use kubegen::CustomResource;
use serde::{Deserialize, Serialize};

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = 1, kind = "Foo", namespaced = "yes")]
pub struct FooSpec {
    #[kube(maximum = "ten")]
    pub replicas: i32,
    /// +kubebuilder:validation:MinLength=one
    pub name: String,
}

fn main() {}
