//! The one reading of a client model's schema node that every client language shares:
//! what value the node holds ([`shape`]) and what bounds it sets ([`Bounds`]). Each
//! language spells the cases in its own types and constraints; none reads the node's
//! keys itself.

use kubegen_core::schema::node::{Additional, Node};
use serde_json::Value;

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
    List(&'n Node),
    /// An object with named fields.
    Struct,
    /// A map of its values' node.
    Map(&'n Node),
    /// An object without fields that keeps whatever it is sent.
    Open,
    /// An object without fields that drops whatever it is sent.
    Empty,
    /// A node without a type: any value.
    Any,
}

/// An empty node, for a list without `items` or a map without a values schema.
fn empty() -> &'static Node {
    static EMPTY: std::sync::OnceLock<Node> = std::sync::OnceLock::new();
    EMPTY.get_or_init(Node::default)
}

/// The wire form of a Kubernetes definition, where it is not what its Go struct suggests.
pub fn wire_form(definition: &str) -> Option<WireForm> {
    match definition {
        "io.k8s.apimachinery.pkg.api.resource.Quantity" => Some(WireForm::Quantity),
        "io.k8s.apimachinery.pkg.util.intstr.IntOrString" => Some(WireForm::IntOrString),
        "io.k8s.apimachinery.pkg.apis.meta.v1.Time" | "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime" => {
            Some(WireForm::Time)
        }
        "io.k8s.apimachinery.pkg.runtime.RawExtension" => Some(WireForm::Raw),
        _ => None,
    }
}

/// The shape of `node`: a reference first, then int-or-string, then its type.
pub fn shape(node: &Node) -> Shape<'_> {
    if let Some(name) = node.reference.as_deref() {
        if !name.starts_with("io.k8s.") {
            return Shape::Named(name);
        }
        return Shape::Kubernetes { name, wire: wire_form(name) };
    }
    if is(node.int_or_string) {
        return Shape::IntOrString;
    }
    let format = node.format.as_deref();
    let values = node.enum_.as_deref();
    match node.type_.as_deref() {
        Some("string") => Shape::String { format, values },
        Some("integer") => Shape::Integer { format, values },
        Some("number") => Shape::Number { values },
        Some("boolean") => Shape::Boolean,
        Some("array") => Shape::List(node.items.as_deref().unwrap_or(empty())),
        Some("object") if node.properties.is_some() => Shape::Struct,
        Some("object") if node.additional_properties.is_some() => Shape::Map(match &node.additional_properties {
            Some(Additional::Schema(values)) => values,
            _ => empty(),
        }),
        Some("object") if is(node.preserve_unknown_fields) => Shape::Open,
        Some("object") => Shape::Empty,
        _ => Shape::Any,
    }
}

/// A flag of the schema that is set, and `true`.
pub fn is(flag: Option<bool>) -> bool {
    flag == Some(true)
}

/// A bound with its exclusivity.
#[derive(Clone, Debug)]
pub struct Limit {
    pub value: Value,
    pub exclusive: bool,
}

/// The bound is `edge`, inclusive.
fn at(limit: &Option<Limit>, edge: i64) -> bool {
    limit.as_ref().is_some_and(|l| !l.exclusive && l.value.as_i64() == Some(edge))
}

/// The value bounds a node sets, each read once.
#[derive(Clone, Debug, Default)]
pub struct Bounds<'n> {
    pub minimum: Option<Limit>,
    pub maximum: Option<Limit>,
    pub multiple_of: Option<Value>,
    pub min_length: Option<Value>,
    pub max_length: Option<Value>,
    pub min_items: Option<Value>,
    pub max_items: Option<Value>,
    pub min_properties: Option<Value>,
    pub max_properties: Option<Value>,
    pub pattern: Option<&'n str>,
    /// What `allOf` adds beside the node's own: a second pattern or multiple.
    pub all_of: Vec<Bounds<'n>>,
}

impl<'n> Bounds<'n> {
    /// What the node bounds beyond its type: a `minimum`/`maximum` that is exactly the range
    /// its integer format or int-or-string implies (`formats::implied_range`, which
    /// kubegen's CRDs carry because the server does not check formats) goes unsaid where the
    /// type says it — Go's `int32` and `intstr.IntOrString`, a reference's "integer
    /// (int32)", TypeScript's `Format: int32.`. A language whose type does not hold the
    /// range (Python's `int`) reads [`Bounds::all`].
    pub fn of(node: &'n Node) -> Self {
        let mut out = Self::all(node);
        if let Some((min, max)) =
            kubegen_core::schema::formats::implied_range(node.format.as_deref(), is(node.int_or_string))
        {
            if at(&out.minimum, min) {
                out.minimum = None;
            }
            if at(&out.maximum, max) {
                out.maximum = None;
            }
        }
        out
    }

    /// The node holds its integers to exactly int32's range (inclusive at both ends).
    pub fn is_int32(&self) -> bool {
        at(&self.minimum, i32::MIN.into()) && at(&self.maximum, i32::MAX.into())
    }

    /// Every bound the node sets, a format's range included.
    pub fn all(node: &'n Node) -> Self {
        let number = |n: &Option<serde_json::Number>| n.clone().map(Value::Number);
        let limit = |n: &Option<serde_json::Number>, exclusive: Option<bool>| {
            number(n).map(|value| Limit { value, exclusive: is(exclusive) })
        };
        let count = |n: Option<u64>| n.map(Value::from);
        Bounds {
            minimum: limit(&node.minimum, node.exclusive_minimum),
            maximum: limit(&node.maximum, node.exclusive_maximum),
            multiple_of: number(&node.multiple_of),
            min_length: count(node.min_length),
            max_length: count(node.max_length),
            min_items: count(node.min_items),
            max_items: count(node.max_items),
            min_properties: count(node.min_properties),
            max_properties: count(node.max_properties),
            pattern: node.pattern.as_deref(),
            all_of: node.all_of.iter().flatten().map(Bounds::all).collect(),
        }
    }

    /// The counts, each with the name of its schema key, in the schema's order: lengths,
    /// items, properties.
    pub fn counts(&self) -> [(&'static str, Option<&Value>); 6] {
        [
            ("minLength", self.min_length.as_ref()),
            ("maxLength", self.max_length.as_ref()),
            ("minItems", self.min_items.as_ref()),
            ("maxItems", self.max_items.as_ref()),
            ("minProperties", self.min_properties.as_ref()),
            ("maxProperties", self.max_properties.as_ref()),
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

    fn node(v: Value) -> Node {
        Node::from_value(&v).unwrap()
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
        assert!(b.maximum.is_some_and(|m| m.exclusive && m.value == json!(3)));
        assert!(b.minimum.is_none());
    }

    /// issue 28: an int32's range is in the CRD (the server does not check formats); where
    /// the format is said it goes unsaid, and a bound inside it stays.
    #[test]
    fn a_formats_range_goes_unsaid_beside_the_format() {
        let n = node(json!({"type": "integer", "format": "int32", "minimum": -2147483648, "maximum": 2147483647}));
        assert!(Bounds::of(&n).minimum.is_none() && Bounds::of(&n).maximum.is_none());
        assert!(Bounds::all(&n).minimum.is_some() && Bounds::all(&n).maximum.is_some());
        let n = node(json!({"type": "integer", "format": "int32", "minimum": 0, "maximum": 2147483647}));
        assert_eq!(Bounds::of(&n).minimum.map(|l| l.value), Some(json!(0)));
        assert!(Bounds::of(&n).maximum.is_none());
        let n = node(json!({"type": "integer", "minimum": 0, "maximum": 4294967295u32}));
        assert!(Bounds::of(&n).maximum.is_some(), "no format to say it");
    }
}
