//! The checks the API server makes of a value against one structural schema node —
//! types, bounds, lengths, patterns, formats, enums, required fields, list types,
//! value-validation junctors — worded as the server words them, and its defaulting.
//! One implementation for `Validate`, the CRD lint and the derive's check of a default
//! against its field. CEL rules are `kubegen-cel`'s. The checks read the typed node
//! ([`Node`]), parsed once per kind by the library's `Validator`.

use std::fmt;

use serde_json::{Map, Value};

use super::node::Node;

/// One violated constraint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// JSON path of the offending value, as the server prints it (`spec.ports[1]`).
    pub path: String,
    /// The server's wording.
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

pub fn join(path: &str, name: &str) -> String {
    if path.is_empty() { name.to_string() } else { format!("{path}.{name}") }
}

/// Checks one value against one schema node's JSON (no defaults applied, no CEL); a
/// JSON that is no schema accepts everything.
pub fn check_value(schema: &Value, v: &Value, path: &str, out: &mut Vec<Violation>) {
    check_node(&Node::from_value(schema).unwrap_or_default(), v, path, out);
}

/// The server defaults before it validates.
pub fn apply_defaults(node: &Node, value: &mut Value) {
    // A null where the schema does not say `nullable` is the server's to replace: by the
    // field's default when it has one, else it is pruned (apiextensions-apiserver's
    // `Default` and `PruneNonNullableNullsWithoutDefaults`), before anything validates.
    let non_nullable_null = |v: Option<&Value>, sub: &Node| v.is_some_and(Value::is_null) && sub.nullable != Some(true);
    let defaulted = |sub: &Node| {
        sub.default.clone().map(|mut d| {
            apply_defaults(sub, &mut d);
            d
        })
    };
    match value {
        Value::Object(fields) => {
            if let Some(props) = &node.properties {
                for (name, sub) in props {
                    if non_nullable_null(fields.get(name), sub) {
                        match defaulted(sub) {
                            Some(d) => fields.insert(name.clone(), d),
                            None => fields.remove(name),
                        };
                        continue;
                    }
                    match fields.get_mut(name) {
                        Some(v) => apply_defaults(sub, v),
                        None => {
                            if let Some(d) = defaulted(sub) {
                                fields.insert(name.clone(), d);
                            }
                        }
                    }
                }
            } else if let Some(values) = node.map_values() {
                let keys: Vec<String> = fields.keys().cloned().collect();
                for key in keys {
                    if non_nullable_null(fields.get(&key), values) {
                        match defaulted(values) {
                            Some(d) => fields.insert(key, d),
                            None => fields.remove(&key),
                        };
                    } else if let Some(v) = fields.get_mut(&key) {
                        apply_defaults(values, v);
                    }
                }
            }
        }
        Value::Array(items) => {
            if let Some(item) = &node.items {
                for v in items {
                    apply_defaults(item, v);
                }
            }
        }
        _ => {}
    }
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn num(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 { format!("{}", n as i64) } else { format!("{n}") }
}

fn push(out: &mut Vec<Violation>, path: &str, message: String) {
    out.push(Violation { path: path.to_string(), message });
}

fn shown(v: &Value) -> String {
    match v {
        Value::String(s) => format!("\"{s}\""),
        other => other.to_string(),
    }
}

/// Checks one value against one typed node (no defaults applied, no CEL).
pub fn check_node(node: &Node, v: &Value, path: &str, out: &mut Vec<Violation>) {
    let flag = |f: Option<bool>| f == Some(true);
    // A null is either allowed (`nullable`) or pruned by the server before it validates.
    if v.is_null() {
        return;
    }
    if let Some(t) = node.type_.as_deref() {
        let actual = type_name(v);
        let fits = actual == t || (t == "number" && actual == "integer");
        if !fits {
            push(
                out,
                path,
                format!("{path}: Invalid value: \"{actual}\": {path} in body must be of type {t}: {}", shown(v)),
            );
            return;
        }
    } else if flag(node.int_or_string) && !matches!(type_name(v), "integer" | "string") {
        push(out, path, format!("{path} in body must be of type integer,string: {v}"));
        return;
    }
    // Value validations stacked by markers (a field's and its type's): each must hold.
    for branch in node.all_of.iter().flatten() {
        check_node(branch, v, path, out);
    }

    if let Some(values) = &node.enum_
        && !values.contains(v)
    {
        push(out, path, format!("{path}: Unsupported value: {}", shown(v)));
    }

    if let Some(x) = v.as_f64() {
        if let Some(max) = node.maximum.as_ref().and_then(serde_json::Number::as_f64) {
            if flag(node.exclusive_maximum) && x >= max {
                push(out, path, format!("{path} in body should be less than {}", num(max)));
            } else if x > max {
                push(out, path, format!("{path} in body should be less than or equal to {}", num(max)));
            }
        }
        if let Some(min) = node.minimum.as_ref().and_then(serde_json::Number::as_f64) {
            if flag(node.exclusive_minimum) && x <= min {
                push(out, path, format!("{path} in body should be greater than {}", num(min)));
            } else if x < min {
                push(out, path, format!("{path} in body should be greater than or equal to {}", num(min)));
            }
        }
        if let Some(m) = node.multiple_of.as_ref().and_then(serde_json::Number::as_f64)
            && m > 0.0
            && !is_multiple_of(v, m)
        {
            push(out, path, format!("{path} in body should be a multiple of {}", num(m)));
        }
    }

    if let Some(s) = v.as_str() {
        let len = s.chars().count() as u64;
        if let Some(max) = node.max_length.filter(|max| len > *max) {
            push(out, path, format!("{path}: Too long: may not be more than {max} bytes"));
        }
        if let Some(min) = node.min_length.filter(|min| len < *min) {
            push(out, path, format!("{path} in body should be at least {min} chars long"));
        }
        if let Some(p) = &node.pattern
            && regex::Regex::new(p).is_ok_and(|re| !re.is_match(s))
        {
            push(out, path, format!("{path} in body should match '{p}'"));
        }
        match node.format.as_deref() {
            Some("date-time") if !super::formats::is_date_time(s) => {
                push(out, path, format!("{path} in body must be of type date-time: \"{s}\""));
            }
            Some("date") if !super::formats::is_date(s) => {
                push(out, path, format!("{path} in body must be of type date: \"{s}\""));
            }
            Some("hostname") if !super::formats::is_hostname(s) => {
                push(out, path, format!("{path} in body must be of type hostname: \"{s}\""));
            }
            _ => {}
        }
    }

    if let Value::Array(items) = v {
        count_bounds(items.len(), (node.min_items, node.max_items, "items"), path, out);
        if let Some(item) = &node.items {
            for (i, it) in items.iter().enumerate() {
                check_node(item, it, &format!("{path}[{i}]"), out);
            }
        }
        match node.list_type.as_deref() {
            Some("set") => {
                for (i, it) in items.iter().enumerate() {
                    if items[..i].contains(it) {
                        push(out, path, format!("{path}[{i}]: Duplicate value: {it}"));
                    }
                }
            }
            Some("map") => {
                let keys: &[String] = node.list_map_keys.as_deref().unwrap_or_default();
                let key_of =
                    |it: &Value| keys.iter().map(|k| it.get(k).cloned().unwrap_or(Value::Null)).collect::<Vec<_>>();
                for (i, it) in items.iter().enumerate() {
                    if items[..i].iter().any(|o| key_of(o) == key_of(it)) {
                        let shown: Map<String, Value> =
                            keys.iter().map(|k| (k.clone(), it.get(k).cloned().unwrap_or(Value::Null))).collect();
                        push(out, path, format!("{path}[{i}]: Duplicate value: {}", Value::Object(shown)));
                    }
                }
            }
            _ => {}
        }
    }

    if let Value::Object(fields) = v {
        count_bounds(fields.len(), (node.min_properties, node.max_properties, "properties"), path, out);
        if let Some(props) = &node.properties {
            for (name, sub) in props {
                if let Some(fv) = fields.get(name) {
                    check_node(sub, fv, &join(path, name), out);
                }
            }
        } else if let Some(values) = node.map_values() {
            for (name, fv) in fields {
                check_node(values, fv, &join(path, name), out);
            }
        }
        required(node, fields, path, out);
        if flag(node.embedded_resource) {
            for key in ["apiVersion", "kind"] {
                if fields.get(key).and_then(Value::as_str).is_none_or(str::is_empty) {
                    push(out, path, format!("{}: Required value: must not be empty", join(path, key)));
                }
            }
        }
    }

    // The junctors the structural pass writes for tagged enums: exactly one (oneOf) or
    // at least one (anyOf) variant must fit.
    for (junctor, branches, exactly) in [("oneOf", &node.one_of, true), ("anyOf", &node.any_of, false)] {
        let Some(branches) = branches else { continue };
        let fitting = branches
            .iter()
            .filter(|b| {
                let mut scratch = Vec::new();
                check_node(b, v, path, &mut scratch);
                scratch.is_empty()
            })
            .count();
        if (exactly && fitting != 1) || (!exactly && fitting == 0) {
            push(
                out,
                path,
                format!(
                    "{path} in body must match {} of the schemas in {junctor}",
                    if exactly { "exactly one" } else { "at least one" }
                ),
            );
        }
    }
}

/// `minItems`/`maxItems` and `minProperties`/`maxProperties`, worded as the server does
/// (a current one: before 1.3x, too many was `should have at most N items|properties`).
fn count_bounds(n: usize, (min, max, what): (Option<u64>, Option<u64>, &str), path: &str, out: &mut Vec<Violation>) {
    let n = n as u64;
    if let Some(max) = max.filter(|max| n > *max) {
        // Current servers say "items" of properties too.
        push(out, path, format!("{path}: Too many: {n}: must have at most {max} items"));
    }
    if let Some(min) = min.filter(|min| n < *min) {
        push(out, path, format!("{path} in body should have at least {min} {what}"));
    }
}

/// kube-openapi's `MultipleOfNativeType`: integers exactly, other numbers as Go's
/// `swag.IsFloat64AJSONInteger` reads the quotient (a relative error under 1e-9).
pub fn is_multiple_of(v: &Value, factor: f64) -> bool {
    if let Some(i) = v.as_i64()
        && factor.fract() == 0.0
        && factor.abs() < 9.2e18
    {
        return i % (factor as i64) == 0;
    }
    let Some(x) = v.as_f64() else { return false };
    let quotient = if factor < 1.0 { 1.0 / factor * x } else { x / factor };
    const MAX_JSON_INTEGER: f64 = 9_007_199_254_740_992.0;
    if !quotient.is_finite() || quotient.abs() > MAX_JSON_INTEGER {
        return false;
    }
    let rounded = quotient.round();
    if quotient == rounded {
        return true;
    }
    rounded != 0.0 && (quotient - rounded).abs() < 1e-9 * rounded.abs()
}

pub fn required(node: &Node, fields: &Map<String, Value>, path: &str, out: &mut Vec<Violation>) {
    for name in node.required.iter().flatten() {
        if !fields.contains_key(name) || fields.get(name) == Some(&Value::Null) {
            push(out, path, format!("{}: Required value", join(path, name)));
        }
    }
}

#[cfg(test)]
mod tests {

    /// Found by the differential objects tier's long variant (KUBEGEN_OBJECTS=100, seed
    /// 7): the server pruned `"extra": null` from an Inspection, the expected object kept it.
    #[test]
    fn a_null_where_the_schema_is_not_nullable_is_defaulted_or_pruned_as_the_server_does() {
        let node = Node::from_value(&serde_json::json!({
            "type": "object",
            "properties": {
                "replicas": {"type": "integer", "default": 3},
                "extra": {"x-kubernetes-preserve-unknown-fields": true},
                "note": {"type": "string", "nullable": true},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}}
            }
        }))
        .expect("a schema");
        let mut object =
            serde_json::json!({"replicas": null, "extra": null, "note": null, "labels": {"a": null, "b": "x"}});
        apply_defaults(&node, &mut object);
        assert_eq!(object, serde_json::json!({"replicas": 3, "note": null, "labels": {"b": "x"}}));
    }

    use serde_json::json;

    use super::*;

    #[test]
    fn multiples_as_the_api_server_reads_them() {
        assert!(is_multiple_of(&json!(10), 5.0));
        assert!(!is_multiple_of(&json!(11), 5.0));
        assert!(is_multiple_of(&json!(0.3), 0.1), "0.3 / 0.1 is 2.9999999999999996 in floats");
        assert!(is_multiple_of(&json!(1.5), 0.5));
        assert!(!is_multiple_of(&json!(1.55), 0.5));
        assert!(is_multiple_of(&json!(0), 7.0));
    }
}
