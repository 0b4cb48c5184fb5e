//! `Aviary`: the keys that need a newer API server than 1.20 — CEL rules
//! (`x-kubernetes-validations`, GA in 1.29) and selectable fields (1.30) — plus
//! `no_spec` and `root`, and `Roost` with the schema left to the server.

use kubegen::{CustomResource, KubeSchema, Rule};
use serde::{Deserialize, Serialize};

/// The aviary's fields sit at the top level (`no_spec`); the root type is `Birdhouse`.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube(group = "zoo.kubegen.dev", version = "v1", kind = "Aviary", root = "Birdhouse", no_spec, namespaced = false)]
#[kube(selectable = ".species")]
#[kube(validation = "self.metadata.name.startsWith('aviary-')")]
#[kube(validation = ("self.capacity >= size(self.birds)", "too many birds"))]
#[kube(validation = Rule::new("self.species != 'dodo'").message("extinct").reason(kubegen::Reason::FieldValueForbidden))]
#[serde(rename_all = "camelCase")]
pub struct AviarySpec {
    pub species: String,
    pub capacity: i32,
    #[serde(default)]
    pub birds: Vec<Bird>,
}

/// A bird.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube(validation(
    rule = "self.name != ''",
    message = "a bird has a name",
    reason = "FieldValueRequired",
    field_path = ".name"
))]
pub struct Bird {
    pub name: String,
}

/// The server keeps whatever it is sent.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube(group = "zoo.kubegen.dev", version = "v1", kind = "Roost", schema = "disabled")]
pub struct RoostSpec {
    pub anything: serde_json::Value,
}
