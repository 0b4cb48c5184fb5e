//! The CustomResourceDefinition model: what the derive knows about a resource at compile
//! time ([`ResourceDef`]), assembled with its structural schema into a v1 CRD.

mod descriptions;
mod lint;
mod merge;
mod sample;
mod yaml;

pub use descriptions::{LAST_APPLIED_LIMIT, applied_size, truncate_descriptions};
pub use lint::lint;
pub use merge::{MergeError, merge_crds};
pub use sample::sample_object;
pub use yaml::{YamlError, to_yaml};

use std::collections::BTreeMap;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::{
    CustomResourceColumnDefinition, CustomResourceDefinition, CustomResourceDefinitionNames,
    CustomResourceDefinitionSpec, CustomResourceDefinitionVersion, CustomResourceSubresourceScale,
    CustomResourceSubresourceStatus, CustomResourceSubresources, CustomResourceValidation, JSONSchemaProps,
    SelectableField,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde_json::{Map, Value, json};

/// Everything the resource-level markers say, as the derive resolved them.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct ResourceDef {
    pub group: &'static str,
    pub version: &'static str,
    pub kind: &'static str,
    pub plural: &'static str,
    pub singular: &'static str,
    pub short_names: &'static [&'static str],
    pub categories: &'static [&'static str],
    pub namespaced: bool,
    pub status_subresource: bool,
    pub scale: Option<ScaleDef>,
    pub printer_columns: &'static [PrinterColumnDef],
    pub selectable_fields: &'static [&'static str],
    pub served: bool,
    pub storage: bool,
    pub deprecated: bool,
    pub deprecation_warning: Option<&'static str>,
    pub annotations: &'static [(&'static str, &'static str)],
    pub labels: &'static [(&'static str, &'static str)],
    /// Description of the root object.
    pub description: Option<&'static str>,
}

#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct PrinterColumnDef {
    pub name: &'static str,
    pub type_: &'static str,
    pub json_path: &'static str,
    pub description: Option<&'static str>,
    pub format: Option<&'static str>,
    pub priority: Option<i32>,
}

#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct ScaleDef {
    pub spec_replicas_path: &'static str,
    pub status_replicas_path: &'static str,
    pub label_selector_path: Option<&'static str>,
}

/// How the object's data sits under the root.
#[doc(hidden)]
pub enum RootSchema {
    /// kube-rs style: `spec` (required) and an optional `status`.
    Spec { spec: Value, status: Option<Value> },
    /// The schema of a type whose fields are the root's fields (Go style, or `no_spec`).
    Flat { fields: Value, status: Option<Value> },
    /// `schema = "disabled"`: the server keeps whatever it is sent.
    Disabled,
}

const API_VERSION_DESCRIPTION: &str = "APIVersion defines the versioned schema of this representation of an object.\nServers should convert recognized schemas to the latest internal value, and\nmay reject unrecognized values.\nMore info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";
const KIND_DESCRIPTION: &str = "Kind is a string value representing the REST resource this object represents.\nServers may infer this from the endpoint the client submits requests to.\nCannot be updated.\nIn CamelCase.\nMore info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";

impl RootSchema {
    fn into_value(self, def: &ResourceDef, root_rules: Vec<Value>) -> Value {
        let mut props = Map::new();
        props.insert("apiVersion".into(), json!({"type": "string", "description": API_VERSION_DESCRIPTION}));
        props.insert("kind".into(), json!({"type": "string", "description": KIND_DESCRIPTION}));
        props.insert("metadata".into(), json!({"type": "object"}));
        let mut required: Vec<Value> = Vec::new();
        let mut root = Map::new();
        let set_status = |props: &mut Map<String, Value>, status: Option<Value>| {
            if let Some(status) = status {
                props.insert("status".into(), status);
            }
        };
        match self {
            RootSchema::Spec { spec, status } => {
                props.insert("spec".into(), spec);
                required.push("spec".into());
                set_status(&mut props, status);
            }
            RootSchema::Flat { fields, status } => {
                let Value::Object(mut fields) = fields else { unreachable_flat() };
                if let Some(Value::Object(field_props)) = fields.remove("properties") {
                    for (name, schema) in field_props {
                        if !matches!(name.as_str(), "apiVersion" | "kind" | "metadata") {
                            props.insert(name, schema);
                        }
                    }
                }
                if let Some(Value::Array(r)) = fields.remove("required") {
                    required.extend(
                        r.into_iter().filter(|n| !matches!(n.as_str(), Some("apiVersion" | "kind" | "metadata"))),
                    );
                }
                // The type's own validations and description belong to the root.
                for key in ["x-kubernetes-validations", "description", "x-kubernetes-preserve-unknown-fields"] {
                    if let Some(v) = fields.remove(key) {
                        root.insert(key.into(), v);
                    }
                }
                set_status(&mut props, status);
            }
            RootSchema::Disabled => {
                root.insert("x-kubernetes-preserve-unknown-fields".into(), true.into());
            }
        }
        if let Some(d) = def.description {
            root.insert("description".into(), d.into());
        }
        root.insert("type".into(), "object".into());
        root.insert("properties".into(), Value::Object(props));
        if !required.is_empty() {
            root.insert("required".into(), Value::Array(required));
        }
        if !root_rules.is_empty() {
            let existing = root.entry("x-kubernetes-validations").or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(existing) = existing {
                existing.extend(root_rules);
            }
        }
        Value::Object(root)
    }
}

/// A flat root type's schema is always an object: the derive only accepts structs there.
fn unreachable_flat() -> ! {
    unreachable!("the derive generates flat roots only for structs with named fields")
}

/// Builds the single-version CRD for `def` with `root` as its schema and `root_rules`
/// (CEL `ValidationRule`s as JSON) on the root object.
#[doc(hidden)]
pub fn build_crd(def: &ResourceDef, root: RootSchema, root_rules: Vec<Value>) -> CustomResourceDefinition {
    let schema_value = root.into_value(def, root_rules);
    // The structural pass only writes keys JSONSchemaProps has, with their types.
    let schema: JSONSchemaProps = match serde_json::from_value(schema_value) {
        Ok(schema) => schema,
        Err(e) => unreachable!("structural schema does not fit JSONSchemaProps: {e}"),
    };
    let owned = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let non_empty = |v: Vec<String>| if v.is_empty() { None } else { Some(v) };
    let pairs = |v: &[(&str, &str)]| {
        let map: BTreeMap<String, String> = v.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        if map.is_empty() { None } else { Some(map) }
    };

    let subresources = if def.status_subresource || def.scale.is_some() {
        Some(CustomResourceSubresources {
            status: def.status_subresource.then(|| CustomResourceSubresourceStatus(Value::Object(Map::new()))),
            scale: def.scale.map(|s| CustomResourceSubresourceScale {
                spec_replicas_path: s.spec_replicas_path.into(),
                status_replicas_path: s.status_replicas_path.into(),
                label_selector_path: s.label_selector_path.map(Into::into),
            }),
        })
    } else {
        None
    };
    let columns: Vec<CustomResourceColumnDefinition> = def
        .printer_columns
        .iter()
        .map(|c| CustomResourceColumnDefinition {
            name: c.name.into(),
            type_: c.type_.into(),
            json_path: c.json_path.into(),
            description: c.description.map(Into::into),
            format: c.format.map(Into::into),
            priority: c.priority,
        })
        .collect();
    let selectable: Vec<SelectableField> =
        def.selectable_fields.iter().map(|p| SelectableField { json_path: p.to_string() }).collect();

    CustomResourceDefinition {
        metadata: ObjectMeta {
            name: Some(format!("{}.{}", def.plural, def.group)),
            annotations: pairs(def.annotations),
            labels: pairs(def.labels),
            ..Default::default()
        },
        spec: CustomResourceDefinitionSpec {
            group: def.group.into(),
            names: CustomResourceDefinitionNames {
                kind: def.kind.into(),
                list_kind: Some(format!("{}List", def.kind)),
                plural: def.plural.into(),
                singular: Some(def.singular.into()),
                short_names: non_empty(owned(def.short_names)),
                categories: non_empty(owned(def.categories)),
            },
            scope: if def.namespaced { "Namespaced" } else { "Cluster" }.into(),
            versions: vec![CustomResourceDefinitionVersion {
                name: def.version.into(),
                served: def.served,
                storage: def.storage,
                deprecated: def.deprecated.then_some(true),
                deprecation_warning: def.deprecation_warning.map(Into::into),
                schema: Some(CustomResourceValidation { open_api_v3_schema: Some(schema) }),
                subresources,
                additional_printer_columns: if columns.is_empty() { None } else { Some(columns) },
                selectable_fields: if selectable.is_empty() { None } else { Some(selectable) },
            }],
            conversion: None,
            preserve_unknown_fields: None,
        },
        status: None,
    }
}
