// One wrong marker is one error: the types that use the broken one (a field, a spec, the
// root and its client) report nothing more.
use kubegen::{CustomResource, CustomResourceExt, KubeSchema};
use serde::{Deserialize, Serialize};

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Server {
    /// +kubebuilder:validation:Minimum=70000
    /// +kubebuilder:validation:Maximum=65535
    pub port: i32,
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Memcached")]
pub struct MemcachedSpec {
    pub server: Server,
    /// +kubebuilder:validation:MaxLength=-1
    pub name: String,
}

fn main() {
    let _ = Memcached::crd();
}
