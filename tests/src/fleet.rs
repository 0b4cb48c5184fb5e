//! `Fleet`: a spec made of Kubernetes' own types, as an operator's usually is — a pod
//! template, a job template, an object reference, resource requirements, service ports —
//! and a status of `metav1.Condition`s. Their schemas carry the API's list types, map
//! keys, defaults and validations, so the server merges, defaults and validates inside
//! a Fleet as it does inside a Deployment.

use k8s_openapi::api::batch::v1::JobTemplateSpec;
use k8s_openapi::api::core::v1::{ObjectReference, PodTemplateSpec, ResourceRequirements, ServicePort};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition;
use kubegen::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};

/// FleetSpec describes the pods and jobs of a fleet.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[kube(
    group = "zoo.kubegen.dev",
    version = "v1",
    kind = "Fleet",
    namespaced,
    status = "FleetStatus",
    derive = "PartialEq",
    derive = "Default",
    apply_config
)]
#[serde(rename_all = "camelCase")]
pub struct FleetSpec {
    /// The pods every member of the fleet runs.
    pub template: PodTemplateSpec,
    /// The job that provisions a member. (Its documentation is left out: a second pod
    /// template's descriptions would double the CRD's size.)
    #[kube(skip_description)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provisioner: Option<JobTemplateSpec>,
    /// The object this fleet serves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<ObjectReference>,
    /// What each member may use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources: Option<ResourceRequirements>,
    /// Ports of the fleet's service.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<ServicePort>,
}

/// FleetStatus is what the controller observed.
/// +kubebuilder:ac:generate=true
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct FleetStatus {
    /// The latest observations of the fleet's state.
    /// +listType=map
    /// +listMapKey=type
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
}
