//! The host's helpers for what a controller-runtime user reaches for first, on a real API
//! server through `kubegen::testenv`: the generation-changed filter, the controller's
//! cache, and deletes whose cleanup races the object's removal. Ignored by default like
//! the e2e tier; `scripts/e2e.sh` runs them with KUBEBUILDER_ASSETS set.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use foo_controller::{Foo, FooSpec, FooStatus};
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
use kube::runtime::reflector::{ObjectRef, Store};
use kube::{Client, ResourceExt};
use kubegen::CustomResourceExt;
use kubegen::host::{Action, Controller, Manager, ManagerError, Metrics, Reconciler, Stop, patch_status};
use kubegen::testenv::TestEnv;

/// Counts reconciles; its cleanup writes status, as a controller reporting "Terminating" does.
struct Counting {
    client: Client,
    reconciles: Arc<AtomicUsize>,
}

impl Reconciler<Foo> for Counting {
    type Error = kube::Error;

    async fn reconcile(&self, _: Arc<Foo>) -> Result<Action, kube::Error> {
        self.reconciles.fetch_add(1, Ordering::SeqCst);
        Ok(Action::await_change())
    }

    async fn cleanup(&self, foo: Arc<Foo>) -> Result<Action, kube::Error> {
        let api: Api<Foo> = Api::namespaced(self.client.clone(), &foo.namespace().unwrap_or_default());
        patch_status(&api, &foo.name_any(), &FooStatus { available_replicas: 0 }).await?;
        Ok(Action::await_change())
    }
}

/// Everything this test binary logs, at debug level: one subscriber for the process, as
/// a binary installs it (a thread's own would miss what other threads' tests make tracing
/// cache as uninteresting).
#[derive(Clone, Default)]
struct Logs(Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Logs {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("the log buffer").extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Logs {
    fn global() -> &'static Logs {
        static LOGS: std::sync::OnceLock<Logs> = std::sync::OnceLock::new();
        LOGS.get_or_init(|| {
            let logs = Logs::default();
            let writer = logs.clone();
            tracing_subscriber::fmt()
                .with_max_level(tracing::Level::DEBUG)
                .with_ansi(false)
                .with_writer(move || writer.clone())
                .init();
            logs
        })
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().expect("the log buffer")).into_owned()
    }
}

async fn settle() {
    tokio::time::sleep(Duration::from_millis(1500)).await;
}

/// A test environment with the Foo CRD and one Foo controller running in a manager.
struct Running {
    foos: Api<Foo>,
    cache: Store<Foo>,
    metrics: Arc<Metrics>,
    stop: Stop,
    task: tokio::task::JoinHandle<Result<(), ManagerError>>,
    _env: TestEnv,
}

impl Running {
    async fn start(configure: impl FnOnce(Controller<Foo>) -> Controller<Foo>, reconciles: Arc<AtomicUsize>) -> Self {
        let env = TestEnv::start().await.expect("the test environment starts");
        env.install_crds(vec![Foo::crd()]).await.expect("the CRD is installed");
        let client = env.client();
        let foos: Api<Foo> = Api::namespaced(client.clone(), "default");
        let controller = configure(Controller::new(foos.clone()));
        let cache = controller.cache();
        let manager = Manager::new(client.clone()).add(controller, Arc::new(Counting { client, reconciles }));
        let (metrics, stop) = (manager.metrics(), manager.stop_handle());
        Running { foos, cache, metrics, stop, task: tokio::spawn(manager.run()), _env: env }
    }

    async fn finish(self) {
        self.stop.trigger();
        self.task.await.expect("the manager task ends").expect("the manager stops cleanly");
    }
}

#[tokio::test]
#[ignore = "needs etcd and kube-apiserver in $KUBEBUILDER_ASSETS; run by scripts/e2e.sh"]
async fn generation_filter_and_cache() {
    let logs = Logs::global();
    let reconciles = Arc::new(AtomicUsize::new(0));
    let configure = |c: Controller<Foo>| c.generation_changed().with_finalizer("test.kubegen.dev/cleanup");
    let running = Running::start(configure, reconciles.clone()).await;
    let (foos, cache) = (&running.foos, &running.cache);

    let foo = Foo::new("web", FooSpec { deployment_name: "web".into(), replicas: Some(1) });
    foos.create(&PostParams::default(), &foo).await.expect("created");
    settle().await;
    let first = reconciles.load(Ordering::SeqCst);
    assert!(first >= 1, "the new Foo is reconciled");

    // The cache holds what the controller watches.
    cache.wait_until_ready().await.expect("the cache syncs");
    let cached = cache.get(&ObjectRef::new("web").within("default")).expect("the Foo is in the cache");
    assert_eq!(cached.spec.replicas, Some(1));

    // Status and label writes leave the generation alone: no reconcile.
    patch_status(foos, "web", &FooStatus { available_replicas: 1 }).await.expect("status written");
    let labels = serde_json::json!({"metadata": {"labels": {"team": "a"}}});
    foos.patch("web", &PatchParams::default(), &Patch::Merge(&labels)).await.expect("labelled");
    settle().await;
    assert_eq!(reconciles.load(Ordering::SeqCst), first, "status and label writes do not reconcile");

    // A spec change does.
    let spec = serde_json::json!({"spec": {"replicas": 2}});
    foos.patch("web", &PatchParams::default(), &Patch::Merge(&spec)).await.expect("spec changed");
    settle().await;
    assert!(reconciles.load(Ordering::SeqCst) > first, "a spec change reconciles");
    running.finish().await;

    // Each reconcile is logged at debug level with the object's key and its outcome.
    let logs = logs.text();
    let line = logs.lines().find(|l| l.contains("reconciled") && l.contains("/web.default")).unwrap_or_else(|| {
        let last: Vec<&str> = logs.lines().rev().take(40).collect();
        panic!("no reconcile of web logged; the last lines:\n{}", last.join("\n"))
    });
    assert!(line.contains("DEBUG") && line.contains("/web.default") && line.contains("outcome=\"success\""), "{line}");
}

#[tokio::test]
#[ignore = "needs etcd and kube-apiserver in $KUBEBUILDER_ASSETS; run by scripts/e2e.sh"]
async fn a_delete_whose_cleanup_writes_status_is_not_an_error() {
    // Every status write wakes this controller again, so reconciles of an object keep
    // coming while its finalizer goes and after the object is gone.
    let configure = |c: Controller<Foo>| c.with_finalizer("test.kubegen.dev/cleanup");
    let running = Running::start(configure, Arc::default()).await;
    let foos = &running.foos;

    for i in 0..5 {
        let name = format!("web-{i}");
        let foo = Foo::new(&name, FooSpec { deployment_name: name.clone(), replicas: Some(1) });
        foos.create(&PostParams::default(), &foo).await.expect("created");
    }
    settle().await;
    for i in 0..5 {
        foos.delete(&format!("web-{i}"), &DeleteParams::default()).await.expect("deleted");
    }
    for _ in 0..100 {
        if foos.list(&Default::default()).await.expect("listed").items.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(foos.list(&Default::default()).await.expect("listed").items.is_empty(), "every finalizer was removed");
    settle().await;
    let text = running.metrics.encode();
    let errors: Vec<&str> =
        text.lines().filter(|l| l.starts_with("controller_runtime_reconcile_errors_total{")).collect();
    assert!(errors.iter().all(|l| l.ends_with(" 0")), "{errors:?}");
    running.finish().await;
}

/// Issue 29: an event with a new note was folded into the previous event's series, so
/// `kubectl get events` still said "3 replicas" after scaling to 5. As client-go's
/// recorder does, only an identical event joins a series.
#[tokio::test]
#[ignore = "needs etcd and kube-apiserver in $KUBEBUILDER_ASSETS; run by scripts/e2e.sh"]
async fn only_an_identical_event_joins_a_series() {
    let env = TestEnv::start().await.expect("the test environment starts");
    env.install_crds(vec![Foo::crd()]).await.expect("the CRD is installed");
    let client = env.client();
    let foos: Api<Foo> = Api::namespaced(client.clone(), "default");
    let foo = Foo::new("evented", FooSpec { deployment_name: "evented".into(), replicas: Some(3) });
    let foo = foos.create(&PostParams::default(), &foo).await.expect("created");
    let events = kubegen::host::Events::new(client.clone(), "foo-controller");
    // A, A, B, A: the third A joins A's series again (client-go keys series by the note).
    for note in ["scaled to 3 replicas", "scaled to 3 replicas", "scaled to 5 replicas", "scaled to 3 replicas"] {
        events.normal(&foo, "Scaled", note).await.expect("published");
    }
    let api: Api<k8s_openapi::api::events::v1::Event> = Api::namespaced(client, "default");
    let mut listed: Vec<(String, i32)> = api
        .list(&Default::default())
        .await
        .expect("events")
        .items
        .into_iter()
        .filter(|e| e.regarding.as_ref().and_then(|r| r.name.as_deref()) == Some("evented"))
        .map(|e| (e.note.unwrap_or_default(), e.series.map_or(1, |s| s.count)))
        .collect();
    listed.sort();
    assert_eq!(listed, [("scaled to 3 replicas".to_string(), 3), ("scaled to 5 replicas".to_string(), 1)]);
}
