//! Evaluation of a schema's `x-kubernetes-validations` rules against an object, as the
//! API server does it (apiextensions-apiserver `pkg/apiserver/schema/cel/validation.go`):
//!
//! - the object is walked with its schema (`properties`, `additionalProperties`,
//!   `items`, and the rules of `allOf` entries); at each non-null node carrying rules,
//!   every rule runs with `self` bound to the node's value, typed by its schema
//!   (`value.rs`: objects are maps of their declared fields, `date`/`date-time`
//!   strings timestamps, `duration` strings durations, `byte` strings bytes,
//!   int-or-string an int or a string, `number` a double);
//! - transition rules (those reading `oldSelf`) run only where the old object has a
//!   correlated value: object fields by name, map entries by key, and list items only
//!   in `x-kubernetes-list-type: map` lists, by their keys. With `optionalOldSelf:
//!   true` they also run elsewhere, `oldSelf` then being `optional.none()` (and
//!   `optional.of(old)` where there is one);
//! - on an update, a failing rule that doesn't read `oldSelf` is not reported where the
//!   value is unchanged from the old object (the server's ratcheting, which makes it a
//!   warning);
//! - a failure is reported at the node's path (`spec.items[2].name`, map entries as
//!   `spec.labels[key]`), extended by the rule's `fieldPath`, with the rule's `message`,
//!   the result of its `messageExpression`, or `failed rule: <rule>`, and its `reason`
//!   (`FieldValueInvalid` by default); an error evaluating a rule is reported with the
//!   server's wording (`no such key: x evaluating rule: <rule>`).
//!
//! The environment is the server's (`env.rs`): the standard library and macros,
//! optional types, the strings, lists and sets extensions, two-variable
//! comprehensions, and Kubernetes' lists, regex, URL, quantity, IP, CIDR, format and
//! semver libraries.
//!
//! Not modelled: the server's cost limits (per rule and per object), and the `authz`
//! library, which CRD rules don't get. Where several operands of `&&`/`||` fail, the
//! error reported may be another one than the server's (the `cel` crate reports the
//! last, cel-go the first).

mod comprehensions;
mod env;
mod format;
mod lists;
mod net;
mod overload;
mod quantity;
mod regex_lib;
mod schema;
mod semver;
mod sets;
mod time;
mod timestamps;
mod urls;
mod value;

#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use cel::common::types::{CelBool, CelOptional, CelString};
use cel::common::value::{CowVal, Val};
use cel::context::VariableResolver;
use cel::{Context, Env, ExecutionError, Program};
use kubegen_core::schema::node::Node;
use serde_json::Value as Json;

use crate::names::escape;

/// One failed rule, as the server reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// Where, as the server prints field paths: `spec.foo[2].bar`, map entries
    /// `spec.m[key]`; empty for the root (which the server prints as `<nil>`).
    pub field_path: String,
    /// The rule's message, the result of its `messageExpression`, `failed rule: <rule>`,
    /// or the error evaluating it.
    pub message: String,
    /// The rule's `reason` (`FieldValueInvalid`, `FieldValueForbidden`,
    /// `FieldValueRequired`, `FieldValueDuplicate`); `FieldValueInvalid` by default.
    pub reason: Option<String>,
}

/// Evaluates the rules of `schema`, the structural schema of a resource (a CRD
/// version's `openAPIV3Schema`), against `object`, on an update from `old`.
///
/// The root is taken as a resource's root: its `apiVersion`, `kind`, `metadata.name`
/// and `metadata.generateName` are visible to rules whatever the schema says, and no
/// other `metadata` field is, as on the server. For a schema that is not a resource's,
/// see [`validate_node`].
pub fn validate(schema: &Node, object: &Json, old: Option<&Json>) -> Vec<Violation> {
    run(&Programs::default(), schema, object, old, true)
}

/// As [`validate`], compiling each rule once into `programs` and reusing it on every
/// later call: a kind's validator keeps one for its lifetime.
pub fn validate_with(programs: &Programs, schema: &Node, object: &Json, old: Option<&Json>) -> Vec<Violation> {
    run(programs, schema, object, old, true)
}

/// Compiled rules by their source, kept between evaluations. Compiling is most of what
/// one evaluation of a short rule costs.
#[derive(Debug, Default)]
pub struct Programs(Mutex<HashMap<String, Result<Arc<Program>, String>>>);

impl Clone for Programs {
    fn clone(&self) -> Self {
        Programs(Mutex::new(self.0.lock().map(|m| m.clone()).unwrap_or_default()))
    }
}

impl Programs {
    fn get(&self, env: &Env, source: &str) -> Result<Arc<Program>, String> {
        // A panic while the lock was held left a whole map behind: still usable.
        let mut programs = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(p) = programs.get(source) {
            return p.clone();
        }
        let compiled = env.compile(source).map(Arc::new).map_err(|e| e.to_string());
        programs.insert(source.to_string(), compiled.clone());
        compiled
    }
}

/// As [`validate`], for the schema of any node: its root is not a resource's, so its
/// fields are exactly the schema's.
pub fn validate_node(schema: &Node, object: &Json, old: Option<&Json>) -> Vec<Violation> {
    run(&Programs::default(), schema, object, old, false)
}

fn run(programs: &Programs, schema: &Node, object: &Json, old: Option<&Json>, resource_root: bool) -> Vec<Violation> {
    let mut w = Walker { env: env::env(), programs, out: Vec::new() };
    let ratchet = Ratchet { current: old.map(|old| Corr { new: object, old, schema }), nearest: None };
    let decl = schema::has_cel_type(schema).then_some(Decl { schema, root: resource_root });
    w.walk(schema, schema, object, old, "", resource_root, decl, ratchet);
    w.out
}

// --- field paths, as k8s.io/apimachinery's field.Path prints them -------------------

fn child(path: &str, name: &str) -> String {
    if path.is_empty() { name.to_string() } else { format!("{path}.{name}") }
}

fn key(path: &str, k: &str) -> String {
    format!("{path}[{k}]")
}

fn index(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}

/// A rule's `fieldPath` as the server normalizes it (`ValidFieldPath`): `.a.b`,
/// `['a.b']` or `.m['key']` steps through the schema, printed as a field path; `None`
/// when it doesn't name a field of the schema.
fn normalize_field_path(field_path: &str, mut schema: &Node) -> Option<String> {
    let b = field_path.as_bytes();
    let mut tokens: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        if b[i] == b'\'' {
            i += 1;
            while i < b.len() && !(b[i] == b'\'' && b[i - 1] != b'\\') {
                i += 1;
            }
            i = (i + 1).min(b.len());
        } else if matches!(b[i], b'.' | b'[' | b']') {
            i += 1;
        } else {
            while i < b.len() && !matches!(b[i], b'.' | b'[' | b']') {
                i += 1;
            }
        }
        tokens.push(&field_path[start..i]);
    }
    let mut out = String::new();
    let mut toks = tokens.into_iter();
    let append = |name: String, schema: &mut &Node, out: &mut String| -> Option<()> {
        if schema::properties(schema).is_some() {
            *schema = schema::properties(schema)?.get(&name)?;
            *out = child(out, &name);
        } else if let Some(add) = schema::additional(schema) {
            *out = key(out, &name);
            *schema = add;
        } else {
            return None;
        }
        Some(())
    };
    while let Some(tok) = toks.next() {
        match tok {
            "[" => {
                let q = toks.next()?;
                if q.len() < 2 || !q.starts_with('\'') || !q.ends_with('\'') {
                    return None;
                }
                let name = unescape_single_quote(&q[1..q.len() - 1])?;
                append(name, &mut schema, &mut out)?;
                if toks.next()? != "]" {
                    return None;
                }
            }
            "." => {
                let name = toks.next()?;
                append(name.to_string(), &mut schema, &mut out)?;
            }
            _ => return None,
        }
    }
    Some(out)
}

fn unescape_single_quote(s: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        out.push(match chars.next() {
            Some('a') => '\x07',
            Some('b') => '\x08',
            Some('f') => '\x0c',
            Some('n') => '\n',
            Some('r') => '\r',
            Some('t') => '\t',
            Some('v') => '\x0b',
            Some('\'') => '\'',
            Some('\\') => '\\',
            Some(other) => {
                // `\.` is the server's escape pattern: anything else is an error.
                let _ = other;
                return None;
            }
            None => '\\',
        });
    }
    Some(out)
}

// --- ratcheting (k8s.io/apiserver pkg/cel/common/equality.go) ----------------------

/// A node of the new object with the old value it correlates to, for ratcheting.
#[derive(Clone, Copy)]
struct Corr<'a> {
    new: &'a Json,
    old: &'a Json,
    schema: &'a Node,
}

impl<'a> Corr<'a> {
    fn key(self, field: &str) -> Option<Corr<'a>> {
        let (Json::Object(new), Json::Object(old)) = (self.new, self.old) else { return None };
        let (new, old) = (new.get(field)?, old.get(field)?);
        let schema =
            schema::properties(self.schema).and_then(|p| p.get(field)).or_else(|| schema::additional(self.schema))?;
        Some(Corr { new, old, schema })
    }

    fn index(self, i: usize) -> Option<Corr<'a>> {
        let (Json::Array(new), Json::Array(old)) = (self.new, self.old) else { return None };
        let elem = new.get(i)?;
        let old = match schema::list_type(self.schema) {
            Some("map") => map_list_get(self.schema, old, elem)?,
            Some("set") | Some("atomic") => return None,
            _ => old.get(i)?,
        };
        if old.is_null() {
            return None;
        }
        Some(Corr { new: elem, old, schema: schema::items(self.schema)? })
    }

    /// `CachedDeepEqual`: equal JSON, except that map lists compare by key, and that an
    /// object with a field its schema doesn't declare is never equal.
    fn deep_equal(self) -> bool {
        match (self.new, self.old) {
            (Json::Null, Json::Null) => true,
            (Json::Null, _) | (_, Json::Null) => false,
            (Json::Array(n), Json::Array(o)) => {
                if n.len() != o.len() {
                    return false;
                }
                for i in 0..n.len() {
                    match self.index(i) {
                        None if schema::list_type(self.schema) == Some("map") => return false,
                        None => return n == o,
                        Some(c) if !c.deep_equal() => return false,
                        Some(_) => {}
                    }
                }
                true
            }
            (Json::Object(n), Json::Object(o)) => {
                n.len() == o.len() && n.keys().all(|k| self.key(k).is_some_and(Corr::deep_equal))
            }
            (Json::Array(_) | Json::Object(_), _) | (_, Json::Array(_) | Json::Object(_)) => false,
            (n, o) => n == o,
        }
    }
}

/// The element of `old` with the same `x-kubernetes-list-map-keys` values as `elem`
/// (the first one), if `elem` has them all and they are scalars.
fn map_list_get<'a>(schema: &Node, old: &'a [Json], elem: &Json) -> Option<&'a Json> {
    let keys = schema::list_map_keys(schema);
    if keys.is_empty() {
        return None;
    }
    let key_of = |e: &Json| -> Option<Vec<Json>> {
        let o = e.as_object()?;
        keys.iter().map(|k| o.get(*k).filter(|v| !(v.is_object() || v.is_array() || v.is_null())).cloned()).collect()
    };
    let want = key_of(elem)?;
    old.iter().find(|e| key_of(e).as_ref() == Some(&want))
}

/// Where errors of a node are ratcheted: the node's correlation, else that of its
/// nearest correlated ancestor.
#[derive(Clone, Copy, Default)]
struct Ratchet<'a> {
    current: Option<Corr<'a>>,
    nearest: Option<Corr<'a>>,
}

impl<'a> Ratchet<'a> {
    fn key(self, field: &str) -> Ratchet<'a> {
        let Some(current) = self.current else { return self };
        if self.nearest.is_none() && matches!(field, "apiVersion" | "kind") {
            return Ratchet::default();
        }
        Ratchet { current: current.key(field), nearest: Some(current) }
    }

    fn index(self, i: usize) -> Ratchet<'a> {
        let Some(current) = self.current else { return self };
        Ratchet { current: current.index(i), nearest: Some(current) }
    }

    fn unchanged(&self) -> bool {
        match (self.current, self.nearest) {
            (Some(c), _) => c.deep_equal(),
            (None, Some(n)) => n.deep_equal(),
            (None, None) => false,
        }
    }
}

// --- the walk ---------------------------------------------------------------------

/// The CEL type the server declares for a node (`SchemaDeclType`), which decides which
/// of its properties' rules are run at all.
#[derive(Clone, Copy)]
struct Decl<'a> {
    schema: &'a Node,
    root: bool,
}

impl<'a> Decl<'a> {
    fn of(schema: &'a Node) -> Option<Decl<'a>> {
        schema::has_cel_type(schema).then_some(Decl { schema, root: schema::embedded(schema) })
    }

    fn field(self, name: &str) -> Option<Decl<'a>> {
        if schema::ty(self.schema) != "object" || schema::additional(self.schema).is_some() {
            return None;
        }
        let props = schema::object_properties(self.schema, self.root);
        let (_, s) = props.into_iter().find(|(k, _)| *k == name)?;
        Decl::of(s)
    }

    fn elem(self) -> Option<Decl<'a>> {
        match schema::ty(self.schema) {
            "array" => schema::items(self.schema).and_then(Decl::of),
            "object" => schema::additional(self.schema).and_then(Decl::of),
            _ => None,
        }
    }
}

struct Walker<'p> {
    env: Arc<cel::Env>,
    programs: &'p Programs,
    out: Vec<Violation>,
}

/// `self` and `oldSelf` of one evaluation.
struct Vars<'a> {
    this: &'a dyn Val,
    old: Option<&'a dyn Val>,
}

impl VariableResolver for Vars<'_> {
    fn resolve<'b>(&'b self, variable: &str) -> Option<CowVal<'b, 'b>> {
        match variable {
            "self" => Some(CowVal::Borrowed(self.this)),
            "oldSelf" => self.old.map(CowVal::Borrowed),
            _ => None,
        }
    }
}

/// The server's error for a rule that failed to evaluate, and whether it was an
/// overload (type) error, which it words differently.
fn describe(e: &ExecutionError) -> (String, bool) {
    fn value(v: &cel::Value) -> String {
        match v {
            cel::Value::Int(i) => i.to_string(),
            cel::Value::UInt(u) => u.to_string(),
            cel::Value::Float(f) => f.to_string(),
            cel::Value::String(s) => s.to_string(),
            cel::Value::Bool(b) => b.to_string(),
            other => format!("{other:?}"),
        }
    }
    match e {
        ExecutionError::NoSuchKey(k) => (format!("no such key: {k}"), false),
        ExecutionError::IndexOutOfBounds(i) => (format!("index out of bounds: {}", value(i)), false),
        ExecutionError::DivisionByZero(_) => ("division by zero".into(), false),
        ExecutionError::RemainderByZero(_) => ("modulus by zero".into(), false),
        ExecutionError::Overflow(_, l, r) => {
            let unsigned = matches!(l, cel::Value::UInt(_)) || matches!(r, cel::Value::UInt(_));
            ((if unsigned { "unsigned integer overflow" } else { "integer overflow" }).into(), false)
        }
        ExecutionError::FunctionError { message, .. } => (message.clone(), false),
        ExecutionError::UndeclaredReference(name) => (format!("no such attribute(s): {name}"), false),
        ExecutionError::NoSuchOverload(_)
        | ExecutionError::UnsupportedBinaryOperator(..)
        | ExecutionError::ValuesNotComparable(..)
        | ExecutionError::UnexpectedType { .. }
        | ExecutionError::UnsupportedTargetType { .. }
        | ExecutionError::NotSupportedAsMethod { .. }
        | ExecutionError::UnsupportedIndex(..)
        | ExecutionError::UnsupportedKeyType(_) => ("no such overload".into(), true),
        other => (other.to_string(), false),
    }
}

/// One `x-kubernetes-validations` entry.
struct Rule<'a> {
    rule: &'a str,
    message: &'a str,
    message_expression: &'a str,
    reason: Option<&'a str>,
    field_path: &'a str,
    optional_old_self: bool,
}

impl<'a> Rule<'a> {
    fn of(v: &'a kubegen_core::schema::markers::Rule) -> Rule<'a> {
        let s = |o: &'a Option<String>| o.as_deref().unwrap_or("");
        Rule {
            rule: &v.rule,
            message: s(&v.message),
            message_expression: s(&v.message_expression),
            reason: v.reason.as_deref(),
            field_path: s(&v.field_path),
            optional_old_self: v.optional_old_self.unwrap_or(false),
        }
    }

    /// `ruleErrorString`: the message if any, else the rule.
    fn error_string(&self) -> &str {
        if !self.message.is_empty() { self.message.trim() } else { self.rule.trim() }
    }

    /// `ruleMessageOrDefault`.
    fn message_or_default(&self) -> String {
        if self.message.is_empty() {
            format!("failed rule: {}", self.error_string())
        } else {
            self.message.trim().to_string()
        }
    }

    fn reason(&self) -> String {
        match self.reason {
            Some(r @ ("FieldValueForbidden" | "FieldValueRequired" | "FieldValueDuplicate")) => r.to_string(),
            _ => "FieldValueInvalid".to_string(),
        }
    }
}

/// The most bytes a `messageExpression` may produce (`MaxEvaluatedMessageExpressionSizeBytes`).
const MAX_MESSAGE_BYTES: usize = 5 * 1024;

impl Walker<'_> {
    fn program(&mut self, source: &str) -> Result<Arc<Program>, String> {
        self.programs.get(&self.env, source)
    }

    fn eval<'v>(&self, program: &Program, vars: &'v Vars<'v>) -> Result<Box<dyn Val + 'v>, ExecutionError> {
        let mut ctx = Context::with_env(self.env.clone());
        ctx.set_variable_resolver(vars);
        cel::Value::resolve_val(program.expression(), &ctx).map(CowVal::into_owned)
    }

    #[allow(clippy::too_many_arguments)]
    fn walk(
        &mut self,
        rules: &Node,
        node: &Node,
        value: &Json,
        old: Option<&Json>,
        path: &str,
        root: bool,
        decl: Option<Decl<'_>>,
        ratchet: Ratchet<'_>,
    ) {
        if value.is_null() {
            return;
        }
        let old = old.filter(|o| !o.is_null());
        self.expressions(rules, node, value, old, path, root, ratchet);
        for entry in schema::all_of(rules) {
            let r = Ratchet { current: None, nearest: ratchet.nearest };
            self.walk(entry, node, value, old, path, root, decl, r);
        }
        match value {
            Json::Array(items) => {
                let (Some(rule_items), Some(node_items)) = (schema::items(rules), schema::items(node)) else { return };
                let old_items = old.and_then(Json::as_array);
                let elem = decl.and_then(Decl::elem);
                for (i, item) in items.iter().enumerate() {
                    let old_item = match (schema::list_type(node), old_items) {
                        (Some("map"), Some(o)) => map_list_get(node, o, item),
                        _ => None,
                    };
                    let root = schema::embedded(node_items);
                    self.walk(rule_items, node_items, item, old_item, &index(path, i), root, elem, ratchet.index(i));
                }
            }
            Json::Object(fields) => {
                let correlatable = matches!(schema::map_type(node), None | Some("granular") | Some("atomic"));
                let old_fields = if correlatable { old.and_then(Json::as_object) } else { None };
                if let (Some(rule_add), Some(node_add)) = (schema::additional(rules), schema::additional(node)) {
                    let elem = decl.and_then(Decl::elem);
                    for (k, v) in fields {
                        let old_v = old_fields.and_then(|o| o.get(k));
                        let root = schema::embedded(node_add);
                        self.walk(rule_add, node_add, v, old_v, &key(path, k), root, elem, ratchet.key(k));
                    }
                }
                if let (Some(rule_props), Some(node_props)) = (schema::properties(rules), schema::properties(node)) {
                    for (k, v) in fields {
                        let (Some(rule_prop), Some(node_prop)) = (rule_props.get(k), node_props.get(k)) else {
                            continue;
                        };
                        // The server runs no rules under a field it gives no CEL type.
                        let field_decl = match escape(k) {
                            Some(_) => match decl.and_then(|d| d.field(k)) {
                                Some(d) => Some(d),
                                None => continue,
                            },
                            None => match Decl::of(node_prop) {
                                Some(d) => Some(d),
                                None => continue,
                            },
                        };
                        let old_v = old_fields.and_then(|o| o.get(k));
                        let root = schema::embedded(node_prop);
                        self.walk(rule_prop, node_prop, v, old_v, &child(path, k), root, field_decl, ratchet.key(k));
                    }
                }
            }
            _ => {}
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn expressions(
        &mut self,
        rules: &Node,
        node: &Node,
        value: &Json,
        old: Option<&Json>,
        path: &str,
        root: bool,
        ratchet: Ratchet<'_>,
    ) {
        let entries = schema::validations(rules);
        if entries.is_empty() {
            return;
        }
        let rules: Vec<Rule<'_>> = entries.iter().map(Rule::of).collect();
        let programs: Vec<Option<Result<Arc<Program>, String>>> =
            rules.iter().map(|r| (!r.rule.trim().is_empty()).then(|| self.program(r.rule))).collect();
        let uses_old = |p: &Option<Result<Arc<Program>, String>>| matches!(p, Some(Ok(p)) if p.references().has_variable("oldSelf"));
        let transitions = programs.iter().any(uses_old);
        let this = value::to_val(value, node, root);
        let old_val = if transitions { old.map(|o| value::to_val(o, node, root)) } else { None };
        let plain = Vars { this: this.as_ref(), old: old_val.as_deref() };
        let optional_old: Box<dyn Val> = Box::new(match &old_val {
            Some(o) => CelOptional::of(o.clone_as_boxed()),
            None => CelOptional::none(),
        });
        let optional = Vars { this: this.as_ref(), old: Some(optional_old.as_ref()) };

        for (rule, program) in rules.iter().zip(&programs) {
            let program = match program {
                None => continue,
                Some(Err(e)) => {
                    self.out.push(Violation {
                        field_path: path.to_string(),
                        message: format!("rule compile error: compilation failed: {e}"),
                        reason: Some("FieldValueInvalid".into()),
                    });
                    continue;
                }
                Some(Ok(p)) => p.clone(),
            };
            let transition = program.references().has_variable("oldSelf");
            if transition && old.is_none() && !rule.optional_old_self {
                continue;
            }
            let vars = if rule.optional_old_self { &optional } else { &plain };
            // A value that doesn't fit its schema is an error wherever the rule uses it.
            let invalid =
                [Some(this.as_ref()), vars.old].into_iter().flatten().zip(["self", "oldSelf"]).find_map(|(v, name)| {
                    v.downcast_ref::<value::Invalid>().filter(|_| program.references().has_variable(name))
                });
            let result = match invalid {
                Some(invalid) => Err(ExecutionError::function_error("", &*invalid.0)),
                None => self.eval(&program, vars),
            };
            let passed = match result {
                Err(e) => {
                    let (err, overload) = describe(&e);
                    let message = if overload {
                        format!(
                            "'{err}': call arguments did not match a supported operator, function or macro signature for rule: {}",
                            rule.error_string()
                        )
                    } else {
                        format!("{err} evaluating rule: {}", rule.error_string())
                    };
                    self.out.push(Violation {
                        field_path: path.to_string(),
                        message,
                        reason: Some("FieldValueInvalid".into()),
                    });
                    continue;
                }
                Ok(v) => v.downcast_ref::<CelBool>().is_some_and(|b| *b.inner()),
            };
            if passed {
                continue;
            }
            let field_path = match rule.field_path {
                "" => path.to_string(),
                fp => match normalize_field_path(fp, node) {
                    Some(n) if !n.is_empty() => child(path, &n),
                    _ => path.to_string(),
                },
            };
            let message = self.message(rule, &plain).unwrap_or_else(|| rule.message_or_default());
            if !transition && ratchet.unchanged() {
                continue;
            }
            self.out.push(Violation { field_path, message, reason: Some(rule.reason()) });
        }
    }

    /// The result of the rule's `messageExpression`, when it yields a usable message: a
    /// non-empty string of one line, at most 5KiB once trimmed. It sees `oldSelf` as the
    /// rule does without `optionalOldSelf` (the server evaluates it so).
    fn message(&mut self, rule: &Rule<'_>, vars: &Vars<'_>) -> Option<String> {
        if rule.message_expression.trim().is_empty() {
            return None;
        }
        let program = self.program(rule.message_expression).ok()?;
        let v = self.eval(&program, vars).ok()?;
        let s = v.downcast_ref::<CelString>()?.inner().trim().to_string();
        (!s.is_empty() && s.len() <= MAX_MESSAGE_BYTES && !s.contains('\n')).then_some(s)
    }
}
