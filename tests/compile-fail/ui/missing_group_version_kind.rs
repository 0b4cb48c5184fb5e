use kubegen::CustomResource;
use serde::{Deserialize, Serialize};

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(kind = "Foo")]
pub struct FooSpec {
    pub name: String,
}

fn main() {}
