//! Sharding through the API server's `shardSelector` (KEP-5866, feature gate
//! `ShardedListAndWatch`, alpha since Kubernetes 1.36): the server filters each shard's
//! list and watch by a 64-bit FNV-1a hash of the object's uid, so a replica decodes only
//! its share and no object carries a shard label (no write per object, no sharder watch
//! of every object).
//!
//! - **Assignment.** The same consistent-hash ring as the label path, over the hash space
//!   itself: each shard owns the arcs below its virtual nodes ([`Ring::ranges`]). An
//!   object belongs to the shard whose ranges hold the FNV-1a hash of its uid, as the
//!   server computes it.
//! - **Handoff without overlap.** The sharder (the holder of `<ring>-sharder`) grants each
//!   live shard its ranges in its shard Lease (`shard.kubegen.dev/granted`), and a range
//!   only once no other live shard holds it in its grant or in its claim. A shard claims
//!   what it is granted in its Lease (`shard.kubegen.dev/claimed`) *before* it works on
//!   it, written with the resourceVersion it read the grant at (so a grant narrowed
//!   meanwhile cannot be claimed). When its grant narrows it stops taking objects of the
//!   ranges let go, waits for the reconciles under way in them to end, and only then
//!   writes the smaller claim — which is what frees the ranges for their new shard.
//! - **Watching only its share.** The controller's watch is made through a client that
//!   adds `shardSelector` (the claimed ranges) to its list and watch requests; when the
//!   claim changes, the running watch ends with `410 Gone`, so the watcher lists again
//!   with the new selector.
//! - **Owned objects.** Their uids hash elsewhere, so a shard watches every child (as an
//!   unsharded controller does); an event for another shard's owner ends at the cache.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures::StreamExt;
use http_body_util::BodyExt;
use hyper::body::{Bytes, Frame};
use k8s_openapi::api::coordination::v1::Lease;
use kube::api::{Api, ListParams, Patch, PatchParams};
use kube::{Client, ResourceExt};

use super::manager::Stop;
use super::metrics::Metrics;
use super::shard::{Observed, Ring, Sharding};

/// The annotation a shard's lease carries its selection in: replicas of one ring must
/// select alike, or a labelled object and a hashed one could meet on two shards.
pub(crate) const SELECTION_ANNOTATION: &str = "shard.kubegen.dev/selection";
/// The ranges the sharder grants a shard (written by the sharder).
pub(crate) const GRANTED_ANNOTATION: &str = "shard.kubegen.dev/granted";
/// The ranges a shard works on or may still be working on (written by the shard).
pub(crate) const CLAIMED_ANNOTATION: &str = "shard.kubegen.dev/claimed";

/// The object field the API server hashes.
const FIELD: &str = "object.metadata.uid";

/// How a sharded manager's watches select each shard's objects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ShardSelection {
    /// The API server's `shardSelector` where it serves it (asked at start) and no
    /// controller of the manager owns kinds (only labels make children follow their
    /// owner's shard), else labels.
    #[default]
    Auto,
    /// The shard label the sharder writes on each object: every API server.
    Labels,
    /// The API server's `shardSelector` over the object's uid (KEP-5866, feature gate
    /// `ShardedListAndWatch`): the manager refuses to start where the server lacks it.
    ShardSelector,
}

impl ShardSelection {
    /// As its lease annotation and `--shard-selection` write it.
    pub fn as_str(self) -> &'static str {
        match self {
            ShardSelection::Auto => "auto",
            ShardSelection::Labels => "labels",
            ShardSelection::ShardSelector => "shard-selector",
        }
    }
}

impl std::str::FromStr for ShardSelection {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "auto" => Ok(ShardSelection::Auto),
            "labels" => Ok(ShardSelection::Labels),
            "shard-selector" => Ok(ShardSelection::ShardSelector),
            other => Err(format!("{other:?} is not a shard selection: write auto, labels or shard-selector")),
        }
    }
}

/// The API server's hash of a field's value: 64-bit FNV-1a of its bytes.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Parts of the 64-bit hash space: sorted, disjoint and not touching, each inclusive.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ranges(Vec<(u64, u64)>);

impl Ranges {
    pub fn new(mut parts: Vec<(u64, u64)>) -> Self {
        parts.retain(|(a, b)| a <= b);
        parts.sort_unstable();
        let mut out: Vec<(u64, u64)> = Vec::with_capacity(parts.len());
        for (a, b) in parts {
            match out.last_mut() {
                Some(last) if a <= last.1.saturating_add(1) => last.1 = last.1.max(b),
                _ => out.push((a, b)),
            }
        }
        Ranges(out)
    }

    pub fn all() -> Self {
        Ranges(vec![(0, u64::MAX)])
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn parts(&self) -> &[(u64, u64)] {
        &self.0
    }

    pub fn contains(&self, h: u64) -> bool {
        let at = self.0.partition_point(|(a, _)| *a <= h);
        at > 0 && self.0[at - 1].1 >= h
    }

    pub fn union(&self, other: &Ranges) -> Ranges {
        Ranges::new(self.0.iter().chain(&other.0).copied().collect())
    }

    pub fn intersect(&self, other: &Ranges) -> Ranges {
        let (mut i, mut j, mut out) = (0, 0, Vec::new());
        while i < self.0.len() && j < other.0.len() {
            let ((a1, b1), (a2, b2)) = (self.0[i], other.0[j]);
            let (lo, hi) = (a1.max(a2), b1.min(b2));
            if lo <= hi {
                out.push((lo, hi));
            }
            if b1 < b2 {
                i += 1;
            } else {
                j += 1;
            }
        }
        Ranges(out)
    }

    pub fn complement(&self) -> Ranges {
        let mut out = Vec::new();
        let mut from: u128 = 0;
        for &(a, b) in &self.0 {
            if u128::from(a) > from {
                out.push((from as u64, a - 1));
            }
            from = u128::from(b) + 1;
        }
        if from <= u128::from(u64::MAX) {
            out.push((from as u64, u64::MAX));
        }
        Ranges(out)
    }

    pub fn minus(&self, other: &Ranges) -> Ranges {
        self.intersect(&other.complement())
    }

    pub fn is_subset(&self, other: &Ranges) -> bool {
        self.minus(other).is_empty()
    }

    /// The share of the hash space, 0 to 1.
    pub fn share(&self) -> f64 {
        let n: u128 = self.0.iter().map(|(a, b)| u128::from(b - a) + 1).sum();
        n as f64 / 2f64.powi(64)
    }

    /// The `shardSelector` that lists these ranges: `shardRange(field, start, end)`, end
    /// exclusive, joined by `||`. The server reads an empty selector as "everything", so
    /// no ranges select the single hash 0 (and the gate refuses that object too).
    pub fn selector(&self) -> String {
        let empty = [(0, 0)];
        let parts = if self.0.is_empty() { &empty[..] } else { &self.0[..] };
        let range = |(a, b): &(u64, u64)| format!("shardRange({FIELD}, '0x{a:016x}', '0x{:016x}')", u128::from(*b) + 1);
        parts.iter().map(range).collect::<Vec<_>>().join(" || ")
    }

    /// As a lease annotation holds it: `start-end` in hex, inclusive, comma-separated.
    pub fn encode(&self) -> String {
        self.0.iter().map(|(a, b)| format!("{a:x}-{b:x}")).collect::<Vec<_>>().join(",")
    }

    /// What [`Ranges::encode`] wrote, or nothing for text it did not write.
    pub fn decode(text: &str) -> Option<Ranges> {
        if text.trim().is_empty() {
            return Some(Ranges::default());
        }
        let parts = text.split(',').map(|part| {
            let (a, b) = part.trim().split_once('-')?;
            Some((u64::from_str_radix(a, 16).ok()?, u64::from_str_radix(b, 16).ok()?))
        });
        parts.collect::<Option<Vec<_>>>().map(Ranges::new)
    }
}

/// Ranges an annotation of a lease names: none when absent, nothing when unreadable.
fn annotated(lease: &Lease, key: &str) -> Option<Ranges> {
    lease.annotations().get(key).map_or(Some(Ranges::default()), |v| Ranges::decode(v))
}

/// Whether the API server filters lists by `shardSelector`: it echoes the selector in
/// `metadata.shardInfo` where `ShardedListAndWatch` is on, and ignores it where not.
pub(crate) async fn served(client: &Client, namespace: &str) -> Result<bool, kube::Error> {
    let path = format!(
        "/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases?limit=1&shardSelector={}",
        query_escape(&Ranges::all().selector())
    );
    let request = hyper::Request::get(path).body(Vec::new()).map_err(kube::Error::HttpError)?;
    let list: serde_json::Value = client.request(request).await?;
    Ok(list.pointer("/metadata/shardInfo").is_some())
}

/// A query parameter's value, percent-encoded (all but unreserved characters).
fn query_escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len() * 2);
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// One replica's claim under server-side sharding, shared by its controllers (the
/// ranges hold for every kind), its lease keeper and its narrowing loop.
#[derive(Default)]
pub(crate) struct Claim {
    state: Mutex<ClaimState>,
    /// Wakes a narrowing when a reconcile ends.
    ended: tokio::sync::Notify,
    /// The ranges the watches select; a change makes them list again.
    selected: tokio::sync::watch::Sender<Ranges>,
    /// Wakes the narrowing loop.
    pub(crate) regranted: tokio::sync::Notify,
    /// Wakes the lease keeper: a narrowing has ended, or the lease holds a grant other
    /// than the one last claimed.
    pub(crate) renew_now: tokio::sync::Notify,
}

/// Kept under one lock: a check of `ranges` and the count of what it let in, a cut of
/// `ranges` and the shrinking of `promised`, are each one step.
#[derive(Default)]
struct ClaimState {
    /// What a reconcile may start on now.
    ranges: Ranges,
    /// What the lease says this replica works on: always at least `ranges` and the
    /// hashes of the reconciles under way.
    promised: Ranges,
    /// The grant as last read from the lease (none before the first read).
    granted: Option<Ranges>,
    /// Reconciles under way, by the hash of their object's uid.
    in_flight: HashMap<u64, usize>,
    /// Bumped whenever `ranges` change (see [`Claim::epoch`]).
    epoch: u64,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A reconcile under way in a claim: counted until dropped.
pub(crate) struct InFlight {
    claim: Arc<Claim>,
    hash: u64,
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let mut state = lock(&self.claim.state);
        if let Some(n) = state.in_flight.get_mut(&self.hash) {
            *n -= 1;
            if *n == 0 {
                state.in_flight.remove(&self.hash);
            }
        }
        drop(state);
        self.claim.ended.notify_waiters();
    }
}

impl Claim {
    /// The claim's part of a lease renewal: what to write as claimed, given the grant in
    /// the lease read. The caller writes it with that read's resourceVersion and, once
    /// the server has it, calls [`Claim::renewed`].
    pub(crate) fn to_write(&self, granted: &Ranges) -> Ranges {
        lock(&self.state).promised.union(granted)
    }

    /// A renewal that wrote [`Claim::to_write`] for `granted` succeeded: the claim may now
    /// work on the grant (it was written as claimed first).
    pub(crate) fn renewed(&self, granted: Ranges) {
        let mut state = lock(&self.state);
        // Not the whole of what was written: a narrowing may have ended meanwhile, and
        // what it let go must not be promised again (the next renewal writes it less).
        state.promised = state.promised.union(&granted);
        let wider = state.ranges.union(&granted);
        let widened = wider != state.ranges;
        if widened {
            state.ranges = wider;
            state.epoch += 1;
        }
        let changed = state.granted.as_ref() != Some(&granted);
        state.granted = Some(granted);
        let ranges = state.ranges.clone();
        drop(state);
        if widened {
            self.selected.send_replace(ranges);
        }
        if changed {
            self.regranted.notify_one();
        }
    }

    /// The grant as last claimed (none before the first renewal).
    pub(crate) fn granted(&self) -> Option<Ranges> {
        lock(&self.state).granted.clone()
    }

    /// A new process took its lease over: whatever the lease granted was for the last one.
    pub(crate) fn reset(&self) {
        lock(&self.state).granted = None;
    }

    /// The ranges the watches select now, and their changes.
    pub(crate) fn selection(&self) -> tokio::sync::watch::Receiver<Ranges> {
        self.selected.subscribe()
    }

    /// Changes whenever the ranges do: an object that comes back to this shard must pass
    /// a controller's generation filter again.
    pub(crate) fn epoch(&self) -> u64 {
        lock(&self.state).epoch
    }

    /// A reconcile of the object with `uid` may start: counted until the returned guard is
    /// dropped, or nothing when the object is not in this shard's ranges. Never waits.
    pub(crate) fn admit(self: &Arc<Self>, uid: &str) -> Option<InFlight> {
        let hash = fnv1a(uid.as_bytes());
        let mut state = lock(&self.state);
        if !state.ranges.contains(hash) {
            return None;
        }
        *state.in_flight.entry(hash).or_default() += 1;
        Some(InFlight { claim: self.clone(), hash })
    }

    /// Lets go of what the grant no longer holds: no reconcile starts there any more,
    /// those under way there end (others go on), and then the smaller claim is promised
    /// (written at once: the lease keeper is woken). Returns the share let go.
    pub(crate) async fn narrow(&self, identity: &str) -> Option<Ranges> {
        let removed = {
            let mut state = lock(&self.state);
            let granted = state.granted.clone()?;
            let removed = state.ranges.minus(&granted);
            if removed.is_empty() {
                return None;
            }
            state.ranges = state.ranges.intersect(&granted);
            state.epoch += 1;
            removed
        };
        self.selected.send_replace(lock(&self.state).ranges.clone());
        let started = std::time::Instant::now();
        let mut warned = Duration::ZERO;
        loop {
            // Registered before the check, so an end between the two is not missed.
            let ended = self.ended.notified();
            let waiting = {
                let mut state = lock(&self.state);
                let ranges = state.ranges.clone();
                let busy = state.in_flight.keys().filter(|h| removed.contains(**h) && !ranges.contains(**h)).count();
                if busy == 0 {
                    // What was let go and not granted again meanwhile, in the same step as
                    // the check.
                    state.promised = state.promised.minus(&removed.minus(&ranges));
                    None
                } else {
                    Some(busy)
                }
            };
            let Some(busy) = waiting else { break };
            if started.elapsed() >= warned + Duration::from_secs(30) {
                warned = started.elapsed();
                tracing::warn!(
                    shard = %identity, busy, waited = ?warned,
                    "shard: ranges no longer granted wait for reconciles still under way there"
                );
            }
            let _ = tokio::time::timeout(Duration::from_secs(1), ended).await;
        }
        self.renew_now.notify_one();
        Some(removed)
    }
}

/// Narrows the claim whenever its grant shrinks; returns when the manager stops.
pub(crate) async fn follow(
    claim: Arc<Claim>,
    s: Arc<Sharding>,
    metrics: Arc<Metrics>,
    controllers: Vec<String>,
    stop: Stop,
) {
    loop {
        tokio::select! {
            _ = claim.regranted.notified() => {}
            _ = tokio::time::sleep(s.retry_period) => {}
            _ = stop.clone().wait() => return,
        }
        let started = std::time::Instant::now();
        if let Some(removed) = claim.narrow(&s.identity).await {
            for name in &controllers {
                metrics.shard_released(name, &s.identity);
            }
            let waited = started.elapsed();
            tracing::info!(shard = %s.identity, share = removed.share(), ?waited, "shard: let go of ranges no longer granted");
        }
    }
}

/// A client whose list and watch requests of one collection (`all`, as
/// `Api::all` names it, sent to `own`, the controller's own URL) carry the claim's
/// `shardSelector`. A list's pages all carry the ranges of its first page, and a watch
/// resumes from a list only with the ranges that list had: when the ranges have changed
/// since, the watch answers `410 Gone` at once, and a running watch ends with it when
/// they change, so kube-runtime's watcher lists again with the new ranges.
pub(crate) fn selecting_client(inner: Client, all: String, own: String, claim: &Claim) -> Client {
    let selection = claim.selection();
    let listed: Arc<Mutex<Option<Ranges>>> = Arc::default();
    let default_namespace = inner.default_namespace().to_string();
    let service = tower::service_fn(move |mut request: hyper::Request<kube::client::Body>| {
        let (inner, mut selection, listed) = (inner.clone(), selection.clone(), listed.clone());
        let (all, own) = (all.clone(), own.clone());
        async move {
            let mut watching = None;
            if request.method() == hyper::Method::GET && request.uri().path() == all {
                let query = request.uri().query().unwrap_or_default().to_string();
                let has = |param: &str| query.split('&').any(|p| p == param);
                let is_watch = has("watch=true") || has("watch=1");
                let lists = !is_watch || has("sendInitialEvents=true");
                let current = selection.borrow_and_update().clone();
                let ranges = if query.split('&').any(|p| p.starts_with("continue=")) {
                    // The same selector as the list's first page (the server requires it).
                    lock(&listed).clone().unwrap_or_else(|| current.clone())
                } else if lists {
                    *lock(&listed) = Some(current.clone());
                    current
                } else if lock(&listed).as_ref() == Some(&current) {
                    current
                } else {
                    // Resuming from a list of other ranges would miss the objects of the
                    // new ones: list again.
                    let body = http_body_util::Full::new(Bytes::from_static(GONE.as_bytes()));
                    return Ok(hyper::Response::new(body.map_err(|never| match never {}).boxed_unsync()));
                };
                if is_watch {
                    watching = Some(ranges.clone());
                }
                let selector = query_escape(&ranges.selector());
                let uri = if query.is_empty() {
                    format!("{own}?shardSelector={selector}")
                } else {
                    format!("{own}?{query}&shardSelector={selector}")
                };
                *request.uri_mut() =
                    uri.parse().map_err(|e: hyper::http::uri::InvalidUri| kube::Error::Service(e.into()))?;
            }
            let response = inner.send(request).await?;
            let (parts, body) = response.into_parts();
            let body = body.map_err(tower::BoxError::from);
            match watching {
                Some(ranges) if parts.status.is_success() => {
                    Ok(hyper::Response::from_parts(parts, until_reselected(body, selection, ranges).boxed_unsync()))
                }
                _ => Ok::<_, kube::Error>(hyper::Response::from_parts(parts, body.boxed_unsync())),
            }
        }
    });
    Client::new(service, default_namespace)
}

/// The watch event that makes kube-runtime's watcher list again.
const GONE: &str = "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\
                    \"message\":\"the shard's ranges changed: list again\",\"reason\":\"Expired\",\"code\":410}}\n";

/// A watch body (of `ranges`) that ends with [`GONE`] once the selection is other
/// ranges (between events, never inside one).
fn until_reselected<B>(
    body: B,
    selection: tokio::sync::watch::Receiver<Ranges>,
    ranges: Ranges,
) -> http_body_util::StreamBody<futures::stream::BoxStream<'static, Result<Frame<Bytes>, tower::BoxError>>>
where
    B: hyper::body::Body<Data = Bytes, Error = tower::BoxError> + Send + 'static,
{
    struct State<S> {
        frames: S,
        selection: tokio::sync::watch::Receiver<Ranges>,
        ranges: Ranges,
        /// The last byte sent ended an event (a line).
        at_boundary: bool,
        reselected: bool,
        /// The claim is gone (the manager stopping): nothing changes any more.
        closed: bool,
        done: bool,
    }
    let frames = StreamExt::boxed(http_body_util::BodyStream::new(body));
    let state = State { frames, selection, ranges, at_boundary: true, reselected: false, closed: false, done: false };
    let stream = futures::stream::unfold(state, |mut st| async move {
        if st.done {
            return None;
        }
        loop {
            if !st.reselected && !st.closed && *st.selection.borrow() != st.ranges {
                st.reselected = true;
            }
            if st.reselected && st.at_boundary {
                st.done = true;
                return Some((Ok(Frame::data(Bytes::from_static(GONE.as_bytes()))), st));
            }
            tokio::select! {
                frame = st.frames.next() => {
                    let frame = frame?;
                    if let Ok(frame) = &frame
                        && let Some(data) = frame.data_ref()
                        && !data.is_empty()
                    {
                        st.at_boundary = data.ends_with(b"\n");
                    }
                    return Some((frame, st));
                }
                changed = st.selection.changed(), if !st.reselected && !st.closed => {
                    st.closed = changed.is_err();
                }
            }
        }
    });
    http_body_util::StreamBody::new(StreamExt::boxed(stream))
}

/// How long the sharder waits after a change of the shard leases for others close behind.
pub(crate) const SETTLE: Duration = Duration::from_millis(250);

/// The sharder under server-side sharding, for the whole ring (ranges hold for every
/// kind; `controllers` label its metrics): every retry period it lists the ring's leases
/// afresh and, for the shards live as observed, narrows each grant to what the ring gives
/// the shard and grants it what no other live shard holds in its grant or its claim, each
/// write conditional on the copy just listed. (Under one sharder at a time — the sharder
/// lease — no other grant can change between that list and the write; a shard's claim
/// can only grow within its grant.)
pub(crate) async fn grant(
    client: Client,
    sharding: Arc<Sharding>,
    metrics: Arc<Metrics>,
    observed: Observed,
    controllers: Vec<String>,
) {
    let api: Api<Lease> = Api::namespaced(client, &sharding.namespace);
    let ring_leases = ListParams::default().labels(&format!("{}={}", super::shard::RING_LABEL, sharding.ring));
    for name in &controllers {
        metrics.sharder_started(name);
    }
    // Since when a shard has waited for ranges another still holds.
    let mut waiting: BTreeMap<String, Instant> = BTreeMap::new();
    let mut changes = observed.changes();
    // The first round a retry period after the start: replicas started together (a
    // rollout, a scale-up) have all joined by then and are granted their share at once,
    // rather than one taking the whole ring and handing most of it on.
    tokio::time::sleep(sharding.retry_period).await;
    let mut first = true;
    // A grant met a conflict (its shard renewed between the list and the write): the
    // next round comes soon, not a retry period later.
    let mut soon = false;
    loop {
        // Then every retry period, and soon after a shard joins or a grant or claim
        // changes (a joining shard waits a few round trips, not a few retry periods);
        // changes close together make one round.
        if soon {
            tokio::time::sleep(SETTLE).await;
        } else if !first {
            tokio::select! {
                _ = tokio::time::sleep(sharding.retry_period) => {}
                Ok(()) = changes.changed() => tokio::time::sleep(SETTLE).await,
            }
        }
        (first, soon) = (false, false);
        changes.mark_unchanged();
        let fresh = sharding.retry_period * 2 + Duration::from_secs(1);
        let Some(live) = observed.lock().live(fresh) else {
            tracing::warn!("sharder: the shard leases have not been listed lately; waiting");
            continue;
        };
        let listed = match api.list(&ring_leases).await {
            Ok(list) => list.items,
            Err(e) => {
                tracing::debug!(error = %e, "sharder: cannot list the shard leases; retrying");
                continue;
            }
        };
        tracing::debug!(live = live.len(), leases = listed.len(), "sharder: a round");
        let leases: BTreeMap<String, Lease> = listed
            .into_iter()
            .filter_map(|lease| Some((lease.spec.as_ref()?.holder_identity.clone()?, lease)))
            .filter(|(holder, _)| live.contains(holder))
            .collect();
        if mixed(&leases, ShardSelection::ShardSelector) {
            continue;
        }
        let ring = Ring::new(leases.keys().cloned(), sharding.virtual_nodes);
        waiting.retain(|identity, _| leases.contains_key(identity));
        for name in &controllers {
            metrics.ring_shards(name, ring.shards().len());
        }
        for (identity, lease) in &leases {
            // What every other live shard holds: its grant and its claim (an annotation
            // that cannot be read holds everything).
            let others = leases
                .iter()
                .filter(|(other, _)| *other != identity)
                .fold(Ranges::default(), |held, (_, l)| held.union(&holding(l)));
            let desired = ring.ranges(identity);
            let granted = annotated(lease, GRANTED_ANNOTATION).unwrap_or_default();
            let grant = granted.intersect(&desired).union(&desired.minus(&others));
            if !desired.is_subset(&grant) {
                waiting.entry(identity.clone()).or_insert_with(Instant::now);
            }
            if grant == granted {
                continue;
            }
            let name = lease.name_any();
            match write_grant(&api, lease, &grant).await {
                Ok(_) => {
                    if grant.is_subset(&granted) {
                        for name in &controllers {
                            metrics.sharder_drained(name);
                        }
                    } else {
                        let since = desired.is_subset(&grant).then(|| waiting.remove(identity)).flatten();
                        let handoff = since.map(|s| s.elapsed().as_secs_f64());
                        for name in &controllers {
                            metrics.sharder_assigned(name, !granted.is_empty(), handoff);
                        }
                    }
                    tracing::debug!(shard = %identity, share = grant.share(), "sharder: granted");
                }
                // The shard renewed since the list: the next round, soon (or it is gone).
                Err(kube::Error::Api(s)) if s.code == 409 => soon = true,
                Err(kube::Error::Api(s)) if s.code == 404 => {}
                Err(e) => tracing::warn!(lease = %name, error = %e, "sharder: cannot write a grant"),
            }
        }
    }
}

/// Writes `grant` into a shard's lease, conditionally on the copy `listed`. A conflict
/// from the shard's renewal alone (its grant and claim as listed) is written again on the
/// copy read then: a renewal must not cost the grant a round. Any other change is a
/// conflict for the next round to decide on.
async fn write_grant(api: &Api<Lease>, listed: &Lease, grant: &Ranges) -> Result<Lease, kube::Error> {
    let name = listed.name_any();
    let held = |lease: &Lease| [GRANTED_ANNOTATION, CLAIMED_ANNOTATION].map(|k| lease.annotations().get(k).cloned());
    let mut version = listed.resource_version();
    let mut attempt = 0;
    loop {
        attempt += 1;
        let patch = serde_json::json!({"metadata": {
            "resourceVersion": version,
            "annotations": {GRANTED_ANNOTATION: grant.encode()},
        }});
        match api.patch(&name, &PatchParams::default(), &Patch::Merge(&patch)).await {
            Err(kube::Error::Api(s)) if s.code == 409 && attempt <= 3 => {
                let now = api.get(&name).await?;
                if held(&now) != held(listed) {
                    return Err(kube::Error::Api(s));
                }
                version = now.resource_version();
            }
            result => return result,
        }
    }
}

/// What a shard's lease holds: its grant and its claim; an annotation that is there but
/// cannot be read holds everything (a newer replica's format must not free its ranges).
fn holding(lease: &Lease) -> Ranges {
    let read = |key| annotated(lease, key).unwrap_or_else(Ranges::all);
    read(GRANTED_ANNOTATION).union(&read(CLAIMED_ANNOTATION))
}

/// Whether a live replica of the ring selects otherwise than `mine` (named in a warning):
/// a sharder then assigns, grants and drains nothing (a labelled object and a hashed one
/// could meet on two shards).
pub(crate) fn mixed<'a>(leases: impl IntoIterator<Item = (&'a String, &'a Lease)>, mine: ShardSelection) -> bool {
    let others: Vec<&String> =
        leases.into_iter().filter(|(_, lease)| selection_of(lease) != mine).map(|(identity, _)| identity).collect();
    if !others.is_empty() {
        tracing::warn!(
            ?others,
            sharder = mine.as_str(),
            "sharder: replicas of the ring select otherwise; assigning nothing until every replica selects alike \
             (roll one selection out)"
        );
    }
    !others.is_empty()
}

/// How a shard's lease says it selects (a lease without the annotation is from a replica
/// that only knew labels).
pub(crate) fn selection_of(lease: &Lease) -> ShardSelection {
    match lease.annotations().get(SELECTION_ANNOTATION).map(String::as_str) {
        Some("shard-selector") => ShardSelection::ShardSelector,
        _ => ShardSelection::Labels,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_merge_intersect_and_complement() {
        let r = Ranges::new(vec![(10, 20), (21, 30), (5, 7), (40, 39)]);
        assert_eq!(r.parts(), &[(5, 7), (10, 30)], "touching parts merge, empty ones go");
        assert!(r.contains(5) && r.contains(30) && !r.contains(8) && !r.contains(31));
        let s = Ranges::new(vec![(0, 6), (25, 50)]);
        assert_eq!(r.intersect(&s).parts(), &[(5, 6), (25, 30)]);
        assert_eq!(r.union(&s).parts(), &[(0, 7), (10, 50)]);
        assert_eq!(r.minus(&s).parts(), &[(7, 7), (10, 24)]);
        assert_eq!(Ranges::default().complement(), Ranges::all());
        assert_eq!(Ranges::all().complement(), Ranges::default());
        assert_eq!(Ranges::new(vec![(u64::MAX, u64::MAX)]).complement().parts(), &[(0, u64::MAX - 1)]);
        assert!(r.is_subset(&r.union(&s)) && !r.union(&s).is_subset(&r));
        assert_eq!(Ranges::decode(&r.encode()), Some(r.clone()));
        assert_eq!(Ranges::decode(""), Some(Ranges::default()));
        assert_eq!(Ranges::decode("zz-1"), None);
        assert!((Ranges::new(vec![(0, u64::MAX / 2)]).share() - 0.5).abs() < 1e-9);
    }

    #[test]
    fn the_selector_is_the_servers_grammar_with_an_exclusive_end() {
        assert_eq!(
            Ranges::all().selector(),
            "shardRange(object.metadata.uid, '0x0000000000000000', '0x10000000000000000')"
        );
        assert_eq!(
            Ranges::new(vec![(0, 0x7fff_ffff_ffff_ffff), (0xc000_0000_0000_0000, 0xcfff_ffff_ffff_ffff)]).selector(),
            "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000') || \
             shardRange(object.metadata.uid, '0xc000000000000000', '0xd000000000000000')"
        );
        // Nothing: the hash 0 alone (an empty selector would be everything).
        assert_eq!(
            Ranges::default().selector(),
            "shardRange(object.metadata.uid, '0x0000000000000000', '0x0000000000000001')"
        );
        assert_eq!(query_escape("a b'(|)"), "a%20b%27%28%7C%29");
        // The server's HashField: Go's hash/fnv New64a.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn the_rings_ranges_split_the_hash_space_as_shard_for_hash_does() {
        let shards = ["shard-a", "shard-b", "shard-c"].map(String::from);
        let ring = Ring::new(shards.clone(), 100);
        let ranges: Vec<Ranges> = shards.iter().map(|s| ring.ranges(s)).collect();
        // Disjoint and together everything.
        let mut all = Ranges::default();
        for (i, r) in ranges.iter().enumerate() {
            assert!(all.intersect(r).is_empty(), "{} overlaps another", shards[i]);
            all = all.union(r);
            assert!((0.2..0.47).contains(&r.share()), "{}: {}", shards[i], r.share());
        }
        assert_eq!(all, Ranges::all());
        // Each hash is in the ranges of the shard the ring gives it.
        for i in 0..20_000u64 {
            let h = fnv1a(format!("uid-{i}").as_bytes());
            let shard = ring.shard_for_hash(h).unwrap();
            let at = shards.iter().position(|s| s == shard).unwrap();
            assert!(ranges[at].contains(h), "{h:#x} is {shard}'s but not in its ranges");
        }
        // A fourth shard takes only from the others.
        let four = Ring::new(shards.iter().cloned().chain(["shard-d".to_string()]), 100);
        for (i, s) in shards.iter().enumerate() {
            assert!(four.ranges(s).is_subset(&ranges[i]), "{s} gained ranges when a shard joined");
        }
        assert!(Ring::new(Vec::<String>::new(), 100).ranges("x").is_empty());
    }

    #[test]
    fn a_watch_ends_with_gone_between_events_once_the_selection_changes() {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async {
            let (tx, rx) = futures::channel::mpsc::unbounded::<Result<Frame<Bytes>, tower::BoxError>>();
            let selection = tokio::sync::watch::Sender::new(Ranges::all());
            let mut body = until_reselected(http_body_util::StreamBody::new(rx), selection.subscribe(), Ranges::all());
            let mut next = async || {
                let frame = body.frame().await?.expect("a frame");
                Some(String::from_utf8(frame.into_data().expect("data").to_vec()).unwrap())
            };
            tx.unbounded_send(Ok(Frame::data(Bytes::from_static(b"{\"type\":\"ADDED\"}\n{\"type\":")))).unwrap();
            assert_eq!(next().await.unwrap(), "{\"type\":\"ADDED\"}\n{\"type\":");
            // Changed in the middle of an event: the event is finished first.
            selection.send_replace(Ranges::default());
            tx.unbounded_send(Ok(Frame::data(Bytes::from_static(b"\"MODIFIED\"}\n")))).unwrap();
            assert_eq!(next().await.unwrap(), "\"MODIFIED\"}\n");
            let gone = next().await.unwrap();
            let event: serde_json::Value = serde_json::from_str(gone.trim_end()).unwrap();
            assert_eq!(event["type"], "ERROR");
            assert_eq!(event["object"]["code"], 410, "the watcher lists again on 410 Gone");
            assert!(next().await.is_none(), "the body ends after it");
        });
    }

    #[test]
    fn a_narrowed_claim_waits_for_reconciles_under_way_there_and_then_promises_less() {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async {
            let claim = Arc::new(Claim::default());
            let everything = Ranges::all();
            // Granted everything: claimed first, then worked on.
            assert_eq!(claim.to_write(&everything), everything);
            claim.renewed(everything.clone());
            // Two objects, one in each half of the hash space.
            let uid = |low: bool| {
                let mut uids = (0u64..).map(|i| format!("{:x}-uid", i.wrapping_mul(0x9e37_79b9_7f4a_7c15)));
                uids.find(|u| (fnv1a(u.as_bytes()) < 1 << 63) == low).unwrap()
            };
            let (low, high) = (&uid(true), &uid(false));
            let guard = claim.admit(low).expect("granted");
            let epoch = claim.epoch();
            // The grant shrinks to the upper half: `low` is no longer this shard's.
            let half = Ranges::new(vec![(1 << 63, u64::MAX)]);
            lock(&claim.state).granted = Some(half.clone());
            let narrowing = tokio::spawn({
                let claim = claim.clone();
                async move { claim.narrow("shard-a").await }
            });
            tokio::time::sleep(Duration::from_millis(50)).await;
            // It still promises everything: the reconcile under way has not ended; others
            // start at once, and none in the half let go.
            assert_eq!(lock(&claim.state).promised, everything);
            assert!(!narrowing.is_finished());
            assert!(claim.admit(high).is_some(), "a reconcile in the kept half waits for nothing");
            assert!(claim.admit(low).is_none(), "nothing starts in the half let go");
            assert_ne!(claim.epoch(), epoch, "objects coming back must pass the generation filter");
            drop(guard);
            let removed = narrowing.await.unwrap().expect("narrowed");
            assert_eq!(removed, half.complement());
            assert_eq!(lock(&claim.state).promised, half);
            // A renewal that wrote the wider claim while it narrowed promises no more.
            claim.renewed(half.clone());
            assert_eq!(lock(&claim.state).promised, half);
            assert_eq!(*claim.selection().borrow(), half);
        });
    }

    #[test]
    fn lists_and_watches_carry_the_ranges_and_a_watch_never_resumes_a_list_of_others() {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async {
            let sent: Arc<Mutex<Vec<String>>> = Arc::default();
            let inner = {
                let sent = sent.clone();
                Client::new(
                    tower::service_fn(move |request: hyper::Request<kube::client::Body>| {
                        lock(&sent).push(request.uri().to_string());
                        let body = http_body_util::Full::new(Bytes::from_static(b"{}"));
                        async move { Ok::<_, std::convert::Infallible>(hyper::Response::new(body)) }
                    }),
                    "default",
                )
            };
            let claim = Arc::new(Claim::default());
            claim.renewed(Ranges::all());
            let all = "/apis/example.com/v1/samples".to_string();
            let own = "/apis/example.com/v1/namespaces/ns/samples".to_string();
            let client = selecting_client(inner, all.clone(), own, &claim);
            let get = async |query: &str| {
                let request = hyper::Request::get(format!("{all}?{query}")).body(kube::client::Body::empty()).unwrap();
                let response = client.send(request).await.unwrap();
                String::from_utf8(response.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap()
            };
            let selector = |r: &Ranges| format!("shardSelector={}", query_escape(&r.selector()));
            get("limit=500").await;
            let last = || lock(&sent).last().cloned().unwrap_or_default();
            assert!(last().starts_with("/apis/example.com/v1/namespaces/ns/samples?limit=500&"), "{}", last());
            assert!(last().ends_with(&selector(&Ranges::all())), "{}", last());
            // The grant narrows while the list is paged: its pages keep the first one's ranges.
            let half = Ranges::new(vec![(1 << 63, u64::MAX)]);
            lock(&claim.state).granted = Some(half.clone());
            claim.narrow("shard-a").await.expect("narrowed");
            get("limit=500&continue=abc").await;
            assert!(last().ends_with(&selector(&Ranges::all())), "a page changed selector: {}", last());
            // The watch that would resume from that list: listed again instead.
            let calls = lock(&sent).len();
            let answer = get("watch=true&resourceVersion=7").await;
            assert_eq!(lock(&sent).len(), calls, "the watch went to the server");
            assert!(answer.contains("\"code\":410"), "{answer}");
            // The new list and the watch after it carry the new ranges.
            get("limit=500").await;
            assert!(last().ends_with(&selector(&half)), "{}", last());
            get("watch=true&resourceVersion=9").await;
            assert!(last().contains("watch=true") && last().ends_with(&selector(&half)), "{}", last());
            // Other paths are left alone.
            let request = hyper::Request::get("/api/v1/namespaces").body(kube::client::Body::empty()).unwrap();
            client.send(request).await.unwrap();
            assert_eq!(last(), "/api/v1/namespaces");
        });
    }

    #[test]
    fn a_range_granted_again_while_narrowing_stays_promised() {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async {
            let claim = Arc::new(Claim::default());
            claim.renewed(Ranges::all());
            let uid = (0..).map(|i| format!("uid-{i}")).find(|u| fnv1a(u.as_bytes()) < 1 << 63).unwrap();
            let guard = claim.admit(&uid).expect("granted");
            let half = Ranges::new(vec![(1 << 63, u64::MAX)]);
            lock(&claim.state).granted = Some(half);
            let narrowing = tokio::spawn({
                let claim = claim.clone();
                async move { claim.narrow("shard-a").await }
            });
            tokio::time::sleep(Duration::from_millis(20)).await;
            // Granted everything again before the reconcile ends: what the narrowing let go
            // is this shard's again, and must stay promised.
            claim.renewed(Ranges::all());
            drop(guard);
            narrowing.await.unwrap();
            let state = lock(&claim.state);
            assert!(state.ranges.is_subset(&state.promised), "{:?} not within {:?}", state.ranges, state.promised);
            assert_eq!(state.promised, Ranges::all());
        });
    }
}
