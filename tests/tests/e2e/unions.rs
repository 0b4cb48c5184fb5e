//! Unions whose variants are named types (untagged, internally, adjacently and externally
//! tagged newtype variants), on the real API server: every variant's value is stored and
//! read back as sent, nothing pruned, and a value no variant describes is refused where
//! the schema can tell.

use std::collections::BTreeMap;

use kube::api::{Api, DeleteParams, PostParams};
use kubegen::{CustomResource, CustomResourceExt, KubeSchema};
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::cluster;

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct GitSource {
    /// Where.
    /// +kubebuilder:validation:MinLength=1
    pub url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
}

#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct HttpSource {
    pub url: String,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub headers: BTreeMap<String, String>,
}

/// Untagged newtypes.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(untagged)]
pub enum Source {
    Git(GitSource),
    Http(HttpSource),
}

/// Internally tagged newtypes.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(tag = "kind")]
pub enum Backend {
    Git(GitSource),
    Http(HttpSource),
}

/// Adjacently tagged newtypes.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(tag = "t", content = "c")]
pub enum Adjacent {
    Git(GitSource),
    Http(HttpSource),
}

/// Externally tagged newtypes.
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
pub enum External {
    Git(GitSource),
    Http(HttpSource),
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube(group = "unions.kubegen.dev", version = "v1", kind = "Junction", namespaced)]
pub struct JunctionSpec {
    pub source: Source,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maybe: Option<Source>,
    pub backend: Backend,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub backends: Vec<Backend>,
    pub adjacent: Adjacent,
    pub external: External,
}

fn git() -> GitSource {
    GitSource { url: "https://git.example/repo".into(), branch: Some("main".into()) }
}

fn http() -> HttpSource {
    HttpSource { url: "https://files.example/a".into(), headers: [("x-token".to_string(), "t".to_string())].into() }
}

#[test]
fn the_variants_fields_are_declared_and_kept_in_the_client_model() {
    let crd = serde_json::to_value(Junction::crd()).expect("json");
    let spec = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"];
    let fields = |name: &str| -> Vec<String> {
        spec[name]["properties"].as_object().map(|p| p.keys().cloned().collect()).unwrap_or_default()
    };
    assert_eq!(fields("source"), ["branch", "headers", "url"]);
    assert_eq!(fields("backend"), ["branch", "headers", "kind", "url"]);
    assert_eq!(fields("adjacent"), ["c", "t"]);
    assert_eq!(
        spec["adjacent"]["properties"]["c"]["properties"].as_object().map(|p| p.len()),
        Some(3),
        "the content of either variant"
    );
    assert_eq!(fields("external"), ["Git", "Http"]);
    // The client model keeps the named types where no union needs to see inside them.
    let (_, types) = <Junction as kubegen::CrdWithOptions>::crd_and_types(&Default::default());
    let model = types.data.expect("a model");
    let external = serde_json::to_value(&model.types["External"]).expect("json");
    assert_eq!(external["properties"]["Git"]["x-kubegen-ref"], json!("GitSource"), "{external}");
}

#[tokio::test]
#[ignore = "needs a kube-apiserver: scripts/e2e.sh"]
async fn every_variant_is_stored_and_read_back_as_sent() {
    let ns = cluster::namespace("e2e-unions");
    let client = cluster::client().await;
    let crds: Api<k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition> =
        Api::all(client.clone());
    let crd = Junction::crd();
    let name = crd.metadata.name.clone().expect("a name");
    let _ = crds.delete(&name, &DeleteParams::default()).await;
    let api: Api<Junction> = Api::namespaced(client.clone(), &ns);
    let variants = [
        JunctionSpec {
            source: Source::Git(git()),
            maybe: Some(Source::Http(http())),
            backend: Backend::Git(git()),
            backends: vec![Backend::Http(http()), Backend::Git(git())],
            adjacent: Adjacent::Git(git()),
            external: External::Http(http()),
        },
        JunctionSpec {
            source: Source::Http(http()),
            maybe: None,
            backend: Backend::Http(http()),
            backends: Vec::new(),
            adjacent: Adjacent::Http(http()),
            external: External::Git(git()),
        },
    ];
    let mut installed = false;
    for _ in 0..100 {
        if !installed {
            installed = crds.create(&PostParams::default(), &crd).await.is_ok();
        }
        if installed && api.list(&Default::default()).await.is_ok() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    // Compared as JSON: an untagged enum reads back as the first variant that fits
    // (serde's rule), which says nothing about what the server kept.
    let dynamic: Api<kube::api::DynamicObject> =
        Api::namespaced_with(client.clone(), &ns, &kube::api::ApiResource::erase::<Junction>(&()));
    for (i, spec) in variants.into_iter().enumerate() {
        let sent = serde_json::to_value(Junction::new(&format!("junction-{i}"), spec)).expect("json");
        let object: kube::api::DynamicObject = serde_json::from_value(sent.clone()).expect("an object");
        let created = dynamic.create(&PostParams::default(), &object).await.expect("the server takes every variant");
        assert_eq!(created.data["spec"], sent["spec"], "the server kept every variant's fields");
        let read = dynamic.get(&format!("junction-{i}")).await.expect("read back");
        assert_eq!(read.data["spec"], sent["spec"]);
    }
    // A value the schema can tell no variant holds is refused: an internally tagged
    // variant with an unknown tag, and a Git source whose url is empty.
    let refused = serde_json::from_value::<serde_json::Value>(json!({
        "apiVersion": "unions.kubegen.dev/v1", "kind": "Junction", "metadata": {"name": "bad"},
        "spec": {"source": {"url": "u"}, "backend": {"kind": "Ftp", "url": "u"},
                 "adjacent": {"t": "Git", "c": {"url": "u"}}, "external": {"Git": {"url": "u"}}}
    }))
    .expect("json");
    let err = cluster::kubectl_err(&["apply", "-n", &ns, "-f", "-"], Some(&refused.to_string()));
    assert!(err.contains("spec.backend.kind") && err.contains("Ftp"), "{err}");
    let _ = crds.delete(&name, &DeleteParams::default()).await;
}
