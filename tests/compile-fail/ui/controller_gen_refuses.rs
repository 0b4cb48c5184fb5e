// Markers controller-gen refuses are refused here too.
use kubegen::CustomResource;
use serde::{Deserialize, Serialize};

/// +kubebuilder:validation:AtMostOneOf=cash;card
/// +kubebuilder:title=Wallet
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Wallet")]
pub struct WalletSpec {
    /// +kubebuilder:title=123
    pub a: Option<String>,
    /// +kubebuilder:title={}
    pub b: Option<String>,
    /// +k8s:enum
    pub c: Option<String>,
    pub cash: i64,
    pub card: Option<i64>,
}

fn main() {}
