//! serde for the root types `#[derive(CustomResource)]` generates around a spec. The
//! code is written once here, generic over spec and status, instead of being derived
//! again for every kind: that keeps the derive cheap to compile.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde::de::{Deserialize, DeserializeOwned, Deserializer, IgnoredAny};
use serde::ser::{Error as _, Serialize, SerializeMap, Serializer};

/// A root's fields as read from the wire; `apiVersion` and `kind` are not kept (the
/// type knows them). `T` is `IgnoredAny` for a kind without a status.
#[derive(serde::Deserialize)]
#[serde(bound(deserialize = "S: DeserializeOwned, T: DeserializeOwned"))]
pub struct RootParts<S, T> {
    #[serde(default)]
    pub metadata: ObjectMeta,
    pub spec: S,
    #[serde(default = "none")]
    pub status: Option<T>,
}

/// The same for `no_spec` kinds, whose spec fields sit at the top level.
#[derive(serde::Deserialize)]
#[serde(bound(deserialize = "S: DeserializeOwned, T: DeserializeOwned"))]
pub struct FlatRootParts<S, T> {
    #[serde(default)]
    pub metadata: ObjectMeta,
    #[serde(flatten)]
    pub spec: S,
    #[serde(default = "none")]
    pub status: Option<T>,
}

fn none<T>() -> Option<T> {
    None
}

impl<S: DeserializeOwned, T: DeserializeOwned> RootParts<S, T> {
    pub fn read<'de, D: Deserializer<'de>>(d: D, flat: bool) -> Result<Self, D::Error> {
        if flat {
            let FlatRootParts { metadata, spec, status } = FlatRootParts::deserialize(d)?;
            Ok(RootParts { metadata, spec, status })
        } else {
            RootParts::deserialize(d)
        }
    }
}

/// The status of a kind without one: whatever the server sends there is skipped.
pub struct NoStatus;

impl<'de> Deserialize<'de> for NoStatus {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        IgnoredAny::deserialize(d).map(|_| NoStatus)
    }
}

impl Serialize for NoStatus {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_unit()
    }
}

/// Writes a root: `apiVersion`, `kind`, `metadata`, then `spec` (or its fields, `flat`),
/// then `status` when there is one.
pub fn serialize_root<Ser: Serializer, S: Serialize, T: Serialize>(
    serializer: Ser,
    api_version: &str,
    kind: &str,
    metadata: &ObjectMeta,
    spec: &S,
    status: Option<&T>,
    flat: bool,
) -> Result<Ser::Ok, Ser::Error> {
    let mut map = serializer.serialize_map(None)?;
    map.serialize_entry("apiVersion", api_version)?;
    map.serialize_entry("kind", kind)?;
    map.serialize_entry("metadata", metadata)?;
    if flat {
        let value = serde_json::to_value(spec).map_err(Ser::Error::custom)?;
        if let serde_json::Value::Object(fields) = value {
            for (key, value) in &fields {
                map.serialize_entry(key, value)?;
            }
        }
    } else {
        map.serialize_entry("spec", spec)?;
    }
    if let Some(status) = status {
        map.serialize_entry("status", status)?;
    }
    map.end()
}
