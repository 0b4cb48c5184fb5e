use kubegen::CustomResource;
use serde::{Deserialize, Serialize};

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "samplecontroller.k8s.io", version = "v1alpha1", kind = "Foo")]
pub struct FooSpec {
    pub name: String,
}

fn main() {}
