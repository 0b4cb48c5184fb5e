//! Printer-column and scale paths are checked to their last step: the derive sees the
//! spec's own fields, and `kubegen::crd::lint` (which `codegen-cli manifests` runs before
//! writing) follows the path through the whole schema.

use kubegen::{CustomResource, CustomResourceExt, KubeSchema};
use serde::{Deserialize, Serialize};

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Server {
    pub port: i32,
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Memcached")]
#[kube(printcolumn(name = "Port", type = "integer", json_path = ".spec.server.prot"))]
#[kube(printcolumn(name = "Fine", type = "integer", json_path = ".spec.server.port"))]
pub struct MemcachedSpec {
    pub server: Server,
}

#[test]
fn a_misspelled_nested_field_is_reported() {
    let problems = kubegen::crd::lint(&Memcached::crd());
    assert_eq!(
        problems,
        [
            "memcacheds.example.com v1: printer column `.spec.server.prot`: `.spec.server` has no field `prot`; it has port"
        ]
    );
}
