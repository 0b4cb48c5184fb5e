//! `manifests --size-budget annotation` on a kind far over the 262,144 bytes client-side
//! `kubectl apply` can store (Fleet: a pod template, a volume claim template and more,
//! about 400 KB of JSON): the CRD it writes fits, and the real API server takes it with a
//! plain `kubectl apply`; the whole CRD, applied the same way, is refused.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::cluster::{self, kubectl, kubectl_ok};

/// Fleet's CRD as `manifests` writes it into `out` (with `extra` flags), as JSON, renamed
/// into a group of its own (`as_group`) so it stands beside the zoo's.
fn fleet_crd(out: &Path, extra: &[&str], as_group: &str) -> (Value, String) {
    let run = Command::new(cluster::codegen_cli())
        .args(["manifests", "-p", "kubegen-tests", "--out"])
        .arg(out)
        .args(extra)
        .current_dir(cluster::root())
        .output()
        .expect("codegen-cli runs");
    let said = String::from_utf8_lossy(&run.stderr).into_owned();
    assert!(run.status.success(), "manifests failed:\n{said}");
    let yaml = std::fs::read_to_string(out.join("crd/bases/zoo.kubegen.dev_fleets.yaml")).expect("Fleet's CRD");
    let mut crd: Value = serde_saphyr::from_str(&yaml).expect("YAML");
    crd["metadata"]["name"] = format!("fleets.{as_group}").into();
    crd["spec"]["group"] = as_group.into();
    (crd, said)
}

#[test]
#[ignore = "needs a kube-apiserver: scripts/e2e.sh"]
fn a_size_budget_fits_client_side_apply() {
    let dir = std::env::temp_dir().join(format!("kubegen-size-budget-{}", std::process::id()));
    let (whole, said) = fleet_crd(&dir.join("whole"), &[], "whole.budget.kubegen.dev");
    assert!(said.contains("over the 262144 bytes of the last-applied-configuration annotation"), "{said}");
    let (fitted, said) = fleet_crd(&dir.join("fitted"), &["--size-budget", "annotation"], "fitted.budget.kubegen.dev");
    assert!(said.contains("descriptions dropped to fit the size budget"), "{said}");
    let size = |crd: &Value| serde_json::to_vec(crd).unwrap().len();
    assert!(size(&whole) > 262_144, "Fleet is no longer over the annotation: {}", size(&whole));
    assert!(size(&fitted) < 262_144, "{}", size(&fitted));

    // Client-side apply: kubectl stores the whole object in an annotation.
    let refused = kubectl(&["apply", "-f", "-"], Some(&whole.to_string()));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success() && err.contains("Too long"), "the whole CRD was applied client-side: {err}");
    kubectl_ok(&["apply", "-f", "-"], Some(&fitted.to_string()));
    let name = "fleets.fitted.budget.kubegen.dev";
    // Until the server has written its conditions, the path has nothing to read.
    let established = || {
        let path = "jsonpath={.status.conditions[?(@.type==\"Established\")].status}";
        let out = kubectl(&["get", "crd", name, "-o", path], None);
        out.status.success() && out.stdout == b"True"
    };
    let start = std::time::Instant::now();
    while !established() {
        assert!(start.elapsed().as_secs() < 60, "{name} was not Established in 60 s");
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    // Every field is still there: only descriptions went.
    let strip = |mut crd: Value| {
        fn drop_descriptions(v: &mut Value) {
            match v {
                Value::Object(map) => {
                    if map.get("description").is_some_and(Value::is_string) {
                        map.remove("description");
                    }
                    map.values_mut().for_each(drop_descriptions);
                }
                Value::Array(items) => items.iter_mut().for_each(drop_descriptions),
                _ => {}
            }
        }
        drop_descriptions(&mut crd["spec"]["versions"]);
        crd["spec"]["versions"].clone()
    };
    assert_eq!(strip(fitted), strip(whole), "the budget changed more than descriptions");
    kubectl_ok(&["delete", "crd", name, "--wait=false"], None);
    let _ = std::fs::remove_dir_all(&dir);
}
