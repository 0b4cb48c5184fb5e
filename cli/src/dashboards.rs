//! `codegen-cli create dashboards`: Grafana dashboards for the metrics a kubegen manager
//! serves on `/metrics` (kubebuilder's `grafana/v1-alpha` plugin writes the same two for
//! controller-runtime; a third here for the sharding metrics). Each dashboard is built as
//! Grafana's JSON model from the names `kubegen::host` registers, one query per panel
//! target, with a data source variable (so it imports into any Grafana with a Prometheus
//! data source) and `job` and `controller` variables.
//!
//! The files are the user's once written: a second run keeps a file that differs from
//! what it would write (and says so) unless `--force`; an unchanged file is left as is.

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde_json::{Value, json};

use crate::output::Output;

/// The dashboards' directory, under the workspace root (kubebuilder's `grafana/`).
pub const DIR: &str = "grafana";

/// Where a panel's query reads from: the dashboard's data source variable.
fn datasource() -> Value {
    json!({ "type": "prometheus", "uid": "${datasource}" })
}

/// The selector every query of a controller's series carries.
const CONTROLLER: &str = r#"job="$job", controller=~"$controller""#;
/// The work queue's series name their queue `name` (the controller's name here).
const QUEUE: &str = r#"job="$job", name=~"$controller""#;

/// A time series panel: its queries (expression, legend), the unit of its values.
struct Panel {
    title: &'static str,
    description: &'static str,
    unit: &'static str,
    queries: Vec<(String, &'static str)>,
}

fn panel(
    title: &'static str,
    description: &'static str,
    unit: &'static str,
    queries: Vec<(String, &'static str)>,
) -> Panel {
    Panel { title, description, unit, queries }
}

/// `rate(<metric>{<selector>}[$__rate_interval])` summed by `by`.
fn rate(metric: &str, selector: &str, by: &str) -> String {
    format!("sum by ({by}) (rate({metric}{{{selector}}}[$__rate_interval]))")
}

/// The `q` quantile of a histogram's buckets, by `by`.
fn quantile(q: &str, metric: &str, selector: &str, by: &str) -> String {
    format!("histogram_quantile({q}, sum by ({by}, le) (rate({metric}_bucket{{{selector}}}[$__rate_interval])))")
}

/// p50, p90 and p99 of a histogram, one query each.
fn quantiles(metric: &str, selector: &str, by: &str) -> Vec<(String, &'static str)> {
    vec![
        (quantile("0.5", metric, selector, by), "p50 {{controller}}{{name}}"),
        (quantile("0.9", metric, selector, by), "p90 {{controller}}{{name}}"),
        (quantile("0.99", metric, selector, by), "p99 {{controller}}{{name}}"),
    ]
}

/// Rows of panels, two panels a row of the grid.
struct Dashboard {
    file: &'static str,
    title: &'static str,
    description: &'static str,
    /// The metric whose series name the `job` (and `controller`) values.
    anchor: &'static str,
    controller_variable: bool,
    rows: Vec<(&'static str, Vec<Panel>)>,
}

fn runtime() -> Dashboard {
    Dashboard {
        file: "controller-runtime-metrics.json",
        title: "Controller runtime",
        description: "Reconciles, errors, reconcile time, workers and work queues of the controllers a kubegen manager runs (controller-runtime's metric names).",
        anchor: "controller_runtime_reconcile_total",
        controller_variable: true,
        rows: vec![
            (
                "Reconciles",
                vec![
                    panel(
                        "Reconciles per second, by result",
                        "controller_runtime_reconcile_total: success, requeue_after (the reconciler asked to run again later) or error.",
                        "ops",
                        vec![(
                            rate("controller_runtime_reconcile_total", CONTROLLER, "controller, result"),
                            "{{controller}} {{result}}",
                        )],
                    ),
                    panel(
                        "Reconcile errors per second",
                        "controller_runtime_reconcile_errors_total: reconciles that returned an error (a panic counts as one); each is retried with backoff.",
                        "ops",
                        vec![(
                            rate("controller_runtime_reconcile_errors_total", CONTROLLER, "controller"),
                            "{{controller}}",
                        )],
                    ),
                    panel(
                        "Reconcile time",
                        "controller_runtime_reconcile_time_seconds: how long a reconcile runs, from its start to its result.",
                        "s",
                        quantiles("controller_runtime_reconcile_time_seconds", CONTROLLER, "controller"),
                    ),
                    panel(
                        "Workers busy, of the most allowed",
                        "controller_runtime_active_workers against controller_runtime_max_concurrent_reconciles, summed over the replicas (several when sharded): at the top for long, objects wait in the queue.",
                        "short",
                        vec![
                            (
                                format!("sum by (controller) (controller_runtime_active_workers{{{CONTROLLER}}})"),
                                "busy {{controller}}",
                            ),
                            (
                                format!(
                                    "sum by (controller) (controller_runtime_max_concurrent_reconciles{{{CONTROLLER}}})"
                                ),
                                "most {{controller}}",
                            ),
                        ],
                    ),
                ],
            ),
            (
                "Work queue",
                vec![
                    panel(
                        "Objects waiting",
                        "workqueue_depth: objects in the queue for a worker.",
                        "short",
                        vec![(format!("sum by (name) (workqueue_depth{{{QUEUE}}})"), "{{name}}")],
                    ),
                    panel(
                        "Time in the queue",
                        "workqueue_queue_duration_seconds: from an object's turn in the queue to a worker taking it.",
                        "s",
                        quantiles("workqueue_queue_duration_seconds", QUEUE, "name"),
                    ),
                    panel(
                        "Adds per second",
                        "workqueue_adds_total: objects put in the queue (changes, requeues, retries).",
                        "ops",
                        vec![(rate("workqueue_adds_total", QUEUE, "name"), "{{name}}")],
                    ),
                    panel(
                        "Retries per second",
                        "workqueue_retries_total: objects requeued after an error, with backoff.",
                        "ops",
                        vec![(rate("workqueue_retries_total", QUEUE, "name"), "{{name}}")],
                    ),
                ],
            ),
        ],
    }
}

fn resources() -> Dashboard {
    let job = r#"job="$job""#;
    Dashboard {
        file: "controller-resources-metrics.json",
        title: "Controller resources",
        description: "CPU, memory and file descriptors of each manager process (the process_* metrics a kubegen manager serves, as every controller-runtime manager does).",
        anchor: "process_resident_memory_bytes",
        controller_variable: false,
        rows: vec![(
            "Process",
            vec![
                panel(
                    "CPU",
                    "process_cpu_seconds_total: CPU seconds per second, 1 being one core.",
                    "short",
                    vec![(format!("rate(process_cpu_seconds_total{{{job}}}[$__rate_interval])"), "{{instance}}")],
                ),
                panel(
                    "Resident memory",
                    "process_resident_memory_bytes: the process's memory in RAM.",
                    "bytes",
                    vec![(format!("process_resident_memory_bytes{{{job}}}"), "{{instance}}")],
                ),
                panel(
                    "Open file descriptors, of the most allowed",
                    "process_open_fds against process_max_fds: connections, watches and files held.",
                    "short",
                    vec![
                        (format!("process_open_fds{{{job}}}"), "open {{instance}}"),
                        (format!("process_max_fds{{{job}}}"), "most {{instance}}"),
                    ],
                ),
                panel(
                    "Uptime",
                    "time() - process_start_time_seconds: a drop is a restart.",
                    "s",
                    vec![(format!("time() - process_start_time_seconds{{{job}}}"), "{{instance}}")],
                ),
            ],
        )],
    }
}

fn sharding() -> Dashboard {
    Dashboard {
        file: "kubegen-sharding-metrics.json",
        title: "Controller sharding",
        description: "Sharded controllers (`--sharding`): objects per shard, the ring the sharder sees, assignments, drains and handoff time.",
        anchor: "kubegen_shard_objects",
        controller_variable: true,
        rows: vec![(
            "Shards",
            vec![
                panel(
                    "Objects per shard",
                    "kubegen_shard_objects: objects in each shard's cache.",
                    "short",
                    vec![(
                        format!("sum by (controller, shard) (kubegen_shard_objects{{{CONTROLLER}}})"),
                        "{{controller}} {{shard}}",
                    )],
                ),
                panel(
                    "Live shards",
                    "kubegen_sharder_ring_shards: shards in the ring, as the sharder (one replica) sees their leases.",
                    "short",
                    vec![(
                        format!("max by (controller) (kubegen_sharder_ring_shards{{{CONTROLLER}}})"),
                        "{{controller}}",
                    )],
                ),
                panel(
                    "Assignments per second, by reason",
                    "kubegen_sharder_assignments_total: objects labelled with a shard, new or moved (from a shard gone or drained).",
                    "ops",
                    vec![(
                        rate("kubegen_sharder_assignments_total", CONTROLLER, "controller, reason"),
                        "{{controller}} {{reason}}",
                    )],
                ),
                panel(
                    "Handoff time",
                    "kubegen_sharder_handoff_seconds: from draining an object to assigning it to its new shard.",
                    "s",
                    quantiles("kubegen_sharder_handoff_seconds", CONTROLLER, "controller"),
                ),
                panel(
                    "Drains and releases per second",
                    "kubegen_sharder_drains_total: objects the sharder asked their shard to let go; kubegen_shard_releases_total: objects each shard let go.",
                    "ops",
                    vec![
                        (rate("kubegen_sharder_drains_total", CONTROLLER, "controller"), "drained {{controller}}"),
                        (rate("kubegen_shard_releases_total", CONTROLLER, "controller, shard"), "released {{shard}}"),
                    ],
                ),
                panel(
                    "Owned objects labelled per second",
                    "kubegen_sharder_children_labelled_total: owned objects given their owner's shard.",
                    "ops",
                    vec![(rate("kubegen_sharder_children_labelled_total", CONTROLLER, "controller"), "{{controller}}")],
                ),
            ],
        )],
    }
}

/// Every dashboard `create dashboards` writes.
fn all() -> [Dashboard; 3] {
    [runtime(), resources(), sharding()]
}

/// A template variable of values of `label` on `metric`'s series.
fn label_variable(name: &str, label: &str, query: &str, all: bool) -> Value {
    json!({
        "name": name,
        "label": label,
        "type": "query",
        "datasource": datasource(),
        "query": { "query": query, "refId": format!("{name}-values") },
        "refresh": 2,
        "sort": 1,
        "includeAll": all,
        "multi": all,
        "hide": 0,
        "skipUrlSync": false,
        "options": [],
    })
}

/// A dashboard's uid: the project's name and the dashboard's, within Grafana's 40
/// characters; a long project name is cut, never the dashboard's part (the three differ).
fn uid(project: &str, file: &str) -> String {
    let what = file.trim_end_matches(".json").trim_end_matches("-metrics");
    let room = 40 - what.len() - 1;
    let cut = (0..=room.min(project.len())).rev().find(|&i| project.is_char_boundary(i)).unwrap_or(0);
    format!("{}-{what}", &project[..cut])
}

impl Dashboard {
    fn json(&self, project: &str) -> Value {
        let mut panels = Vec::new();
        let mut id = 0;
        let mut y = 0;
        for (row, row_panels) in &self.rows {
            id += 1;
            panels.push(json!({
                "type": "row",
                "id": id,
                "title": row,
                "collapsed": false,
                "gridPos": { "h": 1, "w": 24, "x": 0, "y": y },
                "panels": [],
            }));
            y += 1;
            for (i, p) in row_panels.iter().enumerate() {
                id += 1;
                let targets: Vec<Value> = p
                    .queries
                    .iter()
                    .zip('A'..)
                    .map(|((expr, legend), ref_id)| {
                        json!({
                            "datasource": datasource(),
                            "expr": expr,
                            "legendFormat": legend,
                            "range": true,
                            "refId": ref_id.to_string(),
                        })
                    })
                    .collect();
                panels.push(json!({
                    "type": "timeseries",
                    "id": id,
                    "title": p.title,
                    "description": p.description,
                    "datasource": datasource(),
                    "gridPos": { "h": 8, "w": 12, "x": if i % 2 == 0 { 0 } else { 12 }, "y": y + 8 * (i / 2) },
                    "targets": targets,
                    "fieldConfig": { "defaults": { "unit": p.unit }, "overrides": [] },
                    "options": {
                        "legend": { "displayMode": "list", "placement": "bottom", "showLegend": true, "calcs": [] },
                        "tooltip": { "mode": "multi", "sort": "desc" },
                    },
                }));
            }
            y += 8 * row_panels.len().div_ceil(2);
        }
        let mut variables = vec![json!({
            "name": "datasource",
            "label": "Data source",
            "type": "datasource",
            "query": "prometheus",
            "hide": 0,
            "skipUrlSync": false,
            "options": [],
        })];
        variables.push(label_variable("job", "Job", &format!("label_values({}, job)", self.anchor), false));
        if self.controller_variable {
            let query = format!(r#"label_values({}{{job="$job"}}, controller)"#, self.anchor);
            variables.push(label_variable("controller", "Controller", &query, true));
        }
        json!({
            "title": format!("{project} / {}", self.title),
            "uid": uid(project, self.file),
            "description": format!("{} Written by `codegen-cli create dashboards`.", self.description),
            "tags": ["kubegen", "controller-runtime"],
            "editable": true,
            "graphTooltip": 1,
            "schemaVersion": 39,
            "version": 1,
            "refresh": "30s",
            "time": { "from": "now-1h", "to": "now" },
            "timepicker": {},
            "timezone": "browser",
            "annotations": { "list": [] },
            "links": [],
            "templating": { "list": variables },
            "panels": panels,
        })
    }
}

/// The files `create dashboards` writes under `<root>/grafana`, as text (two-space JSON).
pub fn outputs(root: &Path, project: &str, force: bool) -> Result<Vec<Output>> {
    all()
        .iter()
        .map(|d| {
            let text = serde_json::to_string_pretty(&d.json(project))? + "\n";
            let path: PathBuf = root.join(DIR).join(d.file);
            Ok(if force { Output::generated(path, text) } else { Output::scaffolded(path, text) })
        })
        .collect()
}

/// Every PromQL expression and variable query of the dashboards, for tests.
#[cfg(test)]
fn queries(project: &str) -> Vec<String> {
    let mut out = Vec::new();
    for d in all() {
        let v = d.json(project);
        for p in v["panels"].as_array().into_iter().flatten() {
            for t in p["targets"].as_array().into_iter().flatten() {
                out.push(t["expr"].as_str().unwrap_or_default().to_string());
            }
        }
        for var in v["templating"]["list"].as_array().into_iter().flatten() {
            if let Some(q) = var["query"]["query"].as_str() {
                out.push(q.to_string());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panels_have_unique_ids_and_do_not_overlap_on_the_grid() {
        for d in all() {
            let v = d.json("memcached-operator");
            let panels = v["panels"].as_array().unwrap();
            let mut ids: Vec<u64> = panels.iter().map(|p| p["id"].as_u64().unwrap()).collect();
            ids.sort();
            ids.dedup();
            assert_eq!(ids.len(), panels.len(), "{}", d.file);
            let cells: Vec<(u64, u64, u64, u64)> = panels
                .iter()
                .map(|p| {
                    let g = &p["gridPos"];
                    (
                        g["x"].as_u64().unwrap(),
                        g["y"].as_u64().unwrap(),
                        g["w"].as_u64().unwrap(),
                        g["h"].as_u64().unwrap(),
                    )
                })
                .collect();
            for (i, a) in cells.iter().enumerate() {
                assert!(a.0 + a.2 <= 24, "{}: panel {i} is wider than the grid", d.file);
                for b in &cells[i + 1..] {
                    let apart = a.0 + a.2 <= b.0 || b.0 + b.2 <= a.0 || a.1 + a.3 <= b.1 || b.1 + b.3 <= a.1;
                    assert!(apart, "{}: panels {a:?} and {b:?} overlap", d.file);
                }
            }
            assert!(v["uid"].as_str().unwrap().len() <= 40);
        }
    }

    #[test]
    fn every_query_reads_from_the_variables_and_the_output_is_stable() {
        for q in queries("p") {
            if !q.starts_with("label_values") && !q.starts_with("time()") {
                assert!(q.contains(r#"job="$job""#), "{q}");
            }
        }
        let root = Path::new("/w");
        let a = outputs(root, "p", false).unwrap();
        let b = outputs(root, "p", false).unwrap();
        assert_eq!(
            a.iter().map(|o| &o.contents).collect::<Vec<_>>(),
            b.iter().map(|o| &o.contents).collect::<Vec<_>>()
        );
        assert_eq!(a.len(), 3);
        assert!(a.iter().all(|o| o.path.starts_with("/w/grafana") && !o.overwrite));
        assert!(outputs(root, "p", true).unwrap().iter().all(|o| o.overwrite));
    }

    #[test]
    fn a_long_project_name_keeps_the_uid_within_grafanas_limit() {
        let u = uid(&"x".repeat(60), "controller-runtime-metrics.json");
        assert_eq!(u.len(), 40);
        for long in ["inventory-management-operator".to_string(), "x".repeat(60)] {
            let mut uids: Vec<String> = all().iter().map(|d| uid(&long, d.file)).collect();
            uids.sort();
            uids.dedup();
            assert_eq!(uids.len(), 3, "{uids:?}");
        }
        assert_eq!(
            uid("memcached-operator", "controller-runtime-metrics.json"),
            "memcached-operator-controller-runtime"
        );
    }
}
