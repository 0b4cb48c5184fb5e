//! A node's markers reach the structural pass as `kubegen_core`'s typed
//! [`NodeMarkers`], serialized under [`MARKERS_KEY`] by the derive (and by the
//! Kubernetes marker tables); what each marker does is `NodeMarkers::apply`'s.

use kubegen_core::schema::markers::NodeMarkers;
pub use kubegen_core::schema::MARKERS_KEY;
use serde_json::{Map, Value};

/// Applies a node's serialized markers to `node`, in order: Kubernetes' table first, then
/// the type's, then the field's, so the field's facts win. CEL rules come out the other
/// way round, the field's first, as controller-gen writes them. Returns the `required`
/// (`Some(true)`) or `optional` (`Some(false)`) marker for the parent object. The derive
/// and the tables write them from the same type, so they always read back.
pub fn apply(node: &mut Map<String, Value>, all: Vec<Value>) -> Option<bool> {
    let mut docs: Vec<NodeMarkers> = all.into_iter().filter_map(|m| serde_json::from_value(m).ok()).collect();
    let mut rules = Vec::new();
    for doc in docs.iter_mut().rev() {
        rules.append(&mut doc.rules);
    }
    let mut required = None;
    for doc in &docs {
        required = doc.apply(node).or(required);
    }
    NodeMarkers { rules, ..NodeMarkers::default() }.apply(node);
    required
}
