//! Applying kubebuilder markers to a structural schema node.
//!
//! The derive checks markers at compile time and hands them over as a small JSON
//! document under a private key of the node they belong to (a field, or a type wherever
//! it is used). They are applied after the node is structural, so a marker on an
//! `Option<T>` field lands on `T`'s schema, and in the order controller-gen applies
//! them (`pkg/crd/markers/priority.go`): the derive already emits them sorted.
//!
//! ```json
//! {"set": [["minimum", 1], ["default", 1]], "required": true,
//!  "rules": [{"rule": "self > 0"}], "items": { ... same shape ... }}
//! ```

use serde_json::{Map, Value, json};

/// Private key carrying a node's markers from the derive to the structural pass.
pub const MARKERS_KEY: &str = "x-kubegen-markers";

/// Applies `markers` to `node`; returns the field's `required` (`Some(true)`) or
/// `optional` (`Some(false)`) marker for the parent object.
pub fn apply(node: &mut Map<String, Value>, markers: Value) -> Option<bool> {
    let Value::Object(mut markers) = markers else {
        return None;
    };
    if markers.remove("schemaless") == Some(Value::Bool(true)) {
        let description = node.remove("description");
        node.clear();
        if let Some(d) = description {
            node.insert("description".into(), d);
        }
        node.insert("x-kubernetes-preserve-unknown-fields".into(), true.into());
    }
    if let Some(Value::Array(set)) = markers.remove("set") {
        for pair in set {
            if let Value::Array(pair) = pair
                && let [Value::String(key), value] = pair.as_slice()
            {
                set_key(node, key, value.clone());
            }
        }
    }
    if let Some(Value::Array(rules)) = markers.remove("rules") {
        let existing = node.entry("x-kubernetes-validations").or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(existing) = existing {
            existing.extend(rules);
        }
    }
    if let Some(items) = markers.remove("items")
        && let Some(Value::Object(item_node)) = node.get_mut("items")
    {
        apply(item_node, items);
    }
    if markers.remove("skipDescription") == Some(Value::Bool(true)) {
        strip_descriptions(node);
    }
    markers.remove("required").and_then(|r| r.as_bool())
}

fn strip_descriptions(node: &mut Map<String, Value>) {
    node.remove("description");
    for (key, value) in node.iter_mut() {
        match (key.as_str(), value) {
            ("properties", Value::Object(props)) => {
                for p in props.values_mut() {
                    if let Value::Object(p) = p {
                        strip_descriptions(p);
                    }
                }
            }
            ("items" | "additionalProperties", Value::Object(inner)) => strip_descriptions(inner),
            _ => {}
        }
    }
}

fn set_key(node: &mut Map<String, Value>, key: &str, value: Value) {
    match key {
        "type" => {
            node.remove("x-kubernetes-int-or-string");
            node.remove("anyOf");
            if value == json!("object") || value == json!("array") {
                node.remove("enum");
            } else {
                node.remove("properties");
                node.remove("required");
                node.remove("items");
                node.remove("additionalProperties");
            }
            if value != json!("array") {
                node.remove("items");
            }
            node.insert("type".into(), value);
        }
        "x-kubernetes-int-or-string" => {
            node.remove("type");
            node.remove("format");
            node.insert("x-kubernetes-int-or-string".into(), true.into());
            node.insert("anyOf".into(), json!([{ "type": "integer" }, { "type": "string" }]));
        }
        // `+k8s:required` on a Kubernetes field: present and not empty, as controller-gen
        // writes it for the node's type.
        "x-kubegen-non-empty" => {
            let bound = match node.get("type").and_then(Value::as_str) {
                Some("string") => "minLength",
                Some("array") => "minItems",
                Some("object") => "minProperties",
                _ => return,
            };
            node.entry(bound).or_insert_with(|| 1.into());
        }
        // An embedded object is an object to the API server, whatever the Rust type.
        "x-kubernetes-embedded-resource" => {
            node.entry("type").or_insert_with(|| "object".into());
            node.insert(key.into(), value);
        }
        // A bound already there (the field's type's own marker, or what the Rust type
        // implies, like a u8's 255) still holds, as controller-gen keeps both: the
        // stricter one is the pair's meaning.
        "maximum" | "maxLength" | "maxItems" | "maxProperties" | "minimum" | "minLength" | "minItems"
        | "minProperties" => {
            let stricter = match (node.get(key).and_then(Value::as_f64), value.as_f64()) {
                (Some(old), Some(new)) if key.starts_with("max") && old < new => None,
                (Some(old), Some(new)) if key.starts_with("min") && old > new => None,
                _ => Some(value),
            };
            if let Some(value) = stricter {
                node.insert(key.into(), value);
            }
        }
        // Two patterns (or multiples) must both match: the second joins `allOf`.
        "pattern" | "multipleOf" if node.get(key).is_some_and(|old| old != &value) => {
            let all = node.entry("allOf").or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(all) = all {
                all.push(json!({ key: value }));
            }
        }
        _ => {
            node.insert(key.into(), value);
        }
    }
}
