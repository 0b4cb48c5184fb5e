//! A type's schema as data: what the derive writes for a plain struct or a string enum
//! instead of a schemars derive on a mirror of the type. The derive reads the serde
//! attributes of such a type whole at compile time (names on the wire, defaults,
//! `skip_serializing_if`), writes a table of its fields, and these functions build the
//! same schema schemars' own derive builds, in the same order, at run time: one function
//! for every struct instead of a function of its own per struct. A type with anything
//! else (generics, flatten, tagged enums, schemars' own attributes) keeps the mirror.

use schemars::transform::Transform;
use schemars::{Schema, SchemaGenerator};
use serde_json::Value;

/// A struct's schema, as the derive writes it.
pub struct Object {
    pub properties: &'static [Property],
    /// `#[serde(deny_unknown_fields)]`.
    pub deny_unknown_fields: bool,
    /// Each property's default, in order (`None` where it has none), where any has one:
    /// the container's `Default` computed once, as schemars' derive does.
    pub defaults: Option<fn() -> Vec<Option<Value>>>,
    pub node: Node,
}

/// A node's own parts: its description, whether it is closed, and its markers as the
/// structural pass reads them back.
pub struct Node {
    pub description: Option<&'static str>,
    /// `struct Empty {}`: kubegen_core's closed mark.
    pub closed: bool,
    /// What the structural pass reads back, in the order the derive wrote it.
    pub marks: &'static [Mark],
}

/// A node's markers, handed to the structural pass as the mirror's transforms hand them.
pub enum Mark {
    /// The serialized `NodeMarkers` (`__private::Markers`).
    Markers(&'static str),
    /// `+default=ref(PATH)`: the constant's serde JSON.
    DefaultRef(fn() -> Option<Value>),
}

/// One field of a struct written as data.
pub struct Property {
    /// The name serde reads.
    pub name: &'static str,
    /// `SchemaGenerator::subschema_for::<T>` of the field's type.
    pub schema: fn(&mut SchemaGenerator) -> Schema,
    /// `JsonSchema::_schemars_private_is_option` of the field's type.
    pub is_option: fn() -> bool,
    /// A default from serde (the container's or the field's own).
    pub has_default: bool,
    /// `#[serde(skip_serializing_if = "...")]`.
    pub skip_serializing_if: bool,
    pub node: Node,
}

thread_local! {
    static BUILT: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How many schemas this thread built from data: a test tells which path a type's
/// derive took.
pub fn built_from_data() -> usize {
    BUILT.get()
}

/// The schema of a struct written as data: schemars' own derive, step for step.
pub fn object_schema(generator: &mut SchemaGenerator, object: &Object) -> Schema {
    BUILT.set(BUILT.get() + 1);
    build_object(generator, object)
}

fn build_object(generator: &mut SchemaGenerator, object: &Object) -> Schema {
    let mut schema = if object.deny_unknown_fields {
        schemars::json_schema!({ "type": "object", "additionalProperties": false })
    } else {
        schemars::json_schema!({ "type": "object" })
    };
    let mut defaults = object.defaults.map(|f| f()).unwrap_or_default().into_iter();
    for property in object.properties {
        let mut sub = (property.schema)(generator);
        if let Some(description) = property.node.description {
            describe(&mut sub, description);
        }
        if let Some(default) = defaults.next().flatten() {
            sub.insert("default".into(), default);
        }
        finish(&mut sub, &property.node, false);
        let deserialize = generator.contract().is_deserialize();
        let optional = match (property.skip_serializing_if, property.has_default) {
            (true, true) => true,
            (false, false) => deserialize && (property.is_option)(),
            _ if deserialize => property.has_default || (property.is_option)(),
            _ => property.skip_serializing_if,
        };
        insert_property(&mut schema, property.name, optional, sub);
    }
    finish(&mut schema, &object.node, true);
    schema
}

/// A variant of an externally tagged enum written as data.
pub enum Variant {
    /// A unit variant's name; its node where it has a description or markers (schemars
    /// then writes it as a `oneOf` branch of its own, else among the `enum` of names).
    Unit(&'static str, Option<Node>),
    /// A variant of named fields: `{name: {fields}}`, and its own node.
    Struct(&'static str, Object, Node),
}

/// The schema of an externally tagged enum written as data: a string enum of the plain
/// unit variants, and where there are others, a `oneOf` of it and them, as schemars'
/// derive writes it.
pub fn enum_schema(generator: &mut SchemaGenerator, variants: &[Variant], node: &Node) -> Schema {
    BUILT.set(BUILT.get() + 1);
    let plain: Vec<Value> = variants
        .iter()
        .filter_map(|v| match v {
            Variant::Unit(name, None) => Some(Value::from(*name)),
            _ => None,
        })
        .collect();
    let (plain_only, any_plain) = (plain.len() == variants.len(), !plain.is_empty());
    let mut names = schemars::json_schema!({ "type": "string" });
    names.insert("enum".into(), Value::Array(plain));
    if plain_only {
        finish(&mut names, node, true);
        return names;
    }
    let mut branches = Vec::new();
    if any_plain {
        branches.push(names.to_value());
    }
    for v in variants {
        let (mut branch, own) = match v {
            Variant::Unit(_, None) => continue,
            Variant::Unit(name, Some(own)) => (schemars::json_schema!({ "type": "string", "const": name }), own),
            Variant::Struct(name, object, own) => {
                let fields = build_object(generator, object);
                let branch = schemars::json_schema!({
                    "type": "object",
                    "properties": { (name.to_string()): fields },
                    "required": [name],
                    "additionalProperties": false,
                });
                (branch, own)
            }
        };
        finish(&mut branch, own, true);
        branches.push(branch.to_value());
    }
    let mut schema = schemars::json_schema!({ "oneOf": branches });
    finish(&mut schema, node, true);
    schema
}

/// A node's description (a container's comes here, after its properties), its closed
/// mark, then its marks, as schemars applies attributes'
/// extensions and transforms after everything else.
fn finish(schema: &mut Schema, node: &Node, own_description: bool) {
    if own_description && let Some(description) = node.description {
        describe(schema, description);
    }
    if node.closed {
        schema.insert(kubegen_core::schema::CLOSED_KEY.into(), Value::Bool(true));
    }
    for mark in node.marks {
        match mark {
            Mark::Markers(json) => crate::__private::Markers(json).transform(schema),
            Mark::DefaultRef(value) => crate::__private::DefaultRef(value()).transform(schema),
        }
    }
}

/// A description, unless it is empty (schemars' metadata rule).
fn describe(schema: &mut Schema, description: &str) {
    if !description.is_empty() {
        schema.insert("description".into(), description.into());
    }
}

/// A property into `properties`, and its name into `required` unless it is optional, as
/// schemars' derive inserts them.
fn insert_property(schema: &mut Schema, name: &str, optional: bool, sub: Schema) {
    let object = schema.ensure_object();
    if let Some(properties) =
        object.entry("properties").or_insert_with(|| Value::Object(Default::default())).as_object_mut()
    {
        properties.insert(name.to_owned(), sub.into());
    }
    if !optional
        && let Some(required) = object.entry("required").or_insert_with(|| Value::Array(Vec::new())).as_array_mut()
    {
        required.push(name.into());
    }
}

/// A default's JSON where its type serializes, none where it does not (as schemars'
/// derive reads a default): the inherent method wins where `T: Serialize`, the trait's
/// otherwise.
pub struct MaybeSerialize<'a, T>(pub &'a T);

impl<T: serde::Serialize> MaybeSerialize<'_, T> {
    pub fn maybe_to_value(&self) -> Option<Value> {
        serde_json::to_value(self.0).ok()
    }
}

/// [`MaybeSerialize`]'s fallback for a type that does not serialize.
pub trait NotSerialize {
    fn maybe_to_value(&self) -> Option<Value> {
        None
    }
}

impl<T> NotSerialize for MaybeSerialize<'_, T> {}
