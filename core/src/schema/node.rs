//! The typed schema IR: one structural schema node as the API server reads it (the
//! subset of OpenAPI v3 a CRD may use, with Kubernetes' extensions), plus the name of
//! the Rust type it stands for where the client model keeps references. It reads and
//! writes the same JSON as apiextensions' `JSONSchemaProps`, so the CRD, the client model
//! and the validator are one value seen three ways; [`Node::walk`] is the one traversal
//! every pass uses.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Number, Value};

use super::markers::Rule;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Node {
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub type_: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nullable: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub example: Option<Value>,
    #[serde(rename = "enum", default, skip_serializing_if = "Option::is_none")]
    pub enum_: Option<Vec<Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimum: Option<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maximum: Option<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclusive_minimum: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclusive_maximum: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub multiple_of: Option<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_length: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_length: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_items: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_items: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unique_items: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_properties: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_properties: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub properties: Option<BTreeMap<String, Node>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_properties: Option<Additional>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<Box<Node>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub all_of: Option<Vec<Node>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub any_of: Option<Vec<Node>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub one_of: Option<Vec<Node>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not: Option<Box<Node>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external_docs: Option<Value>,
    #[serde(rename = "x-kubernetes-preserve-unknown-fields", default, skip_serializing_if = "Option::is_none")]
    pub preserve_unknown_fields: Option<bool>,
    #[serde(rename = "x-kubernetes-int-or-string", default, skip_serializing_if = "Option::is_none")]
    pub int_or_string: Option<bool>,
    #[serde(rename = "x-kubernetes-embedded-resource", default, skip_serializing_if = "Option::is_none")]
    pub embedded_resource: Option<bool>,
    #[serde(rename = "x-kubernetes-list-type", default, skip_serializing_if = "Option::is_none")]
    pub list_type: Option<String>,
    #[serde(rename = "x-kubernetes-list-map-keys", default, skip_serializing_if = "Option::is_none")]
    pub list_map_keys: Option<Vec<String>>,
    #[serde(rename = "x-kubernetes-map-type", default, skip_serializing_if = "Option::is_none")]
    pub map_type: Option<String>,
    #[serde(rename = "x-kubernetes-validations", default, skip_serializing_if = "Option::is_none")]
    pub validations: Option<Vec<Rule>>,
    /// The client model's reference to a named type (`x-kubegen-ref`), in place of its schema.
    #[serde(rename = "x-kubegen-ref", default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    /// Beside a reference: what the field itself says, which goes over the named type's
    /// node where the reference is inlined (the CRD). Not part of the schema's JSON.
    #[serde(skip)]
    pub field: Option<Box<FieldSide>>,
}

/// What a field says beside its reference to a named type: its own facts as written
/// there, and its markers, to apply over the type's node in that order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FieldSide {
    /// The field's facts (description, default, bounds of a schemars attribute, ...).
    pub facts: Node,
    /// The field's `default` was one the structural pass drops (null, or ""): the named
    /// type's default goes too.
    pub drops_default: bool,
    /// The field's markers, in order.
    pub markers: Vec<super::markers::NodeMarkers>,
}

/// `additionalProperties`: allowed or not, or the schema of every value of a map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Additional {
    Allowed(bool),
    Schema(Box<Node>),
}

/// Where a node sits below the one a walk started at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step<'a> {
    Property(&'a str),
    Items,
    AdditionalProperties,
    AllOf(usize),
    AnyOf(usize),
    OneOf(usize),
    Not,
}

/// A pass over a schema: called for every node, parents first, with the steps from the
/// root. Return `false` to skip a node's children.
pub trait Visitor {
    fn node(&mut self, path: &[Step<'_>], node: &Node) -> bool;
}

impl<F: FnMut(&[Step<'_>], &Node) -> bool> Visitor for F {
    fn node(&mut self, path: &[Step<'_>], node: &Node) -> bool {
        self(path, node)
    }
}

impl Node {
    /// A node from its JSON (a CRD's `openAPIV3Schema`, a model's type); `None` when the
    /// JSON is not a schema.
    pub fn from_value(value: &Value) -> Option<Node> {
        Node::deserialize(value).ok()
    }

    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// Visits this node and every node below it, parents first.
    pub fn walk(&self, visitor: &mut impl Visitor) {
        let mut path = Vec::new();
        self.walk_from(&mut path, visitor);
    }

    fn walk_from<'a>(&'a self, path: &mut Vec<Step<'a>>, visitor: &mut impl Visitor) {
        if !visitor.node(path, self) {
            return;
        }
        let mut child = |path: &mut Vec<Step<'a>>, step: Step<'a>, node: &'a Node| {
            path.push(step);
            node.walk_from(path, visitor);
            path.pop();
        };
        for (name, node) in self.properties.iter().flatten() {
            child(path, Step::Property(name), node);
        }
        if let Some(items) = &self.items {
            child(path, Step::Items, items);
        }
        if let Some(Additional::Schema(values)) = &self.additional_properties {
            child(path, Step::AdditionalProperties, values);
        }
        for (i, node) in self.all_of.iter().flatten().enumerate() {
            child(path, Step::AllOf(i), node);
        }
        for (i, node) in self.any_of.iter().flatten().enumerate() {
            child(path, Step::AnyOf(i), node);
        }
        for (i, node) in self.one_of.iter().flatten().enumerate() {
            child(path, Step::OneOf(i), node);
        }
        if let Some(not) = &self.not {
            child(path, Step::Not, not);
        }
    }

    /// Calls `f` on this node and every node below it, parents first.
    pub fn walk_mut(&mut self, f: &mut impl FnMut(&mut Node)) {
        f(self);
        for node in self.properties.iter_mut().flat_map(|p| p.values_mut()) {
            node.walk_mut(f);
        }
        if let Some(items) = &mut self.items {
            items.walk_mut(f);
        }
        if let Some(Additional::Schema(values)) = &mut self.additional_properties {
            values.walk_mut(f);
        }
        for node in [&mut self.all_of, &mut self.any_of, &mut self.one_of].into_iter().flatten().flatten() {
            node.walk_mut(f);
        }
        if let Some(not) = &mut self.not {
            not.walk_mut(f);
        }
    }

    /// Takes from `other` what this node does not say: every fact this node lacks, the
    /// properties it does not declare, the required names it does not list. What this
    /// node already says wins (an `allOf` part or a folded variant merged into a field).
    pub fn fill_from(&mut self, other: Node) {
        let Node {
            type_,
            format,
            title,
            description,
            nullable,
            default,
            example,
            enum_,
            minimum,
            maximum,
            exclusive_minimum,
            exclusive_maximum,
            multiple_of,
            min_length,
            max_length,
            pattern,
            min_items,
            max_items,
            unique_items,
            min_properties,
            max_properties,
            required,
            properties,
            additional_properties,
            items,
            all_of,
            any_of,
            one_of,
            not,
            external_docs,
            preserve_unknown_fields,
            int_or_string,
            embedded_resource,
            list_type,
            list_map_keys,
            map_type,
            validations,
            reference,
            field,
        } = other;
        if self.type_.is_none() {
            self.type_ = type_;
        }
        if self.format.is_none() {
            self.format = format;
        }
        if self.title.is_none() {
            self.title = title;
        }
        if self.description.is_none() {
            self.description = description;
        }
        if self.nullable.is_none() {
            self.nullable = nullable;
        }
        if self.default.is_none() {
            self.default = default;
        }
        if self.example.is_none() {
            self.example = example;
        }
        if self.enum_.is_none() {
            self.enum_ = enum_;
        }
        if self.minimum.is_none() {
            self.minimum = minimum;
        }
        if self.maximum.is_none() {
            self.maximum = maximum;
        }
        if self.exclusive_minimum.is_none() {
            self.exclusive_minimum = exclusive_minimum;
        }
        if self.exclusive_maximum.is_none() {
            self.exclusive_maximum = exclusive_maximum;
        }
        if self.multiple_of.is_none() {
            self.multiple_of = multiple_of;
        }
        if self.min_length.is_none() {
            self.min_length = min_length;
        }
        if self.max_length.is_none() {
            self.max_length = max_length;
        }
        if self.pattern.is_none() {
            self.pattern = pattern;
        }
        if self.min_items.is_none() {
            self.min_items = min_items;
        }
        if self.max_items.is_none() {
            self.max_items = max_items;
        }
        if self.unique_items.is_none() {
            self.unique_items = unique_items;
        }
        if self.min_properties.is_none() {
            self.min_properties = min_properties;
        }
        if self.max_properties.is_none() {
            self.max_properties = max_properties;
        }
        if self.additional_properties.is_none() {
            self.additional_properties = additional_properties;
        }
        if self.items.is_none() {
            self.items = items;
        }
        if self.all_of.is_none() {
            self.all_of = all_of;
        }
        if self.any_of.is_none() {
            self.any_of = any_of;
        }
        if self.one_of.is_none() {
            self.one_of = one_of;
        }
        if self.not.is_none() {
            self.not = not;
        }
        if self.external_docs.is_none() {
            self.external_docs = external_docs;
        }
        if self.preserve_unknown_fields.is_none() {
            self.preserve_unknown_fields = preserve_unknown_fields;
        }
        if self.int_or_string.is_none() {
            self.int_or_string = int_or_string;
        }
        if self.embedded_resource.is_none() {
            self.embedded_resource = embedded_resource;
        }
        if self.list_type.is_none() {
            self.list_type = list_type;
        }
        if self.list_map_keys.is_none() {
            self.list_map_keys = list_map_keys;
        }
        if self.map_type.is_none() {
            self.map_type = map_type;
        }
        if self.validations.is_none() {
            self.validations = validations;
        }
        if self.reference.is_none() {
            self.reference = reference;
        }
        if self.field.is_none() {
            self.field = field;
        }
        match (&mut self.properties, properties) {
            (Some(mine), Some(theirs)) => {
                for (name, node) in theirs {
                    mine.entry(name).or_insert(node);
                }
            }
            (mine @ None, theirs) => *mine = theirs,
            _ => {}
        }
        match (&mut self.required, required) {
            (Some(mine), Some(theirs)) => {
                for name in theirs {
                    if !mine.contains(&name) {
                        mine.push(name);
                    }
                }
            }
            (mine @ None, theirs) => *mine = theirs,
            _ => {}
        }
    }

    /// A node of one `type` and nothing else.
    pub fn of_type(type_: &str) -> Node {
        Node { type_: Some(type_.into()), ..Node::default() }
    }

    /// A reference to the named type `name` of a client model.
    pub fn named(name: &str) -> Node {
        Node { reference: Some(name.into()), ..Node::default() }
    }

    /// The schema of a map's values, if the node is a map.
    pub fn map_values(&self) -> Option<&Node> {
        match &self.additional_properties {
            Some(Additional::Schema(values)) => Some(values),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn reads_and_writes_the_json_it_came_from() {
        let json = json!({
            "type": "object",
            "required": ["port"],
            "properties": {
                "port": {"type": "integer", "minimum": 1, "maximum": 65535, "x-kubernetes-validations": [{"rule": "self > 0"}]},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                "quantity": {"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]},
                "items": {"type": "array", "items": {"x-kubegen-ref": "Item"}, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"]}
            },
            "x-kubernetes-preserve-unknown-fields": true
        });
        let node = Node::from_value(&json).expect("a schema");
        assert_eq!(node.to_value(), json);
    }

    #[test]
    fn a_walk_visits_every_node_parents_first() {
        let node = Node::from_value(&json!({
            "type": "object",
            "properties": {"a": {"type": "array", "items": {"type": "string"}}, "b": {"additionalProperties": {"type": "integer"}}}
        }))
        .expect("a schema");
        let mut seen = Vec::new();
        node.walk(&mut |path: &[Step<'_>], n: &Node| {
            seen.push(format!("{path:?} {}", n.type_.as_deref().unwrap_or("-")));
            true
        });
        assert_eq!(
            seen,
            [
                "[] object",
                "[Property(\"a\")] array",
                "[Property(\"a\"), Items] string",
                "[Property(\"b\")] -",
                "[Property(\"b\"), AdditionalProperties] integer",
            ]
        );
    }

    #[test]
    fn filling_keeps_what_the_node_says_and_adds_what_it_lacks() {
        let mut mine = Node::from_value(&json!({
            "description": "mine", "required": ["a"],
            "properties": {"a": {"type": "string"}}
        }))
        .expect("a schema");
        let theirs = Node::from_value(&json!({
            "description": "theirs", "type": "object", "maxProperties": 3, "required": ["b", "a"],
            "properties": {"a": {"type": "integer"}, "b": {"type": "boolean"}}
        }))
        .expect("a schema");
        mine.fill_from(theirs);
        assert_eq!(
            mine.to_value(),
            json!({
                "description": "mine", "type": "object", "maxProperties": 3, "required": ["a", "b"],
                "properties": {"a": {"type": "string"}, "b": {"type": "boolean"}}
            })
        );
    }
}
