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
    install_crds();
    let name = &format!("{name}-{}", std::process::id());
    let out = kubectl(&["create", "namespace", name], None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() || stderr.contains("AlreadyExists"), "create namespace {name}: {stderr}");
    name.clone()
}

pub async fn client() -> kube::Client {
    let kubeconfig = kube::config::Kubeconfig::read_from(kubeconfig()).expect("read kubeconfig");
    let config = kube::Config::from_custom_kubeconfig(kubeconfig, &Default::default()).await.expect("kubeconfig");
    kube::Client::try_from(config).expect("client")
}
