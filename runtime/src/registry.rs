//! Every `#[derive(CustomResource)]` in a linked crate registers itself here, so
//! `codegen-cli manifests` can list a workspace's kinds without being told their paths.

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;

/// One derived kind.
#[doc(hidden)]
pub struct Registration {
    pub crd: fn() -> CustomResourceDefinition,
    /// `module::path::Type` of the root type.
    pub type_path: &'static str,
    /// `file:line` of the derive.
    pub source: &'static str,
    /// `+kubebuilder:skipversion`: leave this version out of the merged CRD.
    pub skip_version: bool,
    /// `+kubebuilder:storageversion` / `storage = ...` as written; `None` when unset.
    pub storage_marked: Option<bool>,
    /// The kind's types for typed clients: `{"style": "spec"|"flat"|"disabled", "data":
    /// model, "status": model|null}` ([`crate::schema::model_for`]).
    pub model: fn() -> serde_json::Value,
}

inventory::collect!(Registration);

/// The kinds of every crate linked into this binary, in a stable order.
pub fn registered() -> Vec<&'static Registration> {
    let mut all: Vec<&'static Registration> = inventory::iter::<Registration>.into_iter().collect();
    all.sort_by(|a, b| a.type_path.cmp(b.type_path));
    all
}

/// The registered kinds as JSON, for `codegen-cli manifests`: one entry per kind with its
/// CRD, type path, source location and whether its version is skipped.
pub fn registered_json() -> String {
    let entries: Vec<serde_json::Value> = registered()
        .into_iter()
        .map(|r| {
            serde_json::json!({
                "typePath": r.type_path,
                "source": r.source,
                "skipVersion": r.skip_version,
                "storageMarked": r.storage_marked,
                "crd": (r.crd)(),
                "model": (r.model)(),
            })
        })
        .collect();
    serde_json::Value::Array(entries).to_string()
}
