//! A node's markers reach the structural pass as `kubegen_core`'s typed
//! [`NodeMarkers`], serialized under [`MARKERS_KEY`] by the derive (and by the
//! Kubernetes marker tables); what each marker does is `NodeMarkers::apply`'s.

use kubegen_core::schema::markers::NodeMarkers;
pub use kubegen_core::schema::MARKERS_KEY;
use serde_json::{Map, Value};

/// Applies one node's serialized markers to `node`; returns the field's `required`
/// (`Some(true)`) or `optional` (`Some(false)`) marker for the parent object. The derive
/// and the tables write them from the same type, so they always read back.
pub fn apply(node: &mut Map<String, Value>, markers: Value) -> Option<bool> {
    let markers: NodeMarkers = serde_json::from_value(markers).ok()?;
    markers.apply(node)
}
