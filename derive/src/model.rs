//! The marker model of one schema node (a field, or a type wherever it is used), checked,
//! and lowered to kubegen-core's typed [`NodeMarkers`], which the library's structural
//! pass applies.

use crate::markers::registry::{Key, Sub};
use kubegen_core::markers::registry::ArgValue;
use kubegen_core::schema::markers::{Fact, FactKind, ListType, MapType, NodeMarkers, Rule};
use kubegen_core::schema::node::Node;
use serde_json::{Value, json};

use crate::errors::Errors;
use crate::markers::{Marker, MarkerValue, Parsed};

use kubegen_cel::check::REASONS;

/// A node's markers, lowered.
pub struct Lowered {
    pub markers: NodeMarkers,
    /// `+default=ref(PATH)`: the constant whose serde JSON is the default, known only
    /// when the schema is generated.
    pub default_ref: Option<String>,
}

/// Lowers the schema markers of one node, checked against the node's Rust type where
/// there is one (a field). `None` when there are none.
pub fn schema_markers(parsed: &Parsed, ty: Option<&syn::Type>, place: &str, errors: &mut Errors) -> Option<Lowered> {
    let lowered = lower(&parsed.markers, ty, !parsed.foreign_schema, place, errors);
    if lowered.markers.is_empty() && lowered.default_ref.is_none() { None } else { Some(lowered) }
}

/// `Enum` values are written as text; on a number field they are numbers.
fn typed_enum(m: &Marker, values: &[String], kind: Option<&'static str>, errors: &mut Errors) -> Vec<Value> {
    values
        .iter()
        .map(|s| {
            let text = || Value::String(s.clone());
            match kind {
                Some("integer") => s.trim().parse::<i64>().map(Value::from).unwrap_or_else(|_| {
                    errors.push(m.span, format!("enum value `{s}` is not an integer, and the field is an integer"));
                    text()
                }),
                Some("number") => s
                    .trim()
                    .parse::<f64>()
                    .ok()
                    .and_then(serde_json::Number::from_f64)
                    .map(Value::Number)
                    .unwrap_or_else(|| {
                        errors.push(m.span, format!("enum value `{s}` is not a number, and the field is a number"));
                        text()
                    }),
                Some("boolean") => match s.trim() {
                    "true" => Value::Bool(true),
                    "false" => Value::Bool(false),
                    _ => {
                        errors
                            .push(m.span, format!("enum value `{s}` is not true or false, and the field is a boolean"));
                        text()
                    }
                },
                // An int-or-string takes both: what reads as an integer is one, as
                // controller-gen parses `Enum=1;two` into `[1, "two"]`.
                Some("int-or-string") => s.trim().parse::<i64>().map(Value::from).unwrap_or_else(|_| text()),
                _ => text(),
            }
        })
        .collect()
}

/// The schema fact a marker's value sets, read by the facts table's form for it; a value
/// of the wrong shape is an error on the marker.
fn fact(m: &Marker, kind: FactKind, value: &ArgValue, errors: &mut Errors) -> Option<Fact> {
    // A negative count is reported by `check::marker_types` already.
    let negative = matches!(value, ArgValue::Int(n) if *n < 0);
    match kind.read(&value.to_json()) {
        Ok(fact) => Some(fact),
        Err(_) if negative => None,
        Err(e) => {
            errors.push(m.span, format!("`{}`: {e}", m.name()));
            None
        }
    }
}

/// `visible`: the markers and the Rust type are all that shape the node's schema, so its
/// CEL rules can be checked against them here.
fn lower(markers: &[Marker], ty: Option<&syn::Type>, visible: bool, place: &str, errors: &mut Errors) -> Lowered {
    let kind = ty.and_then(crate::shapes::json_kind);
    crate::check::marker_types(markers, kind, place, errors);
    let kind = crate::shapes::effective_kind(markers, kind);
    let mut g = Gathered::default();
    // The table's order is the application order.
    let mut ordered: Vec<&Marker> = markers.iter().collect();
    let index = |m: &Marker| crate::markers::registry::MARKERS.iter().position(|d| d.key == m.def.key);
    ordered.sort_by_key(|m| index(m));
    for m in ordered {
        let set = gather(m, &mut g, Place { markers, ty, visible, kind }, errors);
        g.out.set.extend(set);
    }
    let Gathered { mut out, item_markers, list_map_keys, default, example } = g;
    if !item_markers.is_empty() {
        out.items = lower_items(markers, &item_markers, ty, visible, place, errors);
    }
    check_list_type(markers, ty, &list_map_keys, errors);
    if !list_map_keys.is_empty() {
        check_list_map_keys(markers, ty, &list_map_keys, errors);
        out.set.push(Fact::ListMapKeys(list_map_keys));
    }
    let default_ref = example_and_default(&mut out, example, default, kind, errors);
    check_bounds(markers, errors);
    Lowered { markers: out, default_ref }
}

/// What [`lower`] gathers from a node's markers before it finishes the node.
#[derive(Default)]
struct Gathered<'m> {
    out: NodeMarkers,
    item_markers: Vec<Marker>,
    list_map_keys: Vec<String>,
    default: Option<(Value, &'m Marker)>,
    example: Option<(Value, &'m Marker)>,
}

/// The node [`lower`] lowers markers onto: its markers, its Rust type, whether its
/// fields are visible to the CEL check, and its JSON kind.
#[derive(Clone, Copy)]
struct Place<'a> {
    markers: &'a [Marker],
    ty: Option<&'a syn::Type>,
    visible: bool,
    kind: Option<&'static str>,
}

/// One marker: the fact it sets, or what it adds to `g`; its value checked.
fn gather<'m>(m: &'m Marker, g: &mut Gathered<'m>, node: Place, errors: &mut Errors) -> Option<Fact> {
    let kind = node.kind;
    let key = m.def.key;
    match (&m.value, key) {
        (MarkerValue::Flag(false), _) => None,
        (_, Key::UniqueItems) => {
            errors.push(
                m.span,
                "the API server refuses `uniqueItems: true` (checking it is quadratic); write `list_type = \"set\"` (`+listType=set`) instead",
            );
            None
        }
        (MarkerValue::Str(v), Key::ListType) => match v.as_str() {
            "atomic" => Some(Fact::ListType(ListType::Atomic)),
            "set" => Some(Fact::ListType(ListType::Set)),
            "map" => Some(Fact::ListType(ListType::Map)),
            _ => check_one_of(m, v, errors),
        },
        (MarkerValue::Str(v), Key::MapType | Key::StructType) => match v.as_str() {
            "atomic" => Some(Fact::MapType(MapType::Atomic)),
            "granular" => Some(Fact::MapType(MapType::Granular)),
            _ => check_one_of(m, v, errors),
        },
        (MarkerValue::Strs(keys), Key::ListMapKeys) => {
            g.list_map_keys.extend(keys.iter().cloned());
            None
        }
        (MarkerValue::Str(p), Key::Pattern) => {
            if let Err(e) = regex_syntax::Parser::new().parse(p) {
                errors.push(
                    m.span,
                    format!("pattern `{p}` is not a regular expression the API server (Go's RE2) accepts: {e}"),
                );
            }
            Some(Fact::Pattern(p.clone()))
        }
        (MarkerValue::Strs(values), Key::EnumValues) => Some(Fact::Enum(typed_enum(m, values, kind, errors))),
        (MarkerValue::Named(s), Key::ExternalDocs) => Some(Fact::ExternalDocs(
            [Sub::Url, Sub::Description]
                .into_iter()
                .filter_map(|k| s.str(k).map(|v| (k.as_str().to_string(), Value::String(v.to_string()))))
                .collect(),
        )),
        (MarkerValue::Json(v), Key::Example | Key::ExampleJson) => {
            g.example = Some((v.clone(), m));
            None
        }
        (MarkerValue::Json(v), Key::Default | Key::DefaultJson) => {
            // controller-gen's `{}` is also the empty list.
            let v = if kind == Some("array") && v == &json!({}) { json!([]) } else { v.clone() };
            g.default = Some((v, m));
            None
        }
        // A marker that sets one fact to its value (`Example` and `Default` set none).
        _ => match (m.def.sets, m.value.arg()) {
            (Some(fact_kind), Some(value)) => fact(m, fact_kind, &value, errors),
            _ => gather_rules_and_flags(m, g, node, errors),
        },
    }
}

/// [`gather`]'s rules (CEL, immutability, one-of groups), the flags that land on the
/// lowered node, and the items' markers; a value no arm takes is an error.
fn gather_rules_and_flags<'m>(m: &'m Marker, g: &mut Gathered<'m>, node: Place, errors: &mut Errors) -> Option<Fact> {
    let Place { markers, ty, visible, .. } = node;
    let key = m.def.key;
    match (&m.value, key) {
        (MarkerValue::Rule(s), Key::Validation) => {
            g.out.rules.push(rule(m, s, errors));
            // A field's rule sees the field; a type's rules are checked with its fields.
            if ty.is_some() {
                let schema = if visible { crate::cel::node_schema(ty, markers) } else { crate::cel::unknown() };
                crate::cel::check(m, s, &schema, false, errors);
            }
            None
        }
        (MarkerValue::Expr(_), Key::Validation) => {
            errors.push(
                m.span,
                "a rule on a field or nested type is written `validation(rule = \"...\", message = \"...\")` or `validation = \"...\"`",
            );
            None
        }
        (MarkerValue::Flag(true), Key::Immutable) => {
            g.out.rules.push(Rule {
                rule: "self == oldSelf".into(),
                message: Some("field is immutable".into()),
                ..Rule::default()
            });
            None
        }
        (MarkerValue::Strs(fields), Key::AtMostOneOf | Key::ExactlyOneOf | Key::AtLeastOneOf) => {
            g.out.rules.push(one_of_rule(key, fields));
            None
        }
        (MarkerValue::Flag(true), Key::Optional) => {
            g.out.required = Some(false);
            None
        }
        (MarkerValue::Flag(true), Key::Required) => {
            g.out.required = Some(true);
            None
        }
        (MarkerValue::Flag(true), Key::SkipDescription) => {
            g.out.skip_description = true;
            None
        }
        // Not a schema fact: the derive generates the apply configuration.
        (MarkerValue::Flag(_), Key::ApplyConfig) => None,
        (MarkerValue::Flag(true), Key::Schemaless) => {
            g.out.schemaless = true;
            None
        }
        (MarkerValue::Items(nested), Key::Items) => {
            g.item_markers.extend(nested.iter().cloned());
            None
        }
        _ => {
            errors.push(m.span, format!("`{key}` does not take this value"));
            None
        }
    }
}

/// The markers of a list's items, lowered as their node's, under the list's bound.
fn lower_items(
    markers: &[Marker],
    item_markers: &[Marker],
    ty: Option<&syn::Type>,
    visible: bool,
    place: &str,
    errors: &mut Errors,
) -> Option<Box<NodeMarkers>> {
    let item_ty = ty.and_then(crate::shapes::item_type);
    // An item's rules run once per item: as many as the list's bound, or, without
    // one, as many as fit in a request.
    // schemars bounds a fixed-size array's items to its length.
    let marked = markers.iter().rev().find(|m| m.def.key == Key::MaxItems).and_then(Marker::count);
    let max_items = match (marked, ty.and_then(crate::shapes::fixed_len)) {
        (Some(m), Some(n)) => Some(m.min(n)),
        (m, n) => m.or(n),
    };
    let items =
        crate::cel::within(max_items, || lower(item_markers, item_ty, visible, &format!("an item of {place}"), errors));
    (!items.markers.is_empty()).then(|| Box::new(items.markers))
}

/// `list_type` and `list_map_keys` fit each other and the items.
fn check_list_type(markers: &[Marker], ty: Option<&syn::Type>, list_map_keys: &[String], errors: &mut Errors) {
    let list_type = markers.iter().rev().find(|m| m.def.key == Key::ListType).and_then(Marker::str);
    let item_kind = ty.and_then(crate::shapes::item_type).and_then(crate::shapes::json_kind);
    if let Some(m) = markers.iter().find(|m| m.def.key == Key::ListMapKeys)
        && list_type != Some("map")
    {
        errors.push(
            m.span,
            "`list_map_keys` (`+listMapKey`) needs `list_type = \"map\"` (`+listType=map`) on the same field",
        );
    }
    if let Some(m) = markers.iter().rev().find(|m| m.def.key == Key::ListType) {
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
}

/// The example and the default, each checked against the node the markers make, as the
/// API server checks them (kubegen-core's validator, the one `Validate` runs); the path of
/// a default given as a Rust constant (`ref(PATH)`).
fn example_and_default(
    out: &mut NodeMarkers,
    example: Option<(Value, &Marker)>,
    default: Option<(Value, &Marker)>,
    kind: Option<&'static str>,
    errors: &mut Errors,
) -> Option<String> {
    if let Some((e, m)) = example {
        if let Some(why) = violation(&e, &out.set, kind) {
            errors.push(m.span, format!("the example {e} does not fit the field: {why}"));
        }
        out.set.push(Fact::Example(e));
    }
    let (d, m) = default?;
    if let Some(path) = d.get(crate::markers::DEFAULT_REF) {
        // The constant's value exists only when the schema is generated: the derive
        // emits the code that serializes it (`expand::schema`).
        return path.as_str().map(String::from);
    }
    if let Some(why) = violation(&d, &out.set, kind) {
        errors.push(
            m.span,
            format!("the default {d} does not fit the field, and the API server refuses such a CRD: {why}"),
        );
    }
    out.set.push(Fact::Default(d));
    None
}

/// A list-map key the items do not have: the API server refuses the CRD. Checked where
/// the item type's fields are known here ([`crate::item_fields`]).
fn check_list_map_keys(markers: &[Marker], ty: Option<&syn::Type>, keys: &[String], errors: &mut Errors) {
    let Some(item) = ty.and_then(crate::shapes::item_type) else { return };
    let Some(m) = markers.iter().find(|m| m.def.key == Key::ListMapKeys) else { return };
    if !proc_macro::is_available() {
        return;
    }
    let Some(file) = m.span.unwrap().local_file() else { return };
    let Some(fields) = crate::item_fields::fields(item, &file) else { return };
    let item = quote::ToTokens::to_token_stream(item).to_string().replace(' ', "");
    for key in keys.iter().filter(|k| !fields.contains(k)) {
        let hint = crate::markers::registry::suggest(key, fields.iter().map(String::as_str))
            .map(|s| format!("did you mean `{s}`? "))
            .unwrap_or_default();
        errors.push(
            m.span,
            format!(
                "`{}` names `{key}`, which the items (`{item}`) do not have: {hint}they have {}",
                m.name(),
                fields.join(", ")
            ),
        );
    }
}

/// What the API server says of `v` against the node `facts` make of a `kind` field.
fn violation(v: &Value, facts: &[Fact], kind: Option<&'static str>) -> Option<String> {
    let mut node = Node::default();
    match kind {
        Some("int-or-string") => Fact::IntOrString.apply(&mut node),
        Some(k @ ("string" | "integer" | "number" | "boolean" | "array" | "object")) => node = Node::of_type(k),
        _ => {}
    }
    for fact in facts {
        fact.apply(&mut node);
    }
    let mut found = Vec::new();
    kubegen_core::schema::validate::check_node(&node, v, "default", &mut found);
    found.into_iter().next().map(|v| v.message)
}

/// A value the marker does not take (the registry lists the ones it does): an error.
fn check_one_of(m: &Marker, v: &str, errors: &mut Errors) -> Option<Fact> {
    errors.push(m.span, format!("`{}` is one of {}; found \"{v}\"", m.name(), m.def.values.join(", ")));
    None
}

/// `min > max` pairs never admit a value; the API server would accept the CRD and then
/// reject every object.
fn check_bounds(markers: &[Marker], errors: &mut Errors) {
    let num = |key: Key| markers.iter().rev().find(|m| m.def.key == key).and_then(|m| m.number().map(|f| (f, m)));
    for (lo, hi) in [
        (Key::Minimum, Key::Maximum),
        (Key::MinLength, Key::MaxLength),
        (Key::MinItems, Key::MaxItems),
        (Key::MinProperties, Key::MaxProperties),
    ] {
        if let (Some((a, low)), Some((b, high))) = (num(lo), num(hi))
            && a > b
        {
            errors.push(
                high.span,
                format!("`{}` ({b}) is below `{}` ({a}): no value can satisfy both", high.name(), low.name()),
            );
        }
    }
}

/// A CEL rule as an apiextensions `ValidationRule`, its reason checked.
pub fn rule(m: &Marker, s: &Rule, errors: &mut Errors) -> Rule {
    if let Some(reason) = s.reason.as_deref()
        && !REASONS.contains(&reason)
    {
        errors.push(
            m.span,
            format!("reason `{reason}` is not one the API server knows; use one of {}", REASONS.join(", ")),
        );
    }
    // The API server compiles every rule when it reads the CRD; so do we.
    for (text, what) in [(Some(&s.rule), "rule"), (s.message_expression.as_ref(), "messageExpression")] {
        if let Some(expr) = text
            && let Err(e) = kubegen_cel::check::parse(expr)
        {
            let detail = e.lines().next().unwrap_or_default().to_string();
            errors.push(m.span, format!("the CEL {what} `{expr}` does not parse: {detail}"));
        }
    }
    s.clone()
}

/// The CEL rule and message controller-gen writes for `AtMostOneOf` and friends
/// (`pkg/crd/markers/validation.go`).
fn one_of_rule(key: Key, fields: &[String]) -> Rule {
    let list = format!("[{}]", fields.join(" "));
    // Rules read a property by its CEL name (`a-b` is `self.a__dash__b`).
    let fields: Vec<String> =
        fields.iter().map(|f| kubegen_cel::names::escape(f).unwrap_or_else(|| f.clone())).collect();
    let counted = fields.iter().map(|f| format!("(has(self.{f})?1:0)")).collect::<Vec<_>>().join(" + ");
    let (rule, message) = match key {
        Key::AtMostOneOf => (format!("{counted} <= 1"), format!("at most one of the fields in {list} may be set")),
        Key::ExactlyOneOf => (format!("{counted} == 1"), format!("exactly one of the fields in {list} must be set")),
        _ => (
            fields.iter().map(|f| format!("has(self.{f})")).collect::<Vec<_>>().join(" || "),
            format!("at least one of the fields in {list} must be set"),
        ),
    };
    Rule { rule, message: Some(message), ..Rule::default() }
}
