//! Differential CEL: rules drawn from a grammar over nested named types, lists of every
//! list type, maps and optional fields (`kubegen_tests::cel_gen`), each sent to the live
//! API server in a CRD (dry run) and checked by kubegen's checker — the one
//! `codegen-cli manifests` runs on the whole CRD. Same verdict on every rule, or the test
//! fails with the seed and each disagreement shrunk to a small rule. Then objects drawn
//! from the schema are sent to the server under the accepted rules, and `Validate` must
//! decide each as the server does.
//!
//! `KUBEGEN_SEED` repeats a run; `KUBEGEN_CEL_RULES` (default 2000) and
//! `KUBEGEN_CEL_OBJECTS` (default 300) set its size.

use futures::{StreamExt, stream};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, ApiResource, DeleteParams, DynamicObject, GroupVersionKind, PostParams};
use kubegen_tests::cel_corpus;
use kubegen_tests::cel_gen::{self, Case};
use proptest::strategy::{Strategy, ValueTree};
use serde_json::{Value, json};

use crate::cluster::{self, dry_run, message};

fn root(case: &Case) -> Value {
    cel_corpus::root_schema(json!({"spec": case.spec_schema(&cel_gen::spec())}))
}

/// kubegen's verdict for the release `minor`: the whole-CRD check `manifests` runs.
fn kubegen(case: &Case, minor: u32) -> Result<(), String> {
    let refusals = kubegen_cel::schema::check_for(&cel_corpus::typed(&root(case)), minor).refusals;
    if refusals.is_empty() {
        Ok(())
    } else {
        Err(refusals.iter().map(|r| r.problem.message.clone()).collect::<Vec<_>>().join("; "))
    }
}

async fn server(crds: &Api<CustomResourceDefinition>, kind: &str, case: &Case) -> Result<(), String> {
    let crd: CustomResourceDefinition = serde_json::from_value(cel_corpus::crd(kind, root(case))).expect("a CRD");
    crds.create(&dry_run(), &crd).await.map(|_| ()).map_err(|e| message(&e))
}

#[tokio::test]
#[ignore = "needs a kube-apiserver: scripts/e2e.sh"]
async fn generated_cel_rules_kubegen_and_the_server_agree() {
    let client = cluster::client().await;
    let release = client.apiserver_version().await.expect("server version").git_version;
    let minor = cluster::server_minor();
    let seed = cel_gen::seed();
    let n = cel_gen::count("KUBEGEN_CEL_RULES", 2000);
    println!("generated CEL rules: seed {seed} (KUBEGEN_SEED={seed} repeats this run), {n} rules");
    let strategy = cel_gen::case(cel_gen::spec());
    let mut trees = cel_gen::draw(&strategy, seed, n);
    let crds: Api<CustomResourceDefinition> = Api::all(client.clone());

    let verdicts: Vec<(usize, Result<(), String>)> = stream::iter(trees.iter().map(|t| t.current()).enumerate())
        .map(|(i, case)| {
            let crds = crds.clone();
            async move { (i, server(&crds, &format!("Gen{i}"), &case).await) }
        })
        .buffer_unordered(16)
        .collect()
        .await;
    let mut verdicts = verdicts;
    verdicts.sort_by_key(|(i, _)| *i);
    let mut disagree = Vec::new();
    let (mut accepted, mut refused) = (0, 0);
    for (i, theirs) in &verdicts {
        let case = trees[*i].current();
        let ours = kubegen(&case, minor);
        if theirs.is_ok() {
            accepted += 1
        } else {
            refused += 1
        }
        if theirs.is_ok() != ours.is_ok() {
            disagree.push(*i);
        }
    }
    println!(
        "kubegen agrees with kube-apiserver {release} on {}/{n} generated rules ({accepted} accepted, {refused} refused by the server; seed {seed})",
        n - disagree.len()
    );

    // Each disagreement, shrunk against the server (a few, to keep the run bounded).
    let mut report = Vec::new();
    for &i in disagree.iter().take(12) {
        let original = trees[i].current();
        let crds2 = crds.clone();
        let shrunk = cel_gen::shrink(&mut trees[i], 300, |case: Case| {
            let crds = crds2.clone();
            async move {
                let theirs = server(&crds, "Shrink", &case).await;
                theirs.is_ok() != kubegen(&case, minor).is_ok()
            }
        })
        .await;
        let theirs = server(&crds, "Shrink", &shrunk).await;
        let ours = kubegen(&shrunk, minor);
        report.push(format!(
            "case {i} of seed {seed}: {}\n  shrunk: {}\n  server: {}\n  kubegen: {}",
            original.describe(),
            shrunk.describe(),
            theirs.err().unwrap_or_else(|| "accepted".into()),
            ours.err().unwrap_or_else(|| "accepted".into()),
        ));
    }
    assert!(
        disagree.is_empty(),
        "kubegen and kube-apiserver {release} disagree on {} of {n} generated rules (seed {seed}); the first, shrunk:\n{}",
        disagree.len(),
        report.join("\n")
    );

    // The budget's edge: for rules that stand under the unbounded `routes` list, the
    // largest maxItems of `routes` at which the server still accepts the rule, found by
    // bisection on the server and on kubegen; the two must be the same.
    let edge_cases: Vec<usize> = verdicts
        .iter()
        .filter(|(i, v)| {
            let case = trees[*i].current();
            v.is_ok() && matches!(case.at.path.first(), Some(cel_gen::Step::Field("routes"))) && case.at.path.len() > 1
        })
        .map(|(i, _)| *i)
        .take(cel_gen::count("KUBEGEN_CEL_EDGES", 25))
        .collect();
    let mut edges_agree = 0;
    let mut edge_report = Vec::new();
    for &i in &edge_cases {
        let case = trees[i].current();
        let with_max = |m: u64| {
            let mut spec = case.spec_schema(&cel_gen::spec());
            spec["properties"]["routes"]["maxItems"] = json!(m);
            cel_corpus::root_schema(json!({"spec": spec}))
        };
        let ours = |m: u64| kubegen_cel::schema::check_for(&cel_corpus::typed(&with_max(m)), minor).refusals.is_empty();
        let crds2 = crds.clone();
        let theirs = |m: u64| {
            let crds = crds2.clone();
            let root = with_max(m);
            async move {
                let crd: CustomResourceDefinition =
                    serde_json::from_value(cel_corpus::crd("Edge", root)).expect("a CRD");
                crds.create(&dry_run(), &crd).await.is_ok()
            }
        };
        // Accepted without a bound, so accepted with any: the edge is where a bound starts
        // to count. Bisect over [1, 2^24].
        let (mut lo, mut hi) = (1u64, 1u64 << 24);
        let server_edge = if theirs(hi).await {
            None
        } else {
            while lo + 1 < hi {
                let mid = (lo + hi) / 2;
                if theirs(mid).await { lo = mid } else { hi = mid }
            }
            Some(lo)
        };
        let agree = match server_edge {
            Some(e) => ours(e) && !ours(e + 1),
            None => ours(hi),
        };
        if agree {
            edges_agree += 1;
        } else {
            edge_report.push(format!(
                "case {i} of seed {seed}: {}
  server's edge: maxItems {server_edge:?}; kubegen accepts at it: {}, one more: {}",
                case.describe(),
                server_edge.map(ours).unwrap_or(true),
                server_edge.map(|e| ours(e + 1)).unwrap_or(true),
            ));
        }
    }
    println!(
        "kubegen finds the server's budget edge of kube-apiserver {release} for {edges_agree}/{} rules under an unbounded list (seed {seed})",
        edge_cases.len()
    );
    assert!(edge_report.is_empty(), "budget edges differ:\n{}", edge_report.join("\n"));

    // Objects: the accepted rules, ten per CRD (cost permitting), objects drawn from the
    // schema; Validate must decide each as the server does.
    let objects_wanted = cel_gen::count("KUBEGEN_CEL_OBJECTS", 300);
    let accepted: Vec<usize> = verdicts.iter().filter(|(_, v)| v.is_ok()).map(|(i, _)| *i).collect();
    let ns = cluster::own_namespace(&client, "e2e-cel-generated").await;
    let per_case = objects_wanted.div_ceil(accepted.len().max(1)).max(1);
    let mut chunks: Vec<Vec<usize>> = Vec::new();
    let mut chunk_cost = 0u64;
    for &i in &accepted {
        let cost = kubegen_cel::schema::check(&cel_corpus::typed(&root(&trees[i].current()))).total_cost;
        match chunks.last_mut() {
            Some(c) if c.len() < 10 && chunk_cost.saturating_add(cost) <= kubegen_cel::cost::PER_CRD_LIMIT / 2 => {
                c.push(i);
                chunk_cost = chunk_cost.saturating_add(cost);
            }
            _ => {
                chunks.push(vec![i]);
                chunk_cost = cost;
            }
        }
    }
    let mut runner = cel_gen::runner(seed ^ 0x6f62_6a65_6374);
    let (mut decided, mut admitted) = (0usize, 0usize);
    let mut wrong = Vec::new();
    'chunks: for (chunk_no, chunk) in chunks.iter().enumerate() {
        if decided >= objects_wanted {
            break;
        }
        let kind = format!("Objects{chunk_no}");
        let props: serde_json::Map<String, Value> =
            chunk.iter().map(|i| (format!("e{i}"), trees[*i].current().spec_schema(&cel_gen::spec()))).collect();
        let crd_json =
            cel_corpus::crd(&kind, cel_corpus::root_schema(json!({"spec": {"type": "object", "properties": props}})));
        let crd: CustomResourceDefinition = serde_json::from_value(crd_json).expect("a CRD");
        let name = crd.metadata.name.clone().unwrap_or_default();
        let _ = crds.delete(&name, &DeleteParams::default()).await;
        crate::cel_corpus::wait_gone(&crds, &name).await;
        if let Err(e) = crds.create(&PostParams::default(), &crd).await {
            wrong.push(format!("{name}: the server refuses the CRD of accepted rules: {}", message(&e)));
            continue;
        }
        crate::cel_corpus::wait_established(&crds, &name).await;
        let gvk = GroupVersionKind::gvk("cel.kubegen.dev", "v1", &kind);
        let resource = ApiResource::from_gvk_with_plural(&gvk, &format!("{}s", kind.to_lowercase()));
        let objects: Api<DynamicObject> = Api::namespaced_with(client.clone(), &ns, &resource);
        for &i in chunk {
            let case = trees[i].current();
            let node = cel_corpus::typed(&case.spec_schema(&cel_gen::spec()));
            let values = kubegen::webhook::arbitrary::value(&node, 0);
            let transition = case.rule.contains("oldSelf")
                || case.message_expression.as_deref().is_some_and(|m| m.contains("oldSelf"));
            for k in 0..per_case {
                let Ok(tree) = values.new_tree(&mut runner) else { continue };
                let value = tree.current();
                let object_name = format!("o{i}-{k}");
                let object = |v: &Value, rv: Option<&str>| {
                    let mut o = json!({"apiVersion": "cel.kubegen.dev/v1", "kind": kind, "metadata": {"name": object_name, "namespace": ns}, "spec": {format!("e{i}"): v}});
                    if let Some(rv) = rv {
                        o["metadata"]["resourceVersion"] = json!(rv);
                    }
                    o
                };
                // A transition rule: store one drawn value, then update it to another.
                let stored = if transition {
                    let Ok(old_tree) = values.new_tree(&mut runner) else { continue };
                    let old = object(&old_tree.current(), None);
                    match objects.create(&PostParams::default(), &serde_json::from_value(old).expect("object")).await {
                        Ok(o) => Some(o),
                        Err(_) => continue,
                    }
                } else {
                    None
                };
                let sent = object(&value, stored.as_ref().and_then(|o| o.metadata.resource_version.as_deref()));
                let dynamic: DynamicObject = serde_json::from_value(sent.clone()).expect("object");
                let theirs = match &stored {
                    Some(_) => objects.replace(&object_name, &dry_run(), &dynamic).await,
                    None => objects.create(&dry_run(), &dynamic).await,
                };
                let old_json = stored.as_ref().map(|o| serde_json::to_value(o).expect("JSON"));
                let ours = kubegen::validate::validate_value(&crd, &sent, old_json.as_ref());
                decided += 1;
                admitted += usize::from(theirs.is_ok());
                if theirs.is_ok() != ours.is_ok() {
                    wrong.push(format!(
                        "case {i} of seed {seed}: {}\n  object spec: {value}\n  old: {}\n  server: {}\n  Validate: {}",
                        case.describe(),
                        stored.as_ref().map(|o| o.data["spec"].to_string()).unwrap_or_else(|| "-".into()),
                        theirs.as_ref().err().map(message).unwrap_or_else(|| "admitted".into()),
                        ours.err().map(|v| v.to_string()).unwrap_or_else(|| "admitted".into()),
                    ));
                }
                if stored.is_some() {
                    let _ = objects.delete(&object_name, &DeleteParams::default()).await;
                }
                if decided >= objects_wanted {
                    let _ = crds.delete(&name, &DeleteParams::default()).await;
                    break 'chunks;
                }
            }
        }
        let _ = crds.delete(&name, &DeleteParams::default()).await;
    }
    println!(
        "Validate agrees with kube-apiserver {release} on {}/{decided} objects under generated rules ({admitted} admitted by the server; seed {seed})",
        decided - wrong.len().min(decided)
    );
    assert!(wrong.is_empty(), "{} objects decided differently (seed {seed}):\n{}", wrong.len(), wrong.join("\n"));
}
