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

/// A TLS client of a webhook server the test started, one connection per request.
#[derive(Clone)]
struct Https {
    config: std::sync::Arc<tokio_rustls::rustls::ClientConfig>,
    addr: std::net::SocketAddr,
}

impl Https {
    async fn serve(webhooks: Webhooks) -> (Https, kubegen::webhook::WebhookServer) {
        use kubegen::webhook::{Authority, CertStore};
        use std::sync::Arc;
        use tokio_rustls::rustls;
        use tokio_rustls::rustls::pki_types::CertificateDer;
        use tokio_rustls::rustls::pki_types::pem::PemObject;

        let ca = Authority::new("kubegen-test-webhook", Default::default()).expect("a CA");
        let certs = CertStore::new(&ca.issue(&["127.0.0.1".into()]).expect("a certificate")).expect("certs");
        let server = webhooks.serve(([127, 0, 0, 1], 0).into(), certs).await.expect("the server starts");
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
        (Https { config, addr: server.local_addr() }, server)
    }

    /// A TLS connection to the server, HTTP/1.1 spoken over it with a body of type `B`.
    async fn connect<B>(&self) -> hyper::client::conn::http1::SendRequest<B>
    where
        B: hyper::body::Body + Send + 'static,
        B::Data: Send,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        use hyper_util::rt::TokioIo;
        use tokio_rustls::rustls::pki_types::ServerName;

        let tcp = tokio::net::TcpStream::connect(self.addr).await.expect("connect");
        let name = ServerName::IpAddress(std::net::Ipv4Addr::LOCALHOST.into());
        let tls = tokio_rustls::TlsConnector::from(self.config.clone()).connect(name, tcp).await.expect("TLS");
        let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(tls)).await.expect("HTTP/1.1");
        tokio::spawn(conn);
        sender
    }

    /// Status and body of one request (within a minute).
    async fn send(&self, method: &str, path: &str, body: hyper::body::Bytes) -> (u16, String) {
        let answered = tokio::time::timeout(std::time::Duration::from_secs(60), self.send_now(method, path, body));
        answered.await.unwrap_or_else(|_| panic!("{method} {path}: no answer within 60 s"))
    }

    async fn send_now(&self, method: &str, path: &str, body: hyper::body::Bytes) -> (u16, String) {
        use http_body_util::{BodyExt, Full};

        let mut sender = self.connect::<Full<hyper::body::Bytes>>().await;
        let request = hyper::Request::builder()
            .method(method)
            .uri(path)
            .header("host", "127.0.0.1")
            .header("content-type", "application/json")
            .body(Full::new(body))
            .expect("a request");
        let response = sender.send_request(request).await.expect("a response");
        let status = response.status().as_u16();
        let body = response.into_body().collect().await.expect("a body").to_bytes();
        (status, String::from_utf8_lossy(&body).into_owned())
    }
}

/// The server itself, over TLS: a body over the limit, a GET and an unknown path are
/// answered with what went wrong, and the server keeps serving.
#[tokio::test]
async fn the_server_answers_what_it_cannot_take() {
    use kubegen::webhook::BODY_LIMIT;

    let (https, _server) = Https::serve(Webhooks::new().validate::<Foo>(SchemaValidator)).await;
    let path = validate_path::<Foo>();
    let (status, body) = https.send("POST", &path, vec![b' '; BODY_LIMIT + 1].into()).await;
    assert_eq!(status, 413, "{body}");
    assert!(body.contains("larger than"), "{body}");
    let (status, _) = https.send("GET", &path, Default::default()).await;
    assert_eq!(status, 405);
    let (status, body) = https.send("POST", "/nowhere", "{}".into()).await;
    assert_eq!(status, 404);
    assert!(body.contains(&path), "the answer names the paths served: {body}");
    // Still serving.
    let (status, body) =
        https.send("POST", &path, review("CREATE", foo(json!({"deploymentName": "web"})), None).into()).await;
    assert_eq!(status, 200);
    assert!(body.contains("\"allowed\":true"), "{body}");
}

/// Allows every Foo, after 500 ms.
struct Slow;

impl Validator<Foo> for Slow {
    async fn validate_create(&self, _: &Foo, _: &Request) -> Verdict {
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        Ok(Vec::new())
    }
}

/// This process's peak resident memory since the last reset, in bytes (Linux).
fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kib = status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?.trim().trim_end_matches(" kB").trim();
    Some(kib.parse::<u64>().ok()? * 1024)
}

/// A thousand requests at once on a thousand connections — admission (validating and
/// defaulting) and conversion reviews among malformed, empty, oversized and 4 MiB junk
/// bodies: each answered (a review, or a refusal saying what was wrong), the server
/// still serving afterwards, and the memory the bodies take bounded by
/// `BODIES_IN_FLIGHT` (the 4 MiB reviews a slow validator holds would take over a
/// gigabyte without it).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_thousand_reviews_at_once_and_bad_bodies_are_all_answered_in_bounded_memory() {
    use hyper::body::Bytes;
    use kubegen::webhook::{BODIES_IN_FLIGHT, BODY_LIMIT};

    // Two descriptors a request (the client's and the server's end) in this one process:
    // fewer requests where the limit is low (a common default soft limit is 1,024).
    let limit = std::fs::read_to_string("/proc/self/limits")
        .ok()
        .and_then(|l| l.lines().find(|l| l.starts_with("Max open files"))?.split_whitespace().nth(3)?.parse().ok())
        .unwrap_or(1024usize);
    let requests = 1000.min(limit.saturating_sub(300) / 2);
    if requests < 1000 {
        eprintln!("{requests} requests, not 1,000: this process may open {limit} files");
    }
    let webhooks = foo_controller::webhook::add(Webhooks::new()).validate_at("/slow", Slow);
    let (https, _server) = Https::serve(webhooks).await;
    let (validate, mutate) = (validate_path::<Foo>(), mutate_path::<Foo>());
    let admission: Bytes = review("CREATE", foo(json!({"deploymentName": "web"})), None).into();
    let conversion: Bytes = serde_json::to_vec(&json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
        "request": {"uid": "c0n", "desiredAPIVersion": "samplecontroller.k8s.io/v1beta1",
                    "objects": [foo(json!({"deploymentName": "web", "replicas": 2}))]}
    }))
    .expect("a review")
    .into();
    // A Foo with a 4 MiB annotation, for a validator that takes 500 ms: a hundred of them
    // held at once (the body, the review parsed, the object typed) would be over a
    // gigabyte and a half.
    let mut large = foo(json!({"deploymentName": "web"}));
    large["metadata"]["annotations"] = json!({"large": "x".repeat(4 << 20)});
    let large: Bytes = review("CREATE", large, None).into();
    // One copy each, shared by every request that sends it.
    let junk: Bytes = vec![b'x'; 4 << 20].into();
    let oversized: Bytes = vec![b' '; BODY_LIMIT + 1].into();

    // The peak from here on (writing 5 to clear_refs resets VmHWM).
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    let before = peak_rss();
    let started = std::time::Instant::now();
    let tasks: Vec<_> = (0..requests)
        .map(|i| {
            let https = https.clone();
            let (path, body, expect): (&str, Bytes, &str) = match i % 10 {
                0 => ("/slow", large.clone(), "allowed-true"),
                1..=2 => (&validate, admission.clone(), "allowed-true"),
                3..=4 => (&mutate, admission.clone(), "allowed-true"),
                5..=6 => ("/convert", conversion.clone(), "converted"),
                7 => (&validate, Bytes::from_static(b"{\"apiVersion\": "), "malformed"),
                8 => match i % 30 {
                    8 => ("/convert", Bytes::new(), "malformed"),
                    18 => (&validate, Bytes::from_static(b"{\"kind\": \"Pod\"}"), "malformed"),
                    _ => (&mutate, junk.clone(), "malformed"),
                },
                _ => match i % 100 {
                    9 | 59 => (&validate, oversized.clone(), "too-large"),
                    _ => ("/convert", junk.clone(), "malformed"),
                },
            };
            let path = path.to_string();
            tokio::spawn(async move { (i, expect, https.send("POST", &path, body).await) })
        })
        .collect();
    let mut answered = std::collections::BTreeMap::<&str, usize>::new();
    for task in tasks {
        let (i, expect, (status, body)) = task.await.expect("a request task");
        // Over the memory bound for longer than a request may wait: told so, clearly.
        if status == 503 && body.contains("bytes of reviews") && body.contains("try again") {
            *answered.entry("busy").or_default() += 1;
            continue;
        }
        let ok = match expect {
            "allowed-true" => status == 200 && body.contains("\"allowed\":true"),
            "converted" => status == 200 && body.contains("\"status\":\"Success\"") && body.contains("v1beta1"),
            "too-large" => status == 413 && body.contains("larger than"),
            // Refused with a reason: a review saying what was wrong with the body.
            _ => status == 200 && (body.contains("\"code\":400") || body.contains("\"status\":\"Failure\"")),
        };
        assert!(ok, "request {i} ({expect}): {status} {}", &body[..body.len().min(400)]);
        *answered.entry(expect).or_default() += 1;
    }
    let elapsed = started.elapsed();
    let peak = peak_rss();
    let growth = peak.zip(before).map(|(p, b)| p.saturating_sub(b));
    eprintln!(
        "{requests} concurrent requests answered in {elapsed:?}: {answered:?}; peak RSS {} MiB, {} MiB over the start \
         (bodies in flight at most {} MiB)",
        peak.unwrap_or(0) >> 20,
        growth.unwrap_or(0) >> 20,
        BODIES_IN_FLIGHT >> 20,
    );
    // Bodies held at most BODIES_IN_FLIGHT; a review in memory is about four times its
    // body (the bytes, the review parsed, the object typed, the answer), and the clients'
    // own side is here too.
    if let Some(growth) = growth {
        assert!(growth < 8 * BODIES_IN_FLIGHT as u64, "peak memory grew by {} MiB", growth >> 20);
    }
    // Still serving.
    let (status, body) = https.send("POST", &validate, admission.clone()).await;
    assert!(status == 200 && body.contains("\"allowed\":true"), "{status} {body}");
}

/// Clients that announce large bodies and send nothing more hold no memory and keep no
/// one else waiting: the budget is taken as bytes arrive.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_clients_do_not_hold_up_the_others() {
    use http_body_util::StreamBody;
    use hyper::body::{Bytes, Frame};
    use kubegen::webhook::{BODIES_IN_FLIGHT, BODY_LIMIT};

    type Trickle = StreamBody<futures::channel::mpsc::Receiver<Result<Frame<Bytes>, std::convert::Infallible>>>;
    let (https, _server) = Https::serve(Webhooks::new().validate::<Foo>(SchemaValidator)).await;
    let path = validate_path::<Foo>();
    // Together they announce twice the budget, and send one byte each.
    let mut stalled = Vec::new();
    for _ in 0..(2 * BODIES_IN_FLIGHT / BODY_LIMIT) {
        let mut sender = https.connect::<Trickle>().await;
        let (mut tx, rx) = futures::channel::mpsc::channel(1);
        tx.try_send(Ok(Frame::data(Bytes::from_static(b"{")))).expect("a first byte");
        let request = hyper::Request::builder()
            .method("POST")
            .uri(&path)
            .header("host", "127.0.0.1")
            .header("content-type", "application/json")
            .header("content-length", BODY_LIMIT.to_string())
            .body(StreamBody::new(rx))
            .expect("a request");
        stalled.push((tx, tokio::spawn(async move { sender.send_request(request).await.map(|r| r.status()) })));
    }
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let asked = std::time::Instant::now();
    let (status, body) =
        https.send("POST", &path, review("CREATE", foo(json!({"deploymentName": "web"})), None).into()).await;
    let waited = asked.elapsed();
    eprintln!(
        "{} stalled clients announcing {} MiB: a review answered in {waited:?}",
        stalled.len(),
        (stalled.len() * BODY_LIMIT) >> 20
    );
    assert!(status == 200 && body.contains("\"allowed\":true"), "{status} {body}");
    assert!(waited < std::time::Duration::from_secs(3), "a review waited {waited:?} behind stalled clients");
    for (_, task) in stalled {
        task.abort();
    }
}
