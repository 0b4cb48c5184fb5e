//! Derive macros of kubegen. Markers (typed `#[kube(...)]` attributes and controller-gen
//! lines in doc comments) parse into one marker model, are checked, and only then become
//! tokens. Generated code names its dependencies through `::kubegen::__private`, so a
//! user crate needs only `kubegen`.

mod ast;
mod cel;
mod check;
mod errors;
mod expand;
mod item_fields;
mod json_path;
mod markers;
mod model;
mod package;
mod rbac;
mod serde_attrs;
mod shapes;
mod webhook;

use crate::markers::registry::Key;
use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

use crate::errors::Errors;
use crate::markers::registry::Target;

/// A Kubernetes custom resource: on a spec struct (the root `Kind { metadata, spec,
/// status }` is generated) or on a root struct with a `metadata: ObjectMeta` field.
/// Implements `kube::Resource` and `kubegen::CustomResourceExt` for the root and
/// `schemars::JsonSchema` for the struct the derive stands on.
#[proc_macro_derive(CustomResource, attributes(kube))]
pub fn derive_custom_resource(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::resource::expand(&input).into()
}

/// `schemars::JsonSchema` for a nested type, with kubebuilder markers on the type and
/// its fields. The schema describes exactly the JSON serde reads.
#[proc_macro_derive(KubeSchema, attributes(kube))]
pub fn derive_kube_schema(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    let mut errors = Errors::default();
    let mut ast = ast::Container::parse(&input, &[Target::Type, Target::Schema], "on a nested type", &mut errors);
    let parsed = std::mem::take(&mut ast.markers);
    let mut tokens = expand::schema::expand(&mut ast, &parsed, &mut errors);
    if parsed.get(Key::ApplyConfig).is_some_and(|m| m.flag()) {
        tokens.extend(expand::apply::expand(&input));
    }
    if errors.is_empty() {
        tokens.into()
    } else {
        let stand_in = expand::schema::stand_in(&input);
        let errors = errors.into_compile_errors();
        quote::quote!(#errors #stand_in).into()
    }
}

/// The typed spelling of `+kubebuilder:rbac`: checked here, collected by
/// `codegen-cli manifests` into `config/rbac/role.yaml`. The item is left as it is.
///
/// `#[kubegen::rbac(groups = ["apps"], resources = ["deployments"], verbs = ["get", "list", "watch"])]`
#[proc_macro_attribute]
pub fn rbac(args: TokenStream, item: TokenStream) -> TokenStream {
    rbac::expand(args.into(), item.into()).into()
}

/// `#[kubegen::webhook(name = "vfoo.example.com", path = "/validate-...", mutating = false,
/// failure_policy = "fail", side_effects = "None", groups = ["example.com"],
/// resources = ["foos"], verbs = ["create", "update"], versions = ["v1"],
/// admission_review_versions = ["v1"])]`: the typed spelling of `+kubebuilder:webhook`,
/// checked here as the API server would (a name of three DNS segments, known verbs,
/// `sideEffects` v1 takes, ...); `codegen-cli manifests` writes it into
/// `config/webhook/manifests.yaml`. The item is left as it is.
#[proc_macro_attribute]
pub fn webhook(args: TokenStream, item: TokenStream) -> TokenStream {
    webhook::expand(args.into(), item.into()).into()
}
