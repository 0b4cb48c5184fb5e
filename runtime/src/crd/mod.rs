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
use kubegen_core::schema::markers::Rule;
use kubegen_core::schema::node::Node;
use serde_json::{Map, Value};

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
    Spec { spec: Node, status: Option<Node> },
    /// The schema of a type whose fields are the root's fields (Go style, or `no_spec`).
    Flat { fields: Node, status: Option<Node> },
    /// `schema = "disabled"`: the server keeps whatever it is sent.
    Disabled,
}

const API_VERSION_DESCRIPTION: &str = "APIVersion defines the versioned schema of this representation of an object.\nServers should convert recognized schemas to the latest internal value, and\nmay reject unrecognized values.\nMore info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";
const KIND_DESCRIPTION: &str = "Kind is a string value representing the REST resource this object represents.\nServers may infer this from the endpoint the client submits requests to.\nCannot be updated.\nIn CamelCase.\nMore info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";

impl RootSchema {
    /// The resource's root node: apiVersion, kind and metadata beside the data.
    fn into_node(self, def: &ResourceDef, root_rules: Vec<Rule>) -> Node {
        let described = |description: &str| Node { description: Some(description.into()), ..Node::of_type("string") };
        let mut props = BTreeMap::from([
            ("apiVersion".to_string(), described(API_VERSION_DESCRIPTION)),
            ("kind".to_string(), described(KIND_DESCRIPTION)),
            ("metadata".to_string(), Node::of_type("object")),
        ]);
        let mut required = Vec::new();
        let mut root = Node::of_type("object");
        let is_resource_field = |name: &str| matches!(name, "apiVersion" | "kind" | "metadata");
        let status = match self {
            RootSchema::Spec { spec, status } => {
                props.insert("spec".into(), spec);
                required.push("spec".to_string());
                status
            }
            RootSchema::Flat { fields, status } => {
                props.extend(fields.properties.into_iter().flatten().filter(|(name, _)| !is_resource_field(name)));
                required.extend(fields.required.into_iter().flatten().filter(|name| !is_resource_field(name)));
                // The type's own validations and description belong to the root.
                root.validations = fields.validations;
                root.description = fields.description;
                root.preserve_unknown_fields = fields.preserve_unknown_fields;
                status
            }
            RootSchema::Disabled => {
                root.preserve_unknown_fields = Some(true);
                None
            }
        };
        if let Some(status) = status {
            props.insert("status".into(), status);
        }
        if let Some(d) = def.description {
            root.description = Some(d.into());
        }
        root.properties = Some(props);
        root.required = (!required.is_empty()).then_some(required);
        if !root_rules.is_empty() {
            root.validations.get_or_insert_with(Vec::new).extend(root_rules);
        }
        root
    }
}

/// Builds the single-version CRD for `def` with `root` as its schema and `root_rules`
/// (CEL rules) on the root object.
#[doc(hidden)]
pub fn build_crd(def: &ResourceDef, root: RootSchema, root_rules: Vec<Rule>) -> CustomResourceDefinition {
    let schema = lower(&root.into_node(def, root_rules));
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

/// The IR lowered to apiextensions' `JSONSchemaProps`: the IR reads and writes the same
/// JSON, and every key it holds is one `JSONSchemaProps` has, with its type.
pub fn lower(node: &Node) -> JSONSchemaProps {
    match serde_json::from_value(node.to_value()) {
        Ok(schema) => schema,
        Err(e) => unreachable!("the schema IR does not fit JSONSchemaProps: {e}"),
    }
}
