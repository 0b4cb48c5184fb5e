//! The API server holds the CEL rules of a whole CRD to one budget (100,000,000): each
//! rule's cost times how many of its node one object holds, summed. Each field of `Sums`
//! holds up to 20,000 `Endpoint`s, whose rule costs about 410 (8.2 million a field, inside
//! the per-rule budget); thirteen such fields are over the CRD's (issue 28: the derive
//! judged each field alone and left the sum to `codegen-cli manifests`). Checked against
//! kube-apiserver 1.37.2 with the same schema: twelve fields accepted, thirteen refused
//! ("exceeds budget by factor of 1.066000x"); twelve build
//! (tests/tests/value_shapes.rs, `twelve_fields_fit_the_crd_budget`).

use kubegen::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};

/// +kubebuilder:validation:XValidation:rule="self.host.matches('^[a-z0-9.-]+$')",message="a host name"
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Endpoint {
    /// +kubebuilder:validation:MaxLength=253
    pub host: String,
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Sum")]
pub struct Sums {
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
    /// +kubebuilder:validation:MaxItems=20000
    pub f12: Vec<Endpoint>,
}

fn main() {}
