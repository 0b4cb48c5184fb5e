//! controller-gen as the oracle: its CRDs for Go types of the same kinds — the
//! hand-written twins in `tests/oracle/go`, and the Go package `codegen-cli clients`
//! writes — against kubegen's goldens, node by node (`scripts/oracle.sh` runs both). Descriptions compare with whitespace
//! folded (k8s-openapi's documentation is the same text with Go's line breaks joined).
//! Every difference must be listed, with its reason, in the allow-list the script names
//! (`tests/oracle/allowed.txt`, `tests/oracle/allowed-generated.txt`; a path ending in
//! `*` covers the nodes under it). One difference is a rule, not a list: kubegen writes the
//! range an integer format or an int-or-string implies as `minimum`/`maximum` (the server
//! does not check formats; `formats::implied_range`), controller-gen does not; such bounds
//! are counted and printed apart.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use kubegen_core::schema::formats::implied_range;
use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every leaf of a CRD's `spec` by (path, key); `properties`, `items` and
/// `additionalProperties` make the path.
fn leaves(node: &Value, path: &str, out: &mut BTreeMap<(String, String), Value>) {
    let Value::Object(map) = node else { return };
    for (key, value) in map {
        match (key.as_str(), value) {
            ("properties", Value::Object(props)) => {
                for (name, schema) in props {
                    leaves(schema, &format!("{path}.{name}"), out);
                }
            }
            ("items" | "additionalProperties", Value::Object(_)) => leaves(value, &format!("{path}[{key}]"), out),
            ("description", Value::String(text)) => {
                let folded = text.split_whitespace().collect::<Vec<_>>().join(" ");
                out.insert((path.to_string(), key.clone()), Value::String(folded));
            }
            _ => {
                out.insert((path.to_string(), key.clone()), value.clone());
            }
        }
    }
}

fn schema_leaves(file: &Path) -> BTreeMap<(String, String), Value> {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let crd: Value = serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let mut out = BTreeMap::new();
    let mut spec = crd["spec"].clone();
    // The schema of each version is compared from its root; the rest of the spec too.
    for (i, version) in spec["versions"].as_array_mut().into_iter().flatten().enumerate() {
        let schema = version["schema"]["openAPIV3Schema"].take();
        leaves(&schema, "", &mut out);
        version.as_object_mut().map(|v| v.remove("schema"));
        out.insert((format!("versions[{i}]"), "rest".into()), version.clone());
    }
    spec.as_object_mut().map(|s| s.remove("versions"));
    out.insert(("spec".into(), "rest".into()), spec);
    out
}

fn allowed() -> BTreeSet<(String, String, String)> {
    let list = std::env::var("KUBEGEN_ORACLE_ALLOWED").unwrap_or_else(|_| "tests/oracle/allowed.txt".into());
    let text = std::fs::read_to_string(root().join(&list)).unwrap_or_else(|e| panic!("{list}: {e}"));
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut words = l.split_whitespace();
            let (Some(file), Some(path), Some(key), Some(_reason)) =
                (words.next(), words.next(), words.next(), words.next())
            else {
                panic!("tests/oracle/allowed.txt: `{l}` is not `<file> <path> <key> <reason>`");
            };
            (file.to_string(), path.to_string(), key.to_string())
        })
        .collect()
}

fn oracle_dir() -> PathBuf {
    std::env::var_os("KUBEGEN_ORACLE_DIR").map(PathBuf::from).unwrap_or_else(|| root().join("target/oracle"))
}

/// `controller-gen rbac:roleName=manager-role` over the same markers (pasted into the Go
/// twins) writes the very file kubegen writes.
#[test]
#[ignore = "needs controller-gen's output: scripts/oracle.sh"]
fn kubegen_rbac_matches_controller_gen() {
    let theirs = std::fs::read_to_string(oracle_dir().join("rbac/role.yaml")).expect("controller-gen's role.yaml");
    let ours = std::fs::read_to_string(root().join("config/rbac/role.yaml")).expect("config/rbac/role.yaml");
    assert_eq!(ours, theirs, "config/rbac/role.yaml differs from controller-gen's");
}

/// `controller-gen webhook` over the same `+kubebuilder:webhook` markers writes the very
/// file kubegen writes from the comment marker and the typed attribute.
#[test]
#[ignore = "needs controller-gen's output: scripts/oracle.sh"]
fn kubegen_webhook_manifests_match_controller_gen() {
    let theirs =
        std::fs::read_to_string(oracle_dir().join("webhook/manifests.yaml")).expect("controller-gen's webhooks");
    let ours =
        std::fs::read_to_string(root().join("config/webhook/manifests.yaml")).expect("config/webhook/manifests.yaml");
    assert_eq!(ours, theirs, "config/webhook/manifests.yaml differs from controller-gen's");
}

#[test]
#[ignore = "needs controller-gen's output: scripts/oracle.sh"]
fn kubegen_crds_match_controller_gen() {
    let dir = oracle_dir().join("crd");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}; run scripts/oracle.sh", dir.display()))
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "controller-gen wrote no CRD into {}", dir.display());
    let allowed = allowed();
    let mut seen = BTreeSet::new();
    let mut unexplained = Vec::new();
    let (mut compared, mut equal, mut allowed_nodes, mut format_ranges) = (0, 0, 0, 0);
    for theirs_file in &files {
        let name = theirs_file.file_name().and_then(|n| n.to_str()).expect("file name").to_string();
        // The examples' CRDs are committed under config/, the zoo's under tests/golden.
        let golden = ["config/crd/bases", "tests/golden"]
            .iter()
            .map(|d| root().join(d).join(&name))
            .find(|p| p.exists())
            .unwrap_or_else(|| panic!("controller-gen wrote {name}, which kubegen has no CRD for"));
        let ours = schema_leaves(&golden);
        let theirs = schema_leaves(theirs_file);
        let keys: BTreeSet<&(String, String)> = ours.keys().chain(theirs.keys()).collect();
        for key in keys {
            compared += 1;
            if ours.get(key) == theirs.get(key) {
                equal += 1;
                continue;
            }
            // The range an integer format or an int-or-string implies, as bounds: the API
            // server does not check formats, controller-gen writes none.
            let format = ours.get(&(key.0.clone(), "format".into())).and_then(Value::as_str);
            let int_or_string =
                ours.get(&(key.0.clone(), "x-kubernetes-int-or-string".into())) == Some(&Value::Bool(true));
            let range = implied_range(format, int_or_string);
            let edge = match (key.1.as_str(), range) {
                ("minimum", Some((min, _))) => Some(min),
                ("maximum", Some((_, max))) => Some(max),
                _ => None,
            };
            if !theirs.contains_key(key) && edge.is_some() && ours.get(key).and_then(Value::as_i64) == edge {
                format_ranges += 1;
                continue;
            }
            let matching = allowed.iter().find(|(file, path, k)| {
                file == &name
                    && k == &key.1
                    && match path.strip_suffix('*') {
                        Some(prefix) => key.0.starts_with(prefix),
                        None => path == &key.0,
                    }
            });
            if let Some(entry) = matching {
                seen.insert(entry.clone());
                allowed_nodes += 1;
            } else {
                unexplained.push(format!(
                    "{name} {} {}\n    kubegen:        {}\n    controller-gen: {}",
                    key.0,
                    key.1,
                    ours.get(key).map_or("(none)".into(), Value::to_string),
                    theirs.get(key).map_or("(none)".into(), Value::to_string),
                ));
            }
        }
    }
    let stale: Vec<_> = allowed.difference(&seen).collect();
    println!(
        "{} CRDs, {compared} nodes compared, {equal} equal, {format_ranges} bounds that are an integer format's range or an int-or-string's int32 \
         (kubegen writes them, controller-gen does not), {allowed_nodes} different as {} entries of tests/oracle/allowed.txt allow",
        files.len(),
        seen.len()
    );
    assert!(
        unexplained.is_empty(),
        "{} differences from controller-gen not in tests/oracle/allowed.txt:\n{}",
        unexplained.len(),
        unexplained.join("\n")
    );
    assert!(stale.is_empty(), "allowed differences that no longer differ (remove them): {stale:?}");
}
