//! Conversion webhooks on the real API server: a kind in two versions whose conversions
//! are Rust's `From`/`TryFrom` through the hub, served by kubegen's webhook server over a
//! certificate it made itself; the CRD's `spec.conversion` points the API server at it.

use std::time::Duration;

use k8s_openapi::ByteString;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::{
    CustomResourceConversion, CustomResourceDefinition, WebhookClientConfig, WebhookConversion,
};
use kube::api::{Api, DeleteParams, ListParams, PostParams};
use kubegen::CustomResourceExt;
use kubegen::webhook::{Authority, CertStore, Conversion, Webhooks};

use super::cluster::{self, kubectl};

pub mod v1 {
    use kubegen::CustomResource;
    use serde::{Deserialize, Serialize};

    /// The hub: a replica count and a note.
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[kube(group = "convert.kubegen.dev", version = "v1", kind = "Convoy", namespaced)]
    pub struct ConvoySpec {
        pub replicas: i32,
        #[serde(default)]
        pub note: String,
    }
}

pub mod v2 {
    use kubegen::{CustomResource, KubeSchema};
    use serde::{Deserialize, Serialize};

    /// The spoke: the count moved into `size`.
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[kube(group = "convert.kubegen.dev", version = "v2", kind = "Convoy", namespaced)]
    pub struct ConvoySpec {
        pub size: Size,
        #[serde(default)]
        pub note: String,
    }

    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, PartialEq)]
    pub struct Size {
        pub count: i32,
    }
}

impl From<v1::Convoy> for v2::Convoy {
    fn from(hub: v1::Convoy) -> Self {
        let spec = v2::ConvoySpec { size: v2::Size { count: hub.spec.replicas }, note: hub.spec.note };
        v2::Convoy { metadata: hub.metadata, spec }
    }
}

impl TryFrom<v2::Convoy> for v1::Convoy {
    type Error = String;

    fn try_from(spoke: v2::Convoy) -> Result<Self, String> {
        if spoke.spec.size.count < 0 {
            return Err(format!("size.count is {}: a convoy cannot have fewer than 0", spoke.spec.size.count));
        }
        let spec = v1::ConvoySpec { replicas: spoke.spec.size.count, note: spoke.spec.note };
        Ok(v1::Convoy { metadata: spoke.metadata, spec })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a kube-apiserver: scripts/e2e.sh"]
async fn the_api_server_converts_through_kubegens_webhook() {
    let ns = cluster::namespace("e2e-conversion");
    let client = cluster::client().await;
    let ca = Authority::new("kubegen-e2e-conversion", Default::default()).expect("a CA");
    let certs = CertStore::new(&ca.issue(&["127.0.0.1".into()]).expect("a serving certificate")).expect("certs");
    let server = Webhooks::new()
        .convert(Conversion::<v1::Convoy>::hub().spoke::<v2::Convoy>())
        .serve(([127, 0, 0, 1], 0).into(), certs)
        .await
        .expect("the webhook server starts");

    let mut crd = kubegen::merge_crds(vec![v1::Convoy::crd(), v2::Convoy::crd()], "v1").expect("one CRD");
    crd.spec.conversion = Some(CustomResourceConversion {
        strategy: "Webhook".into(),
        webhook: Some(WebhookConversion {
            client_config: Some(WebhookClientConfig {
                url: Some(format!("https://127.0.0.1:{}/convert", server.local_addr().port())),
                ca_bundle: Some(ByteString(ca.ca_pem().as_bytes().to_vec())),
                service: None,
            }),
            conversion_review_versions: vec!["v1".into()],
        }),
    });
    let crds: Api<CustomResourceDefinition> = Api::all(client.clone());
    let name = crd.metadata.name.clone().expect("a name");
    let _ = crds.delete(&name, &DeleteParams::default()).await;
    for _ in 0..50 {
        if crds.create(&PostParams::default(), &crd).await.is_ok() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let established = |c: &CustomResourceDefinition| {
        c.status
            .as_ref()
            .and_then(|s| s.conditions.as_ref())
            .is_some_and(|cs| cs.iter().any(|c| c.type_ == "Established" && c.status == "True"))
    };
    for _ in 0..100 {
        if crds.get(&name).await.is_ok_and(|c| established(&c)) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    let hubs: Api<v1::Convoy> = Api::namespaced(client.clone(), &ns);
    let spokes: Api<v2::Convoy> = Api::namespaced(client.clone(), &ns);
    // Stored in v1, read in v2, field for field.
    let one = v1::Convoy::new("one", v1::ConvoySpec { replicas: 3, note: "hub".into() });
    let created = create_when_served(&hubs, &one).await.expect("a v1 Convoy is created");
    let read = spokes.get("one").await.expect("the v1 Convoy reads as v2");
    assert_eq!(read.spec, v2::ConvoySpec { size: v2::Size { count: 3 }, note: "hub".into() });
    assert_eq!(read.metadata.uid, created.metadata.uid);

    // Created in v2, stored in v1, read back in both.
    let two = v2::Convoy::new("two", v2::ConvoySpec { size: v2::Size { count: 5 }, note: "spoke".into() });
    spokes.create(&PostParams::default(), &two).await.expect("a v2 Convoy is created");
    assert_eq!(hubs.get("two").await.expect("read as v1").spec, v1::ConvoySpec { replicas: 5, note: "spoke".into() });
    assert_eq!(spokes.get("two").await.expect("read as v2").spec.size.count, 5);

    // A list across versions.
    let listed: Vec<i32> =
        spokes.list(&ListParams::default()).await.expect("a v2 list").items.iter().map(|c| c.spec.size.count).collect();
    assert_eq!(listed, [3, 5]);

    // A failing conversion names the object.
    let bad = v2::Convoy::new("negative", v2::ConvoySpec { size: v2::Size { count: -1 }, note: String::new() });
    let err = spokes.create(&PostParams::default(), &bad).await.expect_err("a conversion that fails is refused");
    let text = err.to_string();
    assert!(text.contains("Convoy") && text.contains("negative") && text.contains("size.count is -1"), "{text}");

    // Throughput: a list of 1000 objects read in the hub's version (no conversion) and
    // in the spoke's (each converted by the webhook); printed, `--nocapture` shows it.
    use futures::StreamExt;
    let bulk = Api::<v1::Convoy>::namespaced(client.clone(), &ns);
    futures::stream::iter(0..998)
        .map(|i| {
            let bulk = bulk.clone();
            async move {
                let c = v1::Convoy::new(&format!("bulk-{i}"), v1::ConvoySpec { replicas: i, note: "bulk".into() });
                bulk.create(&PostParams::default(), &c).await.map(|_| ())
            }
        })
        .buffer_unordered(16)
        .collect::<Vec<_>>()
        .await
        .into_iter()
        .collect::<Result<Vec<()>, _>>()
        .expect("998 more Convoys");
    let started = std::time::Instant::now();
    let plain = hubs.list(&ListParams::default()).await.expect("a v1 list").items.len();
    let unconverted = started.elapsed();
    let started = std::time::Instant::now();
    let converted = spokes.list(&ListParams::default()).await.expect("a v2 list").items.len();
    let through = started.elapsed();
    assert_eq!((plain, converted), (1000, 1000));
    println!(
        "a list of 1000 Convoys: {unconverted:.2?} in the storage version, {through:.2?} converted by kubegen's webhook"
    );

    // kubectl reads either version.
    let out = kubectl(
        &["get", "convoys.v2.convert.kubegen.dev", "one", "-n", &ns, "-o", "jsonpath={.spec.size.count}"],
        None,
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "3", "{}", String::from_utf8_lossy(&out.stderr));

    // The storage version changes to v2. Objects stored as v1 before read as they were,
    // in either version; a new one is stored as v2 and reads back in both; lists hold
    // objects stored in either version.
    let mut current = crds.get(&name).await.expect("the CRD");
    for version in &mut current.spec.versions {
        version.storage = version.name == "v2";
    }
    crds.replace(&name, &PostParams::default(), &current).await.expect("v2 becomes the storage version");
    let mut stored = Vec::new();
    for _ in 0..100 {
        stored = crds
            .get(&name)
            .await
            .expect("the CRD")
            .status
            .map(|s| s.stored_versions.unwrap_or_default())
            .unwrap_or_default();
        if stored.iter().any(|v| v == "v2") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(stored, ["v1", "v2"], "the server records both stored versions");
    assert_eq!(
        hubs.get("one").await.expect("an object stored as v1, read as v1").spec,
        v1::ConvoySpec { replicas: 3, note: "hub".into() }
    );
    assert_eq!(spokes.get("one").await.expect("an object stored as v1, read as v2").spec.size.count, 3);
    let three = v1::Convoy::new("three", v1::ConvoySpec { replicas: 7, note: "after".into() });
    create_when_served(&hubs, &three).await.expect("a v1 Convoy is created with v2 as the storage version");
    assert_eq!(
        spokes.get("three").await.expect("read as v2").spec,
        v2::ConvoySpec { size: v2::Size { count: 7 }, note: "after".into() }
    );
    assert_eq!(hubs.get("three").await.expect("read as v1").spec.replicas, 7);
    let (in_v1, in_v2) = (
        hubs.list(&ListParams::default()).await.expect("a v1 list").items.len(),
        spokes.list(&ListParams::default()).await.expect("a v2 list").items.len(),
    );
    assert_eq!((in_v1, in_v2), (1001, 1001));

    let _ = crds.delete(&name, &DeleteParams::default()).await;
    drop(server);
}

/// `object` created once the API server serves the CRD's change (tried for ten seconds);
/// the last error when it never is.
async fn create_when_served(api: &Api<v1::Convoy>, object: &v1::Convoy) -> Result<v1::Convoy, kube::Error> {
    let mut last = None;
    for _ in 0..100 {
        match api.create(&PostParams::default(), object).await {
            Ok(created) => return Ok(created),
            Err(e) => last = Some(e),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Err(last.expect("at least one try"))
}
