use kubegen::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Limits {
    pub cpu: String,
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Cache", apply_config)]
pub struct CacheSpec {
    pub limits: Limits,
}

fn main() {}
