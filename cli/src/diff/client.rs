//! The client category, buf-style: the generated Rust, Go, TypeScript and Python types
//! all come from one client model (named types in the typed IR, with Rust's names), so
//! a change to the model is a change to every client. A renamed type, a removed or
//! renamed enum variant, an optional field made required or a field of another type
//! breaks code written against the clients, even when the CRD's wire form stays
//! compatible (a type renamed in Rust, whose name every client carries; an `i32` widened
//! to `i64` under the same bounds). Fields and variants are compared by their wire names:
//! one renamed in Rust only, `#[serde(rename)]` keeping its wire name, is not seen here
//! (docs/diff.md says so).

use std::collections::BTreeMap;

use kubegen_core::schema::node::Node;
use serde_json::Value;

use super::{At, Finding};
use crate::clients::Package;
use crate::clients::shape::{Shape, shape};

/// Compares packages matched by group and version.
pub fn compare(before: &[Package], after: &[Package]) -> Vec<Finding> {
    let key = |p: &Package| (p.group.clone(), p.version.clone());
    let new: BTreeMap<(String, String), &Package> = after.iter().map(|p| (key(p), p)).collect();
    let mut out = Vec::new();
    for old in before {
        // A version that is gone is the wire check's `version-removed`.
        let Some(new) = new.get(&key(old)) else { continue };
        let at = At { kind: old.group.clone(), version: Some(old.version.clone()), path: None };
        for (name, old_type) in &old.types {
            let at = At { path: Some(name.clone()), ..at.clone() };
            match new.types.get(name) {
                None => out.push(at.finding(
                    "client-type-removed",
                    format!("the type {name} is gone from the clients of {}/{} (removed or renamed): code naming it stops compiling", old.group, old.version),
                )),
                Some(new_type) => compare_type(&at, name, old_type, new_type, &mut out),
            }
        }
    }
    out
}

fn compare_type(at: &At, name: &str, old: &Node, new: &Node, out: &mut Vec<Finding>) {
    let (was, now) = (spelled(old), spelled(new));
    let kind = |n: &Node| if variants(n).is_some() { "an enum" } else { shape_kind(n) };
    if kind(old) != kind(new) {
        out.push(at.finding(
            "client-field-type-changed",
            format!("{name} changed from {} ({was}) to {} ({now})", kind(old), kind(new)),
        ));
        return;
    }
    if let (Some(a), Some(b)) = (variants(old), variants(new)) {
        for v in a.iter().filter(|v| !b.contains(v)) {
            out.push(at.finding(
                "client-variant-removed",
                format!("the variant {v} of {name} is gone (removed or renamed): code matching on it stops compiling"),
            ));
        }
    }
    let empty = BTreeMap::new();
    let (a, b) = (old.properties.as_ref().unwrap_or(&empty), new.properties.as_ref().unwrap_or(&empty));
    let required = |n: &Node, f: &str| n.required.iter().flatten().any(|r| r == f);
    for (field, old_field) in a {
        let at = At { path: Some(format!("{name}.{field}")), ..at.clone() };
        let Some(new_field) = b.get(field) else {
            out.push(at.finding(
                "client-field-removed",
                format!("the field {field} of {name} is gone (removed or renamed): code setting or reading it stops compiling"),
            ));
            continue;
        };
        if !required(old, field) && required(new, field) {
            out.push(at.finding(
                "client-field-required",
                format!("the field {field} of {name} became required: it is no longer an Option (a pointer in Go, `?` in TypeScript), so code building {name} must set it"),
            ));
        }
        let (x, y) = (spelled(old_field), spelled(new_field));
        if x != y {
            out.push(at.finding(
                "client-field-type-changed",
                format!("the field {field} of {name} changed type from {x} to {y}"),
            ));
        }
    }
}

/// A node's type as the clients spell it, language-neutral: `PavilionSpec`,
/// `integer(int32)`, `[string]`, `map[string]Quota`.
fn spelled(node: &Node) -> String {
    match shape(node) {
        Shape::Named(name) => name.to_string(),
        Shape::Kubernetes { name, .. } => name.to_string(),
        Shape::IntOrString => "int-or-string".into(),
        // Only these formats change a client's type (Go's []byte, Python's datetime);
        // another format is the wire check's `format-changed`.
        Shape::String { format: Some(f @ ("byte" | "date-time")), .. } => format!("string({f})"),
        Shape::String { .. } => "string".into(),
        Shape::Integer { format: Some(f), .. } => format!("integer({f})"),
        Shape::Integer { .. } => "integer".into(),
        Shape::Number { .. } => "number".into(),
        Shape::Boolean => "boolean".into(),
        Shape::List(items) => format!("[{}]", spelled(items)),
        Shape::Struct => "struct".into(),
        Shape::Map(values) => format!("map[string]{}", spelled(values)),
        Shape::Open => "object (any fields)".into(),
        Shape::Empty => "object (no fields)".into(),
        Shape::Any => "any".into(),
    }
}

fn shape_kind(node: &Node) -> &'static str {
    match shape(node) {
        Shape::Struct | Shape::Open | Shape::Empty => "a struct",
        Shape::List(_) => "a list",
        Shape::Map(_) => "a map",
        _ => "a value type",
    }
}

/// The variants of an enum type: its values (a unit-only enum), or its `oneOf` /
/// `anyOf` branches named by their one required field or their tag's value (an enum
/// with data); `None` when the type is not an enum.
fn variants(node: &Node) -> Option<Vec<String>> {
    if let Some(values) = &node.enum_ {
        return Some(values.iter().map(|v| v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string())).collect());
    }
    let branches = node.one_of.as_ref().or(node.any_of.as_ref())?;
    let mut out = Vec::new();
    for branch in branches {
        if let Some(values) = &branch.enum_ {
            out.extend(values.iter().map(|v| v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string())));
        } else if let Some([one]) = branch.required.as_deref() {
            let tag = branch.properties.as_ref().and_then(|p| p.get(one)).and_then(|p| p.enum_.as_deref());
            match tag {
                Some([Value::String(v)]) => out.push(v.clone()),
                _ => out.push(one.clone()),
            }
        } else {
            let tag = branch.properties.iter().flatten().find_map(|(_, p)| match p.enum_.as_deref() {
                Some([Value::String(v)]) => Some(v.clone()),
                _ => None,
            });
            out.extend(tag);
        }
    }
    Some(out)
}
