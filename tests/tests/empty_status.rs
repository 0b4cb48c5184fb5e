//! An empty status struct is a closed object, as controller-gen writes `type FooStatus
//! struct{}`: the server prunes what the schema does not name, so a controller cannot
//! park unknown keys there by accident. An object whose contents are unknown (a map of
//! anything, `serde_json::Value`) stays open.

use kubegen::{CustomResource, CustomResourceExt, KubeSchema};
use serde::{Deserialize, Serialize};
use serde_json::json;

/// Nothing observed yet.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default)]
pub struct GateStatus {}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Gate", status = "GateStatus")]
pub struct GateSpec {
    pub open: bool,
    /// Anything at all.
    pub extra: Option<serde_json::Value>,
}

#[test]
fn an_empty_struct_is_a_closed_object() {
    let crd = serde_json::to_value(Gate::crd()).expect("json");
    let props = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"];
    assert_eq!(props["status"], json!({"description": "Nothing observed yet.", "type": "object"}));
    assert_eq!(props["spec"]["properties"]["extra"]["x-kubernetes-preserve-unknown-fields"], json!(true));
}
