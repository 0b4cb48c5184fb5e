//! The marker zoo: every controller-gen field and type marker, in both spellings.
//! `Inspection` holds the markers a 1.20 API server enforces; `Ledger` the CEL ones
//! (immutability, XValidation, the one-of groups), which need 1.29+.

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use kubegen::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};

/// InspectionSpec exercises the validation markers.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube(group = "zoo.kubegen.dev", version = "v1", kind = "Inspection")]
#[serde(rename_all = "camelCase")]
pub struct InspectionSpec {
    /// +kubebuilder:validation:Minimum=1
    /// +kubebuilder:validation:Maximum=10
    /// +kubebuilder:default=3
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// A ratio in (0, 1].
    #[kube(minimum = 0, exclusive_minimum, maximum = 1)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratio: Option<f64>,
    /// In steps of five. (A fractional multipleOf makes 1.20's validator divide by zero
    /// on whole numbers: kube-openapi's MultipleOfInt.)
    /// +kubebuilder:validation:MultipleOf=5
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<i32>,
    /// +kubebuilder:validation:MinLength=3
    /// +kubebuilder:validation:MaxLength=12
    /// +kubebuilder:validation:Pattern=`^[a-z][a-z0-9-]*$`
    /// +kubebuilder:example="inspector-1"
    pub inspector: String,
    /// +kubebuilder:validation:Enum=fast;safe;thorough
    /// +kubebuilder:default=safe
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// Levels are numbers, written as an enum.
    #[kube(enum_values = ["1", "2", "3"])]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<i32>,
    /// +kubebuilder:validation:MinItems=1
    /// +kubebuilder:validation:MaxItems=4
    /// +kubebuilder:validation:items:Minimum=1
    /// +kubebuilder:validation:items:Maximum=65535
    /// +listType=set
    pub ports: Vec<i32>,
    /// Host names, each a DNS label.
    #[kube(items(max_length = 63, pattern = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"), max_items = 3)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hosts: Vec<String>,
    /// +kubebuilder:validation:MinProperties=1
    /// +kubebuilder:validation:MaxProperties=3
    /// +mapType=atomic
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    /// +listType=map
    /// +listMapKey=name
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<Check>,
    /// +kubebuilder:validation:Format=date-time
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub due: Option<String>,
    /// A port by number or name.
    /// +kubebuilder:validation:XIntOrString
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<IntOrString>,
    /// Kept as sent.
    /// +kubebuilder:pruning:PreserveUnknownFields
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<serde_json::Value>,
    /// A whole Kubernetes object.
    #[kube(embedded_resource, preserve_unknown_fields)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<serde_json::Value>,
    /// +nullable
    #[serde(default)]
    pub note: Option<String>,
    /// Schemaless: the server keeps whatever is here.
    /// +kubebuilder:validation:Schemaless
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra: Option<serde_json::Value>,
    /// An Option the API insists on.
    /// +required
    pub reviewer: Option<String>,
    /// A field serde needs but the API lets clients leave out (kubegen's `Default` fills it).
    #[kube(optional)]
    #[serde(default)]
    pub comment: String,
    #[kube(
        title = "Limits",
        external_docs(url = "https://kubernetes.io/docs/concepts/policy/limit-range/", description = "Limit ranges")
    )]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limits: Option<Limits>,
    /// +structType=atomic
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<Window>,
    /// A Window that keeps the keys it does not name (`window` prunes them).
    /// +kubebuilder:pruning:PreserveUnknownFields
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_window: Option<Window>,
    /// Annotations of the inspection, each key owned by the manager that set it.
    /// +mapType=granular
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub notes: BTreeMap<String, String>,
    /// How deep a quick inspection may go: the type's values, narrowed by the field.
    /// +kubebuilder:validation:Enum=shallow;normal
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quick_depth: Option<Depth>,
}

/// How deep an inspection looks.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub enum Depth {
    Shallow,
    Normal,
    Deep,
}

/// A check, keyed by name in its list.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Check {
    pub name: String,
    /// +kubebuilder:default=true
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
}

/// Type-level markers apply wherever the type is used.
/// +kubebuilder:validation:MinProperties=1
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Limits {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<String>,
}

/// A time window.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Window {
    pub start: String,
    pub end: String,
}

/// LedgerSpec exercises the CEL markers.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube(group = "zoo.kubegen.dev", version = "v1", kind = "Ledger")]
/// +kubebuilder:validation:AtMostOneOf=cash;card
/// +kubebuilder:validation:ExactlyOneOf=owner;team
#[kube(at_least_one_of = ["cash", "card", "credit"])]
/// +kubebuilder:validation:XValidation:rule="!has(self.credit) || self.credit <= 1000",message="credit is capped at 1000",reason=FieldValueForbidden
#[serde(rename_all = "camelCase")]
pub struct LedgerSpec {
    /// +k8s:immutable
    pub account: String,
    /// +k8s:immutable
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opened: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cash: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credit: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team: Option<String>,
    /// Bounded, as current servers require of a list that CEL rules walk: their cost
    /// estimate refuses the rules below on an unbounded list of unbounded strings (and
    /// since 1.37 refuses `string(int)` in a message expression on it).
    /// +kubebuilder:validation:MaxItems=1000
    /// +kubebuilder:validation:items:MaxLength=256
    /// +kubebuilder:validation:XValidation:rule="self.all(e, e.size() > 0)",message="entries are not empty"
    /// +kubebuilder:validation:XValidation:rule="size(self) <= oldSelf.size() + 10",messageExpression="'at most 10 new entries' + (size(oldSelf) == 0 ? ' to an empty ledger' : '')",optionalOldSelf=false
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entries: Vec<String>,
}
