//! Prometheus metrics of the reconciler host, in the names and labels controller-runtime
//! uses (`controller_runtime_reconcile_total{controller,result}`,
//! `workqueue_depth{name,controller}`, ...), so existing dashboards and alerts work.

use std::sync::Mutex;

use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

type Labels = Vec<(String, String)>;
type Histograms = Family<Labels, Histogram, fn() -> Histogram>;

pub struct Metrics {
    registry: Mutex<Registry>,
    reconciles: Family<Labels, Counter>,
    errors: Family<Labels, Counter>,
    active: Family<Labels, Gauge>,
    max_concurrent: Family<Labels, Gauge>,
    duration: Histograms,
    depth: Family<Labels, Gauge>,
    adds: Family<Labels, Counter>,
    retries: Family<Labels, Counter>,
    queue_duration: Histograms,
    shard_objects: Family<Labels, Gauge>,
    shard_releases: Family<Labels, Counter>,
    ring_shards: Family<Labels, Gauge>,
    assignments: Family<Labels, Counter>,
    drains: Family<Labels, Counter>,
    children_labelled: Family<Labels, Counter>,
    handoff: Histograms,
}

/// controller-runtime's reconcile-time buckets: 5 ms doubling.
fn reconcile_buckets() -> Histogram {
    Histogram::new(exponential_buckets(0.005, 2.0, 16))
}

/// client-go's work queue buckets: 10 ns to 1000 s, by tens.
fn queue_buckets() -> Histogram {
    Histogram::new(exponential_buckets(1e-8, 10.0, 12))
}

impl Default for Metrics {
    fn default() -> Self {
        let mut m = Metrics {
            registry: Mutex::default(),
            reconciles: Family::default(),
            errors: Family::default(),
            active: Family::default(),
            max_concurrent: Family::default(),
            duration: Family::new_with_constructor(reconcile_buckets),
            depth: Family::default(),
            adds: Family::default(),
            retries: Family::default(),
            queue_duration: Family::new_with_constructor(queue_buckets),
            shard_objects: Family::default(),
            shard_releases: Family::default(),
            ring_shards: Family::default(),
            assignments: Family::default(),
            drains: Family::default(),
            children_labelled: Family::default(),
            handoff: Family::new_with_constructor(handoff_buckets),
        };
        let registry = m.registry.get_mut().unwrap_or_else(|e| e.into_inner());
        registry.register("controller_runtime_reconcile", "Reconciles by controller and result", m.reconciles.clone());
        registry.register("controller_runtime_reconcile_errors", "Reconciles that returned an error", m.errors.clone());
        registry.register("controller_runtime_active_workers", "Reconciles running now", m.active.clone());
        registry.register(
            "controller_runtime_max_concurrent_reconciles",
            "Reconciles a controller runs at once at most",
            m.max_concurrent.clone(),
        );
        registry.register("controller_runtime_reconcile_time_seconds", "Time per reconcile", m.duration.clone());
        registry.register("workqueue_depth", "Objects waiting for a worker", m.depth.clone());
        registry.register("workqueue_adds", "Objects added to the queue", m.adds.clone());
        registry.register("workqueue_retries", "Objects requeued after an error", m.retries.clone());
        registry.register(
            "workqueue_queue_duration_seconds",
            "Time an object waits in the queue before a worker takes it",
            m.queue_duration.clone(),
        );
        // Sharding (host::Sharding), named in controller-runtime's style.
        registry.register("kubegen_shard_objects", "Objects in this shard's cache", m.shard_objects.clone());
        registry.register(
            "kubegen_shard_releases",
            "Objects this shard let go when the sharder drained them",
            m.shard_releases.clone(),
        );
        registry.register(
            "kubegen_sharder_ring_shards",
            "Live shards in the ring (the sharder's view)",
            m.ring_shards.clone(),
        );
        registry.register(
            "kubegen_sharder_assignments",
            "Objects the sharder labelled with a shard (reason: new, or moved from a shard gone or drained)",
            m.assignments.clone(),
        );
        registry.register(
            "kubegen_sharder_drains",
            "Objects the sharder asked their shard to let go",
            m.drains.clone(),
        );
        registry.register(
            "kubegen_sharder_children_labelled",
            "Owned objects the sharder labelled with their controller owner's shard",
            m.children_labelled.clone(),
        );
        registry.register(
            "kubegen_sharder_handoff_seconds",
            "Time from draining an object to assigning it to its new shard",
            m.handoff.clone(),
        );
        m
    }
}

/// Handoff buckets: 50 ms doubling to about 27 minutes.
fn handoff_buckets() -> Histogram {
    Histogram::new(exponential_buckets(0.05, 2.0, 16))
}

fn controller(name: &str) -> Labels {
    vec![("controller".into(), name.into())]
}

/// The work queue metrics carry the queue's name and its controller's (the same here).
fn queue(name: &str) -> Labels {
    vec![("name".into(), name.into()), ("controller".into(), name.into())]
}

impl Metrics {
    pub(crate) fn configured(&self, name: &str, concurrency: u16) {
        self.max_concurrent.get_or_create(&controller(name)).set(i64::from(concurrency));
    }

    pub(crate) fn started(&self, name: &str) {
        self.active.get_or_create(&controller(name)).inc();
    }

    pub(crate) fn finished(&self, name: &str, result: &str, seconds: f64) {
        self.active.get_or_create(&controller(name)).dec();
        let mut labels = controller(name);
        labels.push(("result".into(), result.into()));
        self.reconciles.get_or_create(&labels).inc();
        if result == "error" {
            self.errors.get_or_create(&controller(name)).inc();
        }
        self.duration.get_or_create(&controller(name)).observe(seconds);
    }

    pub(crate) fn retried(&self, name: &str) {
        self.retries.get_or_create(&queue(name)).inc();
    }

    pub(crate) fn queued(&self, name: &str, depth: usize) {
        self.adds.get_or_create(&queue(name)).inc();
        self.depth.get_or_create(&queue(name)).set(i64::try_from(depth).unwrap_or(i64::MAX));
    }

    pub(crate) fn dequeued(&self, name: &str, depth: usize, waited: Option<f64>) {
        self.depth.get_or_create(&queue(name)).set(i64::try_from(depth).unwrap_or(i64::MAX));
        if let Some(seconds) = waited {
            self.queue_duration.get_or_create(&queue(name)).observe(seconds);
        }
    }

    pub(crate) fn shard_objects(&self, name: &str, shard: &str, objects: usize) {
        let labels = vec![("controller".into(), name.into()), ("shard".into(), shard.into())];
        self.shard_objects.get_or_create(&labels).set(i64::try_from(objects).unwrap_or(i64::MAX));
    }

    pub(crate) fn shard_released(&self, name: &str, shard: &str) {
        let labels = vec![("controller".into(), name.into()), ("shard".into(), shard.into())];
        self.shard_releases.get_or_create(&labels).inc();
    }

    pub(crate) fn ring_shards(&self, name: &str, shards: usize) {
        self.ring_shards.get_or_create(&controller(name)).set(i64::try_from(shards).unwrap_or(i64::MAX));
    }

    pub(crate) fn sharder_drained(&self, name: &str) {
        self.drains.get_or_create(&controller(name)).inc();
    }

    pub(crate) fn sharder_child_labelled(&self, name: &str) {
        self.children_labelled.get_or_create(&controller(name)).inc();
    }

    pub(crate) fn sharder_assigned(&self, name: &str, moved: bool, handoff: Option<f64>) {
        let mut labels = controller(name);
        labels.push(("reason".into(), if moved { "moved" } else { "new" }.into()));
        self.assignments.get_or_create(&labels).inc();
        if let Some(seconds) = handoff {
            self.handoff.get_or_create(&controller(name)).observe(seconds);
        }
    }

    /// Reconciles of `name` that ended with `result` (`success`, `requeue_after`, `error`).
    pub fn reconciles(&self, name: &str, result: &str) -> u64 {
        let mut labels = controller(name);
        labels.push(("result".into(), result.into()));
        self.reconciles.get_or_create(&labels).get()
    }

    /// Objects of controller `name` waiting for a worker now.
    pub fn queue_depth(&self, name: &str) -> i64 {
        self.depth.get_or_create(&queue(name)).get()
    }

    /// The Prometheus text exposition of every metric.
    pub fn encode(&self) -> String {
        let mut out = String::new();
        let registry = self.registry.lock().unwrap_or_else(|e| e.into_inner());
        let _ = prometheus_client::encoding::text::encode(&mut out, &registry);
        out
    }
}
