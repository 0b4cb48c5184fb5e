//! One controller: kube-runtime's watchers, store, trigger mappers and `applier` (its
//! scheduler never runs two reconciles of one object at once) — the parts its
//! `Controller` assembles, assembled here so the host sees what enters the queue — plus
//! what kube-runtime leaves to every user: rate-limited retries, metrics (queue depth
//! included) and a span per reconcile.

use std::collections::HashSet;
use std::fmt::Debug;
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use futures::stream::BoxStream;
use futures::{StreamExt, TryStreamExt};
use kube::api::Api;
use kube::runtime::controller::{
    Action, Config as RuntimeConfig, Error as RuntimeError, ReconcileReason, ReconcileRequest, applier, trigger_owners,
    trigger_self, trigger_with,
};
use kube::runtime::finalizer::Error as FinalizerError;
use kube::runtime::reflector::{self, ObjectRef, Store};
use kube::runtime::utils::{CancelableJoinHandle, StreamBackoff};
use kube::runtime::{PredicateConfig, WatchStreamExt, watcher};
use kube::{Resource, ResourceExt};
use serde::de::DeserializeOwned;
use tracing::Instrument;

use super::manager::Stop;
use super::metrics::Metrics;
use super::probes::Health;
use super::queue::{Key, Queue, key_of};
use super::retry::{RateLimiter, RetryPolicy, WatchBackoff};
use super::shard::{Gate, Shard, ShardGate};
use super::shard_server;

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

/// `Reconciler::Error` for a reconciler whose steps fail in several ways: `?` turns
/// `kube::Error`, [`super::OwnerError`], `serde_json::Error` and `std::io::Error` into it,
/// [`Failure::new`] any other error and [`Failure::msg`] a message — no error enum of
/// your own to write (kube-runtime's bound wants `std::error::Error`, which anyhow's type
/// is not). The log shows its message, an API error in it once (`403 Forbidden: ...`).
///
/// ```no_run
/// use std::sync::Arc;
/// use k8s_openapi::api::apps::v1::Deployment;
/// use kubegen::host::{Action, Failure, Reconciler, set_controller_reference};
///
/// struct Scaler { client: kube::Client }
///
/// impl Reconciler<Deployment> for Scaler {
///     type Error = Failure;
///
///     async fn reconcile(&self, owner: Arc<Deployment>) -> Result<Action, Failure> {
///         let mut child = Deployment::default();
///         set_controller_reference(owner.as_ref(), &mut child)?; // an OwnerError
///         let api: kube::Api<Deployment> = kube::Api::default_namespaced(self.client.clone());
///         api.get_opt("child").await?; // a kube::Error
///         let replicas = owner.spec.replicas.ok_or_else(|| Failure::msg("no replicas"))?;
///         let _ = replicas;
///         Ok(Action::await_change())
///     }
/// }
/// ```
#[derive(Debug)]
pub struct Failure(Box<dyn std::error::Error + Send + Sync + 'static>);

impl Failure {
    /// Any error.
    pub fn new(error: impl std::error::Error + Send + Sync + 'static) -> Self {
        Failure(Box::new(error))
    }

    /// A failure that is a message.
    pub fn msg(message: impl Into<String>) -> Self {
        Failure(message.into().into())
    }

    /// The error it holds, for `downcast_ref`.
    pub fn inner(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        self.0.as_ref()
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.0, f)
    }
}

impl std::error::Error for Failure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(self.0.as_ref())
    }
}

macro_rules! failure_from {
    ($($t:ty),*) => {$(
        impl From<$t> for Failure {
            fn from(error: $t) -> Self {
                Failure::new(error)
            }
        }
    )*};
}
failure_from!(kube::Error, super::OwnerError, serde_json::Error, std::io::Error);

/// Why a reconcile failed: the reconciler's error, or the finalizer's bookkeeping.
#[derive(Debug, thiserror::Error)]
pub enum ReconcileError<E: std::error::Error + 'static> {
    #[error(transparent)]
    Reconciler(E),
    #[error("finalizer: {0}")]
    Finalizer(Box<kube::runtime::finalizer::Error<E>>),
}

/// A stream of objects to reconcile, from one watch.
type Trigger<K> = BoxStream<'static, Result<ReconcileRequest<K>, watcher::Error>>;
/// Opens a relation's watch when the controller starts.
type Relation<K> = Box<dyn FnOnce() -> Trigger<K> + Send>;

/// A kind the controller owns: where it is watched, and the watch, opened with the
/// selection it is given (sharded: only this shard's children).
struct Owned<K: Watched> {
    scope: ChildScope,
    watch: Box<dyn Fn(watcher::Config) -> Trigger<K> + Send>,
    config: watcher::Config,
}

/// An owned kind as the sharder sees it: the kind, the namespace watched (none for all)
/// and the label and field selectors.
pub(crate) type ChildScope = (kube::api::ApiResource, Option<String>, Option<String>, Option<String>);

/// A controller for kind `K`, built up and then handed to a [`super::Manager`].
pub struct Controller<K: Watched> {
    name: String,
    api: Api<K>,
    selection: watcher::Config,
    relations: Vec<Relation<K>>,
    owned: Vec<Owned<K>>,
    concurrency: u16,
    retry: RetryPolicy,
    finalizer: Option<(String, ApiFor<K>)>,
    cache: (reflector::Store<K>, reflector::store::Writer<K>),
    generation_changed: bool,
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
            selection: watcher::Config::default(),
            relations: Vec::new(),
            owned: Vec::new(),
            concurrency: 1,
            retry: RetryPolicy::default(),
            finalizer: None,
            cache: reflector::store(),
            generation_changed: false,
        }
    }

    /// The controller's cache of its objects, filled by its watch: read it inside a
    /// reconcile instead of asking the API server (controller-runtime's cached client).
    /// It is empty until the manager runs the controller; `wait_until_ready` waits for
    /// the first full list.
    pub fn cache(&self) -> reflector::Store<K> {
        self.cache.0.clone()
    }

    /// Reconciles an object only when its `metadata.generation` changed (or it is new),
    /// as controller-runtime's `GenerationChangedPredicate`: status-only writes, label
    /// and annotation edits no longer trigger a reconcile. Changes of owned and watched
    /// objects still do, and so do changes of the object's finalizers and its deletion —
    /// which leave the generation alone, so the plain predicate would stall a
    /// [`Controller::with_finalizer`] controller after it adds its finalizer.
    pub fn generation_changed(mut self) -> Self {
        self.generation_changed = true;
        self
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

    /// Which objects of `api` the controller sees, e.g. a label selector
    /// (`WatcherConfig::default().labels("shard=a")`); every object by default. The
    /// cache holds only these, and only these are reconciled.
    pub fn selecting(mut self, config: watcher::Config) -> Self {
        self.selection = config;
        self
    }

    /// A change to a `C` that `K` controls (its controller owner reference) reconciles
    /// the owner.
    pub fn owns<C: Watched>(self, api: Api<C>) -> Self {
        self.owns_selecting(api, watcher::Config::default())
    }

    /// [`Controller::owns`], watching only the children `config` selects.
    ///
    /// Sharded, a child follows its controller owner: the sharder gives it the owner's
    /// shard label, and each shard watches (and caches) only its own children.
    pub fn owns_selecting<C: Watched>(mut self, api: Api<C>, config: watcher::Config) -> Self {
        let scope = (
            kube::api::ApiResource::erase::<C>(&()),
            api.namespace().map(str::to_string),
            config.label_selector.clone(),
            config.field_selector.clone(),
        );
        self.owned.push(Owned {
            scope,
            config,
            watch: Box::new(move |config| {
                // Metadata only, as kube-runtime's own `owns`; its replacement wants an
                // `Api<PartialObjectMeta<C>>`, which cannot be made from the caller's `Api<C>`.
                #[allow(deprecated)]
                let children = kube::runtime::metadata_watcher(api.clone(), config);
                trigger_owners(children.touched_objects(), (), ()).boxed()
            }),
        });
        self
    }

    /// A change to an `O` reconciles the objects `mapper` names.
    pub fn watches<O, I>(self, api: Api<O>, mapper: impl Fn(O) -> I + Send + Sync + 'static) -> Self
    where
        O: Watched,
        I: IntoIterator<Item = ObjectRef<K>> + 'static,
        I::IntoIter: Send,
    {
        self.watches_selecting(api, watcher::Config::default(), mapper)
    }

    /// [`Controller::watches`], watching only the objects `config` selects.
    pub fn watches_selecting<O, I>(
        mut self,
        api: Api<O>,
        config: watcher::Config,
        mapper: impl Fn(O) -> I + Send + Sync + 'static,
    ) -> Self
    where
        O: Watched,
        I: IntoIterator<Item = ObjectRef<K>> + 'static,
        I::IntoIter: Send,
    {
        self.relations.push(Box::new(move || trigger_with(watcher(api, config).touched_objects(), mapper).boxed()));
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

    /// The controller's name (its metrics' `controller` label).
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// What it watches: the namespace (none for all), the label and field selectors.
    pub(crate) fn scope(&self) -> (Option<String>, Option<String>, Option<String>) {
        let selection = &self.selection;
        (self.api.namespace().map(str::to_string), selection.label_selector.clone(), selection.field_selector.clone())
    }

    /// The kinds it owns, as the sharder labels them.
    pub(crate) fn children(&self) -> Vec<ChildScope> {
        self.owned.iter().map(|o| o.scope.clone()).collect()
    }

    pub(crate) async fn run<R: Reconciler<K>>(
        self,
        reconciler: Arc<R>,
        stop: Stop,
        metrics: Arc<Metrics>,
        health: Arc<Health>,
        sharding: Option<Shard>,
    ) where
        K::DynamicType: Debug + Unpin,
    {
        let (store, writer) = self.cache;
        let gate = sharding.map(|(s, claim)| {
            Arc::new(ShardGate::new::<K>(s, self.api.clone().into_client(), &self.name, metrics.clone(), claim))
        });
        let mut selection = self.selection;
        let mut api = self.api;
        if let Some(gate) = &gate {
            // Only this shard's objects are watched and cached: those labelled with its
            // name, or those in its ranges (the API server's shardSelector).
            match gate.claim() {
                None => {
                    selection.label_selector = Some(with_selector(selection.label_selector.take(), &gate.selector()))
                }
                Some(claim) => {
                    let client = api.clone().into_client();
                    let all = Api::<K>::all_with(client.clone(), &()).resource_url().to_string();
                    let own = api.resource_url().to_string();
                    api = Api::all_with(shard_server::selecting_client(client, all, own, claim), &());
                }
            }
            let (gate, store, metrics, name) =
                (Arc::downgrade(gate), store.clone(), metrics.clone(), self.name.clone());
            tokio::spawn(async move {
                while let Some(gate) = gate.upgrade() {
                    gate.prune();
                    metrics.shard_objects(&name, gate.identity(), store.state().len());
                    drop(gate);
                    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                }
            });
        }
        let mut triggers = futures::stream::SelectAll::new();
        // Objects the watch (re)listed and whose trigger has not entered the queue yet:
        // theirs wait at low priority, behind live changes.
        let listed: Arc<std::sync::Mutex<HashSet<Key>>> = Arc::default();
        let seen = listed.clone();
        let objects = reflector::reflector(writer, watcher(api, selection))
            .inspect_ok(move |event| {
                let mut listed = seen.lock().unwrap_or_else(|e| e.into_inner());
                match event {
                    // A relist starts over: what the last one listed and never reached the
                    // queue (filtered as unchanged) is forgotten.
                    watcher::Event::Init => listed.clear(),
                    watcher::Event::InitApply(o) => {
                        listed.insert(key_of(&ObjectRef::from_obj(o)));
                    }
                    watcher::Event::Apply(o) | watcher::Event::Delete(o) => {
                        listed.remove(&key_of(&ObjectRef::from_obj(o)));
                    }
                    watcher::Event::InitDone => {}
                }
            })
            .flat_map(listed_once_in_the_cache());
        let objects = if self.generation_changed {
            // A drain is a label: it must pass the generation filter; and so must an
            // object that comes back to a shard's ranges (the claim's epoch changes).
            let drain = gate.as_ref().map(|g| g.drain_label());
            let claim = gate.as_ref().and_then(|g| g.claim().cloned());
            let changed =
                move |obj: &K| generation_or_lifecycle(obj, drain.as_deref(), claim.as_ref().map(|c| c.epoch()));
            objects.predicate_filter(changed, PredicateConfig::default()).boxed()
        } else {
            objects.boxed()
        };
        triggers.push(trigger_self(objects, ()).boxed());
        for owned in self.owned {
            // Under server-side sharding a child's uid says nothing of its owner's shard:
            // every child is watched, as unsharded.
            let Some(gate) = gate.as_ref().filter(|g| g.claim().is_none()) else {
                triggers.push((owned.watch)(owned.config));
                continue;
            };
            // Its own children, and those the sharder has not labelled (yet, or ever: one
            // whose owner is not its controller, or a sharder refused the patch) — whose
            // events for another shard's owner end at the cache, as unsharded.
            for selector in [gate.selector(), format!("!{}", gate.shard_label())] {
                let mut config = owned.config.clone();
                config.label_selector = Some(with_selector(config.label_selector.take(), &selector));
                triggers.push((owned.watch)(config));
            }
        }
        for relation in self.relations {
            triggers.push(relation());
        }
        let queue = Arc::new(Queue::new(&self.name, metrics.clone(), usize::from(self.concurrency)));
        let entering = queue.clone();
        // Watches come back within 5 s of the API server (kube-runtime's default climbs to
        // 30 s, so a short outage left a controller deaf for a minute): 200 ms doubling to
        // 5 s, reset once a watch works again. Shutdown closes the queue's input; the
        // applier then finishes what runs and ends.
        let requests = StreamBackoff::new(triggers, WatchBackoff::default())
            .take_until(stop.clone().wait())
            .inspect_ok(move |request: &ReconcileRequest<K>| {
                let key = key_of(&request.obj_ref);
                let low = matches!(request.reason, ReconcileReason::ObjectUpdated)
                    && listed.lock().unwrap_or_else(|e| e.into_inner()).remove(&key);
                entering.add(key, low)
            });

        let readiness = store.clone();
        let synced = health.clone();
        tokio::spawn(async move {
            // kube-runtime's store wakes only the last task that waited for readiness
            // (its DelayedInit keeps one waker), and the controller waits on it itself:
            // ask again until the answer is there.
            loop {
                match tokio::time::timeout(std::time::Duration::from_millis(200), readiness.wait_until_ready()).await {
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

        metrics.configured(&self.name, self.concurrency);
        let ctx = Arc::new(Ctx {
            name: self.name.clone(),
            reconciler,
            limiter: RateLimiter::new(self.retry),
            metrics,
            queue: queue.clone(),
            store: store.clone(),
            stop,
            finalizer: self.finalizer,
            gate,
        });
        // Each reconcile is a task of its own, as kube-runtime's `Controller::run` spawns them.
        let spawn = |obj: Arc<K>, ctx: Arc<Ctx<K, R>>| {
            CancelableJoinHandle::spawn(
                reconcile::<K, R>(obj, ctx).in_current_span(),
                &tokio::runtime::Handle::current(),
            )
        };
        // No limit in kube-runtime: the workers are counted out in order by `Workers`.
        let config = RuntimeConfig::default().concurrency(0);
        applier(spawn, error_policy::<K, R>, ctx, store, requests, config)
            .for_each(|result| {
                match result {
                    // The object left the cache before a worker took it: it waits no more.
                    Err(RuntimeError::ObjectNotFound(gone)) => {
                        queue.take(&key_of(&gone));
                        queue.forget(&key_of(&gone));
                    }
                    Err(e) => tracing::debug!(error = %e, "controller event"),
                    Ok(_) => {}
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
    queue: Arc<Queue>,
    /// The cache: what a reconcile works on once it has a worker.
    store: Store<K>,
    /// The stop signal: reconciles still waiting for a worker then are not run.
    stop: Stop,
    finalizer: Option<(String, ApiFor<K>)>,
    /// The shard's side of the handoff, when sharded.
    gate: Option<Arc<ShardGate>>,
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
    let obj_ref = ObjectRef::from_obj(obj.as_ref());
    let queued = key_of(&obj_ref);
    // In line for a worker. What has not started by the stop signal does not start: the
    // in-flight reconciles finish, the backlog is the next leader's.
    let mut turn = tokio::select! {
        turn = ctx.queue.turn(&queued) => turn,
        () = ctx.stop.clone().wait() => return Ok(Action::await_change()),
    };
    if ctx.stop.is_triggered() {
        return Ok(Action::await_change());
    }
    // The object as it is now: it may have changed, or gone, while it waited.
    let Some(obj) = ctx.store.get(&obj_ref) else {
        return Ok(Action::await_change());
    };
    // Sharded: in this object's slot (never two at once), a drained object is let go and
    // one no longer this shard's is left alone.
    let mut _claimed = None;
    if let Some(gate) = &ctx.gate {
        match gate.gate(obj.as_ref()).await {
            // Held until the reconcile ends: a narrowing claim waits for it.
            Gate::Work(guard) => _claimed = guard,
            Gate::Skip => return Ok(Action::await_change()),
            Gate::Retry(after) => {
                turn.again = true;
                return Ok(Action::requeue(after));
            }
        }
    }
    let key = obj_ref.to_string();
    ctx.metrics.started(&ctx.name);
    let start = Instant::now();
    let result = match &ctx.finalizer {
        None => ctx.reconciler.reconcile(obj).instrument(span).await.map_err(ReconcileError::Reconciler),
        Some((name, api_for)) => {
            let api = api_for(obj.as_ref());
            let reconciler = ctx.reconciler.clone();
            let obj_deleting = obj.meta().deletion_timestamp.is_some();
            let result = kube::runtime::finalizer(&api, name, obj, |event| async move {
                match event {
                    kube::runtime::finalizer::Event::Apply(o) => reconciler.reconcile(o).await,
                    kube::runtime::finalizer::Event::Cleanup(o) => reconciler.cleanup(o).await,
                }
            })
            .instrument(span)
            .await
            .map_err(|e| match e {
                // The reconciler's own failure is not the finalizer's.
                FinalizerError::ApplyFailed(e) | FinalizerError::CleanupFailed(e) => ReconcileError::Reconciler(e),
                other => ReconcileError::Finalizer(Box::new(other)),
            });
            // A cleanup that raced the object's removal (the finalizer was already gone
            // and the object with it) failed on nothing: a normal delete is not an error.
            match result {
                Err(e) if obj_deleting && gone(&api, &obj_ref.name).await => {
                    tracing::debug!(object = %key, error = %e, "object deleted during its reconcile");
                    Ok(Action::await_change())
                }
                result => result,
            }
        }
    };
    // controller-runtime's result labels: a reconcile that asked to run again is `requeue_after`.
    let outcome = match &result {
        Ok(action) if *action == Action::await_change() => "success",
        Ok(_) => "requeue_after",
        Err(_) => "error",
    };
    let elapsed = start.elapsed();
    ctx.metrics.finished(&ctx.name, outcome, elapsed.as_secs_f64());
    turn.again = outcome != "success";
    // controller-runtime logs each reconcile at debug level; failures are warned about
    // with their retry in `error_policy`.
    match &result {
        Ok(action) => {
            tracing::debug!(controller = %ctx.name, object = %key, outcome, ?action, ?elapsed, "reconciled")
        }
        Err(_) => {
            tracing::debug!(controller = %ctx.name, object = %key, outcome, ?elapsed, "reconcile returned an error")
        }
    }
    if result.is_ok() {
        ctx.limiter.forget(&key);
    }
    result
}

/// The objects a watch applies, for the controller's triggers: a change as it comes, and
/// the objects of a (re)list once it is done. The cache swaps a relist in only at its end,
/// so a reconcile of a listed object triggered before then finds the cache without it when
/// the object is new to it (a relist after the watch fell behind, or a shard's new ranges)
/// and the request was dropped; a paged list lost all but its last page that way.
#[allow(clippy::type_complexity)]
fn listed_once_in_the_cache<K: Send + 'static>() -> impl FnMut(
    Result<watcher::Event<K>, watcher::Error>,
) -> futures::stream::Iter<
    std::vec::IntoIter<Result<K, watcher::Error>>,
> {
    let mut listing: Vec<K> = Vec::new();
    move |event| {
        let ready: Vec<Result<K, watcher::Error>> = match event {
            Ok(watcher::Event::Apply(o)) => vec![Ok(o)],
            Ok(watcher::Event::Init) => {
                listing.clear();
                Vec::new()
            }
            Ok(watcher::Event::InitApply(o)) => {
                listing.push(o);
                Vec::new()
            }
            Ok(watcher::Event::InitDone) => std::mem::take(&mut listing).into_iter().map(Ok).collect(),
            Ok(watcher::Event::Delete(_)) => Vec::new(),
            Err(e) => vec![Err(e)],
        };
        futures::stream::iter(ready)
    }
}

/// A label selector and the shard's, both.
fn with_selector(theirs: Option<String>, shard: &str) -> String {
    match theirs.filter(|s| !s.is_empty()) {
        Some(theirs) => format!("{theirs},{shard}"),
        None => shard.to_string(),
    }
}

/// What `generation_changed` compares: the generation, the finalizers, whether the
/// object is being deleted and, sharded, whether it is being drained (`drain`, the label)
/// or the shard's ranges have changed since (`epoch`).
fn generation_or_lifecycle<K: Resource>(obj: &K, drain: Option<&str>, epoch: Option<u64>) -> Option<u64> {
    use std::hash::{Hash, Hasher};
    let meta = obj.meta();
    let drained = drain.map(|d| meta.labels.as_ref().is_some_and(|l| l.contains_key(d)));
    let mut hasher = std::hash::DefaultHasher::new();
    (meta.generation, &meta.finalizers, meta.deletion_timestamp.is_some(), drained, epoch).hash(&mut hasher);
    Some(hasher.finish())
}

/// Whether the object is no longer on the server.
async fn gone<K: Watched>(api: &Api<K>, name: &str) -> bool {
    matches!(api.get_opt(name).await, Ok(None))
}

fn error_policy<K: Watched, R: Reconciler<K>>(
    obj: Arc<K>,
    error: &ReconcileError<R::Error>,
    ctx: Arc<Ctx<K, R>>,
) -> Action {
    let key = key(obj.as_ref());
    let delay = ctx.limiter.when(&key);
    ctx.metrics.retried(&ctx.name);
    let attempt = ctx.limiter.failures(&key);
    let error = match error {
        ReconcileError::Reconciler(e) => described(e),
        ReconcileError::Finalizer(e) => format!("finalizer: {}", described(e.as_ref())),
    };
    tracing::warn!(controller = %ctx.name, object = %key, %error, attempt, retry_in = ?delay, "reconcile failed");
    Action::requeue(delay)
}

/// An error as one line for the log: its message, with a Kubernetes API error in it (at
/// any depth of its sources) said once, as `code Reason: message`. kube's own wording
/// repeats the server's message and appends the whole `Status` in Debug form, so a
/// failed reconcile logged about 1.5 KB with the message three times (issue 29).
pub(crate) fn described(error: &(dyn std::error::Error + 'static)) -> String {
    let text = error.to_string();
    let mut next: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(e) = next {
        // The API error, or (under a transparent wrapper, whose source is kube's) its Status.
        let status = match e.downcast_ref::<kube::Error>() {
            Some(kube::Error::Api(status)) => Some(status.as_ref()),
            _ => e
                .downcast_ref::<kube::core::Status>()
                .or_else(|| e.downcast_ref::<Box<kube::core::Status>>().map(|b| b.as_ref())),
        };
        if let Some(status) = status {
            let short = format!("{} {}: {}", status.code, status.reason, status.message);
            // kube's wording of `Error::Api`.
            let verbose = kube::Error::Api(Box::new(status.clone())).to_string();
            return if text.contains(&verbose) {
                text.replace(&verbose, &short)
            } else if text == verbose {
                short
            } else {
                format!("{text}: {short}")
            };
        }
        next = e.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::described;

    /// A listed object reaches the triggers only once its list is done (the cache has it
    /// then); a watched change at once; a relist starts over.
    #[test]
    fn listed_objects_are_triggered_when_their_list_is_done() {
        use kube::runtime::watcher::Event;
        let mut triggers = super::listed_once_in_the_cache::<u32>();
        let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let mut run = |event| -> Vec<u32> {
            let out: Vec<_> = rt.block_on(futures::StreamExt::collect::<Vec<_>>(triggers(Ok(event))));
            out.into_iter().map(|r| r.unwrap()).collect()
        };
        let out: Vec<u32> = run(Event::Init);
        assert!(out.is_empty());
        for page in [1, 2, 3] {
            let out: Vec<u32> = run(Event::InitApply(page));
            assert!(out.is_empty(), "page {page} triggered before the list was done");
        }
        assert_eq!(run(Event::InitDone), vec![1, 2, 3]);
        assert_eq!(run(Event::Apply(4)), vec![4]);
        assert!(run(Event::Delete(4)).is_empty());
        // A relist cut short by another drops what the first had buffered.
        let _: Vec<u32> = run(Event::Init);
        let _: Vec<u32> = run(Event::InitApply(5));
        let _: Vec<u32> = run(Event::Init);
        let _: Vec<u32> = run(Event::InitApply(6));
        assert_eq!(run(Event::InitDone), vec![6]);
    }

    fn api_error() -> kube::Error {
        let status =
            kube::core::Status::failure("deployments.apps \"web\" is forbidden: no", "Forbidden").with_code(403);
        kube::Error::Api(Box::new(status))
    }

    #[derive(Debug, thiserror::Error)]
    enum Mine {
        #[error("creating the deployment: {0}")]
        Kube(#[from] kube::Error),
        #[error(transparent)]
        Through(kube::Error),
        #[error("the owner: {0}")]
        Owner(String),
    }

    /// Issue 29: a failed reconcile logged kube's wording, the server's message three times
    /// and the whole Status in Debug form.
    #[test]
    fn an_api_error_is_said_once() {
        let said = "403 Forbidden: deployments.apps \"web\" is forbidden: no";
        assert_eq!(described(&api_error()), said);
        assert_eq!(described(&Mine::Kube(api_error())), format!("creating the deployment: {said}"));
        assert_eq!(described(&Mine::Through(api_error())), said);
        assert_eq!(described(&Mine::Owner("gone".into())), "the owner: gone");
        assert!(api_error().to_string().matches("is forbidden").count() >= 2, "kube's own wording repeats it");
    }
}
