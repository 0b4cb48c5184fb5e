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
    /// What the marker means, in a sentence: for errors, `--help` and the marker reference.
    pub help: &'static str,
    /// The JSON types of the nodes it applies to (`"string"`, `"array"`, ...); empty
    /// for any. A marker on a field of another type is a compile error.
    pub needs: &'static [&'static str],
    /// The schema key it sets (`maxLength`), for markers that set one key to their value.
    pub schema_key: Option<&'static str>,
    /// The only values it takes, for a marker that names one of a few (`atomic`, `set`, `map`).
    pub values: &'static [&'static str],
}

const fn m(key: &'static str, doc: &'static [&'static str], arg: Arg, target: Target, repeatable: bool) -> MarkerDef {
    MarkerDef { key, doc, arg, target, repeatable, help: "", needs: &[], schema_key: None, values: &[] }
}

impl MarkerDef {
    const fn help(mut self, help: &'static str) -> Self {
        self.help = help;
        self
    }

    const fn needs(mut self, needs: &'static [&'static str]) -> Self {
        self.needs = needs;
        self
    }

    const fn sets(mut self, schema_key: &'static str) -> Self {
        self.schema_key = Some(schema_key);
        self
    }

    const fn one_of(mut self, values: &'static [&'static str]) -> Self {
        self.values = values;
        self
    }
}

const NUMBER: &[&str] = &["integer", "number"];
const STRING: &[&str] = &["string"];
const ARRAY: &[&str] = &["array"];
const OBJECT: &[&str] = &["object"];

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
    m("group", &["groupName"], Str, Resource, false)
        .help("The API group of the kind (`+groupName` on the Go package)."),
    m("version", &["versionName"], Str, Resource, false)
        .help("The API version of the kind (`+versionName` on the Go package)."),
    m("kind", &[], Str, Resource, false)
        .help("The kind's name; the Rust type's name by default."),
    m("plural", &[], Str, Resource, false)
        .help("The resource's plural name; made from the kind as controller-gen makes it by default."),
    m("singular", &[], Str, Resource, false)
        .help("The resource's singular name; the lowercased kind by default."),
    m("root", &[], Str, Resource, false)
        .help("The name of the generated root type (kube-rs style); the kind by default."),
    m("namespaced", &[], Flag, Resource, false)
        .help("Objects live in a namespace; cluster-scoped otherwise."),
    m("resource", &["kubebuilder:resource"], Struct(RESOURCE_ARGS), Resource, false)
        .help("controller-gen's resource marker: path (plural), shortName, categories, scope, singular."),
    m("shortname", &[], Str, Resource, true)
        .help("A short name for kubectl (`kubectl get fo`); repeatable."),
    m("category", &[], Str, Resource, true)
        .help("A category the resource joins (`kubectl get all`); repeatable."),
    m("status", &[], Str, Resource, false)
        .help("The status type: adds `status` to the root and the status subresource."),
    m("status_subresource", &["kubebuilder:subresource:status"], Flag, Resource, false)
        .help("Enables the status subresource."),
    m("scale", &["kubebuilder:subresource:scale"], Struct(SCALE_ARGS), Resource, false)
        .help("Enables the scale subresource with its replica paths and label selector path."),
    m("printcolumn", &["kubebuilder:printcolumn"], Struct(PRINTCOLUMN_ARGS), Resource, true)
        .help("An additional printer column for `kubectl get`; repeatable."),
    m("selectable", &["kubebuilder:selectablefield"], Struct(SELECTABLE_ARGS), Resource, true)
        .help("A field usable in field selectors (`kubectl get --field-selector`); repeatable."),
    m("storage", &["kubebuilder:storageversion"], Flag, Resource, false)
        .help("This version is the storage version of the merged CRD."),
    m("served", &[], Flag, Resource, false)
        .help("Whether this version is served (`served = false` keeps it in the CRD unserved)."),
    m("unserved", &["kubebuilder:unservedversion"], Flag, Resource, false)
        .help("This version is not served."),
    m("deprecated", &["kubebuilder:deprecatedversion"], FlagOrStr, Resource, false)
        .help("This version is deprecated, with an optional warning returned to clients."),
    m("skip_version", &["kubebuilder:skipversion"], Flag, Resource, false)
        .help("Leave this version out of the merged CRD."),
    m("metadata", &["kubebuilder:metadata"], Struct(METADATA_ARGS), Resource, true)
        .help("Annotations and labels on the CRD object itself."),
    m("annotation", &[], Pair, Resource, true)
        .help("An annotation on the CRD object; repeatable."),
    m("label", &[], Pair, Resource, true)
        .help("A label on the CRD object; repeatable."),
    m("doc", &[], Str, Resource, false)
        .help("The generated root type's doc comment."),
    m("schema", &[], Str, Resource, false)
        .help("`derived` (default), `manual` or `disabled` (the server keeps whatever it is sent)."),
    m("no_spec", &[], Flag, Resource, false)
        .help("The spec type's fields sit beside `metadata` instead of under `spec`."),
    m("derive", &[], Str, Resource, true)
        .help("An extra derive for the generated root type; repeatable."),
    m("attr", &[], Str, Resource, true)
        .help("An extra attribute for the generated root type; repeatable."),
    m("crates", &[], Struct(&[sub("kubegen", "kubegen", Str, false)]), Resource, false)
        .help("Paths of the crates the generated code names (kube-derive's key)."),
    m("cel", &[], Flag, Resource, false)
        .help("kube-derive's key for CEL validation; rules are always supported here."),
    m("object_root", &["kubebuilder:object:root"], Flag, Resource, false)
        .help("controller-gen's object root marker; accepted for Go ports, implied by the derive."),
    // --- schema markers, in application order ---
    m("schema_type", &["kubebuilder:validation:Type"], Str, Schema, false)
        .help("Overrides the node's type (`string`, `integer`, `number`, `boolean`, `array`, `object`).")
        .sets("type"),
    m("int_or_string", &["kubebuilder:validation:XIntOrString"], Flag, Schema, false)
        .help("The node takes an integer or a string (`x-kubernetes-int-or-string`).")
        .sets("x-kubernetes-int-or-string"),
    m("list_type", &["listType", "k8s:listType"], Str, Schema, false)
        .help("How server-side apply merges the list: `atomic`, `set` (unique scalars) or `map` (items keyed by `list_map_keys`).")
        .needs(ARRAY)
        .sets("x-kubernetes-list-type")
        .one_of(&["atomic", "set", "map"]),
    m("list_map_keys", &["listMapKey", "k8s:listMapKey"], StrList, Schema, true)
        .help("The key fields of a `list_type = \"map\"` list's items; repeatable.")
        .needs(ARRAY),
    m("map_type", &["mapType"], Str, Schema, false)
        .help("How server-side apply merges the map: `atomic` or `granular`.")
        .needs(OBJECT)
        .sets("x-kubernetes-map-type")
        .one_of(&["atomic", "granular"]),
    m("struct_type", &["structType"], Str, Schema, false)
        .help("How server-side apply merges the struct: `atomic` or `granular`.")
        .needs(OBJECT)
        .sets("x-kubernetes-map-type")
        .one_of(&["atomic", "granular"]),
    m("minimum", &["kubebuilder:validation:Minimum", "k8s:minimum"], Number, Schema, false)
        .help("The smallest value allowed (inclusive unless `exclusive_minimum`).")
        .needs(NUMBER)
        .sets("minimum"),
    m("maximum", &["kubebuilder:validation:Maximum", "k8s:maximum"], Number, Schema, false)
        .help("The largest value allowed (inclusive unless `exclusive_maximum`).")
        .needs(NUMBER)
        .sets("maximum"),
    m("exclusive_minimum", &["kubebuilder:validation:ExclusiveMinimum"], Flag, Schema, false)
        .help("The minimum itself is not allowed.")
        .needs(NUMBER)
        .sets("exclusiveMinimum"),
    m("exclusive_maximum", &["kubebuilder:validation:ExclusiveMaximum"], Flag, Schema, false)
        .help("The maximum itself is not allowed.")
        .needs(NUMBER)
        .sets("exclusiveMaximum"),
    m("multiple_of", &["kubebuilder:validation:MultipleOf"], Number, Schema, false)
        .help("The value is a multiple of this number.")
        .needs(NUMBER)
        .sets("multipleOf"),
    m("min_length", &["kubebuilder:validation:MinLength"], Int, Schema, false)
        .help("The fewest characters a string may have.")
        .needs(STRING)
        .sets("minLength"),
    m("max_length", &["kubebuilder:validation:MaxLength"], Int, Schema, false)
        .help("The most characters a string may have.")
        .needs(STRING)
        .sets("maxLength"),
    m("pattern", &["kubebuilder:validation:Pattern"], Str, Schema, false)
        .help("A regular expression (Go's RE2) every string value matches.")
        .needs(STRING)
        .sets("pattern"),
    m("format", &["kubebuilder:validation:Format"], Str, Schema, false)
        .help("A named format (`date-time`, `uri`, `email`, `duration`, ...) the API server checks.")
        .sets("format"),
    m("min_items", &["kubebuilder:validation:MinItems"], Int, Schema, false)
        .help("The fewest items a list may have.")
        .needs(ARRAY)
        .sets("minItems"),
    m("max_items", &["kubebuilder:validation:MaxItems", "k8s:maxItems"], Int, Schema, false)
        .help("The most items a list may have.")
        .needs(ARRAY)
        .sets("maxItems"),
    m("unique_items", &["kubebuilder:validation:UniqueItems"], Flag, Schema, false)
        .help("Refused: the API server does not allow `uniqueItems`; use `list_type = \"set\"`.")
        .needs(ARRAY),
    m("min_properties", &["kubebuilder:validation:MinProperties"], Int, Schema, false)
        .help("The fewest keys an object or map may have.")
        .needs(OBJECT)
        .sets("minProperties"),
    m("max_properties", &["kubebuilder:validation:MaxProperties"], Int, Schema, false)
        .help("The most keys an object or map may have.")
        .needs(OBJECT)
        .sets("maxProperties"),
    m("enum_values", &["kubebuilder:validation:Enum"], StrList, Schema, false)
        .help("The only values allowed."),
    m("nullable", &["nullable", "kubebuilder:validation:Nullable"], Flag, Field, false)
        .help("`null` is a value of the field (kept, not pruned).")
        .sets("nullable"),
    m(
        "preserve_unknown_fields",
        &["kubebuilder:pruning:PreserveUnknownFields", "kubebuilder:validation:XPreserveUnknownFields"],
        Flag,
        Schema,
        false,
    )
        .help("The server keeps fields the schema does not name.")
        .sets("x-kubernetes-preserve-unknown-fields"),
    m(
        "embedded_resource",
        &["kubebuilder:validation:EmbeddedResource", "kubebuilder:validation:XEmbeddedResource"],
        Flag,
        Schema,
        false,
    )
        .help("The node is a whole Kubernetes object (apiVersion, kind, metadata).")
        .sets("x-kubernetes-embedded-resource"),
    m("schemaless", &["kubebuilder:validation:Schemaless"], Flag, Field, false)
        .help("No schema below this field: the server keeps whatever it is sent."),
    m("title", &["kubebuilder:title"], Str, Schema, false)
        .help("A title for the node.")
        .sets("title"),
    m("external_docs", &["kubebuilder:externalDocs"], Struct(EXTERNAL_DOCS_ARGS), Schema, false)
        .help("A link to documentation about the node."),
    m("example", &["kubebuilder:example"], Any, Field, false)
        .help("An example value (a Rust literal typed, controller-gen's value syntax in a comment)."),
    m("example_json", &[], JsonText, Field, false)
        .help("An example value as JSON text."),
    m("default_json", &["default"], JsonText, Field, false)
        .help("The default as JSON text, or `ref(CONSTANT)` for a Rust constant's serde JSON."),
    m("default", &["kubebuilder:default"], Any, Field, false)
        .help("The value the API server fills in when the field is absent."),
    m("validation", &["kubebuilder:validation:XValidation"], Rule, Schema, true)
        .help("A CEL rule the API server checks, with its message, reason and field path; repeatable."),
    m("immutable", &["k8s:immutable"], Flag, Field, false)
        .help("The field cannot change once set (a `self == oldSelf` rule)."),
    m("at_most_one_of", &["kubebuilder:validation:AtMostOneOf"], StrList, Type, true)
        .help("At most one of these fields is set (a CEL rule); repeatable."),
    m("exactly_one_of", &["kubebuilder:validation:ExactlyOneOf"], StrList, Type, true)
        .help("Exactly one of these fields is set (a CEL rule); repeatable."),
    m("at_least_one_of", &["kubebuilder:validation:AtLeastOneOf"], StrList, Type, true)
        .help("At least one of these fields is set (a CEL rule); repeatable."),
    m("optional", &["optional", "k8s:optional", "kubebuilder:validation:Optional"], Flag, Field, false)
        .help("The field may be absent, whatever its Rust type says."),
    m("required", &["required", "k8s:required", "kubebuilder:validation:Required"], Flag, Field, false)
        .help("The field must be present, whatever its Rust type says."),
    m("items", &[], Items, Schema, true)
        .help("Markers for each item of a list (`items(max_length = 63)`, `+kubebuilder:validation:items:...`).")
        .needs(ARRAY),
    // Beyond controller-gen: drop this node's description and everything's below it
    // (controller-tools#441), to keep a CRD under the size kubectl can apply.
    m("skip_description", &["kubegen:skipDescription"], Flag, Schema, false)
        .help("Drop this node's description and every description below it (keeps a CRD small)."),
    // client-go's apply configurations (controller-gen's `+kubebuilder:ac:generate=true`,
    // package-level there): `XApply` for server-side apply.
    m("apply_config", &["kubebuilder:ac:generate"], Flag, Type, false)
        .help("Generate a server-side apply configuration for the type."),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_marker_says_what_it_means_once() {
        for (i, def) in MARKERS.iter().enumerate() {
            assert!(def.help.ends_with('.') && def.help.len() > 10, "`{}` needs help text", def.key);
            assert!(!MARKERS[..i].iter().any(|d| d.key == def.key), "`{}` is declared twice", def.key);
            for spelling in def.doc {
                let twice = MARKERS[..i].iter().any(|d| d.doc.contains(spelling));
                assert!(!twice, "`+{spelling}` belongs to two markers");
            }
        }
    }
}
