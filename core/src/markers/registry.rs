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

/// One named argument of a marker with named arguments (`printcolumn(json_path = ...)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SubArg {
    /// Its typed spelling, as a type: a consumer reads the argument by its variant.
    pub key: Sub,
    /// Its doc-comment spelling (`JSONPath`).
    pub doc: &'static str,
    pub arg: Arg,
    pub required: bool,
}

const fn sub(key: Sub, doc: &'static str, arg: Arg, required: bool) -> SubArg {
    SubArg { key, doc, arg, required }
}

/// An enum of spellings: each variant, its text (`as_str`, `Display`) and `ALL` in the
/// table's order. [`Key`] (the markers) and [`Sub`] (their named arguments) are two.
macro_rules! spellings {
    ($(#[$doc:meta])* $name:ident { $($variant:ident = $key:literal,)* }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $($variant,)*
        }

        impl $name {
            /// Every variant, in the table's order.
            pub const ALL: &[$name] = &[$($name::$variant,)*];

            /// The typed spelling.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $key,)*
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

spellings! {
    /// Every named argument's typed spelling (`json_path`, as in
    /// `printcolumn(json_path = ...)`), as a type: the derive reads a marker's argument by
    /// its variant ([`Named::get`]), so a misspelled one fails to compile.
    Sub {
        Name = "name",
        Type = "type",
        JsonPath = "json_path",
        Description = "description",
        Format = "format",
        Priority = "priority",
        SpecReplicasPath = "spec_replicas_path",
        StatusReplicasPath = "status_replicas_path",
        LabelSelectorPath = "label_selector_path",
        Path = "path",
        ShortName = "short_name",
        Categories = "categories",
        Singular = "singular",
        Scope = "scope",
        Rule = "rule",
        Message = "message",
        MessageExpression = "message_expression",
        Reason = "reason",
        FieldPath = "field_path",
        OptionalOldSelf = "optional_old_self",
        Url = "url",
        Annotations = "annotations",
        Labels = "labels",
        Warning = "warning",
        Kubegen = "kubegen",
    }
}

/// One argument's value, typed by its [`Arg`] shape when either spelling is parsed: what
/// the derive reads, with no JSON in between. JSON is kept only for what is a value of the
/// schema itself (a default, an example, enum values).
#[derive(Debug, Clone, PartialEq)]
pub enum ArgValue {
    /// [`Arg::Flag`].
    Flag(bool),
    /// [`Arg::Int`].
    Int(i64),
    /// [`Arg::Number`]: an integer stays one (`3`, not `3.0`).
    Number(serde_json::Number),
    /// [`Arg::Str`].
    Str(String),
    /// [`Arg::StrList`].
    Strs(Vec<String>),
    /// [`Arg::Any`] and [`Arg::JsonText`]: a value the schema holds.
    Json(serde_json::Value),
}

impl ArgValue {
    /// The value as the schema key it sets takes it (a fact's value is JSON there).
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            ArgValue::Flag(b) => (*b).into(),
            ArgValue::Int(i) => (*i).into(),
            ArgValue::Number(n) => serde_json::Value::Number(n.clone()),
            ArgValue::Str(s) => s.clone().into(),
            ArgValue::Strs(s) => s.clone().into(),
            ArgValue::Json(v) => v.clone(),
        }
    }
}

impl std::fmt::Display for ArgValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.to_json())
    }
}

/// A marker's named arguments as parsed, each typed, read by [`Sub`]: a misspelled
/// argument fails to compile, a value read as another shape is `None`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Named(Vec<(Sub, ArgValue)>);

impl Named {
    /// Sets `key` (a second value replaces the first, as controller-gen's parser does).
    pub fn insert(&mut self, key: Sub, value: ArgValue) {
        self.0.retain(|(k, _)| *k != key);
        self.0.push((key, value));
    }

    /// The argument's value, if given.
    pub fn get(&self, key: Sub) -> Option<&ArgValue> {
        self.0.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    /// Whether the argument is given.
    pub fn has(&self, key: Sub) -> bool {
        self.get(key).is_some()
    }

    /// A string argument.
    pub fn str(&self, key: Sub) -> Option<&str> {
        match self.get(key) {
            Some(ArgValue::Str(s)) => Some(s),
            _ => None,
        }
    }

    /// A list-of-strings argument (empty when not given).
    pub fn strs(&self, key: Sub) -> &[String] {
        match self.get(key) {
            Some(ArgValue::Strs(s)) => s,
            _ => &[],
        }
    }

    /// An integer argument.
    pub fn int(&self, key: Sub) -> Option<i64> {
        match self.get(key) {
            Some(ArgValue::Int(i)) => Some(*i),
            _ => None,
        }
    }

    /// A flag argument.
    pub fn flag(&self, key: Sub) -> Option<bool> {
        match self.get(key) {
            Some(ArgValue::Flag(b)) => Some(*b),
            _ => None,
        }
    }
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
    pub key: Key,
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
    /// The schema fact it sets (`maxLength`), for markers that set one key to their value.
    pub sets: Option<FactKind>,
    /// The only values it takes, for a marker that names one of a few (`atomic`, `set`, `map`).
    pub values: &'static [&'static str],
    /// The marker at work, for the marker reference; every marker has one (a test says so).
    pub example: Option<Example>,
}

/// A marker at work: Rust that compiles as the reference shows it, and the part of the
/// CRD it writes. `codegen-cli`'s reference generator writes each into a module of
/// `tests/tests/marker_examples.rs`, whose tests check the CRD holds `writes`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Example {
    pub place: Place,
    /// Rust source, as `place` says.
    pub code: &'static str,
    /// YAML that some node of the CRD matches: each key it names holds this value, where
    /// a mapping may have more keys than shown, a list has exactly the items shown, and
    /// `~` means the key is absent. Empty for a marker that writes nothing into the CRD.
    pub writes: &'static str,
    /// The CRD `writes` is checked against, a Rust expression; `Foo::crd()` when empty.
    pub crd: &'static str,
    /// What the marker does that `writes` cannot show, or why the example is not the
    /// marker itself.
    pub note: &'static str,
}

/// Where an example's code stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Fields of `FooSpec`, the spec of a kind `Foo` in `example.com/v1`.
    Field,
    /// Attributes and doc comments of that `FooSpec`, which has `pub replicas: i32`.
    Kind,
    /// Whole items: the example declares its own kinds and types.
    Items,
    /// Whole items the derive refuses (the note quotes its error): not compiled.
    Refused,
}

const fn field(code: &'static str, writes: &'static str) -> Example {
    Example { place: Place::Field, code, writes, crd: "", note: "" }
}

const fn kind(code: &'static str, writes: &'static str) -> Example {
    Example { place: Place::Kind, code, writes, crd: "", note: "" }
}

const fn items(code: &'static str, writes: &'static str) -> Example {
    Example { place: Place::Items, code, writes, crd: "", note: "" }
}

const fn refused(code: &'static str, writes: &'static str) -> Example {
    Example { place: Place::Refused, code, writes, crd: "", note: "" }
}

impl Example {
    const fn crd(mut self, crd: &'static str) -> Self {
        self.crd = crd;
        self
    }

    const fn note(mut self, note: &'static str) -> Self {
        self.note = note;
        self
    }
}

const fn m(key: Key, doc: &'static [&'static str], arg: Arg, target: Target, repeatable: bool) -> MarkerDef {
    MarkerDef { key, doc, arg, target, repeatable, help: "", needs: &[], sets: None, values: &[], example: None }
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

    const fn sets(mut self, fact: FactKind) -> Self {
        self.sets = Some(fact);
        self
    }

    const fn one_of(mut self, values: &'static [&'static str]) -> Self {
        self.values = values;
        self
    }

    const fn example(mut self, example: Example) -> Self {
        self.example = Some(example);
        self
    }
}

const NUMBER: &[&str] = &["integer", "number"];
const STRING: &[&str] = &["string"];
const ARRAY: &[&str] = &["array"];
const OBJECT: &[&str] = &["object"];

pub const PRINTCOLUMN_ARGS: &[SubArg] = &[
    sub(Sub::Name, "name", Arg::Str, true),
    sub(Sub::Type, "type", Arg::Str, true),
    sub(Sub::JsonPath, "JSONPath", Arg::Str, true),
    sub(Sub::Description, "description", Arg::Str, false),
    sub(Sub::Format, "format", Arg::Str, false),
    sub(Sub::Priority, "priority", Arg::Int, false),
];

pub const SCALE_ARGS: &[SubArg] = &[
    sub(Sub::SpecReplicasPath, "specpath", Arg::Str, true),
    sub(Sub::StatusReplicasPath, "statuspath", Arg::Str, true),
    sub(Sub::LabelSelectorPath, "selectorpath", Arg::Str, false),
];

pub const RESOURCE_ARGS: &[SubArg] = &[
    sub(Sub::Path, "path", Arg::Str, false),
    sub(Sub::ShortName, "shortName", Arg::StrList, false),
    sub(Sub::Categories, "categories", Arg::StrList, false),
    sub(Sub::Singular, "singular", Arg::Str, false),
    sub(Sub::Scope, "scope", Arg::Str, false),
];

pub const RULE_ARGS: &[SubArg] = &[
    sub(Sub::Rule, "rule", Arg::Str, true),
    sub(Sub::Message, "message", Arg::Str, false),
    sub(Sub::MessageExpression, "messageExpression", Arg::Str, false),
    sub(Sub::Reason, "reason", Arg::Str, false),
    sub(Sub::FieldPath, "fieldPath", Arg::Str, false),
    sub(Sub::OptionalOldSelf, "optionalOldSelf", Arg::Flag, false),
];

pub const EXTERNAL_DOCS_ARGS: &[SubArg] =
    &[sub(Sub::Url, "url", Arg::Str, true), sub(Sub::Description, "description", Arg::Str, false)];

pub const METADATA_ARGS: &[SubArg] =
    &[sub(Sub::Annotations, "annotations", Arg::StrList, false), sub(Sub::Labels, "labels", Arg::StrList, false)];

pub const SELECTABLE_ARGS: &[SubArg] = &[sub(Sub::JsonPath, "JSONPath", Arg::Str, true)];

pub const DEPRECATED_ARGS: &[SubArg] = &[sub(Sub::Warning, "warning", Arg::Str, false)];

use crate::schema::markers::FactKind;
use Arg::*;
use Target::*;

spellings! {
    /// Every marker's typed spelling (`max_items`, as in `#[kube(max_items = ...)]`), as a
    /// type: the derive and the CLI name a marker by its variant, so a misspelled one fails
    /// to compile. Each has one entry in [`MARKERS`] (a test says so).
    Key {
        Group = "group",
        Version = "version",
        Kind = "kind",
        Plural = "plural",
        Singular = "singular",
        Root = "root",
        Namespaced = "namespaced",
        Resource = "resource",
        Shortname = "shortname",
        Category = "category",
        Status = "status",
        StatusSubresource = "status_subresource",
        Scale = "scale",
        Printcolumn = "printcolumn",
        Selectable = "selectable",
        Storage = "storage",
        Served = "served",
        Unserved = "unserved",
        Deprecated = "deprecated",
        SkipVersion = "skip_version",
        Metadata = "metadata",
        Annotation = "annotation",
        Label = "label",
        Doc = "doc",
        Schema = "schema",
        NoSpec = "no_spec",
        Derive = "derive",
        Attr = "attr",
        Crates = "crates",
        Cel = "cel",
        ObjectRoot = "object_root",
        SchemaType = "schema_type",
        IntOrString = "int_or_string",
        PreserveUnknownFields = "preserve_unknown_fields",
        EmbeddedResource = "embedded_resource",
        ListType = "list_type",
        ListMapKeys = "list_map_keys",
        MapType = "map_type",
        StructType = "struct_type",
        Minimum = "minimum",
        Maximum = "maximum",
        ExclusiveMinimum = "exclusive_minimum",
        ExclusiveMaximum = "exclusive_maximum",
        MultipleOf = "multiple_of",
        MinLength = "min_length",
        MaxLength = "max_length",
        Pattern = "pattern",
        Format = "format",
        MinItems = "min_items",
        MaxItems = "max_items",
        UniqueItems = "unique_items",
        MinProperties = "min_properties",
        MaxProperties = "max_properties",
        EnumValues = "enum_values",
        Nullable = "nullable",
        Schemaless = "schemaless",
        Title = "title",
        ExternalDocs = "external_docs",
        Example = "example",
        ExampleJson = "example_json",
        DefaultJson = "default_json",
        Default = "default",
        Validation = "validation",
        Immutable = "immutable",
        AtMostOneOf = "at_most_one_of",
        ExactlyOneOf = "exactly_one_of",
        AtLeastOneOf = "at_least_one_of",
        Optional = "optional",
        Required = "required",
        Items = "items",
        SkipDescription = "skip_description",
        ApplyConfig = "apply_config",
    }
}

/// The table. Order within the schema markers is the order they are applied in, which
/// follows controller-gen's priorities (`pkg/crd/markers/priority.go`): the type and
/// int-or-string overrides and list types first, `+default` before `+kubebuilder:default`.
pub static MARKERS: &[MarkerDef] = &[
    // --- resource identity (kube-derive's keys and controller-gen's CRD markers) ---
    m(Key::Group, &["groupName"], Str, Resource, false)
        .help("The API group of the kind (`+groupName` on the Go package).")
        .example(
            kind(
                "",
                r#"
metadata:
  name: foos.example.com
spec:
  group: example.com
"#,
            )
            .note("`//! +groupName=example.com` in the doc of the kind's file (or of the `mod.rs` beside it) gives every kind there its group, as controller-gen reads it from the Go package's doc."),
        ),
    m(Key::Version, &["versionName"], Str, Resource, false)
        .help("The API version of the kind (`+versionName` on the Go package).")
        .example(
            kind(
                "",
                r#"
versions:
- name: v1
  served: true
  storage: true
"#,
            )
            .note("`//! +versionName=v1` in the doc of the kind's file does the same, and so does a module path such as `api/v1/`."),
        ),
    m(Key::Kind, &[], Str, Resource, false)
        .help("The kind's name; the Rust type's name by default.")
        .example(
            kind(
                "",
                r#"
names:
  kind: Foo
  listKind: FooList
  plural: foos
  singular: foo
"#,
            ),
        ),
    m(Key::Plural, &[], Str, Resource, false)
        .help("The resource's plural name; made from the kind as controller-gen makes it by default.")
        .example(
            kind(
                r#"#[kube(plural = "fooes")]"#,
                r#"
metadata:
  name: fooes.example.com
spec:
  names:
    plural: fooes
"#,
            ),
        ),
    m(Key::Singular, &[], Str, Resource, false)
        .help("The resource's singular name; the lowercased kind by default.")
        .example(
            kind(
                r#"#[kube(singular = "thefoo")]"#,
                r#"
names:
  singular: thefoo
"#,
            ),
        ),
    m(Key::Root, &[], Str, Resource, false)
        .help("The name of the generated root type (kube-rs style); the kind by default.")
        .example(
            kind(
                r#"#[kube(root = "FooResource")]"#,
                r#"
names:
  kind: Foo
"#,
            )
            .crd("FooResource::crd()")
            .note("The generated Rust type is `FooResource`; the kind, and so the CRD, stay `Foo`."),
        ),
    m(Key::Namespaced, &[], Flag, Resource, false)
        .help("Objects live in a namespace: the default, as in controller-gen; `namespaced = false` makes the kind cluster-scoped.")
        .example(
            kind(
                r#"#[kube(namespaced = false)]"#,
                r#"scope: Cluster"#,
            )
            .note("`namespaced = false` makes the kind cluster-scoped. Without the key, as with `namespaced`, the scope is `Namespaced`, which is controller-gen's default too."),
        ),
    m(Key::Resource, &["kubebuilder:resource"], Struct(RESOURCE_ARGS), Resource, false)
        .help("controller-gen's resource marker: path (plural), shortName, categories, scope, singular.")
        .example(
            kind(
                r#"#[kube(resource(path = "foos", short_name = ["fo"], categories = ["all"], scope = "Cluster"))]"#,
                r#"
names:
  categories:
  - all
  plural: foos
  shortNames:
  - fo
scope: Cluster
"#,
            ),
        ),
    m(Key::Shortname, &[], Str, Resource, true)
        .help("A short name for kubectl (`kubectl get fo`); repeatable.")
        .example(
            kind(
                r#"#[kube(shortname = "fo")]"#,
                r#"
names:
  shortNames:
  - fo
"#,
            ),
        ),
    m(Key::Category, &[], Str, Resource, true)
        .help("A category the resource joins (`kubectl get all`); repeatable.")
        .example(
            kind(
                r#"#[kube(category = "all")]"#,
                r#"
names:
  categories:
  - all
"#,
            ),
        ),
    m(Key::Status, &[], Str, Resource, false)
        .help("The status type: adds `status` to the root and the status subresource.")
        .example(
            items(
                r#"
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Foo", status = "FooStatus")]
pub struct FooSpec {
    pub replicas: i32,
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub struct FooStatus {
    pub ready: bool,
}
"#,
                r#"
subresources:
  status: {}
"#,
            )
            .note("The generated `Foo` has `status: Option<FooStatus>`, and the schema a `status` property."),
        ),
    m(Key::StatusSubresource, &["kubebuilder:subresource:status"], Flag, Resource, false)
        .help("Enables the status subresource.")
        .example(
            items(
                r#"
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

/// +kubebuilder:subresource:status
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Foo")]
pub struct Foo {
    pub metadata: ObjectMeta,
    pub spec: FooSpec,
    pub status: Option<FooStatus>,
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub struct FooSpec {
    pub replicas: i32,
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub struct FooStatus {
    pub ready: bool,
}
"#,
                r#"
subresources:
  status: {}
"#,
            )
            .note("For a root type that declares its own `status` field; on a spec, `status = \"FooStatus\"` implies it."),
        ),
    m(Key::Scale, &["kubebuilder:subresource:scale"], Struct(SCALE_ARGS), Resource, false)
        .help("Enables the scale subresource with its replica paths and label selector path.")
        .example(
            items(
                r#"
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Foo", status = "FooStatus")]
#[kube(scale(spec_replicas_path = ".spec.replicas", status_replicas_path = ".status.replicas"))]
pub struct FooSpec {
    pub replicas: i32,
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub struct FooStatus {
    pub replicas: i32,
}
"#,
                r#"
subresources:
  scale:
    specReplicasPath: .spec.replicas
    statusReplicasPath: .status.replicas
  status: {}
"#,
            ),
        ),
    m(Key::Printcolumn, &["kubebuilder:printcolumn"], Struct(PRINTCOLUMN_ARGS), Resource, true)
        .help("An additional printer column for `kubectl get`; repeatable.")
        .example(
            kind(
                r#"/// +kubebuilder:printcolumn:name="Replicas",type=integer,JSONPath=".spec.replicas""#,
                r#"
additionalPrinterColumns:
- jsonPath: .spec.replicas
  name: Replicas
  type: integer
"#,
            ),
        ),
    m(Key::Selectable, &["kubebuilder:selectablefield"], Struct(SELECTABLE_ARGS), Resource, true)
        .help("A field usable in field selectors (`kubectl get --field-selector`); repeatable.")
        .example(
            kind(
                r#"#[kube(selectable(json_path = ".spec.replicas"))]"#,
                r#"
selectableFields:
- jsonPath: .spec.replicas
"#,
            ),
        ),
    m(Key::Storage, &["kubebuilder:storageversion"], Flag, Resource, false)
        .help("This version is the storage version of the merged CRD.")
        .example(
            items(
                r#"
pub mod v1 {
    use super::*;

    /// +kubebuilder:storageversion
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        pub replicas: i32,
    }
}

pub mod v2 {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v2", kind = "Foo")]
    pub struct FooSpec {
        pub replicas: i32,
    }
}
"#,
                "",
            )
            .crd("v1::Foo::crd()")
            .note("A kind's own CRD has one version, which is its storage version either way; `codegen-cli manifests`, merging the versions of `foos.example.com` into one CRD, makes `v1` the one with `storage: true`."),
        ),
    m(Key::Served, &[], Flag, Resource, false)
        .help("Whether this version is served (`served = false` keeps it in the CRD unserved).")
        .example(
            kind(
                r#"#[kube(served = false)]"#,
                r#"
versions:
- name: v1
  served: false
"#,
            )
            .note("`served = false` keeps the version in the CRD, unserved; `served` alone is the default."),
        ),
    m(Key::Unserved, &["kubebuilder:unservedversion"], Flag, Resource, false)
        .help("This version is not served.")
        .example(
            kind(
                r#"/// +kubebuilder:unservedversion"#,
                r#"
versions:
- name: v1
  served: false
"#,
            ),
        ),
    m(Key::Deprecated, &["kubebuilder:deprecatedversion"], FlagOrStr, Resource, false)
        .help("This version is deprecated, with an optional warning returned to clients.")
        .example(
            kind(
                r#"#[kube(deprecated = "example.com/v1 Foo is deprecated; use v2")]"#,
                r#"
versions:
- deprecated: true
  deprecationWarning: example.com/v1 Foo is deprecated; use v2
  name: v1
"#,
            ),
        ),
    m(Key::SkipVersion, &["kubebuilder:skipversion"], Flag, Resource, false)
        .help("Leave this version out of the merged CRD.")
        .example(
            items(
                r#"
pub mod v1 {
    use super::*;

    /// +kubebuilder:skipversion
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Foo")]
    pub struct FooSpec {
        pub replicas: i32,
    }
}

pub mod v2 {
    use super::*;

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v2", kind = "Foo")]
    pub struct FooSpec {
        pub replicas: i32,
    }
}
"#,
                "",
            )
            .crd("v1::Foo::crd()")
            .note("The kind's own CRD is unchanged; `codegen-cli manifests` leaves `v1` out when it merges the versions of `foos.example.com`, so the merged CRD has only `v2`."),
        ),
    m(Key::Metadata, &["kubebuilder:metadata"], Struct(METADATA_ARGS), Resource, true)
        .help("Annotations and labels on the CRD object itself.")
        .example(
            kind(
                r#"/// +kubebuilder:metadata:annotations="owner=team-a",labels="tier=api""#,
                r#"
metadata:
  annotations:
    owner: team-a
  labels:
    tier: api
"#,
            ),
        ),
    m(Key::Annotation, &[], Pair, Resource, true)
        .help("An annotation on the CRD object; repeatable.")
        .example(
            kind(
                r#"#[kube(annotation("owner", "team-a"))]"#,
                r#"
metadata:
  annotations:
    owner: team-a
"#,
            ),
        ),
    m(Key::Label, &[], Pair, Resource, true)
        .help("A label on the CRD object; repeatable.")
        .example(
            kind(
                r#"#[kube(label("tier", "api"))]"#,
                r#"
metadata:
  labels:
    tier: api
"#,
            ),
        ),
    m(Key::Doc, &[], Str, Resource, false)
        .help("The generated root type's doc comment.")
        .example(
            kind(
                r#"#[kube(doc = "A Foo runs replicas.")]"#,
                r#"
openAPIV3Schema:
  description: A Foo runs replicas.
"#,
            ),
        ),
    m(Key::Schema, &[], Str, Resource, false)
        .help("`derived` (default), `manual` or `disabled` (the server keeps whatever it is sent).")
        .example(
            kind(
                r#"#[kube(schema = "disabled")]"#,
                r#"
openAPIV3Schema:
  type: object
  x-kubernetes-preserve-unknown-fields: true
"#,
            ),
        ),
    m(Key::NoSpec, &[], Flag, Resource, false)
        .help("The spec type's fields sit beside `metadata` instead of under `spec`.")
        .example(
            kind(
                r#"#[kube(no_spec)]"#,
                r#"
openAPIV3Schema:
  properties:
    replicas:
      type: integer
    spec: ~
"#,
            ),
        ),
    m(Key::Derive, &[], Str, Resource, true)
        .help("An extra derive for the generated root type; repeatable.")
        .example(
            items(
                r#"
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube(group = "example.com", version = "v1", kind = "Foo", derive = "PartialEq")]
pub struct FooSpec {
    pub replicas: i32,
}

pub fn same(a: &Foo, b: &Foo) -> bool {
    a == b
}
"#,
                "",
            )
            .note("The generated `Foo` derives `PartialEq` (its spec must too)."),
        ),
    m(Key::Attr, &[], Str, Resource, true)
        .help("An extra attribute for the generated root type; repeatable.")
        .example(
            kind(
                r#"#[kube(attr = "allow(deprecated)")]"#,
                "",
            )
            .note("The generated `Foo` carries `#[allow(deprecated)]`; `derive`, `serde` and `schemars` attributes are refused here (use `derive = ...`)."),
        ),
    m(Key::Crates, &[], Struct(&[sub(Sub::Kubegen, "kubegen", Str, false)]), Resource, false)
        .help("kube-derive's key for the paths of the crates the generated code names; refused here: depend on kubegen under its own name.")
        .example(
            refused(
                r#"
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Foo")]
#[kube(crates(kubegen = "::my_kubegen"))]
pub struct FooSpec {
    pub replicas: i32,
}
"#,
                "",
            )
            .note("`crates(kubegen = ...)` is not supported yet: depend on kubegen under its own name"),
        ),
    m(Key::Cel, &[], Flag, Resource, false)
        .help("kube-derive's key for its client-side CEL validation; refused here: the API server evaluates the `validation` rules, and `Validate` runs them in-process.")
        .example(
            refused(
                r#"
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Foo", cel)]
pub struct FooSpec {
    pub replicas: i32,
}
"#,
                "",
            )
            .note("`cel` (kube-derive's client-side CEL validation) is not available in kubegen yet; the API server evaluates the `validation` rules"),
        ),
    m(Key::ObjectRoot, &["kubebuilder:object:root"], Flag, Resource, false)
        .help("controller-gen's object root marker; accepted for Go ports, implied by the derive.")
        .example(
            items(
                r#"
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

/// +kubebuilder:object:root=true
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Foo")]
pub struct Foo {
    pub metadata: ObjectMeta,
    pub replicas: i32,
}
"#,
                "",
            )
            .note("Accepted so that a Go type pastes unchanged; the derive already makes `Foo` a root."),
        ),
    // --- schema markers, in application order ---
    m(Key::SchemaType, &["kubebuilder:validation:Type"], Str, Schema, false)
        .help("Overrides the node's type (`string`, `integer`, `number`, `boolean`, `array`, `object`).")
        .sets(FactKind::Type)
        .example(
            field(
                r#"
#[kube(schema_type = "string")]
pub quantity: serde_json::Value,
/// +kubebuilder:validation:Type=string
pub size: serde_json::Value,
"#,
                r#"
quantity:
  type: string
size:
  type: string
"#,
            ),
        ),
    m(Key::IntOrString, &["kubebuilder:validation:XIntOrString"], Flag, Schema, false)
        .help("The node takes an integer or a string (`x-kubernetes-int-or-string`).")
        .sets(FactKind::IntOrString)
        .example(
            field(
                r#"
#[kube(int_or_string)]
pub port: serde_json::Value,
/// +kubebuilder:validation:XIntOrString
pub target: serde_json::Value,
"#,
                r#"
port:
  x-kubernetes-int-or-string: true
target:
  x-kubernetes-int-or-string: true
"#,
            ),
        ),
    m(Key::ListType, &["listType", "k8s:listType"], Str, Schema, false)
        .help("How server-side apply merges the list: `atomic`, `set` (unique scalars) or `map` (items keyed by `list_map_keys`).")
        .needs(ARRAY)
        .sets(FactKind::ListType)
        .one_of(&["atomic", "set", "map"])
        .example(
            field(
                r#"
#[kube(list_type = "set")]
pub tags: Vec<String>,
/// +listType=atomic
pub args: Vec<String>,
"#,
                r#"
args:
  x-kubernetes-list-type: atomic
tags:
  x-kubernetes-list-type: set
"#,
            ),
        ),
    m(Key::ListMapKeys, &["listMapKey", "k8s:listMapKey"], StrList, Schema, true)
        .help("The key fields of a `list_type = \"map\"` list's items; repeatable.")
        .needs(ARRAY)
        .example(
            items(
                r#"
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Foo")]
pub struct FooSpec {
    #[kube(list_type = "map", list_map_keys = ["name"])]
    pub ports: Vec<Port>,
    /// +listType=map
    /// +listMapKey=name
    /// +listMapKey=port
    pub backends: Vec<Port>,
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Port {
    pub name: String,
    pub port: i32,
}
"#,
                r#"
backends:
  x-kubernetes-list-map-keys:
  - name
  - port
  x-kubernetes-list-type: map
ports:
  x-kubernetes-list-map-keys:
  - name
  x-kubernetes-list-type: map
"#,
            ),
        ),
    m(Key::MapType, &["mapType"], Str, Schema, false)
        .help("How server-side apply merges the map: `atomic` or `granular`.")
        .needs(OBJECT)
        .sets(FactKind::MapType)
        .one_of(&["atomic", "granular"])
        .example(
            field(
                r#"
#[kube(map_type = "atomic")]
pub selector: std::collections::BTreeMap<String, String>,
/// +mapType=granular
pub labels: std::collections::BTreeMap<String, String>,
"#,
                r#"
labels:
  x-kubernetes-map-type: granular
selector:
  x-kubernetes-map-type: atomic
"#,
            ),
        ),
    m(Key::StructType, &["structType"], Str, Schema, false)
        .help("How server-side apply merges the struct: `atomic` or `granular`.")
        .needs(OBJECT)
        .sets(FactKind::MapType)
        .one_of(&["atomic", "granular"])
        .example(
            items(
                r#"
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Foo")]
pub struct FooSpec {
    #[kube(struct_type = "atomic")]
    pub selector: Selector,
    pub owner: Owner,
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Selector {
    pub app: String,
}

/// +structType=atomic
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Owner {
    pub name: String,
}
"#,
                r#"
owner:
  x-kubernetes-map-type: atomic
selector:
  x-kubernetes-map-type: atomic
"#,
            )
            .note("On a type (here `Owner`) it holds wherever the type is used."),
        ),
    m(Key::Minimum, &["kubebuilder:validation:Minimum", "k8s:minimum"], Number, Schema, false)
        .help("The smallest value allowed (inclusive unless `exclusive_minimum`).")
        .needs(NUMBER)
        .sets(FactKind::Minimum)
        .example(
            field(
                r#"
#[kube(minimum = 1)]
pub replicas: i32,
/// +kubebuilder:validation:Minimum=0.5
pub ratio: f64,
"#,
                r#"
ratio:
  minimum: 0.5
replicas:
  minimum: 1
"#,
            ),
        ),
    m(Key::Maximum, &["kubebuilder:validation:Maximum", "k8s:maximum"], Number, Schema, false)
        .help("The largest value allowed (inclusive unless `exclusive_maximum`).")
        .needs(NUMBER)
        .sets(FactKind::Maximum)
        .example(
            field(
                r#"
#[kube(maximum = 10)]
pub replicas: i32,
/// +kubebuilder:validation:Maximum=1
pub ratio: f64,
"#,
                r#"
ratio:
  maximum: 1
replicas:
  maximum: 10
"#,
            ),
        ),
    m(Key::ExclusiveMinimum, &["kubebuilder:validation:ExclusiveMinimum"], Flag, Schema, false)
        .help("The minimum itself is not allowed.")
        .needs(NUMBER)
        .sets(FactKind::ExclusiveMinimum)
        .example(
            field(
                r#"
#[kube(minimum = 0, exclusive_minimum)]
pub ratio: f64,
/// +kubebuilder:validation:Minimum=0
/// +kubebuilder:validation:ExclusiveMinimum=true
pub weight: f64,
"#,
                r#"
ratio:
  exclusiveMinimum: true
  minimum: 0
weight:
  exclusiveMinimum: true
  minimum: 0
"#,
            ),
        ),
    m(Key::ExclusiveMaximum, &["kubebuilder:validation:ExclusiveMaximum"], Flag, Schema, false)
        .help("The maximum itself is not allowed.")
        .needs(NUMBER)
        .sets(FactKind::ExclusiveMaximum)
        .example(
            field(
                r#"
#[kube(maximum = 1, exclusive_maximum)]
pub ratio: f64,
/// +kubebuilder:validation:Maximum=1
/// +kubebuilder:validation:ExclusiveMaximum=true
pub weight: f64,
"#,
                r#"
ratio:
  exclusiveMaximum: true
  maximum: 1
weight:
  exclusiveMaximum: true
  maximum: 1
"#,
            ),
        ),
    m(Key::MultipleOf, &["kubebuilder:validation:MultipleOf"], Number, Schema, false)
        .help("The value is a multiple of this number.")
        .needs(NUMBER)
        .sets(FactKind::MultipleOf)
        .example(
            field(
                r#"
#[kube(multiple_of = 5)]
pub step: i32,
/// +kubebuilder:validation:MultipleOf=10
pub batch: i32,
"#,
                r#"
batch:
  multipleOf: 10
step:
  multipleOf: 5
"#,
            ),
        ),
    m(Key::MinLength, &["kubebuilder:validation:MinLength"], Int, Schema, false)
        .help("The fewest characters a string may have.")
        .needs(STRING)
        .sets(FactKind::MinLength)
        .example(
            field(
                r#"
#[kube(min_length = 1)]
pub name: String,
/// +kubebuilder:validation:MinLength=3
pub owner: String,
"#,
                r#"
name:
  minLength: 1
owner:
  minLength: 3
"#,
            ),
        ),
    m(Key::MaxLength, &["kubebuilder:validation:MaxLength", "k8s:maxLength"], Int, Schema, false)
        .help("The most characters a string may have.")
        .needs(STRING)
        .sets(FactKind::MaxLength)
        .example(
            field(
                r#"
#[kube(max_length = 63)]
pub name: String,
/// +kubebuilder:validation:MaxLength=253
pub host: String,
/// Kubernetes' declarative validation tag.
///
/// +k8s:maxLength=16
pub zone: String,
"#,
                r#"
host:
  maxLength: 253
name:
  maxLength: 63
zone:
  maxLength: 16
"#,
            ),
        ),
    m(Key::Pattern, &["kubebuilder:validation:Pattern"], Str, Schema, false)
        .help("A regular expression (Go's RE2) every string value matches.")
        .needs(STRING)
        .sets(FactKind::Pattern)
        .example(
            field(
                r#"
#[kube(pattern = "^[a-z]+$")]
pub name: String,
/// +kubebuilder:validation:Pattern=`^v[0-9]+$`
pub release: String,
"#,
                r#"
name:
  pattern: ^[a-z]+$
release:
  pattern: ^v[0-9]+$
"#,
            ),
        ),
    m(Key::Format, &["kubebuilder:validation:Format"], Str, Schema, false)
        .help("A named format (`date-time`, `uri`, `email`, `duration`, ...) the API server checks.")
        .sets(FactKind::Format)
        .example(
            field(
                r#"
#[kube(format = "date-time")]
pub since: String,
/// +kubebuilder:validation:Format=uri
pub homepage: String,
"#,
                r#"
homepage:
  format: uri
since:
  format: date-time
"#,
            ),
        ),
    m(Key::MinItems, &["kubebuilder:validation:MinItems"], Int, Schema, false)
        .help("The fewest items a list may have.")
        .needs(ARRAY)
        .sets(FactKind::MinItems)
        .example(
            field(
                r#"
#[kube(min_items = 1)]
pub tags: Vec<String>,
/// +kubebuilder:validation:MinItems=2
pub hosts: Vec<String>,
"#,
                r#"
hosts:
  minItems: 2
tags:
  minItems: 1
"#,
            ),
        ),
    m(Key::MaxItems, &["kubebuilder:validation:MaxItems", "k8s:maxItems"], Int, Schema, false)
        .help("The most items a list may have.")
        .needs(ARRAY)
        .sets(FactKind::MaxItems)
        .example(
            field(
                r#"
#[kube(max_items = 3)]
pub tags: Vec<String>,
/// +kubebuilder:validation:MaxItems=10
pub hosts: Vec<String>,
"#,
                r#"
hosts:
  maxItems: 10
tags:
  maxItems: 3
"#,
            ),
        ),
    m(Key::UniqueItems, &["kubebuilder:validation:UniqueItems"], Flag, Schema, false)
        .help("Refused: the API server does not allow `uniqueItems`; use `list_type = \"set\"`.")
        .needs(ARRAY)
        .example(
            refused(
                r#"
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Foo")]
pub struct FooSpec {
    #[kube(unique_items)]
    pub tags: Vec<String>,
}
"#,
                "",
            )
            .note("the API server refuses `uniqueItems: true` (checking it is quadratic); write `list_type = \"set\"` (`+listType=set`) instead"),
        ),
    m(Key::MinProperties, &["kubebuilder:validation:MinProperties"], Int, Schema, false)
        .help("The fewest keys an object or map may have.")
        .needs(OBJECT)
        .sets(FactKind::MinProperties)
        .example(
            field(
                r#"
#[kube(min_properties = 1)]
pub labels: std::collections::BTreeMap<String, String>,
/// +kubebuilder:validation:MinProperties=2
pub annotations: std::collections::BTreeMap<String, String>,
"#,
                r#"
annotations:
  minProperties: 2
labels:
  minProperties: 1
"#,
            ),
        ),
    m(Key::MaxProperties, &["kubebuilder:validation:MaxProperties"], Int, Schema, false)
        .help("The most keys an object or map may have.")
        .needs(OBJECT)
        .sets(FactKind::MaxProperties)
        .example(
            field(
                r#"
#[kube(max_properties = 8)]
pub labels: std::collections::BTreeMap<String, String>,
/// +kubebuilder:validation:MaxProperties=16
pub annotations: std::collections::BTreeMap<String, String>,
"#,
                r#"
annotations:
  maxProperties: 16
labels:
  maxProperties: 8
"#,
            ),
        ),
    m(Key::EnumValues, &["kubebuilder:validation:Enum"], StrList, Schema, false)
        .help("The only values allowed.")
        .example(
            field(
                r#"
#[kube(enum_values = ["fast", "safe"])]
pub mode: String,
/// +kubebuilder:validation:Enum=Always;Never
pub restart: String,
"#,
                r#"
mode:
  enum:
  - fast
  - safe
restart:
  enum:
  - Always
  - Never
"#,
            ),
        ),
    m(Key::Nullable, &["nullable", "kubebuilder:validation:Nullable"], Flag, Field, false)
        .help("`null` is a value of the field (kept, not pruned).")
        .sets(FactKind::Nullable)
        .example(
            field(
                r#"
#[kube(nullable)]
pub note: Option<String>,
/// +nullable
pub comment: Option<String>,
"#,
                r#"
comment:
  nullable: true
note:
  nullable: true
"#,
            ),
        ),
    m(
        Key::PreserveUnknownFields,
        &["kubebuilder:pruning:PreserveUnknownFields", "kubebuilder:validation:XPreserveUnknownFields"],
        Flag,
        Schema,
        false,
    )
        .help("The server keeps fields the schema does not name.")
        .sets(FactKind::PreserveUnknownFields)
        .example(
            field(
                r#"
#[kube(preserve_unknown_fields)]
pub settings: std::collections::BTreeMap<String, String>,
/// +kubebuilder:pruning:PreserveUnknownFields
pub extra: std::collections::BTreeMap<String, String>,
"#,
                r#"
extra:
  x-kubernetes-preserve-unknown-fields: true
settings:
  x-kubernetes-preserve-unknown-fields: true
"#,
            ),
        ),
    m(
        Key::EmbeddedResource,
        &["kubebuilder:validation:EmbeddedResource", "kubebuilder:validation:XEmbeddedResource"],
        Flag,
        Schema,
        false,
    )
        .help("The node is a whole Kubernetes object (apiVersion, kind, metadata).")
        .sets(FactKind::EmbeddedResource)
        .example(
            field(
                r#"
#[kube(embedded_resource, preserve_unknown_fields)]
pub template: serde_json::Value,
/// +kubebuilder:validation:EmbeddedResource
/// +kubebuilder:pruning:PreserveUnknownFields
pub subject: serde_json::Value,
"#,
                r#"
subject:
  x-kubernetes-embedded-resource: true
template:
  x-kubernetes-embedded-resource: true
"#,
            ),
        ),
    m(Key::Schemaless, &["kubebuilder:validation:Schemaless"], Flag, Field, false)
        .help("No schema below this field: the server keeps whatever it is sent.")
        .example(
            items(
                r#"
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Foo")]
pub struct FooSpec {
    #[kube(schemaless)]
    pub config: Config,
    /// +kubebuilder:validation:Schemaless
    pub extra: Config,
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Config {
    pub level: i32,
}
"#,
                r#"
config:
  properties: ~
  type: ~
  x-kubernetes-preserve-unknown-fields: true
extra:
  properties: ~
  type: ~
  x-kubernetes-preserve-unknown-fields: true
"#,
            )
            .note("No schema below the field, not even its type: the server keeps whatever it is sent."),
        ),
    m(Key::Title, &["kubebuilder:title"], Str, Schema, false)
        .help("A title for the node.")
        .sets(FactKind::Title)
        .example(
            field(
                r#"
#[kube(title = "Replicas")]
pub replicas: i32,
/// +kubebuilder:title=Image
pub image: String,
"#,
                r#"
image:
  title: Image
replicas:
  title: Replicas
"#,
            ),
        ),
    m(Key::ExternalDocs, &["kubebuilder:externalDocs"], Struct(EXTERNAL_DOCS_ARGS), Schema, false)
        .help("A link to documentation about the node.")
        .example(
            field(
                r#"
#[kube(external_docs(url = "https://example.com/docs/replicas", description = "Scaling"))]
pub replicas: i32,
/// +kubebuilder:externalDocs:url="https://example.com/docs/image"
pub image: String,
"#,
                r#"
image:
  externalDocs:
    url: https://example.com/docs/image
replicas:
  externalDocs:
    description: Scaling
    url: https://example.com/docs/replicas
"#,
            ),
        ),
    m(Key::Example, &["kubebuilder:example"], Any, Field, false)
        .help("An example value (a Rust literal typed, controller-gen's value syntax in a comment).")
        .example(
            field(
                r#"
#[kube(example = "web-1")]
pub name: String,
/// +kubebuilder:example=3
pub replicas: i32,
"#,
                r#"
name:
  example: web-1
replicas:
  example: 3
"#,
            ),
        ),
    m(Key::ExampleJson, &[], JsonText, Field, false)
        .help("An example value as JSON text.")
        .example(
            field(
                r##"
#[kube(example_json = r#"{"app": "web"}"#)]
pub labels: std::collections::BTreeMap<String, String>,
"##,
                r#"
labels:
  example:
    app: web
"#,
            ),
        ),
    m(Key::DefaultJson, &["default"], JsonText, Field, false)
        .help("The default as JSON text, or `ref(CONSTANT)` for a Rust constant's serde JSON.")
        .example(
            field(
                r##"
#[kube(default_json = r#"{"app": "web"}"#)]
pub labels: Option<std::collections::BTreeMap<String, String>>,
/// +default=3
pub replicas: Option<i32>,
"##,
                r#"
labels:
  default:
    app: web
replicas:
  default: 3
"#,
            ),
        ),
    m(Key::Default, &["kubebuilder:default"], Any, Field, false)
        .help("The value the API server fills in when the field is absent.")
        .example(
            field(
                r#"
#[kube(default = 1)]
pub replicas: Option<i32>,
/// +kubebuilder:default=safe
pub mode: Option<String>,
"#,
                r#"
mode:
  default: safe
replicas:
  default: 1
"#,
            ),
        ),
    m(Key::Validation, &["kubebuilder:validation:XValidation"], Rule, Schema, true)
        .help("A CEL rule the API server checks, with its message, reason and field path; repeatable.")
        .example(
            field(
                r#"
#[kube(validation(rule = "self >= 0", message = "must not be negative"))]
pub replicas: i32,
/// +kubebuilder:validation:XValidation:rule="self.startsWith('v')",message="starts with v"
pub release: String,
"#,
                r#"
release:
  x-kubernetes-validations:
  - message: starts with v
    rule: self.startsWith('v')
replicas:
  x-kubernetes-validations:
  - message: must not be negative
    rule: self >= 0
"#,
            ),
        ),
    m(Key::Immutable, &["k8s:immutable"], Flag, Field, false)
        .help("The field cannot change once set (a `self == oldSelf` rule).")
        .example(
            field(
                r#"
#[kube(immutable)]
pub id: String,
/// +k8s:immutable
pub zone: String,
"#,
                r#"
id:
  x-kubernetes-validations:
  - message: field is immutable
    rule: self == oldSelf
zone:
  x-kubernetes-validations:
  - message: field is immutable
    rule: self == oldSelf
"#,
            ),
        ),
    m(Key::AtMostOneOf, &["kubebuilder:validation:AtMostOneOf"], StrList, Type, true)
        .help("At most one of these fields is set (a CEL rule); repeatable.")
        .example(
            items(
                r#"
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Foo")]
#[kube(at_most_one_of = ["image", "build"])]
pub struct FooSpec {
    pub image: Option<String>,
    pub build: Option<String>,
}
"#,
                r#"
x-kubernetes-validations:
- message: at most one of the fields in [image build] may be set
  rule: '(has(self.image)?1:0) + (has(self.build)?1:0) <= 1'
"#,
            ),
        ),
    m(Key::ExactlyOneOf, &["kubebuilder:validation:ExactlyOneOf"], StrList, Type, true)
        .help("Exactly one of these fields is set (a CEL rule); repeatable.")
        .example(
            items(
                r#"
/// +kubebuilder:validation:ExactlyOneOf=image;build
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Foo")]
pub struct FooSpec {
    pub image: Option<String>,
    pub build: Option<String>,
}
"#,
                r#"
x-kubernetes-validations:
- message: exactly one of the fields in [image build] must be set
  rule: '(has(self.image)?1:0) + (has(self.build)?1:0) == 1'
"#,
            ),
        ),
    m(Key::AtLeastOneOf, &["kubebuilder:validation:AtLeastOneOf"], StrList, Type, true)
        .help("At least one of these fields is set (a CEL rule); repeatable.")
        .example(
            items(
                r#"
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Foo")]
#[kube(at_least_one_of = ["image", "build"])]
pub struct FooSpec {
    pub image: Option<String>,
    pub build: Option<String>,
}
"#,
                r#"
x-kubernetes-validations:
- message: at least one of the fields in [image build] must be set
  rule: 'has(self.image) || has(self.build)'
"#,
            ),
        ),
    m(Key::Optional, &["optional", "k8s:optional", "kubebuilder:validation:Optional"], Flag, Field, false)
        .help("The field may be absent, whatever its Rust type says.")
        .example(
            field(
                r#"
#[kube(optional)]
pub name: String,
/// +optional
pub nick: String,
pub id: String,
"#,
                r#"
required:
- id
"#,
            )
            .note("`name` and `nick` are left out of `required`."),
        ),
    m(Key::Required, &["required", "k8s:required", "kubebuilder:validation:Required"], Flag, Field, false)
        .help("The field must be present, whatever its Rust type says.")
        .example(
            field(
                r#"
#[kube(required)]
pub name: Option<String>,
/// +required
pub nick: Option<String>,
"#,
                r#"
required:
- name
- nick
"#,
            ),
        ),
    m(Key::Items, &[], Items, Schema, true)
        .help("Markers for each item of a list (`items(max_length = 63)`, `+kubebuilder:validation:items:...`).")
        .needs(ARRAY)
        .example(
            field(
                r#"
#[kube(items(max_length = 63))]
pub hosts: Vec<String>,
/// +kubebuilder:validation:items:Minimum=1
pub ports: Vec<i32>,
"#,
                r#"
hosts:
  items:
    maxLength: 63
ports:
  items:
    minimum: 1
"#,
            ),
        ),
    // Beyond controller-gen: drop this node's description and everything's below it
    // (controller-tools#441), to keep a CRD under the size kubectl can apply.
    m(Key::SkipDescription, &["kubegen:skipDescription"], Flag, Schema, false)
        .help("Drop this node's description and every description below it (keeps a CRD small).")
        .example(
            field(
                r#"
/// How many pods run. (Dropped.)
#[kube(skip_description)]
pub replicas: i32,
/// What the pods run. (Dropped.)
/// +kubegen:skipDescription
pub image: String,
/// Kept.
pub name: String,
"#,
                r#"
image:
  description: ~
replicas:
  description: ~
name:
  description: Kept.
"#,
            ),
        ),
    // client-go's apply configurations (controller-gen's `+kubebuilder:ac:generate=true`,
    // package-level there): `XApply` for server-side apply.
    m(Key::ApplyConfig, &["kubebuilder:ac:generate"], Flag, Type, false)
        .help("Generate a server-side apply configuration for the type.")
        .example(
            items(
                r#"
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Foo", apply_config)]
pub struct FooSpec {
    pub replicas: i32,
}

pub fn scale_to_three() -> FooApply {
    FooApply::new("web").spec(FooSpecApply::default().replicas(3))
}
"#,
                "",
            )
            .note("Generates `FooApply` and `FooSpecApply` for server-side apply: only the fields set are sent."),
        ),
];

/// The doc-comment prefix of markers applying to array items.
pub const ITEMS_PREFIX: &str = "kubebuilder:validation:items:";

pub fn by_key(key: &str) -> Option<&'static MarkerDef> {
    MARKERS.iter().find(|d| d.key.as_str() == key)
}

/// The marker of `key`.
pub fn def(key: Key) -> &'static MarkerDef {
    // Every key has its entry (`every_key_is_declared_once`).
    MARKERS.iter().find(|d| d.key == key).unwrap_or(&MARKERS[0])
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
    MARKERS.iter().map(|d| d.key.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_declared_once() {
        let spellings: std::collections::BTreeSet<&str> = Key::ALL.iter().map(|k| k.as_str()).collect();
        assert_eq!(spellings.len(), Key::ALL.len(), "two keys share a spelling");
        for key in Key::ALL {
            assert_eq!(MARKERS.iter().filter(|d| d.key == *key).count(), 1, "`{key}`");
            assert_eq!(def(*key).key, *key);
        }
        assert_eq!(MARKERS.len(), Key::ALL.len());
    }

    /// Each named argument's typed spelling is one variant of `Sub`, and each variant is an
    /// argument of some marker (a rule's and `deprecated`'s tables stand beside MARKERS).
    #[test]
    fn every_named_argument_is_declared_once() {
        let spellings: std::collections::BTreeSet<&str> = Sub::ALL.iter().map(|k| k.as_str()).collect();
        assert_eq!(spellings.len(), Sub::ALL.len(), "two named arguments share a spelling");
        let used: std::collections::BTreeSet<Sub> = MARKERS
            .iter()
            .filter_map(|d| match d.arg {
                Arg::Struct(subs) => Some(subs),
                _ => None,
            })
            .chain([RULE_ARGS, DEPRECATED_ARGS])
            .flatten()
            .map(|s| s.key)
            .collect();
        for sub in Sub::ALL {
            assert!(used.contains(sub), "`{}` is an argument of no marker", sub.as_str());
        }
    }

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
