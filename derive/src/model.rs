//! The marker model of one schema node (a field, or a type wherever it is used), checked,
//! and lowered to the JSON document the runtime's structural pass applies.

use serde_json::{Map, Value, json};

use crate::errors::Errors;
use crate::markers::{Marker, MarkerValue, Parsed};

use kubegen_cel::check::REASONS;

/// Lowers the schema markers of one node, checked against the node's Rust type where
/// there is one (a field). `None` when there are none.
pub fn schema_markers(parsed: &Parsed, ty: Option<&syn::Type>, place: &str, errors: &mut Errors) -> Option<Value> {
    let doc = lower(&parsed.markers, ty, !parsed.foreign_schema, place, errors);
    if doc.is_empty() { None } else { Some(Value::Object(doc)) }
}

/// `Enum` values are written as text in a doc comment; on a number field they are numbers.
fn typed_enum(m: &Marker, values: &[Value], kind: Option<&'static str>, errors: &mut Errors) -> Vec<Value> {
    values
        .iter()
        .map(|v| match (kind, v) {
            (Some("integer"), Value::String(s)) => s.trim().parse::<i64>().map(Value::from).unwrap_or_else(|_| {
                errors.push(m.span, format!("enum value `{s}` is not an integer, and the field is an integer"));
                v.clone()
            }),
            (Some("number"), Value::String(s)) => {
                s.trim().parse::<f64>().ok().and_then(serde_json::Number::from_f64).map(Value::Number).unwrap_or_else(
                    || {
                        errors.push(m.span, format!("enum value `{s}` is not a number, and the field is a number"));
                        v.clone()
                    },
                )
            }
            (Some("boolean"), Value::String(s)) => match s.trim() {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                _ => {
                    errors.push(m.span, format!("enum value `{s}` is not true or false, and the field is a boolean"));
                    v.clone()
                }
            },
            // An int-or-string takes both: what reads as an integer is one, as
            // controller-gen parses `Enum=1;two` into `[1, "two"]`.
            (Some("int-or-string"), Value::String(s)) => s.trim().parse::<i64>().map(Value::from).unwrap_or(v.clone()),
            _ => v.clone(),
        })
        .collect()
}

fn camel_key(key: &str) -> Option<&'static str> {
    Some(match key {
        "minimum" => "minimum",
        "maximum" => "maximum",
        "exclusive_minimum" => "exclusiveMinimum",
        "exclusive_maximum" => "exclusiveMaximum",
        "multiple_of" => "multipleOf",
        "min_length" => "minLength",
        "max_length" => "maxLength",
        "pattern" => "pattern",
        "format" => "format",
        "min_items" => "minItems",
        "max_items" => "maxItems",
        "min_properties" => "minProperties",
        "max_properties" => "maxProperties",
        "title" => "title",
        "nullable" => "nullable",
        "schema_type" => "type",
        "list_type" => "x-kubernetes-list-type",
        "map_type" => "x-kubernetes-map-type",
        "struct_type" => "x-kubernetes-map-type",
        "int_or_string" => "x-kubernetes-int-or-string",
        "preserve_unknown_fields" => "x-kubernetes-preserve-unknown-fields",
        "embedded_resource" => "x-kubernetes-embedded-resource",
        _ => return None,
    })
}

/// `visible`: the markers and the Rust type are all that shape the node's schema, so its
/// CEL rules can be checked against them here.
fn lower(
    markers: &[Marker],
    ty: Option<&syn::Type>,
    visible: bool,
    place: &str,
    errors: &mut Errors,
) -> Map<String, Value> {
    let kind = ty.and_then(crate::shapes::json_kind);
    crate::check::marker_types(markers, kind, place, errors);
    let kind = crate::check::effective_kind(markers, kind);
    let mut item_markers: Vec<Marker> = Vec::new();
    let mut default_marker: Option<&Marker> = None;
    let mut example_marker: Option<&Marker> = None;
    let mut set: Vec<Value> = Vec::new();
    let mut rules: Vec<Value> = Vec::new();
    let mut out = Map::new();
    let mut list_map_keys: Vec<Value> = Vec::new();
    let mut default: Option<Value> = None;
    let mut example: Option<Value> = None;

    // The table's order is the application order.
    let mut ordered: Vec<&Marker> = markers.iter().collect();
    let index = |m: &Marker| crate::markers::registry::MARKERS.iter().position(|d| d.key == m.def.key);
    ordered.sort_by_key(|m| index(m));

    for m in ordered {
        let key = m.def.key;
        match (&m.value, key) {
            (MarkerValue::Flag(false), _) => {}
            (_, "unique_items") => errors.push(
                m.span,
                "the API server refuses `uniqueItems: true` (checking it is quadratic); write `list_type = \"set\"` (`+listType=set`) instead",
            ),
            (MarkerValue::Json(v), "list_type") => {
                check_one_of(m, v, &["atomic", "set", "map"], errors);
                set.push(json!(["x-kubernetes-list-type", v]));
            }
            (MarkerValue::Json(v), "map_type" | "struct_type") => {
                check_one_of(m, v, &["atomic", "granular"], errors);
                set.push(json!(["x-kubernetes-map-type", v]));
            }
            (MarkerValue::Json(_), "list_map_keys") => {
                list_map_keys.extend(m.strs().into_iter().map(Value::String));
            }
            (MarkerValue::Json(Value::String(p)), "pattern") => {
                if let Err(e) = regex_syntax::Parser::new().parse(p) {
                    errors.push(m.span, format!("pattern `{p}` is not a regular expression the API server (Go's RE2) accepts: {e}"));
                }
                set.push(json!(["pattern", p]));
            }
            (MarkerValue::Json(v), "enum_values") => {
                let values = typed_enum(m, &v.as_array().cloned().unwrap_or_default(), kind, errors);
                set.push(json!(["enum", values]));
            }
            (MarkerValue::Flag(true), k) if camel_key(k).is_some() => {
                set.push(json!([camel_key(k), true]));
            }
            (MarkerValue::Json(v), k) if camel_key(k).is_some() => {
                set.push(json!([camel_key(k), v]));
            }
            (MarkerValue::Struct(s), "external_docs") => set.push(json!(["externalDocs", s])),
            (MarkerValue::Json(v), "example" | "example_json") => {
                example = Some(v.clone());
                example_marker = Some(m);
            }
            (MarkerValue::Json(v), "default" | "default_json") => {
                // controller-gen's `{}` is also the empty list.
                default = Some(if kind == Some("array") && v == &json!({}) { json!([]) } else { v.clone() });
                default_marker = Some(m);
            }
            (MarkerValue::Struct(s), "validation") => {
                rules.push(rule_json(m, s, errors));
                // A field's rule sees the field; a type's rules are checked with its fields.
                if ty.is_some() {
                    let schema = if visible { crate::cel::node_schema(ty, markers) } else { crate::cel::unknown() };
                    crate::cel::check(m, s, &schema, errors);
                }
            }
            (MarkerValue::Expr(_), "validation") => errors.push(
                m.span,
                "a rule on a field or nested type is written `validation(rule = \"...\", message = \"...\")` or `validation = \"...\"`",
            ),
            (MarkerValue::Flag(true), "immutable") => {
                rules.push(json!({"rule": "self == oldSelf", "message": "field is immutable"}));
            }
            (MarkerValue::Json(_), "at_most_one_of" | "exactly_one_of" | "at_least_one_of") => {
                rules.push(one_of_rule(key, &m.strs()));
            }
            (MarkerValue::Flag(true), "optional") => {
                out.insert("required".into(), false.into());
            }
            (MarkerValue::Flag(true), "required") => {
                out.insert("required".into(), true.into());
            }
            (MarkerValue::Flag(true), "skip_description") => {
                out.insert("skipDescription".into(), true.into());
            }
            // Not a schema fact: the derive generates the apply configuration.
            (MarkerValue::Flag(_), "apply_config") => {}
            (MarkerValue::Flag(true), "schemaless") => {
                out.insert("schemaless".into(), true.into());
            }
            (MarkerValue::Items(nested), "items") => item_markers.extend(nested.iter().cloned()),
            _ => errors.push(m.span, format!("`{key}` does not take this value")),
        }
    }
    if !item_markers.is_empty() {
        let item_ty = ty.and_then(crate::shapes::item_type);
        let items = lower(&item_markers, item_ty, visible, &format!("an item of {place}"), errors);
        if !items.is_empty() {
            out.insert("items".into(), Value::Object(items));
        }
    }
    let list_type = markers.iter().rev().find(|m| m.def.key == "list_type").and_then(Marker::str);
    let item_kind = ty.and_then(crate::shapes::item_type).and_then(crate::shapes::json_kind);
    if let Some(m) = markers.iter().find(|m| m.def.key == "list_map_keys") {
        if list_type != Some("map") {
            errors.push(
                m.span,
                "`list_map_keys` (`+listMapKey`) needs `list_type = \"map\"` (`+listType=map`) on the same field",
            );
        }
    }
    if let Some(m) = markers.iter().rev().find(|m| m.def.key == "list_type") {
        match (list_type, item_kind) {
            (Some("map"), Some(k)) if k != "object" => errors.push(
                m.span,
                format!("`list_type = \"map\"` needs items that are objects with key fields; these items are {k}s: use `list_type = \"set\"`"),
            ),
            (Some("map"), _) if list_map_keys.is_empty() => errors.push(
                m.span,
                "`list_type = \"map\"` needs the key fields: add `list_map_keys = [\"name\"]` (`+listMapKey=name`)",
            ),
            (Some("set"), Some("object" | "array")) => errors.push(
                m.span,
                "`list_type = \"set\"` needs scalar items; for objects use `list_type = \"map\"` with `list_map_keys`, or `\"atomic\"`",
            ),
            _ => {}
        }
    }
    if !list_map_keys.is_empty() {
        set.push(json!(["x-kubernetes-list-map-keys", list_map_keys]));
    }
    // The enum marker holds typed values now; check defaults and examples against them.
    let mut typed_markers: Vec<Marker> = markers.to_vec();
    for m in typed_markers.iter_mut().filter(|m| m.def.key == "enum_values") {
        if let MarkerValue::Json(Value::Array(values)) = &m.value {
            let mut quiet = Errors::default();
            m.value = MarkerValue::Json(Value::Array(typed_enum(m, values, kind, &mut quiet)));
        }
    }
    if let (Some(e), Some(m)) = (&example, example_marker) {
        if let Some(why) = crate::check::violation(e, &typed_markers, kind) {
            errors.push(m.span, format!("the example {e} does not fit the field: {why}"));
        }
        set.push(json!(["example", e]));
    }
    if let Some(path) = default.as_ref().and_then(|d| d.get(crate::markers::DEFAULT_REF)) {
        // The constant's value exists only when the schema is generated: the derive
        // emits the code that serializes it (`expand::schema`).
        out.insert(crate::markers::DEFAULT_REF.into(), path.clone());
    } else if let (Some(d), Some(m)) = (&default, default_marker) {
        if let Some(why) = crate::check::violation(d, &typed_markers, kind) {
            errors.push(
                m.span,
                format!("the default {d} does not fit the field, and the API server refuses such a CRD: {why}"),
            );
        }
        set.push(json!(["default", d]));
    }
    check_bounds(markers, errors);
    if !set.is_empty() {
        out.insert("set".into(), Value::Array(set));
    }
    if !rules.is_empty() {
        out.insert("rules".into(), Value::Array(rules));
    }
    out
}

fn check_one_of(m: &Marker, v: &Value, allowed: &[&str], errors: &mut Errors) {
    if !v.as_str().is_some_and(|s| allowed.contains(&s)) {
        errors.push(m.span, format!("`{}` is one of {}; found {v}", m.def.key, allowed.join(", ")));
    }
}

/// `min > max` pairs never admit a value; the API server would accept the CRD and then
/// reject every object.
fn check_bounds(markers: &[Marker], errors: &mut Errors) {
    let num = |key: &str| {
        markers.iter().rev().find(|m| m.def.key == key).and_then(|m| match &m.value {
            MarkerValue::Json(Value::Number(n)) => n.as_f64().map(|f| (f, m.span)),
            _ => None,
        })
    };
    for (lo, hi) in [
        ("minimum", "maximum"),
        ("min_length", "max_length"),
        ("min_items", "max_items"),
        ("min_properties", "max_properties"),
    ] {
        if let (Some((a, _)), Some((b, span))) = (num(lo), num(hi))
            && a > b
        {
            errors.push(span, format!("`{hi}` ({b}) is below `{lo}` ({a}): no value can satisfy both"));
        }
    }
}

/// A CEL rule as an apiextensions `ValidationRule`, its reason checked.
pub fn rule_json(m: &Marker, s: &Map<String, Value>, errors: &mut Errors) -> Value {
    let mut rule = Map::new();
    for (typed, camel) in [
        ("rule", "rule"),
        ("message", "message"),
        ("message_expression", "messageExpression"),
        ("reason", "reason"),
        ("field_path", "fieldPath"),
        ("optional_old_self", "optionalOldSelf"),
    ] {
        if let Some(v) = s.get(typed) {
            rule.insert(camel.into(), v.clone());
        }
    }
    if let Some(reason) = s.get("reason").and_then(Value::as_str)
        && !REASONS.contains(&reason)
    {
        errors.push(
            m.span,
            format!("reason `{reason}` is not one the API server knows; use one of {}", REASONS.join(", ")),
        );
    }
    // The API server compiles every rule when it reads the CRD; so do we.
    for (key, what) in [("rule", "rule"), ("message_expression", "messageExpression")] {
        if let Some(expr) = s.get(key).and_then(Value::as_str)
            && let Err(e) = kubegen_cel::check::parse(expr)
        {
            let detail = e.lines().next().unwrap_or_default().to_string();
            errors.push(m.span, format!("the CEL {what} `{expr}` does not parse: {detail}"));
        }
    }
    Value::Object(rule)
}

/// The CEL rule and message controller-gen writes for `AtMostOneOf` and friends
/// (`pkg/crd/markers/validation.go`).
fn one_of_rule(key: &str, fields: &[String]) -> Value {
    let list = format!("[{}]", fields.join(" "));
    // Rules read a property by its CEL name (`a-b` is `self.a__dash__b`).
    let fields: Vec<String> =
        fields.iter().map(|f| kubegen_cel::names::escape(f).unwrap_or_else(|| f.clone())).collect();
    let counted = fields.iter().map(|f| format!("(has(self.{f})?1:0)")).collect::<Vec<_>>().join(" + ");
    match key {
        "at_most_one_of" => {
            json!({"rule": format!("{counted} <= 1"), "message": format!("at most one of the fields in {list} may be set")})
        }
        "exactly_one_of" => {
            json!({"rule": format!("{counted} == 1"), "message": format!("exactly one of the fields in {list} must be set")})
        }
        _ => json!({
            "rule": fields.iter().map(|f| format!("has(self.{f})")).collect::<Vec<_>>().join(" || "),
            "message": format!("at least one of the fields in {list} must be set"),
        }),
    }
}
