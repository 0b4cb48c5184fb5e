use kubegen::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Foo", status = "FooStatus")]
#[kube(scale(spec_replicas_path = ".replicas", status_replicas_path = ".spec.replicas"))]
pub struct FooSpec {
    pub replicas: i32,
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub struct FooStatus {
    pub replicas: i32,
}

fn main() {}
