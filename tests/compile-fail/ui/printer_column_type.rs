use kubegen::CustomResource;
use serde::{Deserialize, Serialize};

/// +kubebuilder:printcolumn:name="Size",type=int,JSONPath=".spec.size"
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Foo")]
#[kube(printcolumn(name = "Name", type = "text", json_path = ".spec.name"))]
#[kube(printcolumn(name = "Missing", type = "string", json_path = ".spec.nmae"))]
pub struct FooSpec {
    pub name: String,
    pub size: i32,
}

fn main() {}
