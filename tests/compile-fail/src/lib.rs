//! A crate that depends on kubegen with `default-features = false` (no reconciler host,
//! no CEL evaluator) builds with every marker: `+default=ref(CONSTANT)` among them, whose
//! generated code once needed syn's "full" feature that only the runtime's dependencies
//! happened to switch on.
//!
//! In the workspace's own build, features are unified with the other members, so that
//! build proves nothing about a lean dependent. trybuild's build of this crate (the
//! dependency of every compile-fail case, `tests/compile_fail.rs`) resolves this crate's
//! dependencies alone, as a user's crate would: if a lean dependent does not build, trybuild
//! says so with cargo's error, and no case runs.

use kubegen::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};

pub const DEFAULT_MODE: &str = "safe";

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
pub struct Limits {
    /// +kubebuilder:default=3
    pub retries: Option<i32>,
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Thing")]
pub struct ThingSpec {
    /// +default=ref(DEFAULT_MODE)
    pub mode: Option<String>,
    /// +kubebuilder:default={"retries": 1}
    pub limits: Option<Limits>,
    /// +kubebuilder:validation:XValidation:rule="self.size() < 10",message="short"
    pub name: String,
}
