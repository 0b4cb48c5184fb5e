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

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures::StreamExt;
use http_body_util::BodyExt;
use hyper::body::{Bytes, Frame};
use k8s_openapi::api::coordination::v1::Lease;
use kube::api::{Api, Patch, PatchParams};
use kube::{Client, ResourceExt};

use super::manager::Stop;
use super::metrics::Metrics;
use super::shard::{Observed, Ring, Sharding, version_after};

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
    /// The API server's `shardSelector` where it serves it (asked at start), else labels.
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

/// Ranges an annotation of a lease names (none when absent or unreadable).
fn annotated(lease: &Lease, key: &str) -> Ranges {
    lease.annotations().get(key).and_then(|v| Ranges::decode(v)).unwrap_or_default()
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
pub(crate) struct Claim {
    /// What a reconcile may start on now.
    ranges: Mutex<Ranges>,
    /// Held (read) by every reconcile from before its check of `ranges` to its end: a
    /// narrowing takes it (write) to wait for those that started under the wider ranges.
    in_flight: Arc<tokio::sync::RwLock<()>>,
    /// What the lease says this replica works on: always at least `ranges` and whatever
    /// a reconcile under way started on.
    promised: Mutex<Ranges>,
    /// The grant as last read from the lease (none before the first read).
    granted: Mutex<Option<Ranges>>,
    /// The ranges the watches select; a change makes them list again.
    selected: tokio::sync::watch::Sender<Ranges>,
    /// Wakes the narrowing loop and, once it has narrowed, the lease keeper.
    pub(crate) regranted: tokio::sync::Notify,
    pub(crate) narrowed: tokio::sync::Notify,
}

impl Default for Claim {
    fn default() -> Self {
        Claim {
            ranges: Mutex::default(),
            in_flight: Arc::new(tokio::sync::RwLock::new(())),
            promised: Mutex::default(),
            granted: Mutex::default(),
            selected: tokio::sync::watch::Sender::new(Ranges::default()),
            regranted: tokio::sync::Notify::new(),
            narrowed: tokio::sync::Notify::new(),
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Claim {
    /// The claim's part of a lease renewal: what to write as claimed, given the grant in
    /// the lease read. The caller writes it with that read's resourceVersion and, once
    /// the server has it, calls [`Claim::renewed`].
    pub(crate) fn to_write(&self, granted: &Ranges) -> Ranges {
        lock(&self.promised).union(granted)
    }

    /// A renewal that wrote [`Claim::to_write`] for `granted` succeeded: the claim may now
    /// work on the grant (it was written as claimed first).
    pub(crate) fn renewed(&self, granted: Ranges) {
        {
            // Not the whole of what was written: a narrowing may have ended meanwhile, and
            // what it let go must not be promised again (the next renewal writes it less).
            let mut promised = lock(&self.promised);
            *promised = promised.union(&granted);
        }
        let widened = {
            let mut ranges = lock(&self.ranges);
            let wider = ranges.union(&granted);
            let widened = wider != *ranges;
            *ranges = wider;
            widened
        };
        let changed = lock(&self.granted).as_ref() != Some(&granted);
        *lock(&self.granted) = Some(granted);
        if widened {
            self.selected.send_replace(lock(&self.ranges).clone());
        }
        if changed {
            self.regranted.notify_one();
        }
    }

    /// A new process took its lease over: whatever the lease granted was for the last one.
    pub(crate) fn reset(&self) {
        *lock(&self.granted) = None;
    }

    /// The ranges the watches select now, and their changes.
    pub(crate) fn selection(&self) -> tokio::sync::watch::Receiver<Ranges> {
        self.selected.subscribe()
    }

    /// The claim as a reconcile of an object with `uid` may start on it: the guard to hold
    /// until it ends, or nothing when the object is not this shard's.
    pub(crate) async fn admit(&self, uid: &str) -> Option<tokio::sync::OwnedRwLockReadGuard<()>> {
        let guard = self.in_flight.clone().read_owned().await;
        lock(&self.ranges).contains(fnv1a(uid.as_bytes())).then_some(guard)
    }

    /// Lets go of what the grant no longer holds: no reconcile starts there any more,
    /// those under way end, and then the smaller claim is promised (written at the next
    /// renewal, which is woken). Returns the share let go.
    pub(crate) async fn narrow(&self) -> Option<Ranges> {
        let granted = lock(&self.granted).clone()?;
        let removed = {
            let mut ranges = lock(&self.ranges);
            let removed = ranges.minus(&granted);
            if removed.is_empty() {
                return None;
            }
            *ranges = ranges.intersect(&granted);
            removed
        };
        self.selected.send_replace(lock(&self.ranges).clone());
        // Every reconcile that passed its check before the cut holds a read guard.
        drop(self.in_flight.write().await);
        // Only what was let go and not granted again meanwhile.
        let now = lock(&self.ranges).clone();
        {
            let mut promised = lock(&self.promised);
            *promised = promised.minus(&removed.minus(&now));
        }
        self.narrowed.notify_one();
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
        if let Some(removed) = claim.narrow().await {
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
/// `shardSelector`; a running watch of it ends with `410 Gone` when the selection
/// changes, so kube-runtime's watcher lists again with the new one.
pub(crate) fn selecting_client(inner: Client, all: String, own: String, claim: &Claim) -> Client {
    let selection = claim.selection();
    let default_namespace = inner.default_namespace().to_string();
    let service = tower::service_fn(move |mut request: hyper::Request<kube::client::Body>| {
        let (inner, mut selection) = (inner.clone(), selection.clone());
        let (all, own) = (all.clone(), own.clone());
        async move {
            let mut watching = false;
            if request.method() == hyper::Method::GET && request.uri().path() == all {
                let query = request.uri().query().unwrap_or_default().to_string();
                watching = query.split('&').any(|p| p == "watch=true" || p == "watch=1");
                let selector = query_escape(&selection.borrow_and_update().selector());
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
            if !watching || !parts.status.is_success() {
                return Ok::<_, kube::Error>(hyper::Response::from_parts(parts, body.boxed_unsync()));
            }
            Ok(hyper::Response::from_parts(parts, until_reselected(body, selection).boxed_unsync()))
        }
    });
    Client::new(service, default_namespace)
}

/// The watch event that makes kube-runtime's watcher list again.
const GONE: &str = "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\
                    \"message\":\"the shard's ranges changed: list again\",\"reason\":\"Expired\",\"code\":410}}\n";

/// A watch body that ends with [`GONE`] once the selection changes (between events,
/// never inside one).
fn until_reselected<B>(
    body: B,
    selection: tokio::sync::watch::Receiver<Ranges>,
) -> http_body_util::StreamBody<futures::stream::BoxStream<'static, Result<Frame<Bytes>, tower::BoxError>>>
where
    B: hyper::body::Body<Data = Bytes, Error = tower::BoxError> + Send + 'static,
{
    struct State<S> {
        frames: S,
        selection: tokio::sync::watch::Receiver<Ranges>,
        /// The last byte sent ended an event (a line).
        at_boundary: bool,
        reselected: bool,
        done: bool,
    }
    let frames = StreamExt::boxed(http_body_util::BodyStream::new(body));
    let state = State { frames, selection, at_boundary: true, reselected: false, done: false };
    let stream = futures::stream::unfold(state, |mut st| async move {
        if st.done {
            return None;
        }
        loop {
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
                changed = st.selection.changed(), if !st.reselected => {
                    // A sender gone (the manager stopping) changes nothing here.
                    if changed.is_ok() {
                        st.reselected = true;
                    } else {
                        st.reselected = false;
                        std::future::pending::<()>().await;
                    }
                }
            }
        }
    });
    http_body_util::StreamBody::new(StreamExt::boxed(stream))
}

/// The sharder under server-side sharding, for the whole ring (ranges hold for every
/// kind; `controllers` label its metrics): every retry period, from the leases as
/// observed, narrows each live shard's grant to what the ring gives it and grants it
/// what no other live shard holds in its grant or its claim.
pub(crate) async fn grant(
    client: Client,
    sharding: Arc<Sharding>,
    metrics: Arc<Metrics>,
    observed: Observed,
    controllers: Vec<String>,
) {
    let api: Api<Lease> = Api::namespaced(client, &sharding.namespace);
    for name in &controllers {
        metrics.sharder_started(name);
    }
    // The newest copy of each lease seen: the observer's list, or this loop's own writes.
    let mut newest: BTreeMap<String, Lease> = BTreeMap::new();
    // Since when a shard has waited for ranges another still holds.
    let mut waiting: BTreeMap<String, Instant> = BTreeMap::new();
    loop {
        tokio::time::sleep(sharding.retry_period).await;
        let fresh = sharding.retry_period * 2 + Duration::from_secs(1);
        let Some(live) = lock(&observed).live_leases(fresh) else {
            tracing::warn!("sharder: the shard leases have not been listed lately; waiting");
            continue;
        };
        newest.retain(|identity, _| live.iter().any(|(i, _)| i == identity));
        for (identity, lease) in live {
            let newer = newest.get(&identity).is_none_or(|known| {
                version_after(
                    &known.resource_version().unwrap_or_default(),
                    &lease.resource_version().unwrap_or_default(),
                )
            });
            if newer {
                newest.insert(identity, lease);
            }
        }
        let mixed: Vec<&String> = newest
            .iter()
            .filter(|(_, l)| selection_of(l) != ShardSelection::ShardSelector)
            .map(|(identity, _)| identity)
            .collect();
        if !mixed.is_empty() {
            tracing::warn!(
                ?mixed,
                "sharder: replicas of the ring select by label, not by shardSelector; granting nothing until every \
                 replica selects alike (roll one selection out)"
            );
            continue;
        }
        let ring = Ring::new(newest.keys().cloned(), sharding.virtual_nodes);
        for name in &controllers {
            metrics.ring_shards(name, ring.shards().len());
        }
        for identity in ring.shards() {
            let mut others = Ranges::default();
            for lease in newest.iter().filter(|(other, _)| *other != identity).map(|(_, lease)| lease) {
                others =
                    others.union(&annotated(lease, GRANTED_ANNOTATION)).union(&annotated(lease, CLAIMED_ANNOTATION));
            }
            let desired = ring.ranges(identity);
            let Some(known) = newest.get(identity) else { continue };
            let next = |lease: &Lease| {
                let granted = annotated(lease, GRANTED_ANNOTATION);
                (granted.intersect(&desired).union(&desired.minus(&others)), granted)
            };
            let (grant, granted) = next(known);
            let blocked = !desired.minus(&grant).is_empty();
            if grant == granted {
                if blocked {
                    waiting.entry(identity.clone()).or_insert_with(Instant::now);
                }
                continue;
            }
            // Read again just before writing, and conditional on that copy: the shard
            // renews every retry period, and a copy as old as the last list would
            // mostly conflict. A shard's newer claim, or another sharder's grant,
            // still makes the write fail; the next round sees them.
            let name = format!("{}-shard-{identity}", sharding.ring);
            let current = match api.get(&name).await {
                Ok(lease) => lease,
                Err(e) => {
                    tracing::debug!(lease = %name, error = %e, "sharder: cannot read a shard lease");
                    continue;
                }
            };
            let (grant, granted) = next(&current);
            if grant == granted {
                newest.insert(identity.clone(), current);
                continue;
            }
            let patch = serde_json::json!({"metadata": {
                "resourceVersion": current.resource_version(),
                "annotations": {GRANTED_ANNOTATION: grant.encode()},
            }});
            match api.patch(&name, &PatchParams::default(), &Patch::Merge(&patch)).await {
                Ok(after) => {
                    let gained = !grant.is_subset(&granted);
                    let since = if blocked { None } else { waiting.remove(identity) };
                    if gained {
                        for name in &controllers {
                            metrics.sharder_assigned(
                                name,
                                !granted.is_empty(),
                                since.map(|s| s.elapsed().as_secs_f64()),
                            );
                        }
                    } else {
                        for name in &controllers {
                            metrics.sharder_drained(name);
                        }
                    }
                    tracing::debug!(shard = %identity, share = grant.share(), "sharder: granted");
                    newest.insert(identity.clone(), after);
                }
                Err(kube::Error::Api(s)) if s.code == 409 || s.code == 404 => {}
                Err(e) => tracing::warn!(lease = %name, error = %e, "sharder: cannot write a grant"),
            }
        }
    }
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
            let mut body = until_reselected(http_body_util::StreamBody::new(rx), selection.subscribe());
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
    fn a_narrowed_claim_waits_for_reconciles_under_way_and_then_promises_less() {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async {
            let claim = Arc::new(Claim::default());
            let everything = Ranges::all();
            // Granted everything: claimed first, then worked on.
            assert_eq!(claim.to_write(&everything), everything);
            claim.renewed(everything.clone());
            let uid = "0b0c7e54-7d3c-4cf0-a1a8-3d7e0b7e7a11";
            let h = fnv1a(uid.as_bytes());
            let guard = claim.admit(uid).await.expect("granted");
            // The grant shrinks to the half without this object.
            let half = if h < 1 << 63 {
                Ranges::new(vec![(1 << 63, u64::MAX)])
            } else {
                Ranges::new(vec![(0, (1 << 63) - 1)])
            };
            *lock(&claim.granted) = Some(half.clone());
            let narrowing = tokio::spawn({
                let claim = claim.clone();
                async move { claim.narrow().await }
            });
            tokio::time::sleep(Duration::from_millis(50)).await;
            // It still promises everything: the reconcile under way has not ended.
            assert_eq!(*lock(&claim.promised), everything);
            assert!(!narrowing.is_finished());
            drop(guard);
            let removed = narrowing.await.unwrap().expect("narrowed");
            assert_eq!(removed, half.complement());
            assert_eq!(*lock(&claim.promised), half);
            // A renewal that wrote the wider claim while it narrowed promises no more.
            claim.renewed(half.clone());
            assert_eq!(*lock(&claim.promised), half);
            assert!(claim.admit(uid).await.is_none(), "no longer this shard's");
            assert_eq!(*claim.selection().borrow(), half);
        });
    }
}
