//! In-process validation: the checks the API server makes against a CRD's schema —
//! defaults first, then types, bounds, lengths, patterns, enums, required fields, list
//! types, value-validation junctors — and, with the `cel` feature, its CEL rules. A
//! controller or a webhook can check an object before sending it, and gets every
//! violation with its JSON path, worded as the server words it.

use std::fmt;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::{
    CustomResourceDefinition, CustomResourceDefinitionVersion,
};
use serde::Serialize;
use serde_json::Value;

use kubegen_core::schema::node::Node;
pub use kubegen_core::schema::validate::{Violation, check_value};
use kubegen_core::schema::validate::{apply_defaults, check_node, required};

use crate::CustomResourceExt;

/// Every violation found, in schema order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violations(pub Vec<Violation>);

impl fmt::Display for Violations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lines: Vec<String> = self.0.iter().map(|v| v.message.clone()).collect();
        f.write_str(&lines.join("\n"))
    }
}

impl std::error::Error for Violations {}

/// `validate()` for every derived kind: the schema of its CRD applied in-process.
pub trait Validate: CustomResourceExt + Serialize {
    /// The kind's validator, built from its CRD on first use and kept (the derive
    /// implements it with a static per kind).
    #[doc(hidden)]
    fn validator() -> &'static Validator;

    /// Checks the object as the API server would on create.
    fn validate(&self) -> Result<(), Violations> {
        let value = serde_json::to_value(self).map_err(|e| {
            Violations(vec![Violation { path: String::new(), message: format!("does not serialize to JSON: {e}") }])
        })?;
        Self::validator().validate(&value, None)
    }

    /// Checks the object as the API server would on an update from `old` (CEL
    /// transition rules see `oldSelf`).
    fn validate_update(&self, old: &Self) -> Result<(), Violations> {
        let to = |v: &Self| serde_json::to_value(v).unwrap_or(Value::Null);
        Self::validator().validate(&to(self), Some(&to(old)))
    }
}

/// The storage version's schema of a CRD, parsed once into the typed IR, which the
/// structural checks and the CEL evaluator read, with its CEL rules compiled on first
/// use and kept.
#[derive(Debug, Clone, Default)]
pub struct Validator {
    node: Node,
    /// The scale subresource's replica paths (`.spec.replicas`, `.status.replicas`): the
    /// server holds the integers there to 0..=2^31-1 whatever the schema says.
    replicas_paths: Vec<String>,
    #[cfg(feature = "cel")]
    programs: kubegen_cel::eval::Programs,
}

impl Validator {
    /// The schema it checks against.
    pub fn node(&self) -> &Node {
        &self.node
    }

    /// The storage version's (or the first version's) schema.
    pub fn for_crd(crd: &CustomResourceDefinition) -> Self {
        let version = crd.spec.versions.iter().find(|v| v.storage).or_else(|| crd.spec.versions.first());
        Validator::for_schema(version)
    }

    /// The schema of `crd`'s version `version`; an empty schema when there is no such
    /// version.
    pub fn for_version(crd: &CustomResourceDefinition, version: &str) -> Self {
        Validator::for_schema(crd.spec.versions.iter().find(|v| v.name == version))
    }

    fn for_schema(version: Option<&CustomResourceDefinitionVersion>) -> Self {
        let node = version.and_then(crate::crd::version_schema).unwrap_or_default();
        let replicas_paths = version
            .and_then(|v| v.subresources.as_ref()?.scale.as_ref())
            .map(|s| [Some(s.spec_replicas_path.clone()), Some(s.status_replicas_path.clone())])
            .into_iter()
            .flatten()
            .flatten()
            .collect();
        Validator { node, replicas_paths, ..Validator::default() }
    }

    /// Sets the schema's defaults in `object`, as the API server does on every write and
    /// on every read from etcd (a default applies where its parent object is present).
    pub fn apply_defaults(&self, object: &mut Value) {
        apply_defaults(&self.node, object);
    }

    /// Validates a JSON object as the API server would (`old`: the stored object, on an update).
    pub fn validate(&self, object: &Value, old: Option<&Value>) -> Result<(), Violations> {
        let mut object = object.clone();
        apply_defaults(&self.node, &mut object);
        let mut out = Vec::new();
        // The root's apiVersion, kind and metadata are the server's to check.
        if let (Some(props), Value::Object(fields)) = (&self.node.properties, &object) {
            for (name, sub) in props {
                if matches!(name.as_str(), "apiVersion" | "kind" | "metadata") {
                    continue;
                }
                if let Some(v) = fields.get(name) {
                    check_node(sub, v, name, &mut out);
                }
            }
            required(&self.node, fields, "", &mut out);
        }
        self.replicas(&object, &mut out);
        self.cel(&object, old, &mut out);
        if out.is_empty() { Ok(()) } else { Err(Violations(out)) }
    }

    /// The scale subresource's replica counts, as the server checks them on every write
    /// (found by the generated objects tier: a negative `spec.replicas` the schema allows).
    fn replicas(&self, object: &Value, out: &mut Vec<Violation>) {
        for path in &self.replicas_paths {
            let Some(v) = path.trim_start_matches('.').split('.').try_fold(object, |v, k| v.get(k)) else { continue };
            let Some(n) = v.as_i64() else { continue };
            let why = if n < 0 {
                "should be a non-negative integer".to_string()
            } else if n > i64::from(i32::MAX) {
                format!("should be less than or equal to {}", i32::MAX)
            } else {
                continue;
            };
            let at = path.trim_start_matches('.').to_string();
            out.push(Violation { message: format!("{path}: Invalid value: {n}: {why}"), path: at });
        }
    }
}

/// Validates a JSON object against the storage version's schema of `crd`.
pub fn validate_value(crd: &CustomResourceDefinition, object: &Value, old: Option<&Value>) -> Result<(), Violations> {
    Validator::for_crd(crd).validate(object, old)
}

impl Validator {
    #[cfg(feature = "cel")]
    fn cel(&self, object: &Value, old: Option<&Value>, out: &mut Vec<Violation>) {
        // The server reads the stored object defaulted, as it validates the new one.
        let old = old.map(|old| {
            let mut old = old.clone();
            apply_defaults(&self.node, &mut old);
            old
        });
        for v in kubegen_cel::eval::validate_with(&self.programs, &self.node, object, old.as_ref()) {
            let message = if v.field_path.is_empty() { v.message } else { format!("{}: {}", v.field_path, v.message) };
            out.push(Violation { path: v.field_path, message });
        }
    }

    #[cfg(not(feature = "cel"))]
    fn cel(&self, _: &Value, _: Option<&Value>, _: &mut Vec<Violation>) {}
}
