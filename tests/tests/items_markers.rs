//! Markers given through `items(...)` on a list of a named type hold in the CRD, where
//! the named type is inlined, as they do in the client model. Issue 28: found while
//! fixing the clients for preserve_unknown_fields — `items(preserve_unknown_fields)` on
//! a `Vec<Named>` reached the clients but not the CRD, so the API server pruned the
//! keys the clients kept.

use kubegen::{CustomResource, CustomResourceExt, KubeSchema};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// A time window.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Slot {
    /// When it starts.
    pub start: String,
    /// When it ends.
    pub end: Option<String>,
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Rota")]
#[serde(rename_all = "camelCase")]
pub struct RotaSpec {
    /// Slots that keep what they do not name.
    #[kube(items(preserve_unknown_fields))]
    pub open_slots: Vec<Slot>,
    /// The same, optional.
    #[kube(items(preserve_unknown_fields, nullable))]
    pub maybe_slots: Option<Vec<Slot>>,
    /// Open, and at most three keys an item.
    #[kube(items(preserve_unknown_fields, max_properties = 3, min_properties = 1))]
    pub small_slots: Vec<Slot>,
    /// A rule on every item, and lists of lists.
    #[kube(items(items(preserve_unknown_fields, validation(rule = "self.start != ''", message = "no start"))))]
    pub nested_slots: Vec<Vec<Slot>>,
    /// Closed, as the type is.
    pub slots: Vec<Slot>,
    /// No description here or below.
    #[kube(skip_description)]
    pub quiet_slots: Vec<Slot>,
}

fn spec_properties() -> Value {
    let crd = serde_json::to_value(Rota::crd()).expect("json");
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"].clone()
}

fn rota(spec: Value) -> Value {
    json!({"apiVersion": "example.com/v1", "kind": "Rota", "metadata": {"name": "r"}, "spec": spec})
}

fn base() -> Value {
    json!({"openSlots": [], "smallSlots": [], "nestedSlots": [], "slots": [], "quietSlots": []})
}

#[test]
fn items_preserve_unknown_fields_reaches_the_crd() {
    let spec = spec_properties();
    let items = &spec["openSlots"]["items"];
    assert_eq!(items["x-kubernetes-preserve-unknown-fields"], json!(true), "{items:#}");
    // The named type is still there, inlined.
    assert_eq!(items["type"], json!("object"));
    assert_eq!(items["properties"]["start"]["type"], json!("string"));
    assert_eq!(items["required"], json!(["start"]));
    let maybe = &spec["maybeSlots"]["items"];
    assert_eq!(maybe["x-kubernetes-preserve-unknown-fields"], json!(true), "{maybe:#}");
    assert_eq!(maybe["nullable"], json!(true), "{maybe:#}");
    let nested = &spec["nestedSlots"]["items"]["items"];
    assert_eq!(nested["x-kubernetes-preserve-unknown-fields"], json!(true), "{nested:#}");
    assert_eq!(nested["x-kubernetes-validations"], json!([{"message": "no start", "rule": "self.start != ''"}]));
    // The type's other uses stay closed.
    assert_eq!(spec["slots"]["items"].get("x-kubernetes-preserve-unknown-fields"), None);
}

#[test]
fn every_items_marker_on_a_named_type_reaches_the_crd() {
    let spec = spec_properties();
    let small = &spec["smallSlots"]["items"];
    assert_eq!(small["maxProperties"], json!(3), "{small:#}");
    assert_eq!(small["minProperties"], json!(1), "{small:#}");
    // skip_description clears the inlined type's descriptions too.
    let quiet = &spec["quietSlots"];
    let mut described = Vec::new();
    fn walk(v: &Value, path: String, out: &mut Vec<String>) {
        if let Value::Object(m) = v {
            if m.contains_key("description") {
                out.push(path.clone());
            }
            for (k, v) in m {
                walk(v, format!("{path}.{k}"), out);
            }
        }
    }
    walk(quiet, "quietSlots".into(), &mut described);
    assert!(described.is_empty(), "descriptions left: {described:?}\n{quiet:#}");
    // The type's other uses keep theirs.
    assert!(spec["slots"]["items"]["properties"]["start"]["description"].is_string());
}

#[test]
fn validate_value_keeps_an_unknown_key_in_an_open_item_and_checks_the_items_bounds() {
    let crd = Rota::crd();
    let mut spec = base();
    spec["openSlots"] = json!([{"start": "a", "zone": {"name": "Europe/Paris"}}]);
    spec["nestedSlots"] = json!([[{"start": "a", "zone": "x"}]]);
    kubegen::validate::validate_value(&crd, &rota(spec.clone()), None).expect("unknown keys kept");

    // Unknown keys kept count: four keys are one too many.
    spec["smallSlots"] = json!([{"start": "a", "end": "b", "zone": "x"}]);
    kubegen::validate::validate_value(&crd, &rota(spec.clone()), None).expect("three keys");
    spec["smallSlots"] = json!([{"start": "a", "end": "b", "zone": "x", "dst": true}]);
    let err = kubegen::validate::validate_value(&crd, &rota(spec.clone()), None).expect_err("four keys");
    assert!(err.to_string().contains("smallSlots[0]") && err.to_string().contains('3'), "{err}");

    spec["smallSlots"] = json!([]);
    spec["nestedSlots"] = json!([[{"start": ""}]]);
    let err = kubegen::validate::validate_value(&crd, &rota(spec), None).expect_err("the items' rule");
    assert!(err.to_string().contains("no start"), "{err}");
}
