//! A crate that depends on kubegen with `default-features = false` (no reconciler host,
//! no CEL evaluator) builds with every marker — `+default=ref(CONSTANT)` among them, whose
//! generated code once needed syn's "full" feature that only the runtime's dependencies
//! happened to switch on. Checked in a workspace of its own, as a user's crate resolves
//! features, sharing this repository's target dir.

use std::path::Path;
use std::process::Command;

#[test]
fn a_lean_dependent_builds_with_every_default_form() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").canonicalize().expect("the repository");
    let dir = root.join("target/lean-build");
    std::fs::create_dir_all(dir.join("src")).expect("target/lean-build");
    let manifest = format!(
        "[package]\nname = \"lean\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[dependencies]\nkubegen = {{ package = \"kubegen-rs\", path = {:?}, default-features = false }}\nk8s-openapi = {{ version = \"0.29\", features = [\"latest\"] }}\nserde = {{ version = \"1\", features = [\"derive\"] }}\n\n[workspace]\n",
        root.join("runtime").display().to_string()
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).expect("Cargo.toml");
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).expect("Cargo.lock");
    std::fs::write(
        dir.join("src/lib.rs"),
        r#"use kubegen::{CustomResource, KubeSchema};
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
"#,
    )
    .expect("src/lib.rs");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["check", "--quiet", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", root.join("target"))
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "a lean dependent does not build:\n{}", String::from_utf8_lossy(&out.stderr));
}
