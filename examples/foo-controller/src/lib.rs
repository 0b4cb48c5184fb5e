//! The API of Kubernetes' sample-controller, ported: a `Foo` asks for a Deployment with
//! a name and a replica count; its status reports how many replicas are available.
//! The controller itself lands with the reconciler host.

use kubegen::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};

/// FooSpec is the spec for a Foo resource.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube(
    group = "samplecontroller.k8s.io",
    version = "v1alpha1",
    kind = "Foo",
    namespaced,
    status = "FooStatus",
    shortname = "fo",
    // *.k8s.io groups are protected (KEP-1111); the upstream sample-controller CRD says the same.
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
    #[kube(min_length = 1, max_length = 253)]
    pub deployment_name: String,
    /// Number of replicas the Deployment runs.
    /// +kubebuilder:validation:Minimum=1
    /// +kubebuilder:validation:Maximum=10
    /// +kubebuilder:default=1
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
}

/// FooStatus is the status for a Foo resource.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct FooStatus {
    /// Replicas of the owned Deployment that are available.
    pub available_replicas: i32,
}
