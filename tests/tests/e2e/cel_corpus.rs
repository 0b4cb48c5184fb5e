//! The CEL corpus on the live API server: every rule's CRD is sent (dry run) and the
//! server's verdict compared with kubegen's checker and with the corpus's record for this
//! release; then every accepted rule's valid and invalid objects are sent, and
//! `Validate` must decide each as the server did.

use futures::{StreamExt, stream};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, ApiResource, DeleteParams, DynamicObject, GroupVersionKind, PostParams};
use kubegen_tests::cel_corpus::{self, Entry, Verdict};
use serde_json::{Value, json};

use crate::cluster::{self, dry_run, message};

/// Accepted rules installed per CRD for the object phase, as long as their estimated
/// costs together stay well inside the CRD's budget.
const PER_CRD: usize = 20;
const COST_PER_CRD: u64 = kubegen_cel::cost::PER_CRD_LIMIT / 2;

#[tokio::test]
#[ignore = "needs a kube-apiserver: scripts/e2e.sh"]
async fn cel_corpus_kubegen_and_validate_agree_with_the_server() {
    let client = cluster::client().await;
    let release = client.apiserver_version().await.expect("server version").git_version;
    let corpus = cel_corpus::load();
    let crds: Api<CustomResourceDefinition> = Api::all(client.clone());

    // Rules: the server's verdict on each entry's CRD.
    let verdicts: Vec<(usize, Result<(), String>)> = stream::iter(corpus.iter().enumerate())
        .map(|(i, e)| {
            let crds = crds.clone();
            async move {
                let crd =
                    cel_corpus::crd(&format!("Rule{i}"), cel_corpus::root_schema(json!({"spec": e.node_schema()})));
                let crd: CustomResourceDefinition = serde_json::from_value(crd).expect("a CRD");
                (i, crds.create(&dry_run(), &crd).await.map(|_| ()).map_err(|e| message(&e)))
            }
        })
        .buffer_unordered(16)
        .collect()
        .await;
    let mut verdicts = verdicts;
    verdicts.sort_by_key(|(i, _)| *i);
    let mut disagreements = Vec::new();
    for (i, server) in &verdicts {
        let e = &corpus[*i];
        let ours = e.kubegen(&release);
        match (server, &ours) {
            (Ok(()), Err(why)) => {
                disagreements.push(format!("{}: the server accepts `{}`; kubegen refuses: {why}", e.name, e.rule))
            }
            (Err(why), Ok(())) => {
                disagreements.push(format!("{}: the server refuses `{}` ({why}); kubegen accepts", e.name, e.rule))
            }
            _ => {}
        }
        let recorded = e.expected(&release);
        let live = if server.is_ok() { Verdict::Accept } else { Verdict::Refuse };
        if recorded != live {
            disagreements
                .push(format!("{}: the corpus records {recorded:?} for {release}, the server says {server:?}", e.name));
        }
        if let (Err(why), Some(piece)) = (server, &e.refusal)
            && !why.contains(piece.as_str())
        {
            disagreements.push(format!("{}: the server's message no longer says `{piece}`: {why}", e.name));
        }
    }
    println!(
        "kubegen agrees with kube-apiserver {release} on {}/{} rules",
        corpus.len() - disagreements.len().min(corpus.len()),
        corpus.len()
    );
    assert!(disagreements.is_empty(), "{} disagreements:\n{}", disagreements.len(), disagreements.join("\n"));

    // Objects: the accepted rules, a CRD per twenty.
    let accepted: Vec<(usize, &Entry)> = verdicts
        .iter()
        .filter(|(_, v)| v.is_ok())
        .map(|(i, _)| (*i, &corpus[*i]))
        .filter(|(_, e)| e.valid.is_some())
        .collect();
    let ns = cluster::namespace("e2e-cel-corpus");
    let mut decided = 0;
    let mut wrong = Vec::new();
    let mut chunks: Vec<Vec<(usize, &Entry)>> = Vec::new();
    let mut chunk_cost = 0u64;
    for (i, e) in accepted {
        let schema = cel_corpus::typed(&cel_corpus::root_schema(json!({"spec": e.node_schema()})));
        let cost = kubegen_cel::schema::check(&schema).total_cost;
        match chunks.last_mut() {
            Some(c) if c.len() < PER_CRD && chunk_cost.saturating_add(cost) <= COST_PER_CRD => {
                c.push((i, e));
                chunk_cost = chunk_cost.saturating_add(cost);
            }
            _ => {
                chunks.push(vec![(i, e)]);
                chunk_cost = cost;
            }
        }
    }
    for (chunk_no, chunk) in chunks.iter().enumerate() {
        let kind = format!("Corpus{chunk_no}");
        let props: serde_json::Map<String, Value> =
            chunk.iter().map(|(i, e)| (format!("e{i}"), e.node_schema())).collect();
        let crd_json =
            cel_corpus::crd(&kind, cel_corpus::root_schema(json!({"spec": {"type": "object", "properties": props}})));
        let crd: CustomResourceDefinition = serde_json::from_value(crd_json).expect("a CRD");
        let name = crd.metadata.name.clone().unwrap_or_default();
        let _ = crds.delete(&name, &DeleteParams::default()).await;
        wait_gone(&crds, &name).await;
        crds.create(&PostParams::default(), &crd).await.unwrap_or_else(|e| panic!("install {name}: {}", message(&e)));
        wait_established(&crds, &name).await;
        let gvk = GroupVersionKind::gvk("cel.kubegen.dev", "v1", &kind);
        let resource = ApiResource::from_gvk_with_plural(&gvk, &format!("{}s", kind.to_lowercase()));
        let objects: Api<DynamicObject> = Api::namespaced_with(client.clone(), &ns, &resource);
        for (i, e) in chunk {
            let field = format!("e{i}");
            let object = |name: &str, value: &Value| json!({"apiVersion": "cel.kubegen.dev/v1", "kind": kind, "metadata": {"name": name, "namespace": ns}, "spec": {field.clone(): value}});
            let old = match &e.old {
                Some(old) => {
                    let stored =
                        serde_json::from_value::<DynamicObject>(object(&format!("t{i}"), old)).expect("object");
                    match objects.create(&PostParams::default(), &stored).await {
                        Ok(o) => Some(o),
                        Err(err) => {
                            wrong.push(format!("{}: the old object is refused: {}", e.name, message(&err)));
                            continue;
                        }
                    }
                }
                None => None,
            };
            for (value, admitted) in [(e.valid.as_ref(), true), (e.invalid.as_ref(), false)] {
                let Some(value) = value else { continue };
                let name = if old.is_some() { format!("t{i}") } else { format!("c{i}") };
                let mut new = serde_json::from_value::<DynamicObject>(object(&name, value)).expect("object");
                let server = match &old {
                    Some(stored) => {
                        new.metadata.resource_version = stored.metadata.resource_version.clone();
                        objects.replace(&name, &dry_run(), &new).await
                    }
                    None => objects.create(&dry_run(), &new).await,
                };
                decided += 1;
                let server_admits = server.is_ok();
                if server_admits != admitted {
                    let why = server.as_ref().err().map(message).unwrap_or_default();
                    wrong.push(format!(
                        "{}: the corpus says {value} is {}admitted, the server {}: {why}",
                        e.name,
                        if admitted { "" } else { "not " },
                        if server_admits { "admits it" } else { "refuses it" }
                    ));
                }
                let old_json = old.as_ref().map(|o| serde_json::to_value(o).expect("JSON"));
                let ours = kubegen::validate::validate_value(&crd, &object(&name, value), old_json.as_ref());
                if ours.is_ok() != server_admits {
                    let server_said = server.as_ref().err().map(message).unwrap_or_else(|| "admitted".into());
                    let we_said = ours.err().map(|v| v.to_string()).unwrap_or_else(|| "admitted".into());
                    wrong.push(format!(
                        "{}: Validate and the server differ on {value}: Validate: {we_said}; server: {server_said}",
                        e.name
                    ));
                }
            }
        }
        let _ = crds.delete(&name, &DeleteParams::default()).await;
    }
    println!(
        "Validate agrees with kube-apiserver {release} on {}/{decided} objects",
        decided - wrong.len().min(decided)
    );
    assert!(wrong.is_empty(), "{} objects decided differently:\n{}", wrong.len(), wrong.join("\n"));
}

pub async fn wait_established(crds: &Api<CustomResourceDefinition>, name: &str) {
    for _ in 0..100 {
        if let Ok(crd) = crds.get(name).await
            && crd
                .status
                .iter()
                .flat_map(|s| s.conditions.iter().flatten())
                .any(|c| c.type_ == "Established" && c.status == "True")
        {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("{name} is not Established after 10s");
}

pub async fn wait_gone(crds: &Api<CustomResourceDefinition>, name: &str) {
    for _ in 0..300 {
        if crds.get_opt(name).await.ok().flatten().is_none() {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}
