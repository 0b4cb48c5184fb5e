//! CEL rules checked at the marker with the API server's verdict (`kubegen-cel`), as far
//! as the derive can see: the node's own Rust type and markers, and, for a rule on a
//! struct, its fields. A field whose type is another user type is `dyn` here, and a cost
//! that runs through one is not judged; the CRD lint (`codegen-cli manifests`) checks
//! the same rule again on the whole schema.

use kubegen_cel::check::{Part, Rule, Site, check_rule};
use kubegen_core::schema::node::{Additional, Node};
use serde_json::{Map, Value};
use syn::{GenericArgument, PathArguments, Type};

use crate::errors::Errors;
use crate::markers::{Marker, MarkerValue};

/// The schema of a node as the derive sees it: its JSON type from the Rust type and
/// markers, and the markers that bound or retype it. Unknown where it cannot tell.
pub fn node_schema(ty: Option<&Type>, markers: &[Marker]) -> Node {
    // Fixed-size arrays and chars get bounds from schemars; `Time` may be k8s-openapi's
    // (a timestamp) or another crate's: none of them is the derive's to guess.
    if matches!(ty, Some(Type::Array(_))) {
        return unknown();
    }
    let last = ty.and_then(last_segment);
    if matches!(last.as_ref().map(|(n, _)| n.as_str()), Some("Time" | "MicroTime" | "char")) {
        return unknown();
    }
    let kind = crate::check::effective_kind(markers, ty.and_then(crate::shapes::json_kind));
    if markers.iter().any(|m| m.def.key == "embedded_resource" && m.flag()) {
        return unknown();
    }
    let mut s = match kind {
        Some("int-or-string") => return Node { int_or_string: Some(true), ..Node::default() },
        Some(k @ ("string" | "integer" | "number" | "boolean")) => Node::of_type(k),
        Some("array") => {
            let item_markers: Vec<Marker> = markers
                .iter()
                .filter_map(|m| match &m.value {
                    MarkerValue::Items(nested) if m.def.key == "items" => Some(nested.clone()),
                    _ => None,
                })
                .flatten()
                .collect();
            let item_ty = ty.and_then(crate::shapes::item_type);
            Node { items: Some(Box::new(node_schema(item_ty, &item_markers))), ..Node::of_type("array") }
        }
        Some("object") => match last {
            Some((name, Some(value))) if matches!(name.as_str(), "HashMap" | "BTreeMap" | "IndexMap") => Node {
                additional_properties: Some(Additional::Schema(Box::new(node_schema(Some(&value), &[])))),
                ..Node::of_type("object")
            },
            _ => return unknown(),
        },
        _ => return unknown(),
    };
    for m in markers {
        let MarkerValue::Json(v) = &m.value else { continue };
        match m.def.key {
            "max_length" => s.max_length = v.as_u64(),
            "max_items" => s.max_items = v.as_u64(),
            "max_properties" => s.max_properties = v.as_u64(),
            "format" => s.format = v.as_str().map(String::from),
            "enum_values" => s.enum_ = v.as_array().cloned(),
            "list_type" => s.list_type = v.as_str().map(String::from),
            _ => {}
        }
    }
    s
}

/// A node the derive cannot see (another type's schema): a reference, which the checker
/// takes as `dyn` and judges no cost through.
pub fn unknown() -> Node {
    Node::named("a type the derive does not see")
}

/// An object schema of named fields.
pub fn object_schema(fields: Vec<(String, Node)>) -> Node {
    Node { properties: Some(fields.into_iter().collect()), ..Node::of_type("object") }
}

/// The last path segment's name and, for a map, its value type (through `Option`).
fn last_segment(ty: &Type) -> Option<(String, Option<Type>)> {
    let Type::Path(p) = ty else { return None };
    let seg = p.path.segments.last()?;
    let args: Vec<&Type> = match &seg.arguments {
        PathArguments::AngleBracketed(a) => a
            .args
            .iter()
            .filter_map(|g| match g {
                GenericArgument::Type(t) => Some(t),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    let name = seg.ident.to_string();
    if matches!(name.as_str(), "Option" | "Box") {
        return args.first().and_then(|t| last_segment(t));
    }
    Some((name, args.get(1).map(|t| (*t).clone())))
}

/// Checks the rule a marker writes (`rule` as `s` holds it) against `schema`, the node
/// it stands on; every refusal is an error at the marker.
pub fn check(m: &Marker, s: &Map<String, Value>, schema: &Node, errors: &mut Errors) {
    let text = |k: &str| s.get(k).and_then(Value::as_str).map(str::to_string);
    let Some(rule_text) = text("rule") else { return };
    // A rule that does not parse is reported once, by the parse check.
    if kubegen_cel::check::parse(&rule_text).is_err()
        || text("message_expression").is_some_and(|e| kubegen_cel::check::parse(&e).is_err())
    {
        return;
    }
    let rule = Rule {
        rule: rule_text.clone(),
        message: text("message"),
        message_expression: text("message_expression"),
        field_path: text("field_path"),
        reason: text("reason"),
        optional_old_self: s.get("optional_old_self").and_then(Value::as_bool),
    };
    let site = Site { schema, path: "self", cardinality: Some(1), correlatable: true };
    let Err(problems) = check_rule(&rule, &site) else { return };
    // `rule_json` has reported an unknown reason already.
    for p in problems.into_iter().filter(|p| p.part != Part::Reason) {
        let what = match p.part {
            Part::MessageExpression => format!("the messageExpression of the CEL rule `{rule_text}`"),
            Part::FieldPath => format!("the fieldPath of the CEL rule `{rule_text}`"),
            Part::OptionalOldSelf => format!("`optional_old_self` on the CEL rule `{rule_text}`"),
            Part::Message => format!("the message of the CEL rule `{rule_text}`"),
            Part::Rule | Part::Cost | Part::Reason => format!("the CEL rule `{rule_text}`"),
        };
        // The checker names nodes by their path from `self`; here `self` is the marker's node.
        let message = p.message.replace("to `self`", "to this field").replace("to `self.", "to field `");
        errors.push(m.span, format!("the API server refuses {what}: {message}"));
    }
}
