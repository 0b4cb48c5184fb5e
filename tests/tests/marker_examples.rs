//! The marker reference's examples, compiled: one module per marker of the registry, with
//! the example docs/markers.md shows and a test that the CRD holds what the reference says
//! the marker writes. Generated from core/src/markers/registry.rs by cli/src/reference.rs
//! (`KUBEGEN_BLESS=1 cargo test -p kubegen-cli --lib reference` rewrites it); edit the
//! registry, not this file.

// Some examples show a function a user would call (`a == b` on a derived `PartialEq`).
#![allow(dead_code)]

use kubegen::{CustomResource, CustomResourceExt, KubeSchema};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Some node of `crd` holds `writes` (YAML): each key with its value, where a mapping may
/// have more keys, a list has exactly the items given, and `~` means the key is absent.
#[track_caller]
fn assert_writes(crd: impl Serialize, writes: &str) {
    let crd = serde_json::to_value(crd).expect("the CRD serializes");
    let want: Value = serde_saphyr::from_str(writes).expect("`writes` is YAML");
    assert!(
        some_node(&crd, &want),
        "no node of the CRD holds\n{writes}\nThe CRD:\n{}",
        serde_json::to_string_pretty(&crd).unwrap_or_default()
    );
}

fn some_node(node: &Value, want: &Value) -> bool {
    holds(node, want)
        || match node {
            Value::Object(map) => map.values().any(|v| some_node(v, want)),
            Value::Array(items) => items.iter().any(|v| some_node(v, want)),
            _ => false,
        }
}

fn holds(have: &Value, want: &Value) -> bool {
    match (have, want) {
        (Value::Object(have), Value::Object(want)) => want.iter().all(|(key, want)| match have.get(key) {
            None => want.is_null(),
            Some(have) => !want.is_null() && holds(have, want),
        }),
        (Value::Array(have), Value::Array(want)) => {
            have.len() == want.len() && have.iter().zip(want).all(|(have, want)| holds(have, want))
        }
        // The CRD writes bounds as floats (`maximum: 10.0`); the YAML says `10`.
        (Value::Number(have), Value::Number(want)) => have.as_f64() == want.as_f64(),
        _ => have == want,
    }
}

mod group {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        pub replicas: i32,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
metadata:
  name: foos.example.com
spec:
  group: example.com
"#,
        );
    }
}

mod version {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        pub replicas: i32,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
versions:
- name: v1
  served: true
  storage: true
"#,
        );
    }
}

mod kind {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        pub replicas: i32,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
names:
  kind: Foo
  listKind: FooList
  plural: foos
  singular: foo
"#,
        );
    }
}

mod plural {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    #[kube(plural = "fooes")]
    pub struct FooSpec {
        pub replicas: i32,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
metadata:
  name: fooes.example.com
spec:
  names:
    plural: fooes
"#,
        );
    }
}

mod singular {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    #[kube(singular = "thefoo")]
    pub struct FooSpec {
        pub replicas: i32,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
names:
  singular: thefoo
"#,
        );
    }
}

mod root {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    #[kube(root = "FooResource")]
    pub struct FooSpec {
        pub replicas: i32,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            FooResource::crd(),
            r#"
names:
  kind: Foo
"#,
        );
    }
}

mod namespaced {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    #[kube(namespaced = false)]
    pub struct FooSpec {
        pub replicas: i32,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
scope: Cluster
"#,
        );
    }
}

mod resource {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    #[kube(resource(path = "foos", short_name = ["fo"], categories = ["all"], scope = "Cluster"))]
    pub struct FooSpec {
        pub replicas: i32,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
names:
  categories:
  - all
  plural: foos
  shortNames:
  - fo
scope: Cluster
"#,
        );
    }
}

mod shortname {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    #[kube(shortname = "fo")]
    pub struct FooSpec {
        pub replicas: i32,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
names:
  shortNames:
  - fo
"#,
        );
    }
}

mod category {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    #[kube(category = "all")]
    pub struct FooSpec {
        pub replicas: i32,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
names:
  categories:
  - all
"#,
        );
    }
}

mod status {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo", status = "FooStatus")]
    pub struct FooSpec {
        pub replicas: i32,
    }

    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    pub struct FooStatus {
        pub ready: bool,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
subresources:
  status: {}
"#,
        );
    }
}

mod status_subresource {
    use super::*;

    use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

    /// +kubebuilder:subresource:status
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct Foo {
        pub metadata: ObjectMeta,
        pub spec: FooSpec,
        pub status: Option<FooStatus>,
    }

    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    pub struct FooSpec {
        pub replicas: i32,
    }

    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    pub struct FooStatus {
        pub ready: bool,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
subresources:
  status: {}
"#,
        );
    }
}

mod scale {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo", status = "FooStatus")]
    #[kube(scale(spec_replicas_path = ".spec.replicas", status_replicas_path = ".status.replicas"))]
    pub struct FooSpec {
        pub replicas: i32,
    }

    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    pub struct FooStatus {
        pub replicas: i32,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
subresources:
  scale:
    specReplicasPath: .spec.replicas
    statusReplicasPath: .status.replicas
  status: {}
"#,
        );
    }
}

mod printcolumn {
    use super::*;

    /// +kubebuilder:printcolumn:name="Replicas",type=integer,JSONPath=".spec.replicas"
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        pub replicas: i32,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
additionalPrinterColumns:
- jsonPath: .spec.replicas
  name: Replicas
  type: integer
"#,
        );
    }
}

mod selectable {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    #[kube(selectable(json_path = ".spec.replicas"))]
    pub struct FooSpec {
        pub replicas: i32,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
selectableFields:
- jsonPath: .spec.replicas
"#,
        );
    }
}

mod storage {
    use super::*;

    pub mod v1 {
        use super::*;

        /// +kubebuilder:storageversion
        #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
        #[kube(group = "example.com", version = "v1", kind = "Foo")]
        pub struct FooSpec {
            pub replicas: i32,
        }
    }

    pub mod v2 {
        use super::*;

        #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
        #[kube(group = "example.com", version = "v2", kind = "Foo")]
        pub struct FooSpec {
            pub replicas: i32,
        }
    }

    #[test]
    fn builds_its_crd() {
        serde_json::to_value(v1::Foo::crd()).expect("the CRD serializes");
    }
}

mod served {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    #[kube(served = false)]
    pub struct FooSpec {
        pub replicas: i32,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
versions:
- name: v1
  served: false
"#,
        );
    }
}

mod unserved {
    use super::*;

    /// +kubebuilder:unservedversion
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        pub replicas: i32,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
versions:
- name: v1
  served: false
"#,
        );
    }
}

mod deprecated {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    #[kube(deprecated = "example.com/v1 Foo is deprecated; use v2")]
    pub struct FooSpec {
        pub replicas: i32,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
versions:
- deprecated: true
  deprecationWarning: example.com/v1 Foo is deprecated; use v2
  name: v1
"#,
        );
    }
}

mod skip_version {
    use super::*;

    pub mod v1 {
        use super::*;

        /// +kubebuilder:skipversion
        #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
        #[kube(group = "example.com", version = "v1", kind = "Foo")]
        pub struct FooSpec {
            pub replicas: i32,
        }
    }

    pub mod v2 {
        use super::*;

        #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
        #[kube(group = "example.com", version = "v2", kind = "Foo")]
        pub struct FooSpec {
            pub replicas: i32,
        }
    }

    #[test]
    fn builds_its_crd() {
        serde_json::to_value(v1::Foo::crd()).expect("the CRD serializes");
    }
}

mod metadata {
    use super::*;

    /// +kubebuilder:metadata:annotations="owner=team-a",labels="tier=api"
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        pub replicas: i32,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
metadata:
  annotations:
    owner: team-a
  labels:
    tier: api
"#,
        );
    }
}

mod annotation {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    #[kube(annotation("owner", "team-a"))]
    pub struct FooSpec {
        pub replicas: i32,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
metadata:
  annotations:
    owner: team-a
"#,
        );
    }
}

mod label {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    #[kube(label("tier", "api"))]
    pub struct FooSpec {
        pub replicas: i32,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
metadata:
  labels:
    tier: api
"#,
        );
    }
}

mod doc {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    #[kube(doc = "A Foo runs replicas.")]
    pub struct FooSpec {
        pub replicas: i32,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
openAPIV3Schema:
  description: A Foo runs replicas.
"#,
        );
    }
}

mod schema {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    #[kube(schema = "disabled")]
    pub struct FooSpec {
        pub replicas: i32,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
openAPIV3Schema:
  type: object
  x-kubernetes-preserve-unknown-fields: true
"#,
        );
    }
}

mod no_spec {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    #[kube(no_spec)]
    pub struct FooSpec {
        pub replicas: i32,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
openAPIV3Schema:
  properties:
    replicas:
      type: integer
    spec: ~
"#,
        );
    }
}

mod derive {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[kube(group = "example.com", version = "v1", kind = "Foo", derive = "PartialEq")]
    pub struct FooSpec {
        pub replicas: i32,
    }

    pub fn same(a: &Foo, b: &Foo) -> bool {
        a == b
    }

    #[test]
    fn builds_its_crd() {
        serde_json::to_value(Foo::crd()).expect("the CRD serializes");
    }
}

mod attr {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    #[kube(attr = "allow(deprecated)")]
    pub struct FooSpec {
        pub replicas: i32,
    }

    #[test]
    fn builds_its_crd() {
        serde_json::to_value(Foo::crd()).expect("the CRD serializes");
    }
}

mod object_root {
    use super::*;

    use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

    /// +kubebuilder:object:root=true
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct Foo {
        pub metadata: ObjectMeta,
        pub replicas: i32,
    }

    #[test]
    fn builds_its_crd() {
        serde_json::to_value(Foo::crd()).expect("the CRD serializes");
    }
}

mod schema_type {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(schema_type = "string")]
        pub quantity: serde_json::Value,
        /// +kubebuilder:validation:Type=string
        pub size: serde_json::Value,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
quantity:
  type: string
size:
  type: string
"#,
        );
    }
}

mod int_or_string {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(int_or_string)]
        pub port: serde_json::Value,
        /// +kubebuilder:validation:XIntOrString
        pub target: serde_json::Value,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
port:
  x-kubernetes-int-or-string: true
target:
  x-kubernetes-int-or-string: true
"#,
        );
    }
}

mod list_type {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(list_type = "set")]
        pub tags: Vec<String>,
        /// +listType=atomic
        pub args: Vec<String>,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
args:
  x-kubernetes-list-type: atomic
tags:
  x-kubernetes-list-type: set
"#,
        );
    }
}

mod list_map_keys {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(list_type = "map", list_map_keys = ["name"])]
        pub ports: Vec<Port>,
        /// +listType=map
        /// +listMapKey=name
        /// +listMapKey=port
        pub backends: Vec<Port>,
    }

    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    pub struct Port {
        pub name: String,
        pub port: i32,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
backends:
  x-kubernetes-list-map-keys:
  - name
  - port
  x-kubernetes-list-type: map
ports:
  x-kubernetes-list-map-keys:
  - name
  x-kubernetes-list-type: map
"#,
        );
    }
}

mod map_type {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(map_type = "atomic")]
        pub selector: std::collections::BTreeMap<String, String>,
        /// +mapType=granular
        pub labels: std::collections::BTreeMap<String, String>,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
labels:
  x-kubernetes-map-type: granular
selector:
  x-kubernetes-map-type: atomic
"#,
        );
    }
}

mod struct_type {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(struct_type = "atomic")]
        pub selector: Selector,
        pub owner: Owner,
    }

    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    pub struct Selector {
        pub app: String,
    }

    /// +structType=atomic
    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    pub struct Owner {
        pub name: String,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
owner:
  x-kubernetes-map-type: atomic
selector:
  x-kubernetes-map-type: atomic
"#,
        );
    }
}

mod minimum {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(minimum = 1)]
        pub replicas: i32,
        /// +kubebuilder:validation:Minimum=0.5
        pub ratio: f64,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
ratio:
  minimum: 0.5
replicas:
  minimum: 1
"#,
        );
    }
}

mod maximum {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(maximum = 10)]
        pub replicas: i32,
        /// +kubebuilder:validation:Maximum=1
        pub ratio: f64,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
ratio:
  maximum: 1
replicas:
  maximum: 10
"#,
        );
    }
}

mod exclusive_minimum {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(minimum = 0, exclusive_minimum)]
        pub ratio: f64,
        /// +kubebuilder:validation:Minimum=0
        /// +kubebuilder:validation:ExclusiveMinimum=true
        pub weight: f64,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
ratio:
  exclusiveMinimum: true
  minimum: 0
weight:
  exclusiveMinimum: true
  minimum: 0
"#,
        );
    }
}

mod exclusive_maximum {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(maximum = 1, exclusive_maximum)]
        pub ratio: f64,
        /// +kubebuilder:validation:Maximum=1
        /// +kubebuilder:validation:ExclusiveMaximum=true
        pub weight: f64,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
ratio:
  exclusiveMaximum: true
  maximum: 1
weight:
  exclusiveMaximum: true
  maximum: 1
"#,
        );
    }
}

mod multiple_of {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(multiple_of = 5)]
        pub step: i32,
        /// +kubebuilder:validation:MultipleOf=10
        pub batch: i32,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
batch:
  multipleOf: 10
step:
  multipleOf: 5
"#,
        );
    }
}

mod min_length {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(min_length = 1)]
        pub name: String,
        /// +kubebuilder:validation:MinLength=3
        pub owner: String,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
name:
  minLength: 1
owner:
  minLength: 3
"#,
        );
    }
}

mod max_length {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(max_length = 63)]
        pub name: String,
        /// +kubebuilder:validation:MaxLength=253
        pub host: String,
        /// Kubernetes' declarative validation tag.
        ///
        /// +k8s:maxLength=16
        pub zone: String,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
host:
  maxLength: 253
name:
  maxLength: 63
zone:
  maxLength: 16
"#,
        );
    }
}

mod pattern {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(pattern = "^[a-z]+$")]
        pub name: String,
        /// +kubebuilder:validation:Pattern=`^v[0-9]+$`
        pub release: String,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
name:
  pattern: ^[a-z]+$
release:
  pattern: ^v[0-9]+$
"#,
        );
    }
}

mod format {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(format = "date-time")]
        pub since: String,
        /// +kubebuilder:validation:Format=uri
        pub homepage: String,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
homepage:
  format: uri
since:
  format: date-time
"#,
        );
    }
}

mod min_items {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(min_items = 1)]
        pub tags: Vec<String>,
        /// +kubebuilder:validation:MinItems=2
        pub hosts: Vec<String>,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
hosts:
  minItems: 2
tags:
  minItems: 1
"#,
        );
    }
}

mod max_items {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(max_items = 3)]
        pub tags: Vec<String>,
        /// +kubebuilder:validation:MaxItems=10
        pub hosts: Vec<String>,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
hosts:
  maxItems: 10
tags:
  maxItems: 3
"#,
        );
    }
}

mod min_properties {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(min_properties = 1)]
        pub labels: std::collections::BTreeMap<String, String>,
        /// +kubebuilder:validation:MinProperties=2
        pub annotations: std::collections::BTreeMap<String, String>,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
annotations:
  minProperties: 2
labels:
  minProperties: 1
"#,
        );
    }
}

mod max_properties {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(max_properties = 8)]
        pub labels: std::collections::BTreeMap<String, String>,
        /// +kubebuilder:validation:MaxProperties=16
        pub annotations: std::collections::BTreeMap<String, String>,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
annotations:
  maxProperties: 16
labels:
  maxProperties: 8
"#,
        );
    }
}

mod enum_values {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(enum_values = ["fast", "safe"])]
        pub mode: String,
        /// +kubebuilder:validation:Enum=Always;Never
        pub restart: String,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
mode:
  enum:
  - fast
  - safe
restart:
  enum:
  - Always
  - Never
"#,
        );
    }
}

mod nullable {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(nullable)]
        pub note: Option<String>,
        /// +nullable
        pub comment: Option<String>,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
comment:
  nullable: true
note:
  nullable: true
"#,
        );
    }
}

mod preserve_unknown_fields {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(preserve_unknown_fields)]
        pub settings: std::collections::BTreeMap<String, String>,
        /// +kubebuilder:pruning:PreserveUnknownFields
        pub extra: std::collections::BTreeMap<String, String>,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
extra:
  x-kubernetes-preserve-unknown-fields: true
settings:
  x-kubernetes-preserve-unknown-fields: true
"#,
        );
    }
}

mod embedded_resource {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(embedded_resource, preserve_unknown_fields)]
        pub template: serde_json::Value,
        /// +kubebuilder:validation:EmbeddedResource
        /// +kubebuilder:pruning:PreserveUnknownFields
        pub subject: serde_json::Value,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
subject:
  x-kubernetes-embedded-resource: true
template:
  x-kubernetes-embedded-resource: true
"#,
        );
    }
}

mod schemaless {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(schemaless)]
        pub config: Config,
        /// +kubebuilder:validation:Schemaless
        pub extra: Config,
    }

    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    pub struct Config {
        pub level: i32,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
config:
  properties: ~
  type: ~
  x-kubernetes-preserve-unknown-fields: true
extra:
  properties: ~
  type: ~
  x-kubernetes-preserve-unknown-fields: true
"#,
        );
    }
}

mod title {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(title = "Replicas")]
        pub replicas: i32,
        /// +kubebuilder:title=Image
        pub image: String,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
image:
  title: Image
replicas:
  title: Replicas
"#,
        );
    }
}

mod external_docs {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(external_docs(url = "https://example.com/docs/replicas", description = "Scaling"))]
        pub replicas: i32,
        /// +kubebuilder:externalDocs:url="https://example.com/docs/image"
        pub image: String,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
image:
  externalDocs:
    url: https://example.com/docs/image
replicas:
  externalDocs:
    description: Scaling
    url: https://example.com/docs/replicas
"#,
        );
    }
}

mod example {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(example = "web-1")]
        pub name: String,
        /// +kubebuilder:example=3
        pub replicas: i32,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
name:
  example: web-1
replicas:
  example: 3
"#,
        );
    }
}

mod example_json {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(example_json = r#"{"app": "web"}"#)]
        pub labels: std::collections::BTreeMap<String, String>,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
labels:
  example:
    app: web
"#,
        );
    }
}

mod default_json {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(default_json = r#"{"app": "web"}"#)]
        pub labels: Option<std::collections::BTreeMap<String, String>>,
        /// +default=3
        pub replicas: Option<i32>,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
labels:
  default:
    app: web
replicas:
  default: 3
"#,
        );
    }
}

mod default {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(default = 1)]
        pub replicas: Option<i32>,
        /// +kubebuilder:default=safe
        pub mode: Option<String>,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
mode:
  default: safe
replicas:
  default: 1
"#,
        );
    }
}

mod validation {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(validation(rule = "self >= 0", message = "must not be negative"))]
        pub replicas: i32,
        /// +kubebuilder:validation:XValidation:rule="self.startsWith('v')",message="starts with v"
        pub release: String,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
release:
  x-kubernetes-validations:
  - message: starts with v
    rule: self.startsWith('v')
replicas:
  x-kubernetes-validations:
  - message: must not be negative
    rule: self >= 0
"#,
        );
    }
}

mod immutable {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(immutable)]
        pub id: String,
        /// +k8s:immutable
        pub zone: String,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
id:
  x-kubernetes-validations:
  - message: field is immutable
    rule: self == oldSelf
zone:
  x-kubernetes-validations:
  - message: field is immutable
    rule: self == oldSelf
"#,
        );
    }
}

mod at_most_one_of {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    #[kube(at_most_one_of = ["image", "build"])]
    pub struct FooSpec {
        pub image: Option<String>,
        pub build: Option<String>,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
x-kubernetes-validations:
- message: at most one of the fields in [image build] may be set
  rule: '(has(self.image)?1:0) + (has(self.build)?1:0) <= 1'
"#,
        );
    }
}

mod exactly_one_of {
    use super::*;

    /// +kubebuilder:validation:ExactlyOneOf=image;build
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        pub image: Option<String>,
        pub build: Option<String>,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
x-kubernetes-validations:
- message: exactly one of the fields in [image build] must be set
  rule: '(has(self.image)?1:0) + (has(self.build)?1:0) == 1'
"#,
        );
    }
}

mod at_least_one_of {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    #[kube(at_least_one_of = ["image", "build"])]
    pub struct FooSpec {
        pub image: Option<String>,
        pub build: Option<String>,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
x-kubernetes-validations:
- message: at least one of the fields in [image build] must be set
  rule: 'has(self.image) || has(self.build)'
"#,
        );
    }
}

mod optional {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(optional)]
        pub name: String,
        /// +optional
        pub nick: String,
        pub id: String,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
required:
- id
"#,
        );
    }
}

mod required {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(required)]
        pub name: Option<String>,
        /// +required
        pub nick: Option<String>,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
required:
- name
- nick
"#,
        );
    }
}

mod items {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        #[kube(items(max_length = 63))]
        pub hosts: Vec<String>,
        /// +kubebuilder:validation:items:Minimum=1
        pub ports: Vec<i32>,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
hosts:
  items:
    maxLength: 63
ports:
  items:
    minimum: 1
"#,
        );
    }
}

mod skip_description {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        /// How many pods run. (Dropped.)
        #[kube(skip_description)]
        pub replicas: i32,
        /// What the pods run. (Dropped.)
        /// +kubegen:skipDescription
        pub image: String,
        /// Kept.
        pub name: String,
    }

    #[test]
    fn writes() {
        super::assert_writes(
            Foo::crd(),
            r#"
image:
  description: ~
replicas:
  description: ~
name:
  description: Kept.
"#,
        );
    }
}

mod apply_config {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo", apply_config)]
    pub struct FooSpec {
        pub replicas: i32,
    }

    pub fn scale_to_three() -> FooApply {
        FooApply::new("web").spec(FooSpecApply::default().replicas(3))
    }

    #[test]
    fn builds_its_crd() {
        serde_json::to_value(Foo::crd()).expect("the CRD serializes");
    }
}
