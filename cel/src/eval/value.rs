//! The CEL value of a JSON value under its schema, as the API server builds it
//! (k8s.io/apiserver `pkg/cel/common/values.go`, `UnstructuredToVal`):
//!
//! - objects with properties are maps keyed by the escaped property names, holding only
//!   the declared, non-null fields (`has()` is false for the others); their equality is
//!   the server's, which also compares the fields rules cannot see;
//! - `additionalProperties` objects are maps keyed by the keys as written;
//! - lists are lists; `x-kubernetes-list-type: set` and `map` lists compare ignoring
//!   order and merge on `+`, as the server's do;
//! - strings of format `date`/`date-time` are timestamps, `duration` durations, `byte`
//!   bytes; `x-kubernetes-int-or-string` is an int or a string as given; `number` is a
//!   double, `integer` an int;
//! - data the schema does not type is an error value when used.

use std::any::Any;
use std::collections::HashMap;
use std::sync::Arc;

use cel::ExecutionError;
use cel::common::traits::{Adder, Comparer, Container, Indexer, Iterable, Sizer};
use cel::common::types::{
    CelBool, CelBytes, CelDouble, CelDuration, CelInt, CelList, CelMap, CelMapKey, CelNull, CelString, CelTimestamp,
    CelUInt, LIST_TYPE, MAP_TYPE, Type,
};
use cel::common::value::{Builtin, BuiltinRef, CowVal, StaticVal, Val};
use kubegen_core::schema::node::Node;
use serde_json::{Map, Value as Json};

use super::schema;
use super::time;
use crate::names::escape;

/// The value of `v` under schema `s`; `resource_root` for the root of a resource (the
/// custom resource, or an embedded one), whose `apiVersion`, `kind` and
/// `metadata.name`/`generateName` are always visible.
pub(crate) fn to_val(v: &Json, s: &Node, resource_root: bool) -> Box<dyn Val> {
    if v.is_null() {
        return if schema::nullable(s) {
            Box::new(CelNull)
        } else {
            invalid("invalid data, got null for schema with nullable=false")
        };
    }
    if schema::int_or_string(s) {
        return match v {
            Json::String(s) => Box::new(CelString::from(s.clone())),
            Json::Number(n) if n.as_i64().is_some() => Box::new(CelInt::from(n.as_i64().unwrap_or_default())),
            _ => invalid("invalid data, expected XIntOrString value to be either a string or integer"),
        };
    }
    match schema::ty(s) {
        "object" => {
            let Json::Object(m) = v else {
                return invalid("invalid data, expected a map for the provided schema with type=object");
            };
            let embedded = schema::embedded(s);
            if embedded || resource_root || schema::properties(s).is_some() {
                return Box::new(Object::new(m, s, embedded || resource_root));
            }
            if let Some(add) = schema::additional(s) {
                let entries: HashMap<CelMapKey<'static>, Box<dyn Val>> = m
                    .iter()
                    .map(|(k, v)| (CelMapKey::from(k.clone()), to_val(v, add, schema::embedded(add))))
                    .collect();
                return Box::new(CelMap::from(entries));
            }
            if schema::preserve_unknown(s) {
                return Box::new(Object::new(m, s, false));
            }
            invalid(
                "invalid object type, expected either Properties or AdditionalProperties with Allows=true and non-empty Schema",
            )
        }
        "array" => {
            let Json::Array(a) = v else {
                return invalid("invalid data, expected an array for the provided schema with type=array");
            };
            let Some(items) = schema::items(s) else {
                return invalid("invalid array type, expected Items with a non-empty Schema");
            };
            let root = schema::embedded(items);
            let elements: Vec<Box<dyn Val>> = a.iter().map(|e| to_val(e, items, root)).collect();
            match schema::list_type(s) {
                None | Some("atomic") => Box::new(CelList::from(elements)),
                Some("set") => Box::new(SchemaList { items: CelList::from(elements), kind: ListKind::Set(a.clone()) }),
                Some("map") => {
                    let keys = schema::list_map_keys(s).into_iter().map(key_name).collect();
                    Box::new(SchemaList { items: CelList::from(elements), kind: ListKind::Map(keys) })
                }
                Some(other) => invalid(&format!(
                    "invalid x-kubernetes-list-type, expected 'map', 'set' or 'atomic' but got {other}"
                )),
            }
        }
        "string" => {
            let Json::String(text) = v else {
                return invalid(&format!("invalid data, expected string, got {}", go_type(v)));
            };
            match schema::format(s) {
                "duration" => match time::parse_strfmt_duration(text) {
                    Ok(d) => Box::new(CelDuration::from(d)),
                    Err(e) => invalid(&format!("Invalid duration {text}: {e}")),
                },
                "date" => match time::parse_full_date(text) {
                    Ok(t) => Box::new(CelTimestamp::from(t)),
                    Err(e) => invalid(&format!("Invalid date formatted string {text}: {e}")),
                },
                "date-time" => match time::parse_strfmt_date_time(text) {
                    Ok(t) => Box::new(CelTimestamp::from(t)),
                    Err(e) => invalid(&format!("Invalid date-time formatted string {text}: {e}")),
                },
                "byte" => match decode_base64_url(text) {
                    Some(b) => Box::new(CelBytes::from(b)),
                    None => invalid(&format!("Invalid byte formatted string {text}: illegal base64 data")),
                },
                _ => Box::new(CelString::from(text.clone())),
            }
        }
        "number" => match v {
            Json::Number(n) => match n.as_i64() {
                Some(i) => Box::new(CelDouble::from(i as f64)),
                None => Box::new(CelDouble::from(n.as_f64().unwrap_or(f64::NAN))),
            },
            _ => invalid(&format!("invalid data, expected float, got {}", go_type(v))),
        },
        "integer" => match v.as_i64() {
            Some(i) => Box::new(CelInt::from(i)),
            None => invalid(&format!("invalid data, expected int, got {}", go_type(v))),
        },
        "boolean" => match v {
            Json::Bool(b) => Box::new(CelBool::from(*b)),
            _ => invalid(&format!("invalid data, expected bool, got {}", go_type(v))),
        },
        t if schema::preserve_unknown(s) => {
            let _ = t;
            Box::new(Unknown(Arc::new(v.clone())))
        }
        t => invalid(&format!(
            "invalid type, expected object, array, number, integer, boolean or string, or no type with x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields is true, got {t}"
        )),
    }
}

/// The Go type a JSON value decodes to, for the server's messages.
fn go_type(v: &Json) -> &'static str {
    match v {
        Json::Null => "<nil>",
        Json::Bool(_) => "bool",
        Json::Number(n) if n.is_i64() => "int64",
        Json::Number(_) => "float64",
        Json::String(_) => "string",
        Json::Array(_) => "[]interface {}",
        Json::Object(_) => "map[string]interface {}",
    }
}

/// How the server finds a list-map key in an element: it indexes the element's JSON
/// with the escaped name (the name itself when it cannot be escaped), so a key whose
/// name escapes to something else is never found, a quirk kept here.
#[derive(Debug, Clone)]
pub(crate) enum KeyField {
    /// A field rules see, by its (unchanged) name.
    Visible(String),
    /// A field with no CEL identifier, by its name in the JSON.
    Raw(String),
    /// Never found.
    Missing,
}

fn key_name(k: &str) -> KeyField {
    match escape(k) {
        Some(e) if e == k => KeyField::Visible(e),
        Some(_) => KeyField::Missing,
        None => KeyField::Raw(k.to_string()),
    }
}

/// `strfmt.Base64`: padded base64 with the URL-safe alphabet, line breaks ignored.
fn decode_base64_url(s: &str) -> Option<Vec<u8>> {
    let clean: Vec<u8> = s.bytes().filter(|b| !matches!(b, b'\r' | b'\n')).collect();
    if !clean.len().is_multiple_of(4) {
        return None;
    }
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => (c - b'A') as u32,
            b'a'..=b'z' => (c - b'a' + 26) as u32,
            b'0'..=b'9' => (c - b'0' + 52) as u32,
            b'-' => 62,
            b'_' => 63,
            _ => return None,
        })
    };
    let mut out = Vec::with_capacity(clean.len() / 4 * 3);
    let chunks = clean.len() / 4;
    for (i, chunk) in clean.chunks(4).enumerate() {
        let last = i + 1 == chunks;
        let pad = chunk.iter().rev().take_while(|&&c| c == b'=').count();
        if pad > 2 || (pad > 0 && !last) {
            return None;
        }
        let mut n = 0u32;
        for &c in &chunk[..4 - pad] {
            n = (n << 6) | val(c)?;
        }
        n <<= 6 * pad as u32;
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..3 - pad]);
    }
    Some(out)
}

/// An error the server would raise when the value is used: data that doesn't fit its
/// schema. Any operation on it fails with the message.
#[derive(Debug, Clone)]
pub(crate) struct Invalid(pub(crate) Arc<str>);

fn invalid(msg: &str) -> Box<dyn Val> {
    Box::new(Invalid(Arc::from(msg)))
}

impl Invalid {
    pub(crate) fn err(&self) -> ExecutionError {
        ExecutionError::function_error("", &*self.0)
    }
}

static INVALID_TYPE: Type = Type::new_unspecified_type("error");
static UNKNOWN_TYPE: Type = Type::new_unspecified_type("unknown");

impl Val for Invalid {
    fn get_type(&self) -> &Type {
        &INVALID_TYPE
    }
    fn cel_type() -> &'static Type {
        &INVALID_TYPE
    }
    fn clone_as_boxed<'v>(&self) -> Box<dyn Val + 'v> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> Option<&dyn Any> {
        Some(self)
    }
    fn as_comparer(&self) -> Option<&dyn Comparer> {
        Some(self)
    }
    fn as_indexer<'b, 'v>(&'b self) -> Option<&'b (dyn Indexer + 'v)>
    where
        Self: 'v,
    {
        Some(self)
    }
    fn as_adder<'b, 'v>(&'b self) -> Option<&'b (dyn Adder + 'v)>
    where
        Self: 'v,
    {
        Some(self)
    }
}
impl StaticVal for Invalid {}

impl Comparer for Invalid {
    fn compare(&self, _: &dyn Val) -> Result<std::cmp::Ordering, ExecutionError> {
        Err(self.err())
    }
}
impl Indexer for Invalid {
    fn get<'b, 'v>(&'b self, _: &dyn Val) -> Result<CowVal<'b, 'v>, ExecutionError>
    where
        Self: 'v,
    {
        Err(self.err())
    }
    fn steal<'v>(self: Box<Self>, _: &dyn Val) -> Result<Box<dyn Val + 'v>, ExecutionError>
    where
        Self: 'v,
    {
        Err(self.err())
    }
}
impl Adder for Invalid {
    fn add<'b, 'v>(&'b self, _: &(dyn Val + 'v)) -> Result<CowVal<'b, 'v>, ExecutionError>
    where
        Self: 'v,
    {
        Err(self.err())
    }
}

/// Untyped data kept by `x-kubernetes-preserve-unknown-fields`: rules cannot read it,
/// it only compares.
#[derive(Debug, Clone)]
pub(crate) struct Unknown(Arc<Json>);

impl Val for Unknown {
    fn get_type(&self) -> &Type {
        &UNKNOWN_TYPE
    }
    fn cel_type() -> &'static Type {
        &UNKNOWN_TYPE
    }
    fn clone_as_boxed<'v>(&self) -> Box<dyn Val + 'v> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> Option<&dyn Any> {
        Some(self)
    }
    fn equals(&self, other: &dyn Val) -> bool {
        other.downcast_ref::<Unknown>().is_some_and(|o| o.0 == self.0)
    }
}
impl StaticVal for Unknown {}

/// An object with properties: a map from escaped property names to the values of the
/// declared, non-null fields, plus what the server's equality also looks at.
#[derive(Debug, Clone)]
pub(crate) struct Object {
    /// The visible fields, by their names in the JSON.
    fields: CelMap<'static>,
    /// Their escaped names, which iterating over the object yields.
    names: CelList<'static>,
    /// How many fields the JSON object has, unknown and null ones included (the
    /// server's size of it).
    size: usize,
    /// Whether a declared field is null: the server then never finds the object equal
    /// to another (it treats null fields as absent when looking them up in the other).
    null_field: bool,
    /// Fields with no CEL value, as JSON: (name, declared, value). Declared ones are
    /// compared; unknown ones only against the same field of the other object.
    other: Vec<(String, bool, Json)>,
}

impl Object {
    fn new(m: &Map<String, Json>, s: &Node, resource_root: bool) -> Object {
        let props = schema::object_properties(s, resource_root);
        let mut fields = HashMap::new();
        let mut names = Vec::new();
        let mut null_field = false;
        let mut other = Vec::new();
        for (name, v) in m {
            match props.iter().find(|(p, _)| *p == name.as_str()) {
                Some((_, ps)) => {
                    if v.is_null() {
                        null_field = true;
                    } else if let Some(esc) = escape(name).filter(|_| schema::has_cel_type(ps)) {
                        names.push(Box::new(CelString::from(esc)) as Box<dyn Val>);
                        fields.insert(CelMapKey::from(name.clone()), to_val(v, ps, schema::embedded(ps)));
                    } else {
                        other.push((name.clone(), true, v.clone()));
                    }
                }
                None => other.push((name.clone(), false, v.clone())),
            }
        }
        Object { fields: CelMap::from(fields), names: CelList::from(names), size: m.len(), null_field, other }
    }

    fn equals_object(&self, o: &Object) -> bool {
        if self.size != o.size || self.null_field {
            return false;
        }
        for (k, v) in self.fields.inner().iter() {
            match o.fields.inner().get(k) {
                Some(ov) if v.equals(ov.as_ref()) => {}
                _ => return false,
            }
        }
        for (name, declared, v) in &self.other {
            let theirs = o.other.iter().find(|(n, _, _)| n == name);
            match (declared, theirs) {
                (_, Some((_, _, ov))) if ov == v => {}
                (false, None) => {}
                _ => return false,
            }
        }
        true
    }
}

impl Val for Object {
    fn get_type(&self) -> &Type {
        &MAP_TYPE
    }
    fn cel_type() -> &'static Type {
        &MAP_TYPE
    }
    fn as_container(&self) -> Option<&dyn Container> {
        Some(self)
    }
    fn as_indexer<'b, 'v>(&'b self) -> Option<&'b (dyn Indexer + 'v)>
    where
        Self: 'v,
    {
        Some(self)
    }
    fn into_indexer<'v>(self: Box<Self>) -> Option<Box<dyn Indexer + 'v>>
    where
        Self: 'v,
    {
        Some(self)
    }
    fn as_iterable<'b, 'v>(&'b self) -> Option<&'b (dyn Iterable + 'v)>
    where
        Self: 'v,
    {
        Some(&self.names)
    }
    fn as_sizer(&self) -> Option<&dyn Sizer> {
        Some(self)
    }
    fn equals(&self, other: &dyn Val) -> bool {
        if let Some(o) = other.downcast_ref::<Object>() {
            return self.equals_object(o);
        }
        // Against a plain map: only when nothing but visible fields is involved.
        self.other.is_empty() && !self.null_field && self.fields.equals(other)
    }
    fn clone_as_boxed<'v>(&self) -> Box<dyn Val + 'v> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> Option<&dyn Any> {
        Some(self)
    }
    fn as_builtin<'b, 'v>(&'b self) -> BuiltinRef<'b, 'v>
    where
        Self: 'v,
    {
        BuiltinRef::Map(&self.fields)
    }
    fn into_builtin<'v>(self: Box<Self>) -> Option<Builtin<'v>>
    where
        Self: 'v,
    {
        Some(Builtin::Map(self.fields))
    }
}
impl StaticVal for Object {}

/// A field is looked up by its escaped name, unescaped (so `self.__namespace__` and
/// `self.namespace` are the same field, as on the server); reading a field whose data
/// doesn't fit its schema is the error the server would raise on using it.
impl Object {
    fn lookup(&self, idx: &dyn Val) -> Result<&(dyn Val + 'static), ExecutionError> {
        let Some(key) = idx.downcast_ref::<CelString>() else {
            return Err(ExecutionError::no_such_overload("_[_]", vec!["map".into(), idx.get_type().name().into()]));
        };
        let missing = || ExecutionError::no_such_key(key.inner());
        let raw = unescape(key.inner()).ok_or_else(missing)?;
        let v = self.fields.inner().get(&CelMapKey::from(raw)).ok_or_else(missing)?;
        match v.downcast_ref::<Invalid>() {
            Some(invalid) => Err(invalid.err()),
            None => Ok(v.as_ref()),
        }
    }
}

impl Indexer for Object {
    fn get<'b, 'v>(&'b self, idx: &dyn Val) -> Result<CowVal<'b, 'v>, ExecutionError>
    where
        Self: 'v,
    {
        self.lookup(idx).map(CowVal::Borrowed)
    }
    fn steal<'v>(self: Box<Self>, idx: &dyn Val) -> Result<Box<dyn Val + 'v>, ExecutionError>
    where
        Self: 'v,
    {
        self.lookup(idx).map(|v| v.clone_as_boxed())
    }
}

impl Container for Object {
    fn contains(&self, value: &dyn Val) -> Result<bool, ExecutionError> {
        match self.lookup(value) {
            Ok(_) => Ok(true),
            Err(ExecutionError::NoSuchKey(_)) => Ok(false),
            Err(e) => Err(e),
        }
    }
}

/// apiserver's `cel.Unescape`: `__underscores__`, `__dot__`, `__dash__`, `__slash__`
/// and a whole `__<keyword>__` are undone; any other `__x__` makes the name invalid.
pub(crate) fn unescape(escaped: &str) -> Option<String> {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let re = RE.get_or_init(|| regex::Regex::new("__[^_]+__").expect("regex"));
    let mut out = String::with_capacity(escaped.len());
    let mut last = 0;
    for m in re.find_iter(escaped) {
        out.push_str(&escaped[last..m.start()]);
        let contents = &m.as_str()[2..m.len() - 2];
        match contents {
            "underscores" => out.push_str("__"),
            "dot" => out.push('.'),
            "dash" => out.push('-'),
            "slash" => out.push('/'),
            c if crate::names::RESERVED.contains(&c) && m.len() == escaped.len() => out.push_str(c),
            _ => return None,
        }
        last = m.end();
    }
    out.push_str(&escaped[last..]);
    Some(out)
}

impl Sizer for Object {
    fn size(&self) -> CelInt {
        CelInt::from(self.size as i64)
    }
}

/// A `set` or `map` list: a list whose equality ignores order and whose `+` merges, as
/// the server's `unstructuredSetList`/`unstructuredMapList`.
#[derive(Debug, Clone)]
pub(crate) struct SchemaList {
    items: CelList<'static>,
    kind: ListKind,
}

#[derive(Debug, Clone)]
enum ListKind {
    /// The elements as JSON: the server compares sets by the Go values of the data.
    Set(Vec<Json>),
    /// How to find each list-map key in an element.
    Map(Vec<KeyField>),
}

/// The Go value of a CEL value, as the server's set equality sees the other side.
fn native(v: &dyn Val) -> Option<Json> {
    if let Some(s) = v.downcast_ref::<CelString>() {
        return Some(Json::String(s.inner().to_string()));
    }
    if let Some(i) = v.downcast_ref::<CelInt>() {
        return Some(Json::from(*i.inner()));
    }
    if let Some(u) = v.downcast_ref::<CelUInt>() {
        return Some(Json::from(*u.inner()));
    }
    if let Some(d) = v.downcast_ref::<CelDouble>() {
        return serde_json::Number::from_f64(*d.inner()).map(Json::Number);
    }
    if let Some(b) = v.downcast_ref::<CelBool>() {
        return Some(Json::Bool(*b.inner()));
    }
    None
}

/// The key of a list-map element: the values of its key fields, `null` for a missing
/// one; `None` for an element that is not an object.
fn map_key(v: &dyn Val, keys: &[KeyField]) -> Option<Vec<Json>> {
    let o = v.downcast_ref::<Object>()?;
    Some(
        keys.iter()
            .map(|k| match k {
                KeyField::Visible(name) => o
                    .fields
                    .inner()
                    .get(&CelMapKey::from(name.clone()))
                    .and_then(|v| native(v.as_ref()))
                    .unwrap_or(Json::Null),
                KeyField::Raw(name) => {
                    o.other.iter().find(|(n, _, _)| n == name).map(|(_, _, v)| v.clone()).unwrap_or(Json::Null)
                }
                KeyField::Missing => Json::Null,
            })
            .collect(),
    )
}

fn elements<'a, 'v>(v: &'a (dyn Val + 'v)) -> Option<Vec<&'a (dyn Val + 'v)>> {
    let mut it = v.as_iterable()?.iter();
    let mut out = Vec::new();
    while let Some(e) = it.next() {
        out.push(e);
    }
    Some(out)
}

impl SchemaList {
    fn equals_list(&self, other: &dyn Val) -> bool {
        if other.get_type().kind() != cel::common::types::Kind::List {
            return false;
        }
        let Some(theirs) = elements(other) else { return false };
        if theirs.len() != self.items.len() {
            return false;
        }
        match &self.kind {
            ListKind::Set(raw) => theirs.iter().all(|e| native(*e).is_some_and(|n| raw.contains(&n))),
            ListKind::Map(keys) => {
                // The last element of each key wins, as in the server's map of the list.
                let mut mine: Vec<(Option<Vec<Json>>, &dyn Val)> = Vec::new();
                for e in self.items.inner().iter() {
                    let k = map_key(e.as_ref(), keys);
                    match mine.iter_mut().find(|(mk, _)| k.is_some() && *mk == k) {
                        Some(slot) => slot.1 = e.as_ref(),
                        None => mine.push((k, e.as_ref())),
                    }
                }
                theirs.iter().all(|e| {
                    let Some(k) = map_key(*e, keys) else { return false };
                    mine.iter().find(|(mk, _)| mk.as_ref() == Some(&k)).is_some_and(|(_, m)| m.equals(*e))
                })
            }
        }
    }
}

impl Val for SchemaList {
    fn get_type(&self) -> &Type {
        &LIST_TYPE
    }
    fn cel_type() -> &'static Type {
        &LIST_TYPE
    }
    fn as_adder<'b, 'v>(&'b self) -> Option<&'b (dyn Adder + 'v)>
    where
        Self: 'v,
    {
        Some(self)
    }
    fn as_container(&self) -> Option<&dyn Container> {
        Some(&self.items)
    }
    fn as_indexer<'b, 'v>(&'b self) -> Option<&'b (dyn Indexer + 'v)>
    where
        Self: 'v,
    {
        Some(&self.items)
    }
    fn into_indexer<'v>(self: Box<Self>) -> Option<Box<dyn Indexer + 'v>>
    where
        Self: 'v,
    {
        Some(Box::new(self.items))
    }
    fn as_iterable<'b, 'v>(&'b self) -> Option<&'b (dyn Iterable + 'v)>
    where
        Self: 'v,
    {
        Some(&self.items)
    }
    fn as_sizer(&self) -> Option<&dyn Sizer> {
        Some(&self.items)
    }
    fn equals(&self, other: &dyn Val) -> bool {
        self.equals_list(other)
    }
    fn clone_as_boxed<'v>(&self) -> Box<dyn Val + 'v> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> Option<&dyn Any> {
        Some(self)
    }
    fn as_builtin<'b, 'v>(&'b self) -> BuiltinRef<'b, 'v>
    where
        Self: 'v,
    {
        BuiltinRef::List(&self.items)
    }
    fn into_builtin<'v>(self: Box<Self>) -> Option<Builtin<'v>>
    where
        Self: 'v,
    {
        Some(Builtin::List(self.items))
    }
}
impl StaticVal for SchemaList {}

impl Adder for SchemaList {
    fn add<'b, 'v>(&'b self, rhs: &(dyn Val + 'v)) -> Result<CowVal<'b, 'v>, ExecutionError>
    where
        Self: 'v,
    {
        let theirs = elements(rhs).ok_or_else(|| ExecutionError::function_error("_+_", "no such overload"))?;
        let mut out: Vec<Box<dyn Val + 'v>> = self.items.inner().iter().map(|e| e.clone_as_boxed()).collect();
        let kind = match &self.kind {
            ListKind::Set(raw) => {
                // A union: the elements of the right not already in, in their order.
                let mut raw = raw.clone();
                for e in theirs {
                    match native(e) {
                        Some(n) if raw.contains(&n) => {}
                        n => {
                            if let Some(n) = n {
                                raw.push(n);
                            }
                            out.push(e.clone_as_boxed());
                        }
                    }
                }
                ListKind::Set(raw)
            }
            ListKind::Map(keys) => {
                // A merge: the right's elements replace those of the same key, in place;
                // the others are appended.
                let mut out_keys: Vec<Option<Vec<Json>>> =
                    self.items.inner().iter().map(|e| map_key(e.as_ref(), keys)).collect();
                for e in theirs {
                    let k = map_key(e, keys);
                    match out_keys.iter().position(|ok| k.is_some() && *ok == k) {
                        Some(i) => out[i] = e.clone_as_boxed(),
                        None => {
                            out_keys.push(k);
                            out.push(e.clone_as_boxed());
                        }
                    }
                }
                ListKind::Map(keys.clone())
            }
        };
        // The merged elements borrow nothing (all schema values are owned), so the list
        // keeps its kind; anything else degrades to a plain list.
        let items: Vec<Box<dyn Val>> = match out.iter().map(|e| to_static(e.as_ref())).collect::<Option<Vec<_>>>() {
            Some(items) => items,
            None => return Ok(CowVal::owned(CelList::from(out))),
        };
        Ok(CowVal::owned(SchemaList { items: CelList::from(items), kind }))
    }
}

/// An owned copy of a value, when it has one.
fn to_static(v: &dyn Val) -> Option<Box<dyn Val>> {
    if let Some(o) = v.downcast_ref::<Object>() {
        return Some(Box::new(o.clone()));
    }
    if let Some(l) = v.downcast_ref::<SchemaList>() {
        return Some(Box::new(l.clone()));
    }
    let value = cel::Value::try_from(v).ok()?;
    Box::<dyn Val>::try_from(value).ok()
}
