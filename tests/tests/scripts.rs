//! The scripts the README shows a user never delete what they did not create, and
//! check their arguments before they touch anything.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn script(args: &[&str]) -> Output {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/kube-apiserver.sh");
    Command::new("bash").arg(path).args(args).output().expect("bash runs the script")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kubegen-scripts-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

#[test]
fn start_refuses_a_directory_holding_a_users_file_and_leaves_it_alone() {
    let dir = scratch("start");
    let file = dir.join("notes.txt");
    std::fs::write(&file, "mine").expect("write");
    let out = script(&["start", dir.to_str().expect("utf-8 path")]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("holds files that start did not write"));
    assert_eq!(std::fs::read_to_string(&file).expect("the file survives"), "mine");
    assert_eq!(std::fs::read_dir(&dir).expect("dir").count(), 1, "nothing was added");

    // stop on a directory start never claimed removes nothing either.
    std::fs::create_dir_all(dir.join("etcd-data")).expect("mkdir");
    let out = script(&["stop", dir.to_str().expect("utf-8 path")]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(dir.join("etcd-data").is_dir() && file.is_file());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn options_are_checked_before_anything_is_touched() {
    let dir = scratch("help");
    let file = dir.join("keep");
    std::fs::write(&file, "x").expect("write");
    let d = dir.to_str().expect("utf-8 path");
    let help = script(&["start", "-h"]);
    assert!(help.status.success());
    let text = String::from_utf8_lossy(&help.stdout);
    for documented in
        ["build", "bin", "start RUN_DIR", "stop RUN_DIR", "KUBE_VERSION", "KUBEGEN_APISERVER_CACHE", "AUTHZ_MODE"]
    {
        assert!(text.contains(documented), "--help lacks {documented}:\n{text}");
    }
    for args in [vec!["start", d, "--force"], vec!["start"], vec!["stop"], vec!["frobnicate", d]] {
        let out = script(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(file.is_file(), "{args:?} touched the directory");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 29: `scripts/local-webhook-certs.sh --help` failed with `$2: unbound variable`.
#[test]
fn local_webhook_certs_has_help_and_checks_its_arguments() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/local-webhook-certs.sh");
    let run = |args: &[&str]| Command::new("bash").arg(&path).args(args).output().expect("bash runs the script");
    let help = run(&["--help"]);
    assert!(help.status.success(), "{}", String::from_utf8_lossy(&help.stderr));
    assert!(String::from_utf8_lossy(&help.stdout).contains("local-webhook-certs.sh DIR CA_NAME"));
    let dir = scratch("certs");
    let d = dir.join("out");
    for args in [vec![], vec![d.to_str().expect("utf-8 path")]] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("expected DIR and CA_NAME"), "{args:?}");
        assert!(!d.exists(), "{args:?} wrote something");
    }
    let out = run(&[d.to_str().expect("utf-8 path"), "test-ca"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for file in ["ca.crt", "tls.crt", "tls.key"] {
        assert!(d.join(file).is_file(), "{file}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
