//! The CEL type of a structural schema node, as the API server declares it for rules
//! (k8s.io/apiserver `pkg/cel/common/schemas.go` `SchemaDeclType`), with the size bounds
//! its cost estimator uses: a string, list or map without `maxLength`/`maxItems`/
//! `maxProperties` is as large as a request allows.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use kubegen_core::schema::node::Node;
use serde_json::Value;

use crate::names::identifiers;

/// The largest request the API server takes (3 MiB); bounds every unbounded size.
pub const MAX_REQUEST_BYTES: u64 = 3 * 1024 * 1024;

/// How large a value can be: its most elements, characters or bytes, and where that
/// bound came from when the schema gave none (the node to bound: `spec.hosts`).
#[derive(Clone, Debug, Default)]
pub struct Size {
    pub max: Option<u64>,
    pub unbounded: Option<Arc<str>>,
}

impl Size {
    pub fn known(max: u64) -> Size {
        Size { max: Some(max), unbounded: None }
    }

    fn estimated(max: u64, path: &str) -> Size {
        Size { max: Some(max), unbounded: Some(path.into()) }
    }
}

/// A CEL type. Sizes ride along for cost and never take part in type equality.
#[derive(Clone, Debug)]
pub enum Ty {
    Dyn,
    /// `x-kubernetes-int-or-string`: dyn to the checker, as long as the longest string
    /// to the cost estimator.
    IntOrString(Size),
    Null,
    Bool,
    Int,
    Uint,
    Double,
    String(Size),
    Bytes(Size),
    Duration,
    Timestamp,
    List(Box<Ty>, Size),
    Map(Box<Ty>, Box<Ty>, Size),
    Object(Arc<Object>),
    /// Kubernetes' library types: `net.IP`, `net.CIDR`, `kubernetes.URL`,
    /// `kubernetes.Quantity`, `kubernetes.Semver`, `kubernetes.NamedFormat`.
    Opaque(&'static str, Size),
    Optional(Box<Ty>),
    /// The value of `type(x)` or of a type name such as `int`.
    Type(Box<Ty>),
    /// A type parameter of an overload (`A` in `list(A).size()`); only in signatures.
    Param(char),
}

/// An object with declared properties, by their CEL names.
#[derive(Debug, Default)]
pub struct Object {
    /// Where the object sits, for messages (`spec.template`).
    pub path: String,
    pub fields: BTreeMap<String, Ty>,
}

pub fn string() -> Ty {
    Ty::String(Size::default())
}

pub fn list(t: Ty) -> Ty {
    Ty::List(Box::new(t), Size::default())
}

pub fn map(k: Ty, v: Ty) -> Ty {
    Ty::Map(Box::new(k), Box::new(v), Size::default())
}

impl Ty {
    /// The same type without the sizes the schema gave it: a value computed from
    /// schema values (a function's result, a comprehension's items) has no path the
    /// server's estimator can size it by.
    pub fn without_sizes(&self) -> Ty {
        match self {
            Ty::String(_) => string(),
            Ty::Bytes(_) => Ty::Bytes(Size::default()),
            Ty::IntOrString(_) => Ty::IntOrString(Size::default()),
            Ty::Opaque(n, _) => Ty::Opaque(n, Size::default()),
            Ty::List(t, _) => list(t.without_sizes()),
            Ty::Map(k, v, _) => map(k.without_sizes(), v.without_sizes()),
            Ty::Optional(t) => Ty::Optional(Box::new(t.without_sizes())),
            Ty::Object(o) => Ty::Object(Arc::new(Object {
                path: o.path.clone(),
                fields: o.fields.iter().map(|(k, v)| (k.clone(), v.without_sizes())).collect(),
            })),
            other => other.clone(),
        }
    }

    /// The size bound of a string, bytes, list or map.
    pub fn size(&self) -> Option<&Size> {
        match self {
            Ty::String(s)
            | Ty::Bytes(s)
            | Ty::List(_, s)
            | Ty::Map(_, _, s)
            | Ty::IntOrString(s)
            | Ty::Opaque(_, s) => Some(s),
            _ => None,
        }
    }

    pub fn is_dyn(&self) -> bool {
        matches!(self, Ty::Dyn | Ty::IntOrString(_))
    }
}

impl PartialEq for Ty {
    fn eq(&self, other: &Ty) -> bool {
        use Ty::*;
        match (self, other) {
            (List(a, _), List(b, _)) => a == b,
            (Map(ak, av, _), Map(bk, bv, _)) => ak == bk && av == bv,
            (Object(a), Object(b)) => Arc::ptr_eq(a, b) || a.fields == b.fields,
            (Opaque(a, _), Opaque(b, _)) => a == b,
            (Optional(a), Optional(b)) | (Type(a), Type(b)) => a == b,
            (Param(a), Param(b)) => a == b,
            (a, b) if a.is_dyn() && b.is_dyn() => true,
            _ => std::mem::discriminant(self) == std::mem::discriminant(other),
        }
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Dyn | Ty::IntOrString(_) => f.write_str("dyn"),
            Ty::Null => f.write_str("null_type"),
            Ty::Bool => f.write_str("bool"),
            Ty::Int => f.write_str("int"),
            Ty::Uint => f.write_str("uint"),
            Ty::Double => f.write_str("double"),
            Ty::String(_) => f.write_str("string"),
            Ty::Bytes(_) => f.write_str("bytes"),
            Ty::Duration => f.write_str("duration"),
            Ty::Timestamp => f.write_str("timestamp"),
            Ty::List(t, _) => write!(f, "list({t})"),
            Ty::Map(k, v, _) => write!(f, "map({k}, {v})"),
            Ty::Object(o) if o.path.is_empty() => f.write_str("object"),
            Ty::Object(o) => write!(f, "{}", o.path),
            Ty::Opaque(n, _) => f.write_str(n),
            Ty::Optional(t) => write!(f, "optional_type({t})"),
            Ty::Type(t) => write!(f, "type({t})"),
            Ty::Param(c) => write!(f, "{c}"),
        }
    }
}

/// A node's CEL type and the fewest bytes its JSON takes (which bounds how many of
/// it an unbounded list or map can hold).
pub struct Decl {
    pub ty: Ty,
    pub min_size: u64,
    /// Some node below is [`UNKNOWN`]: the type is only as good as what was seen.
    pub partial: bool,
}

/// The CEL type of `schema`, the node at `path` (`spec`, `spec.hosts[*]`). `None` when
/// the API server gives it none (a list without items, a schemaless node): such a node
/// is then not visible to rules.
pub fn of_schema(schema: &Node, path: &str) -> Option<Decl> {
    of_node(schema, path, path.is_empty() || is_true(schema.embedded_resource))
}

fn is_true(flag: Option<bool>) -> bool {
    flag.unwrap_or(false)
}

/// A reference to a named type (`Node::named`) stands for a node whose schema is not
/// known where the check runs (the derive sees one struct at a time): dyn to the
/// checker, and no cost is estimated through it.
fn of_node(s: &Node, path: &str, resource_root: bool) -> Option<Decl> {
    if s.reference.is_some() {
        return Some(Decl { ty: Ty::Dyn, min_size: 1, partial: true });
    }
    if is_true(s.int_or_string) {
        // A union of int and string: dyn, as large as the longest string.
        return Some(Decl {
            ty: Ty::IntOrString(Size::estimated(MAX_REQUEST_BYTES - 2, path)),
            min_size: 1,
            partial: false,
        });
    }
    let ty = s.type_.as_deref().unwrap_or("");
    if resource_root && ty == "object" {
        return Some(object(&with_type_and_object_meta(s), path));
    }
    Some(match ty {
        "array" => {
            let items = s.items.as_deref()?;
            let item_path = format!("{path}[*]");
            let item = of_node(items, &item_path, is_true(items.embedded_resource))?;
            let size = match s.max_items {
                Some(n) => Size::known(n),
                // Items of a type the checker cannot see may be larger than it thinks:
                // fewer of them fit in a request, and it cannot say how many.
                None if item.partial => Size { max: None, unbounded: Some(path.into()) },
                None => Size::estimated((MAX_REQUEST_BYTES - 2) / (item.min_size + 1), path),
            };
            Decl { ty: Ty::List(Box::new(item.ty), size), min_size: 2, partial: item.partial }
        }
        "object" => match s.map_values() {
            Some(props) => {
                let value = of_node(props, &format!("{path}[*]"), is_true(props.embedded_resource))?;
                let size = match s.max_properties {
                    Some(n) => Size::known(n),
                    None if value.partial => Size { max: None, unbounded: Some(path.into()) },
                    None => Size::estimated((MAX_REQUEST_BYTES - 2) / (value.min_size + 6), path),
                };
                Decl { ty: Ty::Map(Box::new(string()), Box::new(value.ty), size), min_size: 2, partial: value.partial }
            }
            None => object(s, path),
        },
        "string" => {
            let format = s.format.as_deref().unwrap_or("");
            let bounded = |per_char: u64| match s.max_length {
                Some(n) => Size::known(n * per_char),
                None if s.enum_.as_ref().is_some_and(|e| !e.is_empty()) => {
                    let longest = s.enum_.iter().flatten().filter_map(Value::as_str).map(str::len);
                    Size::known(longest.max().unwrap_or(0) as u64)
                }
                None => Size::estimated(MAX_REQUEST_BYTES - 2, path),
            };
            match format {
                "byte" => Decl { ty: Ty::Bytes(bounded(1)), min_size: 2, partial: false },
                "duration" => Decl { ty: Ty::Duration, min_size: 4, partial: false },
                "date" => Decl { ty: Ty::Timestamp, min_size: 12, partial: false },
                "date-time" => Decl { ty: Ty::Timestamp, min_size: 22, partial: false },
                // maxLength counts characters; a character takes up to 4 bytes.
                _ => Decl { ty: Ty::String(bounded(4)), min_size: 2, partial: false },
            }
        }
        "boolean" => Decl { ty: Ty::Bool, min_size: 4, partial: false },
        "number" => Decl { ty: Ty::Double, min_size: 1, partial: false },
        "integer" => Decl { ty: Ty::Int, min_size: 1, partial: false },
        _ => return None,
    })
}

fn object(s: &Node, path: &str) -> Decl {
    let required: Vec<&str> = s.required.iter().flatten().map(String::as_str).collect();
    let mut fields = BTreeMap::new();
    // `{}` at the least, plus every required property without a default.
    let mut min_size = 2;
    let mut partial = false;
    for (name, prop) in s.properties.iter().flatten() {
        let child = if path.is_empty() { name.clone() } else { format!("{path}.{name}") };
        let Some(decl) = of_node(prop, &child, is_true(prop.embedded_resource)) else { continue };
        if required.contains(&name.as_str()) && prop.default.is_none() {
            min_size += name.len() as u64 + decl.min_size + 4;
        }
        partial |= decl.partial;
        for ident in identifiers(name) {
            fields.insert(ident, decl.ty.clone());
        }
    }
    Decl { ty: Ty::Object(Arc::new(Object { path: path.to_string(), fields })), min_size, partial }
}

/// At the root of a resource (a CRD's root, an embedded resource), rules may read
/// `apiVersion`, `kind` and `metadata.name`/`generateName` though the schema omits them.
fn with_type_and_object_meta(s: &Node) -> Node {
    let mut s = s.clone();
    let props = s.properties.get_or_insert_with(Default::default);
    for key in ["apiVersion", "kind"] {
        props.entry(key.into()).or_insert_with(|| Node::of_type("string"));
    }
    let meta = props.entry("metadata".into()).or_insert_with(|| Node::of_type("object"));
    let meta_props = meta.properties.get_or_insert_with(Default::default);
    for key in ["name", "generateName"] {
        meta_props.entry(key.into()).or_insert_with(|| Node::of_type("string"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn node(v: Value) -> Node {
        Node::from_value(&v).expect("a schema")
    }

    #[test]
    fn unbounded_lists_and_strings_are_as_large_as_a_request() {
        let d = of_schema(&node(json!({"type": "array", "items": {"type": "string"}})), "spec.hosts").unwrap();
        let Ty::List(item, size) = d.ty else { panic!() };
        assert_eq!(size.max, Some((MAX_REQUEST_BYTES - 2) / 3));
        assert_eq!(size.unbounded.as_deref(), Some("spec.hosts"));
        assert_eq!(item.size().unwrap().max, Some(MAX_REQUEST_BYTES - 2));
        let d = of_schema(&node(json!({"type": "string", "maxLength": 10})), "x").unwrap();
        assert_eq!(d.ty.size().unwrap().max, Some(40));
    }

    #[test]
    fn objects_escape_their_property_names() {
        let d = of_schema(
            &node(json!({"type": "object", "properties": {"namespace": {"type": "string"}, "a-b": {"type": "integer"}, "9": {"type": "integer"}}})),
            "spec",
        )
        .unwrap();
        let Ty::Object(o) = d.ty else { panic!() };
        // A reserved word is readable escaped and, where the grammar allows, as written.
        assert_eq!(o.fields.keys().collect::<Vec<_>>(), ["__namespace__", "a__dash__b", "namespace"]);
    }
}
