//! The host under faults, on the real API server: a leader or a shard cut off from the
//! API server (a partition, through a proxy the test controls) stops reconciling before
//! another replica takes its work over, so no object is ever reconciled by two replicas at
//! once; every reconcile's start and end is recorded and checked.

use std::sync::Arc;
use std::time::{Duration, Instant};

use k8s_openapi::api::coordination::v1::Lease;
use kube::api::Api;
use kubegen::host::{Controller, LeaderElection, Manager, ManagerError, Stop};

use crate::cluster::{self, kubectl_ok, namespace};
use crate::proxy::Proxy;
use crate::sharding::{self, Ledger, Replica};

const LEASE: Duration = Duration::from_secs(4);
const RENEW_DEADLINE: Duration = Duration::from_secs(3);
const RETRY: Duration = Duration::from_millis(500);

/// A manager of the namespace's Samples in the leader election of lease `samples-leader`.
fn leader(
    client: kube::Client,
    ns: &str,
    identity: &str,
    ledger: &Arc<Ledger>,
    cost: Duration,
) -> (Stop, tokio::task::JoinHandle<Result<(), ManagerError>>) {
    let replica = Arc::new(Replica { identity: identity.into(), ledger: ledger.clone(), cost });
    let election = LeaderElection {
        lease_duration: LEASE,
        renew_deadline: RENEW_DEADLINE,
        retry_period: RETRY,
        ..LeaderElection::new(ns, "samples-leader", identity)
    };
    let manager = Manager::new(client.clone())
        .add(Controller::new(Api::<sample::Sample>::namespaced(client, ns)).concurrency(4), replica)
        .leader_election(election);
    (manager.stop_handle(), tokio::spawn(manager.run()))
}

/// The first start and last end of `identity`'s reconciles (those starting after `since`).
fn span(ledger: &Ledger, identity: &str, since: Instant) -> Option<(Instant, Instant)> {
    let done = ledger.done.lock().unwrap();
    let runs = done.iter().filter(|(_, r, start, _)| r == identity && *start >= since);
    runs.fold(None, |acc, (_, _, start, end)| match acc {
        None => Some((*start, *end)),
        Some((first, last)) => Some((first.min(*start), last.max(*end))),
    })
}

async fn until(what: &str, within: Duration, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + within;
    while !done() {
        assert!(Instant::now() < deadline, "{what}: not within {within:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// What a manager cut off from the API server returned, and when.
async fn cut_off(
    identity: &str,
    run: tokio::task::JoinHandle<Result<(), ManagerError>>,
    within: Duration,
) -> (ManagerError, Instant) {
    match tokio::time::timeout(within, run).await {
        Ok(Ok(Err(e))) => (e, Instant::now()),
        Ok(Ok(Ok(()))) => panic!("{identity} stopped cleanly while cut off from the API server"),
        Ok(Err(e)) => panic!("{identity}: {e}"),
        Err(_) => panic!("{identity} still runs {within:?} after it was cut off from the API server"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs a kube-apiserver: scripts/e2e.sh"]
async fn a_partitioned_leader_stops_before_another_takes_over() {
    let ns = namespace("e2e-partition-leader");
    sharding::samples(&ns, 10);
    let client = cluster::client().await;
    let proxy = Proxy::start(Proxy::upstream()).await;
    let ledger = Arc::new(Ledger::default());
    let began = Instant::now();

    // leader-a through the proxy leads and reconciles; leader-b waits.
    let (_, run_a) = leader(proxy.client().await, &ns, "leader-a", &ledger, Duration::from_millis(40));
    until("leader-a reconciles", Duration::from_secs(30), || span(&ledger, "leader-a", began).is_some()).await;
    let (stop_b, run_b) = leader(client.clone(), &ns, "leader-b", &ledger, Duration::from_millis(40));
    tokio::time::sleep(2 * RETRY + Duration::from_secs(1)).await;
    assert!(span(&ledger, "leader-b", began).is_none(), "leader-b reconciled while leader-a led");

    // The partition: leader-a's packets vanish.
    let cut = Instant::now();
    proxy.blackhole();
    let (error, a_stopped) = cut_off("leader-a", run_a, LEASE + Duration::from_secs(5)).await;
    assert!(matches!(error, ManagerError::LeadershipLost(_)), "leader-a: {error}");
    until("leader-b takes over", LEASE + Duration::from_secs(10), || span(&ledger, "leader-b", began).is_some()).await;
    let (_, a_last) = span(&ledger, "leader-a", began).expect("leader-a's reconciles");
    let (b_first, _) = span(&ledger, "leader-b", began).expect("leader-b's reconciles");
    eprintln!(
        "partitioned leader: leader-a stopped {:?} after the cut (its last reconcile ended at {:?}), leader-b's first \
         reconcile started {:?} after it; acting leaders apart by {:?}",
        a_stopped - cut,
        a_last.saturating_duration_since(cut),
        b_first - cut,
        b_first.saturating_duration_since(a_last),
    );
    assert!(a_last < b_first, "leader-a still reconciled when leader-b started: acting leaders overlapped");
    // Took over within a lease of leader-a's last renewal (at most a retry period before
    // the cut), plus the candidate's own retry period and its cache's first sync.
    assert!(b_first - cut < LEASE + 2 * RETRY + Duration::from_secs(3), "took over after {:?}", b_first - cut);

    proxy.heal();
    stop_b.trigger();
    sharding::stopped("leader-b", run_b).await;
    let overlapping = sharding::overlaps(&ledger);
    assert!(overlapping.is_empty(), "reconciled by two replicas at once: {overlapping:?}");
}

/// A leader told to stop while a reconcile longer than its lease runs keeps the lease
/// until that reconcile has ended: the standby starts only then.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs a kube-apiserver: scripts/e2e.sh"]
async fn a_stopping_leader_keeps_its_lease_until_its_reconciles_end() {
    let ns = namespace("e2e-leader-drain");
    sharding::samples(&ns, 1);
    let client = cluster::client().await;
    let ledger = Arc::new(Ledger::default());
    let began = Instant::now();
    // Each reconcile takes one and a half leases.
    let (stop_a, run_a) = leader(client.clone(), &ns, "leader-a", &ledger, LEASE + LEASE / 2);
    until("leader-a reconciles", Duration::from_secs(30), || ledger.running() > 0).await;
    let (stop_b, run_b) = leader(client.clone(), &ns, "leader-b", &ledger, Duration::from_millis(40));
    tokio::time::sleep(Duration::from_secs(1)).await;
    let stopped = Instant::now();
    stop_a.trigger();
    sharding::stopped("leader-a", run_a).await;
    until("leader-b takes over", Duration::from_secs(20), || span(&ledger, "leader-b", began).is_some()).await;
    let (_, a_last) = span(&ledger, "leader-a", began).expect("leader-a's reconcile");
    let (b_first, _) = span(&ledger, "leader-b", began).expect("leader-b's reconcile");
    eprintln!(
        "stopping leader: its reconcile ended {:?} after the stop signal; leader-b started {:?} after that",
        a_last.saturating_duration_since(stopped),
        b_first.saturating_duration_since(a_last)
    );
    assert!(a_last < b_first, "leader-b started while leader-a's reconcile still ran");
    stop_b.trigger();
    sharding::stopped("leader-b", run_b).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs a kube-apiserver: scripts/e2e.sh"]
async fn a_partitioned_shard_stops_before_its_objects_move() {
    let ns = namespace("e2e-partition-shards");
    sharding::samples(&ns, sharding::OBJECTS);
    let client = cluster::client().await;
    let proxy = Proxy::start(Proxy::upstream()).await;
    let ledger = Arc::new(Ledger::default());

    // shard-a (through the proxy) and shard-b share the objects; shard-a, started first,
    // is the sharder, so the partition takes the sharder too.
    let (_, run_a) = sharding::start(&proxy.client().await, &ns, "shard-a", &ledger);
    sharder_is(&client, &ns, "shard-a").await;
    let (stop_b, run_b) = sharding::start(&client, &ns, "shard-b", &ledger);
    let began = Instant::now();
    let two = sharding::assigned(&client, &ns, &["shard-a", "shard-b"], Duration::from_secs(30)).await;
    sharding::reconciled_by_their_shards(&ledger, &two, began).await;
    eprintln!("partitioned shard: both shards reconcile theirs after {:?}", began.elapsed());
    let share_a: Vec<&String> = two.iter().filter(|(_, s)| *s == "shard-a").map(|(o, _)| o).collect();
    assert!(!share_a.is_empty(), "shard-a has no objects: {two:?}");

    let cut = Instant::now();
    proxy.blackhole();
    let (error, a_stopped) = cut_off("shard-a", run_a, LEASE + Duration::from_secs(5)).await;
    assert!(matches!(error, ManagerError::ShardLost(_)), "shard-a: {error}");
    let after = sharding::assigned(&client, &ns, &["shard-b"], Duration::from_secs(40)).await;
    let moved = cut.elapsed();
    eprintln!("partitioned shard: relabelled {moved:?} after the cut");
    // The sharder's own shard: its successor has watched shard-a's lease stop changing all
    // along, so the objects move once the sharder lease has expired (a lease duration after
    // the last renewal) and shard-b took it, not a second lease duration later.
    assert!(
        moved < LEASE * 2 - RETRY,
        "the dead sharder's objects moved {moved:?} after the cut: more than a lease duration ({LEASE:?}) and its slack"
    );
    sharding::reconciled_by_their_shards(&ledger, &after, cut).await;
    let (_, a_last) = span(&ledger, "shard-a", began).expect("shard-a's reconciles");
    let b_first_of_a = {
        let done = ledger.done.lock().unwrap();
        done.iter()
            .filter(|(o, r, start, _)| r == "shard-b" && *start > cut && share_a.contains(&o))
            .map(|(_, _, start, _)| *start)
            .min()
            .expect("shard-b reconciled shard-a's objects")
    };
    eprintln!(
        "partitioned shard: shard-a stopped {:?} after the cut (last reconcile ended at {:?}); its {} objects were \
         relabelled for shard-b within {moved:?} and the first reconciled by shard-b at {:?}",
        a_stopped - cut,
        a_last.saturating_duration_since(cut),
        share_a.len(),
        b_first_of_a - cut,
    );
    assert!(a_last < b_first_of_a, "shard-a still reconciled when shard-b started on its objects");

    proxy.heal();
    stop_b.trigger();
    sharding::stopped("shard-b", run_b).await;
    let overlapping = sharding::overlaps(&ledger);
    assert!(overlapping.is_empty(), "reconciled by two replicas at once: {overlapping:?}");
    eprintln!("{} reconciles recorded, overlap 0", ledger.done.lock().unwrap().len());
}

/// Waits until `identity` holds the ring's sharder lease.
async fn sharder_is(client: &kube::Client, ns: &str, identity: &str) {
    let sharder_lease = format!("{}-sharder", sharding::RING);
    let leases: Api<Lease> = Api::namespaced(client.clone(), ns);
    let holder = |lease: Option<Lease>| lease.and_then(|l| l.spec).and_then(|s| s.holder_identity);
    let deadline = Instant::now() + Duration::from_secs(20);
    while holder(leases.get_opt(&sharder_lease).await.ok().flatten()).as_deref() != Some(identity) {
        assert!(Instant::now() < deadline, "{identity} never became the sharder");
        tokio::time::sleep(RETRY).await;
    }
}

/// The same partition under server-side sharding (the API server's shardSelector): the
/// cut shard stops before its lease expires, and its ranges are granted to the other
/// shard only then — its objects are never reconciled by both.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs a kube-apiserver: scripts/e2e.sh"]
async fn a_partitioned_shard_selected_by_the_api_server_stops_before_its_ranges_move() {
    let ns = namespace("e2e-partition-ranges");
    let client = cluster::client().await;
    if sharding::refused_without_selector(&client, &ns).await {
        return;
    }
    sharding::samples(&ns, sharding::OBJECTS);
    let proxy = Proxy::start(Proxy::upstream()).await;
    let ledger = Arc::new(Ledger::default());
    let by = kubegen::host::ShardSelection::ShardSelector;
    let (_, run_a, _) = sharding::start_by(&proxy.client().await, &ns, "shard-a", &ledger, by);
    sharder_is(&client, &ns, "shard-a").await;
    let (stop_b, run_b, _) = sharding::start_by(&client, &ns, "shard-b", &ledger, by);
    let began = Instant::now();
    let two = sharding::placed_by_uid(&client, &ns, &["shard-a", "shard-b"]).await;
    sharding::reconciled_by_their_shards(&ledger, &two, began).await;
    let share_a: Vec<&String> = two.iter().filter(|(_, s)| *s == "shard-a").map(|(o, _)| o).collect();
    assert!(!share_a.is_empty(), "shard-a has no objects: {two:?}");

    let cut = Instant::now();
    proxy.blackhole();
    let (error, a_stopped) = cut_off("shard-a", run_a, LEASE + Duration::from_secs(5)).await;
    assert!(matches!(error, ManagerError::ShardLost(_)), "shard-a: {error}");
    let after = sharding::placed_by_uid(&client, &ns, &["shard-b"]).await;
    sharding::reconciled_by_their_shards(&ledger, &after, cut).await;
    let (_, a_last) = span(&ledger, "shard-a", began).expect("shard-a's reconciles");
    let b_of_a: Vec<Instant> = {
        let done = ledger.done.lock().unwrap();
        share_a
            .iter()
            .filter_map(|o| {
                let starts = done.iter().filter(|(d, r, start, _)| d == *o && r == "shard-b" && *start > cut);
                starts.map(|(_, _, start, _)| *start).min()
            })
            .collect()
    };
    let (first, last) = (b_of_a.iter().min().copied(), b_of_a.iter().max().copied());
    let (first, last) = (first.expect("shard-b reconciled shard-a's objects"), last.unwrap_or(cut));
    eprintln!(
        "partitioned shard (shardSelector): shard-a stopped {:?} after the cut; its {} objects were first reconciled \
         by shard-b {:?} after it, all of them by {:?}",
        a_stopped - cut,
        share_a.len(),
        first - cut,
        last - cut,
    );
    assert!(a_last < first, "shard-a still reconciled when shard-b started on its objects");
    // The sharder lease and shard-a's lease expire together; then a grant, a renewal and
    // a list.
    assert!(last - cut < LEASE * 2, "shard-a's objects moved {:?} after the cut", last - cut);

    proxy.heal();
    stop_b.trigger();
    sharding::stopped("shard-b", run_b).await;
    let overlapping = sharding::overlaps(&ledger);
    assert!(overlapping.is_empty(), "reconciled by two replicas at once: {overlapping:?}");
    eprintln!("{} reconciles recorded, overlap 0", ledger.done.lock().unwrap().len());
}

/// Records when each object's reconciles started; each takes `cost` and asks to run again
/// after `requeue` (or waits for a change).
struct Busy {
    cost: Duration,
    requeue: Option<Duration>,
    started: std::sync::Mutex<Vec<(String, Instant)>>,
}

impl kubegen::host::Reconciler<sample::Sample> for Busy {
    type Error = kube::Error;

    async fn reconcile(&self, obj: Arc<sample::Sample>) -> Result<kubegen::host::Action, kube::Error> {
        use kube::ResourceExt;
        self.started.lock().unwrap().push((obj.name_any(), Instant::now()));
        tokio::time::sleep(self.cost).await;
        Ok(self.requeue.map_or_else(kubegen::host::Action::await_change, kubegen::host::Action::requeue))
    }
}

fn busy(
    client: &kube::Client,
    ns: &str,
    concurrency: u16,
    cost: Duration,
    requeue: Option<Duration>,
) -> (Arc<Busy>, Stop, tokio::task::JoinHandle<Result<(), ManagerError>>) {
    let reconciler = Arc::new(Busy { cost, requeue, started: Default::default() });
    let controller = Controller::new(Api::<sample::Sample>::namespaced(client.clone(), ns)).concurrency(concurrency);
    let manager = Manager::new(client.clone()).add(controller, reconciler.clone());
    (reconciler, manager.stop_handle(), tokio::spawn(manager.run()))
}

/// More work than workers, for good: every object still gets its turn (kube-runtime's
/// scheduler alone, at its concurrency limit, served some objects every time and others
/// never).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs a kube-apiserver: scripts/e2e.sh"]
async fn an_overloaded_controller_serves_every_object_in_turn() {
    const COUNT: usize = 30;
    let ns = namespace("e2e-overload");
    sharding::samples(&ns, COUNT);
    let client = cluster::client().await;
    // 30 objects each due every 50 ms + 20 ms of work, 2 workers: about 430 reconciles a
    // second asked of a capacity of 100.
    let (busy, stop, run) = busy(&client, &ns, 2, Duration::from_millis(20), Some(Duration::from_millis(50)));
    until("every object reconciled once", Duration::from_secs(30), || {
        busy.started.lock().unwrap().iter().map(|(o, _)| o).collect::<std::collections::HashSet<_>>().len() == COUNT
    })
    .await;
    let from = Instant::now();
    tokio::time::sleep(Duration::from_secs(4)).await;
    stop.trigger();
    sharding::stopped("overloaded", run).await;
    let mut counts: std::collections::BTreeMap<String, usize> = (0..COUNT).map(|i| (format!("s{i}"), 0)).collect();
    for (object, at) in busy.started.lock().unwrap().iter() {
        if *at >= from {
            *counts.entry(object.clone()).or_default() += 1;
        }
    }
    let total: usize = counts.values().sum();
    let (min, max) = (counts.values().min().copied().unwrap_or(0), counts.values().max().copied().unwrap_or(0));
    eprintln!("overloaded: {total} reconciles in 4 s over {COUNT} objects, per object min {min} max {max}");
    // In turn: each object within a few reconciles of the others.
    assert!(min > 0 && max <= min + 3, "not served in turn: {counts:?}");
}

/// A controller starting on many objects: a change made meanwhile waits behind the
/// initial list only as long as a worker takes to come free (controller-runtime's
/// priority queue), not for the whole list.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs a kube-apiserver: scripts/e2e.sh"]
async fn a_live_change_goes_before_the_initial_list() {
    const COUNT: usize = 150;
    let ns = namespace("e2e-priority");
    sharding::samples(&ns, COUNT);
    let client = cluster::client().await;
    // One worker, 30 ms per object: the initial list takes about 4.5 s.
    let (busy, stop, run) = busy(&client, &ns, 1, Duration::from_millis(30), None);
    until("the initial list under way", Duration::from_secs(30), || busy.started.lock().unwrap().len() >= 10).await;
    kubectl_ok(
        &["apply", "-n", &ns, "-f", "-"],
        Some("apiVersion: example.com/v1alpha1\nkind: Sample\nmetadata: {name: live}\ntestString: x\n"),
    );
    let created = Instant::now();
    let listed_before = busy.started.lock().unwrap().len();
    assert!(listed_before < COUNT, "the initial list ended before the live change was made: nothing to check");
    until("the live change reconciled", Duration::from_secs(30), || {
        busy.started.lock().unwrap().iter().any(|(o, _)| o == "live")
    })
    .await;
    // Listed objects that started after the create returned and before the live change:
    // those its watch event took to arrive, at 30 ms each (without priority: the rest of
    // the list).
    let (ahead, latency) = {
        let started = busy.started.lock().unwrap();
        let at = started.iter().position(|(o, _)| o == "live").expect("live");
        (started[..at].iter().filter(|(_, t)| *t > created).count(), started[at].1.saturating_duration_since(created))
    };
    // A change to a listed object still waiting in line: it moves ahead of the list too.
    let waiting = {
        let started = busy.started.lock().unwrap();
        (0..COUNT).rev().map(|i| format!("s{i}")).find(|n| !started.iter().any(|(o, _)| o == n))
    };
    let edited = match waiting {
        Some(name) => {
            kubectl_ok(
                &["patch", "samples.example.com", &name, "-n", &ns, "--type=merge", "-p", r#"{"testString":"y"}"#],
                None,
            );
            let changed = Instant::now();
            until("the edit reconciled", Duration::from_secs(30), || {
                busy.started.lock().unwrap().iter().any(|(o, _)| *o == name)
            })
            .await;
            let started = busy.started.lock().unwrap();
            let at = started.iter().position(|(o, _)| *o == name).expect("edited");
            Some((name, started[..at].iter().filter(|(_, t)| *t > changed).count()))
        }
        None => None,
    };
    until("the initial list done", Duration::from_secs(60), || busy.started.lock().unwrap().len() > COUNT).await;
    stop.trigger();
    sharding::stopped("priority", run).await;
    eprintln!(
        "priority: the live change reconciled {latency:?} after its create returned, after {ahead} more listed \
         objects ({listed_before} of {COUNT} had started by then); an edit of a listed object still in line: {edited:?}"
    );
    assert!(ahead <= 5, "the live change waited behind {ahead} listed objects");
    let (name, behind) = edited.expect("a listed object was still waiting when the live change had run");
    assert!(behind <= 5, "the edit of {name} waited behind {behind} listed objects");
}

/// A reconciler that counts its reconciles and notices two of one object at once.
struct Exclusive<R> {
    inner: R,
    running: std::sync::Mutex<std::collections::HashSet<String>>,
    overlaps: std::sync::atomic::AtomicUsize,
    reconciles: std::sync::atomic::AtomicUsize,
}

struct Turn<'a, R>(&'a Exclusive<R>, String);

impl<R> Drop for Turn<'_, R> {
    fn drop(&mut self) {
        self.0.running.lock().unwrap().remove(&self.1);
    }
}

impl<R: kubegen::host::Reconciler<foo_controller::Foo>> kubegen::host::Reconciler<foo_controller::Foo>
    for Exclusive<R>
{
    type Error = R::Error;

    async fn reconcile(&self, foo: Arc<foo_controller::Foo>) -> Result<kubegen::host::Action, R::Error> {
        use kube::ResourceExt;
        use std::sync::atomic::Ordering::SeqCst;
        self.reconciles.fetch_add(1, SeqCst);
        let name = foo.name_any();
        if !self.running.lock().unwrap().insert(name.clone()) {
            eprintln!("overlap: {name} reconciled twice at once");
            self.overlaps.fetch_add(1, SeqCst);
        }
        let _turn = Turn(self, name);
        self.inner.reconcile(foo).await
    }
}

/// Seconds a fault lasts: `KUBEGEN_FAULT_SECONDS`, else the short form CI runs.
fn fault_seconds(short: u64) -> u64 {
    std::env::var("KUBEGEN_FAULT_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(short)
}

/// The API server going away and coming back every few seconds (through the proxy: every
/// connection reset and new ones refused for 2 s, then 3 s of service — what a client sees
/// of a server process killed and restarted) while Foos are created, changed and deleted.
/// Afterwards every Foo has converged, every Deployment belongs to a Foo, no Foo was ever
/// reconciled twice at once, and the manager never stopped. `KUBEGEN_FAULT_SECONDS=120`
/// flaps for two minutes (CI: 30 s).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs a kube-apiserver: scripts/e2e.sh"]
async fn the_controller_converges_through_a_flapping_api_server() {
    use foo_controller::{Foo, FooSpec};
    use k8s_openapi::api::apps::v1::Deployment;
    use kube::ResourceExt;
    use kube::api::{DeleteParams, ListParams, Patch, PatchParams, PostParams};
    use std::sync::atomic::Ordering::SeqCst;

    let seconds = fault_seconds(30);
    let ns = namespace("e2e-flapping");
    let client = cluster::client().await;
    let proxy = Arc::new(Proxy::start(Proxy::upstream()).await);
    let through = proxy.client().await;
    let reconciler = Arc::new(Exclusive {
        inner: foo_controller::controller::FooReconciler::new(through.clone()),
        running: Default::default(),
        overlaps: Default::default(),
        reconciles: Default::default(),
    });
    let manager = Manager::new(through.clone())
        .add(foo_controller::controller::controller(through, Some(&ns)).concurrency(4), reconciler.clone());
    let stop = manager.stop_handle();
    let run = tokio::spawn(manager.run());

    let flapping = {
        let proxy = proxy.clone();
        tokio::spawn(async move {
            let (mut outages, end) = (0, Instant::now() + Duration::from_secs(seconds));
            while Instant::now() < end {
                tokio::time::sleep(Duration::from_secs(3)).await;
                proxy.refuse();
                outages += 1;
                tokio::time::sleep(Duration::from_secs(2)).await;
                proxy.heal();
            }
            outages
        })
    };
    // Changes all along: create, scale, delete, create again under a used name.
    let foos: Api<Foo> = Api::namespaced(client.clone(), &ns);
    let mut created = std::collections::BTreeMap::new();
    let (mut round, end) = (0usize, Instant::now() + Duration::from_secs(seconds));
    while Instant::now() < end {
        let name = format!("f{}", round % 24);
        match round % 4 {
            0 | 1 => {
                // A Deployment name of its own: a deleted Foo's stays (no garbage collector
                // here) and would refuse a new Foo of the same name, as sample-controller does.
                let foo =
                    Foo::new(&name, FooSpec { deployment_name: format!("{name}-web-{round}"), replicas: Some(1) });
                if let Ok(foo) = foos.create(&PostParams::default(), &foo).await {
                    created.insert(foo.uid().unwrap_or_default(), name);
                }
            }
            2 => {
                let patch = serde_json::json!({"spec": {"replicas": 1 + round % 3}});
                let _ = foos.patch(&name, &PatchParams::default(), &Patch::Merge(&patch)).await;
            }
            _ => {
                let _ = foos.delete(&format!("f{}", (round * 7) % 24), &DeleteParams::default()).await;
            }
        }
        round += 1;
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
    let outages = flapping.await.expect("the flapping");
    proxy.heal();
    assert!(!run.is_finished(), "the manager stopped while the API server flapped: {:?}", run.await);

    // Converged: each Foo's Deployment exists, is its own, has its replicas.
    let deployments: Api<Deployment> = Api::namespaced(client.clone(), &ns);
    let deadline = Instant::now() + Duration::from_secs(60);
    let (live, owned) = loop {
        let live = foos.list(&ListParams::default()).await.expect("list foos").items;
        let owned = deployments.list(&ListParams::default()).await.expect("list deployments").items;
        let unconverged: Vec<String> = live
            .iter()
            .filter(|foo| {
                !owned.iter().any(|d| {
                    d.name_any() == foo.spec.deployment_name
                        && d.owner_references()
                            .iter()
                            .any(|r| r.controller == Some(true) && Some(&r.uid) == foo.uid().as_ref())
                        && d.spec.replicas == foo.spec.replicas
                }) || foo.status.is_none()
            })
            .map(|foo| foo.name_any())
            .collect();
        if unconverged.is_empty() {
            break (live, owned);
        }
        assert!(Instant::now() < deadline, "not converged 60 s after the flapping: {unconverged:?}");
        tokio::time::sleep(Duration::from_millis(500)).await;
    };
    // Every Deployment is a Foo's (a deleted Foo's is the garbage collector's, which this
    // server runs without): none made twice, none without its owner.
    for d in &owned {
        let owner = d.owner_references().iter().find(|r| r.controller == Some(true)).map(|r| r.uid.clone());
        assert!(
            owner.as_ref().is_some_and(|uid| created.contains_key(uid)),
            "Deployment {} belongs to no Foo the test made: {owner:?}",
            d.name_any()
        );
    }
    assert!(!run.is_finished(), "the manager stopped after the flapping");
    stop.trigger();
    sharding::stopped("flapping", run).await;
    let (reconciles, overlaps) = (reconciler.reconciles.load(SeqCst), reconciler.overlaps.load(SeqCst));
    eprintln!(
        "flapping API server: {outages} outages in {seconds} s, {round} changes to {} Foos ({} alive at the end), \
         {reconciles} reconciles; converged, {} Deployments all owned, overlap {overlaps}",
        created.len(),
        live.len(),
        owned.len(),
    );
    assert_eq!(overlaps, 0, "a Foo reconciled twice at once");
}

/// Many Foos converge under the Foo controller's process, then nothing changes for a
/// while: its reconciles stop, its resident memory stays flat (sampled and printed), and
/// each Foo has exactly one Deployment. `KUBEGEN_SOAK_FOOS=5000 KUBEGEN_FAULT_SECONDS=300`
/// is the long form (CI: 300 Foos, 20 s).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs a kube-apiserver: scripts/e2e.sh"]
async fn a_soak_converges_and_then_stays_flat() {
    use foo_controller::{Foo, FooSpec};
    use futures::StreamExt;
    use k8s_openapi::api::apps::v1::Deployment;
    use kube::ResourceExt;
    use kube::api::{ListParams, PostParams};

    let count: usize = std::env::var("KUBEGEN_SOAK_FOOS").ok().and_then(|s| s.parse().ok()).unwrap_or(300);
    let idle = Duration::from_secs(fault_seconds(20));
    let ns = namespace("e2e-soak");
    let client = cluster::client().await;
    let running = crate::controller::start(&crate::controller::default_kubeconfig(), &["--namespace", &ns], "soak");
    let started = Instant::now();
    let foos: Api<Foo> = Api::namespaced(client.clone(), &ns);
    futures::stream::iter(0..count)
        .for_each_concurrent(16, |i| {
            let foos = foos.clone();
            async move {
                let foo =
                    Foo::new(&format!("f{i}"), FooSpec { deployment_name: format!("f{i}-web"), replicas: Some(1) });
                foos.create(&PostParams::default(), &foo).await.expect("create a Foo");
            }
        })
        .await;
    let deadline = Instant::now() + Duration::from_secs(60 + count as u64 / 10);
    loop {
        let listed = foos.list(&ListParams::default()).await.expect("list").items;
        let with_status = listed.iter().filter(|f| f.status.is_some()).count();
        if with_status == count {
            break;
        }
        assert!(Instant::now() < deadline, "{with_status} of {count} Foos converged: {}", running.logs());
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let converged = started.elapsed();
    // Settled: the reconcile count has stopped moving (the last status writes' own events
    // have come back).
    let mut settled = running.reconciles();
    loop {
        tokio::time::sleep(Duration::from_secs(2)).await;
        let now = running.reconciles();
        if now == settled {
            break;
        }
        settled = now;
    }
    let rss_then = running.rss();
    let mut curve = vec![(0u64, rss_then >> 20)];
    let idle_start = Instant::now();
    while idle_start.elapsed() < idle {
        tokio::time::sleep(Duration::from_secs(2).min(idle)).await;
        curve.push((idle_start.elapsed().as_secs(), running.rss() >> 20));
    }
    let (reconciles_now, rss_now) = (running.reconciles(), running.rss());
    let deployments: Api<Deployment> = Api::namespaced(client.clone(), &ns);
    let owned = deployments.list(&ListParams::default()).await.expect("list deployments").items;
    let mut owners: std::collections::BTreeMap<String, usize> = Default::default();
    for d in &owned {
        for r in d.owner_references().iter().filter(|r| r.controller == Some(true)) {
            *owners.entry(r.uid.clone()).or_default() += 1;
        }
    }
    eprintln!(
        "soak: {count} Foos converged in {converged:?} ({settled} reconciles); idle {idle:?}: {} reconciles, \
         foo-controller RSS (s, MiB) {curve:?}",
        reconciles_now - settled,
    );
    assert_eq!(owned.len(), count, "Deployments");
    assert!(owners.values().all(|n| *n == 1) && owners.len() == count, "a Foo with more than one Deployment");
    assert_eq!(reconciles_now, settled, "reconciles while nothing changed");
    assert!(rss_now <= rss_then + rss_then / 10 + (4 << 20), "RSS grew while idle: {curve:?}");
}
