use kubegen::KubeSchema;
use serde::{Deserialize, Serialize};

/// A unit variant is a string, a data variant an object.
#[derive(KubeSchema, Serialize, Deserialize)]
pub enum Mixed {
    Off,
    On { level: u8 },
}

#[derive(KubeSchema, Serialize, Deserialize)]
#[serde(untagged)]
pub enum StringOrObject {
    Name(String),
    Full { first: String, last: String },
}

#[derive(KubeSchema, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum TaggedNewtype {
    Text(String),
}

#[derive(KubeSchema, Serialize, Deserialize)]
pub struct Pair(String, i32);

fn main() {}
