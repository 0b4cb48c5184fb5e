use kubegen::CustomResource;
use serde::{Deserialize, Serialize};

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Tuned")]
pub struct TunedSpec {
    /// +default=ref(NO_SUCH_CONSTANT)
    pub b: Option<u32>,
}

fn main() {}
