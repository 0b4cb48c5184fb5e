use kubegen::CustomResource;
use serde::{Deserialize, Serialize};

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Foo", namespace)]
pub struct FooSpec {
    #[kube(min_lenght = 1)]
    pub name: String,
}

fn main() {}
