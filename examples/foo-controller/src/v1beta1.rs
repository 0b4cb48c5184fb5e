//! Foo's second version, `v1beta1`, converted through the hub `v1alpha1` (the crate root,
//! which the API server stores and the controller reads) by the conversion webhook in
//! [`crate::webhook::conversion`]. It has what `v1alpha1` has, and the number of old
//! ReplicaSets the Deployment keeps, which `v1alpha1` holds in an annotation.

use kubegen::CustomResource;
use serde::{Deserialize, Serialize};

pub use crate::FooStatus;

/// FooSpec is the spec for a Foo resource.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube(
    group = "samplecontroller.k8s.io",
    version = "v1beta1",
    kind = "Foo",
    namespaced,
    status = "FooStatus",
    shortname = "fo",
    annotation(
        "api-approved.kubernetes.io",
        "unapproved, experimental-only; please get an approval from Kubernetes API reviewers if you're trying to develop a CRD in the *.k8s.io or *.kubernetes.io groups"
    )
)]
#[kube(printcolumn(name = "Deployment", type = "string", json_path = ".spec.deploymentName"))]
#[kube(printcolumn(name = "Replicas", type = "integer", json_path = ".spec.replicas"))]
#[kube(printcolumn(name = "Available", type = "integer", json_path = ".status.availableReplicas"))]
#[kube(printcolumn(name = "Age", type = "date", json_path = ".metadata.creationTimestamp"))]
#[kube(scale(spec_replicas_path = ".spec.replicas", status_replicas_path = ".status.availableReplicas"))]
#[serde(rename_all = "camelCase")]
pub struct FooSpec {
    /// Name of the Deployment this Foo owns.
    /// +kubebuilder:example="example-foo"
    #[kube(min_length = 1, max_length = 253)]
    pub deployment_name: String,
    /// Number of replicas the Deployment runs.
    /// +kubebuilder:validation:Minimum=1
    /// +kubebuilder:validation:Maximum=10
    /// +kubebuilder:default=1
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// Old ReplicaSets the Deployment keeps for a rollback (the Deployment's own default,
    /// 10, when unset).
    /// +kubebuilder:validation:Minimum=0
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision_history_limit: Option<i32>,
}
