//! Reading a structural schema node (the typed IR): the few keywords evaluation looks at.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use kubegen_core::schema::node::Node;

pub(crate) fn ty(s: &Node) -> &str {
    s.type_.as_deref().unwrap_or("")
}

fn flag(v: Option<bool>) -> bool {
    v.unwrap_or(false)
}

pub(crate) fn int_or_string(s: &Node) -> bool {
    flag(s.int_or_string)
}

pub(crate) fn preserve_unknown(s: &Node) -> bool {
    flag(s.preserve_unknown_fields)
}

pub(crate) fn embedded(s: &Node) -> bool {
    flag(s.embedded_resource)
}

pub(crate) fn nullable(s: &Node) -> bool {
    flag(s.nullable)
}

pub(crate) fn format(s: &Node) -> &str {
    s.format.as_deref().unwrap_or("")
}

pub(crate) fn properties(s: &Node) -> Option<&BTreeMap<String, Node>> {
    s.properties.as_ref()
}

pub(crate) fn items(s: &Node) -> Option<&Node> {
    s.items.as_deref()
}

/// `additionalProperties` when it is a schema (not `true`/`false`).
pub(crate) fn additional(s: &Node) -> Option<&Node> {
    s.map_values()
}

pub(crate) fn list_type(s: &Node) -> Option<&str> {
    s.list_type.as_deref()
}

pub(crate) fn list_map_keys(s: &Node) -> Vec<&str> {
    s.list_map_keys.iter().flatten().map(String::as_str).collect()
}

pub(crate) fn map_type(s: &Node) -> Option<&str> {
    s.map_type.as_deref()
}

pub(crate) fn validations(s: &Node) -> &[kubegen_core::schema::markers::Rule] {
    s.validations.as_deref().unwrap_or(&[])
}

pub(crate) fn all_of(s: &Node) -> &[Node] {
    s.all_of.as_deref().unwrap_or(&[])
}

fn string_schema() -> &'static Node {
    static S: OnceLock<Node> = OnceLock::new();
    S.get_or_init(|| Node::of_type("string"))
}

fn meta_schema() -> &'static Node {
    static S: OnceLock<Node> = OnceLock::new();
    S.get_or_init(|| Node {
        properties: Some(BTreeMap::from([
            ("name".to_string(), Node::of_type("string")),
            ("generateName".to_string(), Node::of_type("string")),
        ])),
        ..Node::of_type("object")
    })
}

/// The properties a rule sees on an object: the schema's own, and at the root of a
/// resource (the custom resource, or an `x-kubernetes-embedded-resource`) `apiVersion`,
/// `kind` and a `metadata` of only `name` and `generateName`, unless the schema already
/// declares all four as strings (apiextensions-apiserver `model.WithTypeAndObjectMeta`).
pub(crate) fn object_properties(s: &Node, resource_root: bool) -> Vec<(&str, &Node)> {
    let own: Vec<(&str, &Node)> =
        properties(s).map(|p| p.iter().map(|(k, v)| (k.as_str(), v)).collect()).unwrap_or_default();
    if !resource_root || has_type_and_object_meta(s) {
        return own;
    }
    let mut out: Vec<(&str, &Node)> =
        own.into_iter().filter(|(k, _)| !matches!(*k, "kind" | "apiVersion" | "metadata")).collect();
    out.push(("kind", string_schema()));
    out.push(("apiVersion", string_schema()));
    out.push(("metadata", meta_schema()));
    out
}

fn has_type_and_object_meta(s: &Node) -> bool {
    let Some(props) = properties(s) else { return false };
    let is = |v: Option<&Node>, t: &str| v.is_some_and(|v| ty(v) == t);
    let meta = props.get("metadata").and_then(properties);
    is(props.get("kind"), "string")
        && is(props.get("apiVersion"), "string")
        && is(props.get("metadata"), "object")
        && meta.is_some_and(|m| is(m.get("name"), "string") && is(m.get("generateName"), "string"))
}

/// Whether the server gives a value of this schema a CEL type at all
/// (`SchemaDeclType` is not nil): untyped values other than int-or-string are left out,
/// and so are lists and maps of them.
pub(crate) fn has_cel_type(s: &Node) -> bool {
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
