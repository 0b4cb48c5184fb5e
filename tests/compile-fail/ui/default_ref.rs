use kubegen::CustomResource;
use serde::{Deserialize, Serialize};

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Tuned")]
pub struct TunedSpec {
    /// +default=ref(1 + 2)
    pub a: Option<u32>,
    /// +default=ref(Mode
    pub c: Option<u32>,
}

fn main() {}
