//! A kind whose version comes from its module path, as controller-gen takes a version
//! from the Go package's name when `+versionName` is absent.

use kubegen::CustomResource;
use serde::{Deserialize, Serialize};

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", kind = "Widget")]
pub struct WidgetSpec {
    pub size: i32,
}
