//! Kinds at the level of the IR, without compiling: a universe of named types drawn from a
//! seeded strategy and written as schemars writes a Rust type's schema — the root's
//! schema and its `$defs`, `Option` as a `null` branch, a named type as a `$ref`, the
//! derive's markers serialized under `x-kubegen-markers` — for what runs after schemars
//! (`kubegen::schema::typed_from`: the structural pass, markers, inlining, the CRD and the
//! client model). The compiled tier (`kind_gen`) proves the derive writes this form; this
//! one reaches thousands of shapes a run, and shrinks a failing one to its smallest.
//!
//! Every universe is valid as drawn: markers only where they fit the field's type, bounds
//! in order, defaults inside every bound of their field.

use kubegen_core::schema::MARKERS_KEY;
use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// A field's value before the renderer gives it its schema.
#[derive(Clone, Debug)]
pub enum Ty {
    Str(StrKind),
    I32,
    I64,
    U32,
    F64,
    Bool,
    /// A unit enum (a named string type) of 2–4 values.
    Enum(usize),
    /// A named struct: an index into the later types, resolved by the renderer (`k`-th
    /// type after this one, modulo what is there; a plain string when none is).
    Named(usize),
    IntOrString,
    Quantity,
    Time,
    /// `serde_json::Value`.
    Any,
    List(Box<Ty>, ListKind),
    Map(Box<Ty>),
    /// One of [`BLOCKS`]: a type the real derive wrote (serde's enum representations, a
    /// transparent newtype, a flattened map, Kubernetes' own types), by index.
    Block(usize),
    /// `Option<T>` as a list's items or a map's values (`Vec<Option<T>>`): null allowed.
    Opt(Box<Ty>),
}

impl Ty {
    /// `Any` here, or in the items or values below.
    pub fn holds_any(&self) -> bool {
        match self {
            Ty::Any => true,
            Ty::List(t, _) | Ty::Map(t) | Ty::Opt(t) => t.holds_any(),
            _ => false,
        }
    }
}

/// What a string field's markers say of it, one kind at a time so a default fits them all.
#[derive(Clone, Copy, Debug)]
pub enum StrKind {
    Plain,
    Lengths {
        min: u64,
        span: u64,
    },
    /// A DNS label pattern, with a `maxLength`.
    Pattern {
        max: u64,
    },
    Format(&'static str),
    Enum(usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListKind {
    Plain,
    Atomic,
    /// Scalar items only (else atomic).
    Set,
    /// Named items with a required `name` (else atomic).
    Map,
}

#[derive(Clone, Debug)]
pub struct Field {
    pub ty: Ty,
    pub optional: bool,
    /// Numeric bounds `(minimum, span, exclusive)`; lengths of lists and maps `(min, span)`.
    pub bounds: Option<(i64, u16, bool)>,
    pub multiple_of: Option<u8>,
    pub counts: Option<(u8, u8)>,
    /// A default inside every bound (where the field's type has one to give).
    pub default: bool,
    pub nullable: bool,
    /// `preserve_unknown_fields` on the field (over a named type).
    pub open: bool,
    pub rule: bool,
    pub description: Option<usize>,
}

#[derive(Clone, Debug)]
pub struct TypeDef {
    /// A required `name: String` first (what list-map items key on).
    pub keyed: bool,
    pub fields: Vec<Field>,
    /// `preserve_unknown_fields` on the type itself.
    pub open: bool,
    pub rule: bool,
    pub description: Option<usize>,
}

/// Named types: the first is the kind's spec; a type refers only to later ones.
#[derive(Clone, Debug)]
pub struct Universe {
    pub types: Vec<TypeDef>,
}

/// Descriptions as doc comments write them, the ones a generator of comments and
/// docstrings must not be broken by among them.
pub const DESCRIPTIONS: &[&str] = &[
    "Plain words.",
    "Ends a block comment */ in the middle.",
    "Has \"\"\" triple quotes and a trailing backslash \\",
    "Line one.\n\nLine two, with `code` and <tags>.",
    "Starts /* a comment and uses ${template} and {{ braces }}.",
    "Unicode: café — ✓.",
];

/// schemars' output for a type: its schema and the definitions it reaches.
pub type Schemars = fn() -> (Value, Map<String, Value>);

/// Types written by the real derive (`kubegen::KubeSchema`, and k8s-openapi's for
/// Kubernetes' own), each with schemars' output for it.
pub const BLOCKS: &[(&str, Schemars)] = {
    use crate::menagerie as m;
    use k8s_openapi::api::core::v1 as core;
    use kubegen::schema::schemars_for;
    &[
        ("external enum", schemars_for::<m::Enclosure>),
        ("internal enum", schemars_for::<m::Schedule>),
        ("adjacent enum", schemars_for::<m::Transport>),
        ("untagged enum", schemars_for::<m::Budget>),
        ("untagged int-or-string", schemars_for::<m::Size>),
        ("transparent newtype", schemars_for::<m::TagLine>),
        ("flattened map", schemars_for::<m::Pen>),
        ("unit enum", schemars_for::<m::Diet>),
        ("ObjectReference", schemars_for::<core::ObjectReference>),
        ("ResourceRequirements", schemars_for::<core::ResourceRequirements>),
        ("Condition", schemars_for::<k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition>),
    ]
};

const FORMATS: &[&str] = &["date-time", "date", "uuid", "hostname", "email", "ipv4", "byte", "duration"];
const ENUM_VALUES: &[&str] = &["alpha", "beta", "gamma-two", "Delta"];

fn str_kind() -> impl Strategy<Value = StrKind> {
    prop_oneof![
        3 => Just(StrKind::Plain),
        2 => (0u64..3, 0u64..8).prop_map(|(min, span)| StrKind::Lengths { min, span }),
        1 => (1u64..64).prop_map(|max| StrKind::Pattern { max }),
        1 => prop::sample::select(FORMATS).prop_map(StrKind::Format),
        1 => (2usize..5).prop_map(StrKind::Enum),
    ]
}

fn leaf() -> impl Strategy<Value = Ty> {
    prop_oneof![
        4 => str_kind().prop_map(Ty::Str),
        2 => Just(Ty::I32),
        1 => Just(Ty::I64),
        1 => Just(Ty::U32),
        1 => Just(Ty::F64),
        2 => Just(Ty::Bool),
        1 => (2usize..5).prop_map(Ty::Enum),
        4 => (0usize..4).prop_map(Ty::Named),
        1 => Just(Ty::IntOrString),
        1 => Just(Ty::Quantity),
        1 => Just(Ty::Time),
        1 => Just(Ty::Any),
        3 => (0..BLOCKS.len()).prop_map(Ty::Block),
    ]
}

fn ty() -> impl Strategy<Value = Ty> {
    leaf().prop_recursive(2, 6, 1, |inner| {
        let kind = prop_oneof![Just(ListKind::Plain), Just(ListKind::Atomic), Just(ListKind::Set), Just(ListKind::Map)];
        prop_oneof![
            3 => (inner.clone(), kind).prop_map(|(t, k)| Ty::List(Box::new(t), k)),
            3 => inner.clone().prop_map(|t| Ty::Map(Box::new(t))),
            1 => inner.clone().prop_map(|t| Ty::List(Box::new(Ty::Opt(Box::new(t))), ListKind::Plain)),
            1 => inner.prop_map(|t| Ty::Map(Box::new(Ty::Opt(Box::new(t))))),
        ]
    })
}

fn field() -> impl Strategy<Value = Field> {
    (
        ty(),
        any::<bool>(),
        prop::option::weighted(0.3, (-5i64..5, 0u16..40, any::<bool>())),
        prop::option::weighted(0.15, 2u8..5),
        prop::option::weighted(0.3, (0u8..3, 0u8..5)),
        prop::bool::weighted(0.3),
        prop::bool::weighted(0.1),
        prop::bool::weighted(0.2),
        prop::bool::weighted(0.15),
        prop::option::weighted(0.5, 0..DESCRIPTIONS.len()),
    )
        .prop_map(|(ty, optional, bounds, multiple_of, counts, default, nullable, open, rule, description)| {
            Field { ty, optional, bounds, multiple_of, counts, default, nullable, open, rule, description }
        })
}

fn type_def() -> impl Strategy<Value = TypeDef> {
    (
        any::<bool>(),
        prop::collection::vec(field(), 1..6),
        prop::bool::weighted(0.1),
        prop::bool::weighted(0.15),
        prop::option::weighted(0.6, 0..DESCRIPTIONS.len()),
    )
        .prop_map(|(keyed, fields, open, rule, description)| TypeDef { keyed, fields, open, rule, description })
}

/// Universes of 1–6 named types.
pub fn universe() -> impl Strategy<Value = Universe> {
    prop::collection::vec(type_def(), 1..7).prop_map(|types| Universe { types })
}

/// The kind's name, and its spec type's.
pub const KIND: &str = "Widget";

impl Universe {
    /// The name of the `i`-th type.
    pub fn name(&self, i: usize) -> String {
        if i == 0 { format!("{KIND}Spec") } else { format!("Piece{i}") }
    }

    /// The named type `Named(k)` in type `i` stands for, if a later type exists.
    fn target(&self, i: usize, k: usize) -> Option<usize> {
        let later = self.types.len() - i - 1;
        (later > 0).then(|| i + 1 + k % later)
    }

    /// The spec's schema and its definitions, as schemars writes them with the derive's
    /// markers.
    pub fn schemars(&self) -> (Value, Map<String, Value>) {
        let mut defs = Map::new();
        for i in 0..self.types.len() {
            let def = self.type_schema(i, &mut defs);
            defs.insert(self.name(i), def);
        }
        // schemars writes the definitions the root reaches, no others.
        let root = reference(&self.name(0));
        let mut reached = std::collections::BTreeSet::new();
        let mut pending = vec![root.clone()];
        while let Some(value) = pending.pop() {
            match value {
                Value::Object(obj) => {
                    if let Some(name) = obj.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix("#/$defs/"))
                        && reached.insert(name.to_string())
                        && let Some(def) = defs.get(name)
                    {
                        pending.push(def.clone());
                    }
                    pending.extend(obj.into_iter().map(|(_, v)| v));
                }
                Value::Array(items) => pending.extend(items),
                _ => {}
            }
        }
        defs.retain(|name, _| reached.contains(name));
        (root, defs)
    }

    fn type_schema(&self, i: usize, defs: &mut Map<String, Value>) -> Value {
        let def = &self.types[i];
        let mut properties = Map::new();
        let mut required = Vec::new();
        if def.keyed {
            properties.insert("name".into(), json!({"type": "string", "minLength": 1}));
            required.push(Value::from("name"));
        }
        for (n, field) in def.fields.iter().enumerate() {
            let wire = format!("f{n}{}", ["Size", "mode", "_raw", "X"][n % 4]);
            let (schema, is_required) = self.field_schema(i, field, defs);
            if is_required {
                required.push(wire.clone().into());
            }
            properties.insert(wire, schema);
        }
        let mut out = json!({"type": "object", "properties": properties});
        if !required.is_empty() {
            out["required"] = Value::Array(required);
        }
        if let Some(d) = def.description {
            out["description"] = DESCRIPTIONS[d].into();
        }
        let mut markers = Markers::default();
        if def.open {
            markers.set("x-kubernetes-preserve-unknown-fields", true.into());
        }
        if def.rule {
            markers.rule(if def.keyed { "self.name.size() > 0" } else { "true" });
        }
        markers.attach(&mut out);
        out
    }

    /// A field's schema and whether it is required.
    fn field_schema(&self, owner: usize, field: &Field, defs: &mut Map<String, Value>) -> (Value, bool) {
        let mut markers = Markers::default();
        let (mut schema, default) = self.value_schema(owner, &field.ty, field, &mut markers, defs, true);
        if field.optional {
            schema = or_null(schema);
        }
        if let Some(d) = field.description {
            schema["description"] = DESCRIPTIONS[d].into();
        }
        if field.nullable {
            markers.set("nullable", true.into());
        }
        // CEL sees no type in `Any` (the server refuses a rule that reaches it).
        if field.rule && !field.ty.holds_any() {
            // Rules whose cost is the same at any size, right for the field's type.
            markers.rule(match &field.ty {
                // The server types a `date` or `date-time` string as a timestamp.
                Ty::Str(StrKind::Format("date" | "date-time")) => "self == self",
                Ty::Str(_) | Ty::List(..) | Ty::Map(_) => "self.size() >= 0",
                Ty::I32 | Ty::I64 | Ty::U32 | Ty::F64 | Ty::Bool | Ty::Enum(_) => "self == self",
                _ => "true",
            });
        }
        if field.default
            && let Some(value) = default
        {
            markers.set("default", value);
        }
        let required = !field.optional && !markers.sets_default();
        markers.attach(&mut schema);
        (schema, required)
    }

    /// The schema of a value of `ty` (a field's, or a list's items, or a map's values:
    /// `top` only for the field itself), the markers it takes, and a default that fits
    /// them where there is one.
    fn value_schema(
        &self,
        owner: usize,
        ty: &Ty,
        field: &Field,
        markers: &mut Markers,
        defs: &mut Map<String, Value>,
        top: bool,
    ) -> (Value, Option<Value>) {
        match ty {
            Ty::Str(kind) => {
                let value = if top { string_markers(*kind, markers) } else { Some("a".into()) };
                (json!({"type": "string"}), value)
            }
            Ty::I32 | Ty::I64 | Ty::U32 | Ty::F64 => {
                let schema = match ty {
                    Ty::I32 => json!({"type": "integer", "format": "int32"}),
                    Ty::I64 => json!({"type": "integer", "format": "int64"}),
                    Ty::U32 => json!({"type": "integer", "format": "uint32", "minimum": 0}),
                    _ => json!({"type": "number", "format": "double"}),
                };
                let floor = if matches!(ty, Ty::U32) { 0 } else { i64::MIN };
                let value =
                    if top { number_markers(field, floor, matches!(ty, Ty::F64), markers) } else { Some(json!(0)) };
                (schema, value)
            }
            Ty::Bool => (json!({"type": "boolean"}), Some(false.into())),
            Ty::Enum(n) => {
                let name = format!("Choice{n}");
                let values: Vec<&str> = ENUM_VALUES[..*n].to_vec();
                defs.insert(name.clone(), json!({"type": "string", "enum": values, "description": "One of a few."}));
                (reference(&name), Some(values[0].into()))
            }
            Ty::Named(k) => match self.target(owner, *k) {
                Some(t) => {
                    if top && field.open {
                        markers.set("x-kubernetes-preserve-unknown-fields", true.into());
                    }
                    let value =
                        (!self.types[t].keyed && self.types[t].fields.iter().all(|f| f.optional)).then(|| json!({}));
                    (reference(&self.name(t)), value)
                }
                None => (json!({"type": "string"}), Some("".into())),
            },
            Ty::IntOrString => {
                let name = "io.k8s.apimachinery.pkg.util.intstr.IntOrString";
                defs.insert(name.into(), json!({}));
                (reference(name), Some(json!(8080)))
            }
            Ty::Quantity => {
                let name = "io.k8s.apimachinery.pkg.api.resource.Quantity";
                defs.insert(name.into(), json!({}));
                (reference(name), Some(json!("100m")))
            }
            Ty::Time => {
                let name = "io.k8s.apimachinery.pkg.apis.meta.v1.Time";
                defs.insert(name.into(), json!({}));
                (reference(name), Some(json!("2024-01-01T00:00:00Z")))
            }
            Ty::Opt(inner) => {
                let (schema, value) = self.value_schema(owner, inner, field, markers, defs, top);
                (or_null(schema), value)
            }
            Ty::Block(b) => {
                let (root, theirs) = BLOCKS[*b].1();
                defs.extend(theirs);
                (root, None)
            }
            // schemars writes `true`, an object once a description joins it.
            Ty::Any => (json!({}), None),
            Ty::List(item, kind) => {
                let mut item_markers = Markers::default();
                let (items, _) = self.value_schema(owner, item, field, &mut item_markers, defs, false);
                let scalar = matches!(**item, Ty::Str(_) | Ty::I32 | Ty::I64 | Ty::U32 | Ty::Bool | Ty::Enum(_));
                let keyed =
                    matches!(**item, Ty::Named(k) if self.target(owner, k).is_some_and(|t| self.types[t].keyed));
                if top {
                    match kind {
                        ListKind::Plain => {}
                        ListKind::Set if scalar => markers.set("x-kubernetes-list-type", "set".into()),
                        ListKind::Map if keyed => {
                            markers.set("x-kubernetes-list-type", "map".into());
                            markers.set("x-kubernetes-list-map-keys", json!(["name"]));
                        }
                        _ => markers.set("x-kubernetes-list-type", "atomic".into()),
                    }
                    counts(field, "minItems", "maxItems", markers);
                    if let Ty::Str(StrKind::Lengths { min, span }) = **item {
                        markers.items(json!({"set": [["minLength", min], ["maxLength", min + span]]}));
                    }
                }
                let mut schema = json!({"type": "array", "items": items});
                item_markers.attach(&mut schema["items"]);
                let empty = field.counts.is_none_or(|(min, _)| min == 0);
                (schema, empty.then(|| json!([])))
            }
            Ty::Map(value) => {
                let mut value_markers = Markers::default();
                let (values, _) = self.value_schema(owner, value, field, &mut value_markers, defs, false);
                if top {
                    counts(field, "minProperties", "maxProperties", markers);
                }
                let mut schema = json!({"type": "object", "additionalProperties": values});
                value_markers.attach(&mut schema["additionalProperties"]);
                let empty = field.counts.is_none_or(|(min, _)| min == 0);
                (schema, empty.then(|| json!({})))
            }
        }
    }
}

/// `Option<T>`'s schema as schemars writes it: a `null` branch beside a reference, `null`
/// among the types of an inline schema (any value already takes null).
fn or_null(mut schema: Value) -> Value {
    if schema.get("$ref").is_some() {
        return json!({"anyOf": [schema, {"type": "null"}]});
    }
    if let Some(t) = schema.get("type").cloned().filter(Value::is_string) {
        schema["type"] = json!([t, "null"]);
    }
    schema
}

fn reference(name: &str) -> Value {
    json!({"$ref": format!("#/$defs/{name}")})
}

/// A string's markers by kind; a value inside them.
fn string_markers(kind: StrKind, markers: &mut Markers) -> Option<Value> {
    match kind {
        StrKind::Plain => Some("".into()),
        StrKind::Lengths { min, span } => {
            markers.set("minLength", min.into());
            markers.set("maxLength", (min + span).into());
            Some("x".repeat(min as usize).into())
        }
        StrKind::Pattern { max } => {
            markers.set("pattern", "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$".into());
            markers.set("maxLength", max.into());
            Some("a".into())
        }
        StrKind::Format(f) => {
            markers.set("format", f.into());
            Some(
                match f {
                    "date-time" => "2024-01-01T00:00:00Z",
                    "date" => "2024-01-01",
                    "uuid" => "123e4567-e89b-12d3-a456-426614174000",
                    "hostname" => "example.com",
                    "email" => "a@example.com",
                    "ipv4" => "10.0.0.1",
                    "byte" => "aGk=",
                    _ => "1h",
                }
                .into(),
            )
        }
        StrKind::Enum(n) => {
            markers.set("enum", json!(ENUM_VALUES[..n]));
            Some(ENUM_VALUES[0].into())
        }
    }
}

/// A number's markers: bounds (in order) and a multiple; the least value inside them,
/// or none when the multiple leaves none.
fn number_markers(field: &Field, floor: i64, float: bool, markers: &mut Markers) -> Option<Value> {
    let (mut low, mut high) = (floor.max(-1_000_000), 1_000_000i64);
    let mut exclusive = false;
    if let Some((min, span, ex)) = field.bounds {
        let min = min.max(floor);
        let max = min + i64::from(span) + if ex { 2 } else { 0 };
        markers.set("minimum", min.into());
        markers.set("maximum", max.into());
        if ex {
            markers.set("exclusiveMinimum", true.into());
            markers.set("exclusiveMaximum", true.into());
        }
        (low, high, exclusive) = (min, max, ex);
    }
    let step = field.multiple_of.map(i64::from).unwrap_or(1);
    if let Some(m) = field.multiple_of {
        markers.set("multipleOf", m.into());
    }
    let first = if exclusive { low + 1 } else { low };
    let last = if exclusive { high - 1 } else { high };
    let value = (first..=last).find(|v| v % step == 0)?;
    Some(if float { json!(value as f64) } else { json!(value) })
}

fn counts(field: &Field, min_key: &str, max_key: &str, markers: &mut Markers) {
    if let Some((min, span)) = field.counts {
        markers.set(min_key, min.into());
        markers.set(max_key, (u64::from(min) + u64::from(span)).into());
    }
}

/// One node's markers, as the derive serializes `NodeMarkers`.
#[derive(Default)]
struct Markers {
    set: Vec<Value>,
    rules: Vec<Value>,
    items: Option<Value>,
}

impl Markers {
    fn set(&mut self, key: &str, value: Value) {
        self.set.push(json!([key, value]));
    }

    fn rule(&mut self, rule: &str) {
        self.rules.push(json!({"rule": rule, "message": "must hold"}));
    }

    fn items(&mut self, markers: Value) {
        self.items = Some(markers);
    }

    fn sets_default(&self) -> bool {
        self.set.iter().any(|s| s[0] == "default")
    }

    fn attach(self, node: &mut Value) {
        let mut doc = Map::new();
        if !self.set.is_empty() {
            doc.insert("set".into(), Value::Array(self.set));
        }
        if !self.rules.is_empty() {
            doc.insert("rules".into(), Value::Array(self.rules));
        }
        if let Some(items) = self.items {
            doc.insert("items".into(), items);
        }
        if doc.is_empty() {
            return;
        }
        match node {
            Value::Object(obj) => {
                obj.insert(MARKERS_KEY.into(), json!([doc]));
            }
            // `true` (any value) takes markers as an object.
            other => {
                *other = json!({ MARKERS_KEY: [doc] });
            }
        }
    }
}
