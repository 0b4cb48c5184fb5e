//! `Menagerie`: kube-rs style (derive on the spec), every typed resource key a 1.20
//! API server understands, and a spec holding every serde shape.

use std::collections::{BTreeMap, BTreeSet};

use k8s_openapi::api::core::v1::{ObjectReference, PodTemplateSpec};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, LabelSelector, Time};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use kubegen::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};

/// MenagerieSpec holds one field of every shape serde writes.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube(
    group = "zoo.kubegen.dev",
    version = "v1",
    kind = "Menagerie",
    plural = "menageries",
    singular = "menagerie",
    namespaced,
    status = "MenagerieStatus",
    shortname = "mng",
    shortname = "zoo",
    category = "all",
    category = "kubegen",
    annotation("zoo.kubegen.dev/owner", "kubegen-tests"),
    label("app.kubernetes.io/part-of", "kubegen"),
    storage,
    served = true,
    deprecated = "zoo.kubegen.dev/v1 Menagerie is a test fixture",
    doc = "Menagerie is a test kind that uses every resource-level key.",
    derive = "PartialEq",
    attr = "allow(clippy::large_enum_variant)"
)]
#[kube(printcolumn(
    name = "Keeper",
    type_ = "string",
    json_path = ".spec.keeper",
    description = "Who feeds them",
    priority = 0
))]
#[kube(printcolumn = r#"{"name":"Count","type":"integer","jsonPath":".spec.count","format":"int32","priority":1}"#)]
#[kube(scale(
    spec_replicas_path = ".spec.count",
    status_replicas_path = ".status.count",
    label_selector_path = ".status.selector"
))]
#[serde(rename_all = "camelCase")]
pub struct MenagerieSpec {
    /// Who looks after the animals.
    pub keeper: String,
    /// How many animals there should be.
    #[serde(default)]
    pub count: i32,
    /// Renamed on the wire.
    #[serde(rename = "habitat-name")]
    pub habitat: String,
    /// Never on the wire.
    #[serde(skip)]
    pub cache: Option<String>,
    /// Optional, omitted when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// Defaults to a function's value.
    #[serde(default = "default_feedings")]
    pub feedings_per_day: u8,
    pub diet: Diet,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enclosure: Option<Enclosure>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schedule: Option<Schedule>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transport: Option<Transport>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<Budget>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<Size>,
    /// A transparent newtype is its inner type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag_line: Option<TagLine>,
    /// Fields of a flattened struct sit beside the others.
    #[serde(flatten)]
    pub location: Location,
    /// A set of scalars is a list-type set.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub visitors: BTreeSet<String>,
    /// Map of structs.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub pens: BTreeMap<String, Pen>,
    /// A pair of the same type is a two-item array.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coordinates: Option<(i64, i64)>,
    /// Anything at all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<serde_json::Value>,
    /// Kubernetes types keep their official schemas.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub food_stock: Option<Quantity>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gate_port: Option<IntOrString>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opened_at: Option<Time>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<LabelSelector>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vet: Option<ObjectReference>,
    /// The pod template's own documentation is left out: it is most of this CRD's size.
    #[kube(skip_description)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<PodTemplateSpec>,
}

fn default_feedings() -> u8 {
    2
}

/// MenagerieStatus is what the keeper observed.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct MenagerieStatus {
    pub count: i32,
    pub selector: String,
    pub conditions: Vec<Condition>,
}

/// What the animals eat: a unit enum is a string enum.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
pub enum Diet {
    /// Plants only.
    Herbivore,
    Carnivore,
    #[serde(rename = "omnivore")]
    Omnivore,
}

/// An externally tagged enum: `{"open": {...}}` or `{"closed": {...}}`.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub enum Enclosure {
    Open { area_m2: u32 },
    Closed(Cage),
    Empty {},
}

/// A cage.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Cage {
    pub bars: u32,
}

/// An internally tagged enum: the tag sits beside the variant's fields.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Schedule {
    Daily { hour: u8 },
    Weekly { day: String, hour: u8 },
    Never,
}

/// An adjacently tagged enum: `{"mode": "truck", "details": {...}}`.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(tag = "mode", content = "details")]
pub enum Transport {
    Truck { plate: String },
    Boat { harbour: String, crew: u8 },
    Walk,
}

/// An untagged enum of objects: serde picks the first variant that fits.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(untagged)]
pub enum Budget {
    Fixed { amount: i64 },
    Range { min: i64, max: i64 },
}

/// An untagged integer-or-string.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(untagged)]
pub enum Size {
    Count(i64),
    Label(String),
}

/// A transparent newtype.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(transparent)]
pub struct TagLine(pub String);

/// Flattened into the spec.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq, Default)]
#[serde(rename_all = "camelCase")]
pub struct Location {
    #[serde(default)]
    pub city: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
}

/// A pen, with everything unknown kept.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Pen {
    pub capacity: u16,
    /// Extra keys land here; the server must keep them.
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}
