//! One controller: kube-runtime's `Controller` (watches, a store, `owns`/`watches`
//! relations, never two reconciles of one object at once) plus what it leaves to every
//! user — rate-limited retries, metrics and a span per reconcile.

use std::fmt::Debug;
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use futures::StreamExt;
use kube::api::Api;
use kube::runtime::controller::{Action, Config as RuntimeConfig, Controller as RuntimeController};
use kube::runtime::reflector::ObjectRef;
use kube::runtime::watcher;
use kube::{Resource, ResourceExt};
use serde::de::DeserializeOwned;
use tracing::Instrument;

use super::metrics::Metrics;
use super::probes::Health;
use super::retry::{RateLimiter, RetryPolicy};

/// Acts on one object: make the world match it, report what you did. Called again
/// when the object or anything it owns or watches changes (level-triggered: the call
/// gets the current object, not the change), and after an error with backoff.
pub trait Reconciler<K>: Send + Sync + 'static {
    type Error: std::error::Error + Send + Sync + 'static;

    fn reconcile(&self, object: Arc<K>) -> impl Future<Output = Result<Action, Self::Error>> + Send;

    /// Releases what the object holds outside the cluster before it is deleted. Runs
    /// only for controllers built [`Controller::with_finalizer`]: the host adds the
    /// finalizer before the first reconcile and removes it once this succeeds.
    fn cleanup(&self, object: Arc<K>) -> impl Future<Output = Result<Action, Self::Error>> + Send {
        let _ = object;
        async { Ok(Action::await_change()) }
    }
}

/// An `Api` for one object of a kind, whatever its scope (finalizers patch the object).
pub trait ScopedApi {
    fn api_for<K: Resource<Scope = Self, DynamicType = ()>>(client: kube::Client, namespace: Option<&str>) -> Api<K>
    where
        Self: Sized;
}

impl ScopedApi for k8s_openapi::NamespaceResourceScope {
    fn api_for<K: Resource<Scope = Self, DynamicType = ()>>(client: kube::Client, namespace: Option<&str>) -> Api<K> {
        Api::namespaced(client, namespace.unwrap_or("default"))
    }
}

impl ScopedApi for k8s_openapi::ClusterResourceScope {
    fn api_for<K: Resource<Scope = Self, DynamicType = ()>>(client: kube::Client, _: Option<&str>) -> Api<K> {
        Api::all(client)
    }
}

type ApiFor<K> = Arc<dyn Fn(&K) -> Api<K> + Send + Sync>;

/// Why a reconcile failed: the reconciler's error, or the finalizer's bookkeeping.
#[derive(Debug, thiserror::Error)]
pub enum ReconcileError<E: std::error::Error + 'static> {
    #[error(transparent)]
    Reconciler(E),
    #[error("finalizer: {0}")]
    Finalizer(Box<kube::runtime::finalizer::Error<E>>),
}

type Relation<K> = Box<dyn FnOnce(RuntimeController<K>) -> RuntimeController<K> + Send>;

/// A controller for kind `K`, built up and then handed to a [`super::Manager`].
pub struct Controller<K: Watched> {
    name: String,
    api: Api<K>,
    relations: Vec<Relation<K>>,
    concurrency: u16,
    retry: RetryPolicy,
    finalizer: Option<(String, ApiFor<K>)>,
}

/// The bounds kube-runtime puts on a watched kind.
pub trait Watched:
    Resource<DynamicType = ()> + Clone + DeserializeOwned + serde::Serialize + Debug + Send + Sync + 'static
{
}
impl<T: Resource<DynamicType = ()> + Clone + DeserializeOwned + serde::Serialize + Debug + Send + Sync + 'static>
    Watched for T
{
}

impl<K: Watched> Controller<K> {
    /// A controller for the objects of `api` (one namespace or all).
    pub fn new(api: Api<K>) -> Self {
        Controller {
            name: K::kind(&()).to_lowercase(),
            api,
            relations: Vec::new(),
            concurrency: 1,
            retry: RetryPolicy::default(),
            finalizer: None,
        }
    }

    /// Guards every object with the finalizer `name`: [`Reconciler::cleanup`] runs
    /// before the object goes, and the object stays until it succeeds.
    pub fn with_finalizer(mut self, name: &str) -> Self
    where
        K::Scope: ScopedApi,
        K: Resource<DynamicType = ()>,
    {
        let client = self.api.clone().into_client();
        let api_for: ApiFor<K> = Arc::new(move |obj: &K| {
            <K::Scope as ScopedApi>::api_for::<K>(client.clone(), obj.meta().namespace.as_deref())
        });
        self.finalizer = Some((name.to_string(), api_for));
        self
    }

    /// The name in metrics and logs; the kind, lowercased, by default.
    pub fn named(mut self, name: &str) -> Self {
        self.name = name.to_string();
        self
    }

    /// A change to a `C` that `K` controls (its controller owner reference) reconciles
    /// the owner.
    pub fn owns<C: Watched>(mut self, api: Api<C>) -> Self {
        self.relations.push(Box::new(move |c| c.owns(api, watcher::Config::default())));
        self
    }

    /// A change to an `O` reconciles the objects `mapper` names.
    pub fn watches<O, I>(mut self, api: Api<O>, mapper: impl Fn(O) -> I + Send + Sync + 'static) -> Self
    where
        O: Watched,
        I: IntoIterator<Item = ObjectRef<K>> + 'static,
        I::IntoIter: Send,
    {
        self.relations.push(Box::new(move |c| c.watches(api, watcher::Config::default(), mapper)));
        self
    }

    /// How many objects are reconciled at once (never one object twice). Default 1,
    /// as controller-runtime's `MaxConcurrentReconciles`.
    pub fn concurrency(mut self, n: u16) -> Self {
        self.concurrency = n.max(1);
        self
    }

    pub fn retry(mut self, policy: RetryPolicy) -> Self {
        self.retry = policy;
        self
    }

    pub(crate) async fn run<R: Reconciler<K>>(
        self,
        reconciler: Arc<R>,
        shutdown: impl Future<Output = ()> + Send + Sync + 'static,
        metrics: Arc<Metrics>,
        health: Arc<Health>,
    ) where
        K::DynamicType: Debug + Unpin,
    {
        let mut c = RuntimeController::new(self.api, watcher::Config::default())
            .with_config(RuntimeConfig::default().concurrency(self.concurrency));
        for relation in self.relations {
            c = relation(c);
        }
        // Watches come back within 5 s of the API server (kube-runtime's default climbs to
        // 30 s, so a short outage left a controller deaf for a minute): 200 ms doubling to
        // 5 s, jittered, reset after a minute of health.
        c = c.trigger_backoff(super::retry::WatchBackoff::default());
        c = c.graceful_shutdown_on(shutdown);

        let store = c.store();
        health.unsynced.fetch_add(1, Ordering::SeqCst);
        let synced = health.clone();
        tokio::spawn(async move {
            // kube-runtime's store wakes only the last task that waited for readiness
            // (its DelayedInit keeps one waker), and the controller waits on it itself:
            // ask again until the answer is there.
            loop {
                match tokio::time::timeout(std::time::Duration::from_millis(200), store.wait_until_ready()).await {
                    Ok(Ok(())) => {
                        synced.unsynced.fetch_sub(1, Ordering::SeqCst);
                        tracing::info!("cache synced");
                        return;
                    }
                    Ok(Err(e)) => {
                        tracing::warn!(error = %e, "cache never synced");
                        return;
                    }
                    Err(_) => {}
                }
            }
        });

        let ctx = Arc::new(Ctx {
            name: self.name.clone(),
            reconciler,
            limiter: RateLimiter::new(self.retry),
            metrics,
            finalizer: self.finalizer,
        });
        c.run(reconcile::<K, R>, error_policy::<K, R>, ctx)
            .for_each(|result| {
                if let Err(e) = result {
                    tracing::debug!(error = %e, "controller event");
                }
                futures::future::ready(())
            })
            .await;
    }
}

struct Ctx<K: Watched, R> {
    name: String,
    reconciler: Arc<R>,
    limiter: RateLimiter,
    metrics: Arc<Metrics>,
    finalizer: Option<(String, ApiFor<K>)>,
}

fn key<K: Resource<DynamicType = ()>>(obj: &K) -> String {
    ObjectRef::from_obj(obj).to_string()
}

async fn reconcile<K: Watched, R: Reconciler<K>>(
    obj: Arc<K>,
    ctx: Arc<Ctx<K, R>>,
) -> Result<Action, ReconcileError<R::Error>> {
    let span = tracing::info_span!(
        "reconcile",
        controller = %ctx.name,
        namespace = %obj.namespace().unwrap_or_default(),
        name = %obj.name_any()
    );
    let key = key(obj.as_ref());
    ctx.metrics.started(&ctx.name);
    let start = Instant::now();
    let result = match &ctx.finalizer {
        None => ctx.reconciler.reconcile(obj).instrument(span).await.map_err(ReconcileError::Reconciler),
        Some((name, api_for)) => {
            let api = api_for(obj.as_ref());
            let reconciler = ctx.reconciler.clone();
            kube::runtime::finalizer(&api, name, obj, |event| async move {
                match event {
                    kube::runtime::finalizer::Event::Apply(o) => reconciler.reconcile(o).await,
                    kube::runtime::finalizer::Event::Cleanup(o) => reconciler.cleanup(o).await,
                }
            })
            .instrument(span)
            .await
            .map_err(|e| ReconcileError::Finalizer(Box::new(e)))
        }
    };
    let outcome = if result.is_ok() { "success" } else { "error" };
    ctx.metrics.finished(&ctx.name, outcome, start.elapsed().as_secs_f64());
    if result.is_ok() {
        ctx.limiter.forget(&key);
    }
    result
}

fn error_policy<K: Watched, R: Reconciler<K>>(
    obj: Arc<K>,
    error: &ReconcileError<R::Error>,
    ctx: Arc<Ctx<K, R>>,
) -> Action {
    let key = key(obj.as_ref());
    let delay = ctx.limiter.when(&key);
    ctx.metrics.retried(&ctx.name);
    tracing::warn!(controller = %ctx.name, object = %key, %error, retry_in = ?delay, "reconcile failed");
    Action::requeue(delay)
}
