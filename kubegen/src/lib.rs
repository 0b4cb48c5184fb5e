//! kubegen: describe a Kubernetes API as Rust types with kubebuilder markers; get
//! structural CustomResourceDefinitions that a real API server accepts.
//!
//! ```ignore
//! use kubegen::{CustomResource, KubeSchema, CustomResourceExt};
//!
//! /// FooSpec is the spec for a Foo resource.
//! #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
//! #[kube(group = "samplecontroller.k8s.io", version = "v1alpha1", kind = "Foo", namespaced)]
//! #[serde(rename_all = "camelCase")]
//! pub struct FooSpec {
//!     #[kube(min_length = 1)]
//!     pub deployment_name: String,
//!     /// +kubebuilder:validation:Minimum=1
//!     pub replicas: Option<i32>,
//! }
//!
//! let crd = Foo::crd();
//! ```

pub mod apply;
mod cel_fields;
pub mod conditions;
pub mod crd;
#[cfg(feature = "runtime")]
pub mod host;
pub mod kinds;
pub mod rbac;
/// The earlier name of [`kinds`] (it held the kinds, and collided with the marker registry).
#[doc(hidden)]
pub use kinds as registry;
mod root;
pub mod schema;
mod schema_data;
#[cfg(feature = "testenv")]
pub mod testenv;
pub mod validate;
pub mod webhook;

pub use crd::{MergeError, merge_crds, to_yaml};
pub use kube_core::CustomResourceExt;
pub use kube_core::{Message, Reason, Rule};
pub use kubegen_derive::{CustomResource, KubeSchema, rbac, webhook};
pub use validate::{Validate, Violation, Violations};

/// A kind's CRD with explicit schema options (`codegen-cli manifests`' flags);
/// [`CustomResourceExt::crd`] is this with the defaults. Implemented by
/// `#[derive(CustomResource)]`.
pub trait CrdWithOptions: CustomResourceExt {
    fn crd_with(
        options: &schema::Options,
    ) -> k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;

    /// The CRD and the kind's client model, from one pass over its types (what
    /// `codegen-cli`'s helper program prints). The derive implements it; by default a
    /// kind has no typed client.
    #[doc(hidden)]
    fn crd_and_types(
        options: &schema::Options,
    ) -> (
        k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition,
        kubegen_core::kind::KindTypes,
    ) {
        let types =
            kubegen_core::kind::KindTypes { style: kubegen_core::kind::Style::Disabled, data: None, status: None };
        (Self::crd_with(options), types)
    }

    /// The CRD, checked offline as the API server checks a CRD it reads ([`crd::lint`]:
    /// CEL rules with where they stand and how often they run, defaults against their
    /// schema, list-map keys, printer-column paths): `Err` names every problem the server
    /// would refuse it for, with what to write instead. [`CustomResourceExt::crd`] returns
    /// the CRD unchecked; `codegen-cli manifests` refuses to write one that fails this.
    fn checked_crd() -> Result<
        k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition,
        crd::Refused,
    > {
        crd::checked(Self::crd())
    }
}

/// What generated code names. Not a public API: it changes without notice.
#[doc(hidden)]
pub mod __private {
    /// What the derive writes of each struct's fields, and the constant checks of the
    /// CEL rules that read them from another type.
    pub mod cel {
        pub use crate::cel_fields::*;
    }
    pub use inventory;
    pub use k8s_openapi;
    pub use kube_core;
    pub use schemars;
    pub use serde;
    pub use serde_json;

    pub use crate::crd::{PrinterColumnDef, ResourceDef, RootTyped, ScaleDef, build_kind};
    pub use crate::kinds::Registration;
    pub use crate::root::{NoStatus, RootParts, serialize_root};
    pub use crate::schema::typed_for;
    pub use crate::schema_data::{
        Mark, MaybeSerialize, Node, NotSerialize, Object, Property, Variant, built_from_data, enum_schema,
        object_schema,
    };
    pub use kubegen_core::schema::markers::Rule as CelRule;

    /// A kind's CRD, built on the first call and kept in `cell` (the derive's `crd()`): a
    /// CRD is a pure function of the types, and building one walks every schema (a pod
    /// template's takes milliseconds). One built while a marker failed to read back is
    /// not kept, so each call reports it again to whoever checks.
    pub fn cached_crd(
        cell: &'static std::sync::OnceLock<
            k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition,
        >,
        build: impl FnOnce() -> k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition,
    ) -> k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition {
        if let Some(crd) = cell.get() {
            return crd.clone();
        }
        let unread_before = crate::schema::markers::any_unread();
        let crd = build();
        if !unread_before && !crate::schema::markers::any_unread() {
            let _ = cell.set(crd.clone());
        }
        crd
    }

    /// A root rule written as kube's [`crate::Rule`] expression, as the CRD carries it.
    pub fn cel_rule(rule: kube_core::Rule) -> CelRule {
        let (message, message_expression) = match rule.message {
            Some(kube_core::Message::Message(m)) => (Some(m), None),
            Some(kube_core::Message::Expression(e)) => (None, Some(e)),
            None => (None, None),
        };
        let reason = rule.reason.map(|r| match r {
            kube_core::Reason::FieldValueInvalid => "FieldValueInvalid",
            kube_core::Reason::FieldValueForbidden => "FieldValueForbidden",
            kube_core::Reason::FieldValueRequired => "FieldValueRequired",
            kube_core::Reason::FieldValueDuplicate => "FieldValueDuplicate",
        });
        CelRule {
            rule: rule.rule,
            message,
            message_expression,
            reason: reason.map(String::from),
            field_path: rule.field_path,
            optional_old_self: rule.optional_old_self,
        }
    }

    pub use kubegen_core::kind::{KindTypes, Style};

    /// The schema of k8s-openapi's `ByteString` (Go's `[]byte`), which has no
    /// `JsonSchema` of its own: base64 text.
    pub struct ByteStringSchema;

    impl schemars::JsonSchema for ByteStringSchema {
        fn schema_name() -> std::borrow::Cow<'static, str> {
            "ByteString".into()
        }

        fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
            schemars::json_schema!({ "type": "string", "format": "byte" })
        }

        fn inline_schema() -> bool {
            true
        }
    }

    /// `+default=ref(PATH)`: the constant's serde JSON as the node's default, handed to
    /// the structural pass as a marker.
    pub struct DefaultRef(pub Option<serde_json::Value>);

    impl schemars::transform::Transform for DefaultRef {
        fn transform(&mut self, schema: &mut schemars::Schema) {
            if let Some(value) = self.0.take() {
                let markers = kubegen_core::schema::markers::NodeMarkers {
                    set: vec![kubegen_core::schema::markers::Fact::Default(value)],
                    ..Default::default()
                };
                push_markers(schema, serde_json::to_value(markers).unwrap_or_default());
            }
        }
    }

    fn push_markers(schema: &mut schemars::Schema, markers: serde_json::Value) {
        let key = crate::schema::markers::MARKERS_KEY;
        match schema.get_mut(key) {
            Some(serde_json::Value::Array(all)) => all.push(markers),
            _ => {
                schema.insert(key.into(), serde_json::Value::Array(vec![markers]));
            }
        }
    }

    pub use kubegen_core::schema::markers;

    /// Hands a node's markers, serialized by the derive from the `NodeMarkers` it checked,
    /// to the structural pass, which reads them back (`schema::markers::apply`: a marker
    /// that does not read back is an error there, not a silent skip).
    pub struct Markers(pub &'static str);

    impl schemars::transform::Transform for Markers {
        fn transform(&mut self, schema: &mut schemars::Schema) {
            // Text the derive wrote with serde_json: a value, unless kubegen-derive and
            // kubegen disagree, which the structural pass reports.
            let markers = serde_json::from_str(self.0).unwrap_or_else(|_| serde_json::Value::String(self.0.into()));
            push_markers(schema, markers);
        }
    }
}
