//! Admission webhooks on the real API server: kubegen's webhook server runs in the test
//! on 127.0.0.1 with a CA and serving certificate it made itself, the test registers a
//! validating and a mutating configuration for Foos in its own namespace, and the API
//! server calls them.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use foo_controller::{Foo, FooSpec};
use k8s_openapi::ByteString;
use k8s_openapi::api::admissionregistration::v1::{
    MutatingWebhook, MutatingWebhookConfiguration, RuleWithOperations, ValidatingWebhook,
    ValidatingWebhookConfiguration, WebhookClientConfig,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use kube::api::{Api, DeleteParams, ObjectMeta, PostParams};
use kubegen::webhook::{
    Authority, CertStore, Defaulter, Denial, FieldError, Request, Validator, Verdict, Webhooks, mutate_path,
    validate_path,
};

use tokio_rustls::rustls;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, ServerName};

use super::cluster::{self, kubectl, kubectl_ok};

/// Foos may not be renamed, warn about legacy names, echo a dry run, and panic on request.
struct FooRules {
    saw_dry_run: Arc<AtomicBool>,
}

impl Validator<Foo> for FooRules {
    async fn validate_create(&self, foo: &Foo, request: &Request) -> Verdict {
        if foo.spec.deployment_name == "panic-now" {
            panic!("asked to panic by {}", foo.spec.deployment_name);
        }
        let mut warnings = Vec::new();
        if request.dry_run {
            self.saw_dry_run.store(true, Ordering::SeqCst);
            warnings.push("kubegen webhook: a dry run".to_string());
        }
        if foo.spec.deployment_name.contains("legacy") {
            warnings.push(format!("deploymentName {} is a legacy name", foo.spec.deployment_name));
        }
        Ok(warnings)
    }

    async fn validate_update(&self, old: &Foo, new: &Foo, _: &Request) -> Verdict {
        if old.spec.deployment_name != new.spec.deployment_name {
            return Err(Denial::invalid(vec![FieldError::forbidden(
                "spec.deploymentName",
                format!("cannot change once set (was {})", old.spec.deployment_name),
            )]));
        }
        Ok(Vec::new())
    }
}

/// Big Foos get three replicas.
struct BigFoos;

impl Defaulter<Foo> for BigFoos {
    async fn default(&self, foo: &mut Foo, _: &Request) -> Result<(), Denial> {
        if foo.spec.deployment_name.starts_with("big-") {
            foo.spec.replicas = Some(3);
        }
        Ok(())
    }
}

fn rules() -> Vec<RuleWithOperations> {
    vec![RuleWithOperations {
        operations: Some(vec!["CREATE".into(), "UPDATE".into()]),
        api_groups: Some(vec!["samplecontroller.k8s.io".into()]),
        api_versions: Some(vec!["v1alpha1".into()]),
        resources: Some(vec!["foos".into()]),
        scope: Some("Namespaced".into()),
    }]
}

fn client_config(port: u16, path: &str, ca: &str) -> WebhookClientConfig {
    WebhookClientConfig {
        url: Some(format!("https://127.0.0.1:{port}{path}")),
        ca_bundle: Some(ByteString(ca.as_bytes().to_vec())),
        service: None,
    }
}

fn only(ns: &str) -> Option<LabelSelector> {
    Some(LabelSelector {
        match_labels: Some([("kubernetes.io/metadata.name".to_string(), ns.to_string())].into()),
        ..Default::default()
    })
}

type Configurations = (Api<ValidatingWebhookConfiguration>, Api<MutatingWebhookConfiguration>);

/// Registers a validating and a mutating configuration, both named `name`, for Foos in
/// `ns`: their webhooks (named `hooks`: validating, mutating) call 127.0.0.1:`port` at
/// kubebuilder's paths, trusting `ca`, with `failurePolicy: Fail`.
async fn register(
    client: &kube::Client,
    name: &str,
    hooks: (&str, &str),
    port: u16,
    ca: &str,
    ns: &str,
) -> Configurations {
    let validating = ValidatingWebhookConfiguration {
        metadata: ObjectMeta { name: Some(name.into()), ..Default::default() },
        webhooks: Some(vec![ValidatingWebhook {
            name: hooks.0.into(),
            client_config: client_config(port, &validate_path::<Foo>(), ca),
            rules: Some(rules()),
            namespace_selector: only(ns),
            side_effects: "None".into(),
            admission_review_versions: vec!["v1".into()],
            failure_policy: Some("Fail".into()),
            timeout_seconds: Some(10),
            ..Default::default()
        }]),
    };
    let mutating = MutatingWebhookConfiguration {
        metadata: ObjectMeta { name: Some(name.into()), ..Default::default() },
        webhooks: Some(vec![MutatingWebhook {
            name: hooks.1.into(),
            client_config: client_config(port, &mutate_path::<Foo>(), ca),
            rules: Some(rules()),
            namespace_selector: only(ns),
            side_effects: "None".into(),
            admission_review_versions: vec!["v1".into()],
            failure_policy: Some("Fail".into()),
            timeout_seconds: Some(10),
            ..Default::default()
        }]),
    };
    let vapi: Api<ValidatingWebhookConfiguration> = Api::all(client.clone());
    let mapi: Api<MutatingWebhookConfiguration> = Api::all(client.clone());
    vapi.create(&PostParams::default(), &validating).await.expect("register the validating webhook");
    mapi.create(&PostParams::default(), &mutating).await.expect("register the mutating webhook");
    (vapi, mapi)
}

/// Registers a validating configuration `name` for Foos in `ns` whose one webhook calls
/// 127.0.0.1:`port` with no `caBundle`: whoever keeps the certificates sets it.
async fn register_without_ca(
    client: &kube::Client,
    name: &str,
    port: u16,
    ns: &str,
) -> Api<ValidatingWebhookConfiguration> {
    let vapi: Api<ValidatingWebhookConfiguration> = Api::all(client.clone());
    let config = WebhookClientConfig {
        url: Some(format!("https://127.0.0.1:{port}{}", validate_path::<Foo>())),
        ..Default::default()
    };
    let configuration = ValidatingWebhookConfiguration {
        metadata: ObjectMeta { name: Some(name.into()), ..Default::default() },
        webhooks: Some(vec![ValidatingWebhook {
            name: "vfoo.samplecontroller.k8s.io".into(),
            client_config: config,
            rules: Some(rules()),
            namespace_selector: only(ns),
            side_effects: "None".into(),
            admission_review_versions: vec!["v1".into()],
            failure_policy: Some("Fail".into()),
            timeout_seconds: Some(10),
            ..Default::default()
        }]),
    };
    vapi.create(&PostParams::default(), &configuration).await.expect("register the validating webhook");
    vapi
}

fn foo(name: &str, deployment: &str) -> Foo {
    let mut foo = Foo::new(name, FooSpec { deployment_name: deployment.into(), replicas: None });
    foo.metadata = ObjectMeta { name: Some(name.into()), ..Default::default() };
    foo
}

// kubectl blocks its thread: the webhook server answers from another one.
/// The certificate a new TLS connection to the server is shown, verified against `ca_pem`.
async fn presented(port: u16, ca_pem: &str) -> Vec<u8> {
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(ca_pem.as_bytes()) {
        roots.add(cert.expect("the CA's PEM")).expect("a root");
    }
    let config = rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
        .with_safe_default_protocol_versions()
        .expect("TLS versions")
        .with_root_certificates(roots)
        .with_no_client_auth();
    let tcp = tokio::net::TcpStream::connect(("127.0.0.1", port)).await.expect("connect");
    let name = ServerName::IpAddress(std::net::Ipv4Addr::LOCALHOST.into());
    let tls =
        tokio_rustls::TlsConnector::from(Arc::new(config)).connect(name, tcp).await.expect("the CA vouches for it");
    tls.get_ref().1.peer_certificates().expect("a certificate")[0].to_vec()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a kube-apiserver: scripts/e2e.sh"]
async fn the_api_server_calls_kubegens_webhooks() {
    let ns = cluster::namespace_with_own_webhooks("e2e-webhook");
    let client = cluster::client().await;

    let ca = Authority::new("kubegen-e2e-webhook", Default::default()).expect("a CA");
    let certs = CertStore::new(&ca.issue(&["127.0.0.1".into()]).expect("a serving certificate")).expect("certs");
    let saw_dry_run = Arc::new(AtomicBool::new(false));
    let server = Webhooks::new()
        .validate::<Foo>(FooRules { saw_dry_run: saw_dry_run.clone() })
        .default::<Foo>(BigFoos)
        .serve(([127, 0, 0, 1], 0).into(), certs.clone())
        .await
        .expect("the webhook server starts");
    let port = server.local_addr().port();

    let name = format!("kubegen-e2e-{ns}");
    let hooks = ("vfoo.samplecontroller.k8s.io", "mfoo.samplecontroller.k8s.io");
    let (vapi, mapi) = register(&client, &name, hooks, port, ca.ca_pem(), &ns).await;

    let foos: Api<Foo> = Api::namespaced(client.clone(), &ns);
    // The configurations take effect once the API server's informers see them.
    let mut created = None;
    for _ in 0..100 {
        let _ = foos.delete("big-one", &DeleteParams::default()).await;
        if let Ok(f) = foos.create(&PostParams::default(), &foo("big-one", "big-web")).await
            && f.spec.replicas == Some(3)
        {
            created = Some(f);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    let created = created.expect("the defaulter's replicas are visible after create");
    assert_eq!(created.spec.replicas, Some(3));

    // Not big: the schema's default stands.
    let small = foos.create(&PostParams::default(), &foo("small", "web")).await.expect("create small");
    assert_eq!(small.spec.replicas, Some(1));

    // A rename is denied with the validator's message and field path.
    let err = kubectl(
        &["patch", "foo", "small", "-n", &ns, "--type=merge", "-p", r#"{"spec":{"deploymentName":"other"}}"#],
        None,
    );
    let stderr = String::from_utf8_lossy(&err.stderr);
    assert!(!err.status.success(), "the rename was admitted");
    assert!(stderr.contains("spec.deploymentName") && stderr.contains("cannot change once set (was web)"), "{stderr}");
    // Issue 29: the denial's details name the object, so kubectl names it too.
    assert!(stderr.contains(r#"The Foo "small" is invalid"#), "{stderr}");

    // Warnings reach kubectl.
    let out = kubectl(
        &["apply", "-n", &ns, "-f", "-"],
        Some(
            "apiVersion: samplecontroller.k8s.io/v1alpha1\nkind: Foo\nmetadata: {name: old}\nspec: {deploymentName: legacy-web}\n",
        ),
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Warning: deploymentName legacy-web is a legacy name"));

    // A dry run reaches the validator flagged as one.
    let out = kubectl(
        &["create", "--dry-run=server", "-n", &ns, "-f", "-"],
        Some(
            "apiVersion: samplecontroller.k8s.io/v1alpha1\nkind: Foo\nmetadata: {name: dry}\nspec: {deploymentName: web}\n",
        ),
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("kubegen webhook: a dry run"));
    assert!(saw_dry_run.load(Ordering::SeqCst));

    // A panic in the validator is a denial naming it, and the server keeps serving.
    let err = kubectl(
        &["create", "-n", &ns, "-f", "-"],
        Some(
            "apiVersion: samplecontroller.k8s.io/v1alpha1\nkind: Foo\nmetadata: {name: boom}\nspec: {deploymentName: panic-now}\n",
        ),
    );
    assert!(!err.status.success());
    assert!(String::from_utf8_lossy(&err.stderr).contains("the webhook failed: asked to panic by panic-now"));
    foos.create(&PostParams::default(), &foo("after-panic", "web")).await.expect("served after a panic");

    // Latency of a create through both webhooks, against one in a namespace they do not
    // match (printed; `--nocapture` shows it).
    let plain_ns = cluster::namespace_with_own_webhooks("e2e-webhook-plain");
    let plain: Api<Foo> = Api::namespaced(client.clone(), &plain_ns);
    let timed = |api: Api<Foo>, prefix: &'static str| async move {
        let mut took = Vec::new();
        for i in 0..100 {
            let started = std::time::Instant::now();
            api.create(&PostParams::default(), &foo(&format!("{prefix}-{i}"), "web")).await.expect("create");
            took.push(started.elapsed());
        }
        took.sort();
        (took[49], took[98])
    };
    let (hooked50, hooked99) = timed(foos.clone(), "lat").await;
    let (plain50, plain99) = timed(plain, "lat").await;
    println!(
        "create through kubegen's mutating + validating webhooks: p50 {hooked50:.2?}, p99 {hooked99:.2?}; without: p50 {plain50:.2?}, p99 {plain99:.2?}"
    );
    kubectl_ok(&["delete", "namespace", &plain_ns, "--wait=false"], None);

    // The serving certificate rotated while Foos are created: no request fails.
    let creating = {
        let foos = foos.clone();
        tokio::spawn(async move {
            for i in 0..40 {
                foos.create(&PostParams::default(), &foo(&format!("rot-{i}"), "web"))
                    .await
                    .map_err(|e| format!("rot-{i}: {e}"))?;
            }
            Ok::<_, String>(())
        })
    };
    for _ in 0..8 {
        certs.replace(&ca.issue(&["127.0.0.1".into()]).expect("a new serving certificate")).expect("rotate");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    creating.await.expect("the creating task").expect("every create during rotation succeeds");
    // A new connection is shown the newest certificate, which the CA the API server
    // holds still vouches for.
    let last = ca.issue(&["127.0.0.1".into()]).expect("a last serving certificate");
    certs.replace(&last).expect("rotate");
    let shown = presented(port, ca.ca_pem()).await;
    let issued: Vec<u8> =
        CertificateDer::pem_slice_iter(last.cert_pem.as_bytes()).next().expect("a certificate").expect("PEM").to_vec();
    assert_eq!(shown, issued, "the server still presents an old certificate");

    // The webhook down: `failurePolicy: Fail` refuses, `Ignore` admits.
    drop(server);
    let err = foos.create(&PostParams::default(), &foo("down", "web")).await.expect_err("admitted without its webhook");
    assert!(err.to_string().contains("failed calling webhook"), "{err}");
    for kind in ["validatingwebhookconfiguration", "mutatingwebhookconfiguration"] {
        kubectl_ok(
            &[
                "patch",
                kind,
                &name,
                "--type=json",
                "-p",
                r#"[{"op":"replace","path":"/webhooks/0/failurePolicy","value":"Ignore"}]"#,
            ],
            None,
        );
    }
    let mut admitted = false;
    for _ in 0..100 {
        if foos.create(&PostParams::default(), &foo("down", "web")).await.is_ok() {
            admitted = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    assert!(admitted, "failurePolicy: Ignore still refused with the webhook down");

    let _ = vapi.delete(&name, &DeleteParams::default()).await;
    let _ = mapi.delete(&name, &DeleteParams::default()).await;
    kubectl_ok(&["delete", "namespace", &ns, "--wait=false"], None);
}

/// Certificates without cert-manager: the first replica creates the Secret and patches
/// the CA into the configuration's `caBundle`, a second reads the same CA, and a renewal
/// in the Secret reaches the serving replica without a restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a kube-apiserver: scripts/e2e.sh"]
async fn certificates_the_webhook_manages_itself() {
    use std::time::Duration;

    use k8s_openapi::api::core::v1::Secret;
    use kubegen::webhook::ManagedCerts;

    let ns = cluster::namespace_with_own_webhooks("e2e-webhook-certs");
    let client = cluster::client().await;
    let name = format!("kubegen-e2e-certs-{ns}");
    let mut managed = ManagedCerts::new(&ns, "webhook-certs", vec!["127.0.0.1".into()]);
    managed.validating = vec![name.clone()];
    managed.every = Duration::from_millis(300);
    let (certs, first) = managed.clone().start(client.clone()).await.expect("the first replica's certificates");
    let saw_dry_run = Arc::new(AtomicBool::new(false));
    let server = Webhooks::new()
        .validate::<Foo>(FooRules { saw_dry_run })
        .serve(([127, 0, 0, 1], 0).into(), certs.clone())
        .await
        .expect("the webhook server starts");
    let port = server.local_addr().port();

    // Registered without a caBundle: the manager sets it.
    let vapi = register_without_ca(&client, &name, port, &ns).await;

    let secrets: Api<Secret> = Api::namespaced(client.clone(), &ns);
    let ca_of = |s: &Secret| s.data.as_ref().and_then(|d| d.get("ca.crt")).map(|b| b.0.clone()).unwrap_or_default();
    let tls_of = |s: &Secret| s.data.as_ref().and_then(|d| d.get("tls.crt")).map(|b| b.0.clone()).unwrap_or_default();
    let secret = secrets.get("webhook-certs").await.expect("the Secret the first replica made");
    let ca = ca_of(&secret);
    let mut injected = false;
    for _ in 0..100 {
        let c = vapi.get(&name).await.expect("the configuration");
        if c.webhooks.iter().flatten().all(|w| w.client_config.ca_bundle.as_ref().map(|b| &b.0) == Some(&ca)) {
            injected = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(injected, "the CA never reached the configuration's caBundle");

    let foos: Api<Foo> = Api::namespaced(client.clone(), &ns);
    let mut admitted = false;
    for i in 0..100 {
        if foos.create(&PostParams::default(), &foo(&format!("managed-{i}"), "web")).await.is_ok() {
            admitted = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(admitted, "the API server never trusted the managed certificate");

    // A second replica reads the same CA instead of making its own.
    let (_, second) = managed.clone().start(client.clone()).await.expect("the second replica's certificates");
    assert_eq!(ca_of(&secrets.get("webhook-certs").await.expect("the Secret")), ca);
    second.abort();

    // A replica that finds the certificate due renews it in the Secret; the serving
    // replica presents the new one without a restart, under the same CA.
    let mut renewing = managed.clone();
    renewing.renew_before = renewing.validity.serving;
    let (_, renewer) = renewing.start(client.clone()).await.expect("the renewing replica");
    let before = tls_of(&secret);
    let mut renewed = None;
    for _ in 0..100 {
        let now = secrets.get("webhook-certs").await.expect("the Secret");
        if tls_of(&now) != before {
            renewed = Some(now);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    renewer.abort();
    let renewed = renewed.expect("the serving certificate was never renewed");
    assert_eq!(ca_of(&renewed), ca, "a renewal keeps the CA");
    let latest = tls_of(&secrets.get("webhook-certs").await.expect("the Secret"));
    let latest: Vec<u8> = CertificateDer::pem_slice_iter(&latest).next().expect("a certificate").expect("PEM").to_vec();
    let mut reloaded = false;
    for _ in 0..50 {
        if presented(port, &String::from_utf8_lossy(&ca)).await == latest {
            reloaded = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(reloaded, "the serving replica still presents an old certificate");
    foos.create(&PostParams::default(), &foo("after-renewal", "web")).await.expect("admitted after the renewal");

    // With the certificates' Lease held by another replica, a replica that finds the
    // certificate due leaves the Secret alone; once the Lease is free, it takes it and
    // renews.
    use k8s_openapi::api::coordination::v1::{Lease, LeaseSpec};
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::MicroTime;
    let leases: Api<Lease> = Api::namespaced(client.clone(), &ns);
    let held_elsewhere = Lease {
        metadata: ObjectMeta { name: Some("webhook-certs".into()), ..Default::default() },
        spec: Some(LeaseSpec {
            holder_identity: Some("another-replica".into()),
            lease_duration_seconds: Some(3600),
            renew_time: Some(MicroTime(k8s_openapi::jiff::Timestamp::now())),
            ..Default::default()
        }),
    };
    leases.create(&PostParams::default(), &held_elsewhere).await.expect("a Lease another replica holds");
    let mut follower = managed.clone();
    follower.renew_before = follower.validity.serving;
    follower.leader_election = Some(kubegen::host::LeaderElection::new(&ns, "webhook-certs", "follower"));
    let (_, following) = follower.start(client.clone()).await.expect("the following replica");
    let before = tls_of(&secrets.get("webhook-certs").await.expect("the Secret"));
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(
        tls_of(&secrets.get("webhook-certs").await.expect("the Secret")),
        before,
        "a replica that does not lead renewed"
    );
    leases.delete("webhook-certs", &DeleteParams::default()).await.expect("the Lease is given up");
    let mut taken_over = false;
    for _ in 0..50 {
        if tls_of(&secrets.get("webhook-certs").await.expect("the Secret")) != before {
            taken_over = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    following.abort();
    assert!(taken_over, "the replica never took the free Lease and renewed");
    let holder = leases.get("webhook-certs").await.expect("the Lease").spec.and_then(|s| s.holder_identity);
    assert_eq!(holder.as_deref(), Some("follower"));

    // The CA itself rotates while objects are created through the webhook: the new CA
    // joins the bundle beside the old, the serving certificate follows, the old CA goes.
    // No request fails. (This replica finds its CA always due; the overlaps are short.)
    let mut rotating = managed.clone();
    rotating.ca_renew_before = rotating.validity.ca;
    rotating.overlap = Duration::from_secs(3);
    let (_, rotator) = rotating.start(client.clone()).await.expect("the rotating replica");
    let has_previous = |s: &Secret| s.data.as_ref().is_some_and(|d| d.contains_key("ca-previous.crt"));
    let (mut overlapped, mut rotated, mut created) = (false, false, 0);
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while !rotated && std::time::Instant::now() < deadline {
        // A storage hiccup of a loaded machine (etcd's "request timed out", a 500 before
        // any webhook is called) is retried; anything the webhook or its TLS says fails.
        let mut attempt = 0;
        loop {
            match foos.create(&PostParams::default(), &foo(&format!("rotating-{created}"), "web")).await {
                Ok(_) => break,
                Err(kube::Error::Api(e)) if e.code == 500 && e.message.starts_with("etcdserver:") && attempt < 3 => {
                    attempt += 1;
                    tokio::time::sleep(Duration::from_millis(500)).await;
                }
                Err(e) => panic!("create {created} while the CA rotates: {e}"),
            }
        }
        created += 1;
        let now = secrets.get("webhook-certs").await.expect("the Secret");
        overlapped |= has_previous(&now) && ca_of(&now) != ca;
        rotated = overlapped && !has_previous(&now) && ca_of(&now) != ca;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    rotator.abort();
    assert!(rotated, "the CA did not rotate through its overlap within a minute ({created} creates)");
    let rotated_ca = ca_of(&secrets.get("webhook-certs").await.expect("the Secret"));
    let mut trusted = false;
    for _ in 0..50 {
        let c = vapi.get(&name).await.expect("the configuration");
        let bundle =
            c.webhooks.iter().flatten().next().and_then(|w| w.client_config.ca_bundle.clone()).unwrap_or_default();
        if bundle.0 == rotated_ca
            || String::from_utf8_lossy(&bundle.0).contains(String::from_utf8_lossy(&rotated_ca).trim())
        {
            trusted = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(trusted, "the configuration's caBundle does not hold the new CA");
    for i in 0..10 {
        foos.create(&PostParams::default(), &foo(&format!("rotated-{i}"), "web"))
            .await
            .expect("admitted after the rotation");
    }
    println!("{created} creates through the webhook while its CA rotated, none refused");

    first.abort();
    drop(server);
    let _ = vapi.delete(&name, &DeleteParams::default()).await;
    kubectl_ok(&["delete", "namespace", &ns, "--wait=false"], None);
}

/// The manager's webhook flags without cert-manager, as a Helm chart with
/// `certManager.enabled=false` runs it: `--webhook-cert-secret` makes the Secret,
/// `--webhook-ca-inject` puts its CA into a configuration registered without one, and the
/// API server then calls the webhook served with `--webhook-cert-name`'s certificate.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a kube-apiserver: scripts/e2e.sh"]
async fn the_webhook_flags_keep_certificates_of_their_own() {
    use std::time::Duration;

    use clap::Parser;
    use k8s_openapi::api::core::v1::Secret;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        webhook: kubegen::webhook::WebhookArgs,
    }

    let ns = cluster::namespace_with_own_webhooks("e2e-webhook-flags");
    let client = cluster::client().await;
    let name = format!("kubegen-e2e-flags-{ns}");
    let port = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port").local_addr().expect("its port").port();
    // Registered first, without a caBundle (as the chart applies it): the manager sets it.
    let vapi = register_without_ca(&client, &name, port, &ns).await;

    let cli = Cli::parse_from([
        "manager".to_string(),
        format!("--webhook-bind-address=127.0.0.1:{port}"),
        format!("--webhook-cert-secret={ns}/webhook-server-cert"),
        "--webhook-cert-name=127.0.0.1".into(),
        format!("--webhook-ca-inject=validating={name}"),
    ]);
    let saw_dry_run = Arc::new(AtomicBool::new(false));
    let server = cli
        .webhook
        .serve_with(Some(client.clone()), Webhooks::new().validate::<Foo>(FooRules { saw_dry_run }))
        .await
        .expect("the webhooks are served")
        .expect("a server: the certificates are the manager's own");
    assert_eq!(server.local_addr().port(), port);

    let secret: Secret =
        Api::namespaced(client.clone(), &ns).get("webhook-server-cert").await.expect("the Secret the flags name");
    let ca = secret.data.as_ref().and_then(|d| d.get("ca.crt")).map(|b| b.0.clone()).expect("a CA in the Secret");
    let mut injected = false;
    for _ in 0..100 {
        let c = vapi.get(&name).await.expect("the configuration");
        if c.webhooks.iter().flatten().all(|w| w.client_config.ca_bundle.as_ref().map(|b| &b.0) == Some(&ca)) {
            injected = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(injected, "--webhook-ca-inject never put the CA into the configuration's caBundle");

    // The API server calls the webhook: a rename is refused with its message.
    let foos: Api<Foo> = Api::namespaced(client.clone(), &ns);
    let mut created = None;
    for _ in 0..100 {
        if let Ok(foo) = foos.create(&PostParams::default(), &foo("flags", "web")).await {
            created = Some(foo);
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let mut renamed = created.expect("the API server never trusted the manager's own certificate");
    renamed.spec.deployment_name = "other".into();
    let err = foos.replace("flags", &PostParams::default(), &renamed).await.expect_err("the webhook refuses a rename");
    assert!(err.to_string().contains("cannot change once set"), "{err}");
    drop(server);
    let _ = vapi.delete(&name, &DeleteParams::default()).await;
}

/// The example serves its webhooks as config/ deploys them: foo-controller, run by
/// scripts/e2e.sh with kubebuilder's webhook flags and a certificate for 127.0.0.1, is
/// what config/default's webhook configurations and Foo's conversion (config/crd's
/// patch) call for every Foo of the tier (`cluster::deploy` points them at it). Its
/// defaulter and validator answer (examples/foo-controller/src/webhook.rs), and the API
/// server converts between v1alpha1 (stored) and v1beta1 through it, keeping the field
/// v1alpha1 has no place for in an annotation.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a kube-apiserver and the example's webhooks: scripts/e2e.sh"]
async fn the_example_serves_its_webhooks_and_conversion_as_config_deploys_them() {
    use std::time::Duration;

    use foo_controller::v1beta1;
    use foo_controller::webhook::DEPLOYMENT_LABEL;
    use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;

    let ns = cluster::namespace("e2e-foo-webhooks");
    let client = cluster::client().await;
    let crds: Api<CustomResourceDefinition> = Api::all(client.clone());
    let crd = crds.get("foos.samplecontroller.k8s.io").await.expect("the Foo CRD");
    let conversion = crd.spec.conversion.expect("a conversion");
    assert_eq!(conversion.strategy, "Webhook");
    let url = conversion.webhook.and_then(|w| w.client_config).and_then(|c| c.url).unwrap_or_default();
    assert!(url.ends_with("/convert"), "{url}");

    // The defaulter labels a Foo with its Deployment (the API server's webhook registry
    // catches up within a moment of install: until the label shows, create again).
    let foos: Api<Foo> = Api::namespaced(client.clone(), &ns);
    let mut labelled = None;
    for i in 0..50 {
        let created = foos.create(&PostParams::default(), &foo(&format!("web-{i}"), "web-deploy")).await;
        if let Ok(foo) = created
            && foo.metadata.labels.as_ref().and_then(|l| l.get(DEPLOYMENT_LABEL)).is_some()
        {
            labelled = Some(foo);
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let labelled = labelled.expect("the example's defaulter never labelled a Foo");
    assert_eq!(
        labelled.metadata.labels.as_ref().and_then(|l| l.get(DEPLOYMENT_LABEL)).map(String::as_str),
        Some("web-deploy")
    );

    // The validator keeps the Deployment, in either version.
    let named = labelled.metadata.name.clone().expect("a name");
    for version in ["v1alpha1", "v1beta1"] {
        let renamed = format!(
            "apiVersion: samplecontroller.k8s.io/{version}\nkind: Foo\nmetadata: {{name: {named}}}\nspec: {{deploymentName: other}}\n"
        );
        let out = kubectl(&["apply", "-n", &ns, "-f", "-"], Some(&renamed));
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(!out.status.success(), "the example's validator let the Deployment change through {version}");
        assert!(err.contains("spec.deploymentName") && err.contains("a Foo keeps its Deployment"), "{err}");
    }

    // A v1beta1 Foo: stored as v1alpha1 with revisionHistoryLimit in the annotation,
    // read back as v1beta1 with it, and admitted by the webhooks (which see v1alpha1).
    let beta: Api<v1beta1::Foo> = Api::namespaced(client.clone(), &ns);
    let spec =
        v1beta1::FooSpec { deployment_name: "beta-deploy".into(), replicas: Some(2), revision_history_limit: Some(3) };
    let created = beta.create(&PostParams::default(), &v1beta1::Foo::new("beta", spec)).await.expect("a v1beta1 Foo");
    assert_eq!(created.spec.revision_history_limit, Some(3));
    assert_eq!(
        created.metadata.labels.as_ref().and_then(|l| l.get(DEPLOYMENT_LABEL)).map(String::as_str),
        Some("beta-deploy")
    );
    assert!(created.metadata.annotations.as_ref().is_none_or(|a| !a.contains_key(kubegen::webhook::STASH_ANNOTATION)));
    let stored = foos.get("beta").await.expect("the same Foo as v1alpha1");
    assert_eq!((stored.spec.deployment_name.as_str(), stored.spec.replicas), ("beta-deploy", Some(2)));
    let stash = stored.metadata.annotations.as_ref().and_then(|a| a.get(kubegen::webhook::STASH_ANNOTATION));
    assert_eq!(stash.map(String::as_str), Some(r#"{"revisionHistoryLimit":3}"#));
    // A list in v1beta1 converts every Foo, each from the version it was written in.
    let listed = beta.list(&Default::default()).await.expect("Foos as v1beta1");
    assert!(listed.items.len() >= 2, "{} Foos", listed.items.len());
    for foo in &listed.items {
        let expected = if foo.metadata.name.as_deref() == Some("beta") { Some(3) } else { None };
        assert_eq!(foo.spec.revision_history_limit, expected, "{:?}", foo.metadata.name);
    }
    kubectl_ok(&["delete", "namespace", &ns, "--wait=false"], None);
}
