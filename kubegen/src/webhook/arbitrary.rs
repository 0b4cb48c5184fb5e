//! Arbitrary objects of a version, drawn from its structural schema (the typed IR the
//! CRD carries): proptest strategies that keep to the schema's types, enums, bounds,
//! lengths, patterns, item and property counts and list types, so what they draw is what
//! the API server could hold. What the schema cannot say (a CEL rule, a pattern the
//! regex engine cannot draw from) is left to the caller, who checks each value with the
//! kind's `Validate` and rejects the ones the server would refuse.

use std::collections::BTreeMap;

use kubegen_core::schema::node::{Additional, Node};
use proptest::prelude::*;
use proptest::sample::select;
use serde_json::{Map, Number, Value, json};

/// How deep a draw goes into optional structure; below it, optional fields stay unset
/// and lists and maps stay at their minimum size.
const DEPTH: usize = 6;
/// How many items or entries beyond its minimum a list or map draws.
const EXTRA: usize = 3;

/// The object's fields other than `apiVersion`, `kind` and `metadata` (spec, status and
/// a flat kind's own fields), drawn from the root schema of its CRD version.
pub fn object_fields(root: &Node) -> BoxedStrategy<Map<String, Value>> {
    let mut root = root.clone();
    if let Some(props) = root.properties.as_mut() {
        for server_owned in ["apiVersion", "kind", "metadata"] {
            props.remove(server_owned);
        }
    }
    value(&root, 0).prop_map(|v| if let Value::Object(m) = v { m } else { Map::new() }).boxed()
}

/// A value of `node`.
pub fn value(node: &Node, depth: usize) -> BoxedStrategy<Value> {
    if let Some(values) = node.enum_.as_ref().filter(|v| !v.is_empty()) {
        return select(values.clone()).boxed();
    }
    if node.int_or_string == Some(true) {
        let string = Node { type_: Some("string".into()), ..node.clone() };
        let int = Node { type_: Some("integer".into()), pattern: None, ..node.clone() };
        return prop_oneof![integer(&int), string_value(&string)].boxed();
    }
    match node.type_.as_deref() {
        Some("boolean") => any::<bool>().prop_map(Value::Bool).boxed(),
        Some("integer") => integer(node),
        Some("number") => number(node),
        Some("string") => string_value(node),
        Some("array") => array(node, depth),
        Some("object") => object(node, depth),
        // Preserve-unknown-fields with no type: anything JSON, kept small.
        _ => anything(depth),
    }
}

fn bound(n: Option<&Number>) -> Option<f64> {
    n.and_then(Number::as_f64)
}

fn integer(node: &Node) -> BoxedStrategy<Value> {
    let (mut low, mut high) = match node.format.as_deref() {
        Some("int32") => (i64::from(i32::MIN), i64::from(i32::MAX)),
        // JSON numbers past 2^53 lose precision in many readers; stay inside.
        _ => (-(1 << 53), 1 << 53),
    };
    if let Some(min) = bound(node.minimum.as_ref()) {
        let exclusive = node.exclusive_minimum == Some(true);
        low = low.max(if exclusive { min.floor() as i64 + 1 } else { min.ceil() as i64 });
    }
    if let Some(max) = bound(node.maximum.as_ref()) {
        let exclusive = node.exclusive_maximum == Some(true);
        high = high.min(if exclusive { max.ceil() as i64 - 1 } else { max.floor() as i64 });
    }
    if low > high {
        return Just(Value::from(low)).boxed();
    }
    match node.multiple_of.as_ref().and_then(Number::as_i64).filter(|m| *m > 1) {
        Some(step) => {
            let (first, last) = (low.div_euclid(step) + i64::from(low.rem_euclid(step) != 0), high.div_euclid(step));
            if first > last {
                return Just(Value::from(low)).boxed();
            }
            (first..=last).prop_map(move |k| Value::from(k * step)).boxed()
        }
        // Small values most of the time, the bounds' whole range now and then.
        None => prop_oneof![
            3 => (low.max(-100)..=high.min(100).max(low.max(-100))).prop_map(Value::from),
            1 => (low..=high).prop_map(Value::from),
        ]
        .boxed(),
    }
}

fn number(node: &Node) -> BoxedStrategy<Value> {
    let low = bound(node.minimum.as_ref()).unwrap_or(-1e6);
    let high = bound(node.maximum.as_ref()).unwrap_or(1e6).max(low);
    // Halves and quarters: exact in binary, so an f32 or f64 field reads them as written.
    let (low_q, high_q) = ((low * 4.0).ceil() as i64, (high * 4.0).floor() as i64);
    if low_q > high_q {
        return Just(json!(low)).boxed();
    }
    let (open_low, open_high) = (node.exclusive_minimum == Some(true), node.exclusive_maximum == Some(true));
    (low_q..=high_q)
        .prop_filter("on an exclusive bound", move |q| {
            let x = *q as f64 / 4.0;
            !(open_low && x == low || open_high && x == high)
        })
        .prop_map(|q| {
            let x = q as f64 / 4.0;
            if x.fract() == 0.0 { Value::from(x as i64) } else { json!(x) }
        })
        .boxed()
}

/// The regular expression a string is drawn from: its pattern where proptest can draw
/// from it, else one for its format, else short words.
fn string_regex(node: &Node) -> String {
    if let Some(pattern) = &node.pattern {
        let inner = pattern.strip_prefix('^').unwrap_or(pattern);
        let inner = inner.strip_suffix('$').unwrap_or(inner);
        if proptest::string::string_regex(inner).is_ok() {
            return inner.to_string();
        }
    }
    match node.format.as_deref() {
        Some("date-time") => {
            r"20[0-9]{2}-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]Z".into()
        }
        Some("date") => r"20[0-9]{2}-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])".into(),
        Some("byte") => r"([A-Za-z0-9+/]{4}){0,4}".into(),
        Some("duration") => r"[1-9][0-9]{0,2}(s|m|h)".into(),
        Some("uuid") => r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}".into(),
        Some("ipv4") => r"(1?[0-9]{1,2})\.(1?[0-9]{1,2})\.(1?[0-9]{1,2})\.(1?[0-9]{1,2})".into(),
        Some("hostname") => r"[a-z]([a-z0-9-]{0,8}[a-z0-9])?(\.[a-z]([a-z0-9-]{0,8}[a-z0-9])?){0,2}".into(),
        Some("email") => r"[a-z]{1,8}@[a-z]{1,8}\.(com|org|dev)".into(),
        Some("uri") => r"https://[a-z]{1,8}\.(com|dev)(/[a-z0-9]{1,6}){0,3}".into(),
        _ => {
            let min = node.min_length.unwrap_or(0) as usize;
            let max = node.max_length.map(|m| m as usize).unwrap_or(min + 12).min(min + 12).max(min);
            format!("[a-zA-Z0-9 _.-]{{{min},{max}}}")
        }
    }
}

fn string_value(node: &Node) -> BoxedStrategy<Value> {
    let regex = string_regex(node);
    let (min, max) = (node.min_length.unwrap_or(0) as usize, node.max_length.map(|m| m as usize));
    match proptest::string::string_regex(&regex) {
        Ok(strings) => strings
            .prop_filter("outside the length bounds", move |s| {
                let n = s.chars().count();
                n >= min && max.is_none_or(|m| n <= m)
            })
            .prop_map(Value::String)
            .boxed(),
        Err(_) => Just(Value::String("a".repeat(min))).boxed(),
    }
}

fn sizes(min: Option<u64>, max: Option<u64>, depth: usize) -> std::ops::RangeInclusive<usize> {
    let min = min.unwrap_or(0) as usize;
    let extra = if depth >= DEPTH { 0 } else { EXTRA };
    let max = max.map(|m| m as usize).unwrap_or(min + extra).min(min + extra).max(min);
    min..=max
}

fn array(node: &Node, depth: usize) -> BoxedStrategy<Value> {
    let items = node.items.as_deref().cloned().unwrap_or_default();
    let range = sizes(node.min_items, node.max_items, depth);
    let min = *range.start();
    let keys = node.list_map_keys.clone().unwrap_or_default();
    let unique = matches!(node.list_type.as_deref(), Some("set" | "map")) || node.unique_items == Some(true);
    prop::collection::vec(value(&items, depth + 1), range)
        .prop_map(move |mut list| {
            if unique {
                // A set holds each value once, a map list each key tuple once.
                let mut seen = Vec::new();
                list.retain(|v| {
                    let key = if keys.is_empty() {
                        v.clone()
                    } else {
                        Value::Array(keys.iter().map(|k| v.get(k).cloned().unwrap_or(Value::Null)).collect())
                    };
                    let fresh = !seen.contains(&key);
                    seen.push(key);
                    fresh
                });
            }
            list
        })
        .prop_filter("fewer distinct items than minItems", move |list| list.len() >= min)
        .prop_map(Value::Array)
        .boxed()
}

fn object(node: &Node, depth: usize) -> BoxedStrategy<Value> {
    let required = node.required.clone().unwrap_or_default();
    let mut fields: Vec<BoxedStrategy<Option<(String, Value)>>> = Vec::new();
    for (name, schema) in node.properties.iter().flatten() {
        let field = value(schema, depth + 1).prop_map({
            let name = name.clone();
            move |v| Some((name.clone(), v))
        });
        if required.contains(name) {
            fields.push(field.boxed());
        } else if depth < DEPTH {
            fields.push(prop::option::of(field).prop_map(Option::flatten).boxed());
        }
    }
    let entries = match &node.additional_properties {
        Some(Additional::Schema(values)) => prop::collection::btree_map(
            "[a-z][a-z0-9-]{0,7}",
            value(values, depth + 1),
            sizes(node.min_properties, node.max_properties, depth),
        )
        .boxed(),
        _ => Just(BTreeMap::new()).boxed(),
    };
    let embedded = node.embedded_resource == Some(true);
    (fields, entries)
        .prop_map(move |(fields, entries)| {
            let mut out: Map<String, Value> = entries.into_iter().collect();
            out.extend(fields.into_iter().flatten());
            if embedded {
                out.entry("apiVersion").or_insert_with(|| "v1".into());
                out.entry("kind").or_insert_with(|| "ConfigMap".into());
            }
            Value::Object(out)
        })
        .boxed()
}

fn anything(depth: usize) -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-1000i64..1000).prop_map(Value::from),
        "[a-z]{0,6}".prop_map(Value::String),
    ];
    if depth >= DEPTH {
        return leaf.boxed();
    }
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::btree_map("[a-z]{1,5}", inner, 0..3).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
    .boxed()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::test_runner::TestRunner;

    fn node(v: Value) -> Node {
        Node::from_value(&v).expect("a schema")
    }

    /// Every draw keeps to the schema: checked by kubegen's own structural check.
    #[test]
    fn draws_keep_to_the_schema() {
        let schema = node(json!({
            "type": "object",
            "required": ["name", "count"],
            "properties": {
                "name": {"type": "string", "minLength": 2, "maxLength": 5, "pattern": "^[a-z]+$"},
                "count": {"type": "integer", "format": "int32", "minimum": 1, "maximum": 10, "exclusiveMaximum": true},
                "step": {"type": "integer", "minimum": 0, "maximum": 100, "multipleOf": 5},
                "ratio": {"type": "number", "minimum": 0, "maximum": 1, "exclusiveMinimum": true},
                "mode": {"type": "string", "enum": ["a", "b"]},
                "at": {"type": "string", "format": "date-time"},
                "tags": {"type": "array", "items": {"type": "string", "maxLength": 3}, "x-kubernetes-list-type": "set", "minItems": 1, "maxItems": 4},
                "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["port"],
                          "items": {"type": "object", "required": ["port"], "properties": {"port": {"type": "integer", "minimum": 1, "maximum": 3}}}},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}, "maxProperties": 2},
                "size": {"x-kubernetes-int-or-string": true, "pattern": "^[0-9]+%$"},
                "free": {"x-kubernetes-preserve-unknown-fields": true}
            }
        }));
        let strategy = value(&schema, 0);
        let mut runner = TestRunner::deterministic();
        for _ in 0..300 {
            let drawn = strategy.new_tree(&mut runner).expect("a draw").current();
            let mut violations = Vec::new();
            kubegen_core::schema::validate::check_node(&schema, &drawn, "", &mut violations);
            assert!(violations.is_empty(), "{drawn} breaks the schema: {violations:?}");
        }
    }
}
