//! Values as the API server must see them: no `null` among an optional enum's values, an
//! int-or-string's integer enum values as integers, Go's `[]byte` as base64 strings.

use kubegen::{CustomResource, CustomResourceExt, KubeSchema};
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub enum Mode {
    A,
    B,
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Probe")]
pub struct ProbeSpec {
    pub mode: Option<Mode>,
    /// +kubebuilder:validation:XIntOrString
    /// +kubebuilder:validation:Enum=1;two
    pub port: Option<k8s_openapi::apimachinery::pkg::util::intstr::IntOrString>,
}

#[test]
fn enum_values_are_what_the_server_compares() {
    let crd = serde_json::to_value(Probe::crd()).expect("json");
    let spec = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"];
    assert_eq!(spec["mode"]["enum"], json!(["A", "B"]));
    assert_eq!(spec["port"]["enum"], json!([1, "two"]));
    // serde writes `None` as null; like the server, validation reads it as absent.
    use kubegen::Validate;
    let probe = Probe::new("p", ProbeSpec { mode: None, port: None });
    assert!(probe.validate().is_ok(), "{:?}", probe.validate());
    let probe = Probe::new(
        "p",
        ProbeSpec {
            mode: Some(Mode::B),
            port: Some(k8s_openapi::apimachinery::pkg::util::intstr::IntOrString::Int(1)),
        },
    );
    assert!(probe.validate().is_ok(), "{:?}", probe.validate());
    let probe = Probe::new(
        "p",
        ProbeSpec { mode: None, port: Some(k8s_openapi::apimachinery::pkg::util::intstr::IntOrString::Int(2)) },
    );
    assert!(probe.validate().is_err());
}

/// Go's `[]byte` fields.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Blob")]
pub struct BlobSpec {
    pub data: k8s_openapi::ByteString,
    pub chunks: Option<Vec<k8s_openapi::ByteString>>,
}

#[test]
fn byte_strings_are_base64_strings() {
    let crd = serde_json::to_value(Blob::crd()).expect("json");
    let spec = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"];
    assert_eq!(spec["data"], json!({"type": "string", "format": "byte"}));
    assert_eq!(spec["chunks"]["items"], json!({"type": "string", "format": "byte"}));
}

/// The default mode of a `Tuned`: named once, used by the code and by the schema.
pub const DEFAULT_MODE: Mode = Mode::B;

pub mod limits {
    pub const RETRIES: u32 = 3;
}

/// `+default=ref(...)`: Kubernetes' reference defaults name a Go constant; here a Rust one.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Tuned")]
pub struct TunedSpec {
    /// +default=ref(DEFAULT_MODE)
    pub mode: Option<Mode>,
    /// +kubebuilder:validation:Maximum=5
    /// +default=ref(limits::RETRIES)
    pub retries: Option<u32>,
    #[kube(default_json = "ref(DEFAULT_MODE)")]
    pub fallback: Option<Mode>,
}

#[test]
fn reference_defaults_are_the_constants_serde_json() {
    let crd = serde_json::to_value(Tuned::crd()).expect("json");
    let spec = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"];
    assert_eq!(spec["mode"]["default"], json!("B"));
    assert_eq!(spec["retries"]["default"], json!(3));
    assert_eq!(spec["retries"]["maximum"].as_f64(), Some(5.0));
    assert_eq!(spec["fallback"]["default"], json!("B"));
}

// (No doc comment: the case is a newtype without one.)
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[serde(transparent)]
pub struct Plain(pub String);

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Holder {
    pub plain: Plain,
}

/// A `#[serde(transparent)]` newtype with neither doc nor marker is its field's schema,
/// inline, as schemars' own derive has it. Found by issue 28's generated kinds through the
/// clients (scripts/generated-clients.sh, seed 7): the type stood in the schema as a
/// definition named after its field's type, `string`, and the TypeScript client generator
/// refused it as a reserved word.
#[test]
fn a_bare_transparent_newtype_is_inline() {
    use kubegen::__private::schemars::{JsonSchema, SchemaGenerator};
    assert!(<Plain as JsonSchema>::inline_schema());
    let mut generator = SchemaGenerator::default();
    let schema = serde_json::to_value(generator.root_schema_for::<Holder>()).expect("json");
    assert_eq!(schema["properties"]["plain"]["type"], json!("string"), "{schema}");
    assert!(schema.get("$defs").is_none_or(|d| d.get("string").is_none()), "a definition named `string`: {schema}");
}

/// A rule whose cost reads through another struct (`Endpoint`'s fields, which the derive
/// of `LbSpec` does not see): it builds, and its cost is the whole-CRD check's. A rule on
/// `Endpoint` itself under this list fails `cargo build`
/// (tests/compile-fail/ui/cel_cost_placement.rs).
mod unbounded {
    use kubegen::{CustomResource, KubeSchema};
    use serde::{Deserialize, Serialize};

    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    pub struct Endpoint {
        /// +kubebuilder:validation:MaxLength=253
        pub host: String,
    }

    /// +kubebuilder:validation:XValidation:rule="self.endpoints.all(e, e.host.matches('^[a-z0-9.-]+$'))",message="host names"
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Lb")]
    pub struct LbSpec {
        pub endpoints: Vec<Endpoint>,
    }
}

/// Issue 28: a CRD the API server refuses built, and `crd()` returned it without a word.
/// `checked_crd()` says why, as `codegen-cli manifests` does, and the test environment
/// refuses to install it (the whole-CRD check, which the differential CEL tier holds to
/// the server's verdicts).
#[test]
fn checked_crd_names_what_the_server_would_refuse() {
    use kubegen::CrdWithOptions;
    let err = unbounded::Lb::checked_crd().expect_err("over the server's budget");
    let text = err.to_string();
    assert!(text.starts_with("the API server would refuse the CRD lbs.example.com:"), "{text}");
    assert!(text.contains("budget"), "{text}");
    assert!(Probe::checked_crd().is_ok());
}

/// The edge of the CRD-wide budget (tests/compile-fail/ui/cel_cost_crd_sum.rs): twelve
/// fields of up to 20,000 `Endpoint`s each build, and the whole-CRD check agrees (checked
/// against kube-apiserver 1.37.2: twelve accepted, thirteen refused at 1.066x).
mod twelve {
    use kubegen::{CustomResource, KubeSchema};
    use serde::{Deserialize, Serialize};

    /// +kubebuilder:validation:XValidation:rule="self.host.matches('^[a-z0-9.-]+$')",message="a host name"
    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    pub struct Endpoint {
        /// +kubebuilder:validation:MaxLength=253
        pub host: String,
    }

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "example.com", version = "v1", kind = "Twelve")]
    pub struct TwelveSpec {
        /// +kubebuilder:validation:MaxItems=20000
        pub f0: Vec<Endpoint>,
        /// +kubebuilder:validation:MaxItems=20000
        pub f1: Vec<Endpoint>,
        /// +kubebuilder:validation:MaxItems=20000
        pub f2: Vec<Endpoint>,
        /// +kubebuilder:validation:MaxItems=20000
        pub f3: Vec<Endpoint>,
        /// +kubebuilder:validation:MaxItems=20000
        pub f4: Vec<Endpoint>,
        /// +kubebuilder:validation:MaxItems=20000
        pub f5: Vec<Endpoint>,
        /// +kubebuilder:validation:MaxItems=20000
        pub f6: Vec<Endpoint>,
        /// +kubebuilder:validation:MaxItems=20000
        pub f7: Vec<Endpoint>,
        /// +kubebuilder:validation:MaxItems=20000
        pub f8: Vec<Endpoint>,
        /// +kubebuilder:validation:MaxItems=20000
        pub f9: Vec<Endpoint>,
        /// +kubebuilder:validation:MaxItems=20000
        pub f10: Vec<Endpoint>,
        /// +kubebuilder:validation:MaxItems=20000
        pub f11: Vec<Endpoint>,
    }
}

#[test]
fn twelve_fields_fit_the_crd_budget() {
    use kubegen::__private::cel::Fields;
    use kubegen::CrdWithOptions;
    twelve::Twelve::checked_crd().expect("inside the server's budget");
    // What the derive sums for the CRD's budget: near, and under, 100,000,000.
    let cost = <twelve::TwelveSpec as Fields>::COST.total;
    assert!((90_000_000..100_000_000).contains(&cost), "{cost}");
}
