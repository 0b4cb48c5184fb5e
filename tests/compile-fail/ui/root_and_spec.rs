use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kubegen::CustomResource;
use serde::{Deserialize, Serialize};

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Sample", status = "SampleStatus")]
pub struct Sample {
    pub metadata: ObjectMeta,
    pub test_string: String,
}

fn main() {}
