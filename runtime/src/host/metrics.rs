//! Prometheus metrics of the reconciler host, in the names controller-runtime uses
//! (`controller_runtime_reconcile_total{controller,result}`, ...), so existing
//! dashboards and alerts work.

use std::sync::Mutex;

use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

type Labels = Vec<(String, String)>;

pub struct Metrics {
    registry: Mutex<Registry>,
    reconciles: Family<Labels, Counter>,
    errors: Family<Labels, Counter>,
    retries: Family<Labels, Counter>,
    active: Family<Labels, Gauge>,
    duration: Family<Labels, Histogram>,
}

impl Default for Metrics {
    fn default() -> Self {
        let mut registry = Registry::default();
        let reconciles = Family::<Labels, Counter>::default();
        let errors = Family::<Labels, Counter>::default();
        let retries = Family::<Labels, Counter>::default();
        let active = Family::<Labels, Gauge>::default();
        let duration =
            Family::<Labels, Histogram>::new_with_constructor(|| Histogram::new(exponential_buckets(0.005, 2.0, 16)));
        registry.register("controller_runtime_reconcile", "Reconciles by controller and result", reconciles.clone());
        registry.register("controller_runtime_reconcile_errors", "Reconciles that returned an error", errors.clone());
        registry.register("workqueue_retries", "Objects requeued after an error", retries.clone());
        registry.register(
            "controller_runtime_active_workers",
            "Reconciles running now (the work in flight)",
            active.clone(),
        );
        registry.register("controller_runtime_reconcile_time_seconds", "Time per reconcile", duration.clone());
        Metrics { registry: Mutex::new(registry), reconciles, errors, retries, active, duration }
    }
}

fn controller(name: &str) -> Labels {
    vec![("controller".into(), name.into())]
}

impl Metrics {
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
        self.retries.get_or_create(&controller(name)).inc();
    }

    /// Reconciles of `name` that ended with `result` (`success`, `requeue`, `error`).
    pub fn reconciles(&self, name: &str, result: &str) -> u64 {
        let mut labels = controller(name);
        labels.push(("result".into(), result.into()));
        self.reconciles.get_or_create(&labels).get()
    }

    /// The Prometheus text exposition of every metric.
    pub fn encode(&self) -> String {
        let mut out = String::new();
        let registry = self.registry.lock().unwrap_or_else(|e| e.into_inner());
        let _ = prometheus_client::encoding::text::encode(&mut out, &registry);
        out
    }
}
