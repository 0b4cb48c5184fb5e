//! Generated kinds, built by the real derive, judged by the real API server: kinds drawn
//! by `kubegen_tests::kind_gen` are written into a crate of their own under
//! `target/generated-kinds/<seed>/`, built with cargo (it must compile), and every CRD it
//! prints is created on the server (it must be accepted and become Established). Then an
//! object drawn from each kind's schema is decided by `Validate` and by a server dry run,
//! which must agree. The objects the server admitted are left in `objects.json` beside the
//! crate, as the server returned them: scripts/generated-clients.sh puts the crate's clients
//! through their toolchains and every such object through each client.
//!
//! `KUBEGEN_SEED` repeats a run; `KUBEGEN_KINDS` (default 100) sets its size.

use std::path::{Path, PathBuf};
use std::time::Instant;

use futures::{StreamExt, stream};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, ApiResource, DeleteParams, DynamicObject, GroupVersionKind, PostParams};
use kubegen_tests::{cel_gen, kind_gen};
use proptest::strategy::{Strategy, ValueTree};
use serde_json::{Value, json};

use crate::cluster::{self, dry_run, message};

/// The workspace root (this package's parent).
fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Writes the crate of `kinds` into `dir`: a library of one module per kind, a main that
/// prints every CRD as a JSON array.
fn write_crate(dir: &Path, kinds: &[kind_gen::Kind]) {
    let src = dir.join("src");
    std::fs::create_dir_all(&src).expect("create the crate's directory");
    let root = workspace().canonicalize().expect("the workspace root");
    let manifest = format!(
        r#"[package]
name = "kubegen-generated-kinds"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
kubegen = {{ package = "kubegen-rs", path = "{library}", features = ["cel", "runtime"] }}
k8s-openapi = {{ version = "0.29", features = ["latest"] }}
serde = {{ version = "1", features = ["derive"] }}
serde_json = "1"

[profile.dev]
debug = "line-tables-only"

[profile.dev.package."*"]
debug = false

[workspace]
"#,
        library = root.join("kubegen").display()
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).expect("write Cargo.toml");
    // The workspace's lock: the same versions, so the target directory's builds are reused.
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).expect("copy Cargo.lock");
    // A library of the kinds (what `codegen-cli clients` reads) and a main that prints
    // every CRD as a JSON array.
    let lib: String = (0..kinds.len()).map(|i| format!("pub mod k{i};\n")).collect();
    std::fs::write(src.join("lib.rs"), lib).expect("write lib.rs");
    let mut main = String::from(
        "use kubegen_generated_kinds::*;\n\nfn main() {\n    use kubegen::CustomResourceExt;\n    let crds = vec![\n",
    );
    for i in 0..kinds.len() {
        main.push_str(&format!("        serde_json::to_value(k{i}::Gen{i}::crd()).unwrap(),\n"));
    }
    main.push_str("    ];\n    println!(\"{}\", serde_json::Value::Array(crds));\n}\n");
    std::fs::write(src.join("main.rs"), main).expect("write main.rs");
    for (i, kind) in kinds.iter().enumerate() {
        std::fs::write(src.join(format!("k{i}.rs")), kind_gen::render(kind, i)).expect("write a kind");
    }
}

/// Builds and runs the crate; its CRDs.
fn build_and_run(dir: &Path, seed: u64) -> Vec<CustomResourceDefinition> {
    let out = std::process::Command::new(env!("CARGO"))
        .args(["run", "-q", "-j", "2", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", workspace().join("target"))
        .output()
        .expect("run cargo");
    assert!(
        out.status.success(),
        "the generated kinds of seed {seed} do not build (KUBEGEN_SEED={seed} repeats; the crate is {}):\n{}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("the generated crate prints its CRDs as JSON")
}

/// The schema of `crd`'s first version.
fn schema(crd: &CustomResourceDefinition) -> Value {
    let version = &crd.spec.versions[0];
    let schema = version.schema.as_ref().and_then(|s| s.open_api_v3_schema.as_ref()).expect("a schema");
    serde_json::to_value(schema).expect("schema JSON")
}

#[tokio::test]
#[ignore = "needs a kube-apiserver: scripts/e2e.sh"]
async fn generated_kinds_build_and_are_established() {
    let started = Instant::now();
    let client = cluster::client().await;
    let release = client.apiserver_version().await.expect("server version").git_version;
    let minor = cluster::server_minor();
    let seed = cel_gen::seed();
    let n = cel_gen::count("KUBEGEN_KINDS", 100);
    println!("generated kinds: seed {seed} (KUBEGEN_SEED={seed} repeats this run), {n} kinds");
    let kinds = kind_gen::draw(seed, n);
    let dir = workspace().join("target").join("generated-kinds").join(seed.to_string());
    write_crate(&dir, &kinds);
    let build = Instant::now();
    let crds = build_and_run(&dir, seed);
    let build_time = build.elapsed();
    assert_eq!(crds.len(), n, "one CRD per kind");

    let crds_api: Api<CustomResourceDefinition> = Api::all(client.clone());
    let outcomes: Vec<(usize, Result<(), String>)> = stream::iter(crds.iter().enumerate())
        .map(|(i, crd)| {
            let crds_api = crds_api.clone();
            async move {
                let name = crd.metadata.name.clone().unwrap_or_default();
                let _ = crds_api.delete(&name, &DeleteParams::default()).await;
                crate::cel_corpus::wait_gone(&crds_api, &name).await;
                match crds_api.create(&PostParams::default(), crd).await {
                    Ok(_) => {
                        crate::cel_corpus::wait_established(&crds_api, &name).await;
                        (i, Ok(()))
                    }
                    Err(e) => (i, Err(message(&e))),
                }
            }
        })
        .buffer_unordered(8)
        .collect()
        .await;
    let mut refused: Vec<String> = outcomes
        .iter()
        .filter_map(|(i, o)| {
            // What `codegen-cli manifests` says of the same CRD: a refusal it shares is
            // the generator's fault (a kind no user could ship); one it misses is kubegen's.
            let node = kubegen_core::schema::node::Node::from_value(&schema(&crds[*i])).unwrap_or_default();
            let ours = kubegen_cel::schema::check_for(&node, minor).refusals;
            let manifests = if ours.is_empty() {
                "manifests writes it".to_string()
            } else {
                format!("manifests refuses it too: {}", ours[0].problem.message)
            };
            o.as_ref().err().map(|e| format!("k{i}.rs (Gen{i}): {e}\n  {manifests}"))
        })
        .collect();
    refused.sort();
    let established = n - refused.len();

    // One object per established kind: Validate and a server dry run decide it alike.
    let mut runner = cel_gen::runner(seed ^ 0x6b69_6e64);
    let (mut decided, mut admitted) = (0usize, 0usize);
    let mut wrong = Vec::new();
    // What the server admitted, as it returned it: every client must keep all of it
    // (scripts/generated-clients.sh reads the file).
    let mut kept = Vec::new();
    for (i, crd) in crds.iter().enumerate() {
        if outcomes.iter().any(|(j, o)| *j == i && o.is_err()) {
            continue;
        }
        let node = kubegen_core::schema::node::Node::from_value(&schema(crd)).unwrap_or_default();
        let Ok(tree) = kubegen::webhook::arbitrary::object_fields(&node).new_tree(&mut runner) else { continue };
        let names = &crd.spec.names;
        let mut object = json!({
            "apiVersion": format!("{}/v1", crd.spec.group),
            "kind": names.kind,
            "metadata": {"name": "drawn", "namespace": "default"},
        });
        for (k, v) in tree.current() {
            object[k] = v;
        }
        let gvk = GroupVersionKind::gvk(&crd.spec.group, "v1", &names.kind);
        let resource = ApiResource::from_gvk_with_plural(&gvk, &names.plural);
        let objects: Api<DynamicObject> = Api::namespaced_with(client.clone(), "default", &resource);
        let dynamic: DynamicObject = serde_json::from_value(object.clone()).expect("an object");
        let theirs = objects.create(&dry_run(), &dynamic).await;
        let ours = kubegen::validate::validate_value(crd, &object, None);
        decided += 1;
        admitted += usize::from(theirs.is_ok());
        if let Ok(back) = &theirs {
            let mut back = serde_json::to_value(back).expect("JSON");
            back["metadata"] = json!({"name": "drawn", "namespace": "default"});
            kept.push(json!({"module": format!("k{i}"), "kind": names.kind, "object": back}));
        }
        if theirs.is_ok() != ours.is_ok() {
            wrong.push(format!(
                "k{i}.rs (Gen{i}) of seed {seed}: {object}\n  server: {}\n  Validate: {}",
                theirs.as_ref().err().map(message).unwrap_or_else(|| "admitted".into()),
                ours.err().map(|v| v.to_string()).unwrap_or_else(|| "admitted".into()),
            ));
        }
    }

    std::fs::write(dir.join("objects.json"), serde_json::to_string_pretty(&kept).expect("JSON"))
        .expect("write objects.json");

    let names: Vec<String> = crds.iter().filter_map(|c| c.metadata.name.clone()).collect();
    stream::iter(names)
        .for_each_concurrent(8, |name| {
            let crds_api = crds_api.clone();
            async move {
                let _ = crds_api.delete(&name, &DeleteParams::default()).await;
            }
        })
        .await;

    println!(
        "generated kinds on kube-apiserver {release} (seed {seed}): {n} kinds, built in {:.1}s, {established}/{n} established, \
         {}/{decided} objects agree ({admitted} admitted by the server), {:.1}s in all",
        build_time.as_secs_f64(),
        decided - wrong.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(
        refused.is_empty(),
        "kube-apiserver {release} refuses {} generated CRDs (seed {seed}, the crate is {}):\n{}",
        refused.len(),
        dir.display(),
        refused.join("\n")
    );
    assert!(wrong.is_empty(), "{} objects decided differently (seed {seed}):\n{}", wrong.len(), wrong.join("\n"));
}
