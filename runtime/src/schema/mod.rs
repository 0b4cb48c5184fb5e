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
    structural(raw_schema_for::<T>(options))
}

/// The schema schemars generates for `T` with every subschema inlined (Kubernetes'
/// own types patched on the way), before the structural pass. Recursive types keep a
/// `$ref`, which the structural pass resolves.
pub fn raw_schema_for<T: JsonSchema + ?Sized>(options: &Options) -> Value {
    let mut generator = generator();
    let root = generator.subschema_for::<T>().to_value();
    let mut definitions = generator.take_definitions(false);
    k8s::patch_definitions(&mut definitions, options);
    inline(root, &definitions, &mut Vec::new())
}

/// The language-neutral model of `T` for typed clients: `T`'s name and every type it
/// uses, by name (the Rust type's, or k8s-openapi's `io.k8s.*` for Kubernetes' own
/// types, which are not expanded), each as a structural schema whose references to
/// other named types are reference nodes (with the field's own description and markers
/// beside). Markers are applied as in the CRD: a type's on its definition, a field's on
/// the reference.
pub fn model_for<T: JsonSchema + ?Sized>() -> Model {
    let mut generator = generator();
    let root = generator.subschema_for::<T>().to_value();
    let definitions = generator.take_definitions(false);
    let mut model = Model::default();
    for (name, definition) in definitions {
        if name.starts_with("io.k8s.") {
            let shallow = k8s::is_shallow(&name);
            model.external.insert(name, External { shallow });
            continue;
        }
        model.types.insert(name, structural(references(definition)));
    }
    // A type schemars always inlines (a primitive, `Vec<T>`) has its schema here, unnamed.
    model.root = structural(references(root));
    model
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

/// Replaces every `$ref` to a definition by the definition, except inside that same
/// definition (a recursive type). Keys beside a `$ref` (a field's description and
/// markers) win over the definition's, and the field's markers apply after the type's.
fn inline(node: Value, definitions: &Map<String, Value>, stack: &mut Vec<String>) -> Value {
    match node {
        Value::Object(mut obj) => {
            let target = obj.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix("#/$defs/"));
            if let Some(name) = target.map(String::from)
                && !stack.contains(&name)
                && let Some(Value::Object(definition)) = definitions.get(&name)
            {
                obj.remove("$ref");
                let mut out = definition.clone();
                for (key, value) in obj {
                    match (key.as_str(), out.get_mut(&key), value) {
                        (markers::MARKERS_KEY, Some(Value::Array(types)), Value::Array(fields)) => {
                            markers::field_rules_first(types, fields)
                        }
                        (_, _, value) => {
                            out.insert(key, value);
                        }
                    }
                }
                stack.push(name);
                let out = inline(Value::Object(out), definitions, stack);
                stack.pop();
                return out;
            }
            Value::Object(obj.into_iter().map(|(k, v)| (k, inline(v, definitions, stack))).collect())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(|v| inline(v, definitions, stack)).collect()),
        other => other,
    }
}
