use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kubegen::CustomResource;
use serde::{Deserialize, Serialize};

// A malformed path makes `kubectl get` drop every column; a misspelled field shows nothing.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Memcached")]
#[kube(printcolumn(name = "Size", type = "integer", json_path = ".spec.size[0"))]
#[kube(printcolumn(name = "Sise", type = "integer", json_path = ".spec.sise"))]
#[kube(printcolumn(name = "Dots", type = "integer", json_path = ".spec..size"))]
// A scale status path on a kind without status.
#[kube(scale(spec_replicas_path = ".spec.size", status_replicas_path = ".status.replicas"))]
pub struct MemcachedSpec {
    pub size: i32,
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Cache")]
#[kube(scale(spec_replicas_path = ".spec.size", status_replicas_path = ".status.replicas"))]
pub struct Cache {
    pub metadata: ObjectMeta,
    pub spec: i32,
}

fn main() {}
