//! The Memcached controller: makes the cluster match each Memcached, and says so in its
//! status.

use std::sync::Arc;

use kube::api::Api;
use kube::{Client, ResourceExt};
use kubegen::conditions;
use kubegen::host::{Action, Controller, Events, Manager, Reconciler, patch_status};

use crate::api::cache::v1alpha1::Memcached;

// What the controller may do; `cargo run -p codegen-cli -- manifests` writes these into
// config/rbac/role.yaml. Add a rule for everything the reconcile reads or writes.
// +kubebuilder:rbac:groups=cache.example.com,resources=memcacheds,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=cache.example.com,resources=memcacheds/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=cache.example.com,resources=memcacheds/finalizers,verbs=update
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

pub struct MemcachedReconciler {
    client: Client,
    events: Events,
}

impl Reconciler<Memcached> for MemcachedReconciler {
    type Error = kube::Error;

    async fn reconcile(&self, object: Arc<Memcached>) -> Result<Action, kube::Error> {
        // TODO(user): make the cluster match `object.spec`: create or update what the
        // Memcached owns (owned through `kubegen::host::set_controller_reference`, and
        // `.owns(...)` on the controller below; docs/runtime.md builds the Memcached
        // tutorial's Deployment), then report.
        let mut status = object.status.clone().unwrap_or_default();
        let available = conditions::new(
            "Available",
            conditions::TRUE,
            "Reconciled",
            "the Memcached is reconciled",
            object.metadata.generation,
        );
        if conditions::set(&mut status.conditions, available) {
            patch_status(&self.api_for(&object), &object.name_any(), &status).await?;
            self.events
                .normal(object.as_ref(), "Reconciled", "the Memcached is reconciled")
                .await?;
        }
        Ok(Action::await_change())
    }
}

impl MemcachedReconciler {
    fn api_for(&self, object: &Memcached) -> Api<Memcached> {
        Api::namespaced(self.client.clone(), &object.namespace().unwrap_or_default())
    }
}

/// Adds the Memcached controller to the manager; it watches `namespace` only, or every
/// namespace.
pub fn add(manager: Manager, namespace: Option<&str>) -> Manager {
    let client = manager.client();
    let api = match namespace {
        Some(namespace) => Api::<Memcached>::namespaced(client.clone(), namespace),
        None => Api::<Memcached>::all(client.clone()),
    };
    let reconciler = MemcachedReconciler {
        events: Events::new(client.clone(), "memcached-controller"),
        client,
    };
    manager.add(Controller::new(api), Arc::new(reconciler))
}
