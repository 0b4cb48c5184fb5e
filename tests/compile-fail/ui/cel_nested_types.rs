//! Issue 28 (found by a new user's trial, and by the generated CEL tier): a rule that reads
//! through a field whose type is another struct is checked against that struct's fields at
//! build time — a misspelled nested field, a string method on a nested integer, an unknown
//! field in a rule on the nested field itself, through list items, map values, two levels
//! deep, optional chains, has(), messageExpression and fieldPath. Rules that read the
//! nested fields rightly, and rules through types without the derive, build.
use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::ObjectReference;
use kubegen::KubeSchema;
use serde::{Deserialize, Serialize};

#[derive(KubeSchema, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tls {
    #[kube(max_length = 4096)]
    pub cert: Option<String>,
    pub insecure_skip_verify: Option<bool>,
}

#[derive(KubeSchema, Serialize, Deserialize)]
pub struct Endpoint {
    #[kube(max_length = 253)]
    pub host: String,
    pub port: Option<i32>,
    pub tls: Option<Tls>,
}

#[derive(KubeSchema, Serialize, Deserialize)]
pub struct Port {
    #[kube(max_length = 15)]
    pub name: String,
    pub port: i32,
}

#[derive(KubeSchema, Serialize, Deserialize)]
pub struct Backend {
    pub weight: i32,
}

// Right: these build.
/// +kubebuilder:validation:XValidation:rule="self.endpoint.host.startsWith('a') && self.endpoint.port > 0"
/// +kubebuilder:validation:XValidation:rule="!has(self.endpoint.tls) || self.endpoint.tls.?cert.orValue('').size() < 10"
/// +kubebuilder:validation:XValidation:rule="self.?endpoint.?tls.?insecureSkipVerify.orValue(false) == false"
/// +kubebuilder:validation:XValidation:rule="self.ports.all(p, p.name.size() > 0 && p.port > 0)"
/// +kubebuilder:validation:XValidation:rule="self.backends.all(k, v, v.weight >= 0)"
/// +kubebuilder:validation:XValidation:rule="self.target.name != ''",fieldPath=".endpoint.host"
#[derive(KubeSchema, Serialize, Deserialize)]
pub struct Good {
    pub endpoint: Endpoint,
    #[kube(max_items = 8)]
    pub ports: Vec<Port>,
    #[kube(max_properties = 8)]
    pub backends: BTreeMap<String, Backend>,
    pub target: ObjectReference,
}

// Wrong: each marker below is refused at build, as the API server refuses the CRD.
/// +kubebuilder:validation:XValidation:rule="self.endpoint.hostname != ''"
/// +kubebuilder:validation:XValidation:rule="self.endpoint.port.startsWith('8')"
/// +kubebuilder:validation:XValidation:rule="self.endpoint.tls.certs != ''"
/// +kubebuilder:validation:XValidation:rule="has(self.endpoint.hostname)"
/// +kubebuilder:validation:XValidation:rule="self.?endpoint.?portNumber.hasValue()"
/// +kubebuilder:validation:XValidation:rule="self.ports.all(p, p.nmae != '')"
/// +kubebuilder:validation:XValidation:rule="self.backends.all(k, v, v.wieght > 0)"
/// +kubebuilder:validation:XValidation:rule="true",messageExpression="'bad ' + self.endpoint.hst"
/// +kubebuilder:validation:XValidation:rule="self.endpoint.host == 'a'",fieldPath=".endpoint.hostname"
/// +kubebuilder:validation:XValidation:rule="self.endpoint.port == 'x'"
#[derive(KubeSchema, Serialize, Deserialize)]
pub struct Bad {
    pub endpoint: Endpoint,
    #[kube(max_items = 8)]
    pub ports: Vec<Port>,
    #[kube(max_properties = 8)]
    pub backends: BTreeMap<String, Backend>,
    /// A rule on the nested field itself.
    #[kube(validation(rule = "self.hostname != ''"))]
    pub other: Option<Endpoint>,
}

fn main() {}
