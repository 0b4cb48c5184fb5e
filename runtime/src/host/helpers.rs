//! What a reconcile does over and over: publish events, write status through the
//! status subresource, set controller owner references, apply with a field manager.

use std::fmt::Debug;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference;
use kube::api::{Api, Patch, PatchParams};
use kube::runtime::events::{Event, EventType, Recorder, Reporter};
use kube::{Client, Resource};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// An event recorder for one controller (events.k8s.io/v1, deduplicated into series).
#[derive(Clone)]
pub struct Events {
    recorder: Recorder,
}

impl Events {
    pub fn new(client: Client, controller: &str) -> Self {
        let instance = std::env::var("POD_NAME").ok();
        Events { recorder: Recorder::new(client, Reporter { controller: controller.into(), instance }) }
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
        let event =
            Event { type_, reason: reason.into(), note: Some(note.into()), action: reason.into(), secondary: None };
        self.recorder.publish(&event, &obj.object_ref(&())).await
    }
}

/// The owner reference that makes `owner` the controller of what carries it (garbage
/// collection, `owns` relations), as controller-runtime's `SetControllerReference`
/// writes it: `controller: true` and `blockOwnerDeletion: true`, so a foreground
/// deletion of the owner waits for what it owns. `None` for an owner without a name or
/// uid (one not read from the server).
pub fn controller_owner_ref<K: Resource<DynamicType = ()>>(owner: &K) -> Option<OwnerReference> {
    let mut reference = owner.controller_owner_ref(&())?;
    reference.block_owner_deletion = Some(true);
    Some(reference)
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
