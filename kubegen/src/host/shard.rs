//! Sharding: every replica reconciles a share of the objects, none waits as a standby.
//!
//! - **Membership.** Each replica holds a Lease of its own (`<ring>-shard-<identity>`,
//!   labelled `shard.kubegen.dev/ring: <ring>`), renewed like the leader lease. A replica
//!   that has not renewed for the renew deadline stops reconciling at once; the others
//!   count it gone once its lease has expired (the lease duration, longer than the
//!   deadline).
//! - **Assignment.** A consistent-hash ring over the live shards (virtual nodes per
//!   shard) maps an object, keyed by group, kind, namespace and name, to a shard. The
//!   object carries its shard in the label `shard.kubegen.dev/<ring>`, which one replica,
//!   the sharder (the holder of the Lease `<ring>-sharder`), writes with the object's
//!   resourceVersion as a precondition. The replicas write the labels themselves rather
//!   than through a mutating webhook: the label then needs no webhook in the request
//!   path of every write (an outage of the webhook would block the API), and the
//!   assignment is one place that sees the whole ring.
//! - **Watching only its share.** A shard's controller watches with the label selector
//!   `shard.kubegen.dev/<ring>=<identity>`: its cache holds its objects only. An object
//!   of an owned kind gets its owner's shard label from the sharder, and each shard's
//!   watches of the owned kind select its label (and no label, for children not labelled):
//!   children follow their owner.
//! - **Handoff without overlap.** When the ring changes, the sharder labels an object that
//!   must move with `drain.shard.kubegen.dev/<ring>`; its shard, in the reconcile slot of
//!   that object (kube-runtime never runs one object twice at once), removes both labels
//!   and no longer works on it; the sharder then assigns it to its new shard. An object
//!   of a shard that is gone moves at once: that shard stopped before its lease expired.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures::StreamExt;
use k8s_openapi::api::coordination::v1::{Lease, LeaseSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::MicroTime;
use k8s_openapi::jiff::Timestamp;
use kube::api::{Api, ApiResource, DynamicObject, ListParams, ObjectMeta, Patch, PatchParams, PostParams};
use kube::core::PartialObjectMeta;
use kube::runtime::WatchStreamExt;
use kube::runtime::watcher::{self, watcher};
use kube::{Client, Resource, ResourceExt};

use super::controller::ChildScope;
use super::leader::{held_until, term};
use super::metrics::Metrics;
use super::shard_server::{self, Claim, Ranges, ShardSelection};

/// A controller's part of a sharded manager: the ring, and the claim when the API server
/// selects each shard's objects.
pub(crate) type Shard = (Arc<Sharding>, Option<Arc<Claim>>);

/// The label of a shard's lease that names its ring.
pub const RING_LABEL: &str = "shard.kubegen.dev/ring";

/// A sharded manager's ring and this replica's place in it. Defaults are the leader
/// lease's (controller-runtime's): 15 s lease, 10 s renew deadline, 2 s retry period;
/// 100 virtual nodes a shard, as kubernetes-controller-sharding uses.
#[derive(Debug, Clone)]
pub struct Sharding {
    /// Where the shards' leases live.
    pub namespace: String,
    /// The ring's name (the manager's, usually): the labels' and leases' names.
    pub ring: String,
    /// This replica (its pod name, usually).
    pub identity: String,
    pub lease_duration: Duration,
    pub renew_deadline: Duration,
    pub retry_period: Duration,
    pub virtual_nodes: u32,
    /// How each shard's watches select its objects: labels, or the API server's
    /// `shardSelector` (see [`ShardSelection`]).
    pub selection: ShardSelection,
}

impl Sharding {
    pub fn new(namespace: &str, ring: &str, identity: &str) -> Self {
        Sharding {
            namespace: namespace.into(),
            ring: ring.into(),
            identity: identity.into(),
            lease_duration: Duration::from_secs(15),
            renew_deadline: Duration::from_secs(10),
            retry_period: Duration::from_secs(2),
            virtual_nodes: 100,
            selection: ShardSelection::Auto,
        }
    }

    /// The label that names an object's shard.
    pub fn shard_label(&self) -> String {
        format!("shard.kubegen.dev/{}", self.ring)
    }

    /// The label that asks an object's shard to let it go.
    pub fn drain_label(&self) -> String {
        format!("drain.shard.kubegen.dev/{}", self.ring)
    }

    fn lease_name(&self) -> String {
        format!("{}-shard-{}", self.ring, self.identity)
    }

    /// The sharder's lease: its holder assigns the objects.
    pub(crate) fn sharder_lease(&self) -> super::LeaderElection {
        super::LeaderElection {
            namespace: self.namespace.clone(),
            name: format!("{}-sharder", self.ring),
            identity: self.identity.clone(),
            lease_duration: self.lease_duration,
            renew_deadline: self.renew_deadline,
            retry_period: self.retry_period,
        }
    }

    /// Why the ring or identity cannot name labels and leases, if so.
    pub fn check(&self) -> Result<(), String> {
        let label_value = |v: &str| {
            v.len() <= 63
                && v.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
                && v.starts_with(|c: char| c.is_ascii_alphanumeric())
                && v.ends_with(|c: char| c.is_ascii_alphanumeric())
        };
        let dns = |v: &str| {
            v.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                && v.starts_with(|c: char| c.is_ascii_alphanumeric())
                && v.ends_with(|c: char| c.is_ascii_alphanumeric())
        };
        if !label_value(&self.ring) || !dns(&self.ring) || self.ring.len() > 40 {
            return Err(format!(
                "sharding: the ring name {:?} must be at most 40 lowercase letters, digits and '-' (it names labels and leases)",
                self.ring
            ));
        }
        let dotted_dns = |v: &str| v.split('.').all(dns);
        if !label_value(&self.identity) || !dotted_dns(&self.identity) {
            return Err(format!(
                "sharding: the identity {:?} must be at most 63 lowercase letters, digits, '-' and '.' (a label value and part of a lease name); a pod name is",
                self.identity
            ));
        }
        if self.renew_deadline >= self.lease_duration {
            return Err("sharding: the renew deadline must be shorter than the lease duration (a shard must stop before the others count it gone)".into());
        }
        Ok(())
    }
}

/// A consistent-hash ring: each shard at `virtual_nodes` points of a 64-bit circle; an
/// object belongs to the first point at or after its own hash. A shard joining or
/// leaving moves only the objects between its points and their predecessors.
#[derive(Debug, Clone, Default)]
pub struct Ring {
    points: Vec<(u64, usize)>,
    shards: Vec<String>,
}

impl Ring {
    pub fn new(shards: impl IntoIterator<Item = String>, virtual_nodes: u32) -> Self {
        let mut shards: Vec<String> = shards.into_iter().collect();
        shards.sort();
        shards.dedup();
        let mut points: Vec<(u64, usize)> = shards
            .iter()
            .enumerate()
            .flat_map(|(i, shard)| (0..virtual_nodes.max(1)).map(move |v| (hash(format!("{shard}#{v}").as_bytes()), i)))
            .collect();
        points.sort();
        Ring { points, shards }
    }

    /// The shard of `key` (none on an empty ring).
    pub fn shard_for(&self, key: &str) -> Option<&str> {
        let h = hash(key.as_bytes());
        let at = self.points.partition_point(|(p, _)| *p < h);
        let (_, shard) = self.points.get(at).or_else(|| self.points.first())?;
        Some(&self.shards[*shard])
    }

    pub fn shards(&self) -> &[String] {
        &self.shards
    }

    /// The shard of an object placed by its own hash `h` (the API server's hash of its
    /// uid): the first point above `h`, so that each shard's part of the circle is the
    /// half-open ranges `[previous point, point)` the server's `shardRange` selects.
    pub fn shard_for_hash(&self, h: u64) -> Option<&str> {
        let at = self.points.partition_point(|(p, _)| *p <= h);
        let (_, shard) = self.points.get(at).or_else(|| self.points.first())?;
        Some(&self.shards[*shard])
    }

    /// The shard of an object under server-side sharding: by the API server's hash of
    /// its uid (64-bit FNV-1a), as its `shardSelector` computes it.
    pub fn shard_for_uid(&self, uid: &str) -> Option<&str> {
        self.shard_for_hash(shard_server::fnv1a(uid.as_bytes()))
    }

    /// The parts of the hash space [`Ring::shard_for_hash`] gives `shard`.
    pub fn ranges(&self, shard: &str) -> Ranges {
        let Some(index) = self.shards.iter().position(|s| s == shard) else { return Ranges::default() };
        let mut parts = Vec::new();
        for (i, (point, owner)) in self.points.iter().enumerate() {
            if *owner != index {
                continue;
            }
            if i == 0 {
                // Below the first point, and above the last (the circle closes).
                if *point > 0 {
                    parts.push((0, point - 1));
                }
                if let Some((last, _)) = self.points.last() {
                    parts.push((*last, u64::MAX));
                }
            } else if *point > self.points[i - 1].0 {
                parts.push((self.points[i - 1].0, point - 1));
            }
        }
        Ranges::new(parts)
    }
}

/// FNV-1a, then splitmix64's finalizer to spread nearby keys: stable across processes,
/// platforms and versions (the ring must agree between replicas of different builds).
fn hash(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h ^= h >> 30;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^= h >> 27;
    h = h.wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

/// The objects of `resource` in `namespace`, or in every namespace (and cluster-scoped).
fn scoped<K: Resource<DynamicType = ApiResource, Scope = kube::core::DynamicResourceScope>>(
    client: &Client,
    resource: &ApiResource,
    namespace: Option<&str>,
) -> Api<K> {
    match namespace {
        Some(ns) => Api::namespaced_with(client.clone(), ns, resource),
        None => Api::all_with(client.clone(), resource),
    }
}

/// The key an object is placed on the ring by.
pub fn object_key(resource: &ApiResource, namespace: Option<&str>, name: &str) -> String {
    format!("{}/{}/{}/{}", resource.group, resource.kind, namespace.unwrap_or_default(), name)
}

fn now() -> MicroTime {
    MicroTime(Timestamp::now())
}

/// The annotation of a shard lease that names the process holding it: two replicas
/// started with one identity would otherwise both renew it and both work.
const INSTANCE_ANNOTATION: &str = "shard.kubegen.dev/instance";

/// This process, as [`INSTANCE_ANNOTATION`] names it.
fn instance() -> &'static str {
    static INSTANCE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    INSTANCE.get_or_init(|| {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_nanos();
        format!("{}-{nanos}", std::process::id())
    })
}

/// Why this replica's shard lease could not be renewed.
#[derive(Debug, thiserror::Error)]
pub enum RenewError {
    #[error(transparent)]
    Api(#[from] kube::Error),
    #[error(
        "the shard lease {0} is held by another running replica with the same identity; give each replica its own (--leader-election-identity, $POD_NAME)"
    )]
    Taken(String),
}

/// Seconds of a lease, rounded up (a 3.5 s lease is not written as 3 s).
fn lease_seconds(d: Duration) -> i32 {
    i32::try_from(d.as_secs() + u64::from(d.subsec_nanos() > 0)).unwrap_or(i32::MAX)
}

/// Creates or renews this replica's shard lease; `Ok(())` once the server has it. With a
/// claim (server-side sharding), the renewal also reads the sharder's grant and writes
/// the claim ahead of working on it (see [`shard_server`]).
pub(crate) async fn renew(api: &Api<Lease>, s: &Sharding, claim: Option<&Claim>) -> Result<(), RenewError> {
    let name = s.lease_name();
    let duration = lease_seconds(s.lease_duration);
    let spec = |acquired: Option<MicroTime>| LeaseSpec {
        holder_identity: Some(s.identity.clone()),
        lease_duration_seconds: Some(duration),
        acquire_time: acquired.or_else(|| Some(now())),
        renew_time: Some(now()),
        ..Default::default()
    };
    let selection = if claim.is_some() { ShardSelection::ShardSelector } else { ShardSelection::Labels };
    let mut ours = BTreeMap::from([
        (INSTANCE_ANNOTATION.to_string(), instance().to_string()),
        (shard_server::SELECTION_ANNOTATION.to_string(), selection.as_str().to_string()),
    ]);
    match api.get_opt(&name).await? {
        None => {
            if let Some(claim) = claim {
                claim.reset();
                ours.insert(shard_server::CLAIMED_ANNOTATION.into(), claim.to_write(&Ranges::default()).encode());
            }
            let lease = Lease {
                metadata: ObjectMeta {
                    name: Some(name),
                    labels: Some(BTreeMap::from([(RING_LABEL.to_string(), s.ring.clone())])),
                    annotations: Some(ours),
                    ..Default::default()
                },
                spec: Some(spec(None)),
            };
            api.create(&PostParams::default(), &lease).await?;
            Ok(())
        }
        Some(mut lease) => {
            let holder = lease.annotations().get(INSTANCE_ANNOTATION).cloned();
            let unexpired = lease.spec.as_ref().is_some_and(|spec| held_until(spec, 0) > Timestamp::now());
            if holder.as_deref().is_some_and(|h| h != instance()) && unexpired {
                return Err(RenewError::Taken(name));
            }
            let annotations = lease.metadata.annotations.get_or_insert_default();
            // A lease of another process (this replica's last run): its grant was for that one.
            let taken_over = holder.as_deref() != Some(instance());
            let granted = match claim {
                Some(claim) if taken_over => {
                    claim.reset();
                    annotations.remove(shard_server::GRANTED_ANNOTATION);
                    Some(Ranges::default())
                }
                Some(_) => Some(
                    annotations
                        .get(shard_server::GRANTED_ANNOTATION)
                        .and_then(|g| Ranges::decode(g))
                        .unwrap_or_default(),
                ),
                None => None,
            };
            let claimed = claim.zip(granted.as_ref()).map(|(claim, granted)| claim.to_write(granted));
            if let Some(claimed) = &claimed {
                ours.insert(shard_server::CLAIMED_ANNOTATION.into(), claimed.encode());
            }
            let acquired = lease.spec.as_ref().and_then(|s| s.acquire_time.clone());
            lease.spec = Some(spec(acquired));
            annotations.extend(ours);
            // `replace` carries the resourceVersion read: another writer gets a conflict
            // (a grant written since is read again, and only then claimed).
            api.replace(&name, &PostParams::default(), &lease).await?;
            if let (Some(claim), Some(granted)) = (claim, granted) {
                claim.renewed(granted);
            }
            Ok(())
        }
    }
}

/// How soon a renewal that met a conflict is tried again.
const CONFLICT_RETRY: Duration = Duration::from_millis(100);

/// Keeps the shard lease; returns when no renewal succeeded for the renew deadline. A
/// renewal counts from when it was sent, and one still unanswered at the deadline is
/// given up: a hung connection cannot keep a replica working past its lease.
pub(crate) async fn keep(api: &Api<Lease>, s: &Sharding, claim: Option<&Claim>) {
    let mut last_success = Instant::now();
    // A conflict means the sharder wrote the lease (a grant) since it was read: read it
    // again at once rather than a retry period later, so a replica whose grants change
    // often (one joining a busy ring) cannot lose its lease to a run of conflicts.
    let mut retry_now = false;
    loop {
        // The last try falls at the deadline, not up to a retry period after it.
        let left = s.renew_deadline.saturating_sub(last_success.elapsed());
        let narrowed = async {
            match claim {
                // A smaller claim is written at once (it is what frees the ranges), and so
                // is a new grant (it is claimed by the renewal).
                Some(claim) => claim.renew_now.notified().await,
                None => std::future::pending().await,
            }
        };
        let wait = if retry_now { CONFLICT_RETRY } else { s.retry_period };
        retry_now = false;
        tokio::select! {
            _ = tokio::time::sleep(wait.min(left)) => {}
            _ = narrowed => {}
        }
        let sent = Instant::now();
        let left = s.renew_deadline.saturating_sub(last_success.elapsed());
        if left < Duration::from_millis(50) {
            tracing::warn!(lease = %s.lease_name(), "shard lease lost: no renewal within the renew deadline");
            return;
        }
        match tokio::time::timeout(left, renew(api, s, claim)).await {
            Ok(Ok(())) => last_success = sent,
            Ok(Err(RenewError::Taken(lease))) => {
                tracing::warn!(%lease, "shard lease taken by another replica with this identity");
                return;
            }
            Ok(Err(RenewError::Api(kube::Error::Api(e)))) if e.code == 409 => {
                tracing::debug!(lease = %s.lease_name(), "shard lease: written since it was read; renewing again");
                retry_now = true;
            }
            Ok(Err(e)) => tracing::warn!(error = %e, lease = %s.lease_name(), "shard lease: renewal failed"),
            Err(_) => tracing::warn!(lease = %s.lease_name(), "shard lease: renewal unanswered"),
        }
        if last_success.elapsed() >= s.renew_deadline {
            tracing::warn!(lease = %s.lease_name(), "shard lease lost: no renewal within the renew deadline");
            return;
        }
    }
}

/// Gives the shard lease up on a clean exit: the sharder moves its objects at once.
pub(crate) async fn release(api: &Api<Lease>, s: &Sharding) {
    let _ = api.delete(&s.lease_name(), &Default::default()).await;
}

/// Which shards are live, by this replica's own clock (as client-go's leader election
/// judges a lease): a shard is live while its lease exists and its renewTime has changed
/// within the lease duration of when this replica last saw it change. The holders'
/// clocks are never compared with this one, and a replica that has just started counts
/// every existing lease as renewed now, so it waits a whole lease duration before it
/// counts any shard gone. Every replica observes the leases from its start (`observe`),
/// not only the sharder: one that takes over from a sharder that died already knows
/// which leases stopped changing, and reassigns the dead replica's objects as soon as it
/// holds the sharder lease instead of a lease duration later.
#[derive(Default)]
pub(crate) struct Liveness {
    /// Identity -> (renewTime as written, when it was first seen so, its duration).
    seen: HashMap<String, (String, Instant, Duration)>,
    /// Each holder's lease as last listed (its annotations: selection, grant, claim).
    leases: HashMap<String, Lease>,
    /// When the leases were last listed.
    listed: Option<Instant>,
}

impl Liveness {
    /// Records a list of the ring's leases (the whole ring: leases not in it are gone).
    fn update(&mut self, leases: Vec<Lease>) {
        let present: std::collections::HashSet<String> =
            leases.into_iter().filter_map(|lease| self.seen_lease(lease)).collect();
        self.seen.retain(|holder, _| present.contains(holder));
        self.leases.retain(|holder, _| present.contains(holder));
        self.listed = Some(Instant::now());
    }

    /// Records one lease as seen (by the list, or by the watch between two lists); its
    /// holder, if it has one.
    fn seen_lease(&mut self, lease: Lease) -> Option<String> {
        let spec = lease.spec.as_ref()?;
        let term = term(spec, 0);
        let (holder, renewed) = (spec.holder_identity.clone()?, spec.renew_time.as_ref()?.0.to_string());
        let entry = self.seen.entry(holder.clone()).or_insert_with(|| (renewed.clone(), Instant::now(), term));
        if entry.0 != renewed {
            *entry = (renewed, Instant::now(), term);
        }
        self.leases.insert(holder.clone(), lease);
        Some(holder)
    }

    /// What a sharder acts on, as one number: the holders and each one's selection, grant
    /// and claim (not the renewals, which change every retry period).
    fn shape(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        let mut holders: Vec<(&String, &Lease)> = self.leases.iter().collect();
        holders.sort_by_key(|(holder, _)| *holder);
        for (holder, lease) in holders {
            let annotations = lease.annotations();
            let keys = [
                shard_server::SELECTION_ANNOTATION,
                shard_server::GRANTED_ANNOTATION,
                shard_server::CLAIMED_ANNOTATION,
            ];
            (holder, keys.map(|k| annotations.get(k))).hash(&mut hasher);
        }
        hasher.finish()
    }

    /// The live shards, or nothing when the leases have not been listed within `fresh`
    /// (a replica that cannot list them must not judge them).
    pub(crate) fn live(&self, fresh: Duration) -> Option<Vec<String>> {
        if self.listed.is_none_or(|at| at.elapsed() > fresh) {
            return None;
        }
        let live = self.seen.iter().filter(|(_, (_, seen, term))| seen.elapsed() < *term);
        Some(live.map(|(holder, _)| holder.clone()).collect())
    }

    /// The live shards' leases as last listed, by holder (see [`Liveness::live`]).
    pub(crate) fn live_leases(&self, fresh: Duration) -> Option<Vec<(String, Lease)>> {
        let live = self.live(fresh)?;
        Some(live.into_iter().filter_map(|holder| Some((holder.clone(), self.leases.get(&holder)?.clone()))).collect())
    }
}

/// The shard leases as this replica has seen them: its observer writes, its sharder reads
/// and wakes on [`ObservedLeases::changes`].
#[derive(Default)]
pub(crate) struct ObservedLeases {
    liveness: Mutex<Liveness>,
    /// [`Liveness::shape`] after each update.
    shape: tokio::sync::watch::Sender<u64>,
}

pub(crate) type Observed = Arc<ObservedLeases>;

impl ObservedLeases {
    pub(crate) fn lock(&self) -> std::sync::MutexGuard<'_, Liveness> {
        self.liveness.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Changes when a shard joins or leaves, or a selection, grant or claim changes: the
    /// sharder's next round need not wait for its retry period.
    pub(crate) fn changes(&self) -> tokio::sync::watch::Receiver<u64> {
        self.shape.subscribe()
    }

    fn record(&self, record: impl FnOnce(&mut Liveness)) {
        let shape = {
            let mut liveness = self.lock();
            record(&mut liveness);
            liveness.shape()
        };
        self.shape.send_if_modified(|old| std::mem::replace(old, shape) != shape);
    }
}

/// Whether this replica's lease, as observed, grants other than what its claim last
/// claimed. As a renewal reads it: no grant, or one it cannot read, grants nothing, and
/// before the first renewal the claim has read no grant either. So a lease that grants
/// nothing yet does not renew on the event of its own renewal.
fn regranted(claim: &Claim, lease: &Lease) -> bool {
    let granted =
        lease.annotations().get(shard_server::GRANTED_ANNOTATION).and_then(|g| Ranges::decode(g)).unwrap_or_default();
    claim.granted().unwrap_or_default() != granted
}

/// Observes the shard leases whether or not this replica is the sharder: lists them every
/// retry period (what judges liveness: a replica that cannot list them judges nothing),
/// and watches them in between, so a new shard, a grant or a claim is seen at once. With
/// a claim (server-side sharding), a grant of this replica's that differs from the one it
/// last claimed renews its lease at once, which claims it. Returns when the manager stops.
pub(crate) async fn observe(
    api: Api<Lease>,
    s: Arc<Sharding>,
    observed: Observed,
    claim: Option<Arc<Claim>>,
    stop: super::manager::Stop,
) {
    let ring = format!("{RING_LABEL}={}", s.ring);
    let regranted = |observed: &ObservedLeases| {
        let Some(claim) = &claim else { return };
        let liveness = observed.lock();
        if liveness.leases.get(&s.identity).is_some_and(|lease| regranted(claim, lease)) {
            claim.renew_now.notify_one();
        }
    };
    let params = ListParams::default().labels(&ring);
    let listing = async {
        loop {
            match api.list(&params).await {
                Ok(list) => {
                    observed.record(|l| l.update(list.items));
                    regranted(&observed);
                }
                Err(e) => tracing::debug!(error = %e, "shard leases: cannot list them; retrying"),
            }
            tokio::time::sleep(s.retry_period).await;
        }
    };
    let watching = async {
        let mut leases = watcher(api.clone(), watcher::Config::default().labels(&ring)).default_backoff().boxed();
        while let Some(event) = leases.next().await {
            match event {
                Ok(watcher::Event::Apply(lease) | watcher::Event::InitApply(lease)) => {
                    observed.record(|l| {
                        l.seen_lease(lease);
                    });
                    regranted(&observed);
                }
                // A deleted lease is a shard gone: the next list says so for the ring.
                Ok(_) => {}
                Err(e) => tracing::debug!(error = %e, "shard leases: watch failed; retrying"),
            }
        }
    };
    tokio::select! {
        _ = listing => {}
        _ = watching => {}
        _ = stop.clone().wait() => {}
    }
}

/// What a shard's reconcile of one object may do.
pub(crate) enum Gate {
    /// This shard's: under server-side sharding, with the claim's guard to hold until
    /// the reconcile ends.
    Work(Option<shard_server::InFlight>),
    /// Not this shard's (any more): leave it.
    Skip,
    /// A drained object whose release failed: try again after this.
    Retry(Duration),
}

/// A shard's side of one controller: the handoff of the objects the sharder drains, and
/// what it released (its cache may show one for a moment after).
pub(crate) struct ShardGate {
    sharding: Arc<Sharding>,
    client: Client,
    resource: ApiResource,
    controller: String,
    metrics: Arc<Metrics>,
    /// Server-side sharding: the ranges this replica claims (no labels then).
    claim: Option<Arc<Claim>>,
    /// Released objects, by key, with the resourceVersion of the release and when; kept
    /// until the watch has surely caught up (twice the lease duration).
    released: Mutex<HashMap<String, (u64, Instant)>>,
}

impl ShardGate {
    pub(crate) fn new<K: Resource<DynamicType = ()>>(
        sharding: Arc<Sharding>,
        client: Client,
        controller: &str,
        metrics: Arc<Metrics>,
        claim: Option<Arc<Claim>>,
    ) -> Self {
        metrics.shard_started(controller, &sharding.identity);
        ShardGate {
            sharding,
            client,
            resource: ApiResource::erase::<K>(&()),
            controller: controller.into(),
            metrics,
            claim,
            released: Mutex::default(),
        }
    }

    /// The label selector of this shard's objects.
    pub(crate) fn selector(&self) -> String {
        format!("{}={}", self.sharding.shard_label(), self.sharding.identity)
    }

    pub(crate) fn drain_label(&self) -> String {
        self.sharding.drain_label()
    }

    pub(crate) fn shard_label(&self) -> String {
        self.sharding.shard_label()
    }

    pub(crate) fn identity(&self) -> &str {
        &self.sharding.identity
    }

    /// Server-side sharding's claim, if that is how this shard selects.
    pub(crate) fn claim(&self) -> Option<&Arc<Claim>> {
        self.claim.as_ref()
    }

    /// Forgets releases the watch has long caught up with.
    pub(crate) fn prune(&self) {
        let keep = self.sharding.lease_duration * 2;
        self.released.lock().unwrap_or_else(|e| e.into_inner()).retain(|_, (_, at)| at.elapsed() < keep);
    }

    /// Called in the object's reconcile slot, before the reconciler: an object being
    /// drained is released (its labels removed), one not this shard's is left.
    pub(crate) async fn gate<K: Resource>(&self, obj: &K) -> Gate {
        let meta = obj.meta();
        if let Some(claim) = &self.claim {
            let uid = meta.uid.as_deref().unwrap_or_default();
            return match claim.admit(uid) {
                Some(guard) => Gate::Work(Some(guard)),
                None => {
                    tracing::debug!(object = ?meta.name, shard = %self.sharding.identity, "shard: not in this shard's ranges");
                    Gate::Skip
                }
            };
        }
        let name = meta.name.clone().unwrap_or_default();
        let key = object_key(&self.resource, meta.namespace.as_deref(), &name);
        let labels = meta.labels.clone().unwrap_or_default();
        if labels.get(&self.sharding.shard_label()) != Some(&self.sharding.identity) {
            tracing::debug!(object = %name, shard = %self.sharding.identity, "shard: not this shard's (any more)");
            return Gate::Skip;
        }
        let version = meta.resource_version.as_deref().and_then(|v| v.parse::<u64>().ok());
        {
            let mut released = self.released.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((at, _)) = released.get(&key) {
                // The cache still shows the object as it was before the release: stale.
                if version.is_none_or(|v| v <= *at) {
                    tracing::debug!(object = %name, shard = %self.sharding.identity, "shard: a copy from before its release");
                    return Gate::Skip;
                }
                released.remove(&key);
            }
        }
        if !labels.contains_key(&self.sharding.drain_label()) {
            return Gate::Work(None);
        }
        let api: Api<DynamicObject> = scoped(&self.client, &self.resource, meta.namespace.as_deref());
        // The resourceVersion of the copy in hand as a precondition: a stale copy (the
        // object since released and assigned elsewhere) cannot strip its new shard's label.
        let patch = serde_json::json!({"metadata": {"resourceVersion": meta.resource_version, "labels": {
            self.sharding.shard_label(): null,
            self.sharding.drain_label(): null,
        }}});
        match api.patch_metadata(&name, &PatchParams::default(), &Patch::Merge(&patch)).await {
            Ok(after) => {
                let at = after.resource_version().and_then(|v| v.parse::<u64>().ok()).unwrap_or(u64::MAX);
                self.released.lock().unwrap_or_else(|e| e.into_inner()).insert(key, (at, Instant::now()));
                self.metrics.shard_released(&self.controller, &self.sharding.identity);
                tracing::debug!(object = %name, shard = %self.sharding.identity, "shard: released to the sharder");
                Gate::Skip
            }
            // Gone, or changed since this copy: the newer copy's event comes next.
            Err(kube::Error::Api(s)) if s.code == 404 => Gate::Skip,
            Err(kube::Error::Api(s)) if s.code == 409 => Gate::Retry(self.sharding.retry_period),
            Err(e) => {
                tracing::warn!(object = %name, error = %e, "shard: cannot release a drained object; retrying");
                Gate::Retry(self.sharding.retry_period)
            }
        }
    }
}

/// What one controller's sharder watches: the controller's kind, where and as the
/// controller watches it (namespace, label and field selectors), and the kinds it owns.
pub(crate) struct Kinds {
    pub(crate) resource: ApiResource,
    pub(crate) scope: (Option<String>, Option<String>, Option<String>),
    pub(crate) children: Vec<ChildScope>,
}

/// A child as the sharder last saw it: the name of its controller owner of the sharded
/// kind, its shard label, its resourceVersion.
type Child = (Option<String>, Option<String>, String);

/// The group of an `apiVersion` (`apps/v1` -> `apps`, `v1` -> the core group, "").
fn group_of(api_version: &str) -> &str {
    api_version.rsplit_once('/').map_or("", |(group, _)| group)
}

/// The sharder's loop for one kind: watches the objects' metadata (what the controller
/// watches), and every retry period assigns what has no live shard and drains what the
/// ring moved; an owned object gets its controller owner's shard label.
pub(crate) async fn assign(
    client: Client,
    kinds: Kinds,
    controller: String,
    sharding: Arc<Sharding>,
    metrics: Arc<Metrics>,
    observed: Observed,
) {
    let Kinds { resource, scope: (namespace, labels, fields), children: child_kinds } = kinds;
    metrics.sharder_started(&controller);
    // Metadata only: the sharder holds every object's labels, not its spec.
    let watched: Api<PartialObjectMeta<DynamicObject>> = scoped(&client, &resource, namespace.as_deref());
    let mut config = watcher::Config::default();
    if let Some(labels) = &labels {
        config = config.labels(labels);
    }
    if let Some(fields) = &fields {
        config = config.fields(fields);
    }
    let mut events = watcher(watched, config).boxed();
    // The owned kinds' metadata, each as the controller watches it.
    let mut child_events =
        futures::stream::select_all(child_kinds.iter().enumerate().map(|(i, (kind, namespace, labels, fields))| {
            let api: Api<PartialObjectMeta<DynamicObject>> = scoped(&client, kind, namespace.as_deref());
            let mut config = watcher::Config::default();
            if let Some(labels) = labels {
                config = config.labels(labels);
            }
            if let Some(fields) = fields {
                config = config.fields(fields);
            }
            // Its own backoff: a kind whose watch keeps failing (not installed, no RBAC)
            // must not hold up the sharder's loop.
            watcher(api, config).default_backoff().map(move |event| (i, event)).boxed()
        }));
    let mut children: Vec<HashMap<ObjectId, Child>> = vec![HashMap::new(); child_kinds.len()];
    let mut child_listing: Vec<Option<HashMap<ObjectId, Child>>> = vec![None; child_kinds.len()];
    // Its controller owner of the kind, else any owner of the kind (kube-runtime's owns
    // maps every owner reference).
    let owner_of = |o: &PartialObjectMeta<DynamicObject>| {
        let of_kind = |r: &&k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference| {
            r.kind == resource.kind && group_of(&r.api_version) == resource.group
        };
        let refs = o.owner_references();
        let owner = refs.iter().filter(of_kind).find(|r| r.controller == Some(true));
        owner.or_else(|| refs.iter().find(of_kind)).map(|r| r.name.clone())
    };
    // Objects by (namespace, name): labels and resourceVersion, as last seen; a relist
    // fills `listing` and replaces them when done.
    let mut objects: HashMap<ObjectId, Seen> = HashMap::new();
    let mut listing: Option<HashMap<ObjectId, Seen>> = None;
    let draining: Arc<Mutex<HashMap<ObjectId, Instant>>> = Arc::default();
    let mut tick = tokio::time::interval(sharding.retry_period);
    let mut changes = observed.changes();
    let (shard_key, drain_key) = (sharding.shard_label(), sharding.drain_label());
    loop {
        tokio::select! {
            event = events.next() => {
                let seen = |o: &PartialObjectMeta<DynamicObject>| {
                    ((o.namespace(), o.name_any()), (o.labels().clone(), o.resource_version().unwrap_or_default()))
                };
                match event {
                    Some(Ok(watcher::Event::Apply(o))) => { let (id, s) = seen(&o); objects.insert(id, s); }
                    Some(Ok(watcher::Event::InitApply(o))) => { let (id, s) = seen(&o); listing.get_or_insert_default().insert(id, s); }
                    Some(Ok(watcher::Event::Delete(o))) => { objects.remove(&(o.namespace(), o.name_any())); }
                    Some(Ok(watcher::Event::Init)) => listing = Some(HashMap::new()),
                    Some(Ok(watcher::Event::InitDone)) => objects = listing.take().unwrap_or_default(),
                    Some(Err(e)) => {
                        tracing::warn!(error = %e, "sharder: watch failed; retrying");
                        tokio::time::sleep(sharding.retry_period).await;
                    }
                    None => return,
                }
                continue;
            }
            Some((i, event)) = child_events.next(), if !child_kinds.is_empty() => {
                let seen = |o: &PartialObjectMeta<DynamicObject>| {
                    let child = (owner_of(o), o.labels().get(&shard_key).cloned(), o.resource_version().unwrap_or_default());
                    ((o.namespace(), o.name_any()), child)
                };
                match event {
                    // Only objects owned by the kind are kept (an owned kind may have many others).
                    Ok(watcher::Event::Apply(o)) => match seen(&o) {
                        (id, c) if c.0.is_some() => { children[i].insert(id, c); }
                        (id, _) => { children[i].remove(&id); }
                    },
                    Ok(watcher::Event::InitApply(o)) => {
                        let listing = child_listing[i].get_or_insert_default();
                        if let (id, c @ (Some(_), _, _)) = seen(&o) { listing.insert(id, c); }
                    }
                    Ok(watcher::Event::Delete(o)) => { children[i].remove(&(o.namespace(), o.name_any())); }
                    Ok(watcher::Event::Init) => child_listing[i] = Some(HashMap::new()),
                    Ok(watcher::Event::InitDone) => children[i] = child_listing[i].take().unwrap_or_default(),
                    Err(e) => {
                        tracing::warn!(error = %e, kind = %child_kinds[i].0.kind, "sharder: watch of owned objects failed; retrying");
                    }
                }
                continue;
            }
            _ = tick.tick() => {}
            // A shard joined (or a list found one gone): assign without waiting for the
            // tick, once replicas joining together have (a scale-up moves objects once).
            Ok(()) = changes.changed() => tokio::time::sleep(shard_server::SETTLE).await,
        }
        // As the observer last listed them: within two retry periods, or no decision.
        let fresh = sharding.retry_period * 2 + Duration::from_secs(1);
        let Some(live) = observed.lock().live_leases(fresh) else {
            tracing::warn!("sharder: the shard leases have not been listed lately; waiting");
            continue;
        };
        if shard_server::mixed(live.iter().map(|(holder, lease)| (holder, lease)), ShardSelection::Labels) {
            continue;
        }
        let ring = Ring::new(live.into_iter().map(|(holder, _)| holder), sharding.virtual_nodes);
        metrics.ring_shards(&controller, ring.shards().len());
        let mut patches = Vec::new();
        for ((namespace, name), (labels, version)) in &objects {
            let key = object_key(&resource, namespace.as_deref(), name);
            let Some(desired) = ring.shard_for(&key) else { break };
            let current = labels.get(&shard_key);
            let alive = current.is_some_and(|c| ring.shards().iter().any(|s| s == c));
            let mut labels_patch = serde_json::Map::new();
            if !alive {
                // Unassigned, or its shard is gone (it stopped before its lease expired).
                labels_patch.insert(shard_key.clone(), desired.into());
                labels_patch.insert(drain_key.clone(), serde_json::Value::Null);
            } else if current.map(String::as_str) != Some(desired) && !labels.contains_key(&drain_key) {
                labels_patch.insert(drain_key.clone(), "true".into());
            } else {
                continue;
            }
            let moved = current.is_some();
            let api: Api<DynamicObject> = scoped(&client, &resource, namespace.as_deref());
            let draining_now = labels_patch.get(&drain_key).is_some_and(|v| !v.is_null());
            // The resourceVersion as a precondition: nobody changed its labels since.
            let patch = serde_json::json!({"metadata": {"resourceVersion": version, "labels": labels_patch}});
            let (id, name, metrics, controller, draining) = (
                (namespace.clone(), name.clone()),
                name.clone(),
                metrics.clone(),
                controller.clone(),
                draining.clone(),
            );
            patches.push(async move {
                match api.patch_metadata(&name, &PatchParams::default(), &Patch::Merge(&patch)).await {
                    Ok(after) => {
                        if draining_now {
                            draining.lock().unwrap_or_else(|e| e.into_inner()).insert(id.clone(), Instant::now());
                            metrics.sharder_drained(&controller);
                        } else {
                            let since = draining.lock().unwrap_or_else(|e| e.into_inner()).remove(&id);
                            metrics.sharder_assigned(&controller, moved, since.map(|s| s.elapsed().as_secs_f64()));
                        }
                        Some((id, (after.labels().clone(), after.resource_version().unwrap_or_default())))
                    }
                    // Changed or gone since it was seen: the next round sees it again.
                    Err(kube::Error::Api(s)) if s.code == 409 || s.code == 404 => None,
                    Err(e) => {
                        tracing::warn!(object = %name, error = %e, "sharder: cannot label the object");
                        None
                    }
                }
            });
        }
        // What the server answered is what the object now is: the next round does not
        // label it again before the watch reports it (under load it lags, and every
        // repeated patch would fail on the resourceVersion).
        let patched: Vec<Option<(ObjectId, Seen)>> =
            futures::stream::iter(patches).buffer_unordered(16).collect().await;
        for (id, seen) in patched.into_iter().flatten() {
            if let Some(entry) = objects.get_mut(&id)
                && version_after(&entry.1, &seen.1)
            {
                *entry = seen;
            }
        }
        // Owned objects follow their controller owner's shard: a shard's children watch
        // selects its label as the owner's does.
        let mut patches = Vec::new();
        for (i, kind_children) in children.iter().enumerate() {
            for ((namespace, name), (owner, shard, _)) in kind_children {
                let Some(owner) = owner else { continue };
                // A namespaced owner is in its child's namespace; a cluster-scoped one in none.
                let parent =
                    objects.get(&(namespace.clone(), owner.clone())).or_else(|| objects.get(&(None, owner.clone())));
                // Only to a live shard (a parent whose move failed this round waits for the next).
                let Some(desired) = parent.and_then(|(labels, _)| labels.get(&shard_key)) else { continue };
                if !ring.shards().iter().any(|s| s == desired) {
                    continue;
                }
                if shard.as_ref() == Some(desired) {
                    continue;
                }
                let api: Api<DynamicObject> = scoped(&client, &child_kinds[i].0, namespace.as_deref());
                // No resourceVersion precondition: the label follows from the owner's alone, and
                // children that change often (a rolling Deployment) would keep conflicting.
                let patch = serde_json::json!({"metadata": {"labels": {&shard_key: desired}}});
                let (id, name, owner, key, metrics, controller) = (
                    (namespace.clone(), name.clone()),
                    name.clone(),
                    owner.clone(),
                    shard_key.clone(),
                    metrics.clone(),
                    controller.clone(),
                );
                patches.push(async move {
                    match api.patch_metadata(&name, &PatchParams::default(), &Patch::Merge(&patch)).await {
                        Ok(after) => {
                            metrics.sharder_child_labelled(&controller);
                            let child = (
                                Some(owner),
                                after.labels().get(&key).cloned(),
                                after.resource_version().unwrap_or_default(),
                            );
                            Some((i, id, child))
                        }
                        Err(kube::Error::Api(s)) if s.code == 409 || s.code == 404 => None,
                        Err(e) => {
                            tracing::warn!(object = %name, error = %e, "sharder: cannot label an owned object");
                            None
                        }
                    }
                });
            }
        }
        let patched: Vec<Option<(usize, ObjectId, Child)>> =
            futures::stream::iter(patches).buffer_unordered(16).collect().await;
        for (i, id, seen) in patched.into_iter().flatten() {
            if let Some(entry) = children[i].get_mut(&id)
                && version_after(&entry.2, &seen.2)
            {
                *entry = seen;
            }
        }
    }
}

/// Whether resourceVersion `b` is later than `a` (the watch may have reported a later
/// change meanwhile); they are etcd revisions, compared as numbers when both are.
fn version_after(a: &str, b: &str) -> bool {
    match (a.parse::<u64>(), b.parse::<u64>()) {
        (Ok(a), Ok(b)) => b > a,
        _ => a != b,
    }
}

type ObjectId = (Option<String>, String);
/// An object's labels and resourceVersion.
type Seen = (BTreeMap<String, String>, String);

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("example.com/Sample/ns/s{i}")).collect()
    }

    fn shares(ring: &Ring, keys: &[String]) -> BTreeMap<String, usize> {
        let mut out = BTreeMap::new();
        for key in keys {
            *out.entry(ring.shard_for(key).unwrap().to_string()).or_insert(0) += 1;
        }
        out
    }

    /// A review found a joining shard renewing in a loop on the events of its own
    /// renewals: a lease that grants nothing is no new grant, before or after a renewal.
    #[test]
    fn only_a_grant_of_something_else_renews_at_once() {
        let lease = |granted: Option<&str>| Lease {
            metadata: ObjectMeta {
                annotations: granted
                    .map(|g| BTreeMap::from([(shard_server::GRANTED_ANNOTATION.to_string(), g.to_string())])),
                ..Default::default()
            },
            spec: None,
        };
        let claim = Claim::default();
        assert!(!regranted(&claim, &lease(None)), "no grant, nothing read yet");
        claim.renewed(Ranges::default());
        assert!(!regranted(&claim, &lease(None)), "no grant, none claimed");
        assert!(!regranted(&claim, &lease(Some(""))), "an empty grant");
        assert!(!regranted(&claim, &lease(Some("zz-1"))), "a grant it cannot read grants nothing");
        let half = Ranges::new(vec![(0, u64::MAX / 2)]);
        assert!(regranted(&claim, &lease(Some(&half.encode()))), "a new grant");
        claim.renewed(half.clone());
        assert!(!regranted(&claim, &lease(Some(&half.encode()))), "the grant claimed");
        assert!(regranted(&claim, &lease(None)), "a grant taken back");
    }

    #[test]
    fn the_ring_spreads_objects_evenly_and_the_same_everywhere() {
        let keys = keys(10_000);
        let shards = ["shard-a", "shard-b", "shard-c", "shard-d", "shard-e"].map(String::from);
        let ring = Ring::new(shards.clone(), 100);
        // The order the shards are listed in changes nothing.
        let reversed = Ring::new(shards.iter().rev().cloned(), 100);
        assert!(keys.iter().all(|k| ring.shard_for(k) == reversed.shard_for(k)));
        for (shard, n) in shares(&ring, &keys) {
            // 2,000 each on average; 100 virtual nodes keep each within about 20%.
            assert!((1_600..=2_400).contains(&n), "{shard}: {n} of 10,000");
        }
        // Pinned: the hash must not change between versions (replicas of two builds
        // share one ring during a rollout).
        assert_eq!(
            hash(b"example.com/Sample/ns/s0"),
            0x8462_798b_79a6_af87,
            "{:#x}",
            hash(b"example.com/Sample/ns/s0")
        );
        assert_eq!(Ring::new(Vec::<String>::new(), 100).shard_for("x"), None);
    }

    #[test]
    fn a_shard_joining_or_leaving_moves_only_its_share() {
        let keys = keys(10_000);
        let three = Ring::new(["a", "b", "c"].map(String::from), 100);
        let four = Ring::new(["a", "b", "c", "d"].map(String::from), 100);
        let mut moved = 0;
        for key in &keys {
            let (before, after) = (three.shard_for(key).unwrap(), four.shard_for(key).unwrap());
            if before != after {
                assert_eq!(after, "d", "{key} moved from {before} to {after}, not to the new shard");
                moved += 1;
            }
        }
        // About a quarter moves to the fourth shard.
        assert!((1_900..=3_100).contains(&moved), "{moved} of 10,000 moved");
    }

    #[test]
    fn leases_round_up_and_versions_compare_as_numbers() {
        assert_eq!(lease_seconds(Duration::from_millis(3_500)), 4);
        assert_eq!(lease_seconds(Duration::from_secs(15)), 15);
        assert!(version_after("99", "100"), "numbers, not text");
        assert!(!version_after("100", "99"));
        assert!(!version_after("7", "7"));
    }

    #[test]
    fn ring_and_identity_must_name_labels_and_leases() {
        assert!(Sharding::new("ns", "foo", "foo-7d9c-x2").check().is_ok());
        assert!(Sharding::new("ns", "Foo", "pod").check().unwrap_err().contains("ring name"));
        assert!(Sharding::new("ns", "foo", "pod.example").check().is_ok());
        assert!(Sharding::new("ns", "foo", "Pod_1").check().unwrap_err().contains("identity"));
        assert!(Sharding::new("ns", "foo", &"p".repeat(64)).check().unwrap_err().contains("identity"));
        let mut s = Sharding::new("ns", "foo", "pod");
        s.renew_deadline = s.lease_duration;
        assert!(s.check().unwrap_err().contains("renew deadline"));
    }
}
