//! A CEL rule's cost where its type stands, judged at build (issue 28: a rule under a
//! list without `maxItems` was left to `codegen-cli manifests`). The API server counts a
//! rule below a list or map without a bound as often as its node fits in the largest
//! request: 3 MiB over the node's least size in JSON, plus one, where that size is `{}`
//! and each required property without a default. The derive writes each struct's least
//! size (`Fields::MIN_SIZE`) and its rules' costs as they count there
//! (`Fields::UNBOUNDED`), and asserts them where a field places the type.
//!
//! Each kind here builds; its twin that the server refuses fails `cargo build`
//! (`tests/compile-fail/ui/cel_cost_unbounded.rs`). The derive's sum must equal the
//! whole-CRD check's (`kubegen_cel`, the check the differential CEL tier holds to the
//! server's verdict), and `server_agrees_at_the_edge` (run with `--ignored` against a
//! kube-apiserver) sends each kind's CRD, and each with the bound that keeps it inside
//! the budget taken away, to the server.

// The derive's tables link each other through pointers the library alone reads: the
// code it generates holds no `unsafe`, so a crate that forbids it still builds.
#![forbid(unsafe_code)]

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kubegen::__private::cel::{Cost, Fields, PER_CRD_LIMIT};
use kubegen::{CrdWithOptions, CustomResource, CustomResourceExt, KubeSchema};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A rule costing 16 per evaluation: under a list without a bound the server runs it
/// 3,145,728 / (21 + 1) = 142,987 times (2,287,792 inside the per-rule budget of
/// 10,000,000), where a node of `{}` alone would fit 1,048,576 times. The two required
/// fields make the difference: `{"name":"","port":0}` is 21 bytes at least.
///
/// +kubebuilder:validation:XValidation:rule="self.name.startsWith('web-') || self.name.endsWith('-tcp') || self.name.contains('grpc') || self.port > 1024"
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default)]
pub struct Port {
    /// +kubebuilder:validation:MaxLength=12
    pub name: String,
    pub port: i32,
}

/// The same rule on a type whose fields are optional (19 with its `has()`s): `{}` is its
/// least size, so under a list without a bound the server counts it 1,048,576 times,
/// 2.0x the per-rule budget; it builds inside a bounded list only.
///
/// +kubebuilder:validation:XValidation:rule="!has(self.name) || self.name.startsWith('web-') || self.name.endsWith('-tcp') || self.name.contains('grpc') || (has(self.port) && self.port > 1024)"
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default)]
pub struct LoosePort {
    /// +kubebuilder:validation:MaxLength=12
    pub name: Option<String>,
    pub port: Option<i32>,
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "cost.kubegen.dev", version = "v1", kind = "Unbounded")]
pub struct UnboundedSpec {
    /// A list without a bound of a type with required fields.
    pub ports: Vec<Port>,
    /// Two levels without a bound: the server counts `Port`'s rule the same (once, from
    /// its node's least size), not once per level.
    pub grid: Vec<Vec<Port>>,
    /// +kubebuilder:validation:MaxItems=9
    pub loose: Vec<LoosePort>,
    /// An item's rule on a list without a bound: a string is `""` at least.
    #[kube(items(max_length = 12, validation = "self.startsWith('a')"))]
    pub tags: Vec<String>,
    /// And on a bounded one: 50 items, each checked once.
    #[kube(max_items = 50, items(max_length = 12, validation = "self.endsWith('z')"))]
    pub names: Vec<String>,
    /// A fixed-size array: schemars bounds it to its 2 items, so `LoosePort` builds here
    /// (it was taken for a list without a bound: found by review).
    pub pair: [LoosePort; 2],
    /// Bounds at two levels: at most 10 lists of at most 5 (found by review: only the
    /// outer bound was read).
    #[kube(max_items = 10, items(max_items = 5))]
    pub rows: Vec<Vec<LoosePort>>,
    /// A rule with braces, whose count is asserted in a constant: the assertion's message
    /// is no format string (found by review: `{1,12}` failed to compile).
    #[kube(max_items = 10, items(max_length = 12, validation = "self.matches('^[a-z]{1,12}$')"))]
    pub codes: Vec<String>,
}

/// A recursive type builds (found by review: its `Fields` constants named themselves, a
/// cycle, and `Self` stood where no type is). It held an item rule on its list of itself,
/// which the API server refuses: the schema stops at the inner `Tree`, whose node has no
/// CEL type; that rule fails `cargo build` now (`ui/cel_recursive.rs`, found with the
/// mutually recursive types below).
///
/// +kubebuilder:validation:XValidation:rule="self.name != ''"
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default)]
pub struct Tree {
    pub name: String,
    pub children: Vec<Self>,
    pub parent: Option<Box<Tree>>,
}

/// Types that hold each other build (found by review: `Bough`'s constants named
/// `Twig`'s and those named `Bough`'s, a cycle the compiler refused with E0391). Each
/// derive writes a table; the totals walk the tables and stop where a type recurs, as
/// the CRD's schema does (it keeps unknown fields there).
///
/// +kubebuilder:validation:XValidation:rule="self.name.startsWith('b')"
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default)]
pub struct Bough {
    /// +kubebuilder:validation:MaxLength=12
    pub name: String,
    /// +kubebuilder:validation:MaxItems=4
    #[serde(default)]
    pub twigs: Vec<Twig>,
}

/// +kubebuilder:validation:XValidation:rule="self.leaves >= 0"
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default)]
pub struct Twig {
    pub leaves: i32,
    /// +kubebuilder:validation:MaxItems=2
    #[serde(default)]
    pub boughs: Vec<Bough>,
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "cost.kubegen.dev", version = "v1", kind = "Grove")]
pub struct GroveSpec {
    pub root: Bough,
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "cost.kubegen.dev", version = "v1", kind = "Copse")]
pub struct CopseSpec {
    /// A rule that reads through both types, checked at build against their tables; one
    /// that reads a `Twig`'s `boughs` fails to build (`ui/cel_recursive.rs`): the schema
    /// stops there.
    ///
    /// +kubebuilder:validation:XValidation:rule="self.twigs.all(t, t.leaves < 100)"
    pub root: Bough,
}

/// A field whose type has the name of the type it stands in, from another module, is that
/// other type (found by review: the derive took `v1::Endpoint` inside `v2::Endpoint` for
/// `v2::Endpoint` itself, so a rule reading `legacy.host` failed to build).
pub mod v1 {
    use super::*;

    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default)]
    pub struct Endpoint {
        pub host: String,
    }
}

pub mod v2 {
    use super::*;

    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default)]
    pub struct Endpoint {
        pub url: String,
        pub legacy: Option<super::v1::Endpoint>,
    }
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "cost.kubegen.dev", version = "v1", kind = "Moved")]
pub struct MovedSpec {
    /// +kubebuilder:validation:XValidation:rule="!has(self.legacy) || self.legacy.host != ''"
    pub endpoint: v2::Endpoint,
}

/// What the whole-CRD check (the one `manifests` runs, held to the server by the
/// differential CEL tier) estimates for all rules of `crd`.
fn whole_crd_cost(crd: &Value) -> u64 {
    let schema = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"];
    let node = kubegen_core::schema::node::Node::from_value(schema).expect("a schema");
    let report = kubegen_cel::schema::check(&node);
    assert!(report.refusals.is_empty(), "{:?}", report.refusals);
    report.total_cost
}

#[test]
fn the_least_size_is_the_servers() {
    // `{"name":"","port":0}`: 2 + ("name" 4 + 2 + 4) + ("port" 4 + 1 + 4).
    assert_eq!(<Port as Fields>::MIN_SIZE, 21);
    assert_eq!(<LoosePort as Fields>::MIN_SIZE, 2);
}

#[test]
fn a_rule_below_an_unbounded_list_costs_what_the_whole_crd_check_says() {
    Unbounded::checked_crd().expect("inside the server's budget");
    let crd = serde_json::to_value(Unbounded::crd()).expect("json");
    let ours = <UnboundedSpec as Fields>::COST.total + <UnboundedSpec as Fields>::FIXED.total;
    let theirs = whole_crd_cost(&crd);
    println!("the derive's sum {ours}, the whole-CRD check's {theirs}");
    assert_eq!(ours, theirs);
    // `Port`'s rule is inside the per-rule budget where it stands, `LoosePort`'s would not be.
    let port = <Port as Fields>::UNBOUNDED;
    assert!(port.most > 1_000_000 && !port.over(), "{port:?}");
    let loose = <LoosePort as Fields>::UNBOUNDED;
    assert!(loose.over(), "{loose:?}");
    println!("Port below a list without a bound: {port:?}; LoosePort: {loose:?}");
    assert!(ours < PER_CRD_LIMIT);
}

#[test]
fn a_type_without_our_derive_counts_nothing_at_build() {
    // A required field of a type the derive does not see: its least size is unknown, and
    // no count below an unbounded list is estimated from it (the whole-CRD check's).
    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    pub struct Held {
        pub time: k8s_openapi::apimachinery::pkg::apis::meta::v1::Time,
    }
    assert_eq!(<Held as Fields>::MIN_SIZE, kubegen::__private::cel::UNKNOWN_SIZE);
    assert_eq!(Cost::rule(10, 10).unbounded(<Held as Fields>::MIN_SIZE), Cost::ZERO);
}

#[test]
fn types_that_hold_each_other_count_until_one_recurs() {
    // From `Bough`: its rule `b`, and up to 4 `Twig`s' rules `t` (whose `boughs` recur:
    // nothing below). From `Twig`: `t`, and up to 2 `Bough`s' `b`.
    let (bough, twig) = (<Bough as Fields>::COST.total, <Twig as Fields>::COST.total);
    let (b, t) = ((4 * twig - bough) / 7, (2 * bough - twig) / 7);
    println!("Bough {bough}, Twig {twig}: a Bough's rule costs {b}, a Twig's {t}");
    assert!(b > 0 && t > 0);
    assert_eq!((bough, twig), (b + 4 * t, t + 2 * b));
    // `{"name":""}` and `{"leaves":0}`: the lists have defaults.
    assert_eq!(<Bough as Fields>::MIN_SIZE, 2 + 4 + 4 + 2);
    assert_eq!(<Twig as Fields>::MIN_SIZE, 2 + 6 + 4 + 1);
    // The CRD stops at the second `Bough`, and the derive's sum is the whole-CRD check's.
    Grove::checked_crd().expect("inside the server's budget");
    let crd = serde_json::to_value(Grove::crd()).expect("json");
    let root = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["root"];
    let again = &root["properties"]["twigs"]["items"]["properties"]["boughs"]["items"];
    assert_eq!(again["x-kubernetes-preserve-unknown-fields"], true, "{again}");
    let ours = <GroveSpec as Fields>::COST.total + <GroveSpec as Fields>::FIXED.total;
    assert_eq!(ours, whole_crd_cost(&crd));
    Copse::checked_crd().expect("the server accepts a rule that reads above where the schema stops");
    Moved::checked_crd().expect("a rule through another module's type of the same name");
}

/// The kind's CRD, and the shapes of `tests/compile-fail/ui/cel_cost_unbounded.rs` made
/// from it: the server must accept what builds and refuse what does not, and the
/// whole-CRD check (whose sum the derive's equals) must say the same of each.
#[tokio::test]
#[ignore = "needs a kube-apiserver: scripts/e2e.sh"]
async fn server_agrees_at_the_edge() {
    let crds = crd_api().await;
    let expensive = serde_json::json!("self.matches('^[a-z]+$')");
    type Edit = Box<dyn Fn(&mut Value)>;
    let shapes: Vec<(&str, bool, Edit)> = vec![
        ("as it builds", true, Box::new(|_| {})),
        (
            "LoosePort without maxItems",
            false,
            Box::new(|spec| {
                spec["loose"].as_object_mut().expect("loose").remove("maxItems");
            }),
        ),
        ("an expensive item rule without maxItems", false, {
            let rule = expensive.clone();
            Box::new(move |spec| spec["tags"]["items"]["x-kubernetes-validations"][0]["rule"] = rule.clone())
        }),
        ("an expensive item rule under maxItems 1000000", false, {
            let rule = expensive.clone();
            Box::new(move |spec| {
                spec["names"]["maxItems"] = 1_000_000.into();
                spec["names"]["items"]["x-kubernetes-validations"][0]["rule"] = rule.clone();
            })
        }),
        ("an expensive item rule under maxItems 50", true, {
            let rule = expensive.clone();
            Box::new(move |spec| spec["names"]["items"]["x-kubernetes-validations"][0]["rule"] = rule.clone())
        }),
    ];
    let crd = serde_json::to_value(Unbounded::crd()).expect("json");
    for (what, accepted, edit) in shapes {
        let mut crd = crd.clone();
        edit(&mut crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]);
        judge(&crds, what, &crd, accepted).await;
    }
}

/// Types that hold each other, on the server: `Grove` and `Copse` as they build are
/// accepted; a rule that reads where the schema stops (`ui/cel_recursive.rs`, which fails
/// `cargo build`) is refused, by the server and by the whole-CRD check alike.
#[tokio::test]
#[ignore = "needs a kube-apiserver: scripts/e2e.sh"]
async fn server_agrees_where_types_recur() {
    let crds = crd_api().await;
    let grove = serde_json::to_value(Grove::crd()).expect("json");
    let mut reads_past = grove.clone();
    reads_past["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["root"]["x-kubernetes-validations"] =
        serde_json::json!([{"rule": "self.twigs.all(t, t.boughs.size() < 2)"}]);
    let cases = [
        ("Grove", grove, true),
        ("Copse", serde_json::to_value(Copse::crd()).expect("json"), true),
        ("a rule reading a Twig's boughs", reads_past, false),
    ];
    for (what, crd, accepted) in cases {
        judge(&crds, what, &crd, accepted).await;
    }
}

/// The CRD API of the kube-apiserver `scripts/e2e.sh` started.
async fn crd_api() -> kube::Api<CustomResourceDefinition> {
    let path = std::env::var_os("KUBEGEN_E2E_KUBECONFIG").expect("KUBEGEN_E2E_KUBECONFIG: run scripts/e2e.sh");
    let kubeconfig = kube::config::Kubeconfig::read_from(path).expect("read kubeconfig");
    let config = kube::Config::from_custom_kubeconfig(kubeconfig, &Default::default()).await.expect("kubeconfig");
    kube::Api::all(kube::Client::try_from(config).expect("client"))
}

/// Sends `crd` to the server (a dry-run create) and to the whole-CRD check: both must
/// say `accepted`.
async fn judge(crds: &kube::Api<CustomResourceDefinition>, what: &str, crd: &Value, accepted: bool) {
    let schema = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"];
    let node = kubegen_core::schema::node::Node::from_value(schema).expect("a schema");
    let ours = kubegen_cel::schema::check(&node).refusals.is_empty();
    let typed: CustomResourceDefinition = serde_json::from_value(crd.clone()).expect("a CRD");
    let dry = kube::api::PostParams { dry_run: true, ..Default::default() };
    let theirs = crds.create(&dry, &typed).await;
    println!(
        "{what}: the server {}",
        match &theirs {
            Ok(_) => "accepts".to_string(),
            Err(e) => format!("refuses: {e}"),
        }
    );
    assert_eq!(theirs.is_ok(), accepted, "{what}: the server");
    assert_eq!(ours, accepted, "{what}: the whole-CRD check");
}
