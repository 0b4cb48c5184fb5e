//! A root struct (the derive on a type with `metadata`) is its kind unless `kind` says
//! otherwise, as controller-gen names a Go root type.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kubegen::{CustomResource, CustomResourceExt};
use serde::{Deserialize, Serialize};

/// Memcached is the Schema for the memcacheds API.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "cache.example.com", version = "v1alpha1", namespaced)]
pub struct Memcached {
    pub metadata: ObjectMeta,
    pub size: Option<i32>,
}

#[test]
fn the_root_struct_names_the_kind() {
    let crd = Memcached::crd();
    assert_eq!(crd.spec.names.kind, "Memcached");
    assert_eq!(crd.spec.names.plural, "memcacheds");
    assert_eq!(crd.metadata.name.as_deref(), Some("memcacheds.cache.example.com"));
}
