//! Throughput of the reconciler host against a bare kube-runtime `Controller` running
//! the same reconcile: create N Foos, play the kubelet (mark each Deployment's replicas
//! available), and time until every Foo's status matches. Prints objects/s, reconcile
//! latency p50/p99 and peak RSS. One mode per process, so RSS is the mode's own:
//! `scripts/bench-controller.sh` runs both and prints the ratio.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Parser;
use foo_controller::controller::{FooReconciler, controller};
use foo_controller::{Foo, FooSpec};
use futures::{StreamExt, TryStreamExt};
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::Namespace;
use kube::api::{Api, ObjectMeta, Patch, PatchParams, PostParams};
use kube::config::{KubeConfigOptions, Kubeconfig};
use kube::runtime::{WatchStreamExt, watcher};
use kubegen::host::{Action, Manager, Reconciler};

#[derive(Parser)]
struct Args {
    #[arg(long)]
    kubeconfig: std::path::PathBuf,
    #[arg(long, default_value_t = 1000)]
    count: usize,
    /// `host` (kubegen's Manager) or `bare` (kube-runtime's Controller).
    #[arg(long)]
    mode: String,
    #[arg(long, default_value_t = 2)]
    concurrency: u16,
}

/// Times every reconcile of the wrapped reconciler.
struct Timed {
    inner: FooReconciler,
    samples: Mutex<Vec<Duration>>,
}

impl Reconciler<Foo> for Timed {
    type Error = foo_controller::controller::Error;

    async fn reconcile(&self, foo: Arc<Foo>) -> Result<Action, Self::Error> {
        let start = Instant::now();
        let result = self.inner.reconcile(foo).await;
        self.samples.lock().unwrap_or_else(|e| e.into_inner()).push(start.elapsed());
        result
    }
}

fn peak_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let kc = Kubeconfig::read_from(&args.kubeconfig)?;
    let client =
        kube::Client::try_from(kube::Config::from_custom_kubeconfig(kc, &KubeConfigOptions::default()).await?)?;
    let ns = format!("bench-{}-{}", args.mode, std::process::id());
    let namespaces: Api<Namespace> = Api::all(client.clone());
    namespaces
        .create(
            &PostParams::default(),
            &Namespace { metadata: ObjectMeta { name: Some(ns.clone()), ..Default::default() }, ..Default::default() },
        )
        .await?;
    let timed = Arc::new(Timed { inner: FooReconciler::new(client.clone()), samples: Mutex::default() });

    // The host's queue depth, sampled every 10 ms (the bare controller does not expose it).
    let peak_depth = Arc::new(std::sync::atomic::AtomicI64::new(-1));
    let stop = match args.mode.as_str() {
        "host" => {
            let manager = Manager::new(client.clone())
                .add(controller(client.clone(), Some(&ns)).concurrency(args.concurrency), timed.clone());
            let stop = manager.stop_handle();
            let (metrics, peak) = (manager.metrics(), peak_depth.clone());
            tokio::spawn(async move {
                loop {
                    peak.fetch_max(metrics.queue_depth("foo"), std::sync::atomic::Ordering::Relaxed);
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
            });
            tokio::spawn(manager.run());
            Some(stop)
        }
        "bare" => {
            let foos: Api<Foo> = Api::namespaced(client.clone(), &ns);
            let deployments: Api<Deployment> = Api::namespaced(client.clone(), &ns);
            let reconciler = timed.clone();
            let c = kube::runtime::Controller::new(foos, watcher::Config::default())
                .owns(deployments, watcher::Config::default())
                .with_config(kube::runtime::controller::Config::default().concurrency(args.concurrency));
            tokio::spawn(
                c.run(
                    move |foo, _ctx: Arc<()>| {
                        let r = reconciler.clone();
                        async move { r.reconcile(foo).await }
                    },
                    |_, _, _| Action::requeue(Duration::from_secs(1)),
                    Arc::new(()),
                )
                .for_each(|_| futures::future::ready(())),
            );
            None
        }
        other => anyhow::bail!("--mode is host or bare, not {other}"),
    };

    // The kubelet: every Deployment's replicas become available.
    let deployments: Api<Deployment> = Api::namespaced(client.clone(), &ns);
    let kubelet = {
        let deployments = deployments.clone();
        tokio::spawn(async move {
            let stream = watcher(deployments.clone(), watcher::Config::default()).applied_objects();
            futures::pin_mut!(stream);
            while let Ok(Some(d)) = stream.try_next().await {
                let want = d.spec.replicas.unwrap_or(1);
                if d.status.as_ref().and_then(|s| s.available_replicas) != Some(want) {
                    let status = serde_json::json!({"status": {"replicas": want, "readyReplicas": want, "availableReplicas": want}});
                    let name = d.metadata.name.clone().unwrap_or_default();
                    let _ = deployments.patch_status(&name, &PatchParams::default(), &Patch::Merge(&status)).await;
                }
            }
        })
    };

    let foos: Api<Foo> = Api::namespaced(client.clone(), &ns);
    let start = Instant::now();
    futures::stream::iter(0..args.count)
        .map(|i| {
            let foos = foos.clone();
            async move {
                let foo = Foo::new(
                    &format!("foo-{i}"),
                    FooSpec { deployment_name: format!("deploy-{i}"), replicas: Some(1) },
                );
                foos.create(&PostParams::default(), &foo).await
            }
        })
        .buffer_unordered(16)
        .try_collect::<Vec<_>>()
        .await?;
    loop {
        let list = foos.list(&Default::default()).await?;
        let done = list.items.iter().filter(|f| f.status.as_ref().map(|s| s.available_replicas) == Some(1)).count();
        if done == args.count {
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let elapsed = start.elapsed();
    let mut samples = timed.samples.lock().unwrap_or_else(|e| e.into_inner()).clone();
    samples.sort();
    let pct = |p: f64| {
        samples
            .get(((samples.len() as f64 * p) as usize).min(samples.len().saturating_sub(1)))
            .copied()
            .unwrap_or_default()
    };
    println!(
        "mode={} foos={} seconds={:.2} objects_per_second={:.1} reconciles={} p50_ms={:.2} p99_ms={:.2} peak_rss_mib={:.1} peak_queue_depth={}",
        args.mode,
        args.count,
        elapsed.as_secs_f64(),
        args.count as f64 / elapsed.as_secs_f64(),
        samples.len(),
        pct(0.50).as_secs_f64() * 1000.0,
        pct(0.99).as_secs_f64() * 1000.0,
        peak_rss_kib() as f64 / 1024.0,
        match peak_depth.load(std::sync::atomic::Ordering::Relaxed) {
            -1 => "-".to_string(),
            n => n.to_string(),
        }
    );
    if let Some(stop) = stop {
        stop.trigger();
    }
    kubelet.abort();
    let _ = namespaces.delete(&ns, &Default::default()).await;
    Ok(())
}
