//! A rule below a list without `maxItems` runs, as the API server counts it, as often as
//! its node fits in the largest request (3 MiB over the node's least size in JSON, plus
//! one). The derive judged such rules once and left the count to `codegen-cli manifests`
//! (issue 28); now each fails `cargo build` where the server refuses it. Their twins that
//! build are in `tests/tests/cel_cost.rs`, whose `server_agrees_at_the_edge` sends these
//! shapes to kube-apiserver: `LoosePort`'s rule without a bound is 2.0x the per-rule
//! budget, the item rules below are refused too, and all of them are accepted where the
//! twins bound or required fields keep them inside it.

use kubegen::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};

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
    /// `{}` is `LoosePort`'s least size: 1,048,576 of them fit in a request.
    pub loose: Vec<LoosePort>,
    /// An item's rule on a list without a bound.
    #[kube(items(max_length = 12, validation = "self.matches('^[a-z]+$')"))]
    pub tags: Vec<String>,
    /// And on one whose bound is too large for it.
    #[kube(max_items = 1000000, items(max_length = 12, validation = "self.matches('^[a-z]+$')"))]
    pub names: Vec<String>,
}

fn main() {}
