//! Rules the API server refuses fail at their marker, with the server's reason: a type
//! error, a function its libraries lack, a result that is not a bool, a bad regex, a
//! message expression that is not a string, a fieldPath naming no field, optionalOldSelf
//! on a rule that never reads oldSelf, and a cost over the budget with the bound to add.
use kubegen::KubeSchema;
use serde::{Deserialize, Serialize};

/// +kubebuilder:validation:XValidation:rule="self.replicas.startsWith('1')",message="type error"
/// +kubebuilder:validation:XValidation:rule="self.replicas",message="not a bool"
/// +kubebuilder:validation:XValidation:rule="self.replicas > 0",messageExpression="self.replicas"
/// +kubebuilder:validation:XValidation:rule="self.replicas > 0",fieldPath=".replica"
/// +kubebuilder:validation:XValidation:rule="self.replicas > 0",optionalOldSelf=true
#[derive(KubeSchema, Serialize, Deserialize)]
pub struct Spec {
    pub replicas: i32,
    /// +kubebuilder:validation:XValidation:rule="self.reverse() == 'abc'"
    /// +kubebuilder:validation:XValidation:rule="self.toUpper() == 'ABC'"
    /// +kubebuilder:validation:XValidation:rule="self.matches('[a-z')"
    #[kube(max_length = 63)]
    pub name: String,
    #[kube(validation(rule = "self.all(x, self.exists(y, x != y && x.startsWith(y)))", message = "no prefixes"))]
    pub hosts: Vec<String>,
}

fn main() {}
