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
    waiting: Mutex<HashMap<Key, Instant>>,
    metrics: Arc<Metrics>,
}

impl Queue {
    pub(crate) fn new(name: &str, metrics: Arc<Metrics>) -> Self {
        // Exported as 0 from the start, not only after the first object.
        metrics.dequeued(name, 0, None);
        Queue { name: name.to_string(), waiting: Mutex::default(), metrics }
    }

    /// A trigger for `key`; a second one before a worker takes it changes nothing.
    pub(crate) fn add(&self, key: Key) {
        let mut waiting = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
        if let std::collections::hash_map::Entry::Vacant(slot) = waiting.entry(key) {
            slot.insert(Instant::now());
            self.metrics.queued(&self.name, waiting.len());
        }
    }

    /// A worker took `key`, or the scheduler dropped it (the object is gone from the cache).
    pub(crate) fn take(&self, key: &Key) {
        let mut waiting = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(since) = waiting.remove(key) {
            self.metrics.dequeued(&self.name, waiting.len(), Some(since.elapsed().as_secs_f64()));
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
        queue.add(key("a"));
        queue.add(key("a"));
        queue.add(key("b"));
        assert_eq!(metrics.queue_depth("foo"), 2);
        queue.take(&key("a"));
        assert_eq!(metrics.queue_depth("foo"), 1);
        // A requeue the queue never saw being taken leaves the depth alone.
        queue.take(&key("c"));
        assert_eq!(metrics.queue_depth("foo"), 1);
        // Triggered again while its reconcile runs: waiting again.
        queue.add(key("a"));
        assert_eq!(metrics.queue_depth("foo"), 2);
        queue.take(&key("a"));
        queue.take(&key("b"));
        assert_eq!(metrics.queue_depth("foo"), 0);
        let text = metrics.encode();
        assert!(text.contains(r#"workqueue_depth{name="foo",controller="foo"} 0"#), "{text}");
        assert!(text.contains(r#"workqueue_adds_total{name="foo",controller="foo"} 3"#), "{text}");
        assert!(text.contains(r#"workqueue_queue_duration_seconds_count{name="foo",controller="foo"} 3"#), "{text}");
    }
}
