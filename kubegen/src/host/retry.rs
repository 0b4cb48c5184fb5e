//! Retries as client-go's work queue schedules them: per object, an exponential backoff
//! from `base` doubling to `max`, reset when a reconcile succeeds; overall, a token
//! bucket; the longer of the two wins (`workqueue.DefaultTypedControllerRateLimiter`).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How failed reconciles are retried. The default is controller-runtime's:
/// 5 ms → 1000 s per object, 10 retries/s with a burst of 100 overall.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetryPolicy {
    pub base: Duration,
    pub max: Duration,
    pub qps: f64,
    pub burst: u32,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy { base: Duration::from_millis(5), max: Duration::from_secs(1000), qps: 10.0, burst: 100 }
    }
}

/// The state behind a [`RetryPolicy`]: failures per object and the bucket's tokens.
#[derive(Debug)]
pub struct RateLimiter {
    policy: RetryPolicy,
    failures: Mutex<HashMap<String, u32>>,
    bucket: Mutex<(f64, Instant)>,
}

impl RateLimiter {
    pub fn new(policy: RetryPolicy) -> Self {
        RateLimiter {
            policy,
            failures: Mutex::default(),
            bucket: Mutex::new((f64::from(policy.burst), Instant::now())),
        }
    }

    /// The delay before `key` is retried after one more failure.
    pub fn when(&self, key: &str) -> Duration {
        let failures = {
            let mut map = self.failures.lock().unwrap_or_else(|e| e.into_inner());
            let n = map.entry(key.to_string()).or_insert(0);
            let current = *n;
            *n = n.saturating_add(1);
            current
        };
        let exp = self.policy.base.as_secs_f64() * 2f64.powi(failures.min(64) as i32);
        let per_item = Duration::from_secs_f64(exp.min(self.policy.max.as_secs_f64()));
        per_item.max(self.reserve())
    }

    /// Forgets `key`'s failures: the next failure starts again at `base`.
    pub fn forget(&self, key: &str) {
        self.failures.lock().unwrap_or_else(|e| e.into_inner()).remove(key);
    }

    /// How many times `key` has failed since it last succeeded.
    pub fn failures(&self, key: &str) -> u32 {
        self.failures.lock().unwrap_or_else(|e| e.into_inner()).get(key).copied().unwrap_or(0)
    }

    /// Takes a token (golang.org/x/time/rate's `Reserve`): the wait until it is there.
    fn reserve(&self) -> Duration {
        if self.policy.qps <= 0.0 {
            return Duration::ZERO;
        }
        let mut bucket = self.bucket.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        let (tokens, last) = *bucket;
        let refilled =
            (tokens + now.duration_since(last).as_secs_f64() * self.policy.qps).min(f64::from(self.policy.burst));
        let left = refilled - 1.0;
        *bucket = (left, now);
        if left >= 0.0 { Duration::ZERO } else { Duration::from_secs_f64(-left / self.policy.qps) }
    }
}

/// How a controller's watches reconnect after errors: 200 ms doubling to 5 s, reset
/// when a watch works again. kube-runtime's default climbs to 30 s, which left a
/// controller deaf for up to a minute after a few seconds of API server outage.
#[derive(Debug, Clone)]
pub struct WatchBackoff {
    next: Duration,
}

impl WatchBackoff {
    const MIN: Duration = Duration::from_millis(200);
    const MAX: Duration = Duration::from_secs(5);
}

impl Default for WatchBackoff {
    fn default() -> Self {
        WatchBackoff { next: Self::MIN }
    }
}

impl Iterator for WatchBackoff {
    type Item = Duration;

    fn next(&mut self) -> Option<Duration> {
        let current = self.next;
        self.next = (self.next * 2).min(Self::MAX);
        Some(current)
    }
}

impl kube::runtime::utils::Backoff for WatchBackoff {
    fn reset(&mut self) {
        self.next = Self::MIN;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_object_backoff_doubles_to_the_cap_and_resets() {
        let r = RateLimiter::new(RetryPolicy { qps: 0.0, ..Default::default() });
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        assert_eq!(ms(r.when("a")), 5.0);
        assert_eq!(ms(r.when("a")), 10.0);
        assert_eq!(ms(r.when("a")), 20.0);
        assert_eq!(ms(r.when("b")), 5.0, "objects back off separately");
        for _ in 0..30 {
            r.when("a");
        }
        assert_eq!(r.when("a"), Duration::from_secs(1000));
        r.forget("a");
        assert_eq!(ms(r.when("a")), 5.0);
    }

    #[test]
    fn watches_reconnect_within_five_seconds() {
        use kube::runtime::utils::Backoff;
        let mut b = WatchBackoff::default();
        let delays: Vec<u64> = b.by_ref().take(7).map(|d| d.as_millis() as u64).collect();
        assert_eq!(delays, [200, 400, 800, 1600, 3200, 5000, 5000]);
        b.reset();
        assert_eq!(b.next(), Some(Duration::from_millis(200)));
    }

    #[test]
    fn the_bucket_limits_overall_retries() {
        let r = RateLimiter::new(RetryPolicy { base: Duration::ZERO, max: Duration::ZERO, qps: 10.0, burst: 2 });
        assert_eq!(r.when("a"), Duration::ZERO);
        assert_eq!(r.when("b"), Duration::ZERO);
        let third = r.when("c");
        assert!(third > Duration::from_millis(90) && third <= Duration::from_millis(100), "{third:?}");
    }
}
