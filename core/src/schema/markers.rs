//! The markers of one schema node (a field, or a type wherever it is used), typed: the
//! derive builds them from either spelling after checking them, the Kubernetes marker
//! tables hold them for Kubernetes' own types, and [`NodeMarkers::apply`] is the one
//! place that says what each does to a structural schema node. They travel from the
//! derive to the structural pass serialized under [`super::MARKERS_KEY`], and are applied
//! after the node is structural (a marker on an `Option<T>` field lands on `T`'s schema)
//! in the order controller-gen applies them (`pkg/crd/markers/priority.go`).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Number, Value};

use super::node::Node;

/// A node's markers.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeMarkers {
    /// Schema facts, applied in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub set: Vec<Set>,
    /// CEL rules, appended to `x-kubernetes-validations`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<Rule>,
    /// `+required` (`Some(true)`) or `+optional` (`Some(false)`): the parent object's
    /// `required` list follows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
    /// `+kubebuilder:validation:items:...`: markers of the array's items.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<Box<NodeMarkers>>,
    /// `skip_description`: no description here or below.
    #[serde(default, skip_serializing_if = "is_false")]
    pub skip_description: bool,
    /// `+kubebuilder:validation:Schemaless`: the node keeps only its description.
    #[serde(default, skip_serializing_if = "is_false")]
    pub schemaless: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// `x-kubernetes-list-type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ListType {
    Atomic,
    Set,
    Map,
}

impl ListType {
    pub fn as_str(self) -> &'static str {
        match self {
            ListType::Atomic => "atomic",
            ListType::Set => "set",
            ListType::Map => "map",
        }
    }
}

/// `x-kubernetes-map-type` (`mapType` and `structType` alike).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MapType {
    Atomic,
    Granular,
}

impl MapType {
    pub fn as_str(self) -> &'static str {
        match self {
            MapType::Atomic => "atomic",
            MapType::Granular => "granular",
        }
    }
}

/// One schema fact a marker sets. Serialized as `[key, value]`, the key being the
/// schema's own (`"minimum"`, `"x-kubernetes-list-type"`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "(String, Value)", into = "(String, Value)")]
pub enum Set {
    /// `+kubebuilder:validation:Type`: replaces what the Rust type implies.
    Type(String),
    Minimum(Number),
    Maximum(Number),
    ExclusiveMinimum(bool),
    ExclusiveMaximum(bool),
    MultipleOf(Number),
    MinLength(u64),
    MaxLength(u64),
    Pattern(String),
    Format(String),
    MinItems(u64),
    MaxItems(u64),
    MinProperties(u64),
    MaxProperties(u64),
    Enum(Vec<Value>),
    Title(String),
    Description(String),
    Nullable(bool),
    ListType(ListType),
    ListMapKeys(Vec<String>),
    MapType(MapType),
    IntOrString,
    PreserveUnknownFields(bool),
    EmbeddedResource(bool),
    Default(Value),
    Example(Value),
    /// `{"url": ..., "description": ...}`.
    ExternalDocs(Map<String, Value>),
    /// `+k8s:required` on a Kubernetes field: present and not empty.
    NonEmpty,
}

impl Set {
    /// The schema key this fact sets.
    pub fn key(&self) -> &'static str {
        match self {
            Set::Type(_) => "type",
            Set::Minimum(_) => "minimum",
            Set::Maximum(_) => "maximum",
            Set::ExclusiveMinimum(_) => "exclusiveMinimum",
            Set::ExclusiveMaximum(_) => "exclusiveMaximum",
            Set::MultipleOf(_) => "multipleOf",
            Set::MinLength(_) => "minLength",
            Set::MaxLength(_) => "maxLength",
            Set::Pattern(_) => "pattern",
            Set::Format(_) => "format",
            Set::MinItems(_) => "minItems",
            Set::MaxItems(_) => "maxItems",
            Set::MinProperties(_) => "minProperties",
            Set::MaxProperties(_) => "maxProperties",
            Set::Enum(_) => "enum",
            Set::Title(_) => "title",
            Set::Description(_) => "description",
            Set::Nullable(_) => "nullable",
            Set::ListType(_) => "x-kubernetes-list-type",
            Set::ListMapKeys(_) => "x-kubernetes-list-map-keys",
            Set::MapType(_) => "x-kubernetes-map-type",
            Set::IntOrString => "x-kubernetes-int-or-string",
            Set::PreserveUnknownFields(_) => "x-kubernetes-preserve-unknown-fields",
            Set::EmbeddedResource(_) => "x-kubernetes-embedded-resource",
            Set::Default(_) => "default",
            Set::Example(_) => "example",
            Set::ExternalDocs(_) => "externalDocs",
            Set::NonEmpty => "x-kubegen-non-empty",
        }
    }

    /// The value the schema key takes.
    pub fn value(&self) -> Value {
        match self {
            Set::Type(s) | Set::Pattern(s) | Set::Format(s) | Set::Title(s) | Set::Description(s) => s.clone().into(),
            Set::Minimum(n) | Set::Maximum(n) | Set::MultipleOf(n) => Value::Number(n.clone()),
            Set::ExclusiveMinimum(b)
            | Set::ExclusiveMaximum(b)
            | Set::Nullable(b)
            | Set::PreserveUnknownFields(b)
            | Set::EmbeddedResource(b) => (*b).into(),
            Set::MinLength(n)
            | Set::MaxLength(n)
            | Set::MinItems(n)
            | Set::MaxItems(n)
            | Set::MinProperties(n)
            | Set::MaxProperties(n) => (*n).into(),
            Set::Enum(values) => Value::Array(values.clone()),
            Set::ListType(t) => serde_json::to_value(t).unwrap_or(Value::Null),
            Set::MapType(t) => serde_json::to_value(t).unwrap_or(Value::Null),
            Set::ListMapKeys(keys) => keys.clone().into(),
            Set::IntOrString | Set::NonEmpty => true.into(),
            Set::Default(v) | Set::Example(v) => v.clone(),
            Set::ExternalDocs(docs) => Value::Object(docs.clone()),
        }
    }
}

impl From<Set> for (String, Value) {
    fn from(set: Set) -> Self {
        (set.key().to_string(), set.value())
    }
}

impl TryFrom<(String, Value)> for Set {
    type Error = String;

    fn try_from((key, value): (String, Value)) -> Result<Self, String> {
        let wrong = || format!("marker `{key}` does not take {value}");
        let string = || value.as_str().map(String::from).ok_or_else(wrong);
        let number = || match &value {
            Value::Number(n) => Ok(n.clone()),
            _ => Err(wrong()),
        };
        let count = || value.as_u64().ok_or_else(wrong);
        let flag = || value.as_bool().ok_or_else(wrong);
        Ok(match key.as_str() {
            "type" => Set::Type(string()?),
            "minimum" => Set::Minimum(number()?),
            "maximum" => Set::Maximum(number()?),
            "exclusiveMinimum" => Set::ExclusiveMinimum(flag()?),
            "exclusiveMaximum" => Set::ExclusiveMaximum(flag()?),
            "multipleOf" => Set::MultipleOf(number()?),
            "minLength" => Set::MinLength(count()?),
            "maxLength" => Set::MaxLength(count()?),
            "pattern" => Set::Pattern(string()?),
            "format" => Set::Format(string()?),
            "minItems" => Set::MinItems(count()?),
            "maxItems" => Set::MaxItems(count()?),
            "minProperties" => Set::MinProperties(count()?),
            "maxProperties" => Set::MaxProperties(count()?),
            "enum" => Set::Enum(value.as_array().cloned().ok_or_else(wrong)?),
            "title" => Set::Title(string()?),
            "description" => Set::Description(string()?),
            "nullable" => Set::Nullable(flag()?),
            "x-kubernetes-list-type" => Set::ListType(typed(&value).ok_or_else(wrong)?),
            "x-kubernetes-list-map-keys" => Set::ListMapKeys(typed(&value).ok_or_else(wrong)?),
            "x-kubernetes-map-type" => Set::MapType(typed(&value).ok_or_else(wrong)?),
            "x-kubernetes-int-or-string" => Set::IntOrString,
            "x-kubernetes-preserve-unknown-fields" => Set::PreserveUnknownFields(flag()?),
            "x-kubernetes-embedded-resource" => Set::EmbeddedResource(flag()?),
            "default" => Set::Default(value),
            "example" => Set::Example(value),
            "externalDocs" => Set::ExternalDocs(value.as_object().cloned().ok_or_else(wrong)?),
            "x-kubegen-non-empty" => Set::NonEmpty,
            _ => return Err(format!("`{key}` is not a schema marker")),
        })
    }
}

fn typed<T: serde::de::DeserializeOwned>(value: &Value) -> Option<T> {
    serde_json::from_value(value.clone()).ok()
}

/// A CEL rule as an apiextensions `ValidationRule` writes it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Rule {
    #[serde(default)]
    pub rule: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_expression: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field_path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optional_old_self: Option<bool>,
}

impl NodeMarkers {
    pub fn is_empty(&self) -> bool {
        *self == NodeMarkers::default()
    }

    /// Applies the markers to a structural `node`; returns the `required` marker for the
    /// parent object.
    pub fn apply(&self, node: &mut Node) -> Option<bool> {
        if self.schemaless {
            *node =
                Node { description: node.description.take(), preserve_unknown_fields: Some(true), ..Node::default() };
        }
        for set in &self.set {
            set.apply(node);
        }
        if !self.rules.is_empty() {
            node.validations.get_or_insert_with(Vec::new).extend(self.rules.iter().cloned());
        }
        if let Some(items) = &self.items
            && let Some(item_node) = node.items.as_deref_mut()
        {
            items.apply(item_node);
        }
        if self.skip_description {
            node.walk_mut(&mut |n: &mut Node| n.description = None);
        }
        self.required
    }
}

impl Set {
    /// What the fact does to a node that may already hold other facts (the type's own
    /// markers, or what the Rust type implies).
    pub fn apply(&self, node: &mut Node) {
        // A bound already there still holds, as controller-gen keeps both: the stricter
        // one is the pair's meaning.
        fn stricter(slot: &mut Option<u64>, new: u64, upper: bool) {
            if slot.is_none_or(|old| if upper { new < old } else { new > old }) {
                *slot = Some(new);
            }
        }
        fn stricter_number(slot: &mut Option<Number>, new: &Number, upper: bool) {
            let looser = match (slot.as_ref().and_then(Number::as_f64), new.as_f64()) {
                (Some(old), Some(new)) => {
                    if upper {
                        old < new
                    } else {
                        old > new
                    }
                }
                _ => false,
            };
            if !looser {
                *slot = Some(new.clone());
            }
        }
        // Two patterns (or multiples) must both match: the second joins `allOf`.
        fn second<T: PartialEq + Clone>(node: &mut Node, new: &T, slot: fn(&mut Node) -> &mut Option<T>) {
            match slot(node) {
                Some(old) if old != new => {
                    let mut part = Node::default();
                    *slot(&mut part) = Some(new.clone());
                    node.all_of.get_or_insert_with(Vec::new).push(part);
                }
                other => *other = Some(new.clone()),
            }
        }
        match self {
            Set::Type(t) => {
                node.int_or_string = None;
                node.any_of = None;
                if t == "object" || t == "array" {
                    node.enum_ = None;
                } else {
                    node.properties = None;
                    node.required = None;
                    node.additional_properties = None;
                }
                if t != "array" {
                    node.items = None;
                }
                node.type_ = Some(t.clone());
            }
            Set::IntOrString => {
                node.type_ = None;
                node.format = None;
                node.int_or_string = Some(true);
                node.any_of = Some(vec![Node::of_type("integer"), Node::of_type("string")]);
            }
            Set::NonEmpty => match node.type_.as_deref() {
                Some("string") => _ = node.min_length.get_or_insert(1),
                Some("array") => _ = node.min_items.get_or_insert(1),
                Some("object") => _ = node.min_properties.get_or_insert(1),
                _ => {}
            },
            // An embedded object is an object to the API server, whatever the Rust type.
            Set::EmbeddedResource(b) => {
                node.type_.get_or_insert_with(|| "object".into());
                node.embedded_resource = Some(*b);
            }
            Set::Minimum(n) => stricter_number(&mut node.minimum, n, false),
            Set::Maximum(n) => stricter_number(&mut node.maximum, n, true),
            Set::MinLength(n) => stricter(&mut node.min_length, *n, false),
            Set::MaxLength(n) => stricter(&mut node.max_length, *n, true),
            Set::MinItems(n) => stricter(&mut node.min_items, *n, false),
            Set::MaxItems(n) => stricter(&mut node.max_items, *n, true),
            Set::MinProperties(n) => stricter(&mut node.min_properties, *n, false),
            Set::MaxProperties(n) => stricter(&mut node.max_properties, *n, true),
            Set::Pattern(p) => second(node, p, |n| &mut n.pattern),
            Set::MultipleOf(m) => second(node, m, |n| &mut n.multiple_of),
            Set::ExclusiveMinimum(b) => node.exclusive_minimum = Some(*b),
            Set::ExclusiveMaximum(b) => node.exclusive_maximum = Some(*b),
            Set::Format(f) => node.format = Some(f.clone()),
            Set::Enum(values) => node.enum_ = Some(values.clone()),
            Set::Title(t) => node.title = Some(t.clone()),
            Set::Description(d) => node.description = Some(d.clone()),
            Set::Nullable(b) => node.nullable = Some(*b),
            Set::ListType(t) => node.list_type = Some(t.as_str().into()),
            Set::ListMapKeys(keys) => node.list_map_keys = Some(keys.clone()),
            Set::MapType(t) => node.map_type = Some(t.as_str().into()),
            Set::PreserveUnknownFields(b) => node.preserve_unknown_fields = Some(*b),
            Set::Default(v) => node.default = Some(v.clone()),
            Set::Example(v) => node.example = Some(v.clone()),
            Set::ExternalDocs(docs) => node.external_docs = Some(Value::Object(docs.clone())),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn facts_travel_as_key_value_pairs() {
        let markers = NodeMarkers {
            set: vec![Set::Minimum(1.into()), Set::ListType(ListType::Map), Set::IntOrString],
            required: Some(true),
            ..Default::default()
        };
        let text = serde_json::to_string(&markers).unwrap();
        assert_eq!(
            text,
            r#"{"set":[["minimum",1],["x-kubernetes-list-type","map"],["x-kubernetes-int-or-string",true]],"required":true}"#
        );
        assert_eq!(serde_json::from_str::<NodeMarkers>(&text).unwrap(), markers);
    }

    #[test]
    fn a_wrong_value_or_key_is_refused() {
        assert!(serde_json::from_str::<Set>(r#"["minLength", "x"]"#).is_err());
        assert!(serde_json::from_str::<Set>(r#"["x-kubernetes-list-type", "bag"]"#).is_err());
        assert!(serde_json::from_str::<Set>(r#"["maximumm", 1]"#).is_err());
    }

    #[test]
    fn the_stricter_bound_and_both_patterns_hold() {
        let mut node = Node::default();
        Set::Maximum(10.into()).apply(&mut node);
        Set::Maximum(20.into()).apply(&mut node);
        Set::Pattern("^a".into()).apply(&mut node);
        Set::Pattern("b$".into()).apply(&mut node);
        assert_eq!(node.to_value(), json!({"maximum": 10, "pattern": "^a", "allOf": [{"pattern": "b$"}]}));
    }

    #[cfg(feature = "k8s")]
    #[test]
    fn every_kubernetes_table_reads_as_typed_markers() {
        for table in [
            include_str!("../k8s/tables/v1_33.json"),
            include_str!("../k8s/tables/v1_34.json"),
            include_str!("../k8s/tables/v1_35.json"),
            include_str!("../k8s/tables/v1_36.json"),
            include_str!("../k8s/tables/v1_37.json"),
        ] {
            let table: Map<String, Value> = serde_json::from_str(table).unwrap();
            for (name, entry) in table {
                let nodes = entry
                    .get("markers")
                    .into_iter()
                    .chain(entry.get("properties").and_then(Value::as_object).into_iter().flat_map(|p| p.values()));
                for node in nodes {
                    if let Err(e) = serde_json::from_value::<NodeMarkers>(node.clone()) {
                        panic!("{name}: {e}: {node}");
                    }
                }
            }
        }
    }
}
