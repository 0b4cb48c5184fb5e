//! The flags every controller-runtime manager takes, as a clap `Args` struct to
//! `#[command(flatten)]` into a binary's own: `--kubeconfig`, `--metrics-bind-address`,
//! `--health-probe-bind-address`, `--leader-elect` and friends, `--namespace`,
//! `--log-level` (`--zap-log-level` too). Addresses take Go's forms — `:8081` for every
//! interface, `0` to turn a listener off — so manifests written for a Go manager work.

use std::net::{IpAddr, Ipv4Addr, SocketAddr, ToSocketAddrs};
use std::path::PathBuf;
use std::str::FromStr;

use kube::Client;
use kube::config::{KubeConfigOptions, Kubeconfig};

use super::leader::LeaderElection;
use super::manager::Manager;
use super::shard::Sharding;
use super::shard_server::ShardSelection;

/// Where a listener binds: `host:port`, `:port` (every interface) or `0` (off).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BindAddress(pub Option<SocketAddr>);

impl FromStr for BindAddress {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "0" {
            return Ok(BindAddress(None));
        }
        if let Some(port) = s.strip_prefix(':') {
            let port: u16 = port.parse().map_err(|_| format!("`{s}`: the port after `:` must be a number"))?;
            return Ok(BindAddress(Some(SocketAddr::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), port))));
        }
        if let Ok(addr) = s.parse() {
            return Ok(BindAddress(Some(addr)));
        }
        s.to_socket_addrs().ok().and_then(|mut a| a.next()).map(|a| BindAddress(Some(a))).ok_or_else(|| {
            format!("`{s}` is not an address: write `:8081`, `127.0.0.1:8081`, `[::]:8081`, or `0` for off")
        })
    }
}

/// controller-runtime's manager flags.
#[derive(clap::Args, Clone, Debug)]
pub struct ManagerArgs {
    /// Path to a kubeconfig; $KUBECONFIG, ~/.kube/config or the in-cluster service account when absent.
    #[arg(long, value_name = "PATH")]
    pub kubeconfig: Option<PathBuf>,
    /// Where /metrics is served: `:8080`, `127.0.0.1:8080`, or `0` for nowhere; beside the probes when absent.
    #[arg(long, value_name = "ADDR")]
    pub metrics_bind_address: Option<BindAddress>,
    /// Where /healthz and /readyz are served; `0` for no probes.
    #[arg(long, value_name = "ADDR", default_value = ":8081")]
    pub health_probe_bind_address: BindAddress,
    /// Reconcile only while holding the leader-election Lease (for several replicas).
    #[arg(long)]
    pub leader_elect: bool,
    /// Every replica reconciles its share of the objects (a shard Lease each, a consistent-hash ring, objects labelled with their shard) instead of one leader doing all; replaces --leader-elect. The ring is named like the leader-election Lease, in its namespace.
    #[arg(long, conflicts_with = "leader_elect")]
    pub sharding: bool,
    /// How a shard's watches select its objects: `labels` (the sharder labels each object with its shard; every API server), `shard-selector` (the API server's shardSelector over the object's uid: feature gate ShardedListAndWatch, Kubernetes 1.36+; no label writes, each replica decodes only its share), or `auto` (shard-selector where the server serves it and no controller owns kinds, else labels). Every replica of a ring must select alike.
    #[arg(long, value_name = "HOW", default_value = "auto", requires = "sharding")]
    pub shard_selection: ShardSelection,
    /// Name of the Lease; the manager's name by default.
    #[arg(long, value_name = "NAME")]
    pub leader_election_id: Option<String>,
    /// This replica's name in the Lease; $POD_NAME, else the host name, by default.
    #[arg(long, alias = "identity", value_name = "NAME")]
    pub leader_election_identity: Option<String>,
    /// Namespace of the Lease; the pod's own namespace (or `default` outside a cluster) by default.
    #[arg(long, value_name = "NAMESPACE")]
    pub leader_election_namespace: Option<String>,
    /// Watch this namespace only; every namespace by default.
    #[arg(long, value_name = "NAMESPACE")]
    pub namespace: Option<String>,
    /// Log level or tracing filter (`info`, `debug`, `my_operator=debug,kube=info`); RUST_LOG wins when set.
    #[arg(long, alias = "zap-log-level", value_name = "LEVEL", default_value = "info")]
    pub log_level: String,
}

/// Why a manager could not be set up from its flags.
#[derive(Debug, thiserror::Error)]
pub enum ArgsError {
    #[error("reading the kubeconfig {path}: {source}")]
    Kubeconfig { path: PathBuf, source: kube::config::KubeconfigError },
    #[error("no cluster configuration (give --kubeconfig, set $KUBECONFIG, or run in a cluster): {0}")]
    Infer(#[from] kube::config::InferConfigError),
    #[error("connecting to the API server: {0}")]
    Client(#[from] kube::Error),
}

/// The service account's namespace file, present in every pod.
const POD_NAMESPACE_FILE: &str = "/var/run/secrets/kubernetes.io/serviceaccount/namespace";

impl ManagerArgs {
    /// Logs to stderr at `--log-level` (or `RUST_LOG`).
    pub fn init_tracing(&self) {
        let filter = tracing_subscriber::EnvFilter::try_from_default_env()
            .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(&self.log_level));
        let _ = tracing_subscriber::fmt().with_env_filter(filter).try_init();
    }

    /// A client for `--kubeconfig`, or the inferred configuration.
    pub async fn client(&self) -> Result<Client, ArgsError> {
        let config = match &self.kubeconfig {
            Some(path) => {
                let kc = Kubeconfig::read_from(path)
                    .map_err(|source| ArgsError::Kubeconfig { path: path.clone(), source })?;
                kube::Config::from_custom_kubeconfig(kc, &KubeConfigOptions::default())
                    .await
                    .map_err(|source| ArgsError::Kubeconfig { path: path.clone(), source })?
            }
            None => kube::Config::infer().await?,
        };
        Ok(Client::try_from(config)?)
    }

    /// A manager with these flags' probes, metrics and leader election; `name` names the
    /// Lease unless `--leader-election-id` does. The replica's identity in the Lease is
    /// `$POD_NAME` (the scaffolded Deployment sets it from the downward API), else the
    /// host name.
    pub fn manager(&self, client: Client, name: &str) -> Manager {
        let mut manager = Manager::new(client);
        let probes = self.health_probe_bind_address.0;
        match self.metrics_bind_address.map(|m| m.0) {
            None => {
                if let Some(probes) = probes {
                    manager = manager.probes(probes);
                }
            }
            Some(metrics) => {
                if let Some(probes) = probes {
                    manager = manager.probes_only(probes);
                }
                if let Some(metrics) = metrics {
                    manager = manager.metrics_address(metrics);
                }
            }
        }
        if self.leader_elect {
            let namespace = self.leader_election_namespace.clone().unwrap_or_else(own_namespace);
            let id = self.leader_election_id.as_deref().unwrap_or(name);
            let identity = self.leader_election_identity.clone().unwrap_or_else(identity);
            manager = manager.leader_election(LeaderElection::new(&namespace, id, &identity));
        }
        if self.sharding {
            let namespace = self.leader_election_namespace.clone().unwrap_or_else(own_namespace);
            let ring = self.leader_election_id.as_deref().unwrap_or(name);
            let identity = self.leader_election_identity.clone().unwrap_or_else(identity);
            let sharding = Sharding { selection: self.shard_selection, ..Sharding::new(&namespace, ring, &identity) };
            manager = manager.sharding(sharding);
        }
        manager
    }
}

/// `$POD_NAMESPACE`, the service account's namespace, or `default`.
fn own_namespace() -> String {
    std::env::var("POD_NAMESPACE")
        .ok()
        .or_else(|| std::fs::read_to_string(POD_NAMESPACE_FILE).ok().map(|s| s.trim().to_string()))
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "default".into())
}

/// `$POD_NAME`, the host name, or a name made of the process id.
fn identity() -> String {
    std::env::var("POD_NAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/etc/hostname").ok().map(|h| h.trim().to_string()))
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| format!("manager-{}", std::process::id()))
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        manager: ManagerArgs,
    }

    #[test]
    fn go_address_forms() {
        let cli = Cli::parse_from(["m", "--health-probe-bind-address=:8081", "--metrics-bind-address", "0"]);
        assert_eq!(cli.manager.health_probe_bind_address.0, Some("0.0.0.0:8081".parse().unwrap()));
        assert_eq!(cli.manager.metrics_bind_address, Some(BindAddress(None)));
        let cli = Cli::parse_from(["m", "--health-probe-bind-address=127.0.0.1:9000", "--zap-log-level=debug"]);
        assert_eq!(cli.manager.health_probe_bind_address.0, Some("127.0.0.1:9000".parse().unwrap()));
        assert_eq!(cli.manager.log_level, "debug");
        let err = Cli::try_parse_from(["m", "--health-probe-bind-address=:http"]).err().unwrap().to_string();
        assert!(err.contains("the port after `:` must be a number"), "{err}");
    }

    #[test]
    fn defaults_are_controller_runtimes() {
        let cli = Cli::parse_from(["m"]);
        assert_eq!(cli.manager.health_probe_bind_address.0, Some("0.0.0.0:8081".parse().unwrap()));
        assert_eq!(cli.manager.metrics_bind_address, None);
        assert!(!cli.manager.leader_elect);
        assert!(!cli.manager.sharding);
        // One or the other: a leader does all the work, or every replica its share.
        let err = Cli::try_parse_from(["m", "--sharding", "--leader-elect"]).err().unwrap().to_string();
        assert!(err.contains("cannot be used with"), "{err}");
        assert_eq!(cli.manager.shard_selection, ShardSelection::Auto);
        let cli = Cli::parse_from(["m", "--sharding", "--shard-selection=shard-selector"]);
        assert_eq!(cli.manager.shard_selection, ShardSelection::ShardSelector);
        let err = Cli::try_parse_from(["m", "--sharding", "--shard-selection=uid"]).err().unwrap().to_string();
        assert!(err.contains("write auto, labels or shard-selector"), "{err}");
        let err = Cli::try_parse_from(["m", "--shard-selection=labels"]).err().unwrap().to_string();
        assert!(err.contains("--sharding"), "{err}");
    }
}
