//! Memcached: version v1alpha1 of the API group cache.example.com.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition;
use kubegen::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};

/// MemcachedSpec is the desired state of Memcached.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[kube(
    group = "cache.example.com",
    version = "v1alpha1",
    kind = "Memcached",
    namespaced,
    status = "MemcachedStatus"
)]
// The kind's own description: the CRD's top-level one, what `kubectl explain memcached` shows.
#[kube(doc = "Memcached is the Schema for the memcacheds API.")]
#[serde(rename_all = "camelCase")]
pub struct MemcachedSpec {
    // TODO(user): the fields of the desired state, with their markers. An example:
    /// Foo is an example field of Memcached; edit or remove it.
    /// +kubebuilder:validation:MaxLength=63
    pub foo: Option<String>,
}

/// MemcachedStatus is the observed state of Memcached.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct MemcachedStatus {
    /// The latest observations of the Memcached's state: `Available`, `Progressing`,
    /// `Degraded`. Set them with `kubegen::conditions::set`.
    /// +listType=map
    /// +listMapKey=type
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
}
