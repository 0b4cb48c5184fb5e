//! Issue 28 (found by a new user's trial): a rule too costly for the server builds no
//! longer because its struct also has a field of another struct. What the rule does not
//! read of such a field cannot change its cost, so the derive judges the rule whole: an
//! optional compared with `optional.none()` (the server sizes neither), and a
//! messageExpression concatenating `string()` of integers (unsized) are refused at build.
use kubegen::KubeSchema;
use serde::{Deserialize, Serialize};

#[derive(KubeSchema, Serialize, Deserialize)]
pub struct Endpoint {
    pub host: String,
}

/// +kubebuilder:validation:XValidation:rule="self.?description == optional.none() || self.description.size() > 0"
/// +kubebuilder:validation:XValidation:rule="self.replicas == oldSelf.replicas",messageExpression="'replicas changed from ' + string(oldSelf.replicas) + ' to ' + string(self.replicas)"
#[derive(KubeSchema, Serialize, Deserialize)]
pub struct Spec {
    pub description: Option<String>,
    pub replicas: i32,
    pub endpoint: Option<Endpoint>,
}

fn main() {}
