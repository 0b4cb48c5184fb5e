//! What a reconcile does over and over: publish events, write status through the
//! status subresource, set controller owner references, apply with a field manager.

use std::fmt::Debug;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference;
use kube::api::{Api, Patch, PatchParams, PostParams};
use kube::runtime::events::{Event, EventType, Recorder, Reporter};
use kube::{Client, Resource};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// An event recorder for one controller (events.k8s.io/v1). As client-go's recorder
/// does, only an identical event — same object, type, reason and note — joins the series
/// of the one before it; an event whose note changed is an Event of its own, so
/// `kubectl get events` shows what happened last ("scaled to 5 replicas", not the
/// "3 replicas" of the series it would otherwise have been counted into).
#[derive(Clone)]
pub struct Events {
    client: Client,
    reporter: Reporter,
    /// Per object, type, reason and note: the recorder whose series holds such events
    /// (kube's recorder keys its series without the note, so each note gets its own).
    series: std::sync::Arc<std::sync::Mutex<std::collections::HashMap<(SeriesKey, String), Recorder>>>,
}

/// What client-go's recorder keys a series by, besides the note.
type SeriesKey = (String, String, String, String, String, String);

/// Series older than kube's recorder keeps (6 minutes) are forgotten past this many keys.
const MAX_SERIES: usize = 4096;

impl Events {
    pub fn new(client: Client, controller: &str) -> Self {
        let instance = std::env::var("POD_NAME").ok();
        Events { client, reporter: Reporter { controller: controller.into(), instance }, series: Default::default() }
    }

    /// The recorder whose series an event with `note` joins: the one of the events of `key`
    /// with that note (client-go's key holds the note), or a new one (a new Event object).
    fn recorder(&self, key: SeriesKey, note: &str) -> Recorder {
        let mut series = self.series.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let key = (key, note.to_string());
        if series.len() >= MAX_SERIES && !series.contains_key(&key) {
            series.clear();
        }
        series.entry(key).or_insert_with(|| Recorder::new(self.client.clone(), self.reporter.clone())).clone()
    }

    /// A Normal event about `obj`.
    pub async fn normal<K: Resource<DynamicType = ()>>(
        &self,
        obj: &K,
        reason: &str,
        note: &str,
    ) -> Result<(), kube::Error> {
        self.publish(obj, EventType::Normal, reason, note).await
    }

    /// A Warning event about `obj`.
    pub async fn warning<K: Resource<DynamicType = ()>>(
        &self,
        obj: &K,
        reason: &str,
        note: &str,
    ) -> Result<(), kube::Error> {
        self.publish(obj, EventType::Warning, reason, note).await
    }

    async fn publish<K: Resource<DynamicType = ()>>(
        &self,
        obj: &K,
        type_: EventType,
        reason: &str,
        note: &str,
    ) -> Result<(), kube::Error> {
        let reference = obj.object_ref(&());
        let field = |f: &Option<String>| f.clone().unwrap_or_default();
        let key = (
            format!("{type_:?}"),
            reason.to_string(),
            field(&reference.api_version),
            field(&reference.kind),
            field(&reference.namespace),
            format!("{}/{}", field(&reference.name), field(&reference.uid)),
        );
        let event =
            Event { type_, reason: reason.into(), note: Some(note.into()), action: reason.into(), secondary: None };
        self.recorder(key, note).publish(&event, &reference).await
    }
}

/// The owner reference that makes `owner` the controller of what carries it (garbage
/// collection, `owns` relations), as controller-runtime's `SetControllerReference`
/// writes it: `controller: true` and `blockOwnerDeletion: true`, so a foreground
/// deletion of the owner waits for what it owns. `None` for an owner without a name or
/// uid (one not read from the server). It only builds the reference; it checks nothing
/// about the object that will carry it — [`set_controller_reference`] does, as Go's does.
pub fn controller_owner_ref<K: Resource<DynamicType = ()>>(owner: &K) -> Option<OwnerReference> {
    let mut reference = owner.controller_owner_ref(&())?;
    reference.block_owner_deletion = Some(true);
    Some(reference)
}

/// Why [`set_controller_reference`] refused, as controller-runtime's
/// `SetControllerReference` refuses.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum OwnerError {
    /// The owner has no name or uid: it was built in memory, not read from the server.
    #[error("the owner {0} has no name or uid: use the object the API server returned")]
    NotPersisted(String),
    /// A namespaced owner can own only objects in its own namespace; a cluster-scoped
    /// object can have only cluster-scoped owners.
    #[error("{owner} cannot own {object}: {why}")]
    CrossNamespace { owner: String, object: String, why: &'static str },
    /// The object already has another controller (`AlreadyOwnedError`).
    #[error("{object} is already controlled by {kind} {name}")]
    AlreadyControlled { object: String, kind: String, name: String },
}

/// Makes `owner` the controller of `object`, as controller-runtime's
/// `SetControllerReference` does: adds [`controller_owner_ref`] to the object's owner
/// references (replacing an earlier reference to the same owner), and refuses an owner
/// not read from the server, an owner in another namespace (or a namespaced owner of a
/// cluster-scoped object) and an object another owner already controls.
pub fn set_controller_reference<O, K>(owner: &O, object: &mut K) -> Result<(), OwnerError>
where
    O: Resource<DynamicType = ()>,
    K: Resource,
{
    let shown = |namespace: Option<&String>, name: Option<&String>| match (namespace, name) {
        (Some(ns), Some(n)) => format!("{ns}/{n}"),
        (None, Some(n)) => n.clone(),
        (_, None) => "(unnamed)".into(),
    };
    let owner_meta = owner.meta();
    let owner_shown = format!("{} {}", O::kind(&()), shown(owner_meta.namespace.as_ref(), owner_meta.name.as_ref()));
    let reference = controller_owner_ref(owner).ok_or_else(|| OwnerError::NotPersisted(owner_shown.clone()))?;
    let meta = object.meta();
    let object_shown = shown(meta.namespace.as_ref(), meta.name.as_ref());
    if let Some(owner_ns) = owner_meta.namespace.as_deref().filter(|ns| !ns.is_empty()) {
        let why = match meta.namespace.as_deref().filter(|ns| !ns.is_empty()) {
            None => Some("a cluster-scoped object cannot have a namespaced owner"),
            Some(ns) if ns != owner_ns => Some("owner and object are in different namespaces"),
            Some(_) => None,
        };
        if let Some(why) = why {
            return Err(OwnerError::CrossNamespace { owner: owner_shown, object: object_shown, why });
        }
    }
    let references = object.meta_mut().owner_references.get_or_insert_with(Vec::new);
    if let Some(other) = references.iter().find(|r| r.controller == Some(true) && r.uid != reference.uid) {
        return Err(OwnerError::AlreadyControlled {
            object: object_shown,
            kind: other.kind.clone(),
            name: other.name.clone(),
        });
    }
    references.retain(|r| r.uid != reference.uid);
    references.push(reference);
    Ok(())
}

/// Merge-patches `status` through the `/status` subresource: the spec is untouched and
/// the write needs only the `<plural>/status` permission.
pub async fn patch_status<K, S>(api: &Api<K>, name: &str, status: &S) -> Result<K, kube::Error>
where
    K: Resource + Clone + DeserializeOwned + Debug,
    S: Serialize,
{
    let body = serde_json::json!({ "status": status });
    api.patch_status(name, &PatchParams::default(), &Patch::Merge(&body)).await
}

/// Server-side applies `object` as `field_manager`, taking over conflicting fields.
pub async fn apply<K>(api: &Api<K>, name: &str, object: &K, field_manager: &str) -> Result<K, kube::Error>
where
    K: Resource + Clone + DeserializeOwned + Debug + Serialize,
{
    api.patch(name, &PatchParams::apply(field_manager).force(), &Patch::Apply(object)).await
}

/// What [`create_or_update`] or [`create_or_patch`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OperationResult {
    Created,
    Updated,
    Unchanged,
}

/// controller-runtime's `CreateOrUpdate`: reads `name`; when it is missing, creates it from
/// `K::default()` named `name` and passed through `mutate`; otherwise passes the current
/// object through `mutate` and replaces it if that changed anything. A conflicting write
/// in between fails with 409, and the reconcile retries with the newer object.
pub async fn create_or_update<K>(
    api: &Api<K>,
    name: &str,
    mutate: impl FnOnce(&mut K),
) -> Result<(K, OperationResult), kube::Error>
where
    K: Resource + Clone + DeserializeOwned + Serialize + Debug + Default,
{
    let (current, desired) = match read_and_mutate(api, name, mutate).await? {
        Found::Created(created) => return Ok((created, OperationResult::Created)),
        Found::Existing { current, desired } => (current, desired),
    };
    if json(&desired) == json(&current) {
        return Ok((current, OperationResult::Unchanged));
    }
    Ok((api.replace(name, &PostParams::default(), &desired).await?, OperationResult::Updated))
}

/// controller-runtime's `CreateOrPatch`: as [`create_or_update`], but an existing object
/// gets a merge patch of only what `mutate` changed, so fields other writers own are
/// left alone and no resourceVersion conflict can happen.
pub async fn create_or_patch<K>(
    api: &Api<K>,
    name: &str,
    mutate: impl FnOnce(&mut K),
) -> Result<(K, OperationResult), kube::Error>
where
    K: Resource + Clone + DeserializeOwned + Serialize + Debug + Default,
{
    let (current, desired) = match read_and_mutate(api, name, mutate).await? {
        Found::Created(created) => return Ok((created, OperationResult::Created)),
        Found::Existing { current, desired } => (current, desired),
    };
    let Some(patch) = merge_patch(&json(&current), &json(&desired)) else {
        return Ok((current, OperationResult::Unchanged));
    };
    Ok((api.patch(name, &PatchParams::default(), &Patch::Merge(&patch)).await?, OperationResult::Updated))
}

/// What `create_or_*` found: nothing, so it created the object `mutate` made from
/// `K::default()`; or the object as it is and as `mutate` wants it.
enum Found<K> {
    Created(K),
    Existing { current: K, desired: K },
}

async fn read_and_mutate<K>(api: &Api<K>, name: &str, mutate: impl FnOnce(&mut K)) -> Result<Found<K>, kube::Error>
where
    K: Resource + Clone + DeserializeOwned + Serialize + Debug + Default,
{
    match api.get_opt(name).await? {
        None => {
            let mut object = K::default();
            object.meta_mut().name = Some(name.into());
            mutate(&mut object);
            Ok(Found::Created(api.create(&PostParams::default(), &object).await?))
        }
        Some(current) => {
            let mut desired = current.clone();
            mutate(&mut desired);
            keep_shard_labels(&current, &mut desired);
            Ok(Found::Existing { current, desired })
        }
    }
}

/// The sharder's labels (`shard.kubegen.dev/*`, `drain.shard.kubegen.dev/*`) as the
/// object has them, whatever `mutate` did to its labels: a reconciler that sets a child's
/// labels wholesale would otherwise take it out of its shard's watch at every update, and
/// the sharder would put it back, round after round.
fn keep_shard_labels<K: Resource>(current: &K, desired: &mut K) {
    let sharder = |key: &String| key.starts_with("shard.kubegen.dev/") || key.starts_with("drain.shard.kubegen.dev/");
    let theirs: Vec<(String, String)> = current
        .meta()
        .labels
        .iter()
        .flatten()
        .filter(|(k, _)| sharder(k))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    if theirs.is_empty() {
        return;
    }
    let labels = desired.meta_mut().labels.get_or_insert_default();
    labels.retain(|k, _| !sharder(k));
    labels.extend(theirs);
}

fn json<T: Serialize>(value: &T) -> serde_json::Value {
    serde_json::to_value(value).unwrap_or(serde_json::Value::Null)
}

/// The JSON merge patch (RFC 7386) that turns `from` into `to`, or `None` when they are
/// equal: changed members recursively, removed ones as `null`, lists whole.
pub(crate) fn merge_patch(from: &serde_json::Value, to: &serde_json::Value) -> Option<serde_json::Value> {
    use serde_json::Value;
    if from == to {
        return None;
    }
    let (Value::Object(a), Value::Object(b)) = (from, to) else { return Some(to.clone()) };
    let mut patch = serde_json::Map::new();
    for (key, old) in a {
        match b.get(key) {
            None => {
                patch.insert(key.clone(), Value::Null);
            }
            Some(new) => {
                if let Some(p) = merge_patch(old, new) {
                    patch.insert(key.clone(), p);
                }
            }
        }
    }
    for (key, new) in b {
        if !a.contains_key(key) {
            patch.insert(key.clone(), new.clone());
        }
    }
    Some(Value::Object(patch))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{keep_shard_labels, merge_patch};

    #[test]
    fn an_update_keeps_the_sharders_labels() {
        use k8s_openapi::api::core::v1::ConfigMap;
        let labels = |pairs: &[(&str, &str)]| {
            Some(
                pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect::<std::collections::BTreeMap<_, _>>(),
            )
        };
        let mut current = ConfigMap::default();
        current.metadata.labels = labels(&[("app", "web"), ("shard.kubegen.dev/foos", "a")]);
        // The reconciler sets the labels wholesale, and tries to move it to shard b.
        let mut desired = current.clone();
        desired.metadata.labels = labels(&[("app", "api"), ("shard.kubegen.dev/foos", "b")]);
        keep_shard_labels(&current, &mut desired);
        assert_eq!(desired.metadata.labels, labels(&[("app", "api"), ("shard.kubegen.dev/foos", "a")]));
        // Unsharded objects are left as the reconciler made them.
        let plain = ConfigMap::default();
        let mut wanted = ConfigMap::default();
        wanted.metadata.labels = labels(&[("app", "api")]);
        keep_shard_labels(&plain, &mut wanted);
        assert_eq!(wanted.metadata.labels, labels(&[("app", "api")]));
    }

    #[test]
    fn controller_references_block_owner_deletion() {
        use k8s_openapi::api::core::v1::ConfigMap;
        use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
        let owner = ConfigMap {
            metadata: ObjectMeta { name: Some("o".into()), uid: Some("u-1".into()), ..Default::default() },
            ..Default::default()
        };
        let reference = super::controller_owner_ref(&owner).expect("a reference");
        assert_eq!((reference.controller, reference.block_owner_deletion), (Some(true), Some(true)));
        assert_eq!((reference.kind.as_str(), reference.uid.as_str()), ("ConfigMap", "u-1"));
    }

    #[test]
    fn set_controller_reference_refuses_what_controller_runtime_refuses() {
        use k8s_openapi::api::apps::v1::Deployment;
        use k8s_openapi::api::core::v1::{ConfigMap, Namespace};
        use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

        use super::{OwnerError, set_controller_reference};
        let meta = |ns: Option<&str>, name: &str, uid: Option<&str>| ObjectMeta {
            namespace: ns.map(Into::into),
            name: Some(name.into()),
            uid: uid.map(Into::into),
            ..Default::default()
        };
        let owner = ConfigMap { metadata: meta(Some("a"), "o", Some("u-1")), ..Default::default() };
        let mut child = Deployment { metadata: meta(Some("a"), "web", None), ..Default::default() };
        set_controller_reference(&owner, &mut child).expect("the same namespace");
        set_controller_reference(&owner, &mut child).expect("again: the reference is replaced, not doubled");
        assert_eq!(child.metadata.owner_references.as_ref().map(Vec::len), Some(1));

        let other = ConfigMap { metadata: meta(Some("a"), "p", Some("u-2")), ..Default::default() };
        assert_eq!(
            set_controller_reference(&other, &mut child).unwrap_err().to_string(),
            "a/web is already controlled by ConfigMap o"
        );
        let mut elsewhere = Deployment { metadata: meta(Some("b"), "web", None), ..Default::default() };
        assert!(matches!(
            set_controller_reference(&owner, &mut elsewhere),
            Err(OwnerError::CrossNamespace { why: "owner and object are in different namespaces", .. })
        ));
        let mut cluster = Namespace { metadata: meta(None, "ns", None), ..Default::default() };
        assert!(matches!(set_controller_reference(&owner, &mut cluster), Err(OwnerError::CrossNamespace { .. })));
        let unsaved = ConfigMap { metadata: meta(Some("a"), "o", None), ..Default::default() };
        assert_eq!(
            set_controller_reference(&unsaved, &mut child).unwrap_err(),
            OwnerError::NotPersisted("ConfigMap a/o".into())
        );
    }

    #[test]
    fn merge_patches_carry_only_the_change() {
        let from = json!({"spec": {"replicas": 1, "image": "a", "ports": [1]}, "metadata": {"labels": {"x": "1"}}});
        let to = json!({"spec": {"replicas": 2, "image": "a", "ports": [1, 2]}, "metadata": {}});
        assert_eq!(
            merge_patch(&from, &to),
            Some(json!({"spec": {"replicas": 2, "ports": [1, 2]}, "metadata": {"labels": null}}))
        );
        assert_eq!(merge_patch(&from, &from), None);
    }
}
