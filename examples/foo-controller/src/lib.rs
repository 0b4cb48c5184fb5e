//! The API of Kubernetes' sample-controller, ported: a `Foo` asks for a Deployment with
//! a name and a replica count; its status reports how many replicas are available.
//! The controller is in [`controller`]; the binary (`src/main.rs`) runs it.
//!
//! What the controller may do, as sample-controller's ClusterRole grants it:
//! +kubebuilder:rbac:groups=samplecontroller.k8s.io,resources=foos,verbs=get;list;watch;update;patch
//! +kubebuilder:rbac:groups=samplecontroller.k8s.io,resources=foos/status,verbs=get;update;patch
//! +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch;create;update;patch;delete
//! +kubebuilder:rbac:groups=core,resources=events,verbs=create;patch
//! The manager's leader election:
//! +kubebuilder:rbac:groups=coordination.k8s.io,resources=leases,verbs=get;create;update

pub mod controller;
pub mod v1beta1;
pub mod webhook;

use kubegen::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};

/// The field manager the controller's server-side applies are recorded under. It
/// publishes events through events.k8s.io/v1 as well as core/v1.
#[kubegen::rbac(groups = ["events.k8s.io"], resources = ["events"], verbs = ["create", "patch"])]
pub const FIELD_MANAGER: &str = "foo-controller";

/// The admission webhooks Foos are registered for, written to
/// `config/webhook/manifests.yaml` in both spellings: a validating one as controller-gen
/// reads it, and a defaulting one as the typed attribute. [`webhook`] implements them and
/// the binary serves them at kubebuilder's paths (docs/webhooks.md).
/// +kubebuilder:webhook:path=/validate-samplecontroller-k8s-io-v1alpha1-foo,mutating=false,failurePolicy=fail,sideEffects=None,groups=samplecontroller.k8s.io,resources=foos,verbs=create;update,versions=v1alpha1,name=vfoo-v1alpha1.kb.io,admissionReviewVersions=v1
#[kubegen::webhook(
    path = "/mutate-samplecontroller-k8s-io-v1alpha1-foo",
    mutating = true,
    failure_policy = "fail",
    side_effects = "None",
    groups = ["samplecontroller.k8s.io"],
    resources = ["foos"],
    verbs = ["create", "update"],
    versions = ["v1alpha1"],
    name = "mfoo-v1alpha1.kb.io",
    admission_review_versions = ["v1"]
)]
pub const WEBHOOK_SERVICE: &str = "webhook-service";

/// FooSpec is the spec for a Foo resource.
/// +kubebuilder:storageversion
// v1alpha1 is the version the API server stores, and the hub that v1beta1
// (src/v1beta1.rs) converts through (webhook::conversion).
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
    /// +kubebuilder:example="example-foo"
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
