//! The Foo controller binary: `foo-controller [--kubeconfig PATH] [--leader-elect]`.

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::Context;
use clap::Parser;
use foo_controller::controller::{FooReconciler, controller};
use kube::config::{KubeConfigOptions, Kubeconfig};
use kubegen::host::{LeaderElection, Manager};

#[derive(Parser)]
#[command(about = "The sample-controller Foo controller, on kubegen's reconciler host")]
struct Args {
    /// Path to a kubeconfig; in-cluster configuration (or $KUBECONFIG) when absent.
    #[arg(long)]
    kubeconfig: Option<std::path::PathBuf>,
    /// Watch one namespace only.
    #[arg(long)]
    namespace: Option<String>,
    /// Reconcile only while holding the Lease `foo-controller` in --leader-election-namespace.
    #[arg(long)]
    leader_elect: bool,
    #[arg(long, default_value = "default")]
    leader_election_namespace: String,
    /// This replica's identity in the Lease; the host name by default.
    #[arg(long)]
    identity: Option<String>,
    /// Address of /healthz, /readyz and /metrics.
    #[arg(long, default_value = "127.0.0.1:8081")]
    health_probe_bind_address: SocketAddr,
    /// Foos reconciled at once.
    #[arg(long, default_value_t = 2)]
    concurrency: u16,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()))
        .init();
    let args = Args::parse();
    let config = match &args.kubeconfig {
        Some(path) => {
            let kc = Kubeconfig::read_from(path).with_context(|| format!("reading {}", path.display()))?;
            kube::Config::from_custom_kubeconfig(kc, &KubeConfigOptions::default()).await?
        }
        None => kube::Config::infer().await?,
    };
    let client = kube::Client::try_from(config)?;
    let reconciler = Arc::new(FooReconciler::new(client.clone()));
    let mut manager = Manager::new(client.clone())
        .probes(args.health_probe_bind_address)
        .add(controller(client, args.namespace.as_deref()).concurrency(args.concurrency), reconciler);
    if args.leader_elect {
        let identity = args.identity.clone().unwrap_or_else(|| {
            std::fs::read_to_string("/etc/hostname")
                .map(|h| h.trim().to_string())
                .unwrap_or_else(|_| format!("foo-controller-{}", std::process::id()))
        });
        manager =
            manager.leader_election(LeaderElection::new(&args.leader_election_namespace, "foo-controller", &identity));
    }
    manager.run().await?;
    Ok(())
}
