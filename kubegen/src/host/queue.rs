//! The work queue's bookkeeping. kube-runtime's scheduler holds the queue (it merges
//! triggers for one object and never runs one object twice at once) but does not say
//! what it holds, so the host counts at its two doors: a trigger for an object that is
//! not waiting yet adds it, a worker taking the object removes it. What waits for a
//! worker — including an object triggered again while its reconcile runs — is the depth,
//! as in client-go; a requeue scheduled for later counts once it is taken.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use kube::Resource;
use kube::runtime::reflector::ObjectRef;

use super::metrics::Metrics;

/// An object of the controller's kind: namespace (none when cluster-scoped) and name.
pub(crate) type Key = (Option<String>, String);

/// The key of the object `obj_ref` names (of the controller's kind, or the same object
/// type-erased, as kube-runtime reports objects it dropped).
pub(crate) fn key_of<K: Resource>(obj_ref: &ObjectRef<K>) -> Key {
    (obj_ref.namespace.clone(), obj_ref.name.clone())
}

pub(crate) struct Queue {
    name: String,
    /// Waiting objects: since when, and whether only at low priority.
    waiting: Mutex<HashMap<Key, (Instant, bool)>>,
    /// Objects that ran at low priority and asked to run again: their requeue keeps it
    /// (as controller-runtime's does), or they would crowd out the rest of the list.
    requeued_low: Mutex<std::collections::HashSet<Key>>,
    metrics: Arc<Metrics>,
}

impl Queue {
    pub(crate) fn new(name: &str, metrics: Arc<Metrics>) -> Self {
        // Exported as 0 from the start, not only after the first object.
        metrics.dequeued(name, 0, None);
        Queue { name: name.to_string(), waiting: Mutex::default(), requeued_low: Mutex::default(), metrics }
    }

    /// A trigger for `key`; a second one before a worker takes it changes nothing, but
    /// raises a low priority (a (re)list's) to normal, as controller-runtime's priority
    /// queue keeps an item's highest priority.
    pub(crate) fn add(&self, key: Key, low: bool) {
        let mut waiting = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
        match waiting.entry(key) {
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert((Instant::now(), low));
                self.metrics.queued(&self.name, waiting.len());
            }
            std::collections::hash_map::Entry::Occupied(mut slot) => slot.get_mut().1 &= low,
        }
    }

    /// Whether `key` is due at low priority only: triggered only by a (re)list, or
    /// requeued after a low-priority reconcile.
    pub(crate) fn is_low(&self, key: &Key) -> bool {
        match self.waiting.lock().unwrap_or_else(|e| e.into_inner()).get(key) {
            Some(&(_, low)) => low,
            None => self.requeued_low.lock().unwrap_or_else(|e| e.into_inner()).contains(key),
        }
    }

    /// A reconcile of `key` at priority `low` ended; `again` when it runs again later.
    pub(crate) fn finished(&self, key: &Key, low: bool, again: bool) {
        let mut requeued = self.requeued_low.lock().unwrap_or_else(|e| e.into_inner());
        if low && again {
            requeued.insert(key.clone());
        } else {
            requeued.remove(key);
        }
    }

    /// A worker took `key`, or the scheduler dropped it (the object is gone from the cache).
    pub(crate) fn take(&self, key: &Key) {
        let mut waiting = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((since, _)) = waiting.remove(key) {
            self.metrics.dequeued(&self.name, waiting.len(), Some(since.elapsed().as_secs_f64()));
        }
    }
}

/// The controller's workers: at most `n` reconciles at once, handed out first come,
/// first served, normal priority before low (controller-runtime's priority queue: the
/// initial list and relists wait behind live changes).
///
/// kube-runtime's scheduler, at its concurrency limit, keeps what is due in a hash set
/// and takes from it in hash order: under sustained load the same objects win every
/// time and others wait forever (found by the partition test: a shard that took over its
/// peer's objects never reconciled some of them). The host therefore runs kube-runtime
/// without a limit and queues for a worker here, in order.
pub(crate) struct Workers {
    state: Mutex<WorkersState>,
}

struct WorkersState {
    free: usize,
    normal: std::collections::VecDeque<tokio::sync::oneshot::Sender<()>>,
    low: std::collections::VecDeque<tokio::sync::oneshot::Sender<()>>,
}

/// A worker, held while a reconcile runs; dropping it hands it to the next in line.
pub(crate) struct Worker(Arc<Workers>);

/// A place in line; a slot handed to it after it gave up (its task was cancelled) goes
/// on to the next.
struct InLine(Option<tokio::sync::oneshot::Receiver<()>>, Arc<Workers>);

impl Workers {
    pub(crate) fn new(n: usize) -> Arc<Self> {
        let state = WorkersState { free: n.max(1), normal: Default::default(), low: Default::default() };
        Arc::new(Workers { state: Mutex::new(state) })
    }

    pub(crate) async fn acquire(self: &Arc<Self>, low: bool) -> Worker {
        let waiting = {
            let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
            let ahead = !state.normal.is_empty() || (low && !state.low.is_empty());
            if state.free > 0 && !ahead {
                state.free -= 1;
                return Worker(self.clone());
            }
            let (tx, rx) = tokio::sync::oneshot::channel();
            if low {
                state.low.push_back(tx)
            } else {
                state.normal.push_back(tx)
            }
            rx
        };
        let mut line = InLine(Some(waiting), self.clone());
        if let Some(rx) = line.0.as_mut() {
            // The sender is dropped only after sending, or with the whole Workers.
            let _ = rx.await;
        }
        line.0 = None;
        Worker(self.clone())
    }

    /// A worker is free: the next in line gets it, else it is counted free.
    fn release(&self) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        while let Some(next) = state.normal.pop_front().or_else(|| state.low.pop_front()) {
            if next.send(()).is_ok() {
                return;
            }
        }
        state.free += 1;
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.0.release();
    }
}

impl Drop for InLine {
    fn drop(&mut self) {
        if let Some(mut rx) = self.0.take() {
            rx.close();
            if rx.try_recv().is_ok() {
                self.1.release();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(name: &str) -> Key {
        (Some("ns".into()), name.into())
    }

    #[test]
    fn depth_counts_each_waiting_object_once() {
        let metrics = Arc::new(Metrics::default());
        let queue = Queue::new("foo", metrics.clone());
        assert_eq!(metrics.queue_depth("foo"), 0);
        queue.add(key("a"), false);
        queue.add(key("a"), false);
        queue.add(key("b"), false);
        assert_eq!(metrics.queue_depth("foo"), 2);
        queue.take(&key("a"));
        assert_eq!(metrics.queue_depth("foo"), 1);
        // A requeue the queue never saw being taken leaves the depth alone.
        queue.take(&key("c"));
        assert_eq!(metrics.queue_depth("foo"), 1);
        // Triggered again while its reconcile runs: waiting again.
        queue.add(key("a"), false);
        assert_eq!(metrics.queue_depth("foo"), 2);
        queue.take(&key("a"));
        queue.take(&key("b"));
        assert_eq!(metrics.queue_depth("foo"), 0);
        let text = metrics.encode();
        assert!(text.contains(r#"workqueue_depth{name="foo",controller="foo"} 0"#), "{text}");
        assert!(text.contains(r#"workqueue_adds_total{name="foo",controller="foo"} 3"#), "{text}");
        assert!(text.contains(r#"workqueue_queue_duration_seconds_count{name="foo",controller="foo"} 3"#), "{text}");
    }

    #[test]
    fn a_list_waits_at_low_priority_until_a_live_change_raises_it() {
        let queue = Queue::new("foo", Arc::new(Metrics::default()));
        queue.add(key("a"), true);
        queue.add(key("b"), true);
        assert!(queue.is_low(&key("a")));
        queue.add(key("a"), false);
        queue.add(key("b"), true);
        assert!(!queue.is_low(&key("a")));
        assert!(queue.is_low(&key("b")));
        assert!(!queue.is_low(&key("requeued")));
        // A requeue keeps the priority its reconcile ran at, until a reconcile ends for good.
        queue.take(&key("b"));
        queue.finished(&key("b"), true, true);
        assert!(queue.is_low(&key("b")));
        queue.finished(&key("b"), true, false);
        assert!(!queue.is_low(&key("b")));
    }

    /// The order workers are handed out in, for requests made one after another while
    /// one worker is busy.
    async fn order(requests: &[(&'static str, bool)]) -> Vec<&'static str> {
        let workers = Workers::new(1);
        let busy = workers.acquire(false).await;
        let served = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        for &(name, low) in requests {
            let (mine, served) = (workers.clone(), served.clone());
            tasks.push(tokio::spawn(async move {
                let _worker = mine.acquire(low).await;
                served.lock().unwrap().push(name);
                tokio::task::yield_now().await;
            }));
            // Each in line before the next asks.
            let in_line = |w: &Workers| {
                let state = w.state.lock().unwrap();
                state.normal.len() + state.low.len()
            };
            while in_line(&workers) < tasks.len() {
                tokio::task::yield_now().await;
            }
        }
        drop(busy);
        for task in tasks {
            task.await.unwrap();
        }
        Arc::try_unwrap(served).unwrap().into_inner().unwrap()
    }

    #[tokio::test]
    async fn workers_go_first_come_first_served_normal_before_low() {
        let fifo = order(&[("a", false), ("b", false), ("c", false), ("d", false)]).await;
        assert_eq!(fifo, ["a", "b", "c", "d"]);
        let mixed = order(&[("list-1", true), ("live-1", false), ("list-2", true), ("live-2", false)]).await;
        assert_eq!(mixed, ["live-1", "live-2", "list-1", "list-2"]);
    }

    #[tokio::test]
    async fn a_cancelled_wait_gives_its_worker_on() {
        let workers = Workers::new(1);
        let busy = workers.acquire(false).await;
        let gave_up = tokio::spawn({
            let workers = workers.clone();
            async move { workers.acquire(false).await }
        });
        while workers.state.lock().unwrap().normal.is_empty() {
            tokio::task::yield_now().await;
        }
        gave_up.abort();
        let _ = gave_up.await;
        drop(busy);
        // Neither the cancelled wait nor the released worker is lost.
        let one = tokio::time::timeout(std::time::Duration::from_secs(5), workers.acquire(false)).await.unwrap();
        drop(one);
        assert_eq!(workers.state.lock().unwrap().free, 1);
    }
}
