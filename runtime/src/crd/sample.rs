//! A sample object per kind, for `config/samples/`: what the schema's examples and
//! defaults say, plus the least value that satisfies each required field, so the API
//! server accepts it as it stands.

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::{
    CustomResourceDefinition, CustomResourceDefinitionVersion,
};
use kubegen_core::schema::node::Node;
use serde_json::{Map, Value, json};

/// The sample of the storage version (or the first) of `crd`, named `<singular>-sample`.
pub fn sample_object(crd: &CustomResourceDefinition) -> Value {
    let version = crd.spec.versions.iter().find(|v| v.storage).or_else(|| crd.spec.versions.first());
    sample_of(crd, version)
}

/// The sample of `crd` in `version` (its apiVersion and that version's schema); the
/// storage version's when `crd` has no such version.
pub fn sample_object_in(crd: &CustomResourceDefinition, version: &str) -> Value {
    match crd.spec.versions.iter().find(|v| v.name == version) {
        Some(v) => sample_of(crd, Some(v)),
        None => sample_object(crd),
    }
}

fn sample_of(crd: &CustomResourceDefinition, version: Option<&CustomResourceDefinitionVersion>) -> Value {
    let name = format!("{}-sample", crd.spec.names.singular.as_deref().unwrap_or(&crd.spec.names.plural));
    let mut object = Map::new();
    let api_version = match (crd.spec.group.as_str(), version) {
        ("", Some(v)) => v.name.clone(),
        (g, Some(v)) => format!("{g}/{}", v.name),
        (g, None) => g.to_string(),
    };
    object.insert("apiVersion".into(), api_version.into());
    object.insert("kind".into(), crd.spec.names.kind.clone().into());
    object.insert("metadata".into(), json!({ "name": name }));
    let schema = version.and_then(super::version_schema);
    if let Some(Value::Object(fields)) = schema.as_ref().map(|s| value_for(s, true)) {
        for (k, v) in fields {
            if !matches!(k.as_str(), "apiVersion" | "kind" | "metadata" | "status") {
                object.insert(k, v);
            }
        }
    }
    let mut object = Value::Object(object);
    if let Some(schema) = &schema {
        meet_presence_rules(schema, &mut object);
    }
    object
}

/// Where the least object breaks a CEL rule that asks for fields to be present (a one-of
/// group: `ExactlyOneOf`, `AtLeastOneOf`, a rule of `has(self.x) || has(self.y)`), adds the
/// first field the rule tests with `has(self.<field>)` that makes the rule pass, so the
/// API server takes the sample. Rules are evaluated as the server does (kubegen-cel).
#[cfg(feature = "cel")]
fn meet_presence_rules(schema: &Node, object: &mut Value) {
    let programs = kubegen_cel::eval::Programs::default();
    let broken = |object: &Value| kubegen_cel::eval::validate_with(&programs, schema, object, None);
    // Each round adds one field at the most, and a sample has few such rules.
    for _ in 0..32 {
        let before = broken(object);
        let mut added = false;
        'violations: for violation in &before {
            let Some(node) = node_at(schema, &violation.field_path) else { continue };
            // The rule that failed first (its message, or the server's `failed rule: ...`),
            // then the node's others.
            let rules: Vec<_> = node.validations.iter().flatten().collect();
            let failed = |r: &&kubegen_core::schema::markers::Rule| {
                r.message.as_deref() == Some(violation.message.as_str()) || violation.message.contains(&r.rule)
            };
            let (first, rest): (Vec<_>, Vec<_>) = rules.into_iter().partition(failed);
            for field in first.into_iter().chain(rest).flat_map(|r| tested_fields(&r.rule)) {
                let Some(prop) = node.properties.as_ref().and_then(|p| p.get(&field)) else { continue };
                let Some(Value::Object(at)) = value_at(object, &violation.field_path) else { continue };
                if at.contains_key(&field) {
                    continue;
                }
                at.insert(field.clone(), value_for(prop, false));
                if broken(object).len() < before.len() {
                    added = true;
                    break 'violations;
                }
                if let Some(Value::Object(at)) = value_at(object, &violation.field_path) {
                    at.remove(&field);
                }
            }
        }
        if !added {
            return;
        }
    }
}

#[cfg(not(feature = "cel"))]
fn meet_presence_rules(_: &Node, _: &mut Value) {}

/// The fields `rule` tests with `has(self.<field>)`, in order.
#[cfg(feature = "cel")]
fn tested_fields(rule: &str) -> Vec<String> {
    rule.split("has(self.")
        .skip(1)
        .filter_map(|rest| rest.split_once(')').map(|(name, _)| name))
        .filter(|name| name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .map(str::to_string)
        .collect()
}

/// The schema node at a violation's field path (`spec.owner`; empty for the root), through
/// properties only: a sample's lists hold no items a rule could name.
#[cfg(feature = "cel")]
fn node_at<'a>(schema: &'a Node, path: &str) -> Option<&'a Node> {
    path.split('.').filter(|s| !s.is_empty()).try_fold(schema, |node, name| node.properties.as_ref()?.get(name))
}

#[cfg(feature = "cel")]
fn value_at<'a>(object: &'a mut Value, path: &str) -> Option<&'a mut Value> {
    path.split('.').filter(|s| !s.is_empty()).try_fold(object, |value, name| value.get_mut(name))
}

fn value_for(s: &Node, root: bool) -> Value {
    if let Some(example) = &s.example {
        return example.clone();
    }
    if let Some(default) = &s.default {
        return default.clone();
    }
    if let Some(first) = s.enum_.as_ref().and_then(|e| e.first()) {
        return first.clone();
    }
    if s.int_or_string == Some(true) {
        return json!(0);
    }
    match s.type_.as_deref() {
        Some("object") => object_for(s, root),
        Some("array") => {
            let n = s.min_items.unwrap_or(0) as usize;
            let item = match &s.items {
                Some(item) => value_for(item, false),
                None => json!({}),
            };
            Value::Array(vec![item; n])
        }
        Some("string") => string_for(s),
        Some("integer") => json!(number_for(s) as i64),
        Some("number") => json!(number_for(s)),
        Some("boolean") => json!(false),
        _ => json!({}),
    }
}

fn object_for(s: &Node, root: bool) -> Value {
    let mut out = Map::new();
    let required = s.required.clone().unwrap_or_default();
    for (name, prop) in s.properties.iter().flatten() {
        // The root's spec is always written; below it, what is required or has an example
        // or default.
        let wanted =
            required.contains(name) || prop.example.is_some() || prop.default.is_some() || (root && name == "spec");
        if wanted {
            out.insert(name.clone(), value_for(prop, false));
        }
    }
    Value::Object(out)
}

fn string_for(s: &Node) -> Value {
    let text = match s.format.as_deref() {
        Some("date-time") => "2025-01-01T00:00:00Z".to_string(),
        Some("date") => "2025-01-01".to_string(),
        Some("byte") => "c2FtcGxl".to_string(),
        _ => "sample".to_string(),
    };
    let min = s.min_length.unwrap_or(0) as usize;
    let mut text = if text.len() < min { format!("{text}{}", "x".repeat(min - text.len())) } else { text };
    if let Some(max) = s.max_length {
        text.truncate(max as usize);
    }
    Value::String(text)
}

fn number_for(s: &Node) -> f64 {
    let mut n = 0.0f64;
    if let Some(min) = s.minimum.as_ref().and_then(serde_json::Number::as_f64) {
        n = if s.exclusive_minimum == Some(true) { min + 1.0 } else { min };
    }
    if let Some(max) = s.maximum.as_ref().and_then(serde_json::Number::as_f64)
        && (n > max || (n == max && s.exclusive_maximum == Some(true)))
    {
        n = if s.exclusive_maximum == Some(true) { max - 1.0 } else { max };
    }
    n
}
