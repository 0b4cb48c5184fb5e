//! Rules the API server accepts build: optional types, transition rules with
//! optionalOldSelf, Kubernetes' libraries, escaped names, bounded list walks. The one
//! error below proves the file was checked (trybuild's compile_fail needs one).
use kubegen::KubeSchema;
use serde::{Deserialize, Serialize};

/// +kubebuilder:validation:XValidation:rule="self.?replicas.orValue(1) >= 1"
/// +kubebuilder:validation:XValidation:rule="!oldSelf.hasValue() || self.replicas >= oldSelf.value().replicas",optionalOldSelf=true
/// +kubebuilder:validation:XValidation:rule="self.__namespace__.size() > 0 && self.namespace != 'kube-system'"
/// +kubebuilder:validation:XValidation:rule="quantity(self.memory).isLessThan(quantity('64Gi'))"
/// +kubebuilder:validation:XValidation:rule="self.hosts.all(x, self.hosts.exists_one(y, x == y))"
/// +kubebuilder:validation:XValidation:rule="self.labels[?'team'].orValue('') != 'nobody'"
/// +kubebuilder:validation:XValidation:rule="sets.contains(['a', 'b', 'c'], self.hosts)",messageExpression="'hosts are ' + self.hosts.join(', ')"
#[derive(KubeSchema, Serialize, Deserialize)]
pub struct Spec {
    pub replicas: Option<i32>,
    #[kube(max_length = 63)]
    pub namespace: String,
    #[kube(max_length = 16)]
    pub memory: String,
    #[kube(max_items = 16, items(max_length = 253))]
    pub hosts: Vec<String>,
    #[kube(max_properties = 8)]
    pub labels: std::collections::BTreeMap<String, String>,
}

#[derive(KubeSchema, Serialize, Deserialize)]
pub struct Proof {
    /// +kubebuilder:validation:XValidation:rule="self.size()"
    pub name: String,
}

fn main() {}
