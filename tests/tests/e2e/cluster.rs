//! Access to the API server `scripts/e2e.sh` started: kubectl for what a cluster admin
//! does, a kube client for what a controller does.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

pub fn kubeconfig() -> PathBuf {
    match std::env::var_os("KUBEGEN_E2E_KUBECONFIG") {
        Some(p) => PathBuf::from(p),
        None => panic!("the e2e tier needs a kube-apiserver: run scripts/e2e.sh (it builds, starts and stops one)"),
    }
}

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Runs kubectl against the test server, with `stdin` piped in when given.
pub fn kubectl(args: &[&str], stdin: Option<&str>) -> Output {
    // A cache per test process: kubectl's cached OpenAPI would otherwise validate against
    // the CRDs a previous run installed.
    let cache = std::env::temp_dir().join(format!("kubegen-e2e-kubectl-cache-{}", std::process::id()));
    let mut child = Command::new("kubectl")
        .arg("--kubeconfig")
        .arg(kubeconfig())
        .arg("--cache-dir")
        .arg(cache)
        .args(args)
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kubectl runs");
    if let Some(input) = stdin {
        child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write stdin");
    }
    child.wait_with_output().expect("kubectl finishes")
}

/// kubectl that must succeed; returns stdout.
pub fn kubectl_ok(args: &[&str], stdin: Option<&str>) -> String {
    let out = kubectl(args, stdin);
    assert!(
        out.status.success(),
        "kubectl {} failed:\n{}{}",
        args.join(" "),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// kubectl that must fail; returns stderr. kubectl's own client-side validation is off,
/// so the message is the API server's.
pub fn kubectl_err(args: &[&str], stdin: Option<&str>) -> String {
    let mut args = args.to_vec();
    if matches!(args.first(), Some(&"apply") | Some(&"create")) {
        args.push("--validate=false");
    }
    let args = args.as_slice();
    let out = kubectl(args, stdin);
    assert!(
        !out.status.success(),
        "kubectl {} succeeded but should have failed:\n{}",
        args.join(" "),
        String::from_utf8_lossy(&out.stdout)
    );
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The server's minor version (20 for v1.20.2).
pub fn server_minor() -> u32 {
    let out = kubectl_ok(&["version", "-o", "json"], None);
    let v: serde_json::Value = serde_json::from_str(&out).expect("version JSON");
    v["serverVersion"]["minor"].as_str().unwrap_or("0").trim_end_matches('+').parse().unwrap_or(0)
}

/// Every CRD file the tier applies: the examples' (as committed under config/) and the
/// zoo's goldens that this server's version understands.
pub fn crd_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in ["config/crd/bases", "tests/golden"] {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
            .expect("CRD directory")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
            .collect();
        entries.sort();
        files.extend(entries);
    }
    files
}

/// CRDs that use CEL rules or selectable fields, which servers before 1.30 do not know.
pub fn needs_new_server(path: &Path) -> bool {
    let text = std::fs::read_to_string(path).expect("read CRD");
    text.contains("x-kubernetes-validations") || text.contains("selectableFields")
}

/// Applies every CRD once per test binary and waits until each is Established.
pub fn install_crds() {
    static DONE: OnceLock<()> = OnceLock::new();
    DONE.get_or_init(|| {
        let minor = server_minor();
        for file in crd_files() {
            if needs_new_server(&file) && minor < 30 {
                eprintln!(
                    "skipping {} on a 1.{minor} server (needs 1.30 for CEL rules and selectable fields)",
                    file.display()
                );
                continue;
            }
            let path = file.display().to_string();
            // Server-side apply: a CRD with large descriptions (PodTemplateSpec) exceeds the
            // 256 KiB last-applied annotation of client-side apply.
            kubectl_ok(&["apply", "--server-side", "--force-conflicts", "-f", &path], None);
            wait_established(&file);
        }
        // The example's webhooks and Foo's conversion, as config/default deploys them, in
        // front of every Foo of the tier (scripts/e2e.sh serves them).
        deploy("config/default", &["CustomResourceDefinition", WEBHOOK_CONFIGURATIONS[0], WEBHOOK_CONFIGURATIONS[1]]);
    });
}

const WEBHOOK_CONFIGURATIONS: [&str; 2] = ["ValidatingWebhookConfiguration", "MutatingWebhookConfiguration"];

/// The label that keeps a namespace out of the example's webhooks, for tests that
/// register Foo webhooks of their own there ([`namespace_with_own_webhooks`]).
pub const OWN_WEBHOOKS_LABEL: &str = "kubegen.dev/e2e-own-webhooks";

/// Applies `kubectl kustomize <dir>` (the objects of the given kinds; every one when
/// `kinds` is empty) as a cluster admin would, with one change where this API server
/// differs from a cluster: it cannot reach the webhook Service, so each webhook
/// configuration and CRD conversion that names the Service is pointed at the example's
/// server scripts/e2e.sh runs on 127.0.0.1 (same path), with the CA of its certificate.
/// The webhook configurations also skip namespaces labelled [`OWN_WEBHOOKS_LABEL`].
/// cert-manager's CRDs come first when the objects include its Certificate and Issuer.
/// Returns kubectl's output.
pub fn deploy(dir: &str, kinds: &[&str]) -> String {
    let rendered = kubectl_ok(&["kustomize", &root().join(dir).display().to_string()], None);
    let mut objects: Vec<serde_json::Value> =
        serde_saphyr::from_multiple(&rendered).unwrap_or_else(|e| panic!("kubectl kustomize {dir}: {e}"));
    objects.retain(|o| kinds.is_empty() || kinds.contains(&o["kind"].as_str().unwrap_or_default()));
    let (url, ca) = webhook_host();
    for object in &mut objects {
        let kind = object["kind"].as_str().unwrap_or_default().to_string();
        let mut configs = Vec::new();
        if WEBHOOK_CONFIGURATIONS.contains(&kind.as_str()) {
            for webhook in object["webhooks"].as_array_mut().into_iter().flatten() {
                let skip = serde_json::json!({"key": OWN_WEBHOOKS_LABEL, "operator": "DoesNotExist"});
                let selector = webhook["namespaceSelector"]["matchExpressions"].as_array_mut();
                match selector {
                    Some(expressions) => expressions.push(skip),
                    None => webhook["namespaceSelector"] = serde_json::json!({"matchExpressions": [skip]}),
                }
                configs.push(&mut webhook["clientConfig"]);
            }
        } else if let Some(config) = object.pointer_mut("/spec/conversion/webhook/clientConfig") {
            configs.push(config);
        }
        for config in configs {
            let Some(path) = config.pointer("/service/path").and_then(|p| p.as_str()).map(str::to_string) else {
                continue;
            };
            *config = serde_json::json!({"url": format!("{url}{path}"), "caBundle": ca});
        }
    }
    if objects.iter().any(|o| o["apiVersion"].as_str().is_some_and(|v| v.starts_with("cert-manager.io/"))) {
        install_cert_manager_crds();
    }
    let list = serde_json::json!({"apiVersion": "v1", "kind": "List", "items": objects});
    kubectl_ok(&["apply", "--server-side", "--force-conflicts", "-f", "-"], Some(&list.to_string()))
}

/// Where scripts/e2e.sh serves the example's webhooks, and its CA (base64, as a
/// `caBundle`).
fn webhook_host() -> (String, String) {
    let run = "run scripts/e2e.sh: it serves the example's webhooks for the tier";
    let url = std::env::var("KUBEGEN_E2E_WEBHOOK_URL").unwrap_or_else(|_| panic!("KUBEGEN_E2E_WEBHOOK_URL: {run}"));
    let ca = std::env::var("KUBEGEN_E2E_WEBHOOK_CA").unwrap_or_else(|_| panic!("KUBEGEN_E2E_WEBHOOK_CA: {run}"));
    let pem = std::fs::read(&ca).unwrap_or_else(|e| panic!("{ca}: {e}"));
    (url, base64(&pem))
}

fn base64(bytes: &[u8]) -> String {
    use k8s_openapi::ByteString;
    serde_json::to_value(ByteString(bytes.to_vec())).expect("base64").as_str().expect("a string").to_string()
}

/// cert-manager's CRDs (scripts/cert-manager-crds.sh), once per test binary.
fn install_cert_manager_crds() {
    static DONE: OnceLock<()> = OnceLock::new();
    DONE.get_or_init(|| {
        let out =
            Command::new(root().join("scripts/cert-manager-crds.sh")).output().expect("cert-manager-crds.sh runs");
        assert!(out.status.success(), "scripts/cert-manager-crds.sh: {}", String::from_utf8_lossy(&out.stderr));
        let crds = String::from_utf8(out.stdout).expect("UTF-8");
        kubectl_ok(&["apply", "--server-side", "--force-conflicts", "-f", "-"], Some(&crds));
        // Exactly these CRDs: other tests of the binary (the generated tiers) create and
        // delete CRDs of their own meanwhile, which `crd --all` would wait on too.
        kubectl_ok(&["wait", "--for=condition=Established", "--timeout=60s", "-f", "-"], Some(&crds));
    });
}

/// `metadata.name` of a CRD file.
pub fn crd_name(path: &Path) -> String {
    let text = std::fs::read_to_string(path).expect("read CRD");
    let name = text.lines().find_map(|l| l.strip_prefix("  name: "));
    name.unwrap_or_else(|| panic!("{} has no metadata.name", path.display())).to_string()
}

/// Polls until the CRD's Established condition is True (kubectl wait fails while the
/// status has no conditions yet).
fn wait_established(path: &Path) {
    let name = crd_name(path);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let query = "jsonpath={.status.conditions[?(@.type==\"Established\")].status}";
    while std::time::Instant::now() < deadline {
        let out = kubectl(&["get", "crd", &name, "-o", query], None);
        if String::from_utf8_lossy(&out.stdout) == "True" {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    panic!("{name} did not become Established within 60s");
}

/// A fresh namespace for one test (named per run, so a reused server does not collide).
pub fn namespace(name: &str) -> String {
    create_namespace(name, "")
}

/// A fresh namespace that the example's webhooks skip ([`OWN_WEBHOOKS_LABEL`]), for a
/// test that registers Foo webhooks of its own there and asserts what they answer.
pub fn namespace_with_own_webhooks(name: &str) -> String {
    create_namespace(name, OWN_WEBHOOKS_LABEL)
}

fn create_namespace(name: &str, label: &str) -> String {
    install_crds();
    let name = format!("{name}-{}", std::process::id());
    let labels = if label.is_empty() { String::new() } else { format!(", labels: {{{label}: \"true\"}}") };
    let manifest = format!("apiVersion: v1\nkind: Namespace\nmetadata: {{name: {name}{labels}}}\n");
    let out = kubectl(&["create", "-f", "-"], Some(&manifest));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() || stderr.contains("AlreadyExists"), "create namespace {name}: {stderr}");
    name
}

pub async fn client() -> kube::Client {
    let kubeconfig = kube::config::Kubeconfig::read_from(kubeconfig()).expect("read kubeconfig");
    let config = kube::Config::from_custom_kubeconfig(kubeconfig, &Default::default()).await.expect("kubeconfig");
    kube::Client::try_from(config).expect("client")
}

/// A dry-run create or replace.
pub fn dry_run() -> kube::api::PostParams {
    kube::api::PostParams { dry_run: true, ..Default::default() }
}

/// The API server's message of an error (its `message`), else the error.
pub fn message(e: &kube::Error) -> String {
    match e {
        kube::Error::Api(s) => s.message.clone(),
        other => other.to_string(),
    }
}

/// A namespace of a test's own, `<name>-<pid>`, made through `client` (unlike
/// [`namespace`], without the example's CRDs and webhooks, which the generated tiers do
/// not need).
pub async fn own_namespace(client: &kube::Client, name: &str) -> String {
    let ns = format!("{name}-{}", std::process::id());
    let namespaces: kube::Api<k8s_openapi::api::core::v1::Namespace> = kube::Api::all(client.clone());
    let object = serde_json::from_value(serde_json::json!({"metadata": {"name": ns}})).expect("a namespace");
    if let Err(e) = namespaces.create(&kube::api::PostParams::default(), &object).await {
        assert!(message(&e).contains("already exists"), "create namespace {ns}: {}", message(&e));
    }
    ns
}

/// The `codegen-cli` binary: `KUBEGEN_CODEGEN_CLI`, else this workspace's debug build.
pub fn codegen_cli() -> PathBuf {
    if let Some(path) = std::env::var_os("KUBEGEN_CODEGEN_CLI") {
        return PathBuf::from(path);
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .args(["build", "-q", "-p", "codegen-cli", "--manifest-path"])
        .arg(root.join("Cargo.toml"))
        .status()
        .expect("cargo runs");
    assert!(status.success(), "cargo build -p codegen-cli failed");
    root.join("target/debug/codegen-cli")
}
