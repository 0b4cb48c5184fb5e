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
}
