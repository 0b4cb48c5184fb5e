//! The one reading of a client model's schema node that every client language shares:
//! what value the node holds ([`shape`]) and what bounds it sets ([`Bounds`]). Each
//! language spells the cases in its own types and constraints; none reads the node's
//! keys itself.

use serde_json::{Map, Value};

use super::REF_KEY;

/// Kubernetes' types whose wire form is not what their Go struct suggests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WireForm {
    /// `resource.Quantity`: an integer, or a string in its notation.
    Quantity,
    /// `intstr.IntOrString`.
    IntOrString,
    /// `metav1.Time` and `MicroTime`: an RFC 3339 string.
    Time,
    /// `runtime.RawExtension`: any object, kept as sent.
    Raw,
}

/// What a schema node holds.
#[derive(Clone, Copy, Debug)]
pub enum Shape<'n> {
    /// A named type of the package.
    Named(&'n str),
    /// A Kubernetes type, by its OpenAPI definition name
    /// (`io.k8s.api.core.v1.PodSpec`); `wire` when its wire form is its own.
    Kubernetes {
        name: &'n str,
        wire: Option<WireForm>,
    },
    /// `x-kubernetes-int-or-string` on an unnamed node.
    IntOrString,
    /// A string; `values` when it is one of a closed set.
    String {
        format: Option<&'n str>,
        values: Option<&'n [Value]>,
    },
    /// An integer; `values` when it is one of a closed set.
    Integer {
        format: Option<&'n str>,
        values: Option<&'n [Value]>,
    },
    /// A number; `values` when it is one of a closed set.
    Number {
        values: Option<&'n [Value]>,
    },
    Boolean,
    /// A list of its items' node.
    List(&'n Map<String, Value>),
    /// An object with named fields.
    Struct,
    /// A map of its values' node.
    Map(&'n Map<String, Value>),
    /// An object without fields that keeps whatever it is sent.
    Open,
    /// An object without fields that drops whatever it is sent.
    Empty,
    /// A node without a type: any value.
    Any,
}

/// An empty node, for a list without `items` or a map without values.
fn empty() -> &'static Map<String, Value> {
    static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
    EMPTY.get_or_init(Map::new)
}

/// The shape of `node`: a reference first, then int-or-string, then its type.
pub fn shape(node: &Map<String, Value>) -> Shape<'_> {
    if let Some(Value::String(name)) = node.get(REF_KEY) {
        if !name.starts_with("io.k8s.") {
            return Shape::Named(name);
        }
        let wire = match name.as_str() {
            "io.k8s.apimachinery.pkg.api.resource.Quantity" => Some(WireForm::Quantity),
            "io.k8s.apimachinery.pkg.util.intstr.IntOrString" => Some(WireForm::IntOrString),
            "io.k8s.apimachinery.pkg.apis.meta.v1.Time" | "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime" => {
                Some(WireForm::Time)
            }
            "io.k8s.apimachinery.pkg.runtime.RawExtension" => Some(WireForm::Raw),
            _ => None,
        };
        return Shape::Kubernetes { name, wire };
    }
    if flag(node, "x-kubernetes-int-or-string") {
        return Shape::IntOrString;
    }
    let format = node.get("format").and_then(Value::as_str);
    let values = node.get("enum").and_then(Value::as_array).map(Vec::as_slice);
    match node.get("type").and_then(Value::as_str) {
        Some("string") => Shape::String { format, values },
        Some("integer") => Shape::Integer { format, values },
        Some("number") => Shape::Number { values },
        Some("boolean") => Shape::Boolean,
        Some("array") => Shape::List(node.get("items").and_then(Value::as_object).unwrap_or(empty())),
        Some("object") if node.contains_key("properties") => Shape::Struct,
        Some("object") if node.contains_key("additionalProperties") => {
            Shape::Map(node.get("additionalProperties").and_then(Value::as_object).unwrap_or(empty()))
        }
        Some("object") if flag(node, "x-kubernetes-preserve-unknown-fields") => Shape::Open,
        Some("object") => Shape::Empty,
        _ => Shape::Any,
    }
}

/// `key` is `true` on the node.
pub fn flag(node: &Map<String, Value>, key: &str) -> bool {
    node.get(key) == Some(&Value::Bool(true))
}

/// A bound with its exclusivity.
#[derive(Clone, Copy, Debug)]
pub struct Limit<'n> {
    pub value: &'n Value,
    pub exclusive: bool,
}

/// The value bounds a node sets, each read once.
#[derive(Clone, Debug, Default)]
pub struct Bounds<'n> {
    pub minimum: Option<Limit<'n>>,
    pub maximum: Option<Limit<'n>>,
    pub multiple_of: Option<&'n Value>,
    pub min_length: Option<&'n Value>,
    pub max_length: Option<&'n Value>,
    pub min_items: Option<&'n Value>,
    pub max_items: Option<&'n Value>,
    pub min_properties: Option<&'n Value>,
    pub max_properties: Option<&'n Value>,
    pub pattern: Option<&'n str>,
    /// What `allOf` adds beside the node's own: a second pattern or multiple.
    pub all_of: Vec<Bounds<'n>>,
}

impl<'n> Bounds<'n> {
    pub fn of(node: &'n Map<String, Value>) -> Self {
        let limit =
            |key: &str, exclusive: &str| node.get(key).map(|value| Limit { value, exclusive: flag(node, exclusive) });
        Bounds {
            minimum: limit("minimum", "exclusiveMinimum"),
            maximum: limit("maximum", "exclusiveMaximum"),
            multiple_of: node.get("multipleOf"),
            min_length: node.get("minLength"),
            max_length: node.get("maxLength"),
            min_items: node.get("minItems"),
            max_items: node.get("maxItems"),
            min_properties: node.get("minProperties"),
            max_properties: node.get("maxProperties"),
            pattern: node.get("pattern").and_then(Value::as_str),
            all_of: node
                .get("allOf")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_object)
                .map(Bounds::of)
                .collect(),
        }
    }

    /// The counts, each with the name of its schema key, in the schema's order: lengths,
    /// items, properties.
    pub fn counts(&self) -> [(&'static str, Option<&'n Value>); 6] {
        [
            ("minLength", self.min_length),
            ("maxLength", self.max_length),
            ("minItems", self.min_items),
            ("maxItems", self.max_items),
            ("minProperties", self.min_properties),
            ("maxProperties", self.max_properties),
        ]
    }

    /// Every pattern the value must match: its own, then those in `allOf`.
    pub fn patterns(&self) -> impl Iterator<Item = &'n str> + '_ {
        self.pattern.into_iter().chain(self.all_of.iter().filter_map(|b| b.pattern))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn node(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap()
    }

    #[test]
    fn a_reference_comes_before_the_node_s_own_keys() {
        let n = node(json!({"x-kubegen-ref": "Label", "type": "string"}));
        assert!(matches!(shape(&n), Shape::Named("Label")));
        let n = node(json!({"x-kubegen-ref": "io.k8s.apimachinery.pkg.api.resource.Quantity"}));
        assert!(matches!(shape(&n), Shape::Kubernetes { wire: Some(WireForm::Quantity), .. }));
        let n = node(json!({"x-kubernetes-int-or-string": true, "pattern": "^a"}));
        assert!(matches!(shape(&n), Shape::IntOrString));
    }

    #[test]
    fn objects_are_structs_maps_open_or_empty() {
        assert!(matches!(shape(&node(json!({"type": "object", "properties": {}}))), Shape::Struct));
        assert!(matches!(
            shape(&node(json!({"type": "object", "additionalProperties": {"type": "string"}}))),
            Shape::Map(_)
        ));
        assert!(matches!(
            shape(&node(json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}))),
            Shape::Open
        ));
        assert!(matches!(shape(&node(json!({"type": "object"}))), Shape::Empty));
        assert!(matches!(shape(&node(json!({}))), Shape::Any));
    }

    #[test]
    fn bounds_read_allof_beside_the_node_s_own() {
        let n = node(json!({"pattern": "^a", "maximum": 3, "exclusiveMaximum": true, "allOf": [{"pattern": "b$"}]}));
        let b = Bounds::of(&n);
        assert_eq!(b.patterns().collect::<Vec<_>>(), ["^a", "b$"]);
        assert!(b.maximum.is_some_and(|m| m.exclusive && m.value == &json!(3)));
        assert!(b.minimum.is_none());
    }
}
