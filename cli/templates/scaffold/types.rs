//! {{ kind }}: version {{ version }} of the API group {{ group }}.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition;
use kubegen::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};

/// {{ kind }}Spec is the desired state of {{ kind }}.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[kube(group = "{{ group }}", version = "{{ version }}", kind = "{{ kind }}", {{ scope }}, status = "{{ kind }}Status")]
// The kind's own description: the CRD's top-level one, what `kubectl explain {{ kind_lower }}` shows.
#[kube(doc = "{{ kind }} is the Schema for the {{ plural }} API.")]
#[serde(rename_all = "camelCase")]
pub struct {{ kind }}Spec {
    // TODO(user): the fields of the desired state, with their markers. An example:
    /// Foo is an example field of {{ kind }}; edit or remove it.
    /// +kubebuilder:validation:MaxLength=63
    pub foo: Option<String>,
}

/// {{ kind }}Status is the observed state of {{ kind }}.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct {{ kind }}Status {
    /// The latest observations of the {{ kind }}'s state: `Available`, `Progressing`,
    /// `Degraded`. Set them with `kubegen::conditions::set`.
    /// +listType=map
    /// +listMapKey=type
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
}
