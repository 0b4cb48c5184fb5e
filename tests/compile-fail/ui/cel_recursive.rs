//! Where a type holds itself, or types hold each other, the CRD's structural schema stops
//! at the type that recurs and keeps unknown fields there, which the API server gives no
//! CEL type: a rule that reads such a field is refused (`undefined field 'boughs'`), and
//! so is a rule on such a node ("unable to convert structural schema to CEL
//! declarations"), both seen on kube-apiserver 1.37. Each fails `cargo build` at its
//! marker (found by review with `tests/tests/cel_cost.rs`'s `Bough` and `Twig`, whose
//! twins there build).

use kubegen::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default)]
pub struct Bough {
    pub name: String,
    /// A rule on each `Twig` that reads its `boughs`: `Bough` recurs there (found by
    /// review: it was called a rule standing on a `Twig` inside a `Twig`).
    ///
    /// +kubebuilder:validation:MaxItems=4
    #[serde(default)]
    #[kube(items(validation = "self.boughs.size() < 2"))]
    pub twigs: Vec<Twig>,
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default)]
pub struct Twig {
    pub leaves: i32,
    /// +kubebuilder:validation:MaxItems=2
    #[serde(default)]
    pub boughs: Vec<Bough>,
}

/// A rule that reads a `Twig`'s `boughs`: `Bough` recurs there.
///
/// +kubebuilder:validation:XValidation:rule="self.root.twigs.all(t, t.boughs.size() < 2)"
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "cost.kubegen.dev", version = "v1", kind = "Grove")]
pub struct GroveSpec {
    pub root: Bough,
}

/// +kubebuilder:validation:XValidation:rule="self.children.size() < 3"
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default)]
pub struct Tree {
    pub name: String,
    /// A rule on a `Tree` inside a `Tree`.
    #[kube(items(validation = "self.name != ''"))]
    pub children: Vec<Self>,
}

fn main() {}
