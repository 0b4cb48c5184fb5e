//! A Go package's `+groupName=` (from its `groupversion_info.go`) ports to the module's
//! `//!` doc: kinds defined here without `group` take it.
//!
//! +groupName=cache.example.com
//! +versionName=v1alpha1

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kubegen::{CustomResource, CustomResourceExt};
use serde::{Deserialize, Serialize};

/// Memcached is the Schema for the memcacheds API.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(namespaced)]
pub struct Memcached {
    pub metadata: ObjectMeta,
    pub size: Option<i32>,
}

/// An explicit group still wins.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "other.example.com", version = "v1", kind = "Other")]
pub struct OtherSpec {
    pub size: Option<i32>,
}

#[test]
fn the_module_doc_names_group_and_version() {
    let crd = Memcached::crd();
    assert_eq!(crd.metadata.name.as_deref(), Some("memcacheds.cache.example.com"));
    assert_eq!(crd.spec.versions[0].name, "v1alpha1");
    assert_eq!(Other::crd().spec.group, "other.example.com");
}
