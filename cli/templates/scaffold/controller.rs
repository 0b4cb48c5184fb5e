//! The {{ kind }} controller: makes the cluster match each {{ kind }}, and says so in its
//! status.

use std::sync::Arc;

use kube::api::Api;
use kube::{Client, ResourceExt};
use kubegen::conditions;
use kubegen::host::{Action, Controller, Events, Manager, Reconciler, patch_status};

use crate::api::{{ group_module }}::{{ version }}::{{ kind }};

// What the controller may do; `cargo run -p codegen-cli -- manifests` writes these into
// config/rbac/role.yaml. Add a rule for everything the reconcile reads or writes.
// +kubebuilder:rbac:groups={{ group }},resources={{ plural }},verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups={{ group }},resources={{ plural }}/status,verbs=get;update;patch
// +kubebuilder:rbac:groups={{ group }},resources={{ plural }}/finalizers,verbs=update
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

pub struct {{ kind }}Reconciler {
    client: Client,
    events: Events,
}

impl Reconciler<{{ kind }}> for {{ kind }}Reconciler {
    type Error = kube::Error;

    async fn reconcile(&self, object: Arc<{{ kind }}>) -> Result<Action, kube::Error> {
        // TODO(user): make the cluster match `object.spec`: create or update what the
        // {{ kind }} owns (owned through `kubegen::host::set_controller_reference`, and
        // `.owns(...)` on the controller below; docs/runtime.md builds the Memcached
        // tutorial's Deployment), then report.
        let mut status = object.status.clone().unwrap_or_default();
        let available = conditions::new(
            "Available",
            conditions::TRUE,
            "Reconciled",
            "the {{ kind }} is reconciled",
            object.metadata.generation,
        );
        if conditions::set(&mut status.conditions, available) {
            patch_status(&self.api_for(&object), &object.name_any(), &status).await?;
            self.events.normal(object.as_ref(), "Reconciled", "the {{ kind }} is reconciled").await?;
        }
        Ok(Action::await_change())
    }
}

impl {{ kind }}Reconciler {
    fn api_for(&self, object: &{{ kind }}) -> Api<{{ kind }}> {
{%- if namespaced %}
        Api::namespaced(self.client.clone(), &object.namespace().unwrap_or_default())
{%- else %}
        let _ = object;
        Api::all(self.client.clone())
{%- endif %}
    }
}

/// Adds the {{ kind }} controller to the manager; it watches `namespace` only, or every
/// namespace.
pub fn add(manager: Manager, namespace: Option<&str>) -> Manager {
    let client = manager.client();
{%- if namespaced %}
    let api = match namespace {
        Some(namespace) => Api::<{{ kind }}>::namespaced(client.clone(), namespace),
        None => Api::<{{ kind }}>::all(client.clone()),
    };
{%- else %}
    let _ = namespace;
    let api = Api::<{{ kind }}>::all(client.clone());
{%- endif %}
    let reconciler = {{ kind }}Reconciler { events: Events::new(client.clone(), "{{ kind_lower }}-controller"), client };
    manager.add(Controller::new(api), Arc::new(reconciler))
}
