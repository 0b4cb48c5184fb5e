//! `cel`, as docs/markers.md shows it: the derive refuses it. Generated from the marker
//! registry by cli/src/reference.rs; tests/compile_fail.rs checks that it does not compile.

use kubegen::CustomResource;
use serde::{Deserialize, Serialize};

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Foo", cel)]
pub struct FooSpec {
    pub replicas: i32,
}

fn main() {}
