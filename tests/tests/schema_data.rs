//! The derive writes a plain type's schema as data (`kubegen::__private::object_schema`)
//! instead of a schemars derive on a mirror of the type. Each type here has a twin that
//! differs only in spelling an attribute the data path does not read
//! (`rename_all(serialize = X, deserialize = X)` for `rename_all = X`), so the twin keeps
//! the mirror; both schemas must be equal, and the data twin must have taken the data path.

use kubegen::__private::schemars::generate::SchemaSettings;
use kubegen::__private::schemars::{JsonSchema, SchemaGenerator};
use kubegen::KubeSchema;
use serde::{Deserialize, Serialize};

/// Declares `$data` as written and `$mirror` with `$mirror_attr` instead of `$data_attr`.
macro_rules! twins {
    ($data:ident [$($data_attr:tt)*], $mirror:ident [$($mirror_attr:tt)*], $(#[$m:meta])* $kind:ident $body:tt) => {
        $(#[$m])*
        #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
        $($data_attr)*
        pub $kind $data $body

        $(#[$m])*
        #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
        $($mirror_attr)*
        pub $kind $mirror $body
    };
}

fn default_replicas() -> i32 {
    3
}

/// Named as the derive's own items might be: a path in an attribute is the user's.
fn defaults() -> i32 {
    5
}

fn made() -> Made {
    Made { size: 9, label: "nine".into() }
}

fn made_mirror() -> MadeMirror {
    MadeMirror { size: 9, label: "nine".into() }
}

fn is_zero(n: &i32) -> bool {
    *n == 0
}

/// A nested type, the same for both twins.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
pub struct Nested {
    /// The nested value.
    pub value: Option<String>,
}

pub const DEFAULT_NESTED: Nested = Nested { value: None };

twins! {
    Plain [#[serde(rename_all = "camelCase")]],
    PlainMirror [#[serde(rename_all(serialize = "camelCase", deserialize = "camelCase"))]],
    /// A struct with every plain serde attribute the data path reads.
    ///
    /// +kubebuilder:validation:XValidation:rule="self.maxSurge <= 10",message="at most ten"
    struct {
        /// The name, required.
        /// +kubebuilder:validation:MinLength=1
        /// +kubebuilder:validation:Pattern=`^[a-z]+$`
        pub deployment_name: String,
        /// Optional, no default.
        pub max_surge: Option<i32>,
        /// A default from a function.
        #[serde(default = "default_replicas")]
        pub replicas: i32,
        #[serde(default = "defaults")]
        pub surge: i32,
        /// A default from the type, left out when zero.
        #[serde(default, skip_serializing_if = "is_zero")]
        pub min_ready: i32,
        /// Left out when empty, with no default: optional only when written.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        pub tags: Vec<String>,
        #[serde(rename = "URL", alias = "url")]
        pub url: Option<String>,
        #[serde(skip)]
        pub cache: Option<u64>,
        /// +optional
        /// +immutable
        pub pinned: Option<String>,
        /// A nested type with a default from a constant.
        /// +default=ref(DEFAULT_NESTED)
        pub nested: Option<Nested>,
        pub data: Option<k8s_openapi::ByteString>,
        pub r#type: Option<String>,
    }
}

twins! {
    Defaulted [#[serde(default, deny_unknown_fields)]],
    DefaultedMirror [#[serde(default, deny_unknown_fields, rename_all(serialize = "snake_case", deserialize = "snake_case"))]],
    /// The container's `Default` fills every field.
    #[derive(PartialEq)]
    struct {
        pub size: i32,
        pub label: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub note: Option<String>,
        #[serde(default = "default_replicas")]
        pub replicas: i32,
    }
}

impl Default for Defaulted {
    fn default() -> Self {
        Defaulted { size: 7, label: "seven".into(), note: Some("n".into()), replicas: 1 }
    }
}

impl Default for DefaultedMirror {
    fn default() -> Self {
        DefaultedMirror { size: 7, label: "seven".into(), note: Some("n".into()), replicas: 1 }
    }
}

/// The container's default from a function.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[serde(default = "made")]
pub struct Made {
    pub size: i32,
    pub label: String,
}

// `Made`'s twin, which keeps the mirror.
/// The container's default from a function.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[serde(default = "made_mirror", rename_all(serialize = "snake_case", deserialize = "snake_case"))]
pub struct MadeMirror {
    pub size: i32,
    pub label: String,
}

/// A type that does not serialize: its default has no JSON (schemars writes none).
#[derive(KubeSchema, Deserialize, Clone, Debug, Default)]
pub struct Opaque {
    pub inner: Option<String>,
}

/// Deserialized only, with a default of a type that does not serialize.
#[derive(KubeSchema, Deserialize, Clone, Debug)]
pub struct ReadOnly {
    #[serde(default)]
    pub opaque: Opaque,
    #[serde(default)]
    pub count: i32,
}

// `ReadOnly`'s twin, which keeps the mirror.
/// Deserialized only, with a default of a type that does not serialize.
#[derive(KubeSchema, Deserialize, Clone, Debug)]
#[serde(rename_all(serialize = "snake_case", deserialize = "snake_case"))]
pub struct ReadOnlyMirror {
    #[serde(default)]
    pub opaque: Opaque,
    #[serde(default)]
    pub count: i32,
}

twins! {
    Empty [],
    EmptyMirror [#[serde(rename_all(serialize = "snake_case", deserialize = "snake_case"))]],
    /// Holds nothing: closed.
    struct {}
}

twins! {
    Mode [#[serde(rename_all = "kebab-case")]],
    ModeMirror [#[serde(rename_all(serialize = "kebab-case", deserialize = "kebab-case"))]],
    /// A mode.
    /// +kubebuilder:validation:XValidation:rule="self != 'off'"
    enum { RollingUpdate, Recreate, #[serde(rename = "OFF", alias = "off")] Off }
}

twins! {
    Level [#[serde(rename_all = "SCREAMING_SNAKE_CASE")]],
    LevelMirror [#[serde(rename_all(serialize = "SCREAMING_SNAKE_CASE", deserialize = "SCREAMING_SNAKE_CASE"))]],
    #[allow(non_camel_case_types)]
    enum { HighValue, Low, r#type }
}

twins! {
    Strategy [#[serde(rename_all = "camelCase")]],
    StrategyMirror [#[serde(rename_all(serialize = "camelCase", deserialize = "camelCase"))]],
    /// Unit variants with and without docs.
    enum {
        /// Replace pods one by one.
        RollingUpdate,
        Recreate,
        /// Never replace.
        Never,
    }
}

twins! {
    Action [#[serde(deny_unknown_fields)]],
    ActionMirror [#[serde(deny_unknown_fields, rename_all(serialize = "PascalCase", deserialize = "PascalCase"))]],
    /// Variants of named fields.
    enum {
        Restart { after_seconds: u32 },
        /// Scale to a number.
        Scale {
            /// How many.
            /// +kubebuilder:validation:Minimum=1
            to: i32,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            max_surge: Option<i32>,
        },
        Pause { #[serde(rename = "for")] seconds: u32 },
        Stop {},
    }
}

/// The schema `T` builds itself, in a generator that holds its dependencies already,
/// and how many schemas were built from data while it did.
fn schema_of<T: JsonSchema>(generator: &mut SchemaGenerator) -> (serde_json::Value, usize) {
    let before = kubegen::__private::built_from_data();
    let schema = T::json_schema(generator);
    (schema.to_value(), kubegen::__private::built_from_data() - before)
}

fn agree<D: JsonSchema, M: JsonSchema>() {
    // As a deserializer reads the type (kubegen's CRDs) and as a serializer writes it.
    for settings in [SchemaSettings::default(), SchemaSettings::default().for_serialize()] {
        let mut generator = SchemaGenerator::new(settings);
        // The types they hold, in the generator's definitions first.
        generator.subschema_for::<D>();
        generator.subschema_for::<M>();
        let (mirror, from_data) = schema_of::<M>(&mut generator);
        assert_eq!(from_data, 0, "{} should keep the mirror", M::schema_name());
        let (data, from_data) = schema_of::<D>(&mut generator);
        assert_eq!(from_data, 1, "{} should be built from data", D::schema_name());
        assert_eq!(
            serde_json::to_string_pretty(&data).unwrap(),
            serde_json::to_string_pretty(&mirror).unwrap(),
            "{} and {} differ ({:?})",
            D::schema_name(),
            M::schema_name(),
            generator.contract()
        );
    }
}

#[test]
fn plain_types_built_from_data_match_the_mirror() {
    agree::<Plain, PlainMirror>();
    agree::<Defaulted, DefaultedMirror>();
    agree::<Made, MadeMirror>();
    agree::<ReadOnly, ReadOnlyMirror>();
    agree::<Empty, EmptyMirror>();
    agree::<Mode, ModeMirror>();
    agree::<Level, LevelMirror>();
    agree::<Strategy, StrategyMirror>();
    agree::<Action, ActionMirror>();
}

#[test]
fn the_data_schema_carries_what_serde_reads() {
    let mut generator = SchemaGenerator::default();
    generator.subschema_for::<Nested>();
    let (plain, _) = schema_of::<Plain>(&mut generator);
    let properties = plain["properties"].as_object().unwrap();
    let names: Vec<&str> = properties.keys().map(String::as_str).collect();
    for name in
        ["deploymentName", "maxSurge", "replicas", "minReady", "tags", "URL", "pinned", "nested", "data", "type"]
    {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
    assert!(!names.contains(&"cache"), "a skipped field is not on the wire");
    assert_eq!(plain["required"], serde_json::json!(["deploymentName", "tags"]));
    assert_eq!(properties["replicas"]["default"], 3);
    assert!(properties["minReady"].get("default").is_none(), "a default serde would leave out is not written");
    let (defaulted, _) = schema_of::<Defaulted>(&mut generator);
    assert_eq!(defaulted["properties"]["size"]["default"], 7);
    assert_eq!(defaulted["properties"]["note"]["default"], "n");
    assert_eq!(defaulted["properties"]["replicas"]["default"], 3);
    assert_eq!(defaulted["additionalProperties"], false);
    let (mode, _) = schema_of::<Mode>(&mut generator);
    assert_eq!(mode["enum"], serde_json::json!(["rolling-update", "recreate", "OFF"]));
    let (level, _) = schema_of::<Level>(&mut generator);
    assert_eq!(level["enum"], serde_json::json!(["HIGH_VALUE", "LOW", "TYPE"]));
    assert_eq!(properties["surge"]["default"], 5, "the user's `defaults`, not the derive's");
    let (made, _) = schema_of::<Made>(&mut generator);
    assert_eq!(made["properties"]["size"]["default"], 9);
    let (read_only, _) = schema_of::<ReadOnly>(&mut generator);
    assert!(read_only["properties"]["opaque"].get("default").is_none(), "no JSON for what does not serialize");
    assert_eq!(read_only["properties"]["count"]["default"], 0);
}
