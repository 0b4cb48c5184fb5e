//! From a schemars JSON Schema (draft 2020-12, subschemas inlined) to an OpenAPI v3
//! schema that apiextensions accepts as *structural*.
//!
//! The API server's rules (k8s.io/apiextensions-apiserver `pkg/apiserver/schema`): every
//! node has a `type` unless it is int-or-string or preserves unknown fields; `properties`
//! and `additionalProperties` never meet; no `$ref`; and inside `allOf`/`anyOf`/`oneOf`/`not`
//! only value validations appear, about fields the skeleton outside already declares.
//!
//! schemars describes serde's JSON shapes with `anyOf`/`oneOf` and `null` types. This
//! module folds them into one skeleton that accepts everything serde accepts, and keeps
//! what tells the variants apart (required keys, tag values) as value validations in a
//! `oneOf` (tagged enums: exactly one variant) or `anyOf` (untagged: serde picks the first
//! that fits). A shape with no structural skeleton narrower than "anything" — one field
//! that is a string in one variant and an object in another — degrades to
//! `x-kubernetes-preserve-unknown-fields: true` there, which still accepts what serde
//! accepts; the derive rejects the shapes it can see at compile time before that.
//!
//! The conversion is total: it never panics and never fails.

use std::collections::BTreeMap;

use kubegen_core::schema::node::{Additional, FieldSide, Node};
#[cfg(not(debug_assertions))]
use serde::Deserialize;
use serde_json::{Map, Value, json};

use kubegen_core::schema::markers::FactKind;

use super::markers;

/// Keys of an OpenAPI v3 schema node that apiextensions knows, other than the ones
/// this module rewrites (`type`, `properties`, `items`, `additionalProperties`, junctors).
const PASSTHROUGH: &[&str] = &[
    FactKind::Description.key(),
    FactKind::Title.key(),
    FactKind::Default.key(),
    FactKind::Example.key(),
    FactKind::Enum.key(),
    FactKind::Format.key(),
    FactKind::Maximum.key(),
    FactKind::Minimum.key(),
    FactKind::ExclusiveMaximum.key(),
    FactKind::ExclusiveMinimum.key(),
    FactKind::MultipleOf.key(),
    FactKind::MaxLength.key(),
    FactKind::MinLength.key(),
    FactKind::Pattern.key(),
    FactKind::MaxItems.key(),
    FactKind::MinItems.key(),
    FactKind::MaxProperties.key(),
    FactKind::MinProperties.key(),
    FactKind::Nullable.key(),
    FactKind::ExternalDocs.key(),
    FactKind::EmbeddedResource.key(),
    FactKind::IntOrString.key(),
    FactKind::PreserveUnknownFields.key(),
    FactKind::ListType.key(),
    FactKind::ListMapKeys.key(),
    FactKind::MapType.key(),
    "x-kubernetes-validations",
];

/// Value validations allowed inside a junctor (`anyOf`, `oneOf`, ...).
const VALUE_VALIDATIONS: &[&str] = &[
    FactKind::Enum.key(),
    FactKind::Maximum.key(),
    FactKind::Minimum.key(),
    FactKind::ExclusiveMaximum.key(),
    FactKind::ExclusiveMinimum.key(),
    FactKind::MultipleOf.key(),
    FactKind::MaxLength.key(),
    FactKind::MinLength.key(),
    FactKind::Pattern.key(),
    FactKind::MaxItems.key(),
    FactKind::MinItems.key(),
    FactKind::MaxProperties.key(),
    FactKind::MinProperties.key(),
    "required",
];

/// Formats the API server understands (k8s.io/kube-openapi `pkg/validation/strfmt`) or
/// that OpenAPI defines for numbers. schemars' `uint32`, `uint8`, ... are not among them;
/// the `minimum: 0` schemars writes beside them carries their meaning.
const KNOWN_FORMATS: &[&str] = &[
    "int32",
    "int64",
    "float",
    "double",
    "byte",
    "binary",
    "date",
    "date-time",
    "duration",
    "password",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "cidr",
    "mac",
    "uri",
    "uuid",
    "uuid3",
    "uuid4",
    "uuid5",
    "isbn",
    "isbn10",
    "isbn13",
    "creditcard",
    "ssn",
    "hexcolor",
    "rgbcolor",
    "bsonobjectid",
];

pub use kubegen_core::schema::{CLOSED_KEY, REF_KEY};

/// Converts a whole schema into the typed IR. The result has no `$ref`, no `null` types
/// and no private keys other than the client model's references.
pub fn structural(schema: Value) -> Node {
    convert(schema).0
}

/// Keys this pass copied from schemars' JSON (already in their OpenAPI form), as the
/// typed IR. The pass copies only keys the IR has, with their types: a key the IR would
/// not keep is a debug assertion (which every golden and zoo test runs through), never a
/// silent loss; keys that would not read back accept everything rather than lose a
/// constraint silently.
pub(super) fn typed(map: Map<String, Value>) -> Node {
    let value = Value::Object(map);
    // Debug builds (every test) name what would be dropped; release builds only read.
    #[cfg(debug_assertions)]
    let read = {
        let mut dropped = Vec::new();
        let read = serde_ignored::deserialize(value, |path| dropped.push(path.to_string()));
        assert!(dropped.is_empty(), "the structural pass wrote keys the IR does not keep: {dropped:?}");
        read
    };
    #[cfg(not(debug_assertions))]
    let read = Node::deserialize(value);
    read.unwrap_or_else(|e| {
        debug_assert!(false, "the structural pass wrote a node the IR cannot read: {e}");
        preserve_unknown()
    })
}

/// Converts one node; the second value is a `required`/`optional` marker on it, which
/// the parent object applies to its `required` list.
fn convert(node: Value) -> (Node, Option<bool>) {
    let mut obj = match node {
        Value::Object(obj) => obj,
        // `true` (anything) and any other non-object: accept every value.
        _ => return (preserve_unknown(), None),
    };
    let markers = obj.remove(markers::MARKERS_KEY);
    let mut out = shape(obj);
    // Type markers first, then the field's: the derive appends in that order.
    let required = match markers {
        Some(Value::Array(all)) => {
            // Beside a reference they are the field's alone, and go over the named
            // type's node where the reference is inlined.
            if let Some(field) = out.field.as_mut() {
                field.markers.extend(markers::parse(&all));
            }
            markers::apply(&mut out, all)
        }
        _ => None,
    };
    (out, required)
}

fn preserve_unknown() -> Node {
    Node { preserve_unknown_fields: Some(true), ..Node::default() }
}

fn int_or_string() -> Node {
    Node {
        int_or_string: Some(true),
        any_of: Some(vec![Node::of_type("integer"), Node::of_type("string")]),
        ..Node::default()
    }
}

/// A node this pass built, as JSON, for the folding of `oneOf`/`anyOf` variants.
fn json(node: Node) -> Map<String, Value> {
    match node.to_value() {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

fn shape(mut obj: Map<String, Value>) -> Node {
    if let Some(name) = obj.remove(REF_KEY) {
        // The client model's reference node: the named type, with the field's own
        // description and default beside it.
        let mut out = Map::new();
        out.insert(REF_KEY.into(), name);
        for key in ["description", "title", "default", "example", "nullable"] {
            if let Some(v) = obj.get(key) {
                out.insert(key.into(), v.clone());
            }
        }
        let mut out = typed(out);
        // Everything the field says beside it, as this pass reads a node's own facts.
        let drops_default = matches!(obj.get("default"), Some(Value::Null))
            || obj.get("default") == Some(&Value::String(String::new()));
        let facts = typed(own_facts(&mut obj));
        out.field = Some(Box::new(FieldSide { facts, drops_default, markers: Vec::new() }));
        return out;
    }
    // A `$ref` that survived inlining is a recursive type: a structural schema is finite.
    if obj.contains_key("$ref") {
        let description = obj.remove("description").and_then(|d| d.as_str().map(String::from));
        return Node { description, ..preserve_unknown() };
    }

    let own = typed(own_facts(&mut obj));
    let mut out = own.clone();

    // `allOf` parts all hold at once: merge them into this node.
    if let Some(Value::Array(parts)) = obj.remove("allOf") {
        for part in parts {
            // What this node says itself (its description, markers) wins.
            out.fill_from(convert(part).0);
        }
    }

    for junctor in ["oneOf", "anyOf"] {
        if let Some(Value::Array(branches)) = obj.remove(junctor) {
            let merged = union(branches, junctor == "oneOf");
            out.fill_from(merged);
        }
    }
    // A reference taken from a part or a branch (`Option<T>`): this node's own facts are
    // the field's, over the part's.
    if let Some(field) = out.field.as_mut() {
        let mut facts = own.clone();
        facts.fill_from(std::mem::take(&mut field.facts));
        field.facts = facts;
    }

    normalize_type(&mut out, obj.remove("type"));

    if let Some(Value::Object(props)) = obj.remove("properties") {
        let required: Vec<String> = match obj.remove("required") {
            Some(Value::Array(r)) => r.into_iter().filter_map(|v| v.as_str().map(String::from)).collect(),
            _ => Vec::new(),
        };
        let (props, required) = convert_properties(props, required);
        out.properties.get_or_insert_with(BTreeMap::new).extend(props);
        if !required.is_empty() {
            out.required = Some(required);
        }
        out.type_.get_or_insert_with(|| "object".into());
    } else if let Some(Value::Array(required)) = obj.remove("required") {
        out.required = Some(required.into_iter().filter_map(|v| v.as_str().map(String::from)).collect());
    }

    match obj.remove("additionalProperties") {
        None | Some(Value::Bool(false)) => {}
        Some(Value::Bool(true)) => out.preserve_unknown_fields = Some(true),
        Some(schema) => {
            if out.properties.is_some() {
                // Known fields plus a flattened map: the server can only keep the rest.
                out.preserve_unknown_fields = Some(true);
            } else {
                out.additional_properties = Some(Additional::Schema(Box::new(convert(schema).0)));
                out.type_.get_or_insert_with(|| "object".into());
            }
        }
    }

    let items = obj.remove("prefixItems").or_else(|| obj.remove("items"));
    match items {
        Some(Value::Array(tuple)) => {
            let len = tuple.len() as u64;
            let converted: Vec<Node> = tuple.into_iter().map(|t| convert(t).0).collect();
            let items = match converted.first() {
                Some(first) if converted.iter().all(|c| c == first) => first.clone(),
                _ => preserve_unknown(),
            };
            out.items = Some(Box::new(items));
            out.min_items = Some(len);
            out.max_items = Some(len);
        }
        Some(schema) => out.items = Some(Box::new(convert(schema).0)),
        None => {}
    }
    if out.type_.as_deref() == Some("array") && out.items.is_none() {
        out.items = Some(Box::new(preserve_unknown()));
    }

    // The API server refuses `uniqueItems: true` (quadratic to check); a set of scalars
    // says the same through `x-kubernetes-list-type: set`.
    if obj.remove("uniqueItems") == Some(Value::Bool(true)) && items_are_scalar(&out) {
        out.list_type.get_or_insert_with(|| "set".into());
    }

    // An object with nothing declared inside (k8s-openapi's FieldsV1, RawExtension, an
    // empty struct) would have all its contents pruned by the server; keep them — unless
    // it is known to be empty.
    let closed = obj.remove(CLOSED_KEY) == Some(Value::Bool(true));
    if !closed
        && out.type_.as_deref() == Some("object")
        && out.properties.is_none()
        && out.additional_properties.is_none()
    {
        out.preserve_unknown_fields = Some(true);
    }

    if !has_type(&out) {
        match infer_enum_type(&out) {
            Some(t) => out.type_ = Some(t.into()),
            None => out.preserve_unknown_fields = Some(true),
        }
    }
    out
}

/// A node's own facts (the keys apiextensions knows that this pass does not rewrite),
/// taken out of `obj` and put in their OpenAPI v3 form: `const` as an `enum`, the first
/// of `examples` as the `example`, exclusive bounds as flags, formats the server knows.
fn own_facts(obj: &mut Map<String, Value>) -> Map<String, Value> {
    if let Some(c) = obj.remove("const") {
        obj.entry("enum").or_insert_with(|| Value::Array(vec![c]));
    }
    if let Some(Value::Array(mut examples)) = obj.remove("examples")
        && !examples.is_empty()
    {
        obj.entry("example").or_insert_with(|| examples.swap_remove(0));
    }

    let mut own = Map::new();
    for key in PASSTHROUGH {
        if let Some(v) = obj.remove(*key) {
            own.insert((*key).into(), v);
        }
    }
    // An `Option` of a unit enum lists `null` among its values; the field is optional,
    // not nullable, so null is no value of it (controller-gen never lists it either).
    if own.get("nullable") != Some(&Value::Bool(true))
        && let Some(Value::Array(values)) = own.get_mut("enum")
    {
        values.retain(|v| !v.is_null());
    }
    // serde's `default` of an `Option` is null, which a non-nullable field cannot hold;
    // of a `String` it is "", which servers before 1.2x read as null and refuse. Both say
    // nothing serde needs: the field is optional either way. (A marker's default is
    // applied after this and kept.)
    if matches!(own.get("default"), Some(Value::Null)) || own.get("default") == Some(&Value::String(String::new())) {
        own.remove("default");
    }
    // Other serde defaults stay schema defaults: the server then fills in for every
    // client what serde fills in for Rust ones, and CEL rules see the field (`[]`, `{}`).
    // Inside an object default (`#[serde(default)]` on a struct-typed field), a `null`
    // member is an unset `Option`, which the server would read as a value and refuse on
    // a non-nullable field: it goes.
    if let Some(default) = own.get_mut("default") {
        drop_null_members(default);
    }
    // Draft 2020-12 writes exclusive bounds as numbers, OpenAPI v3.0 as flags.
    for (bound, flag) in
        [(FactKind::Minimum, FactKind::ExclusiveMinimum), (FactKind::Maximum, FactKind::ExclusiveMaximum)]
    {
        let (bound, flag) = (bound.key(), flag.key());
        if let Some(v @ Value::Number(_)) = own.get(flag).cloned() {
            own.insert(bound.into(), v);
            own.insert(flag.into(), true.into());
        }
    }
    // An integer format's range, which the server does not check, as bounds it does
    // (`formats::range`): where the schema sets none, or a wider one.
    if let Some(Value::String(format)) = own.get("format")
        && let Some((min, max)) = kubegen_core::schema::formats::range(format)
    {
        for (key, flag, edge, low) in [
            (FactKind::Minimum.key(), FactKind::ExclusiveMinimum.key(), min, true),
            (FactKind::Maximum.key(), FactKind::ExclusiveMaximum.key(), max, false),
        ] {
            let set = own.get(key).and_then(Value::as_f64);
            if set.is_none_or(|v| if low { v < edge as f64 } else { v > edge as f64 }) {
                own.insert(key.into(), edge.into());
                own.remove(flag);
            }
        }
    }
    if let Some(Value::String(format)) = own.get("format")
        && !KNOWN_FORMATS.contains(&format.as_str())
    {
        own.remove("format");
    }
    own
}

/// Removes `null` members of objects, at any depth.
fn drop_null_members(value: &mut Value) {
    match value {
        Value::Object(m) => {
            m.retain(|_, v| !v.is_null());
            m.values_mut().for_each(drop_null_members);
        }
        Value::Array(a) => a.iter_mut().for_each(drop_null_members),
        _ => {}
    }
}

fn has_type(out: &Node) -> bool {
    out.type_.is_some()
        || out.reference.is_some()
        || out.int_or_string == Some(true)
        || out.preserve_unknown_fields == Some(true)
}

fn items_are_scalar(out: &Node) -> bool {
    matches!(out.items.as_ref().and_then(|i| i.type_.as_deref()), Some("string" | "integer" | "number" | "boolean"))
}

fn infer_enum_type(out: &Node) -> Option<&'static str> {
    let values = out.enum_.as_ref()?;
    let kind = |v: &Value| match v {
        Value::String(_) => Some("string"),
        Value::Bool(_) => Some("boolean"),
        Value::Number(n) if n.is_i64() || n.is_u64() => Some("integer"),
        Value::Number(_) => Some("number"),
        _ => None,
    };
    let first = kind(values.first()?)?;
    values.iter().all(|v| kind(v) == Some(first)).then_some(first)
}

/// `type` may be a list in JSON Schema. `null` goes (an `Option` is optional, not
/// nullable); integer with string is int-or-string; anything wider accepts everything.
fn normalize_type(out: &mut Node, ty: Option<Value>) {
    let types: Vec<String> = match ty {
        None => return,
        Some(Value::String(t)) => vec![t],
        Some(Value::Array(ts)) => ts.into_iter().filter_map(|t| t.as_str().map(String::from)).collect(),
        Some(_) => return,
    };
    let mut types: Vec<String> = types.into_iter().filter(|t| t != "null").collect();
    types.sort();
    types.dedup();
    if has_type(out) {
        return;
    }
    match types.as_slice() {
        [] => {}
        [one] => out.type_ = Some(one.clone()),
        [a, b] if a == "integer" && b == "string" => {
            let either = int_or_string();
            out.int_or_string = either.int_or_string;
            out.any_of = either.any_of;
        }
        [a, b] if a == "integer" && b == "number" => out.type_ = Some("number".into()),
        _ => out.preserve_unknown_fields = Some(true),
    }
}

fn convert_properties(props: Map<String, Value>, required: Vec<String>) -> (BTreeMap<String, Node>, Vec<String>) {
    let mut out = BTreeMap::new();
    let mut required: Vec<String> = required;
    for (name, schema) in props {
        let (schema, marker) = convert(schema);
        match marker {
            Some(true) if !required.contains(&name) => required.push(name.clone()),
            Some(false) => required.retain(|r| r != &name),
            _ => {}
        }
        out.insert(name, schema);
    }
    required.sort();
    required.dedup();
    (out, required)
}

fn is_null_branch(b: &Value) -> bool {
    b.get("type").and_then(Value::as_str) == Some("null")
        || b.get("const") == Some(&Value::Null)
        || b.get("enum").and_then(Value::as_array).is_some_and(|e| e.iter().all(Value::is_null))
}

/// Folds the branches of a `oneOf` (`exclusive`) or `anyOf` into one structural node.
fn union(branches: Vec<Value>, exclusive: bool) -> Node {
    let mut branches: Vec<Value> = branches.into_iter().filter(|b| !is_null_branch(b)).collect();
    match branches.len() {
        0 => return Node::default(),
        // `Option<T>`: T's node, straight.
        1 => return branches.pop().map(|b| convert(b).0).unwrap_or_default(),
        _ => {}
    }
    typed(variants(branches.into_iter().map(|b| json(convert(b).0)).collect(), exclusive))
}

/// Folds two or more variants, converted, into one node's JSON.
fn variants(branches: Vec<Map<String, Value>>, exclusive: bool) -> Map<String, Value> {
    let ty = |b: &Map<String, Value>| b.get("type").and_then(Value::as_str).map(String::from);
    let types: Vec<Option<String>> = branches.iter().map(ty).collect();

    // Unit variants: one string enum.
    if types.iter().all(|t| t.as_deref() == Some("string")) && branches.iter().all(|b| b.contains_key("enum")) {
        let mut values = Vec::new();
        for b in &branches {
            for v in b["enum"].as_array().into_iter().flatten() {
                if !values.contains(v) {
                    values.push(v.clone());
                }
            }
        }
        return json!({ "type": "string", "enum": values }).as_object().cloned().unwrap_or_default();
    }

    if types.iter().all(|t| t.as_deref() == Some("object")) {
        let mut skeleton = branches[0].clone();
        strip_annotations(&mut skeleton);
        for b in &branches[1..] {
            let mut b = b.clone();
            strip_annotations(&mut b);
            skeleton = merge_objects(skeleton, b);
        }
        let validations: Vec<Value> = branches.iter().map(|b| Value::Object(value_validations(b, &skeleton))).collect();
        let distinct = validations.iter().any(|v| v != &validations[0]);
        if distinct {
            skeleton.insert(if exclusive { "oneOf" } else { "anyOf" }.into(), Value::Array(validations));
        }
        return skeleton;
    }

    if branches.iter().all(|b| b == &branches[0]) {
        return branches[0].clone();
    }

    let mut kinds: Vec<&str> = types.iter().map(|t| t.as_deref().unwrap_or("")).collect();
    kinds.sort();
    kinds.dedup();
    if kinds == ["integer", "string"] {
        let mut out = json(int_or_string());
        out.extend(integer_bounds(&branches.iter().collect::<Vec<_>>()));
        out
    } else {
        json(preserve_unknown())
    }
}

/// The bounds the integer variants of an int-or-string hold (an `i32`'s range, a
/// marker's), on the int-or-string node, where the server holds numbers to them and
/// strings not: the loosest over the integer variants, and none where one is unbounded
/// or exclusive. Found by issue 28's objects tier: `Count(i32) | Label(String)` folded to
/// an unbounded int-or-string, and the server stored 2^52, which the enum cannot read.
fn integer_bounds(branches: &[&Map<String, Value>]) -> Map<String, Value> {
    let ints: Vec<&&Map<String, Value>> =
        branches.iter().filter(|b| b.get("type").and_then(Value::as_str) == Some("integer")).collect();
    let mut out = Map::new();
    for (key, flag, low) in [
        (FactKind::Minimum.key(), FactKind::ExclusiveMinimum.key(), true),
        (FactKind::Maximum.key(), FactKind::ExclusiveMaximum.key(), false),
    ] {
        let edges: Option<Vec<f64>> = ints
            .iter()
            .map(|b| b.get(key).and_then(Value::as_f64).filter(|_| b.get(flag) != Some(&Value::Bool(true))))
            .collect();
        let loosest = edges
            .filter(|e| !e.is_empty())
            .and_then(|e| e.into_iter().reduce(|a, b| if low { a.min(b) } else { a.max(b) }));
        if let Some(edge) = loosest.and_then(|e| ints.iter().find_map(|b| b.get(key).filter(|v| v.as_f64() == Some(e))))
        {
            out.insert(key.into(), edge.clone());
        }
    }
    out
}

/// A variant's own description and title belong to the variant, not to the merged node.
fn strip_annotations(b: &mut Map<String, Value>) {
    b.remove("description");
    b.remove("title");
}

/// Merges the object skeleton `b` into `a`: the union of properties; a property that
/// only some variants have is optional.
fn merge_objects(mut a: Map<String, Value>, b: Map<String, Value>) -> Map<String, Value> {
    let req = |m: &Map<String, Value>| -> Vec<Value> {
        m.get("required").and_then(Value::as_array).cloned().unwrap_or_default()
    };
    let required: Vec<Value> = req(&a).into_iter().filter(|r| req(&b).contains(r)).collect();
    let mut props = match a.remove("properties") {
        Some(Value::Object(p)) => p,
        _ => Map::new(),
    };
    if let Some(Value::Object(bp)) = b.get("properties") {
        for (name, schema) in bp {
            let merged = match props.remove(name) {
                Some(existing) => merge_property(existing, schema.clone()),
                None => schema.clone(),
            };
            props.insert(name.clone(), merged);
        }
    }
    if !props.is_empty() {
        a.insert("properties".into(), Value::Object(props));
    }
    if required.is_empty() {
        a.remove("required");
    } else {
        a.insert("required".into(), required.into());
    }
    for flag in ["x-kubernetes-preserve-unknown-fields"] {
        if b.get(flag) == Some(&Value::Bool(true)) {
            a.insert(flag.into(), true.into());
        }
    }
    a.remove("oneOf");
    a.remove("anyOf");
    a
}

/// One field present in several variants.
fn merge_property(a: Value, b: Value) -> Value {
    if a == b {
        return a;
    }
    let (Value::Object(mut a), Value::Object(b)) = (a, b) else {
        return preserve_unknown().to_value();
    };
    let ty = |m: &Map<String, Value>| m.get("type").and_then(Value::as_str).map(String::from);
    match (ty(&a), ty(&b)) {
        (Some(x), Some(y)) if x == "string" && y == "string" && a.contains_key("enum") && b.contains_key("enum") => {
            // A tag: each variant names itself.
            let mut values = a["enum"].as_array().cloned().unwrap_or_default();
            for v in b["enum"].as_array().into_iter().flatten() {
                if !values.contains(v) {
                    values.push(v.clone());
                }
            }
            a.insert("enum".into(), values.into());
            Value::Object(a)
        }
        (Some(x), Some(y)) if x == "object" && y == "object" => {
            let description = a.remove("description");
            let mut merged = merge_objects(a, b);
            merged.remove("description");
            if let Some(d) = description {
                merged.insert("description".into(), d);
            }
            Value::Object(merged)
        }
        (Some(x), Some(y)) if x == y && !a.contains_key("enum") && !b.contains_key("enum") => {
            // Same type, different bounds or docs: the looser skeleton is the bare type.
            let mut out = Map::new();
            out.insert("type".into(), x.into());
            if let Some(d) = a.remove("description") {
                out.insert("description".into(), d);
            }
            Value::Object(out)
        }
        (Some(x), Some(y)) if (x == "integer" && y == "string") || (x == "string" && y == "integer") => {
            let mut out = json(int_or_string());
            out.extend(integer_bounds(&[&a, &b]));
            if let Some(d) = a.remove("description") {
                out.insert("description".into(), d);
            }
            Value::Object(out)
        }
        _ => {
            let mut out = json(preserve_unknown());
            if let Some(d) = a.remove("description") {
                out.insert("description".into(), d);
            }
            Value::Object(out)
        }
    }
}

/// What tells one variant apart, restricted to value validations about fields the
/// skeleton declares (the structural rule for junctors).
fn value_validations(branch: &Map<String, Value>, skeleton: &Map<String, Value>) -> Map<String, Value> {
    let mut out = Map::new();
    for key in VALUE_VALIDATIONS {
        if let Some(v) = branch.get(*key) {
            out.insert((*key).into(), v.clone());
        }
    }
    if let (Some(Value::Object(props)), Some(Value::Object(skel_props))) =
        (branch.get("properties"), skeleton.get("properties"))
    {
        let mut checked = Map::new();
        for (name, schema) in props {
            let (Value::Object(schema), Some(Value::Object(skel))) = (schema, skel_props.get(name)) else {
                continue;
            };
            if skel.get("x-kubernetes-preserve-unknown-fields") == Some(&Value::Bool(true))
                && !skel.contains_key("type")
            {
                continue;
            }
            let v = value_validations(schema, skel);
            if !v.is_empty() && v != value_validations(skel, skel) {
                checked.insert(name.clone(), Value::Object(v));
            }
        }
        if !checked.is_empty() {
            out.insert("properties".into(), Value::Object(checked));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(schema: Value) -> Value {
        structural(schema).to_value()
    }

    #[test]
    fn serde_defaults_carry_no_nulls() {
        let s = value(json!({
            "type": "object",
            "properties": {
                "empty": {"type": "object", "properties": {"name": {"type": ["string", "null"]}}, "default": {"name": null}},
                "kept": {"type": "object", "properties": {"a": {"type": ["integer", "null"]}, "b": {"type": "integer"}},
                         "default": {"a": null, "b": 2}},
                "list": {"type": "array", "items": {"type": "string"}, "default": []}
            }
        }));
        assert_eq!(s["properties"]["empty"]["default"], json!({}));
        assert_eq!(s["properties"]["kept"]["default"], json!({"b": 2}));
        assert_eq!(s["properties"]["list"]["default"], json!([]));
    }

    #[test]
    fn option_is_optional_not_nullable() {
        let s = value(json!({
            "type": "object",
            "properties": {"a": {"type": ["integer", "null"], "format": "int32"}, "b": {"type": "string"}},
            "required": ["b"]
        }));
        assert_eq!(
            s,
            json!({
                "type": "object",
                "properties": {
                    "a": {"type": "integer", "format": "int32", "minimum": -2147483648, "maximum": 2147483647},
                    "b": {"type": "string"}
                },
                "required": ["b"]
            })
        );
    }

    /// issue 28, found by the objects tier: an untagged `Count(i32) | Label(String)` is an
    /// int-or-string whose numbers the server holds to the i32's range; an `i64` arm
    /// leaves it unbounded.
    #[test]
    fn an_int_or_string_keeps_its_integer_variants_bounds() {
        let either = |int: Value| value(json!({"anyOf": [int, {"type": "string"}]}));
        let s = either(json!({"type": "integer", "format": "int32"}));
        assert_eq!(s["x-kubernetes-int-or-string"], json!(true));
        assert_eq!((&s["minimum"], &s["maximum"]), (&json!(-2147483648), &json!(2147483647)), "{s}");
        let s = either(json!({"type": "integer", "format": "int64"}));
        assert!(s.get("minimum").is_none() && s.get("maximum").is_none(), "{s}");
    }

    /// issue 28, found by the generated kinds tier: the API server does not check a
    /// format's range (it stores 2^40 in a `format: int32` field, which Go's `int32` and
    /// the operator's own `i32` cannot read back), so the range is written as bounds; a
    /// tighter bound of the schema stays, a wider one is replaced (its exclusivity too).
    #[test]
    fn an_integer_formats_range_is_written_as_bounds() {
        let s = value(json!({
            "type": "object",
            "properties": {
                "i32": {"type": "integer", "format": "int32"},
                "u32": {"type": "integer", "format": "uint32", "minimum": 0},
                "tight": {"type": "integer", "format": "int32", "minimum": 1, "maximum": 10},
                "wide": {"type": "integer", "format": "int32", "exclusiveMaximum": 1e12},
                "i64": {"type": "integer", "format": "int64"}
            }
        }));
        let p = &s["properties"];
        assert_eq!(
            p["i32"],
            json!({"type": "integer", "format": "int32", "minimum": -2147483648, "maximum": 2147483647})
        );
        assert_eq!(p["u32"], json!({"type": "integer", "minimum": 0, "maximum": 4294967295u32}));
        assert_eq!(p["tight"], json!({"type": "integer", "format": "int32", "minimum": 1, "maximum": 10}));
        assert_eq!(
            p["wide"],
            json!({"type": "integer", "format": "int32", "minimum": -2147483648, "maximum": 2147483647})
        );
        assert_eq!(p["i64"], json!({"type": "integer", "format": "int64"}));
    }

    #[test]
    fn internally_tagged_enum_becomes_one_skeleton_with_a_one_of() {
        let s = value(json!({
            "oneOf": [
                {"type": "object", "properties": {"kind": {"type": "string", "const": "A"}, "a": {"type": "string"}}, "required": ["kind", "a"]},
                {"type": "object", "properties": {"kind": {"type": "string", "const": "B"}, "b": {"type": "integer"}}, "required": ["kind"]}
            ]
        }));
        assert_eq!(
            s,
            json!({
                "type": "object",
                "properties": {
                    "kind": {"type": "string", "enum": ["A", "B"]},
                    "a": {"type": "string"},
                    "b": {"type": "integer"}
                },
                "required": ["kind"],
                "oneOf": [
                    {"required": ["a", "kind"], "properties": {"kind": {"enum": ["A"]}}},
                    {"required": ["kind"], "properties": {"kind": {"enum": ["B"]}}}
                ]
            })
        );
    }

    #[test]
    fn string_or_object_degrades_to_preserve_unknown_fields() {
        let s =
            value(json!({"anyOf": [{"type": "string"}, {"type": "object", "properties": {"x": {"type": "string"}}}]}));
        assert_eq!(s, json!({"x-kubernetes-preserve-unknown-fields": true}));
    }

    #[test]
    fn flattened_map_beside_fields_preserves_unknown_fields() {
        let s = value(json!({
            "type": "object",
            "properties": {"a": {"type": "string"}},
            "additionalProperties": true
        }));
        assert_eq!(s["x-kubernetes-preserve-unknown-fields"], json!(true));
        assert!(s.get("additionalProperties").is_none());
    }
}
