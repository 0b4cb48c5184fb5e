//! Kubernetes' own types inside a CRD keep the API server's semantics.
//!
//! k8s-openapi's schemas come from the API's OpenAPI v2 document, which leaves out what
//! the Go markers of `k8s.io/api` and `k8s.io/apimachinery` say: list types and map keys
//! (`containers`, `env`, `ports` merge by key under server-side apply), map types
//! (`LocalObjectReference` is atomic), defaults (`protocol: TCP`) and kubebuilder
//! validations (`metav1.Condition`'s enum, patterns and lengths). controller-gen reads
//! those markers when a Go type embeds a Kubernetes type; kubegen reads a table of them,
//! generated from the Go modules of the Kubernetes release k8s-openapi is built for
//! (`scripts/k8s-markers.sh`, checked in CI), and patches the definitions here.
//!
//! A few types get the schema controller-gen gives them by name
//! (`pkg/crd/known_types.go`): int-or-string for `IntOrString` and `Quantity` (with the
//! quantity pattern), plain strings for times and durations, `type: object` for an
//! embedded `ObjectMeta` unless [`Options::embedded_object_meta`] asks for its fields.

use std::sync::OnceLock;

use kubegen_core::schema::markers::FactKind;
use serde_json::{Map, Value, json};

use super::{markers, structural};

pub use kubegen_core::kind::Options;
/// The release of Kubernetes' Go API modules (`k8s.io/api`, `k8s.io/apimachinery`) that
/// matches the k8s-openapi version feature, and that the marker tables come from
/// (`scripts/k8s-markers.sh`): what a generated Go client requires.
pub const K8S_MODULE_VERSION: &str = kubegen_core::k8s::MODULE_VERSION;

/// The API server's pattern for a resource quantity, as controller-gen writes it.
pub const QUANTITY_PATTERN: &str = r"^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$";

fn table() -> &'static Map<String, Value> {
    static PARSED: OnceLock<Map<String, Value>> = OnceLock::new();
    PARSED.get_or_init(|| serde_json::from_str(kubegen_core::k8s::TABLE).unwrap_or_default())
}

/// Whether Go copies the Kubernetes type `name` by assignment (no pointer, slice or map
/// inside), for deepcopy in generated Go clients.
pub fn is_shallow(name: &str) -> bool {
    table().get(name).and_then(|d| d.get("shallow")) == Some(&Value::Bool(true))
}

/// Patches schemars' definitions of Kubernetes types (named `io.k8s.*`, as k8s-openapi
/// names them) with what their markers say.
pub fn patch_definitions(definitions: &mut Map<String, Value>, options: &Options) {
    for (name, definition) in definitions.iter_mut() {
        if !name.starts_with("io.k8s.") {
            continue;
        }
        if let Some(known) = known_type(name, options) {
            *definition = known;
            continue;
        }
        let (Value::Object(definition), Some(Value::Object(patch))) = (definition, table().get(name)) else {
            continue;
        };
        if let Some(markers) = patch.get("markers") {
            add_markers(definition, markers.clone());
        }
        // Required as controller-gen reads it from the Go type (`omitempty`, `+optional`,
        // `+required`), not as the OpenAPI document says (it requires every field that
        // has a default, a name of a LocalObjectReference among them).
        if let (Some(required), true) = (patch.get("required"), definition.contains_key("required")) {
            definition.insert("required".into(), required.clone());
        }
        if patch.get("closed") == Some(&Value::Bool(true)) {
            definition.insert(structural::CLOSED_KEY.into(), true.into());
        }
        if let (Some(Value::Object(patches)), Some(Value::Object(properties))) =
            (patch.get("properties"), definition.get_mut("properties"))
        {
            for (field, markers) in patches {
                if let Some(Value::Object(node)) = properties.get_mut(field) {
                    add_markers(node, markers.clone());
                }
            }
        }
    }
}

/// Hands a Go type's or field's markers to the structural pass as kubegen's own markers
/// are handed over, so they apply to the finished node (after `Option` and `$ref` are
/// resolved) with the same rules, before any marker of the Rust code.
fn add_markers(node: &mut Map<String, Value>, markers: Value) {
    let entry = node.entry(markers::MARKERS_KEY).or_insert_with(|| Value::Array(Vec::new()));
    if let Value::Array(all) = entry {
        all.insert(0, markers);
    }
}

/// The schemas controller-gen gives these types by name; they carry no description of
/// their own (the field's says what it holds).
fn known_type(name: &str, options: &Options) -> Option<Value> {
    let int_or_string =
        || json!({ "x-kubernetes-int-or-string": true, "anyOf": [{ "type": "integer" }, { "type": "string" }] });
    Some(match name.strip_prefix("io.k8s.apimachinery.pkg.")? {
        // Its integer is an int32 (Go's and k8s-openapi's `Int(i32)`), which the server does
        // not hold it to: bounded, as the format of an `i32` is (`formats::range`).
        "util.intstr.IntOrString" => {
            let mut v = int_or_string();
            v[FactKind::Minimum.key()] = i32::MIN.into();
            v[FactKind::Maximum.key()] = i32::MAX.into();
            v
        }
        "api.resource.Quantity" => {
            let mut q = int_or_string();
            q["pattern"] = QUANTITY_PATTERN.into();
            q
        }
        "apis.meta.v1.Time" | "apis.meta.v1.MicroTime" => json!({ "type": "string", "format": "date-time" }),
        "apis.meta.v1.Duration" => json!({ "type": "string" }),
        "runtime.RawExtension" => json!({ "type": "object", "x-kubernetes-preserve-unknown-fields": true }),
        "apis.meta.v1.ObjectMeta" if options.embedded_object_meta => json!({
            "type": "object",
            "properties": {
                "name": { "type": "string" },
                "namespace": { "type": "string" },
                "annotations": { "type": "object", "additionalProperties": { "type": "string" } },
                "labels": { "type": "object", "additionalProperties": { "type": "string" } },
                "finalizers": { "type": "array", "items": { "type": "string" } },
            },
        }),
        "apis.meta.v1.ObjectMeta" => json!({ "type": "object" }),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_parses_and_knows_containers() {
        let container = &table()["io.k8s.api.core.v1.Container"];
        assert_eq!(
            container["properties"]["env"]["set"],
            json!([["x-kubernetes-list-type", "map"], ["x-kubernetes-list-map-keys", ["name"]]])
        );
        assert_eq!(container["required"], json!(["name"]));
    }
}
