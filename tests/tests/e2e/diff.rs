//! `codegen-cli diff`'s CEL classes and `--cluster`'s verdicts, held to what a real API
//! server does. Two kinds of the test's own (group diff.kubegen.dev: `Gauge`, and
//! `Dial` with its fields at the root) in two generations: `before` has no rules,
//! `after` adds rules of every class — plain (ratchet-safe), on an atomic list's items,
//! at the root and a transition rule that refuses a value left as stored (breaks stored
//! objects), a transition rule that holds while the value stays (breaks new writes only) —
//! and tightens a bound, so `--cluster`'s structural verdicts meet the server too.
//! Objects are stored under `before`; after `after` is applied,
//!
//! - each *breaking* finding has an update the old CRD accepted (a server dry run says
//!   so before the new CRD is applied) that the server now refuses;
//! - the *ratchet-safe* finding has an object that breaks the rule and still takes an
//!   update leaving the value as it is;
//! - `--cluster` names exactly the stored objects the server then refuses: those it
//!   marks refused on every update are the ones a label change is refused for, and
//!   all it names are those refused either so or on a create of the same object (no
//!   ratcheting).

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, ApiResource, DynamicObject, Patch, PatchParams, PostParams};
use kubegen::CustomResourceExt;
use kubegen_cli::diff::{self, CelClass, Generation, Options};
use serde_json::{Value, json};

use super::cluster::{kubeconfig, kubectl, kubectl_ok};

pub mod before {
    use kubegen::{CustomResource, KubeSchema};
    use serde::{Deserialize, Serialize};

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "diff.kubegen.dev", version = "v1", kind = "Gauge", namespaced)]
    pub struct GaugeSpec {
        pub level: i64,
        pub epoch: i64,
        pub mode: String,
        #[kube(list_type = "atomic")]
        pub items: Vec<Item>,
        pub width: i64,
    }

    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    pub struct Item {
        pub name: String,
        pub size: i64,
    }

    /// Its fields at the top level: a rule on it stands at the root.
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "diff.kubegen.dev", version = "v1", kind = "Dial", no_spec, namespaced)]
    pub struct DialSpec {
        pub reading: i64,
    }
}

pub mod after {
    use kubegen::{CustomResource, KubeSchema};
    use serde::{Deserialize, Serialize};

    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "diff.kubegen.dev", version = "v1", kind = "Gauge", namespaced)]
    pub struct GaugeSpec {
        /// Ratchet-safe: a plain rule on a field the server pairs with its old value.
        #[kube(validation(rule = "self <= 10", message = "level is at most 10"))]
        pub level: i64,
        /// Breaks new writes: a transition rule.
        #[kube(validation(rule = "self >= oldSelf", message = "epoch never goes back"))]
        pub epoch: i64,
        /// Breaks stored objects: a transition rule that fails when the value stays
        /// (issue 28: it was classed breaks new writes only).
        #[kube(validation(
            rule = "oldSelf != 'legacy' || self != 'legacy'",
            message = "mode legacy is retired: move to another mode"
        ))]
        pub mode: String,
        /// Breaks stored objects: a rule on the items of an atomic list.
        #[kube(list_type = "atomic")]
        pub items: Vec<Item>,
        /// Not CEL: a bound tightened, which the server ratchets too.
        #[kube(maximum = 3)]
        pub width: i64,
    }

    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    #[kube(validation(rule = "self.size <= 5", message = "an item's size is at most 5"))]
    pub struct Item {
        pub name: String,
        pub size: i64,
    }

    /// Breaks stored objects: a rule at the root, whose value holds metadata.
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "diff.kubegen.dev", version = "v1", kind = "Dial", no_spec, namespaced)]
    #[kube(validation = ("self.reading <= 100", "a reading is at most 100"))]
    pub struct DialSpec {
        pub reading: i64,
    }
}

const CRDS: [&str; 2] = ["gauges.diff.kubegen.dev", "dials.diff.kubegen.dev"];

fn apply_crds(crds: &[CustomResourceDefinition]) {
    for crd in crds {
        let json = serde_json::to_string(crd).expect("the CRD as JSON");
        kubectl_ok(&["apply", "--server-side", "--force-conflicts", "-f", "-"], Some(&json));
    }
    for name in CRDS {
        kubectl_ok(&["wait", "--for=condition=Established", "--timeout=30s", &format!("crd/{name}")], None);
    }
}

fn gauge(name: &str, level: i64, mode: &str, items: Value) -> Value {
    json!({
        "apiVersion": "diff.kubegen.dev/v1", "kind": "Gauge", "metadata": {"name": name},
        "spec": {"level": level, "epoch": 5, "mode": mode, "items": items, "width": 1},
    })
}

fn dial(name: &str, reading: i64) -> Value {
    json!({"apiVersion": "diff.kubegen.dev/v1", "kind": "Dial", "metadata": {"name": name}, "reading": reading})
}

/// An update's outcome: `Ok`, or the server's message.
async fn patch(api: &Api<DynamicObject>, name: &str, body: Value, dry_run: bool) -> Result<(), String> {
    let params = PatchParams { dry_run, ..Default::default() };
    api.patch(name, &params, &Patch::Merge(&body)).await.map(|_| ()).map_err(|e| e.to_string())
}

fn label(n: u32) -> Value {
    json!({"metadata": {"labels": {"touched": n.to_string()}}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a kube-apiserver: scripts/e2e.sh"]
async fn diff_cel_classes_and_cluster_verdicts_hold_on_the_api_server() {
    // Fresh kinds: deleting a CRD deletes a previous run's objects, which --cluster
    // would list too.
    for name in CRDS {
        kubectl_ok(&["delete", "crd", name, "--ignore-not-found", "--wait=true"], None);
    }
    let ns = format!("e2e-diff-{}", std::process::id());
    let out = kubectl(&["create", "namespace", &ns], None);
    assert!(out.status.success(), "create namespace {ns}: {}", String::from_utf8_lossy(&out.stderr));

    // What diff reports, as `codegen-cli diff` computes it.
    let old_crds = vec![before::Gauge::crd(), before::Dial::crd()];
    let new_crds = vec![after::Gauge::crd(), after::Dial::crd()];
    let generation = |name: &str, crds| Generation { name: name.into(), crds, clients: None, commit: None };
    let findings = diff::compare(
        &generation("before", old_crds.clone()),
        &generation("after", new_crds.clone()),
        &Options::default(),
    );
    let classes: BTreeSet<(String, String, CelClass)> =
        findings.iter().filter_map(|f| Some((f.kind.clone(), f.path.clone()?, f.cel?))).collect();
    let expected: BTreeSet<(String, String, CelClass)> = [
        ("Gauge", "spec.level", CelClass::RatchetSafe),
        ("Gauge", "spec.epoch", CelClass::BreaksNewWrites),
        ("Gauge", "spec.mode", CelClass::BreaksStoredObjects),
        ("Gauge", "spec.items[*]", CelClass::BreaksStoredObjects),
        ("Dial", "", CelClass::BreaksStoredObjects),
    ]
    .into_iter()
    .map(|(k, p, c)| (format!("diff.kubegen.dev/{k}"), p.to_string(), c))
    .collect();
    assert_eq!(classes, expected, "diff's CEL findings: {findings:#?}");
    let checks: BTreeSet<(&str, Option<&str>)> = findings.iter().map(|f| (f.check, f.path.as_deref())).collect();
    assert_eq!(
        checks.into_iter().filter(|(c, _)| *c != "cel-rule-added").collect::<Vec<_>>(),
        [("bounds-tightened", Some("spec.width"))],
        "and one structural finding: {findings:#?}"
    );

    // Objects stored under the old CRDs.
    apply_crds(&old_crds);
    // The client --cluster makes from --kubeconfig.
    let (client, server) = diff::cluster::client(Some(&kubeconfig())).await.expect("a client from the kubeconfig");
    let gauges: Api<DynamicObject> =
        Api::namespaced_with(client.clone(), &ns, &ApiResource::erase::<after::Gauge>(&()));
    let dials: Api<DynamicObject> = Api::namespaced_with(client.clone(), &ns, &ApiResource::erase::<after::Dial>(&()));
    let mut wide = gauge("wide", 1, "fast", json!([{"name": "a", "size": 1}]));
    wide["spec"]["width"] = json!(9);
    let objects = [
        (&gauges, gauge("fine", 1, "fast", json!([{"name": "a", "size": 1}]))),
        (&gauges, gauge("high", 50, "fast", json!([{"name": "a", "size": 1}]))),
        (&gauges, gauge("legacy", 1, "legacy", json!([{"name": "a", "size": 1}]))),
        (&gauges, gauge("big-item", 1, "fast", json!([{"name": "a", "size": 9}]))),
        (&gauges, wide),
        (&dials, dial("quiet", 1)),
        (&dials, dial("loud", 500)),
    ];
    for (api, object) in &objects {
        let object: DynamicObject = serde_json::from_value(object.clone()).expect("an object");
        api.create(&PostParams::default(), &object).await.expect("stored under the old CRD");
    }

    // The proofs, each an update the old CRD accepts (dry run) and the new one refuses.
    let two_items = json!({"spec": {"items": [{"name": "a", "size": 9}, {"name": "b", "size": 1}]}});
    let proofs: [(&str, &Api<DynamicObject>, &str, Value, &str); 6] = [
        ("spec.epoch (breaks new writes)", &gauges, "fine", json!({"spec": {"epoch": 4}}), "epoch never goes back"),
        ("spec.mode (breaks stored objects)", &gauges, "legacy", label(1), "mode legacy is retired"),
        ("spec.items[*] (breaks stored objects)", &gauges, "big-item", two_items, "an item's size is at most 5"),
        ("the root (breaks stored objects)", &dials, "loud", label(1), "a reading is at most 100"),
        ("spec.level (ratchet-safe, a changed value)", &gauges, "high", json!({"spec": {"level": 40}}), "at most 10"),
        (
            "spec.width (bounds-tightened, a changed value)",
            &gauges,
            "wide",
            json!({"spec": {"width": 8}}),
            "less than or equal to 3",
        ),
    ];
    for (finding, api, name, body, _) in &proofs {
        let before = patch(api, name, body.clone(), true).await;
        assert_eq!(before, Ok(()), "{finding}: the old CRD accepts the update of {name}");
    }

    apply_crds(&new_crds);
    // The server reloads a CRD's validation asynchronously: wait until the rules hold.
    let deadline = Instant::now() + Duration::from_secs(20);
    while patch(&gauges, "legacy", label(0), true).await.is_ok() || patch(&dials, "loud", label(0), true).await.is_ok()
    {
        assert!(Instant::now() < deadline, "the new CRDs' rules never took effect");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    // --cluster, before any update touches the stored objects.
    let started = Instant::now();
    let report = diff::cluster::check(client.clone(), server, &new_crds, &findings)
        .await
        .expect("--cluster lists and validates");
    let elapsed = started.elapsed();
    eprintln!("{}", diff::cluster::text(&report));
    let listed: usize = report.kinds.iter().map(|k| k.listed).sum();
    eprintln!("--cluster: {listed} objects of {} kinds listed and validated in {elapsed:?}", report.kinds.len());
    let kinds: Vec<(&str, &str, usize)> =
        report.kinds.iter().map(|k| (k.kind.as_str(), k.version.as_str(), k.listed)).collect();
    assert_eq!(kinds, [("diff.kubegen.dev/Dial", "v1", 2), ("diff.kubegen.dev/Gauge", "v1", 5)], "{report:#?}");
    let stored = || report.kinds.iter().flat_map(|k| &k.objects);
    let named: BTreeSet<String> = stored().map(|o| o.name.clone()).collect();
    let every_update: BTreeSet<String> =
        stored().filter(|o| o.refused_on_every_update).map(|o| o.name.clone()).collect();
    let at = |n: &str| format!("{ns}/{n}");
    assert_eq!(named, [at("big-item"), at("high"), at("legacy"), at("loud"), at("wide")].into(), "{report:#?}");
    assert_eq!(every_update, [at("legacy"), at("loud")].into(), "{report:#?}");
    let anchors: BTreeSet<(String, Option<String>)> =
        stored().flat_map(|o| o.violations.iter().map(|v| (v.path.clone(), v.unless_unchanged.clone()))).collect();
    let want: BTreeSet<(String, Option<String>)> = [
        ("spec.items[0]", Some("spec.items")),
        ("spec.level", Some("spec.level")),
        ("spec.width", Some("spec.width")),
        ("spec.mode", None),
        ("", None),
    ]
    .into_iter()
    .map(|(p, a)| (p.to_string(), a.map(str::to_string)))
    .collect();
    assert_eq!(anchors, want, "{report:#?}");

    // Every breaking finding's proof is refused now, with the rule's message.
    for (finding, api, name, body, message) in &proofs {
        let after = patch(api, name, body.clone(), true).await;
        match after {
            Err(e) if e.contains(message) => {}
            other => panic!("{finding}: the new CRD must refuse the update of {name} with `{message}`: {other:?}"),
        }
    }
    // The ratchet-safe finding: the object that breaks the rule still updates while
    // the value stays; so does the one outside the tightened bound.
    assert_eq!(patch(&gauges, "high", label(2), false).await, Ok(()), "ratcheting lets high keep level 50");
    assert_eq!(patch(&gauges, "wide", label(2), false).await, Ok(()), "ratcheting lets wide keep width 9");

    // The server refuses exactly what --cluster names: on a label change, the objects
    // refused on every update; on a create of the same object (nothing to ratchet
    // against), the others it names.
    let mut refused_label = BTreeSet::new();
    let mut refused_create = BTreeSet::new();
    for (i, (api, object)) in objects.iter().enumerate() {
        let name = object["metadata"]["name"].as_str().expect("a name").to_string();
        if let Err(e) = patch(api, &name, label(10 + i as u32), false).await {
            eprintln!("{name}: a label change is refused: {e}");
            refused_label.insert(at(&name));
        }
        let mut copy = object.clone();
        copy["metadata"]["name"] = json!(format!("{name}-copy"));
        let copy: DynamicObject = serde_json::from_value(copy).expect("an object");
        if let Err(e) = api.create(&PostParams { dry_run: true, field_manager: None }, &copy).await {
            eprintln!("{name}: a create of the same object is refused: {e}");
            refused_create.insert(at(&name));
        }
    }
    // big-item passes a label change: the server excuses the items of an atomic list
    // while the whole list is unchanged (the class's "blocks every update of the list");
    // loud does not: the root holds metadata, never unchanged.
    assert_eq!(refused_label, every_update, "refused on a label change");
    let refused: BTreeSet<String> = refused_label.union(&refused_create).cloned().collect();
    assert_eq!(refused, named, "refused on a label change or a create: exactly what --cluster names");

    kubectl_ok(&["delete", "namespace", &ns, "--wait=false"], None);
}
