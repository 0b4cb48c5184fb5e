//! A rule on a type whose values stand in a list runs once per item: the API server holds
//! its cost times the list's `maxItems` to the per-rule budget (10,000,000) and adds it to
//! the CRD's (100,000,000). The type's own derive judges the rule once; a field that holds
//! too many of them fails `cargo build` there (issue 28: the derive judged cost at
//! cardinality 1, and only `codegen-cli manifests` refused). Checked against
//! kube-apiserver 1.37.2: `Endpoint`'s rule under maxItems 1,000,000 is over both budgets
//! (41x per rule, 4.1x per CRD), under 50,000 over the per-rule one (2.0x), under 20,000
//! accepted. Without a bound the server counts the rule as often as `Endpoint` (at least
//! `{"host":""}`, 12 bytes) fits in a request, 241,979 times: over the per-rule budget,
//! and refused here too (`cel_cost_unbounded.rs` has more of that class).

use std::collections::BTreeMap;

use kubegen::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};

/// +kubebuilder:validation:XValidation:rule="self.host.matches('^[a-z0-9.-]+$')",message="a host name"
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Endpoint {
    /// +kubebuilder:validation:MaxLength=253
    pub host: String,
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Pool {
    pub primary: Endpoint,
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Lb")]
pub struct LbSpec {
    /// +kubebuilder:validation:MaxItems=1000000
    pub endpoints: Vec<Endpoint>,
    /// +kubebuilder:validation:MaxProperties=1000000
    pub pools: BTreeMap<String, Pool>,
    /// +kubebuilder:validation:MaxItems=50000
    pub many: Vec<Endpoint>,
    /// +kubebuilder:validation:MaxItems=20000
    pub fits: Vec<Endpoint>,
    pub unbounded: Vec<Endpoint>,
    pub one: Option<Endpoint>,
}

fn main() {}
