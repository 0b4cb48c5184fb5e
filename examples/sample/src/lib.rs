//! The Sample kind, kubebuilder style: the derive stands on the root, whose data sits at
//! the top level next to `metadata`.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kubegen::CustomResource;
use serde::{Deserialize, Serialize};

/// Sample has no spec: its data sits at the top level.
/// +kubebuilder:printcolumn:name="Test String",type=string,JSONPath=".testString"
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube(group = "example.com", version = "v1alpha1", kind = "Sample", namespaced)]
#[serde(rename_all = "camelCase")]
pub struct Sample {
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// A string the user sets; shown by `kubectl get samples`.
    pub test_string: String,
}
