//! Every marker kubegen knows, declared once. The `#[kube(...)]` parser, the doc-comment
//! parser, "did you mean" suggestions and the model builder all read this table, so the
//! two spellings of a marker cannot drift apart.

/// The shape of a marker's argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arg {
    /// Present or absent; `key = false` in the typed spelling.
    Flag,
    /// An integer.
    Int,
    /// A number (integer or float).
    Number,
    /// A string.
    Str,
    /// A list of strings: `["a", "b"]` typed, `a;b` or `{a,b}` in a doc comment.
    StrList,
    /// Any JSON value: a Rust literal typed, controller-gen's value syntax in a doc comment.
    Any,
    /// Any JSON value given as JSON text (`default_json = r#"..."#`, `+default=...`).
    JsonText,
    /// Named arguments: `key(a = .., b = ..)` typed, `+marker:a=..,b=..` in a doc comment.
    /// Each entry is (typed name, doc-comment name, argument shape, required).
    Struct(&'static [SubArg]),
    /// A flag or a string: `deprecated` / `deprecated = "warning"`.
    FlagOrStr,
    /// `key("name", "value")`.
    Pair,
    /// A CEL rule: a string, `("rule", "message")`, named arguments or a Rust expression.
    Rule,
    /// Nested field markers applying to array items: `items(max_length = 63)`.
    Items,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SubArg {
    pub key: &'static str,
    pub doc: &'static str,
    pub arg: Arg,
    pub required: bool,
}

const fn sub(key: &'static str, doc: &'static str, arg: Arg, required: bool) -> SubArg {
    SubArg { key, doc, arg, required }
}

/// Where a marker may stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// On the resource: the derive's type-level attribute or the root type's doc comment.
    Resource,
    /// On a field, or on a type (then it applies wherever the type is used).
    Schema,
    /// On a field only.
    Field,
    /// On a struct type only.
    Type,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MarkerDef {
    /// The typed spelling: `#[kube(key ...)]`.
    pub key: &'static str,
    /// Doc-comment spellings without the leading `+`.
    pub doc: &'static [&'static str],
    pub arg: Arg,
    pub target: Target,
    pub repeatable: bool,
}

const fn m(key: &'static str, doc: &'static [&'static str], arg: Arg, target: Target, repeatable: bool) -> MarkerDef {
    MarkerDef { key, doc, arg, target, repeatable }
}

pub const PRINTCOLUMN_ARGS: &[SubArg] = &[
    sub("name", "name", Arg::Str, true),
    sub("type", "type", Arg::Str, true),
    sub("json_path", "JSONPath", Arg::Str, true),
    sub("description", "description", Arg::Str, false),
    sub("format", "format", Arg::Str, false),
    sub("priority", "priority", Arg::Int, false),
];

pub const SCALE_ARGS: &[SubArg] = &[
    sub("spec_replicas_path", "specpath", Arg::Str, true),
    sub("status_replicas_path", "statuspath", Arg::Str, true),
    sub("label_selector_path", "selectorpath", Arg::Str, false),
];

pub const RESOURCE_ARGS: &[SubArg] = &[
    sub("path", "path", Arg::Str, false),
    sub("short_name", "shortName", Arg::StrList, false),
    sub("categories", "categories", Arg::StrList, false),
    sub("singular", "singular", Arg::Str, false),
    sub("scope", "scope", Arg::Str, false),
];

pub const RULE_ARGS: &[SubArg] = &[
    sub("rule", "rule", Arg::Str, true),
    sub("message", "message", Arg::Str, false),
    sub("message_expression", "messageExpression", Arg::Str, false),
    sub("reason", "reason", Arg::Str, false),
    sub("field_path", "fieldPath", Arg::Str, false),
    sub("optional_old_self", "optionalOldSelf", Arg::Flag, false),
];

pub const EXTERNAL_DOCS_ARGS: &[SubArg] =
    &[sub("url", "url", Arg::Str, true), sub("description", "description", Arg::Str, false)];

pub const METADATA_ARGS: &[SubArg] =
    &[sub("annotations", "annotations", Arg::StrList, false), sub("labels", "labels", Arg::StrList, false)];

pub const SELECTABLE_ARGS: &[SubArg] = &[sub("json_path", "JSONPath", Arg::Str, true)];

pub const DEPRECATED_ARGS: &[SubArg] = &[sub("warning", "warning", Arg::Str, false)];

use Arg::*;
use Target::*;

/// The table. Order within the schema markers is the order they are applied in, which
/// follows controller-gen's priorities (`pkg/crd/markers/priority.go`): the type and
/// int-or-string overrides and list types first, `+default` before `+kubebuilder:default`.
pub static MARKERS: &[MarkerDef] = &[
    // --- resource identity (kube-derive's keys and controller-gen's CRD markers) ---
    m("group", &["groupName"], Str, Resource, false),
    m("version", &["versionName"], Str, Resource, false),
    m("kind", &[], Str, Resource, false),
    m("plural", &[], Str, Resource, false),
    m("singular", &[], Str, Resource, false),
    m("root", &[], Str, Resource, false),
    m("namespaced", &[], Flag, Resource, false),
    m("resource", &["kubebuilder:resource"], Struct(RESOURCE_ARGS), Resource, false),
    m("shortname", &[], Str, Resource, true),
    m("category", &[], Str, Resource, true),
    m("status", &[], Str, Resource, false),
    m("status_subresource", &["kubebuilder:subresource:status"], Flag, Resource, false),
    m("scale", &["kubebuilder:subresource:scale"], Struct(SCALE_ARGS), Resource, false),
    m("printcolumn", &["kubebuilder:printcolumn"], Struct(PRINTCOLUMN_ARGS), Resource, true),
    m("selectable", &["kubebuilder:selectablefield"], Struct(SELECTABLE_ARGS), Resource, true),
    m("storage", &["kubebuilder:storageversion"], Flag, Resource, false),
    m("served", &[], Flag, Resource, false),
    m("unserved", &["kubebuilder:unservedversion"], Flag, Resource, false),
    m("deprecated", &["kubebuilder:deprecatedversion"], FlagOrStr, Resource, false),
    m("skip_version", &["kubebuilder:skipversion"], Flag, Resource, false),
    m("metadata", &["kubebuilder:metadata"], Struct(METADATA_ARGS), Resource, true),
    m("annotation", &[], Pair, Resource, true),
    m("label", &[], Pair, Resource, true),
    m("doc", &[], Str, Resource, false),
    m("schema", &[], Str, Resource, false),
    m("no_spec", &[], Flag, Resource, false),
    m("derive", &[], Str, Resource, true),
    m("attr", &[], Str, Resource, true),
    m("crates", &[], Struct(&[sub("kubegen", "kubegen", Str, false)]), Resource, false),
    m("cel", &[], Flag, Resource, false),
    m("object_root", &["kubebuilder:object:root"], Flag, Resource, false),
    // --- schema markers, in application order ---
    m("schema_type", &["kubebuilder:validation:Type"], Str, Schema, false),
    m("int_or_string", &["kubebuilder:validation:XIntOrString"], Flag, Schema, false),
    m("list_type", &["listType", "k8s:listType"], Str, Schema, false),
    m("list_map_keys", &["listMapKey", "k8s:listMapKey"], StrList, Schema, true),
    m("map_type", &["mapType"], Str, Schema, false),
    m("struct_type", &["structType"], Str, Schema, false),
    m("minimum", &["kubebuilder:validation:Minimum"], Number, Schema, false),
    m("maximum", &["kubebuilder:validation:Maximum"], Number, Schema, false),
    m("exclusive_minimum", &["kubebuilder:validation:ExclusiveMinimum"], Flag, Schema, false),
    m("exclusive_maximum", &["kubebuilder:validation:ExclusiveMaximum"], Flag, Schema, false),
    m("multiple_of", &["kubebuilder:validation:MultipleOf"], Number, Schema, false),
    m("min_length", &["kubebuilder:validation:MinLength"], Int, Schema, false),
    m("max_length", &["kubebuilder:validation:MaxLength"], Int, Schema, false),
    m("pattern", &["kubebuilder:validation:Pattern"], Str, Schema, false),
    m("format", &["kubebuilder:validation:Format"], Str, Schema, false),
    m("min_items", &["kubebuilder:validation:MinItems"], Int, Schema, false),
    m("max_items", &["kubebuilder:validation:MaxItems"], Int, Schema, false),
    m("unique_items", &["kubebuilder:validation:UniqueItems"], Flag, Schema, false),
    m("min_properties", &["kubebuilder:validation:MinProperties"], Int, Schema, false),
    m("max_properties", &["kubebuilder:validation:MaxProperties"], Int, Schema, false),
    m("enum_values", &["kubebuilder:validation:Enum"], StrList, Schema, false),
    m("nullable", &["nullable", "kubebuilder:validation:Nullable"], Flag, Field, false),
    m(
        "preserve_unknown_fields",
        &["kubebuilder:pruning:PreserveUnknownFields", "kubebuilder:validation:XPreserveUnknownFields"],
        Flag,
        Schema,
        false,
    ),
    m(
        "embedded_resource",
        &["kubebuilder:validation:EmbeddedResource", "kubebuilder:validation:XEmbeddedResource"],
        Flag,
        Schema,
        false,
    ),
    m("schemaless", &["kubebuilder:validation:Schemaless"], Flag, Field, false),
    m("title", &["kubebuilder:title"], Str, Schema, false),
    m("external_docs", &["kubebuilder:externalDocs"], Struct(EXTERNAL_DOCS_ARGS), Schema, false),
    m("example", &["kubebuilder:example"], Any, Field, false),
    m("example_json", &[], JsonText, Field, false),
    m("default_json", &["default"], JsonText, Field, false),
    m("default", &["kubebuilder:default"], Any, Field, false),
    m("validation", &["kubebuilder:validation:XValidation"], Rule, Schema, true),
    m("immutable", &["k8s:immutable"], Flag, Field, false),
    m("at_most_one_of", &["kubebuilder:validation:AtMostOneOf"], StrList, Type, true),
    m("exactly_one_of", &["kubebuilder:validation:ExactlyOneOf"], StrList, Type, true),
    m("at_least_one_of", &["kubebuilder:validation:AtLeastOneOf"], StrList, Type, true),
    m("optional", &["optional", "k8s:optional", "kubebuilder:validation:Optional"], Flag, Field, false),
    m("required", &["required", "k8s:required", "kubebuilder:validation:Required"], Flag, Field, false),
    m("items", &[], Items, Schema, true),
    // Beyond controller-gen: drop this node's description and everything's below it
    // (controller-tools#441), to keep a CRD under the size kubectl can apply.
    m("skip_description", &["kubegen:skipDescription"], Flag, Schema, false),
    // client-go's apply configurations (controller-gen's `+kubebuilder:ac:generate=true`,
    // package-level there): `XApply` for server-side apply.
    m("apply_config", &["kubebuilder:ac:generate"], Flag, Type, false),
];

/// The doc-comment prefix of markers applying to array items.
pub const ITEMS_PREFIX: &str = "kubebuilder:validation:items:";

pub fn by_key(key: &str) -> Option<&'static MarkerDef> {
    MARKERS.iter().find(|d| d.key == key)
}

/// The marker a doc-comment line names, with the rest of the line (`=value`, `:args` or
/// empty). The longest spelling wins: `+kubebuilder:validation:Maximum` is not
/// `+kubebuilder:validation:Max...`.
pub fn by_doc(line: &str) -> Option<(&'static MarkerDef, &str)> {
    let mut best: Option<(&'static MarkerDef, &str, usize)> = None;
    for def in MARKERS {
        for spelling in def.doc {
            if let Some(rest) = line.strip_prefix(spelling) {
                let fits = rest.is_empty() || rest.starts_with('=') || rest.starts_with(':');
                if fits && best.is_none_or(|(_, _, len)| spelling.len() > len) {
                    best = Some((def, rest, spelling.len()));
                }
            }
        }
    }
    best.map(|(def, rest, _)| (def, rest))
}

/// The closest known spelling to `unknown`, for "did you mean".
pub fn suggest<'a>(unknown: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .map(|c| (strsim::jaro_winkler(&unknown.to_lowercase(), &c.to_lowercase()), c))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

pub fn doc_spellings() -> impl Iterator<Item = &'static str> {
    MARKERS.iter().flat_map(|d| d.doc.iter().copied())
}

pub fn typed_keys() -> impl Iterator<Item = &'static str> {
    MARKERS.iter().map(|d| d.key)
}
