//! Reading a structural schema given as JSON: the few keywords evaluation looks at.

use std::sync::OnceLock;

use serde_json::{Map, Value as Json, json};

pub(crate) fn ty(s: &Json) -> &str {
    s.get("type").and_then(Json::as_str).unwrap_or("")
}

fn flag(s: &Json, key: &str) -> bool {
    s.get(key).and_then(Json::as_bool).unwrap_or(false)
}

pub(crate) fn int_or_string(s: &Json) -> bool {
    flag(s, "x-kubernetes-int-or-string")
}

pub(crate) fn preserve_unknown(s: &Json) -> bool {
    flag(s, "x-kubernetes-preserve-unknown-fields")
}

pub(crate) fn embedded(s: &Json) -> bool {
    flag(s, "x-kubernetes-embedded-resource")
}

pub(crate) fn nullable(s: &Json) -> bool {
    flag(s, "nullable")
}

pub(crate) fn format(s: &Json) -> &str {
    s.get("format").and_then(Json::as_str).unwrap_or("")
}

pub(crate) fn properties(s: &Json) -> Option<&Map<String, Json>> {
    s.get("properties").and_then(Json::as_object)
}

pub(crate) fn items(s: &Json) -> Option<&Json> {
    s.get("items").filter(|i| i.is_object())
}

/// `additionalProperties` when it is a schema (not `true`/`false`).
pub(crate) fn additional(s: &Json) -> Option<&Json> {
    s.get("additionalProperties").filter(|a| a.is_object())
}

pub(crate) fn list_type(s: &Json) -> Option<&str> {
    s.get("x-kubernetes-list-type").and_then(Json::as_str)
}

pub(crate) fn list_map_keys(s: &Json) -> Vec<&str> {
    s.get("x-kubernetes-list-map-keys")
        .and_then(Json::as_array)
        .map(|keys| keys.iter().filter_map(Json::as_str).collect())
        .unwrap_or_default()
}

pub(crate) fn map_type(s: &Json) -> Option<&str> {
    s.get("x-kubernetes-map-type").and_then(Json::as_str)
}

pub(crate) fn validations(s: &Json) -> &[Json] {
    s.get("x-kubernetes-validations").and_then(Json::as_array).map(Vec::as_slice).unwrap_or(&[])
}

pub(crate) fn all_of(s: &Json) -> &[Json] {
    s.get("allOf").and_then(Json::as_array).map(Vec::as_slice).unwrap_or(&[])
}

fn string_schema() -> &'static Json {
    static S: OnceLock<Json> = OnceLock::new();
    S.get_or_init(|| json!({"type": "string"}))
}

fn meta_schema() -> &'static Json {
    static S: OnceLock<Json> = OnceLock::new();
    S.get_or_init(
        || json!({"type": "object", "properties": {"name": {"type": "string"}, "generateName": {"type": "string"}}}),
    )
}

/// The properties a rule sees on an object: the schema's own, and at the root of a
/// resource (the custom resource, or an `x-kubernetes-embedded-resource`) `apiVersion`,
/// `kind` and a `metadata` of only `name` and `generateName`, unless the schema already
/// declares all four as strings (apiextensions-apiserver `model.WithTypeAndObjectMeta`).
pub(crate) fn object_properties(s: &Json, resource_root: bool) -> Vec<(&str, &Json)> {
    let own: Vec<(&str, &Json)> =
        properties(s).map(|p| p.iter().map(|(k, v)| (k.as_str(), v)).collect()).unwrap_or_default();
    if !resource_root || has_type_and_object_meta(s) {
        return own;
    }
    let mut out: Vec<(&str, &Json)> =
        own.into_iter().filter(|(k, _)| !matches!(*k, "kind" | "apiVersion" | "metadata")).collect();
    out.push(("kind", string_schema()));
    out.push(("apiVersion", string_schema()));
    out.push(("metadata", meta_schema()));
    out
}

fn has_type_and_object_meta(s: &Json) -> bool {
    let Some(props) = properties(s) else { return false };
    let is = |v: Option<&Json>, t: &str| v.is_some_and(|v| ty(v) == t);
    let meta = props.get("metadata").and_then(properties);
    is(props.get("kind"), "string")
        && is(props.get("apiVersion"), "string")
        && is(props.get("metadata"), "object")
        && meta.is_some_and(|m| is(m.get("name"), "string") && is(m.get("generateName"), "string"))
}

/// Whether the server gives a value of this schema a CEL type at all
/// (`SchemaDeclType` is not nil): untyped values other than int-or-string are left out,
/// and so are lists and maps of them.
pub(crate) fn has_cel_type(s: &Json) -> bool {
    if int_or_string(s) {
        return true;
    }
    match ty(s) {
        "array" => items(s).is_some_and(has_cel_type),
        "object" => additional(s).is_none_or(has_cel_type),
        "string" | "boolean" | "number" | "integer" => true,
        _ => false,
    }
}
