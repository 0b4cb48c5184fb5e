//! Lease-based leader election (coordination.k8s.io/v1), as client-go's
//! `leaderelection` does it: take the Lease when it is free or expired, renew it every
//! retry period, and give up leading when renewals fail for longer than the renew
//! deadline. A small module on `Api<Lease>` rather than another dependency that must
//! move in step with kube's releases.

use std::time::{Duration, Instant};

use k8s_openapi::api::coordination::v1::{Lease, LeaseSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::MicroTime;
use k8s_openapi::jiff::Timestamp;
use kube::Api;
use kube::api::{ObjectMeta, PostParams};

/// Where the Lease lives and how long a term lasts. Defaults are controller-runtime's:
/// 15 s lease, 10 s renew deadline, 2 s retry period.
#[derive(Debug, Clone)]
pub struct LeaderElection {
    pub namespace: String,
    pub name: String,
    pub identity: String,
    pub lease_duration: Duration,
    pub renew_deadline: Duration,
    pub retry_period: Duration,
}

impl LeaderElection {
    pub fn new(namespace: &str, name: &str, identity: &str) -> Self {
        LeaderElection {
            namespace: namespace.into(),
            name: name.into(),
            identity: identity.into(),
            lease_duration: Duration::from_secs(15),
            renew_deadline: Duration::from_secs(10),
            retry_period: Duration::from_secs(2),
        }
    }
}

fn now() -> MicroTime {
    MicroTime(Timestamp::now())
}

/// A lease's term: its duration (`default` seconds when unset).
pub(crate) fn term(spec: &LeaseSpec, default: i32) -> Duration {
    Duration::from_secs(spec.lease_duration_seconds.unwrap_or(default).max(0) as u64)
}

/// When a lease's holder stops holding it, by the holder's clock: its renewTime plus its
/// term.
pub(crate) fn held_until(spec: &LeaseSpec, default: i32) -> Timestamp {
    let renewed = spec.renew_time.as_ref().map(|t| t.0).unwrap_or(Timestamp::UNIX_EPOCH);
    renewed.checked_add(term(spec, default)).unwrap_or(renewed)
}

/// One attempt: `Ok(true)` when this identity holds the lease afterwards.
pub(crate) async fn try_acquire_or_renew(api: &Api<Lease>, cfg: &LeaderElection) -> Result<bool, kube::Error> {
    let duration = i32::try_from(cfg.lease_duration.as_secs()).unwrap_or(i32::MAX);
    let lease = match api.get_opt(&cfg.name).await? {
        Some(lease) => lease,
        None => {
            let lease = Lease {
                metadata: ObjectMeta { name: Some(cfg.name.clone()), ..Default::default() },
                spec: Some(LeaseSpec {
                    holder_identity: Some(cfg.identity.clone()),
                    lease_duration_seconds: Some(duration),
                    acquire_time: Some(now()),
                    renew_time: Some(now()),
                    lease_transitions: Some(0),
                    ..Default::default()
                }),
            };
            return match api.create(&PostParams::default(), &lease).await {
                Ok(_) => Ok(true),
                Err(kube::Error::Api(s)) if s.code == 409 => Ok(false),
                Err(e) => Err(e),
            };
        }
    };
    let spec = lease.spec.clone().unwrap_or_default();
    let holder = spec.holder_identity.clone().unwrap_or_default();
    let ours = holder == cfg.identity;
    if !ours && !holder.is_empty() && Timestamp::now() < held_until(&spec, duration) {
        return Ok(false);
    }
    let mut next = lease.clone();
    let mut new_spec = spec.clone();
    new_spec.holder_identity = Some(cfg.identity.clone());
    new_spec.lease_duration_seconds = Some(duration);
    new_spec.renew_time = Some(now());
    if !ours {
        new_spec.acquire_time = Some(now());
        new_spec.lease_transitions = Some(spec.lease_transitions.unwrap_or(0) + 1);
    }
    next.spec = Some(new_spec);
    // `replace` carries the resourceVersion we read: a racing candidate gets a conflict.
    match api.replace(&cfg.name, &PostParams::default(), &next).await {
        Ok(_) => Ok(true),
        Err(kube::Error::Api(s)) if s.code == 409 => Ok(false),
        Err(e) => Err(e),
    }
}

/// Waits until this identity leads.
pub(crate) async fn acquire(api: &Api<Lease>, cfg: &LeaderElection) {
    loop {
        match try_acquire_or_renew(api, cfg).await {
            Ok(true) => {
                tracing::info!(lease = %cfg.name, identity = %cfg.identity, "became leader");
                return;
            }
            Ok(false) => {}
            Err(e) => tracing::warn!(error = %e, "leader election: cannot reach the lease"),
        }
        tokio::time::sleep(cfg.retry_period).await;
    }
}

/// Renews until a renewal has not succeeded for the renew deadline; returns then. A
/// renewal counts from when it was sent, and one unanswered at the deadline is given up
/// (a hung connection must not keep a leader leading past its lease).
pub(crate) async fn keep(api: &Api<Lease>, cfg: &LeaderElection) {
    let mut last_success = Instant::now();
    loop {
        // The last try falls at the deadline, not up to a retry period after it.
        let left = cfg.renew_deadline.saturating_sub(last_success.elapsed());
        tokio::time::sleep(cfg.retry_period.min(left)).await;
        let sent = Instant::now();
        let left = cfg.renew_deadline.saturating_sub(last_success.elapsed());
        if left < Duration::from_millis(50) {
            tracing::warn!(lease = %cfg.name, "leadership lost: no renewal within the renew deadline");
            return;
        }
        match tokio::time::timeout(left, try_acquire_or_renew(api, cfg)).await {
            Ok(Ok(true)) => last_success = sent,
            Ok(Ok(false)) => {
                tracing::warn!(lease = %cfg.name, "leadership taken by another candidate");
                return;
            }
            Ok(Err(e)) => tracing::warn!(error = %e, "leader election: renewal failed"),
            Err(_) => tracing::warn!(lease = %cfg.name, "leader election: renewal unanswered"),
        }
        if last_success.elapsed() >= cfg.renew_deadline {
            tracing::warn!(lease = %cfg.name, "leadership lost: no renewal within the renew deadline");
            return;
        }
    }
}

/// Gives the lease up on a clean exit, so the next candidate need not wait for it to
/// expire.
pub(crate) async fn release(api: &Api<Lease>, cfg: &LeaderElection) {
    if let Ok(Some(mut lease)) = api.get_opt(&cfg.name).await
        && let Some(spec) = lease.spec.as_mut()
        && spec.holder_identity.as_deref() == Some(cfg.identity.as_str())
    {
        spec.holder_identity = None;
        spec.lease_duration_seconds = Some(1);
        let _ = api.replace(&cfg.name, &PostParams::default(), &lease).await;
    }
}
