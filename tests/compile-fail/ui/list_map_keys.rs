use kubegen::KubeSchema;
use serde::{Deserialize, Serialize};

#[derive(KubeSchema, Serialize, Deserialize)]
pub struct Item {
    pub name: String,
}

#[derive(KubeSchema, Serialize, Deserialize)]
pub struct Spec {
    /// +listMapKey=name
    pub without_type: Vec<Item>,
    /// +listType=map
    pub without_keys: Vec<Item>,
    /// +listType=map
    /// +listMapKey=name
    pub scalars: Vec<String>,
}

fn main() {}
