//! What the fuzz targets share: the derive's marker parser, compiled here from its source
//! (a proc-macro crate exports nothing but its macros), and the kinds of a real operator.

#![allow(dead_code)]

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kubegen::CustomResourceExt;

/// The derive's `Errors` (collected `syn::Error`s), which its parser reports into.
#[path = "../../derive/src/errors.rs"]
pub mod errors;

/// The derive's reading of `#[serde(...)]`, which its parser asks about foreign schemas.
#[path = "../../derive/src/serde_attrs.rs"]
mod serde_attrs;

/// The registry the derive's parser reads (`super::registry` from the parser's module).
pub use kubegen_core::markers::registry;

/// The derive's markers parser: `parse_attrs` reads `#[kube(...)]` and doc-comment markers
/// into one marker model, from kubegen-core's registry.
#[path = "../../derive/src/markers/parse.rs"]
pub mod parse;

pub use kubegen_core::markers::registry::Target;
pub use parse::{Parsed, parse_attrs};

/// Every target a marker can stand on, and a field's alone (what a field may carry).
pub const EVERYWHERE: &[Target] = &[Target::Resource, Target::Schema, Target::Field, Target::Type];
pub const ON_A_FIELD: &[Target] = &[Target::Schema, Target::Field];

/// Parses `attrs` as the derive parses an item's attributes, in both places; the errors
/// are dropped (a compile error is a fine answer, a panic or a hang is not).
pub fn parse_everywhere(attrs: &[syn::Attribute]) {
    for allowed in [EVERYWHERE, ON_A_FIELD] {
        let mut errors = errors::Errors::default();
        let parsed = parse_attrs(attrs, allowed, "fuzz", &mut errors);
        for marker in &parsed.markers {
            let _ = (marker.name(), marker.str(), marker.flag(), marker.strs());
        }
        let _ = errors.into_compile_errors();
    }
}

/// sample-controller's Foo (v1alpha1 and v1beta1) as `manifests` writes it.
pub fn foo_crd() -> CustomResourceDefinition {
    kubegen::merge_crds(vec![foo_controller::Foo::crd(), foo_controller::v1beta1::Foo::crd()], "v1alpha1")
        .expect("Foo's versions merge")
}
