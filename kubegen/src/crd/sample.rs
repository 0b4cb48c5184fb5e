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
    // kubebuilder's `<kind>-sample`; another version's sample is an object of its own
    // (`kubectl apply -k config/samples` creates each, and `delete -k` finds each).
    let singular = crd.spec.names.singular.as_deref().unwrap_or(&crd.spec.names.plural);
    let name = match version {
        Some(v) if !v.storage && crd.spec.versions.len() > 1 => format!("{singular}-sample-{}", v.name),
        _ => format!("{singular}-sample"),
    };
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
        Some("object") => {
            let mut object = object_for(s, root);
            meet_first_variant(s, &mut object);
            object
        }
        Some("array") => {
            let n = s.min_items.unwrap_or(0) as usize;
            let item = match &s.items {
                Some(item) => value_for(item, false),
                None => json!({}),
            };
            let mut items = vec![item; n];
            // A set's items, and a list-map's keys, differ from each other.
            if let Some(item_node) = s.items.as_deref() {
                for (i, item) in items.iter_mut().enumerate().skip(1) {
                    match s.list_type.as_deref() {
                        Some("set") => *item = vary(item, item_node, i),
                        Some("map") => {
                            for key in s.list_map_keys.iter().flatten() {
                                let key_node = item_node.properties.as_ref().and_then(|p| p.get(key));
                                if let (Some(value), Some(key_node)) = (item.get_mut(key), key_node) {
                                    *value = vary(value, key_node, i);
                                }
                            }
                        }
                        _ => {}
                    }
                }
            }
            Value::Array(items)
        }
        Some("string") => string_for(s),
        Some("integer") => json!(number_for(s) as i64),
        Some("number") => json!(number_for(s)),
        Some("boolean") => json!(false),
        _ => json!({}),
    }
}

/// A union's object (`oneOf`/`anyOf` over the skeleton's fields: serde's tagged and
/// untagged enums) made one of its variants, the first: the values its branch pins (a
/// tag's) and the fields it requires.
fn meet_first_variant(s: &Node, object: &mut Value) {
    let Some(branch) = s.one_of.iter().chain(s.any_of.iter()).flatten().next() else { return };
    meet_branch(s, branch, object);
    let Value::Object(fields) = object else { return };
    // What the other branches require and this one does not name goes: a tagged enum's
    // variants exclude each other's fields.
    let own: Vec<&String> =
        branch.required.iter().flatten().chain(branch.properties.iter().flatten().map(|(k, _)| k)).collect();
    let skeleton_required = s.required.clone().unwrap_or_default();
    for other in s.one_of.iter().flatten().skip(1) {
        for name in other.required.iter().flatten() {
            if !own.contains(&name) && !skeleton_required.contains(name) {
                fields.remove(name);
            }
        }
    }
}

/// `value` (of the skeleton `s`) made to meet what `branch` says of it, at any depth: the
/// values it pins and the fields it requires (an adjacently tagged variant's content).
fn meet_branch(s: &Node, branch: &Node, value: &mut Value) {
    let Value::Object(fields) = value else { return };
    let skeleton = |name: &str| s.properties.as_ref().and_then(|p| p.get(name));
    for name in branch.required.iter().flatten() {
        if let Some(prop) = skeleton(name)
            && !fields.contains_key(name)
        {
            fields.insert(name.clone(), value_for(prop, false));
        }
    }
    for (name, pinned) in branch.properties.iter().flatten() {
        if let Some(first) = pinned.enum_.as_ref().and_then(|e| e.first()) {
            fields.insert(name.clone(), first.clone());
        } else if let (Some(prop), Some(inner)) = (skeleton(name), fields.get_mut(name)) {
            meet_branch(prop, pinned, inner);
        }
    }
}

/// The `i`-th of several values of `s` that must differ (a set's items, list-map keys),
/// `value` being the first: the next enum value, a numbered string inside its length, the
/// next multiple.
fn vary(value: &Value, s: &Node, i: usize) -> Value {
    if let Some(values) = &s.enum_ {
        return values.get(i).cloned().unwrap_or_else(|| value.clone());
    }
    match value {
        Value::String(text) => {
            let suffix = i.to_string();
            let max = s.max_length.map_or(usize::MAX, |m| m as usize);
            let keep = text.len().min(max.saturating_sub(suffix.len()));
            Value::String(format!("{}{suffix}", &text[..keep]))
        }
        Value::Number(n) => {
            let step = s.multiple_of.as_ref().and_then(serde_json::Number::as_f64).unwrap_or(1.0);
            match n.as_i64() {
                Some(n) if s.type_.as_deref() == Some("integer") => json!(n + (i as f64 * step) as i64),
                _ => json!(n.as_f64().unwrap_or(0.0) + i as f64 * step),
            }
        }
        Value::Bool(b) => json!((i % 2 == 1) != *b),
        other => other.clone(),
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
    // `minProperties`: the struct's other fields first, then keys of the map's own.
    let least = s.min_properties.unwrap_or(0) as usize;
    for (name, prop) in s.properties.iter().flatten() {
        if out.len() >= least {
            break;
        }
        out.entry(name.clone()).or_insert_with(|| value_for(prop, false));
    }
    let mut key = 1;
    while out.len() < least {
        let value = s.map_values().map_or(json!({}), |values| value_for(values, false));
        out.insert(format!("key{key}"), value);
        key += 1;
    }
    Value::Object(out)
}

fn string_for(s: &Node) -> Value {
    let text = match s.format.as_deref() {
        Some("date-time") => "2025-01-01T00:00:00Z".to_string(),
        Some("date") => "2025-01-01".to_string(),
        Some("byte") => "c2FtcGxl".to_string(),
        Some("uuid") => "123e4567-e89b-12d3-a456-426614174000".to_string(),
        Some("email") => "sample@example.com".to_string(),
        Some("ipv4") => "192.0.2.1".to_string(),
        Some("ipv6") => "2001:db8::1".to_string(),
        Some("cidr") => "192.0.2.0/24".to_string(),
        Some("mac") => "00:00:5e:00:53:01".to_string(),
        Some("uri") => "https://example.com/".to_string(),
        Some("duration") => "1h".to_string(),
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
    // 0 where the bounds take it (an int32's range is bounds too), else the edge nearest.
    let mut n = 0.0f64;
    if let Some(min) = s.minimum.as_ref().and_then(serde_json::Number::as_f64)
        && (min > n || (min == n && s.exclusive_minimum == Some(true)))
    {
        n = if s.exclusive_minimum == Some(true) { min + 1.0 } else { min };
    }
    if let Some(max) = s.maximum.as_ref().and_then(serde_json::Number::as_f64)
        && (n > max || (n == max && s.exclusive_maximum == Some(true)))
    {
        n = if s.exclusive_maximum == Some(true) { max - 1.0 } else { max };
    }
    // `multipleOf`: the least multiple from there (the bounds leave room for one where
    // the schema can hold a value at all).
    if let Some(step) = s.multiple_of.as_ref().and_then(serde_json::Number::as_f64).filter(|m| *m > 0.0) {
        let mut m = (n / step).ceil() * step;
        if m == n
            && s.exclusive_minimum == Some(true)
            && s.minimum.as_ref().and_then(serde_json::Number::as_f64) == Some(n)
        {
            m += step;
        }
        n = m;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(v: Value) -> Node {
        Node::from_value(&v).expect("a schema")
    }

    fn valid(schema: &Node, value: &Value) -> bool {
        let mut out = Vec::new();
        kubegen_core::schema::validate::check_node(schema, value, "", &mut out);
        out.is_empty()
    }

    /// Issue 28, found by the IR-level generated tier (seed 7): a map with `minProperties`
    /// was sampled empty, a set or list-map with `minItems` with equal items or keys, and
    /// a number with `multipleOf` as 0 past its minimum; `config/samples/` then held an
    /// object the API server refuses.
    #[test]
    fn samples_meet_counts_uniqueness_and_multiples() {
        let cases = [
            json!({"type": "object", "minProperties": 2, "additionalProperties": {"type": "integer", "minimum": 3}}),
            json!({"type": "object", "minProperties": 1, "properties": {"a": {"type": "string"}}}),
            json!({"type": "array", "minItems": 3, "x-kubernetes-list-type": "set", "items": {"type": "string", "maxLength": 3}}),
            json!({"type": "array", "minItems": 2, "x-kubernetes-list-type": "set", "items": {"type": "integer", "multipleOf": 5}}),
            json!({"type": "array", "minItems": 2, "x-kubernetes-list-type": "set", "items": {"type": "string", "enum": ["a", "b"]}}),
            json!({"type": "array", "minItems": 2, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                   "items": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}}),
            json!({"type": "integer", "minimum": 3, "multipleOf": 4}),
            json!({"type": "number", "minimum": 4, "exclusiveMinimum": true, "multipleOf": 2}),
            json!({"type": "string", "format": "uuid"}),
            json!({"type": "string", "format": "ipv4"}),
            // Found by the same tier: an adjacently tagged enum's content, an internally
            // tagged one's variant fields (`oneOf` over the skeleton).
            json!({"type": "object", "required": ["mode"], "properties": {
                "mode": {"type": "string", "enum": ["Truck", "Walk"]},
                "details": {"type": "object", "properties": {"plate": {"type": "string"}, "crew": {"type": "integer"}}}},
                "oneOf": [
                    {"required": ["details"], "properties": {"mode": {"enum": ["Truck"]}, "details": {"required": ["plate"]}}},
                    {"properties": {"mode": {"enum": ["Walk"]}}}]}),
            json!({"type": "object", "required": ["kind"], "properties": {
                "kind": {"type": "string", "enum": ["weekly", "daily"]},
                "hour": {"type": "integer"}, "day": {"type": "string"}},
                "oneOf": [
                    {"required": ["hour"], "properties": {"kind": {"enum": ["daily"]}}},
                    {"required": ["day", "hour"], "properties": {"kind": {"enum": ["weekly"]}}}]}),
        ];
        for case in cases {
            let schema = node(case.clone());
            let value = value_for(&schema, false);
            assert!(valid(&schema, &value), "{value} does not fit {case}");
        }
    }
}
