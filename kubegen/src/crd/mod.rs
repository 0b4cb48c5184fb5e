//! The CustomResourceDefinition model: what the derive knows about a resource at compile
//! time ([`ResourceDef`]), assembled with its structural schema into a v1 CRD.

mod descriptions;
mod lint;
mod merge;
mod sample;
mod yaml;

pub use descriptions::{
    ETCD_REQUEST_LIMIT, Fitted, LAST_APPLIED_LIMIT, annotation_budget, applied_size, fit_descriptions,
    truncate_descriptions,
};
pub use lint::lint;
pub use merge::{MergeError, merge_crds};
pub use sample::{sample_object, sample_object_in};
pub use yaml::{YamlError, to_yaml};

use std::collections::BTreeMap;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::{
    CustomResourceColumnDefinition, CustomResourceDefinition, CustomResourceDefinitionNames,
    CustomResourceDefinitionSpec, CustomResourceDefinitionVersion, CustomResourceSubresourceScale,
    CustomResourceSubresourceStatus, CustomResourceSubresources, CustomResourceValidation, JSON, JSONSchemaProps,
    JSONSchemaPropsOrArray, JSONSchemaPropsOrBool, SelectableField, ValidationRule,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kubegen_core::kind::{KindTypes, Style};
use kubegen_core::schema::markers::Rule;
use kubegen_core::schema::node::{Additional, Node};

use crate::schema::Typed;
use serde_json::{Map, Value};

/// A CRD the API server would refuse, with every reason [`lint`] found.
#[derive(Debug, Clone, thiserror::Error)]
#[error("the API server would refuse the CRD {name}:\n  {}", problems.join("\n  "))]
pub struct Refused {
    pub name: String,
    pub problems: Vec<String>,
}

/// `crd` if the API server would take it ([`lint`] finds nothing) and every marker the
/// derive wrote for it read back (on this thread), else why not.
pub fn checked(crd: CustomResourceDefinition) -> Result<CustomResourceDefinition, Refused> {
    // A marker that did not read back while the CRD was built (on this thread) is not in it.
    let mut problems = crate::schema::markers::take_unread();
    problems.extend(lint(&crd));
    if problems.is_empty() {
        return Ok(crd);
    }
    Err(Refused { name: crd.metadata.name.clone().unwrap_or_default(), problems })
}

/// A CRD version's `openAPIV3Schema` as the typed IR (`None` when the version has no
/// schema, or one the IR does not read).
pub fn version_schema(version: &CustomResourceDefinitionVersion) -> Option<Node> {
    let schema = version.schema.as_ref()?.open_api_v3_schema.as_ref()?;
    Node::from_value(&serde_json::to_value(schema).ok()?)
}

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

/// A kind's types, each through the structural pass once ([`crate::schema::typed_for`]),
/// where the root puts them: what both the CRD and the client model are made from.
#[doc(hidden)]
pub enum RootTyped {
    Spec { spec: Typed, status: Option<Typed> },
    Flat { fields: Typed, status: Option<Typed> },
    Disabled,
}

/// The kind's CRD (`def` with `root`'s types inlined, `root_rules` on the root object) and
/// its client model, from the one set of typed schemas.
#[doc(hidden)]
pub fn build_kind(def: &ResourceDef, root: RootTyped, root_rules: Vec<Rule>) -> (CustomResourceDefinition, KindTypes) {
    let inline = |t: &Option<Typed>| t.as_ref().map(Typed::inline);
    let model = |t: Option<Typed>| t.map(|t| t.model);
    let (schema, types) = match root {
        RootTyped::Spec { spec, status } => (
            RootSchema::Spec { spec: spec.inline(), status: inline(&status) },
            KindTypes { style: Style::Spec, data: Some(spec.model), status: model(status) },
        ),
        RootTyped::Flat { fields, status } => (
            RootSchema::Flat { fields: fields.inline(), status: inline(&status) },
            KindTypes { style: Style::Flat, data: Some(fields.model), status: model(status) },
        ),
        RootTyped::Disabled => (RootSchema::Disabled, KindTypes { style: Style::Disabled, data: None, status: None }),
    };
    (build_crd(def, schema, root_rules), types)
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

/// The IR lowered to apiextensions' `JSONSchemaProps`, field by field: every key the IR
/// holds is one `JSONSchemaProps` has (the client model's references never reach a CRD).
pub fn lower(node: &Node) -> JSONSchemaProps {
    // Every field of the IR, by name: a field added to `Node` fails to compile here until
    // it reaches the CRD (or is said not to), instead of being dropped in silence.
    let Node {
        type_,
        format,
        title,
        description,
        nullable,
        default,
        example,
        enum_,
        minimum,
        maximum,
        exclusive_minimum,
        exclusive_maximum,
        multiple_of,
        min_length,
        max_length,
        pattern,
        min_items,
        max_items,
        unique_items,
        min_properties,
        max_properties,
        required,
        properties,
        additional_properties,
        items,
        all_of,
        any_of,
        one_of,
        not,
        external_docs,
        preserve_unknown_fields,
        int_or_string,
        embedded_resource,
        list_type,
        list_map_keys,
        map_type,
        validations,
        // The client model's references, and what a field says beside one (merged where
        // the reference is inlined): a CRD's schema has neither.
        reference,
        field: _,
    } = node;
    debug_assert!(reference.is_none(), "a CRD's schema holds no model references");
    let many = |nodes: &Option<Vec<Node>>| nodes.as_ref().map(|n| n.iter().map(lower).collect());
    let count = |n: Option<u64>| n.map(|n| i64::try_from(n).unwrap_or(i64::MAX));
    let number = |n: &Option<serde_json::Number>| n.as_ref().and_then(serde_json::Number::as_f64);
    JSONSchemaProps {
        type_: type_.clone(),
        format: format.clone(),
        title: title.clone(),
        description: description.clone(),
        nullable: *nullable,
        default: default.clone().map(JSON),
        example: example.clone().map(JSON),
        enum_: enum_.as_ref().map(|values| values.iter().cloned().map(JSON).collect()),
        minimum: number(minimum),
        maximum: number(maximum),
        exclusive_minimum: *exclusive_minimum,
        exclusive_maximum: *exclusive_maximum,
        multiple_of: number(multiple_of),
        min_length: count(*min_length),
        max_length: count(*max_length),
        pattern: pattern.clone(),
        min_items: count(*min_items),
        max_items: count(*max_items),
        unique_items: *unique_items,
        min_properties: count(*min_properties),
        max_properties: count(*max_properties),
        required: required.clone(),
        properties: properties.as_ref().map(|p| p.iter().map(|(k, v)| (k.clone(), lower(v))).collect()),
        additional_properties: additional_properties.as_ref().map(|a| match a {
            Additional::Allowed(b) => JSONSchemaPropsOrBool::Bool(*b),
            Additional::Schema(values) => JSONSchemaPropsOrBool::Schema(Box::new(lower(values))),
        }),
        items: items.as_ref().map(|items| JSONSchemaPropsOrArray::Schema(Box::new(lower(items)))),
        all_of: many(all_of),
        any_of: many(any_of),
        one_of: many(one_of),
        not: not.as_ref().map(|not| Box::new(lower(not))),
        external_docs: external_docs.clone().and_then(|docs| serde_json::from_value(docs).ok()),
        x_kubernetes_preserve_unknown_fields: *preserve_unknown_fields,
        x_kubernetes_int_or_string: *int_or_string,
        x_kubernetes_embedded_resource: *embedded_resource,
        x_kubernetes_list_type: list_type.clone(),
        x_kubernetes_list_map_keys: list_map_keys.clone(),
        x_kubernetes_map_type: map_type.clone(),
        x_kubernetes_validations: validations.as_ref().map(|rules| {
            rules
                .iter()
                .map(|r| ValidationRule {
                    rule: r.rule.clone(),
                    message: r.message.clone(),
                    message_expression: r.message_expression.clone(),
                    reason: r.reason.clone(),
                    field_path: r.field_path.clone(),
                    optional_old_self: r.optional_old_self,
                })
                .collect()
        }),
        ..JSONSchemaProps::default()
    }
}
