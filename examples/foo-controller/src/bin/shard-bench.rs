//! Sharded managers at scale: N replica processes (this binary with `--replica`), each a
//! sharded manager of Foos whose reconcile takes `--cost-ms` (a simulated slow reconcile)
//! and then writes the Foo's status. The driver creates `--count` Foos, starts the
//! replicas, and times until every Foo's status is written; each replica, stopped, prints
//! what it did. `scripts/bench-shards.sh` runs 1, 2, 3 and 5 replicas and prints the table.
//!
//! `--churn`: the replicas keep reconciling (each object again after `--requeue-ms`); once
//! half the Foos have a status, one replica is killed (SIGKILL) and a new one started.
//! Every replica appends each reconcile's start and end (wall clock) to a ledger file as it
//! happens, so the driver can check afterwards that no object was ever reconciled by two
//! replicas at once (overlap, the killed replica's last reconcile counted until its kill),
//! and prints how long the dead replica's objects took to move and the new one to get its
//! share.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Parser;
use foo_controller::{Foo, FooSpec, FooStatus};
use futures::StreamExt;
use k8s_openapi::api::core::v1::Namespace;
use kube::ResourceExt;
use kube::api::{Api, ListParams, ObjectMeta, PostParams};
use kube::config::{KubeConfigOptions, Kubeconfig};
use kubegen::host::{Action, Controller, Manager, Reconciler, ShardSelection, Sharding, patch_status};

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
    /// Kill one replica and add one once half the Foos have a status (needs 2 or more).
    #[arg(long)]
    churn: bool,
    /// With `--churn`: kill the sharder itself (its successor must first take the sharder
    /// lease over) instead of another replica.
    #[arg(long)]
    kill_sharder: bool,
    /// With `--churn`: each object is reconciled again after this long.
    #[arg(long, default_value_t = 2000)]
    requeue_ms: u64,
    /// Where a replica appends its reconciles (`start|end <object> <unix nanos>`).
    #[arg(long)]
    ledger: Option<std::path::PathBuf>,
    /// How the shards select their objects: labels, shard-selector (the API server's,
    /// KEP-5866) or auto.
    #[arg(long, default_value = "labels")]
    selection: ShardSelection,
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
    requeue: Option<Duration>,
    seen: Mutex<Seen>,
    ledger: Option<Mutex<std::fs::File>>,
}

impl Slow {
    /// One line in the ledger, written through at once (a killed replica loses nothing).
    fn record(&self, what: &str, object: &str) {
        use std::io::Write;
        if let Some(ledger) = &self.ledger {
            let nanos =
                std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_nanos();
            let mut file = ledger.lock().unwrap_or_else(|e| e.into_inner());
            let _ = writeln!(file, "{what} {object} {nanos}");
        }
    }
}

impl Reconciler<Foo> for Slow {
    type Error = kube::Error;

    async fn reconcile(&self, foo: Arc<Foo>) -> Result<Action, kube::Error> {
        let start = Instant::now();
        let name = foo.name_any();
        self.record("start", &name);
        let result = self.work(foo, start).await;
        self.record("end", &name);
        result
    }
}

impl Slow {
    async fn work(&self, foo: Arc<Foo>, start: Instant) -> Result<Action, kube::Error> {
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
        Ok(self.requeue.map_or_else(Action::await_change, Action::requeue))
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
    let ledger = match &args.ledger {
        Some(path) => Some(Mutex::new(std::fs::OpenOptions::new().create(true).append(true).open(path)?)),
        None => None,
    };
    let slow = Arc::new(Slow {
        client: client.clone(),
        cost: Duration::from_millis(args.cost_ms),
        requeue: args.churn.then(|| Duration::from_millis(args.requeue_ms)),
        seen: Mutex::default(),
        ledger,
    });
    let foos: Api<Foo> = Api::namespaced(client.clone(), ns);
    let mut manager = Manager::new(client).add(Controller::new(foos).concurrency(args.concurrency), slow.clone());
    // `single`: the baseline, one manager that is not sharded.
    if identity != "single" {
        manager = manager.sharding(Sharding { selection: args.selection, ..Sharding::new(ns, "bench", identity) });
    }
    let metrics = manager.metrics();
    manager.run().await?;
    let mut seen = std::mem::take(&mut *slow.seen.lock().unwrap_or_else(|e| e.into_inner()));
    let (rss, cpu) = usage();
    // What the ring cost in writes: the sharder's labels (assignments, drains) and the
    // shards' releases under the label path; grants of ranges (lease writes) under the
    // API server's selector.
    let text = metrics.encode();
    let sum = |family: &str| -> f64 {
        let series = text.lines().filter(|l| l.starts_with(family) && l[family.len()..].starts_with(['{', ' ']));
        series.filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok()).fold(0.0, |a, b| a + b)
    };
    let sharder_writes = sum("kubegen_sharder_assignments_total") + sum("kubegen_sharder_drains_total");
    println!(
        "identity={identity} objects={} cached={} reconciles={} reconcile_p50_ms={:.1} reconcile_p99_ms={:.1} wait_p50_ms={:.0} wait_p99_ms={:.0} cpu_s={cpu:.2} peak_rss_mib={rss:.1} sharder_writes={sharder_writes} releases={}",
        seen.objects.len(),
        sum("kubegen_shard_objects"),
        seen.reconciles.len(),
        percentile(&mut seen.reconciles, 0.5),
        percentile(&mut seen.reconciles, 0.99),
        percentile(&mut seen.waits, 0.5),
        percentile(&mut seen.waits, 0.99),
        sum("kubegen_shard_releases_total"),
    );
    Ok(())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    // The host's warnings (a failed lease renewal, a refused grant) go to stderr: a run that
    // fails says why. RUST_LOG overrides the level.
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()))
        .with_writer(std::io::stderr)
        .init();
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
    let ledgers = std::env::temp_dir().join(format!("shard-bench-{ns}"));
    std::fs::create_dir_all(&ledgers)?;
    let spawn = |identity: &str| {
        let mut command = std::process::Command::new(&me);
        command
            .arg("--kubeconfig")
            .arg(&args.kubeconfig)
            .args(["--namespace", &ns, "--replica", identity])
            .args(["--cost-ms", &args.cost_ms.to_string(), "--concurrency", &args.concurrency.to_string()])
            .args(["--selection", args.selection.as_str()])
            .env("RUST_LOG", std::env::var("RUST_LOG").unwrap_or_else(|_| "warn".into()))
            .stdout(std::process::Stdio::piped());
        if args.churn {
            command.args(["--churn", "--requeue-ms", &args.requeue_ms.to_string()]);
            command.arg("--ledger").arg(ledgers.join(identity));
        }
        command.spawn()
    };
    let mut children = Vec::new();
    let identities: Vec<String> = if args.replicas == 0 {
        vec!["single".into()]
    } else {
        (0..args.replicas).map(|i| format!("shard-{i}")).collect()
    };
    for identity in &identities {
        children.push((identity.clone(), spawn(identity)?));
    }
    let mut churned: Option<(Instant, u64)> = None;
    let label = "shard.kubegen.dev/bench";
    loop {
        let list = foos.list(&ListParams::default()).await?;
        let done = list.items.iter().filter(|f| f.status.is_some()).count();
        if args.churn && churned.is_none() && done >= args.count / 2 {
            anyhow::ensure!(children.len() >= 2, "--churn needs 2 replicas or more");
            // The crash: a replica killed outright (its lease expires on its own) — not the
            // sharder, whose own lease would have to expire before anything moves, unless
            // --kill-sharder asks for exactly that.
            let leases: Api<k8s_openapi::api::coordination::v1::Lease> = Api::namespaced(client.clone(), &ns);
            let sharder = leases.get_opt("bench-sharder").await?.and_then(|l| l.spec?.holder_identity);
            let at =
                children.iter().position(|(id, _)| (Some(id) == sharder.as_ref()) == args.kill_sharder).unwrap_or(0);
            let (dead, mut victim) = children.remove(at);
            victim.kill()?;
            let killed_at = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH)?.as_nanos() as u64;
            let _ = victim.wait();
            let killed = Instant::now();
            let by_label = args.selection == ShardSelection::Labels;
            let mut orphaned = list.items.iter().filter(|f| f.labels().get(label) == Some(&dead)).count();
            children.push(("shard-new".into(), spawn("shard-new")?));
            churned = Some((killed, killed_at));
            // Until no object is labelled for the dead shard, the new one has Foos, and no
            // Foo is being drained; without labels (the API server's selector), until
            // every Foo the dead one worked on was reconciled by another replica since the
            // kill and the new one has reconciled one (from the ledgers).
            let (mut moved, mut joined, mut settled) = (None, None, None);
            while moved.is_none() || joined.is_none() || settled.is_none() {
                tokio::time::sleep(Duration::from_millis(200)).await;
                if !by_label {
                    let window = 2 * args.requeue_ms * 1_000_000;
                    let (held, m, j, share) = ledger_moves(&ledgers, &dead, killed_at, window)?;
                    orphaned = held;
                    (moved, joined) = (m.map(Duration::from_nanos), j.map(Duration::from_nanos));
                    if let (Some(m), Some(_)) = (moved, joined) {
                        settled = Some((m, share));
                    }
                    anyhow::ensure!(killed.elapsed() < Duration::from_secs(300), "no reassignment within 5 min");
                    continue;
                }
                let now = foos.list(&ListParams::default()).await?;
                let on = |shard: &str| {
                    now.items.iter().filter(|f| f.labels().get(label).map(String::as_str) == Some(shard)).count()
                };
                let draining = now.items.iter().filter(|f| f.labels().contains_key("drain.shard.kubegen.dev/bench"));
                if moved.is_none() && on(&dead) == 0 {
                    moved = Some(killed.elapsed());
                }
                if joined.is_none() && on("shard-new") > 0 {
                    joined = Some(killed.elapsed());
                }
                if moved.is_some() && joined.is_some() && draining.count() == 0 {
                    settled = Some((killed.elapsed(), on("shard-new")));
                }
                anyhow::ensure!(killed.elapsed() < Duration::from_secs(300), "no reassignment within 5 min");
            }
            let (settled, share) = settled.unwrap_or_default();
            println!(
                "churn: {dead} killed holding {orphaned} Foos (the sharder: {}); its Foos were on other shards {:.1} s later \
                 (its lease: 15 s); shard-new, started at once, had its first Foos after {:.1} s; all settled (no drain \
                 left) after {:.1} s, {share} Foos on shard-new",
                sharder.as_deref().unwrap_or("none"),
                moved.unwrap_or_default().as_secs_f64(),
                joined.unwrap_or_default().as_secs_f64(),
                settled.as_secs_f64(),
            );
        }
        if done == args.count {
            break;
        }
        anyhow::ensure!(start.elapsed() < Duration::from_secs(1800), "not converged in 30 min: {done}/{}", args.count);
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let elapsed = start.elapsed();
    let mut lines = Vec::new();
    for (_, child) in &children {
        let _ = std::process::Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
    }
    for (_, child) in children {
        let out = child.wait_with_output()?;
        lines.push(String::from_utf8_lossy(&out.stdout).trim().to_string());
    }
    if let Some((_, killed_at)) = churned {
        let (reconciles, overlaps) = overlaps(&ledgers, killed_at)?;
        println!("churn: {reconciles} reconciles in the ledgers, overlap {overlaps}");
        let _ = std::fs::remove_dir_all(&ledgers);
        anyhow::ensure!(overlaps == 0, "{overlaps} reconciles overlapped another replica's of the same Foo");
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

/// From the ledgers, under server-side sharding (no labels to read): the Foos `dead`
/// started a reconcile of within `window` before `killed_at` (its share), how long after
/// the kill the last of them was first reconciled by another replica (none until all
/// were), and how long until `shard-new` started its first reconcile.
fn ledger_moves(
    dir: &std::path::Path,
    dead: &str,
    killed_at: u64,
    window: u64,
) -> anyhow::Result<(usize, Option<u64>, Option<u64>, usize)> {
    use std::collections::{HashMap, HashSet};
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH)?.as_nanos() as u64;
    let mut held: HashSet<String> = HashSet::new();
    // The new replica's Foos now: those it started within the last window (every Foo is
    // requeued more often than that).
    let mut share: HashSet<String> = HashSet::new();
    // Object -> first start by a live replica after the kill.
    let mut taken: HashMap<String, u64> = HashMap::new();
    let mut joined: Option<u64> = None;
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let replica = entry.file_name().to_string_lossy().into_owned();
        for line in std::fs::read_to_string(entry.path())?.lines() {
            let mut words = line.split(' ');
            let (Some("start"), Some(object), Some(at)) = (words.next(), words.next(), words.next()) else { continue };
            let at: u64 = at.parse()?;
            if replica == dead {
                if at <= killed_at && at + window >= killed_at {
                    held.insert(object.to_string());
                }
            } else if at > killed_at {
                let first = taken.entry(object.to_string()).or_insert(at);
                *first = (*first).min(at);
                if replica == "shard-new" {
                    joined = Some(joined.map_or(at, |j| j.min(at)));
                    if at + window >= now {
                        share.insert(object.to_string());
                    }
                }
            }
        }
    }
    let moved = held.iter().map(|o| taken.get(o).copied()).collect::<Option<Vec<u64>>>();
    let moved = moved.and_then(|times| times.into_iter().max()).map(|t| t - killed_at);
    Ok((held.len(), moved.filter(|_| !held.is_empty()), joined.map(|j| j - killed_at), share.len()))
}

/// Reads every replica's ledger: reconciles, and how many overlapped another replica's
/// reconcile of the same object (the killed replica's unfinished one counted until
/// `killed_at`).
fn overlaps(dir: &std::path::Path, killed_at: u64) -> anyhow::Result<(usize, usize)> {
    use std::collections::HashMap;
    // Object -> (replica, start, end).
    let mut runs: HashMap<String, Vec<(String, u64, u64)>> = HashMap::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let replica = entry.file_name().to_string_lossy().into_owned();
        let mut open: HashMap<String, u64> = HashMap::new();
        for line in std::fs::read_to_string(entry.path())?.lines() {
            let mut words = line.split(' ');
            let (Some(what), Some(object), Some(at)) = (words.next(), words.next(), words.next()) else { continue };
            let at: u64 = at.parse()?;
            match what {
                "start" => {
                    open.insert(object.to_string(), at);
                }
                _ => {
                    if let Some(start) = open.remove(object) {
                        runs.entry(object.to_string()).or_default().push((replica.clone(), start, at));
                    }
                }
            }
        }
        // Cut short by the kill (a clean stop finishes every reconcile it started).
        for (object, start) in open {
            runs.entry(object).or_default().push((replica.clone(), start, killed_at.max(start)));
        }
    }
    let reconciles = runs.values().map(Vec::len).sum();
    let mut overlapping = 0;
    for list in runs.values_mut() {
        list.sort_by_key(|r| r.1);
        let mut latest: Option<(&str, u64)> = None;
        for (replica, start, end) in list.iter() {
            if let Some((other, until)) = latest
                && *start < until
                && other != replica
            {
                overlapping += 1;
            }
            if latest.is_none_or(|(_, until)| *end > until) {
                latest = Some((replica, *end));
            }
        }
    }
    Ok((reconciles, overlapping))
}
