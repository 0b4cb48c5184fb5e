//! A real API server for a crate's own tests, as controller-runtime's envtest gives Go
//! operators: etcd and kube-apiserver started on free loopback ports in a temporary
//! directory, the crate's CRDs installed, a `kube::Client` handed out, and everything
//! stopped and removed on drop. No kubelet or controller-manager runs: objects are
//! stored, validated, defaulted and watched exactly as in a cluster, but no pod starts
//! and namespaces never finish terminating.
//!
//! The binaries come from `$KUBEBUILDER_ASSETS` (envtest's variable, so `setup-envtest
//! use -p path` works as it does for Go), else `$KUBEGEN_ASSETS`, else the newest release
//! in the store `codegen-cli envtest` fills, else the `PATH`. Key pairs for
//! service-account tokens are made with the `openssl` command.
//!
//! ```no_run
//! # async fn f() -> Result<(), kubegen::testenv::TestEnvError> {
//! use kubegen::testenv::TestEnv;
//! let env = TestEnv::start().await?;
//! // env.install_crds(vec![Memcached::crd()]).await?;
//! let client = env.client();
//! # Ok(()) }
//! ```

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::Namespace;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, Patch, PatchParams};
use kube::config::{KubeConfigOptions, Kubeconfig};
use kube::{Client, Config};

/// How long etcd and the API server may take to answer.
const START_TIMEOUT: Duration = Duration::from_secs(120);

#[derive(Debug, thiserror::Error)]
pub enum TestEnvError {
    #[error(
        "`{name}` not found; looked in {looked}. Run `codegen-cli envtest` (it builds kube-apiserver from the Go module, takes etcd from the PATH or builds it, and keeps both where the test environment finds them), or point KUBEBUILDER_ASSETS at a directory holding etcd and kube-apiserver (`setup-envtest use -p path` prints one)"
    )]
    Missing { name: &'static str, looked: String },
    #[error("{what}: {source}")]
    Io { what: String, source: std::io::Error },
    #[error("{0} did not become ready within {START_TIMEOUT:?}; its log: {1}")]
    NotReady(&'static str, String),
    #[error("`openssl` failed to make the service-account key: {0}")]
    Openssl(String),
    #[error("the test kubeconfig: {0}")]
    Kubeconfig(#[from] kube::config::KubeconfigError),
    #[error(transparent)]
    Kube(#[from] kube::Error),
    #[error("CRD {0} was not Established within {START_TIMEOUT:?}")]
    NotEstablished(String),
    #[error(transparent)]
    Refused(#[from] crate::crd::Refused),
}

fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> TestEnvError {
    let what = what.into();
    move |source| TestEnvError::Io { what, source }
}

/// A running etcd + kube-apiserver; both stop, and their directory goes, on drop
/// (fields drop in order: the API server, etcd, then the directory).
pub struct TestEnv {
    _apiserver: Process,
    _etcd: Process,
    client: Client,
    dir: Scratch,
}

/// A child process, killed when dropped — on every early return too.
struct Process(Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The environment's directory, removed when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The newest complete release in `codegen-cli envtest`'s store.
fn newest_in_store() -> Option<PathBuf> {
    kubegen_core::envtest::installed(&kubegen_core::envtest::root()?).pop().map(|(_, dir)| dir)
}

/// `name` in the asset directories, the envtest store or on the PATH.
fn binary(name: &'static str) -> Result<PathBuf, TestEnvError> {
    let dirs = ["KUBEBUILDER_ASSETS", "KUBEGEN_ASSETS"]
        .iter()
        .filter_map(|v| std::env::var_os(v))
        .map(PathBuf::from)
        .chain(newest_in_store())
        .chain(std::env::var_os("PATH").map(|p| std::env::split_paths(&p).collect::<Vec<_>>()).unwrap_or_default());
    let dirs: Vec<PathBuf> = dirs.collect();
    dirs.iter()
        .map(|d| d.join(name))
        .find(|p| p.is_file())
        .ok_or_else(|| TestEnvError::Missing { name, looked: looked() })
}

/// Every place `binary` looks, for the error: each variable with its value (or unset)
/// and the PATH's directories.
fn looked() -> String {
    let var = |v: &str| match std::env::var_os(v) {
        Some(value) => format!("${v} ({})", PathBuf::from(value).display()),
        None => format!("${v} (unset)"),
    };
    let path: Vec<String> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).map(|d| d.display().to_string()).collect())
        .unwrap_or_default();
    let path = if path.is_empty() { "the PATH (empty)".to_string() } else { format!("the PATH ({})", path.join(":")) };
    let store = match kubegen_core::envtest::root() {
        Some(root) => format!(
            "codegen-cli envtest's store ({}, which holds {})",
            root.display(),
            kubegen_core::envtest::contents(&root)
        ),
        None => format!("codegen-cli envtest's store (none: ${} and HOME unset)", kubegen_core::envtest::ROOT_VAR),
    };
    format!("{}, {}, {store} and {path}", var("KUBEBUILDER_ASSETS"), var("KUBEGEN_ASSETS"))
}

fn free_port() -> Result<u16, TestEnvError> {
    let listener = TcpListener::bind("127.0.0.1:0").map_err(io("finding a free port"))?;
    Ok(listener.local_addr().map_err(io("finding a free port"))?.port())
}

fn log_tail(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(20)..].join("\n")
}

impl TestEnv {
    /// Starts etcd and kube-apiserver (RBAC on, a token in `system:masters` for the
    /// client) and waits until the API server serves the `default` namespace.
    pub async fn start() -> Result<Self, TestEnvError> {
        let (etcd_bin, apiserver_bin) = (binary("etcd")?, binary("kube-apiserver")?);
        let dir = std::env::temp_dir().join(format!(
            "kubegen-testenv-{}-{}",
            std::process::id(),
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0)
        ));
        let scratch = Scratch(dir.clone());
        for sub in ["etcd", "certs", "pki"] {
            std::fs::create_dir_all(dir.join(sub)).map_err(io(format!("creating {}", dir.display())))?;
        }
        let token = format!("kubegen-testenv-{:x}", std::process::id() as u128 * 7919 + free_port()? as u128);
        std::fs::write(dir.join("pki/tokens.csv"), format!("{token},admin,admin,\"system:masters\"\n"))
            .map_err(io("writing the token file"))?;
        let key = dir.join("pki/sa.key");
        let out = Command::new("openssl")
            .args(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out"])
            .arg(&key)
            .output()
            .map_err(io("running openssl"))?;
        if !out.status.success() {
            return Err(TestEnvError::Openssl(String::from_utf8_lossy(&out.stderr).into()));
        }
        let out = Command::new("openssl")
            .args(["pkey", "-pubout", "-in"])
            .arg(&key)
            .arg("-out")
            .arg(dir.join("pki/sa.pub"))
            .output()
            .map_err(io("running openssl"))?;
        if !out.status.success() {
            return Err(TestEnvError::Openssl(String::from_utf8_lossy(&out.stderr).into()));
        }

        let (etcd_port, peer_port, api_port) = (free_port()?, free_port()?, free_port()?);
        let log = |name: &str| std::fs::File::create(dir.join(name)).map_err(io(format!("creating {name}")));
        let etcd = Process(
            Command::new(&etcd_bin)
                .arg("--name=testenv")
                .arg(format!("--data-dir={}", dir.join("etcd").display()))
                .arg(format!("--listen-client-urls=http://127.0.0.1:{etcd_port}"))
                .arg(format!("--advertise-client-urls=http://127.0.0.1:{etcd_port}"))
                .arg(format!("--listen-peer-urls=http://127.0.0.1:{peer_port}"))
                .arg(format!("--initial-advertise-peer-urls=http://127.0.0.1:{peer_port}"))
                .arg(format!("--initial-cluster=testenv=http://127.0.0.1:{peer_port}"))
                .stdout(Stdio::null())
                .stderr(log("etcd.log")?)
                .spawn()
                .map_err(io(format!("starting {}", etcd_bin.display())))?,
        );
        let mut apiserver = Process(
            Command::new(&apiserver_bin)
                .arg(format!("--etcd-servers=http://127.0.0.1:{etcd_port}"))
                .args(["--bind-address=127.0.0.1", "--advertise-address=127.0.0.1"])
                .arg(format!("--secure-port={api_port}"))
                .arg(format!("--cert-dir={}", dir.join("certs").display()))
                .arg(format!("--token-auth-file={}", dir.join("pki/tokens.csv").display()))
                .arg("--authorization-mode=RBAC")
                .arg("--service-account-issuer=https://kubernetes.default.svc")
                .arg(format!("--service-account-key-file={}", dir.join("pki/sa.pub").display()))
                .arg(format!("--service-account-signing-key-file={}", key.display()))
                // The `kubernetes` Service's endpoint would be 127.0.0.1, which validation refuses.
                .args(["--service-cluster-ip-range=10.0.0.0/24", "--endpoint-reconciler-type=none"])
                .stdout(Stdio::null())
                .stderr(log("kube-apiserver.log")?)
                .spawn()
                .map_err(io(format!("starting {}", apiserver_bin.display())))?,
        );

        // The client needs the serving certificate, which the API server writes at start.
        let cert = dir.join("certs/apiserver.crt");
        let started = Instant::now();
        while started.elapsed() < START_TIMEOUT {
            if let Ok(Some(_)) = apiserver.0.try_wait() {
                return Err(TestEnvError::NotReady("kube-apiserver", log_tail(&dir.join("kube-apiserver.log"))));
            }
            if cert.exists() {
                let kubeconfig = kubeconfig_text(api_port, &cert, &token);
                std::fs::write(dir.join("kubeconfig"), &kubeconfig).map_err(io("writing the kubeconfig"))?;
                let config =
                    Config::from_custom_kubeconfig(Kubeconfig::from_yaml(&kubeconfig)?, &KubeConfigOptions::default())
                        .await?;
                let client = Client::try_from(config)?;
                if Api::<Namespace>::all(client.clone()).get_opt("default").await.ok().flatten().is_some() {
                    return Ok(TestEnv { _apiserver: apiserver, _etcd: etcd, client, dir: scratch });
                }
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Err(TestEnvError::NotReady("kube-apiserver", log_tail(&dir.join("kube-apiserver.log"))))
    }

    /// A client with every permission (`system:masters`).
    pub fn client(&self) -> Client {
        self.client.clone()
    }

    /// A kubeconfig file for the same user, for `kubectl` or a controller binary.
    pub fn kubeconfig_path(&self) -> PathBuf {
        self.dir.0.join("kubeconfig")
    }

    /// Server-side applies `crds` and waits until each is Established, so their kinds
    /// can be used at once. A CRD the server would refuse ([`crate::crd::lint`]) is
    /// refused first, with every reason and what to write instead, and nothing applied.
    pub async fn install_crds(&self, crds: Vec<CustomResourceDefinition>) -> Result<(), TestEnvError> {
        for crd in &crds {
            crate::crd::checked(crd.clone())?;
        }
        let api = Api::<CustomResourceDefinition>::all(self.client.clone());
        let params = PatchParams::apply("kubegen-testenv").force();
        for crd in &crds {
            let name = crd.metadata.name.clone().unwrap_or_default();
            api.patch(&name, &params, &Patch::Apply(crd)).await?;
        }
        for crd in &crds {
            let name = crd.metadata.name.clone().unwrap_or_default();
            let started = Instant::now();
            loop {
                let established = api
                    .get(&name)
                    .await?
                    .status
                    .and_then(|s| s.conditions)
                    .is_some_and(|c| c.iter().any(|c| c.type_ == "Established" && c.status == "True"));
                if established {
                    break;
                }
                if started.elapsed() > START_TIMEOUT {
                    return Err(TestEnvError::NotEstablished(name));
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
        Ok(())
    }
}

fn kubeconfig_text(port: u16, cert: &Path, token: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: testenv\n  cluster:\n    server: https://127.0.0.1:{port}\n    certificate-authority: {}\ncontexts:\n- name: testenv\n  context: {{cluster: testenv, user: admin, namespace: default}}\ncurrent-context: testenv\nusers:\n- name: admin\n  user: {{token: {token}}}\n",
        cert.display()
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_missing_binary_names_where_it_was_looked_for() {
        let err = super::TestEnvError::Missing { name: "etcd", looked: super::looked() }.to_string();
        assert!(err.starts_with("`etcd` not found; looked in $KUBEBUILDER_ASSETS ("), "{err}");
        assert!(err.contains("$KUBEGEN_ASSETS (") && err.contains("the PATH ("), "{err}");
        assert!(err.contains("codegen-cli envtest's store ("), "{err}");
        assert!(err.contains("Run `codegen-cli envtest`"), "{err}");
    }
}
