//! Differential diff (issue 28): generated API changes to a kind of the test's own, each
//! judged by `codegen-cli diff OLD NEW --format json` (the binary, on the two CRD files, as a
//! user runs it on CRDs from anywhere) and by the live API server on a stored object that
//! the change is about (its witness: valid under the old CRD, at odds with the new one).
//! The server's effects — a label-only update refused (breaks stored objects), a server-side
//! apply of the stored values by a second field manager refused, a create of the same
//! content refused (new writes), an update changing the value refused, a value gone on
//! read or write (data loss) — must match diff: an effect on the wire exactly when diff
//! reports an error (and exits 1), and a CEL finding's class as the server behaves.
//!
//! `KUBEGEN_SEED` repeats a run; `KUBEGEN_CHANGES` (default 24) sets its size;
//! `KUBEGEN_CODEGEN_CLI` names the binary (scripts/e2e.sh builds it; else `cargo build`).

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, ApiResource, DeleteParams, DynamicObject, GroupVersionKind, Patch, PatchParams, PostParams};
use kubegen_tests::cel_gen;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use serde_json::{Value, json};

use crate::cluster::{self, dry_run, message};

const GROUP: &str = "gendiff.kubegen.dev";

/// One change to the base schema, and the witness value of its field.
#[derive(Clone, Debug)]
enum Change {
    TightenMaximum(i64),
    TightenMaxLength(u64),
    RemoveEnumValue(&'static str),
    AddPattern,
    AddRule(i64),
    AddTransitionRule,
    AddRefusingTransitionRule,
    AddRequired,
    RemoveField,
    Retype,
    AddStatusSubresource,
    Relax,
}

fn change() -> impl Strategy<Value = Change> {
    prop_oneof![
        (1..90i64).prop_map(Change::TightenMaximum),
        (1..15u64).prop_map(Change::TightenMaxLength),
        proptest::sample::select(vec!["a", "b"]).prop_map(Change::RemoveEnumValue),
        Just(Change::AddPattern),
        (1..90i64).prop_map(Change::AddRule),
        Just(Change::AddTransitionRule),
        Just(Change::AddRefusingTransitionRule),
        Just(Change::AddRequired),
        Just(Change::RemoveField),
        Just(Change::Retype),
        Just(Change::AddStatusSubresource),
        Just(Change::Relax),
    ]
}

fn base_spec() -> Value {
    json!({
        "type": "object",
        "properties": {
            "count": {"type": "integer", "maximum": 100},
            "name": {"type": "string", "maxLength": 20},
            "mode": {"type": "string", "enum": ["a", "b", "c"]},
            "note": {"type": "string"},
        }
    })
}

/// The new spec schema, whether the status subresource is added, and the witness: a spec
/// valid under the old schema that the change is about.
fn apply(change: &Change) -> (Value, bool, Value) {
    let mut s = base_spec();
    let mut status = false;
    let witness = match change {
        Change::TightenMaximum(m) => {
            s["properties"]["count"]["maximum"] = json!(m);
            json!({"count": m + 1})
        }
        Change::TightenMaxLength(n) => {
            s["properties"]["name"]["maxLength"] = json!(n);
            json!({"name": "x".repeat(*n as usize + 1)})
        }
        Change::RemoveEnumValue(v) => {
            let kept: Vec<&str> = ["a", "b", "c"].into_iter().filter(|x| x != v).collect();
            s["properties"]["mode"]["enum"] = json!(kept);
            json!({"mode": v})
        }
        Change::AddPattern => {
            s["properties"]["name"]["pattern"] = json!("^[a-z]+$");
            json!({"name": "Upper"})
        }
        Change::AddRule(k) => {
            s["properties"]["count"]["x-kubernetes-validations"] =
                json!([{"rule": format!("self <= {k}"), "message": "too many"}]);
            json!({"count": k + 1})
        }
        Change::AddTransitionRule => {
            s["properties"]["count"]["x-kubernetes-validations"] =
                json!([{"rule": "self >= oldSelf", "message": "count never goes down"}]);
            json!({"count": 50})
        }
        Change::AddRefusingTransitionRule => {
            s["properties"]["mode"]["x-kubernetes-validations"] =
                json!([{"rule": "oldSelf != 'c' || self != 'c'", "message": "mode c is retired"}]);
            json!({"mode": "c"})
        }
        Change::AddRequired => {
            s["required"] = json!(["note"]);
            json!({"count": 1})
        }
        Change::RemoveField => {
            s["properties"].as_object_mut().map(|p| p.remove("note"));
            json!({"note": "kept?"})
        }
        Change::Retype => {
            s["properties"]["note"] = json!({"type": "integer"});
            json!({"note": "text"})
        }
        Change::AddStatusSubresource => {
            status = true;
            json!({"count": 1})
        }
        Change::Relax => {
            s["properties"]["count"]["maximum"] = json!(1000);
            json!({"count": 100})
        }
    };
    (s, status, witness)
}

fn crd(kind: &str, spec: Value, status: bool) -> CustomResourceDefinition {
    let plural = format!("{}s", kind.to_lowercase());
    let mut version = json!({
        "name": "v1", "served": true, "storage": true,
        "schema": {"openAPIV3Schema": {"type": "object", "properties": {
            "spec": spec,
            "status": {"type": "object", "properties": {"phase": {"type": "string"}}},
        }}},
    });
    if status {
        version["subresources"] = json!({"status": {}});
    }
    serde_json::from_value(json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": format!("{plural}.{GROUP}")},
        "spec": {
            "group": GROUP,
            "names": {"kind": kind, "plural": plural, "singular": kind.to_lowercase(), "listKind": format!("{kind}List")},
            "scope": "Namespaced",
            "versions": [version],
        },
    }))
    .expect("a CRD")
}

/// What the server did to the witness once the new CRD was in place.
#[derive(Debug, Default)]
struct Effect {
    label_refused: Option<String>,
    ssa_refused: Option<String>,
    create_refused: Option<String>,
    change_refused: Option<String>,
    lost: Option<String>,
}

impl Effect {
    fn any(&self) -> bool {
        self.label_refused.is_some()
            || self.ssa_refused.is_some()
            || self.create_refused.is_some()
            || self.change_refused.is_some()
            || self.lost.is_some()
    }
}

#[tokio::test]
#[ignore = "needs a kube-apiserver: scripts/e2e.sh"]
async fn generated_api_changes_diff_and_the_server_agree() {
    let client = cluster::client().await;
    let release = client.apiserver_version().await.expect("server version").git_version;
    let seed = cel_gen::seed();
    let n = cel_gen::count("KUBEGEN_CHANGES", 24);
    println!("generated API changes: seed {seed} (KUBEGEN_SEED={seed} repeats this run), {n} changes");
    let mut runner = cel_gen::runner(seed ^ 0x6469_6666);
    let changes: Vec<Change> =
        (0..n).filter_map(|_| change().new_tree(&mut runner).ok().map(|t| t.current())).collect();
    let crds: Api<CustomResourceDefinition> = Api::all(client.clone());
    let ns = cluster::own_namespace(&client, "e2e-generated-diff").await;
    let namespaces: Api<k8s_openapi::api::core::v1::Namespace> = Api::all(client.clone());
    let dry = dry_run();
    let cli = cluster::codegen_cli();
    let work = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/tmp/generated-diff");
    let mut wrong = Vec::new();
    let mut agree = 0;
    for (i, change) in changes.iter().enumerate() {
        let kind = format!("Gd{i}");
        let (new_spec, status, witness) = apply(change);
        let old = crd(&kind, base_spec(), false);
        let new = crd(&kind, new_spec, status);
        let (findings, exit) = diff_cli(&cli, &work.join(&kind), &old, &new);
        let level = |f: &Value| f["level"].as_str().unwrap_or_default().to_string();
        let errors: Vec<&Value> = findings.iter().filter(|f| level(f) == "error").collect();
        let classes: Vec<String> = findings.iter().filter_map(|f| f["cel"].as_str().map(String::from)).collect();

        // The server: store the witness under the old CRD, put the new one in place, probe.
        let name = old.metadata.name.clone().unwrap_or_default();
        let _ = crds.delete(&name, &DeleteParams::default()).await;
        crate::cel_corpus::wait_gone(&crds, &name).await;
        crds.create(&PostParams::default(), &old).await.unwrap_or_else(|e| panic!("{name}: {}", message(&e)));
        crate::cel_corpus::wait_established(&crds, &name).await;
        let gvk = GroupVersionKind::gvk(GROUP, "v1", &kind);
        let api: Api<DynamicObject> = Api::namespaced_with(
            client.clone(),
            &ns,
            &ApiResource::from_gvk_with_plural(&gvk, &format!("{}s", kind.to_lowercase())),
        );
        let object = |name: &str, spec: &Value| {
            serde_json::from_value::<DynamicObject>(json!({"apiVersion": format!("{GROUP}/v1"), "kind": kind, "metadata": {"name": name, "namespace": ns}, "spec": spec, "status": {"phase": "Ready"}}))
                .expect("an object")
        };
        api.create(&PostParams::default(), &object("w", &witness))
            .await
            .unwrap_or_else(|e| panic!("{kind}: the witness {witness} under the old CRD: {}", message(&e)));
        let mut current = crds.get(&name).await.expect("the old CRD");
        current.spec = new.spec.clone();
        crds.replace(&name, &PostParams::default(), &current)
            .await
            .unwrap_or_else(|e| panic!("{name}: the new CRD: {}", message(&e)));
        // The server takes up a CRD's new schema asynchronously.
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let mut effect = Effect::default();
        let label = json!({"metadata": {"labels": {"touched": "yes"}}});
        let patch = PatchParams { dry_run: true, ..Default::default() };
        match api.patch("w", &patch, &Patch::Merge(&label)).await {
            Err(e) => effect.label_refused = Some(message(&e)),
            Ok(back) => effect.lost = lost(&witness, &back, "is written back as").or(effect.lost),
        }
        // A second field manager applies the values the object stores (server-side apply):
        // a controller or a GitOps tool taking over a field it did not write.
        let applied =
            json!({"apiVersion": format!("{GROUP}/v1"), "kind": kind, "metadata": {"name": "w"}, "spec": witness});
        let ssa = PatchParams { dry_run: true, force: true, ..PatchParams::apply("kubegen-e2e-second-manager") };
        match api.patch("w", &ssa, &Patch::Apply(&applied)).await {
            Err(e) => effect.ssa_refused = Some(message(&e)),
            Ok(back) => effect.lost = lost(&witness, &back, "is applied back as").or(effect.lost),
        }
        if let Err(e) = api.create(&dry, &object("w2", &witness)).await {
            effect.create_refused = Some(message(&e));
        }
        // An update that changes the value the change is about.
        let changed = match change {
            Change::AddTransitionRule => Some(json!({"spec": {"count": 10}})),
            _ => None,
        };
        if let Some(body) = changed
            && let Err(e) = api.patch("w", &patch, &Patch::Merge(&body)).await
        {
            effect.change_refused = Some(message(&e));
        }
        // Data the server no longer keeps: on read, and on a write through the object.
        let stored = api.get("w").await.expect("the witness");
        effect.lost = lost(&witness, &stored, "reads back as").or(effect.lost);
        if status {
            let mut o = serde_json::to_value(&stored).expect("JSON");
            o["status"] = json!({"phase": "Changed"});
            let o: DynamicObject = serde_json::from_value(o).expect("object");
            if let Ok(back) = api.replace("w", &dry, &o).await
                && serde_json::to_value(&back).expect("JSON")["status"]["phase"] != json!("Changed")
            {
                effect.lost = Some("status written with the object is dropped".into());
            }
        }
        let _ = crds.delete(&name, &DeleteParams::default()).await;

        // The oracle.
        let mut problems = Vec::new();
        if exit == errors.is_empty() {
            problems.push(format!("diff exits {} with {} error(s)", if exit { 1 } else { 0 }, errors.len()));
        }
        if effect.any() == errors.is_empty() {
            problems.push(format!(
                "the server {} the wire, diff reports {} error(s)",
                if effect.any() { "changes" } else { "does not change" },
                errors.len()
            ));
        }
        for class in &classes {
            // Stored objects keep updating (by anyone) under a ratchet-safe rule and one that
            // breaks new writes only.
            let stored_update = effect.label_refused.is_none() && effect.ssa_refused.is_none();
            let fits = match class.as_str() {
                "breaks-stored-objects" => effect.label_refused.is_some(),
                "ratchet-safe" => stored_update && effect.create_refused.is_some(),
                "breaks-new-writes" => {
                    stored_update && effect.create_refused.is_none() && effect.change_refused.is_some()
                }
                other => panic!("codegen-cli diff names a CEL class this test does not know: {other}"),
            };
            if !fits {
                problems.push(format!("diff classes a rule {class}, the server does otherwise"));
            }
        }
        if problems.is_empty() {
            agree += 1;
        } else {
            wrong.push(format!(
                "change {i} of seed {seed}: {change:?} (witness {witness}): {}\n  server: {effect:?}\n  diff: {}",
                problems.join("; "),
                findings
                    .iter()
                    .map(|f| format!("{}[{}] {}", level(f), f["check"].as_str().unwrap_or_default(), f["path"]))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    let _ = namespaces.delete(&ns, &DeleteParams::default()).await;
    println!(
        "diff agrees with kube-apiserver {release} on {agree}/{} generated API changes (seed {seed})",
        changes.len()
    );
    assert!(wrong.is_empty(), "{} changes judged differently:\n{}", wrong.len(), wrong.join("\n"));
}

/// A field of the witness that `back`'s spec no longer holds as sent, said with `how`.
fn lost(witness: &Value, back: &DynamicObject, how: &str) -> Option<String> {
    let spec = serde_json::to_value(back).expect("JSON")["spec"].clone();
    witness
        .as_object()
        .into_iter()
        .flatten()
        .find(|(k, v)| spec.get(k.as_str()) != Some(*v))
        .map(|(k, _)| format!("spec.{k} {how} {}", spec.get(k.as_str()).unwrap_or(&Value::Null)))
}

/// `codegen-cli diff OLD NEW --format json` on the two CRDs written as YAML files in `dir`:
/// the findings it prints, and whether it exits 1 (an error-level finding).
fn diff_cli(
    cli: &Path,
    dir: &Path,
    old: &CustomResourceDefinition,
    new: &CustomResourceDefinition,
) -> (Vec<Value>, bool) {
    std::fs::create_dir_all(dir).expect("the diff tier's work dir");
    let (old_file, new_file) = (dir.join("old.yaml"), dir.join("new.yaml"));
    std::fs::write(&old_file, kubegen::to_yaml(old).expect("YAML")).expect("old.yaml");
    std::fs::write(&new_file, kubegen::to_yaml(new).expect("YAML")).expect("new.yaml");
    let out = Command::new(cli)
        .args(["diff", "--format", "json"])
        .arg(&old_file)
        .arg(&new_file)
        .output()
        .unwrap_or_else(|e| panic!("{} runs: {e}", cli.display()));
    let code = out.status.code();
    assert!(
        matches!(code, Some(0 | 1)),
        "codegen-cli diff {} {} exits {code:?}:\n{}",
        old_file.display(),
        new_file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("codegen-cli diff --format json prints no JSON ({e}):\n{}", String::from_utf8_lossy(&out.stdout))
    });
    let findings = report["findings"].as_array().cloned().unwrap_or_default();
    (findings, code == Some(1))
}
