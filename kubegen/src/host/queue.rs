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
    workers: Workers,
    metrics: Arc<Metrics>,
}

impl Queue {
    /// A queue served by `workers` workers.
    pub(crate) fn new(name: &str, metrics: Arc<Metrics>, workers: usize) -> Self {
        // Exported as 0 from the start, not only after the first object.
        metrics.dequeued(name, 0, None);
        Queue {
            name: name.to_string(),
            waiting: Mutex::default(),
            requeued_low: Mutex::default(),
            workers: Workers::new(workers),
            metrics,
        }
    }

    /// A trigger for `key`; a second one before a worker takes it changes nothing, but
    /// raises a low priority (a (re)list's) to normal — also for a reconcile already in
    /// line for a worker — as controller-runtime's priority queue keeps an item's highest.
    pub(crate) fn add(&self, key: Key, low: bool) {
        let mut waiting = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
        match waiting.entry(key.clone()) {
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert((Instant::now(), low));
                self.metrics.queued(&self.name, waiting.len());
            }
            std::collections::hash_map::Entry::Occupied(mut slot) => {
                if slot.get().1 && !low {
                    slot.get_mut().1 = false;
                    self.workers.promote(slot.key());
                }
            }
        }
        // A requeue of a listed object, perhaps already in line: a live change raises it.
        if !low && self.requeued_low.lock().unwrap_or_else(|e| e.into_inner()).remove(&key) {
            self.workers.promote(&key);
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

    /// Waits for a worker for `key`, in line by priority; the turn ends (and the worker
    /// goes to the next in line) when the returned guard is dropped.
    pub(crate) async fn turn(&self, key: &Key) -> Turn<'_> {
        // Its priority read and its place taken under the queue's lock, so a live change
        // (`add`, under the same lock) either comes before and is seen, or after and
        // finds it in line to promote.
        let entry = {
            let waiting = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
            let low = match waiting.get(key) {
                Some(&(_, low)) => low,
                None => self.requeued_low.lock().unwrap_or_else(|e| e.into_inner()).contains(key),
            };
            self.workers.enter(key, low)
        };
        let worker = entry.wait().await;
        // The priority it runs at: a live change may have raised it meanwhile.
        let low = self.is_low(key);
        self.take(key);
        Turn { queue: self, key: key.clone(), low, again: false, _worker: worker }
    }

    /// A worker took `key`, or the scheduler dropped it (the object is gone from the cache).
    pub(crate) fn take(&self, key: &Key) {
        let mut waiting = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((since, _)) = waiting.remove(key) {
            self.metrics.dequeued(&self.name, waiting.len(), Some(since.elapsed().as_secs_f64()));
        }
    }

    /// `key` will not run again unless triggered (gone, or done).
    pub(crate) fn forget(&self, key: &Key) {
        self.requeued_low.lock().unwrap_or_else(|e| e.into_inner()).remove(key);
    }
}

/// A reconcile's turn with a worker. Dropped — however the reconcile ends, returned,
/// cut short or panicking — it gives the worker on and remembers whether a low-priority
/// object's requeue stays low.
pub(crate) struct Turn<'a> {
    queue: &'a Queue,
    key: Key,
    low: bool,
    /// Whether the object runs again later (a requeue or a retry).
    pub(crate) again: bool,
    _worker: Worker<'a>,
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        let mut requeued = self.queue.requeued_low.lock().unwrap_or_else(|e| e.into_inner());
        if self.low && self.again {
            requeued.insert(self.key.clone());
        } else {
            requeued.remove(&self.key);
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
struct Workers {
    state: Mutex<WorkersState>,
}

type Line = std::collections::VecDeque<(Key, tokio::sync::oneshot::Sender<()>)>;

struct WorkersState {
    free: usize,
    normal: Line,
    low: Line,
}

/// A worker, held while a reconcile runs; dropping it hands it to the next in line.
struct Worker<'a>(&'a Workers);

/// A place in line (none: a worker already); a worker handed to it after it gave up
/// (its task was cancelled) goes on to the next.
struct InLine<'a>(Option<tokio::sync::oneshot::Receiver<()>>, &'a Workers);

impl<'a> InLine<'a> {
    async fn wait(mut self) -> Worker<'a> {
        if let Some(rx) = self.0.as_mut() {
            // The sender is dropped only after sending, or with the whole Workers.
            let _ = rx.await;
        }
        self.0 = None;
        Worker(self.1)
    }
}

impl Workers {
    fn new(n: usize) -> Self {
        let state = WorkersState { free: n.max(1), normal: Default::default(), low: Default::default() };
        Workers { state: Mutex::new(state) }
    }

    /// A worker now, or a place in line.
    fn enter(&self, key: &Key, low: bool) -> InLine<'_> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let ahead = !state.normal.is_empty() || (low && !state.low.is_empty());
        if state.free > 0 && !ahead {
            state.free -= 1;
            return InLine(None, self);
        }
        let (tx, rx) = tokio::sync::oneshot::channel();
        if low {
            state.low.push_back((key.clone(), tx))
        } else {
            state.normal.push_back((key.clone(), tx))
        }
        InLine(Some(rx), self)
    }

    /// Moves `key`'s place in the low line (one still waiting) to the end of the normal one.
    fn promote(&self, key: &Key) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(at) = state.low.iter().position(|(k, tx)| k == key && !tx.is_closed())
            && let Some(entry) = state.low.remove(at)
        {
            state.normal.push_back(entry);
        }
    }

    /// A worker is free: the next in line gets it, else it is counted free.
    fn release(&self) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        while let Some((_, next)) = state.normal.pop_front().or_else(|| state.low.pop_front()) {
            if next.send(()).is_ok() {
                return;
            }
        }
        state.free += 1;
    }
}

impl Drop for Worker<'_> {
    fn drop(&mut self) {
        self.0.release();
    }
}

impl Drop for InLine<'_> {
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
        let queue = Queue::new("foo", metrics.clone(), 1);
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

    #[tokio::test]
    async fn a_list_waits_at_low_priority_until_a_live_change_raises_it() {
        let queue = Queue::new("foo", Arc::new(Metrics::default()), 1);
        queue.add(key("a"), true);
        queue.add(key("b"), true);
        assert!(queue.is_low(&key("a")));
        queue.add(key("a"), false);
        queue.add(key("b"), true);
        assert!(!queue.is_low(&key("a")));
        assert!(queue.is_low(&key("b")));
        assert!(!queue.is_low(&key("requeued")));
        // A requeue keeps the priority its reconcile ran at, until a reconcile ends for good.
        let mut turn = queue.turn(&key("b")).await;
        turn.again = true;
        drop(turn);
        assert!(queue.is_low(&key("b")));
        // A live change while it waits for its requeue: normal again.
        queue.add(key("b"), false);
        assert!(!queue.is_low(&key("b")));
        drop(queue.turn(&key("b")).await);
        assert!(!queue.is_low(&key("b")));
        queue.forget(&key("b"));
    }

    /// The order turns are handed out in, for objects that ask one after another while one
    /// worker is busy; `raise` gets a live change once everyone is in line.
    async fn order(requests: &[(&'static str, bool)], raise: Option<&'static str>) -> Vec<&'static str> {
        let queue = Arc::new(Queue::new("foo", Arc::new(Metrics::default()), 1));
        let busy = queue.turn(&key("busy")).await;
        let served = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        let in_line = |q: &Queue| {
            let state = q.workers.state.lock().unwrap();
            state.normal.len() + state.low.len()
        };
        for &(name, low) in requests {
            queue.add(key(name), low);
            let (mine, served) = (queue.clone(), served.clone());
            tasks.push(tokio::spawn(async move {
                let _turn = mine.turn(&key(name)).await;
                served.lock().unwrap().push(name);
                tokio::task::yield_now().await;
            }));
            // Each in line before the next asks.
            while in_line(&queue) < tasks.len() {
                tokio::task::yield_now().await;
            }
        }
        if let Some(name) = raise {
            queue.add(key(name), false);
        }
        drop(busy);
        for task in tasks {
            task.await.unwrap();
        }
        Arc::try_unwrap(served).unwrap().into_inner().unwrap()
    }

    #[tokio::test]
    async fn turns_go_first_come_first_served_normal_before_low() {
        let fifo = order(&[("a", false), ("b", false), ("c", false), ("d", false)], None).await;
        assert_eq!(fifo, ["a", "b", "c", "d"]);
        let mixed = order(&[("list-1", true), ("live-1", false), ("list-2", true), ("live-2", false)], None).await;
        assert_eq!(mixed, ["live-1", "live-2", "list-1", "list-2"]);
        // A listed object changed while it waits moves to the normal line.
        let raised = order(&[("list-1", true), ("list-2", true), ("list-3", true)], Some("list-3")).await;
        assert_eq!(raised, ["list-3", "list-1", "list-2"]);
    }

    #[tokio::test]
    async fn a_live_change_raises_a_listed_requeue_already_in_line() {
        let queue = Arc::new(Queue::new("foo", Arc::new(Metrics::default()), 1));
        // b was listed, ran, and asked to run again: its requeue is low.
        queue.add(key("b"), true);
        let mut turn = queue.turn(&key("b")).await;
        turn.again = true;
        drop(turn);
        let busy = queue.turn(&key("busy")).await;
        let served = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        queue.add(key("list-1"), true);
        for name in ["list-1", "b"] {
            let (mine, served) = (queue.clone(), served.clone());
            tasks.push(tokio::spawn(async move {
                let _turn = mine.turn(&key(name)).await;
                served.lock().unwrap().push(name);
            }));
            while queue.workers.state.lock().unwrap().low.len() < tasks.len() {
                tokio::task::yield_now().await;
            }
        }
        queue.add(key("b"), false);
        drop(busy);
        for task in tasks {
            task.await.unwrap();
        }
        assert_eq!(*served.lock().unwrap(), ["b", "list-1"]);
    }

    #[tokio::test]
    async fn a_cancelled_wait_gives_its_worker_on() {
        let queue = Arc::new(Queue::new("foo", Arc::new(Metrics::default()), 1));
        let busy = queue.turn(&key("busy")).await;
        let gave_up = tokio::spawn({
            let queue = queue.clone();
            async move {
                drop(queue.turn(&key("a")).await);
            }
        });
        while queue.workers.state.lock().unwrap().normal.is_empty() {
            tokio::task::yield_now().await;
        }
        gave_up.abort();
        let _ = gave_up.await;
        drop(busy);
        // Neither the cancelled wait nor the released worker is lost.
        let one = tokio::time::timeout(std::time::Duration::from_secs(5), queue.turn(&key("b"))).await.unwrap();
        drop(one);
        assert_eq!(queue.workers.state.lock().unwrap().free, 1);
    }
}
