//! The CLI on this workspace, writing into a temporary directory.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn run(out: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_codegen-cli"))
        .args(["manifests", "--out"])
        .arg(out)
        .args(extra)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("codegen-cli runs")
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kubegen-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn writes_the_layout_then_checks_it_and_keeps_scaffolded_edits() {
    let out = tmp("layout");
    let first = run(&out, &[]);
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    for file in [
        "crd/bases/samplecontroller.k8s.io_foos.yaml",
        "crd/bases/example.com_samples.yaml",
        "crd/kustomization.yaml",
        "rbac/role.yaml",
        "rbac/kustomization.yaml",
        "manager/manager.yaml",
        "default/kustomization.yaml",
        "samples/samplecontroller.k8s.io_v1alpha1_foo.yaml",
    ] {
        assert!(out.join(file).exists(), "{file} missing");
    }
    // The same as the committed config/.
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("../config/rbac/role.yaml");
    assert_eq!(
        std::fs::read_to_string(out.join("rbac/role.yaml")).unwrap(),
        std::fs::read_to_string(committed).unwrap()
    );

    assert!(run(&out, &["--check"]).status.success());

    // A scaffolded file is the user's once it exists.
    std::fs::write(out.join("manager/manager.yaml"), "# mine\n").unwrap();
    assert!(run(&out, &[]).status.success());
    assert_eq!(std::fs::read_to_string(out.join("manager/manager.yaml")).unwrap(), "# mine\n");

    // A stale generated file fails the check with a diff naming it, and is rewritten.
    std::fs::write(out.join("rbac/role.yaml"), "stale\n").unwrap();
    let check = run(&out, &["--check"]);
    assert_eq!(check.status.code(), Some(1));
    let diff = String::from_utf8_lossy(&check.stdout);
    assert!(
        diff.contains("rbac/role.yaml") && diff.contains("-stale") && diff.contains("+kind: ClusterRole"),
        "{diff}"
    );
    assert_eq!(std::fs::read_to_string(out.join("rbac/role.yaml")).unwrap(), "stale\n", "--check writes nothing");
    assert!(run(&out, &[]).status.success());
    assert!(run(&out, &["--check"]).status.success());
    std::fs::remove_dir_all(&out).ok();
}

#[test]
fn description_budget_and_header() {
    let out = tmp("budget");
    let header = out.with_extension("header.txt");
    std::fs::write(&header, "Copyright 2026 The kubegen Authors.\n\nLicensed under Apache-2.0.\n").unwrap();
    let done = run(&out, &["--max-desc-len", "0", "--header", header.to_str().unwrap()]);
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    let foo = std::fs::read_to_string(out.join("crd/bases/samplecontroller.k8s.io_foos.yaml")).unwrap();
    assert!(foo.starts_with("# Copyright 2026 The kubegen Authors.\n#\n# Licensed under Apache-2.0.\n---\n"), "{foo}");
    assert!(!foo.contains("description:"), "{foo}");
    std::fs::remove_dir_all(&out).ok();
    std::fs::remove_file(&header).ok();
}

#[test]
fn unknown_package_is_an_error() {
    let out = tmp("unknown");
    let done = run(&out, &["-p", "no-such-package"]);
    assert_eq!(done.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&done.stderr).contains("package `no-such-package` is not a workspace member"));
}
