//! The markers of one schema node (a field, or a type wherever it is used), typed: the
//! derive builds them from either spelling after checking them, the Kubernetes marker
//! tables hold them for Kubernetes' own types, and [`NodeMarkers::apply`] is the one
//! place that says what each does to a structural schema node. They travel from the
//! derive to the structural pass serialized under [`super::MARKERS_KEY`], and are applied
//! after the node is structural (a marker on an `Option<T>` field lands on `T`'s schema)
//! in the order controller-gen applies them (`pkg/crd/markers/priority.go`).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Number, Value};

/// A node's markers. Unknown keys are refused: a newer derive's markers read by an older
/// runtime are reported, not dropped in silence.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NodeMarkers {
    /// Schema facts, applied in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub set: Vec<Fact>,
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

/// The schema facts markers set, each declared once: its variant, its value's type and
/// form, and the schema key it sets (the schema's own: `"minimum"`,
/// `"x-kubernetes-list-type"`). The table makes [`Fact`] (a fact with its value),
/// [`FactKind`] (which fact, for the marker registry's link) and their keys, values and
/// parsing; what each fact does to a node is [`Fact::apply`]'s, the one place of meaning.
macro_rules! facts {
    (
        $( $(#[$doc:meta])* $fact:ident($ty:ty: $form:ident) = $key:literal, )*
        ;
        $( $(#[$unit_doc:meta])* $unit:ident = $unit_key:literal, )*
    ) => {
        /// One schema fact a marker sets. Serialized as `[key, value]`.
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[serde(try_from = "(String, Value)", into = "(String, Value)")]
        pub enum Fact {
            $( $(#[$doc])* $fact($ty), )*
            $( $(#[$unit_doc])* $unit, )*
        }

        /// Which fact a marker sets, without its value: the marker registry's link to it.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum FactKind {
            $( $fact, )*
            $( $unit, )*
        }

        impl FactKind {
            /// Every fact, in the table's order.
            pub const ALL: &[FactKind] = &[$(FactKind::$fact,)* $(FactKind::$unit,)*];

            /// The schema key the fact sets.
            pub const fn key(self) -> &'static str {
                match self {
                    $( FactKind::$fact => $key, )*
                    $( FactKind::$unit => $unit_key, )*
                }
            }

            /// Whether the fact's value is a count (`minLength`, `maxItems`, ...): a
            /// non-negative integer.
            pub const fn is_count(self) -> bool {
                match self {
                    $( FactKind::$fact => form::$form::COUNT, )*
                    $( FactKind::$unit => false, )*
                }
            }

            /// The fact that sets `key`.
            pub fn of_key(key: &str) -> Option<FactKind> {
                FactKind::ALL.iter().copied().find(|k| k.key() == key)
            }

            /// The fact with `value`, or why the fact does not take it.
            pub fn read(self, value: &Value) -> Result<Fact, String> {
                let fact = match self {
                    $( FactKind::$fact => form::$form::read(value).map(Fact::$fact), )*
                    // A flag that is there: the schema key's value is `true`.
                    $( FactKind::$unit => Some(Fact::$unit), )*
                };
                fact.ok_or_else(|| format!("marker `{}` does not take {value}", self.key()))
            }
        }

        impl Fact {
            /// Which fact this is.
            pub fn kind(&self) -> FactKind {
                match self {
                    $( Fact::$fact(_) => FactKind::$fact, )*
                    $( Fact::$unit => FactKind::$unit, )*
                }
            }

            /// The value the schema key takes.
            pub fn value(&self) -> Value {
                match self {
                    $( Fact::$fact(v) => form::$form::write(v), )*
                    $( Fact::$unit => Value::Bool(true), )*
                }
            }
        }
    };
}

facts! {
    /// `+kubebuilder:validation:Type`: replaces what the Rust type implies.
    Type(String: string) = "type",
    Minimum(Number: number) = "minimum",
    Maximum(Number: number) = "maximum",
    ExclusiveMinimum(bool: flag) = "exclusiveMinimum",
    ExclusiveMaximum(bool: flag) = "exclusiveMaximum",
    MultipleOf(Number: number) = "multipleOf",
    MinLength(u64: count) = "minLength",
    MaxLength(u64: count) = "maxLength",
    Pattern(String: string) = "pattern",
    Format(String: string) = "format",
    MinItems(u64: count) = "minItems",
    MaxItems(u64: count) = "maxItems",
    MinProperties(u64: count) = "minProperties",
    MaxProperties(u64: count) = "maxProperties",
    Enum(Vec<Value>: array) = "enum",
    Title(String: string) = "title",
    Description(String: string) = "description",
    Nullable(bool: flag) = "nullable",
    ListType(ListType: typed) = "x-kubernetes-list-type",
    ListMapKeys(Vec<String>: typed) = "x-kubernetes-list-map-keys",
    MapType(MapType: typed) = "x-kubernetes-map-type",
    PreserveUnknownFields(bool: flag) = "x-kubernetes-preserve-unknown-fields",
    EmbeddedResource(bool: flag) = "x-kubernetes-embedded-resource",
    Default(Value: any) = "default",
    Example(Value: any) = "example",
    /// `{"url": ..., "description": ...}`.
    ExternalDocs(Map<String, Value>: object) = "externalDocs",
    ;
    IntOrString = "x-kubernetes-int-or-string",
    /// `+k8s:required` on a Kubernetes field: present and not empty.
    NonEmpty = "x-kubegen-non-empty",
}

impl Fact {
    /// The schema key this fact sets.
    pub fn key(&self) -> &'static str {
        self.kind().key()
    }
}

/// How a fact's value is read from and written as JSON, by form.
mod form {
    pub mod string {
        pub const COUNT: bool = false;
        use serde_json::Value;
        pub fn read(v: &Value) -> Option<String> {
            v.as_str().map(String::from)
        }
        pub fn write(s: &str) -> Value {
            Value::String(s.to_string())
        }
    }
    pub mod number {
        pub const COUNT: bool = false;
        use serde_json::{Number, Value};
        pub fn read(v: &Value) -> Option<Number> {
            match v {
                Value::Number(n) => Some(n.clone()),
                _ => None,
            }
        }
        pub fn write(n: &Number) -> Value {
            Value::Number(n.clone())
        }
    }
    pub mod count {
        pub const COUNT: bool = true;
        use serde_json::Value;
        pub fn read(v: &Value) -> Option<u64> {
            v.as_u64()
        }
        pub fn write(n: &u64) -> Value {
            (*n).into()
        }
    }
    pub mod flag {
        pub const COUNT: bool = false;
        use serde_json::Value;
        pub fn read(v: &Value) -> Option<bool> {
            v.as_bool()
        }
        pub fn write(b: &bool) -> Value {
            (*b).into()
        }
    }
    pub mod array {
        pub const COUNT: bool = false;
        use serde_json::Value;
        pub fn read(v: &Value) -> Option<Vec<Value>> {
            v.as_array().cloned()
        }
        pub fn write(values: &[Value]) -> Value {
            Value::Array(values.to_vec())
        }
    }
    pub mod object {
        pub const COUNT: bool = false;
        use serde_json::{Map, Value};
        pub fn read(v: &Value) -> Option<Map<String, Value>> {
            v.as_object().cloned()
        }
        pub fn write(map: &Map<String, Value>) -> Value {
            Value::Object(map.clone())
        }
    }
    pub mod any {
        pub const COUNT: bool = false;
        use serde_json::Value;
        pub fn read(v: &Value) -> Option<Value> {
            Some(v.clone())
        }
        pub fn write(v: &Value) -> Value {
            v.clone()
        }
    }
    /// A value of its own serde form (`"map"`, `["name"]`).
    pub mod typed {
        pub const COUNT: bool = false;
        use serde_json::Value;
        pub fn read<T: serde::de::DeserializeOwned>(v: &Value) -> Option<T> {
            serde_json::from_value(v.clone()).ok()
        }
        pub fn write<T: serde::Serialize>(t: &T) -> Value {
            serde_json::to_value(t).unwrap_or(Value::Null)
        }
    }
}

impl From<Fact> for (String, Value) {
    fn from(fact: Fact) -> Self {
        (fact.key().to_string(), fact.value())
    }
}

impl TryFrom<(String, Value)> for Fact {
    type Error = String;

    fn try_from((key, value): (String, Value)) -> Result<Self, String> {
        FactKind::of_key(&key).ok_or_else(|| format!("`{key}` is not a schema marker"))?.read(&value)
    }
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
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn facts_travel_as_key_value_pairs() {
        let markers = NodeMarkers {
            set: vec![Fact::Minimum(1.into()), Fact::ListType(ListType::Map), Fact::IntOrString],
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
    fn every_fact_reads_back_as_written() {
        let mut keys = std::collections::BTreeSet::new();
        for kind in FactKind::ALL {
            assert!(keys.insert(kind.key()), "`{}` is the key of two facts", kind.key());
            let value = match kind.key() {
                "x-kubernetes-list-type" => json!("map"),
                "x-kubernetes-map-type" => json!("atomic"),
                "x-kubernetes-list-map-keys" | "enum" => json!(["a"]),
                "externalDocs" => json!({"url": "https://example.com"}),
                _ if kind.is_count() => json!(3),
                "minimum" | "maximum" | "multipleOf" => json!(0.9215686321258545),
                "exclusiveMinimum"
                | "exclusiveMaximum"
                | "nullable"
                | "x-kubernetes-preserve-unknown-fields"
                | "x-kubernetes-embedded-resource"
                | "x-kubernetes-int-or-string"
                | "x-kubegen-non-empty" => {
                    json!(true)
                }
                _ => json!("text"),
            };
            let fact = kind.read(&value).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!((fact.kind(), fact.value()), (*kind, value.clone()));
            let markers = NodeMarkers { set: vec![fact], ..Default::default() };
            let text = serde_json::to_string(&markers).unwrap();
            assert_eq!(serde_json::from_str::<NodeMarkers>(&text).unwrap(), markers, "{text}");
        }
    }

    #[test]
    fn a_wrong_value_or_key_is_refused() {
        assert!(serde_json::from_str::<Fact>(r#"["minLength", "x"]"#).is_err());
        assert!(serde_json::from_str::<Fact>(r#"["x-kubernetes-list-type", "bag"]"#).is_err());
        assert!(serde_json::from_str::<Fact>(r#"["maximumm", 1]"#).is_err());
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
