//! The manager: several controllers in one process, sharing a client, the probes and
//! the metrics, started once this replica leads, stopped together on SIGTERM/SIGINT —
//! no new work, in-flight reconciles finish within the shutdown timeout.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use futures::FutureExt;
use futures::future::BoxFuture;
use k8s_openapi::api::coordination::v1::Lease;
use kube::api::ApiResource;
use kube::{Api, Client};

use super::controller::{Controller, Reconciler, Watched};
use super::leader::{self, LeaderElection};
use super::metrics::Metrics;
use super::probes::{self, Health, Routes};
use super::shard::{self, Sharding};
use super::shard_server::{self, Claim, ShardSelection};

/// Why the manager stopped other than by a signal.
#[derive(Debug, thiserror::Error)]
pub enum ManagerError {
    #[error("cannot serve the probes or metrics on {addr}: {source}")]
    Probes { addr: SocketAddr, source: std::io::Error },
    #[error("leadership of lease {0} was lost")]
    LeadershipLost(String),
    #[error("in-flight reconciles did not finish within {0:?} of the shutdown signal")]
    ShutdownTimeout(Duration),
    #[error("{0}")]
    Sharding(String),
    #[error("shard lease {0} was lost: this replica stopped reconciling at once, before the others take its objects")]
    ShardLost(String),
}

type Runner = Box<dyn FnOnce(Stop, Arc<Metrics>, Arc<Health>, Option<shard::Shard>) -> BoxFuture<'static, ()> + Send>;
/// The sharder's loop for one controller's kind, started whenever this replica becomes
/// the sharder.
type Sharder =
    Arc<dyn Fn(Client, Arc<Sharding>, Arc<Metrics>, shard::Observed) -> BoxFuture<'static, ()> + Send + Sync>;

/// A stop signal every controller can wait on (a `Send + Sync` future, as
/// kube-runtime's graceful shutdown needs). Waiters are woken once, when it is triggered.
#[derive(Clone, Default)]
pub struct Stop(Arc<StopState>);

#[derive(Default)]
struct StopState {
    triggered: AtomicBool,
    notify: tokio::sync::Notify,
}

impl Stop {
    pub fn trigger(&self) {
        self.0.triggered.store(true, Ordering::SeqCst);
        self.0.notify.notify_waiters();
    }

    pub fn is_triggered(&self) -> bool {
        self.0.triggered.load(Ordering::SeqCst)
    }

    pub async fn wait(self) {
        loop {
            // Registered before the check, so a trigger in between is not missed.
            let notified = self.0.notify.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if self.is_triggered() {
                return;
            }
            notified.await;
        }
    }
}

pub struct Manager {
    client: Client,
    runners: Vec<Runner>,
    /// The probes' address, and whether /metrics is served there too.
    probes: Option<(SocketAddr, bool)>,
    metrics_address: Option<SocketAddr>,
    leader_election: Option<LeaderElection>,
    sharding: Option<Sharding>,
    sharders: Vec<Sharder>,
    /// Each controller's name, kind and owned kinds, to check the ring's assignments
    /// cannot conflict.
    kinds: Vec<(String, ApiResource, Vec<ApiResource>)>,
    shutdown_timeout: Duration,
    metrics: Arc<Metrics>,
    health: Arc<Health>,
    stop: Stop,
}

impl Manager {
    pub fn new(client: Client) -> Self {
        Manager {
            client,
            runners: Vec::new(),
            probes: None,
            metrics_address: None,
            leader_election: None,
            sharding: None,
            sharders: Vec::new(),
            kinds: Vec::new(),
            shutdown_timeout: Duration::from_secs(30),
            metrics: Arc::default(),
            health: Arc::default(),
            stop: Stop::default(),
        }
    }

    pub fn client(&self) -> Client {
        self.client.clone()
    }

    /// Adds a controller and the reconciler it calls.
    pub fn add<K, R>(mut self, controller: Controller<K>, reconciler: Arc<R>) -> Self
    where
        K: Watched,
        K::DynamicType: std::fmt::Debug + Unpin,
        R: Reconciler<K>,
    {
        // The sharder sees what the controller watches (its namespace, its selector).
        let (resource, name) = (ApiResource::erase::<K>(&()), controller.name().to_string());
        let (scope, children) = (controller.scope(), controller.children());
        self.kinds.push((name.clone(), resource.clone(), children.iter().map(|c| c.0.clone()).collect()));
        self.sharders.push(Arc::new(move |client, sharding, metrics, observed| {
            let watched = shard::Kinds { resource: resource.clone(), scope: scope.clone(), children: children.clone() };
            Box::pin(shard::assign(client, watched, name.clone(), sharding, metrics, observed))
        }));
        self.runners.push(Box::new(move |stop: Stop, metrics, health, sharding| {
            Box::pin(controller.run(reconciler, stop, metrics, health, sharding))
        }));
        self
    }

    /// Every replica reconciles its share of the objects (see [`Sharding`]) instead of
    /// one leader doing all the work; replaces [`Manager::leader_election`].
    pub fn sharding(mut self, sharding: Sharding) -> Self {
        self.sharding = Some(sharding);
        self
    }

    /// Serves `/healthz`, `/readyz` and `/metrics` on `addr`.
    pub fn probes(mut self, addr: SocketAddr) -> Self {
        self.probes = Some((addr, true));
        self
    }

    /// Serves `/healthz` and `/readyz` on `addr`, and `/metrics` only where
    /// [`Manager::metrics_address`] says.
    pub fn probes_only(mut self, addr: SocketAddr) -> Self {
        self.probes = Some((addr, false));
        self
    }

    /// Serves `/metrics` on `addr` (controller-runtime's `--metrics-bind-address`).
    pub fn metrics_address(mut self, addr: SocketAddr) -> Self {
        self.metrics_address = Some(addr);
        self
    }

    /// Reconciles only while this replica holds the lease.
    pub fn leader_election(mut self, cfg: LeaderElection) -> Self {
        self.leader_election = Some(cfg);
        self
    }

    /// How long in-flight reconciles may take after the stop signal (default 30 s).
    pub fn shutdown_timeout(mut self, timeout: Duration) -> Self {
        self.shutdown_timeout = timeout;
        self
    }

    pub fn metrics(&self) -> Arc<Metrics> {
        self.metrics.clone()
    }

    /// A handle that stops the manager as SIGTERM would.
    pub fn stop_handle(&self) -> Stop {
        self.stop.clone()
    }

    /// Runs until SIGTERM/SIGINT (or the stop handle), then drains. Returns the address
    /// the probes were bound to through `on_probes`, if any.
    pub async fn run(self) -> Result<(), ManagerError> {
        let Manager {
            client,
            runners,
            probes,
            metrics_address,
            leader_election,
            sharding,
            sharders,
            kinds,
            shutdown_timeout,
            metrics,
            health,
            stop,
        } = self;
        if let Some(s) = &sharding {
            s.check().map_err(ManagerError::Sharding)?;
            // A kind one controller reconciles and another owns would get its shard from
            // both: from the ring through the drain, and from its owner directly.
            let same = |a: &ApiResource, b: &ApiResource| a.group == b.group && a.kind == b.kind;
            for (owner, _, children) in &kinds {
                for (name, kind, _) in &kinds {
                    if children.iter().any(|c| same(c, kind)) {
                        return Err(ManagerError::Sharding(format!(
                            "controller {owner} owns {kind}, which controller {name} reconciles: sharded, each would assign \
                             it a shard; run them in separate managers (rings), or drop the owns",
                            kind = kind.kind
                        )));
                    }
                }
            }
            if leader_election.is_some() {
                return Err(ManagerError::Sharding(
                    "sharding and leader election are both set: with sharding every replica works (drop --leader-elect)"
                        .into(),
                ));
            }
        }
        let listeners = probes
            .map(|(addr, with_metrics)| (addr, Routes { probes: true, metrics: with_metrics }))
            .into_iter()
            .chain(metrics_address.map(|addr| (addr, Routes { probes: false, metrics: true })));
        for (addr, routes) in listeners {
            let bound = probes::serve(addr, routes, health.clone(), metrics.clone())
                .await
                .map_err(|source| ManagerError::Probes { addr, source })?;
            match routes {
                Routes { probes: true, metrics: true } => tracing::info!(%bound, "serving /healthz /readyz /metrics"),
                Routes { probes: true, .. } => tracing::info!(%bound, "serving /healthz /readyz"),
                _ => tracing::info!(%bound, "serving /metrics"),
            }
        }
        let signals = stop.clone();
        tokio::spawn(async move {
            wait_for_signal().await;
            tracing::info!("stop signal: finishing in-flight reconciles");
            signals.trigger();
        });

        // Set by whichever lease keeper (leader or shard) could not renew: the error the
        // manager returns.
        let lost: Arc<std::sync::Mutex<Option<ManagerError>>> = Arc::default();
        let lost_signal = Stop::default();
        let lose = {
            let (lost, lost_signal, stop) = (lost.clone(), lost_signal.clone(), stop.clone());
            move |error: ManagerError| {
                lost.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(error);
                lost_signal.trigger();
                stop.trigger();
            }
        };
        // Triggered once every controller has stopped: the leases (leader and shard) are
        // renewed until then, not merely until the stop signal — in-flight reconciles may
        // take longer than a lease lasts, and another replica must not start meanwhile.
        let controllers_done = Stop::default();
        let leases =
            leader_election.as_ref().map(|cfg| (Api::<Lease>::namespaced(client.clone(), &cfg.namespace), cfg.clone()));
        if let Some((api, cfg)) = &leases {
            health.standby.store(true, Ordering::SeqCst);
            tokio::select! {
                _ = leader::acquire(api, cfg) => {}
                _ = stop.clone().wait() => return Ok(()),
            }
            health.standby.store(false, Ordering::SeqCst);
            health.leader.store(true, Ordering::SeqCst);
            let (api, cfg, lose, done) = (api.clone(), cfg.clone(), lose.clone(), controllers_done.clone());
            tokio::spawn(async move {
                tokio::select! {
                    _ = leader::keep(&api, &cfg) => lose(ManagerError::LeadershipLost(cfg.name.clone())),
                    _ = done.wait() => {}
                }
            });
        }

        let sharding = sharding.map(Arc::new);
        // How the shards select their objects: the API server's shardSelector where it
        // serves it (and it was not ruled out), else labels.
        // A controller that owns kinds: the selector places a child by its own uid, not its
        // owner's shard, so only labels let each shard watch only its children; auto
        // keeps to them then.
        let owns = kinds.iter().any(|(_, _, children)| !children.is_empty());
        let claim = match &sharding {
            Some(s) if s.selection == ShardSelection::Auto && owns => {
                tracing::info!(ring = %s.ring, "sharding by label (owned objects follow their owner's label)");
                None
            }
            Some(s) if s.selection != ShardSelection::Labels => loop {
                match shard_server::served(&client, &s.namespace).await {
                    Ok(true) => {
                        tracing::info!(ring = %s.ring, "sharding by the API server's shardSelector");
                        break Some(Arc::new(Claim::default()));
                    }
                    Ok(false) if s.selection == ShardSelection::Auto => {
                        tracing::info!(ring = %s.ring, "sharding by label (the API server does not serve shardSelector)");
                        break None;
                    }
                    Ok(false) => {
                        return Err(ManagerError::Sharding(
                            "--shard-selection=shard-selector: the API server does not filter by shardSelector (feature \
                             gate ShardedListAndWatch, Kubernetes 1.36 and later); choose labels or auto"
                                .into(),
                        ));
                    }
                    // Refused (RBAC, an aggregated API that does not know the parameter): the
                    // label path works everywhere.
                    Err(kube::Error::Api(e)) if s.selection == ShardSelection::Auto => {
                        tracing::warn!(error = %e, ring = %s.ring, "sharding by label (the API server refused the shardSelector probe)");
                        break None;
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "sharding: cannot ask the API server for shardSelector; retrying")
                    }
                }
                tokio::select! {
                    _ = tokio::time::sleep(s.retry_period) => {}
                    _ = stop.clone().wait() => return Ok(()),
                }
            },
            _ => None,
        };
        let controller_names: Vec<String> = kinds.iter().map(|(name, _, _)| name.clone()).collect();
        let shard_leases =
            sharding.as_ref().map(|s| (Api::<Lease>::namespaced(client.clone(), &s.namespace), s.clone()));
        if let Some((api, s)) = &shard_leases {
            // In the ring before any work: the sharder assigns only to live shards.
            loop {
                match shard::renew(api, s, claim.as_deref()).await {
                    Ok(()) => break,
                    Err(e @ shard::RenewError::Taken(_)) => return Err(ManagerError::Sharding(e.to_string())),
                    Err(e) => tracing::warn!(error = %e, "shard lease: cannot create it; retrying"),
                }
                tokio::select! {
                    _ = tokio::time::sleep(s.retry_period) => {}
                    _ = stop.clone().wait() => return Ok(()),
                }
            }
            tracing::info!(ring = %s.ring, identity = %s.identity, "joined the shard ring");
            // Renewed until every controller has stopped: while in-flight reconciles
            // finish, the lease must stay live, or the sharder would hand their objects on.
            let (api, s2, lose, done) = (api.clone(), s.clone(), lose.clone(), controllers_done.clone());
            let claim2 = claim.clone();
            tokio::spawn(async move {
                tokio::select! {
                    _ = shard::keep(&api, &s2, claim2.as_deref()) => {
                        lose(ManagerError::ShardLost(format!("{}-shard-{}", s2.ring, s2.identity)))
                    }
                    _ = done.wait() => {}
                }
            });
            // Every replica observes the shard leases, so the one that becomes the sharder
            // knows from the start which stopped changing.
            let observed = shard::Observed::default();
            let leases = Api::<Lease>::namespaced(client.clone(), &s.namespace);
            tokio::spawn(shard::observe(leases, s.clone(), observed.clone(), claim.clone(), stop.clone()));
            // The sharder: whichever replica holds its lease assigns the objects.
            if let Some(claim) = &claim {
                let follow = shard_server::follow(
                    claim.clone(),
                    s.clone(),
                    metrics.clone(),
                    controller_names.clone(),
                    stop.clone(),
                );
                tokio::spawn(follow);
            }
            let (client, s, stop, metrics) = (client.clone(), s.clone(), stop.clone(), metrics.clone());
            let granting = claim.is_some();
            tokio::spawn(async move {
                let cfg = s.sharder_lease();
                let api = Api::<Lease>::namespaced(client.clone(), &cfg.namespace);
                loop {
                    tokio::select! {
                        _ = leader::acquire(&api, &cfg) => {}
                        _ = stop.clone().wait() => return,
                    }
                    let assigning: BoxFuture<'static, ()> =
                        if granting {
                            let names = controller_names.clone();
                            Box::pin(shard_server::grant(
                                client.clone(),
                                s.clone(),
                                metrics.clone(),
                                observed.clone(),
                                names,
                            ))
                        } else {
                            Box::pin(
                                futures::future::join_all(sharders.iter().map(|sharder| {
                                    sharder(client.clone(), s.clone(), metrics.clone(), observed.clone())
                                }))
                                .map(|_| ()),
                            )
                        };
                    tokio::select! {
                        _ = assigning => {}
                        _ = leader::keep(&api, &cfg) => {
                            metrics.sharder_stopped();
                            continue;
                        }
                        _ = stop.clone().wait() => {
                            leader::release(&api, &cfg).await;
                            return;
                        }
                    }
                }
            });
        }

        // Counted before anything starts, so /readyz cannot pass before a cache has synced.
        health.unsynced.store(runners.len(), Ordering::SeqCst);
        health.started.store(true, Ordering::SeqCst);
        let mut tasks: Vec<_> = runners
            .into_iter()
            .map(|run| {
                let shard = sharding.clone().map(|s| (s, claim.clone()));
                tokio::spawn(run(stop.clone(), metrics.clone(), health.clone(), shard))
            })
            .collect();
        stop.clone().wait().await;
        // Stops the controllers now: dropping one cancels its reconciles (at their next
        // await; a request already sent still reaches the server).
        // A finished task is left alone: the drain may have awaited it already, and a
        // JoinHandle awaited twice panics.
        let abort = |tasks: &mut Vec<tokio::task::JoinHandle<()>>| {
            let tasks: Vec<_> = std::mem::take(tasks).into_iter().filter(|task| !task.is_finished()).collect();
            for task in &tasks {
                task.abort();
            }
            tokio::time::timeout(Duration::from_secs(5), futures::future::join_all(tasks))
        };
        // A lease lost (leader or shard), before or during the drain: another replica
        // takes over once it expires, so nothing may still run then — in-flight reconciles
        // are cut short at once, as controller-runtime exits when it stops leading.
        let drained = tokio::select! {
            drained = tokio::time::timeout(shutdown_timeout, futures::future::join_all(tasks.iter_mut())) => {
                Some(drained.is_ok())
            }
            _ = lost_signal.clone().wait() => None,
        };
        if drained != Some(true) {
            let _ = abort(&mut tasks).await;
        }
        controllers_done.trigger();
        if let Some(error) = lost.lock().unwrap_or_else(|e| e.into_inner()).take() {
            return Err(error);
        }
        // Gone from the ring once nothing runs: the sharder moves the objects now; the
        // leader lease is given up so a standby takes over at once. After a timeout both
        // are left to expire: a reconcile cut short may still have a request in flight.
        if drained == Some(true) {
            if let Some((api, s)) = &shard_leases {
                shard::release(api, s).await;
            }
            if let Some((api, cfg)) = &leases {
                leader::release(api, cfg).await;
            }
            return Ok(());
        }
        Err(ManagerError::ShutdownTimeout(shutdown_timeout))
    }
}
async fn wait_for_signal() {
    #[cfg(unix)]
    {
        let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(s) => s,
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
                return;
            }
        };
        tokio::select! {
            _ = term.recv() => {}
            _ = tokio::signal::ctrl_c() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
