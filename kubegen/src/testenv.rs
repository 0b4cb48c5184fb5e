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

use std::path::{Path, PathBuf};
use std::process::Child;
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
    #[error(transparent)]
    Launch(#[from] kubegen_core::envtest::LaunchError),
    #[error("the test kubeconfig: {0}")]
    Kubeconfig(#[from] kube::config::KubeconfigError),
    #[error(transparent)]
    Kube(#[from] kube::Error),
    #[error("CRD {0} was not Established within {START_TIMEOUT:?}")]
    NotEstablished(String),
    #[error(transparent)]
    Refused(#[from] crate::crd::Refused),
    #[cfg(feature = "webhook")]
    #[error("the webhooks: {0}")]
    Webhooks(#[from] crate::webhook::local::LocalError),
    #[cfg(feature = "webhook")]
    #[error("the webhooks' certificate: {0}")]
    Certificate(#[from] crate::webhook::CertError),
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
        .filter_map(std::env::var_os)
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

use kubegen_core::envtest::log_tail;

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
        let plane = kubegen_core::envtest::launch(&etcd_bin, &apiserver_bin, &dir, false)?;
        let (etcd, mut apiserver) = (Process(plane.etcd), Process(plane.apiserver));
        let client = ready(&mut apiserver.0, &dir, plane.port, &plane.cert, &plane.token).await?;
        Ok(TestEnv { _apiserver: apiserver, _etcd: etcd, client, dir: scratch })
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

/// Webhooks a test serves to its [`TestEnv`]'s API server
/// ([`TestEnv::serve_webhooks`]). [`ServedWebhooks::stop`] removes what was installed and
/// stops the server; dropped without it, the removal is started on the test's runtime
/// (without waiting for it), so later writes in the same environment are not refused
/// by webhooks nobody serves.
#[cfg(feature = "webhook")]
pub struct ServedWebhooks {
    server: Option<crate::webhook::WebhookServer>,
    client: Client,
    /// What the API server was told to call.
    pub installed: crate::webhook::local::Installed,
}

#[cfg(feature = "webhook")]
impl ServedWebhooks {
    /// Where the webhooks are served (`127.0.0.1:<port>`).
    pub fn local_addr(&self) -> Option<std::net::SocketAddr> {
        self.server.as_ref().map(|s| s.local_addr())
    }

    /// Removes the configurations and sets the CRDs' conversions back, then stops serving.
    pub async fn stop(mut self) -> Result<(), TestEnvError> {
        let installed = std::mem::take(&mut self.installed);
        crate::webhook::local::uninstall(&self.client, &installed).await?;
        self.server.take();
        Ok(())
    }
}

#[cfg(feature = "webhook")]
impl Drop for ServedWebhooks {
    fn drop(&mut self) {
        let installed = std::mem::take(&mut self.installed);
        if installed.is_empty() {
            return;
        }
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let client = self.client.clone();
            runtime.spawn(async move {
                let _ = crate::webhook::local::uninstall(&client, &installed).await;
            });
        }
    }
}

#[cfg(feature = "webhook")]
impl TestEnv {
    /// Serves `webhooks` on a free loopback port with a serving certificate of a CA made
    /// for the test, and installs what the project's `config` directory deploys — the
    /// configurations of `config/webhook/manifests.yaml`, the conversions of
    /// `config/crd/patches` — calling that port with that CA, as controller-runtime's
    /// `WebhookInstallOptions` does. Conversions are installed for the CRDs installed
    /// before ([`TestEnv::install_crds`]).
    ///
    /// ```no_run
    /// # async fn f(env: kubegen::testenv::TestEnv) -> Result<(), kubegen::testenv::TestEnvError> {
    /// let webhooks = kubegen::webhook::Webhooks::new(); // .validate::<Memcached>(...)
    /// let _served = env.serve_webhooks(webhooks, concat!(env!("CARGO_MANIFEST_DIR"), "/config")).await?;
    /// # Ok(()) }
    /// ```
    pub async fn serve_webhooks(
        &self,
        webhooks: crate::webhook::Webhooks,
        config: impl AsRef<Path>,
    ) -> Result<ServedWebhooks, TestEnvError> {
        use crate::webhook::{Authority, CertStore, Validity, local};
        let mut plan = local::Plan::from_config(config)?;
        // A test installs the CRDs it uses: the conversions of the others wait for theirs.
        let crds = Api::<CustomResourceDefinition>::all(self.client.clone());
        let mut converted = Vec::new();
        for conversion in plan.conversions {
            if crds.get_opt(&conversion.crd).await?.is_some() {
                converted.push(conversion);
            }
        }
        plan.conversions = converted;
        let ca = Authority::new("kubegen-testenv-webhooks", Validity::default())?;
        let serving = ca.issue(&["127.0.0.1".to_string()])?;
        let addr = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
        let server = webhooks.serve(addr, CertStore::new(&serving)?).await.map_err(io("serving the webhooks"))?;
        let base = format!("https://{}", server.local_addr());
        let installed = local::install(&self.client, &plan, &base, ca.ca_pem()).await?;
        // The API server reads webhook configurations and CRDs through informers: a
        // change reaches its admission and conversion a moment after the write.
        tokio::time::sleep(Duration::from_secs(1)).await;
        Ok(ServedWebhooks { server: Some(server), client: self.client.clone(), installed })
    }
}

/// Waits until the API server `apiserver` in `dir` serves the `default` namespace; writes
/// `dir/kubeconfig` and returns a client. Its log's tail if it exits or takes too long.
#[doc(hidden)]
pub async fn ready(
    apiserver: &mut Child,
    dir: &Path,
    port: u16,
    cert: &Path,
    token: &str,
) -> Result<Client, TestEnvError> {
    let started = Instant::now();
    while started.elapsed() < START_TIMEOUT {
        if let Ok(Some(_)) = apiserver.try_wait() {
            return Err(TestEnvError::NotReady("kube-apiserver", log_tail(&dir.join("kube-apiserver.log"))));
        }
        // The client needs the serving certificate, which the API server writes at start.
        if cert.exists() {
            let kubeconfig = kubegen_core::envtest::kubeconfig(port, cert, token);
            kubegen_core::envtest::private_write(&dir.join("kubeconfig"), &kubeconfig)
                .map_err(io("writing the kubeconfig"))?;
            let config =
                Config::from_custom_kubeconfig(Kubeconfig::from_yaml(&kubeconfig)?, &KubeConfigOptions::default())
                    .await?;
            let client = Client::try_from(config)?;
            if Api::<Namespace>::all(client.clone()).get_opt("default").await.ok().flatten().is_some() {
                return Ok(client);
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Err(TestEnvError::NotReady("kube-apiserver", log_tail(&dir.join("kube-apiserver.log"))))
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
