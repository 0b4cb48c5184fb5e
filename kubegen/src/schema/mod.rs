//! Schemas for CRDs: schemars describes the JSON serde reads; this module makes that
//! description structural and applies the kubebuilder markers the derive collected.

mod k8s;
pub(crate) mod markers;
mod structural;

pub use k8s::{K8S_MODULE_VERSION, Options, QUANTITY_PATTERN};
pub use structural::structural;

use kubegen_core::kind::{External, Model};
use kubegen_core::schema::node::Node;
use schemars::JsonSchema;
use schemars::generate::{SchemaGenerator, SchemaSettings};
use serde_json::{Map, Value};

/// The structural schema of `T`: every subschema inlined, `null` and `Option` folded,
/// markers applied, in the typed schema IR. This is what a CRD version carries for `T`.
pub fn schema_for<T: JsonSchema + ?Sized>(options: &Options) -> Node {
    typed_for::<T>(options).inline()
}

/// `T`'s types, each through the structural pass once, with references to each other by
/// name: the client model, Kubernetes' own types (patched as `options` say) among them.
pub struct Typed {
    pub model: Model,
}

/// `T`'s [`Typed`] types.
pub fn typed_for<T: JsonSchema + ?Sized>(options: &Options) -> Typed {
    let (root, definitions) = schemars_for::<T>();
    typed_from(root, definitions, options)
}

/// schemars' output for `T` as [`typed_from`] reads it: `T`'s schema (a `$ref` to its
/// definition where schemars names it) and every definition it reaches.
#[doc(hidden)]
pub fn schemars_for<T: JsonSchema + ?Sized>() -> (Value, Map<String, Value>) {
    let mut generator = generator();
    let root = generator.subschema_for::<T>().to_value();
    (root, generator.take_definitions(false))
}

/// [`Typed`] from schemars' output as JSON: the root's schema and its `$defs`, with the
/// markers the derive serializes under [`MARKERS_KEY`](markers::MARKERS_KEY). What
/// [`typed_for`] runs after schemars; the IR-level generated tier feeds it directly.
#[doc(hidden)]
pub fn typed_from(root: Value, mut definitions: Map<String, Value>, options: &Options) -> Typed {
    k8s::patch_definitions(&mut definitions, options);
    let mut typed = Typed { model: Model::default() };
    // Kubernetes' types are converted where the schema reaches them once patched (an
    // embedded ObjectMeta is `type: object`, and what it holds goes unused).
    let reached = reachable(&root, &definitions);
    let mut prepared = Vec::with_capacity(definitions.len());
    for (name, definition) in &definitions {
        let kubernetes = name.starts_with("io.k8s.");
        if kubernetes {
            typed.model.external.insert(name.clone(), External { shallow: k8s::is_shallow(name) });
        }
        if !kubernetes || reached.contains(name.as_str()) {
            prepared.push((name.clone(), unions_expanded(definition.clone(), &definitions)));
        }
    }
    let root = unions_expanded(root, &definitions);
    for (name, definition) in prepared {
        let node = structural(references(definition));
        if name.starts_with("io.k8s.") {
            typed.model.kubernetes.insert(name, node);
        } else {
            typed.model.types.insert(name, node);
        }
    }
    typed.model.root = structural(references(root));
    typed
}

impl Typed {
    /// The schema with every reference replaced by the named type's node, the field's
    /// own facts and markers over it: what a CRD version carries.
    pub fn inline(&self) -> Node {
        self.inline_node(&self.model.root, &mut Vec::new())
    }

    fn inline_node(&self, node: &Node, stack: &mut Vec<String>) -> Node {
        let Some(name) = node.reference.as_ref() else {
            let mut out = node.clone();
            self.inline_children(&mut out, stack);
            return out;
        };
        let field = node.field.as_deref().cloned().unwrap_or_default();
        let named = self.model.types.get(name).or_else(|| self.model.kubernetes.get(name));
        let mut out = match named {
            Some(named) if !stack.contains(name) => {
                stack.push(name.clone());
                let mut out = self.inline_node(named, stack);
                stack.pop();
                let mut facts = field.facts;
                facts.fill_from(out);
                out = facts;
                if field.drops_default {
                    out.default = None;
                }
                out
            }
            // A type inside itself (or one not generated): a structural schema is finite,
            // and the server keeps whatever is there.
            _ => Node { description: field.facts.description, preserve_unknown_fields: Some(true), ..Node::default() },
        };
        markers::apply_field(&mut out, &field.markers);
        // What the reference node says beyond the field's facts and markers (set there
        // by a pass after the field's own) is not lost where it is inlined: it fills in
        // what the named type's node does not say.
        let mut beside = Node { reference: None, field: None, ..node.clone() };
        if node.field.as_ref().is_some_and(|f| f.drops_default) {
            beside.default = None;
        }
        out.fill_from(beside);
        out
    }

    fn inline_children(&self, node: &mut Node, stack: &mut Vec<String>) {
        for child in node.properties.iter_mut().flat_map(|p| p.values_mut()) {
            *child = self.inline_node(child, stack);
        }
        if let Some(items) = node.items.as_mut() {
            **items = self.inline_node(items, stack);
        }
        if let Some(kubegen_core::schema::node::Additional::Schema(values)) = node.additional_properties.as_mut() {
            **values = self.inline_node(values, stack);
        }
        for child in [&mut node.all_of, &mut node.any_of, &mut node.one_of].into_iter().flatten().flatten() {
            *child = self.inline_node(child, stack);
        }
        if let Some(not) = node.not.as_mut() {
            **not = self.inline_node(not, stack);
        }
    }
}

/// The language-neutral model of `T` for typed clients: `T`'s name and every type it
/// uses, by name (the Rust type's, or k8s-openapi's `io.k8s.*` for Kubernetes' own
/// types, which are not expanded), each as a structural schema whose references to
/// other named types are reference nodes (with the field's own description and markers
/// beside). Markers are applied as in the CRD: a type's on its definition, a field's on
/// the reference.
pub fn model_for<T: JsonSchema + ?Sized>() -> Model {
    typed_for::<T>(&Options::default()).model
}

/// The definitions `root` and the Rust types' own definitions reach through `$ref`s.
fn reachable<'a>(root: &Value, definitions: &'a Map<String, Value>) -> std::collections::BTreeSet<&'a str> {
    fn refs<'v>(value: &'v Value, out: &mut Vec<&'v str>) {
        match value {
            Value::Object(obj) => {
                if let Some(name) = obj.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix("#/$defs/")) {
                    out.push(name);
                }
                obj.values().for_each(|v| refs(v, out));
            }
            Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
            _ => {}
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    let mut pending: Vec<&str> = Vec::new();
    refs(root, &mut pending);
    for (name, definition) in definitions {
        if !name.starts_with("io.k8s.") {
            refs(definition, &mut pending);
        }
    }
    while let Some(name) = pending.pop() {
        if let Some((key, definition)) = definitions.get_key_value(name)
            && seen.insert(key.as_str())
        {
            refs(definition, &mut pending);
        }
    }
    seen
}

/// `$ref`s to definitions as model references.
fn references(node: Value) -> Value {
    match node {
        Value::Object(mut obj) => {
            if let Some(Value::String(r)) = obj.get("$ref")
                && let Some(name) = r.strip_prefix("#/$defs/")
            {
                let name = name.to_string();
                obj.remove("$ref");
                obj.insert(structural::REF_KEY.into(), name.into());
            }
            Value::Object(obj.into_iter().map(|(k, v)| (k, references(v))).collect())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(references).collect()),
        other => other,
    }
}

/// Not generic, so each kind instantiates only `subschema_for::<T>`. Subschemas stay
/// definitions, named as their types name themselves, so Kubernetes' types can be
/// recognised and patched before they are inlined.
fn generator() -> SchemaGenerator {
    let mut settings = SchemaSettings::draft2020_12();
    settings.inline_subschemas = false;
    settings.meta_schema = None;
    settings.transforms.clear();
    settings.into_generator()
}

/// `node` with the named types a union's variants are made of expanded in place, where
/// folding the variants into one skeleton needs to see inside them: a variant that is a
/// named type (`Git(GitSource)` untagged or internally tagged), and a field that the
/// variants hold with different types (adjacently tagged content), down to where they
/// agree. Everything else keeps its reference.
fn unions_expanded(node: Value, definitions: &Map<String, Value>) -> Value {
    match node {
        Value::Object(mut obj) => {
            for junctor in ["anyOf", "oneOf"] {
                if let Some(Value::Array(branches)) = obj.remove(junctor) {
                    let variants = branches.iter().filter(|b| !is_null(b)).count();
                    let branches = if variants >= 2 { align(branches, definitions, &mut Vec::new()) } else { branches };
                    obj.insert(junctor.into(), Value::Array(branches));
                }
            }
            Value::Object(obj.into_iter().map(|(k, v)| (k, unions_expanded(v, definitions))).collect())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(|v| unions_expanded(v, definitions)).collect()),
        other => other,
    }
}

fn is_null(branch: &Value) -> bool {
    branch.get("type").and_then(Value::as_str) == Some("null")
}

/// The values one place holds in several variants: each expanded where they differ, and
/// the same for the fields they hold in common.
fn align(values: Vec<Value>, definitions: &Map<String, Value>, stack: &mut Vec<String>) -> Vec<Value> {
    if values.iter().all(|v| v == &values[0]) {
        return values;
    }
    let mut expanded_names = Vec::new();
    let mut values: Vec<Value> = values
        .into_iter()
        .map(|v| {
            let (v, name) = expand(v, definitions, stack);
            expanded_names.extend(name);
            v
        })
        .collect();
    stack.extend(expanded_names.iter().cloned());
    // Fields of the variants, by name, where two or more variants hold them.
    let mut names: Vec<String> = Vec::new();
    for v in &values {
        for name in v.get("properties").and_then(Value::as_object).into_iter().flat_map(|p| p.keys()) {
            if !names.contains(name) {
                names.push(name.clone());
            }
        }
    }
    for name in names {
        let holders: Vec<usize> =
            (0..values.len()).filter(|&i| values[i].get("properties").and_then(|p| p.get(&name)).is_some()).collect();
        if holders.len() < 2 {
            continue;
        }
        let fields: Vec<Value> = holders.iter().map(|&i| values[i]["properties"][&name].clone()).collect();
        for (i, field) in holders.into_iter().zip(align(fields, definitions, stack)) {
            values[i]["properties"][&name] = field;
        }
    }
    stack.truncate(stack.len() - expanded_names.len());
    values
}

/// A reference replaced by the named type's schema, the keys beside it (the field's
/// description and markers) over the type's; with the name expanded. A type already
/// being expanded (recursion) stays a reference.
fn expand(value: Value, definitions: &Map<String, Value>, stack: &[String]) -> (Value, Option<String>) {
    let Value::Object(mut obj) = value else { return (value, None) };
    let target = obj.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix("#/$defs/")).map(String::from);
    let Some(name) = target.filter(|n| !stack.contains(n)) else { return (Value::Object(obj), None) };
    let Some(Value::Object(definition)) = definitions.get(&name) else { return (Value::Object(obj), None) };
    obj.remove("$ref");
    let mut out = definition.clone();
    for (key, value) in obj {
        match (key.as_str(), out.get_mut(&key), value) {
            (markers::MARKERS_KEY, Some(Value::Array(types)), Value::Array(fields)) => {
                markers::field_rules_first(types, fields)
            }
            // Fields beside the reference (an internally tagged variant's tag) join the
            // type's: both hold, as JSON Schema reads a `$ref` with siblings.
            ("properties", Some(Value::Object(theirs)), Value::Object(ours)) => theirs.extend(ours),
            ("required", Some(Value::Array(theirs)), Value::Array(ours)) => {
                for name in ours {
                    if !theirs.contains(&name) {
                        theirs.push(name);
                    }
                }
            }
            (_, _, value) => {
                out.insert(key, value);
            }
        }
    }
    (Value::Object(out), Some(name))
}
