//! What the manifests helper program reports of each kind, and the options it is run
//! with: one type, serialized by the library inside the helper and read by the CLI.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::schema::node::Node;

/// How a kind's data sits in its root object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Style {
    /// kube-rs style: `metadata`, `spec`, optional `status`.
    Spec,
    /// The data beside `metadata` (a root type with its own fields, or `spec = false`).
    Flat,
    /// `schema = "disabled"`: the server keeps whatever it is sent; no typed client.
    Disabled,
}

impl Style {
    pub fn as_str(self) -> &'static str {
        match self {
            Style::Spec => "spec",
            Style::Flat => "flat",
            Style::Disabled => "disabled",
        }
    }
}

/// A kind's types for typed clients: its data and status types' models
/// (`kubegen::schema::model_for`), the style saying where they sit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KindTypes {
    pub style: Style,
    /// The model of the data (spec, or the root's own fields); `None` when disabled.
    pub data: Option<Model>,
    pub status: Option<Model>,
}

/// The language-neutral model of one Rust type for typed clients: the type and every
/// type it uses, by name, in the typed schema IR. References between named types are
/// nodes holding only the name ([`Node::reference`]) and the field's own facts.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Model {
    /// The type itself: a reference to its named type, or its schema where schemars
    /// inlines it (a primitive, `Vec<T>`).
    pub root: Node,
    /// Every named type it uses, its own included, by name.
    pub types: BTreeMap<String, Node>,
    /// Kubernetes' own types it uses (k8s-openapi's `io.k8s.*` names), not expanded.
    pub external: BTreeMap<String, External>,
    /// The Kubernetes types it reaches, by name, as the CRD carries them (the release's
    /// markers applied): what a client generates its own types from where the upstream
    /// library's lag the server or type a value narrower than the server takes.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub kubernetes: BTreeMap<String, Node>,
}

/// What the model says of a Kubernetes type it uses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct External {
    /// Go copies it by assignment (no pointers, slices or maps inside).
    pub shallow: bool,
}

/// How Kubernetes' types are written into schemas: `codegen-cli manifests`' flags,
/// passed to the helper program on its command line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Write an `ObjectMeta` inside a spec (a pod template's metadata) with its `name`,
    /// `namespace`, `labels`, `annotations` and `finalizers`, as controller-gen's
    /// `crd:generateEmbeddedObjectMeta=true` does, instead of `type: object`. The server
    /// then prunes every other metadata field there.
    pub embedded_object_meta: bool,
}

const EMBEDDED_OBJECT_META: &str = "--embedded-object-meta";

impl Options {
    /// The helper program's arguments for these options.
    pub fn to_args(self) -> Vec<&'static str> {
        if self.embedded_object_meta { vec![EMBEDDED_OBJECT_META] } else { Vec::new() }
    }

    /// The options from the helper program's arguments.
    pub fn from_args<S: AsRef<str>>(args: impl IntoIterator<Item = S>) -> Self {
        Options { embedded_object_meta: args.into_iter().any(|a| a.as_ref() == EMBEDDED_OBJECT_META) }
    }
}

/// One derived kind, as the helper program prints it (a JSON array of these).
#[cfg(feature = "k8s")]
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KindRecord {
    /// `module::path::Type` of the root type.
    pub type_path: String,
    /// `file:line` of the derive.
    pub source: String,
    /// `+kubebuilder:skipversion`: leave this version out of the merged CRD.
    pub skip_version: bool,
    /// `+kubebuilder:storageversion` / `storage = ...` as written; `None` when unset.
    pub storage_marked: Option<bool>,
    pub crd: k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition,
    pub types: KindTypes,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_round_trip_through_the_helper_arguments() {
        for options in [Options::default(), Options { embedded_object_meta: true }] {
            assert_eq!(Options::from_args(options.to_args()), options);
        }
    }

    #[test]
    fn style_is_written_in_lowercase() {
        assert_eq!(serde_json::to_value(Style::Disabled).unwrap(), "disabled");
    }
}
