//! Issue 28, found by the generated kinds tier (tests/src/kind_gen.rs, seed 2): the API
//! server leaves a schemaless field (`serde_json::Value`) out of what a CEL rule sees, so a
//! one-of group or a rule naming it, or a rule on a map of such values, is refused at build.
use std::collections::BTreeMap;

use kubegen::KubeSchema;
use serde::{Deserialize, Serialize};

#[derive(KubeSchema, Serialize, Deserialize)]
#[kube(at_most_one_of = ["a", "b"])]
pub struct OneOfValue {
    pub a: Option<String>,
    pub b: Option<serde_json::Value>,
}

/// +kubebuilder:validation:XValidation:rule="has(self.extra)"
#[derive(KubeSchema, Serialize, Deserialize)]
pub struct ReadsValue {
    pub extra: Option<serde_json::Value>,
}

#[derive(KubeSchema, Serialize, Deserialize)]
pub struct MapOfValues {
    #[kube(max_properties = 2, validation(rule = "self.size() <= 2"))]
    pub m: BTreeMap<String, serde_json::Value>,
}

fn main() {}
