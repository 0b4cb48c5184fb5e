//! The agreement kind: one field per marker family and per shape a client can get wrong,
//! so that one test (`tests/tests/agreement.rs`) can ask every output — the CRD,
//! `Validate`, the Go, TypeScript and Python clients — what it makes of each, and check
//! the Python model's verdict on the same values as `Validate`'s.

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use kubegen::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};

use crate::menagerie::Enclosure;

/// AccordSpec holds one field per marker family.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq, Default)]
#[kube(group = "zoo.kubegen.dev", version = "v1", kind = "Accord")]
#[serde(rename_all = "camelCase")]
pub struct AccordSpec {
    /// From 1 up to, not including, 10.
    /// +kubebuilder:validation:Minimum=1
    /// +kubebuilder:validation:Maximum=10
    /// +kubebuilder:validation:ExclusiveMaximum=true
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bounded: Option<i32>,
    /// A ratio in (0, 1].
    #[kube(minimum = 0, exclusive_minimum, maximum = 1)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratio: Option<f64>,
    /// In steps of five.
    /// +kubebuilder:validation:MultipleOf=5
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<i64>,
    /// +kubebuilder:validation:MinLength=3
    /// +kubebuilder:validation:MaxLength=8
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// A label that starts with `web-`: the field's pattern beside the type's.
    /// +kubebuilder:validation:Pattern=`^web-`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<AccordLabel>,
    /// +kubebuilder:validation:Enum=fast;safe
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// +kubebuilder:validation:Format=date-time
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub due: Option<String>,
    /// +kubebuilder:validation:MinItems=1
    /// +kubebuilder:validation:MaxItems=2
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sizes: Option<Vec<i32>>,
    /// +listType=set
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
    /// +listType=map
    /// +listMapKey=name
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub members: Option<Vec<Member>>,
    /// +kubebuilder:validation:MinProperties=1
    /// +kubebuilder:validation:MaxProperties=2
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub labels: Option<BTreeMap<String, String>>,
    /// +kubebuilder:default=3
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// An object default, on a field of a named type.
    /// +kubebuilder:default={"name": "owner"}
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lead: Option<Member>,
    /// +nullable
    #[serde(default)]
    pub note: Option<String>,
    /// A count or a percentage.
    /// +kubebuilder:validation:Pattern=`^[0-9]+%$`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub surge: Option<IntOrString>,
    /// Resource quantities by name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quota: Option<BTreeMap<String, Quantity>>,
    /// Counts or percentages by name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limits: Option<BTreeMap<String, IntOrString>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub span: Option<Span>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open: Option<Open>,
    /// A whole Kubernetes object.
    #[kube(embedded_resource, preserve_unknown_fields)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<serde_json::Value>,
    /// An enum with data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enclosure: Option<Enclosure>,
}

/// A DNS label.
/// +kubebuilder:validation:MaxLength=63
/// +kubebuilder:validation:Pattern=`^[a-z0-9-]+$`
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(transparent)]
pub struct AccordLabel(pub String);

/// A member, keyed by name in its list.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Member {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
}

/// A range whose ends are in order.
/// +kubebuilder:validation:XValidation:rule="self.low <= self.high",message="low must not exceed high"
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Span {
    pub low: i32,
    pub high: i32,
}

/// Open: the server keeps every key it is sent, named or not.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Open {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub known: Option<String>,
    #[serde(flatten)]
    pub rest: BTreeMap<String, serde_json::Value>,
}
