//! Prometheus metrics of the reconciler host, in the names and labels controller-runtime
//! uses (`controller_runtime_reconcile_total{controller,result}`,
//! `workqueue_depth{name,controller}`, ...), so existing dashboards and alerts work; and
//! the process's own figures (`process_cpu_seconds_total`, `process_resident_memory_bytes`,
//! ...) that the Prometheus clients' process collector serves from every controller-runtime
//! manager.

use std::fmt;
use std::sync::Mutex;

use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeMetric};
use prometheus_client::metrics::counter::ConstCounter;
use prometheus_client::metrics::gauge::ConstGauge;

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

/// The `result` label of `controller_runtime_reconcile_total`: what a reconcile returned.
pub(crate) const RESULTS: [&str; 3] = ["success", "requeue_after", "error"];

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
        registry.register_collector(Box::new(Process));
        m
    }
}

/// The process's CPU time, memory, file descriptors and start time, read from `/proc` at
/// each scrape in the names of the Prometheus clients' process collector (client_golang's,
/// which every controller-runtime manager serves). Where there is no `/proc` (not Linux)
/// nothing is written.
#[derive(Debug)]
struct Process;

/// What `/proc/self` says of this process.
#[derive(Debug, PartialEq)]
struct ProcessFigures {
    cpu_seconds: f64,
    resident_bytes: u64,
    virtual_bytes: u64,
    start_time_seconds: f64,
    open_fds: Option<u64>,
    max_fds: Option<u64>,
}

/// /proc/<pid>/stat's times are in USER_HZ, 100 on every Linux (as client_golang assumes).
const USER_HZ: f64 = 100.0;

impl ProcessFigures {
    fn read() -> Option<Self> {
        let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let boot = std::fs::read_to_string("/proc/stat").ok()?;
        let mut figures = Self::parse(&stat, &status, &boot)?;
        figures.open_fds = std::fs::read_dir("/proc/self/fd").ok().map(|d| d.count() as u64);
        figures.max_fds = std::fs::read_to_string("/proc/self/limits").ok().as_deref().and_then(max_open_files);
        Some(figures)
    }

    /// From /proc/self/stat (after the command's closing parenthesis: field 3 on),
    /// /proc/self/status (`VmRSS`, in kB) and /proc/stat (`btime`, the boot time).
    fn parse(stat: &str, status: &str, boot: &str) -> Option<Self> {
        let fields: Vec<&str> = stat.get(stat.rfind(')')? + 1..)?.split_whitespace().collect();
        // Field n of proc(5) is fields[n - 3].
        let field = |n: usize| fields.get(n - 3).and_then(|f| f.parse::<u64>().ok());
        let ticks = field(14)? + field(15)?;
        let boot_time = boot.lines().find_map(|l| l.strip_prefix("btime "))?.trim().parse::<u64>().ok()?;
        let rss_kb = status.lines().find_map(|l| l.strip_prefix("VmRSS:"))?.trim().strip_suffix("kB")?.trim();
        Some(ProcessFigures {
            cpu_seconds: ticks as f64 / USER_HZ,
            resident_bytes: rss_kb.parse::<u64>().ok()? * 1024,
            virtual_bytes: field(23)?,
            start_time_seconds: boot_time as f64 + field(22)? as f64 / USER_HZ,
            open_fds: None,
            max_fds: None,
        })
    }
}

/// The soft limit of `Max open files` in /proc/self/limits.
fn max_open_files(limits: &str) -> Option<u64> {
    let line = limits.lines().find_map(|l| l.strip_prefix("Max open files"))?;
    line.split_whitespace().next()?.parse().ok()
}

impl Collector for Process {
    fn encode(&self, mut encoder: DescriptorEncoder) -> fmt::Result {
        let Some(p) = ProcessFigures::read() else { return Ok(()) };
        let cpu = ConstCounter::new(p.cpu_seconds);
        cpu.encode(encoder.encode_descriptor(
            "process_cpu_seconds",
            "Total user and system CPU time spent in seconds.",
            None,
            cpu.metric_type(),
        )?)?;
        let mut gauge = |name: &str, help: &str, value: f64| {
            let gauge = ConstGauge::new(value);
            gauge.encode(encoder.encode_descriptor(name, help, None, gauge.metric_type())?)
        };
        gauge("process_resident_memory_bytes", "Resident memory size in bytes.", p.resident_bytes as f64)?;
        gauge("process_virtual_memory_bytes", "Virtual memory size in bytes.", p.virtual_bytes as f64)?;
        gauge(
            "process_start_time_seconds",
            "Start time of the process since unix epoch in seconds.",
            p.start_time_seconds,
        )?;
        if let Some(open) = p.open_fds {
            gauge("process_open_fds", "Number of open file descriptors.", open as f64)?;
        }
        if let Some(max) = p.max_fds {
            gauge("process_max_fds", "Maximum number of open file descriptors.", max as f64)?;
        }
        Ok(())
    }
}

/// Handoff buckets: 50 ms doubling to about 27 minutes.
fn handoff_buckets() -> Histogram {
    Histogram::new(exponential_buckets(0.05, 2.0, 16))
}

fn controller(name: &str) -> Labels {
    vec![("controller".into(), name.into())]
}

/// A controller's labels and one more: its `result`, `reason` or `shard`.
fn controller_and(name: &str, key: &str, value: &str) -> Labels {
    vec![("controller".into(), name.into()), (key.into(), value.into())]
}

/// The work queue metrics carry the queue's name and its controller's (the same here).
fn queue(name: &str) -> Labels {
    vec![("name".into(), name.into()), ("controller".into(), name.into())]
}

impl Metrics {
    /// A controller starts: its series exist from now on, at zero (as controller-runtime
    /// adds 0 to its counters at start), so a dashboard or an alert on a rate finds 0 rather
    /// than no data before the first reconcile, error or retry.
    pub(crate) fn configured(&self, name: &str, concurrency: u16) {
        self.max_concurrent.get_or_create(&controller(name)).set(i64::from(concurrency));
        for result in RESULTS {
            let labels = controller_and(name, "result", result);
            let _ = self.reconciles.get_or_create(&labels);
        }
        let _ = self.errors.get_or_create(&controller(name));
        let _ = self.active.get_or_create(&controller(name));
        let _ = self.duration.get_or_create(&controller(name));
        let _ = self.depth.get_or_create(&queue(name));
        let _ = self.adds.get_or_create(&queue(name));
        let _ = self.retries.get_or_create(&queue(name));
        let _ = self.queue_duration.get_or_create(&queue(name));
    }

    /// A shard starts: its series exist from now on (see `configured`).
    pub(crate) fn shard_started(&self, name: &str, shard: &str) {
        let labels = controller_and(name, "shard", shard);
        let _ = self.shard_objects.get_or_create(&labels);
        let _ = self.shard_releases.get_or_create(&labels);
    }

    /// This replica is no longer the sharder: its view of the ring is not served any more
    /// (the dashboards' "live shards" takes the largest value any replica serves).
    pub(crate) fn sharder_stopped(&self) {
        self.ring_shards.clear();
    }

    /// This replica becomes the sharder: its series exist from now on (see `configured`).
    pub(crate) fn sharder_started(&self, name: &str) {
        let _ = self.ring_shards.get_or_create(&controller(name));
        for reason in ["new", "moved"] {
            let labels = controller_and(name, "reason", reason);
            let _ = self.assignments.get_or_create(&labels);
        }
        let _ = self.drains.get_or_create(&controller(name));
        let _ = self.children_labelled.get_or_create(&controller(name));
        let _ = self.handoff.get_or_create(&controller(name));
    }

    pub(crate) fn started(&self, name: &str) {
        self.active.get_or_create(&controller(name)).inc();
    }

    pub(crate) fn finished(&self, name: &str, result: &str, seconds: f64) {
        self.active.get_or_create(&controller(name)).dec();
        let labels = controller_and(name, "result", result);
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
        let labels = controller_and(name, "shard", shard);
        self.shard_objects.get_or_create(&labels).set(i64::try_from(objects).unwrap_or(i64::MAX));
    }

    pub(crate) fn shard_released(&self, name: &str, shard: &str) {
        let labels = controller_and(name, "shard", shard);
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
        let labels = controller_and(name, "reason", if moved { "moved" } else { "new" });
        self.assignments.get_or_create(&labels).inc();
        if let Some(seconds) = handoff {
            self.handoff.get_or_create(&controller(name)).observe(seconds);
        }
    }

    /// Reconciles of `name` that ended with `result` (`success`, `requeue_after`, `error`).
    pub fn reconciles(&self, name: &str, result: &str) -> u64 {
        let labels = controller_and(name, "result", result);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn process_figures_are_read_as_proc_5_lays_them_out() {
        // A command with a space and a parenthesis: fields are counted after the last ')'.
        let stat = "4242 (my (op) x) S 1 4242 4242 0 -1 4194560 900 0 0 0 250 50 0 0 20 0 9 0 1234 73400320 3000 18446744073709551615";
        let status = "Name:\tmy-op\nVmPeak:\t  80000 kB\nVmRSS:\t   12000 kB\nThreads:\t9\n";
        let boot = "cpu  1 2 3\nbtime 1700000000\nprocesses 10\n";
        let p = ProcessFigures::parse(stat, status, boot).expect("parsed");
        assert_eq!(p.cpu_seconds, 3.0);
        assert_eq!(p.resident_bytes, 12_000 * 1024);
        assert_eq!(p.virtual_bytes, 73_400_320);
        assert_eq!(p.start_time_seconds, 1_700_000_012.34);
        assert_eq!(ProcessFigures::parse("4242 (short) S 1", status, boot), None);
        let limits = "Limit                     Soft Limit           Hard Limit           Units\nMax open files            1024                 524288               files\n";
        assert_eq!(max_open_files(limits), Some(1024));
    }

    #[test]
    fn the_exposition_has_the_process_collectors_names() {
        let text = Metrics::default().encode();
        if std::path::Path::new("/proc/self/stat").exists() {
            for name in [
                "process_cpu_seconds_total ",
                "process_resident_memory_bytes ",
                "process_virtual_memory_bytes ",
                "process_start_time_seconds ",
                "process_open_fds ",
                "process_max_fds ",
            ] {
                assert!(text.lines().any(|l| l.starts_with(name)), "no {name}in\n{text}");
            }
            let rss: f64 = text
                .lines()
                .find_map(|l| l.strip_prefix("process_resident_memory_bytes "))
                .and_then(|v| v.trim().parse().ok())
                .expect("a value");
            assert!(rss > 1e6, "{rss}");
        }
    }

    #[test]
    fn a_started_controller_shard_and_sharder_have_every_series_at_zero() {
        let metrics = Metrics::default();
        metrics.configured("foo", 2);
        metrics.shard_started("foo", "replica-0");
        metrics.sharder_started("foo");
        let text = metrics.encode();
        for line in [
            r#"controller_runtime_reconcile_total{controller="foo",result="success"} 0"#,
            r#"controller_runtime_reconcile_total{controller="foo",result="error"} 0"#,
            r#"controller_runtime_reconcile_errors_total{controller="foo"} 0"#,
            r#"controller_runtime_active_workers{controller="foo"} 0"#,
            r#"controller_runtime_max_concurrent_reconciles{controller="foo"} 2"#,
            r#"controller_runtime_reconcile_time_seconds_count{controller="foo"} 0"#,
            r#"workqueue_depth{name="foo",controller="foo"} 0"#,
            r#"workqueue_adds_total{name="foo",controller="foo"} 0"#,
            r#"workqueue_retries_total{name="foo",controller="foo"} 0"#,
            r#"workqueue_queue_duration_seconds_count{name="foo",controller="foo"} 0"#,
            r#"kubegen_shard_objects{controller="foo",shard="replica-0"} 0"#,
            r#"kubegen_shard_releases_total{controller="foo",shard="replica-0"} 0"#,
            r#"kubegen_sharder_ring_shards{controller="foo"} 0"#,
            r#"kubegen_sharder_assignments_total{controller="foo",reason="moved"} 0"#,
            r#"kubegen_sharder_drains_total{controller="foo"} 0"#,
            r#"kubegen_sharder_children_labelled_total{controller="foo"} 0"#,
            r#"kubegen_sharder_handoff_seconds_count{controller="foo"} 0"#,
        ] {
            assert!(text.lines().any(|l| l == line), "no `{line}` in\n{text}");
        }
    }
}
