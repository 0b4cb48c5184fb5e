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

/// The Go habit: `metav1.TypeMeta` inlined.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "cache.example.com", version = "v1alpha1", namespaced)]
pub struct Typed {
    #[serde(flatten)]
    pub types: kube::core::TypeMeta,
    pub metadata: ObjectMeta,
    pub size: Option<i32>,
}

#[test]
fn an_inlined_type_meta_serializes_api_version_and_kind() {
    let typed = Typed {
        types: kube::core::TypeMeta::resource::<Typed>(),
        metadata: ObjectMeta { name: Some("t".into()), ..Default::default() },
        size: Some(1),
    };
    let json = serde_json::to_value(&typed).expect("serializes");
    assert_eq!(json["apiVersion"], "cache.example.com/v1alpha1");
    assert_eq!(json["kind"], "Typed");
    let crd = Typed::crd();
    let schema = crd.spec.versions[0].schema.as_ref().and_then(|s| s.open_api_v3_schema.as_ref()).expect("a schema");
    let fields: Vec<&String> = schema.properties.as_ref().expect("properties").keys().collect();
    assert_eq!(fields, ["apiVersion", "kind", "metadata", "size"]);
}

/// A Go API whose root has the status subresource but no status field yet.
/// +kubebuilder:subresource:status
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "cache.example.com", version = "v1alpha1", namespaced)]
pub struct Bare {
    pub metadata: ObjectMeta,
    pub size: Option<i32>,
}

#[test]
fn the_status_subresource_without_a_status_field_is_kept() {
    let crd = Bare::crd();
    let subresources = crd.spec.versions[0].subresources.as_ref().expect("subresources");
    assert!(subresources.status.is_some());
}
