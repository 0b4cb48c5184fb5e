//! The webhook's answers to AdmissionReview bodies, in-process (the API server's calls
//! are the e2e tier's `webhook.rs`): the ready-made schema validator, a defaulter's
//! patch that leaves fields the Rust type does not know alone, malformed bodies and a
//! panicking validator.

use foo_controller::Foo;
use kubegen::webhook::{
    Defaulter, Denial, Request, SchemaValidator, Validator, Verdict, Webhooks, mutate_path, validate_path,
};
use serde_json::{Value, json};

fn review(operation: &str, object: Value, old: Option<Value>) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "apiVersion": "admission.k8s.io/v1",
        "kind": "AdmissionReview",
        "request": {
            "uid": "7a3c", "operation": operation,
            "kind": {"group": "samplecontroller.k8s.io", "version": "v1alpha1", "kind": "Foo"},
            "resource": {"group": "samplecontroller.k8s.io", "version": "v1alpha1", "resource": "foos"},
            "name": "a", "namespace": "ns",
            "userInfo": {"username": "alice", "groups": ["devs"]},
            "object": object, "oldObject": old, "dryRun": false
        }
    }))
    .expect("a review")
}

fn foo(spec: Value) -> Value {
    json!({"apiVersion": "samplecontroller.k8s.io/v1alpha1", "kind": "Foo", "metadata": {"name": "a", "namespace": "ns"}, "spec": spec})
}

async fn answer(webhooks: &Webhooks, path: &str, body: &[u8]) -> Value {
    let out = webhooks.review(path, body).await.expect("a webhook at the path");
    let out: Value = serde_json::from_slice(&out).expect("a JSON answer");
    assert_eq!(out["apiVersion"], "admission.k8s.io/v1", "{out}");
    out["response"].clone()
}

#[tokio::test]
async fn the_schema_validator_denies_what_the_crd_refuses_with_the_field() {
    let webhooks = Webhooks::new().validate::<Foo>(SchemaValidator);
    let ok = answer(
        &webhooks,
        &validate_path::<Foo>(),
        &review("CREATE", foo(json!({"deploymentName": "web", "replicas": 3})), None),
    )
    .await;
    assert_eq!(ok["allowed"], true, "{ok}");
    assert_eq!(ok["uid"], "7a3c");
    let denied = answer(
        &webhooks,
        &validate_path::<Foo>(),
        &review("CREATE", foo(json!({"deploymentName": "web", "replicas": 11})), None),
    )
    .await;
    assert_eq!(denied["allowed"], false, "{denied}");
    assert_eq!(denied["status"]["code"], 422, "{denied}");
    assert_eq!(denied["status"]["details"]["causes"][0]["field"], "spec.replicas", "{denied}");
    assert!(denied["status"]["message"].as_str().unwrap_or_default().contains("spec.replicas"), "{denied}");
    // Issue 29: the details name the object, as controller-runtime's do, so kubectl prints
    // `The Foo "a" is invalid` rather than `The request is invalid`.
    let details = &denied["status"]["details"];
    assert_eq!(
        (&details["group"], &details["kind"], &details["name"]),
        (&json!("samplecontroller.k8s.io"), &json!("Foo"), &json!("a")),
        "{denied}"
    );
    assert!(
        denied["status"]["message"]
            .as_str()
            .unwrap_or_default()
            .starts_with("Foo.samplecontroller.k8s.io \"a\" is invalid: spec.replicas"),
        "{denied}"
    );
}

struct Named;

impl Defaulter<Foo> for Named {
    async fn default(&self, foo: &mut Foo, request: &Request) -> Result<(), Denial> {
        if foo.spec.replicas.is_none() {
            foo.spec.replicas = Some(2);
        }
        foo.metadata
            .labels
            .get_or_insert_default()
            .insert("created-by".into(), request.user_info.username.clone().unwrap_or_default());
        Ok(())
    }
}

#[tokio::test]
async fn a_defaulter_patches_only_what_it_changed() {
    let webhooks = Webhooks::new().default::<Foo>(Named);
    // `extra` is a field Foo does not know (a newer CRD version's, say): the patch must
    // leave it, not remove it.
    let sent = foo(json!({"deploymentName": "web", "extra": {"keep": [1, 2]}}));
    let out = answer(&webhooks, &mutate_path::<Foo>(), &review("CREATE", sent.clone(), None)).await;
    assert_eq!(out["allowed"], true, "{out}");
    assert_eq!(out["patchType"], "JSONPatch", "{out}");
    // Go's []byte: kube-core writes it as an array of bytes, which the API server's
    // decoder reads as well as base64.
    let patch: Vec<u8> = match &out["patch"] {
        Value::String(_) => serde_json::from_value::<k8s_openapi::ByteString>(out["patch"].clone()).map(|b| b.0),
        other => serde_json::from_value(other.clone()),
    }
    .expect("the patch's bytes");
    let patch: json_patch::Patch = serde_json::from_slice(&patch).expect("a JSONPatch");
    let mut patched = sent.clone();
    json_patch::patch(&mut patched, &patch).expect("the patch applies to the object as sent");
    assert_eq!(patched["spec"]["replicas"], 2);
    assert_eq!(patched["spec"]["extra"], json!({"keep": [1, 2]}));
    assert_eq!(patched["metadata"]["labels"]["created-by"], "alice");

    // Nothing to change: no patch at all.
    let done = foo(json!({"deploymentName": "web", "replicas": 4}));
    let mut done = done;
    done["metadata"]["labels"] = json!({"created-by": "alice"});
    let out = answer(&webhooks, &mutate_path::<Foo>(), &review("CREATE", done, None)).await;
    assert!(out.get("patch").is_none(), "{out}");

    // An object Foo cannot read (its required deploymentName missing) is admitted as it
    // is: mutating admission runs before the API server's schema check, which then
    // refuses it with its own `spec.deploymentName: Required value`.
    let out = answer(&webhooks, &mutate_path::<Foo>(), &review("CREATE", foo(json!({"replicas": 2})), None)).await;
    assert_eq!(out["allowed"], true, "{out}");
    assert!(out.get("patch").is_none(), "{out}");
}

struct Panics;

impl Validator<Foo> for Panics {
    async fn validate_create(&self, _: &Foo, _: &Request) -> Verdict {
        panic!("the validator broke")
    }
}

#[tokio::test]
async fn malformed_bodies_and_panics_are_answered() {
    let webhooks = Webhooks::new().validate::<Foo>(Panics);
    let path = validate_path::<Foo>();
    let out = answer(&webhooks, &path, &review("CREATE", foo(json!({"deploymentName": "web"})), None)).await;
    assert_eq!(out["allowed"], false);
    assert!(out["status"]["message"].as_str().unwrap_or_default().contains("the validator broke"), "{out}");
    assert_eq!(out["uid"], "7a3c");

    for body in [&b"{"[..], br#"{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {}}"#] {
        let out = answer(&webhooks, &path, body).await;
        assert_eq!(out["allowed"], false, "{out}");
        assert_eq!(out["status"]["reason"], "InvalidRequest", "{out}");
    }
    // An object that is no Foo.
    let out = answer(&webhooks, &path, &review("CREATE", json!({"spec": "not an object"}), None)).await;
    assert_eq!(out["allowed"], false, "{out}");
    assert_eq!(out["status"]["code"], 400, "{out}");
    assert!(webhooks.review("/nowhere", b"{}").await.is_none());
}

#[tokio::test]
async fn a_conversion_review_is_answered_and_a_failure_names_the_object() {
    use kubegen::webhook::Conversion;
    let webhooks = Webhooks::new().convert(Conversion::<Foo>::hub());
    let review = |desired: &str| {
        serde_json::to_vec(&json!({
            "apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
            "request": {"uid": "c0n", "desiredAPIVersion": desired, "objects": [foo(json!({"deploymentName": "web"}))]}
        }))
        .expect("a review")
    };
    let answer = |body: Vec<u8>| {
        let webhooks = webhooks.clone();
        async move {
            let out = webhooks.review("/convert", &body).await.expect("a webhook at /convert");
            let out: Value = serde_json::from_slice(&out).expect("a JSON answer");
            assert_eq!(out["apiVersion"], "apiextensions.k8s.io/v1", "{out}");
            out["response"].clone()
        }
    };
    // To its own version: unchanged.
    let same = answer(review("samplecontroller.k8s.io/v1alpha1")).await;
    assert_eq!(same["result"]["status"], "Success", "{same}");
    assert_eq!(same["uid"], "c0n");
    assert_eq!(same["convertedObjects"][0]["spec"]["deploymentName"], "web");
    // To a version nobody converts to: a failure naming the object and the versions.
    let failed = answer(review("samplecontroller.k8s.io/v9")).await;
    assert_eq!(failed["result"]["status"], "Failure", "{failed}");
    let message = failed["result"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("Foo ns/a") && message.contains("samplecontroller.k8s.io/v9 is not a version"),
        "{message}"
    );
    // Bodies that are no ConversionReview v1.
    for body in [
        &b"["[..],
        br#"{"apiVersion": "apiextensions.k8s.io/v1beta1", "kind": "ConversionReview"}"#,
        br#"{"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview"}"#,
    ] {
        let out = answer(body.to_vec()).await;
        assert_eq!(out["result"]["status"], "Failure", "{out}");
        assert_eq!(out["result"]["code"], 400, "{out}");
    }
}

/// The server itself, over TLS: a body over the limit, a GET and an unknown path are
/// answered with what went wrong, and the server keeps serving.
#[tokio::test]
async fn the_server_answers_what_it_cannot_take() {
    use std::sync::Arc;

    use http_body_util::{BodyExt, Full};
    use hyper::body::Bytes;
    use hyper_util::rt::TokioIo;
    use kubegen::webhook::{Authority, BODY_LIMIT, CertStore};
    use tokio_rustls::rustls;
    use tokio_rustls::rustls::pki_types::pem::PemObject;
    use tokio_rustls::rustls::pki_types::{CertificateDer, ServerName};

    let ca = Authority::new("kubegen-test-webhook", Default::default()).expect("a CA");
    let certs = CertStore::new(&ca.issue(&["127.0.0.1".into()]).expect("a certificate")).expect("certs");
    let server = Webhooks::new()
        .validate::<Foo>(SchemaValidator)
        .serve(([127, 0, 0, 1], 0).into(), certs)
        .await
        .expect("the server starts");
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(ca.ca_pem().as_bytes()) {
        roots.add(cert.expect("PEM")).expect("a root");
    }
    let config = Arc::new(
        rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
            .with_safe_default_protocol_versions()
            .expect("TLS versions")
            .with_root_certificates(roots)
            .with_no_client_auth(),
    );
    let send = |method: &'static str, path: String, body: Vec<u8>| {
        let config = config.clone();
        let addr = server.local_addr();
        async move {
            let tcp = tokio::net::TcpStream::connect(addr).await.expect("connect");
            let name = ServerName::IpAddress(std::net::Ipv4Addr::LOCALHOST.into());
            let tls = tokio_rustls::TlsConnector::from(config).connect(name, tcp).await.expect("TLS");
            let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(tls)).await.expect("HTTP/1.1");
            tokio::spawn(conn);
            let request = hyper::Request::builder()
                .method(method)
                .uri(path)
                .header("host", "127.0.0.1")
                .header("content-type", "application/json")
                .body(Full::new(Bytes::from(body)))
                .expect("a request");
            let response = sender.send_request(request).await.expect("a response");
            let status = response.status().as_u16();
            let body = response.into_body().collect().await.expect("a body").to_bytes();
            (status, String::from_utf8_lossy(&body).into_owned())
        }
    };
    let path = validate_path::<Foo>();
    let (status, body) = send("POST", path.clone(), vec![b' '; BODY_LIMIT + 1]).await;
    assert_eq!(status, 413, "{body}");
    assert!(body.contains("larger than"), "{body}");
    let (status, _) = send("GET", path.clone(), Vec::new()).await;
    assert_eq!(status, 405);
    let (status, body) = send("POST", "/nowhere".into(), b"{}".to_vec()).await;
    assert_eq!(status, 404);
    assert!(body.contains(&path), "the answer names the paths served: {body}");
    // Still serving.
    let (status, body) = send("POST", path, review("CREATE", foo(json!({"deploymentName": "web"})), None)).await;
    assert_eq!(status, 200);
    assert!(body.contains("\"allowed\":true"), "{body}");
}
