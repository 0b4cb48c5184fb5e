//! Sharded managers at scale: N replica processes (this binary with `--replica`), each a
//! sharded manager of Foos whose reconcile takes `--cost-ms` (a simulated slow reconcile)
//! and then writes the Foo's status. The driver creates `--count` Foos, starts the
//! replicas, and times until every Foo's status is written; each replica, stopped, prints
//! what it did. `scripts/bench-shards.sh` runs 1, 2, 3 and 5 replicas and prints the table.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Parser;
use foo_controller::{Foo, FooSpec, FooStatus};
use futures::StreamExt;
use k8s_openapi::api::core::v1::Namespace;
use kube::ResourceExt;
use kube::api::{Api, ListParams, ObjectMeta, PostParams};
use kube::config::{KubeConfigOptions, Kubeconfig};
use kubegen::host::{Action, Controller, Manager, Reconciler, Sharding, patch_status};

#[derive(Parser)]
struct Args {
    #[arg(long)]
    kubeconfig: std::path::PathBuf,
    /// Replicas (the driver starts them); 0: one manager, not sharded (the baseline).
    #[arg(long, default_value_t = 1)]
    replicas: usize,
    #[arg(long, default_value_t = 1000)]
    count: usize,
    /// Simulated cost of one reconcile, in milliseconds.
    #[arg(long, default_value_t = 20)]
    cost_ms: u64,
    /// Reconciles at once per replica.
    #[arg(long, default_value_t = 4)]
    concurrency: u16,
    /// Run as one replica of namespace `--namespace` under this identity.
    #[arg(long)]
    replica: Option<String>,
    #[arg(long)]
    namespace: Option<String>,
}

/// What one replica saw: per reconcile its latency, and per object the wait from its
/// creation to its first reconcile.
#[derive(Default)]
struct Seen {
    reconciles: Vec<Duration>,
    waits: Vec<Duration>,
    objects: std::collections::HashSet<String>,
}

struct Slow {
    client: kube::Client,
    cost: Duration,
    seen: Mutex<Seen>,
}

impl Reconciler<Foo> for Slow {
    type Error = kube::Error;

    async fn reconcile(&self, foo: Arc<Foo>) -> Result<Action, kube::Error> {
        let start = Instant::now();
        if foo.status.is_none() {
            let created = foo.creation_timestamp().map(|t| t.0);
            let wait: Option<Duration> =
                created.and_then(|c| Duration::try_from(k8s_openapi::jiff::Timestamp::now().duration_since(c)).ok());
            let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
            if seen.objects.insert(foo.name_any()) {
                seen.waits.extend(wait);
            }
        }
        tokio::time::sleep(self.cost).await;
        if foo.status.as_ref().map(|s| s.available_replicas) != foo.spec.replicas {
            let api: Api<Foo> = Api::namespaced(self.client.clone(), &foo.namespace().unwrap_or_default());
            let status = FooStatus { available_replicas: foo.spec.replicas.unwrap_or(1) };
            patch_status(&api, &foo.name_any(), &status).await?;
        }
        self.seen.lock().unwrap_or_else(|e| e.into_inner()).reconciles.push(start.elapsed());
        Ok(Action::await_change())
    }
}

fn percentile(values: &mut [Duration], p: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort();
    let at = ((values.len() as f64 - 1.0) * p).round() as usize;
    values[at].as_secs_f64() * 1000.0
}

/// (peak RSS in MiB, CPU seconds) of this process.
fn usage() -> (f64, f64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let rss_kib: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0.0);
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> =
        stat.rsplit_once(')').map(|(_, rest)| rest.split_whitespace().collect()).unwrap_or_default();
    let ticks: f64 = fields.get(11..13).map(|f| f.iter().filter_map(|t| t.parse::<f64>().ok()).sum()).unwrap_or(0.0);
    (rss_kib / 1024.0, ticks / 100.0)
}

async fn replica(client: kube::Client, ns: &str, identity: &str, args: &Args) -> anyhow::Result<()> {
    let slow =
        Arc::new(Slow { client: client.clone(), cost: Duration::from_millis(args.cost_ms), seen: Mutex::default() });
    let foos: Api<Foo> = Api::namespaced(client.clone(), ns);
    let mut manager = Manager::new(client).add(Controller::new(foos).concurrency(args.concurrency), slow.clone());
    // `single`: the baseline, one manager that is not sharded.
    if identity != "single" {
        manager = manager.sharding(Sharding::new(ns, "bench", identity));
    }
    manager.run().await?;
    let mut seen = std::mem::take(&mut *slow.seen.lock().unwrap_or_else(|e| e.into_inner()));
    let (rss, cpu) = usage();
    println!(
        "identity={identity} objects={} reconciles={} reconcile_p50_ms={:.1} reconcile_p99_ms={:.1} wait_p50_ms={:.0} wait_p99_ms={:.0} cpu_s={cpu:.2} peak_rss_mib={rss:.1}",
        seen.objects.len(),
        seen.reconciles.len(),
        percentile(&mut seen.reconciles, 0.5),
        percentile(&mut seen.reconciles, 0.99),
        percentile(&mut seen.waits, 0.5),
        percentile(&mut seen.waits, 0.99),
    );
    Ok(())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let kc = Kubeconfig::read_from(&args.kubeconfig)?;
    let client =
        kube::Client::try_from(kube::Config::from_custom_kubeconfig(kc, &KubeConfigOptions::default()).await?)?;
    if let (Some(identity), Some(ns)) = (&args.replica, &args.namespace) {
        return replica(client, ns, identity, &args).await;
    }
    let ns = format!("shards-{}-{}", args.replicas, std::process::id());
    let namespaces: Api<Namespace> = Api::all(client.clone());
    let meta = ObjectMeta { name: Some(ns.clone()), ..Default::default() };
    namespaces.create(&PostParams::default(), &Namespace { metadata: meta, ..Default::default() }).await?;
    let foos: Api<Foo> = Api::namespaced(client.clone(), &ns);
    // The Foos first, then the replicas: each replica's first list holds its share.
    futures::stream::iter(0..args.count)
        .map(|i| {
            let foos = foos.clone();
            async move {
                let spec = FooSpec { deployment_name: format!("d{i}"), replicas: Some(1) };
                foos.create(&PostParams::default(), &Foo::new(&format!("foo-{i}"), spec)).await.map(|_| ())
            }
        })
        .buffer_unordered(32)
        .collect::<Vec<_>>()
        .await
        .into_iter()
        .collect::<Result<Vec<()>, _>>()?;
    let start = Instant::now();
    let me = std::env::current_exe()?;
    let mut children = Vec::new();
    let identities: Vec<String> = if args.replicas == 0 {
        vec!["single".into()]
    } else {
        (0..args.replicas).map(|i| format!("shard-{i}")).collect()
    };
    for identity in &identities {
        let child = std::process::Command::new(&me)
            .arg("--kubeconfig")
            .arg(&args.kubeconfig)
            .args(["--namespace", &ns, "--replica", identity])
            .args(["--cost-ms", &args.cost_ms.to_string(), "--concurrency", &args.concurrency.to_string()])
            .env("RUST_LOG", "warn")
            .stdout(std::process::Stdio::piped())
            .spawn()?;
        children.push(child);
    }
    loop {
        let list = foos.list(&ListParams::default()).await?;
        let done = list.items.iter().filter(|f| f.status.is_some()).count();
        if done == args.count {
            break;
        }
        anyhow::ensure!(start.elapsed() < Duration::from_secs(1800), "not converged in 30 min: {done}/{}", args.count);
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let elapsed = start.elapsed();
    let mut lines = Vec::new();
    for child in &children {
        let _ = std::process::Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
    }
    for child in children {
        let out = child.wait_with_output()?;
        lines.push(String::from_utf8_lossy(&out.stdout).trim().to_string());
    }
    println!(
        "replicas={} foos={} cost_ms={} concurrency={} seconds={:.2} objects_per_second={:.1}",
        args.replicas,
        args.count,
        args.cost_ms,
        args.concurrency,
        elapsed.as_secs_f64(),
        args.count as f64 / elapsed.as_secs_f64()
    );
    for line in lines {
        println!("  {line}");
    }
    Ok(())
}
