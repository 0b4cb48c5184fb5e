//! The Foo controller, a port of Kubernetes' sample-controller (`controller.go`
//! `syncHandler`): each Foo owns a Deployment named by its spec; the Deployment's
//! replicas follow the Foo's, and the Foo's status mirrors the Deployment's.

use std::collections::BTreeMap;
use std::sync::Arc;

use k8s_openapi::api::apps::v1::{Deployment, DeploymentSpec};
use k8s_openapi::api::core::v1::{Container, PodSpec, PodTemplateSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ObjectMeta};
use kube::api::{Api, Patch, PatchParams, PostParams};
use kube::{Client, ResourceExt};
use kubegen::host::{Action, Controller, Events, Reconciler, controller_owner_ref, patch_status};

use crate::{Foo, FooStatus};

pub const CONTROLLER_NAME: &str = "sample-controller";

// sample-controller's event reasons and messages.
const SUCCESS_SYNCED: &str = "Synced";
const ERR_RESOURCE_EXISTS: &str = "ErrResourceExists";
const MESSAGE_RESOURCE_SYNCED: &str = "Foo synced successfully";

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("Resource {0:?} already exists and is not managed by Foo")]
    ResourceExists(String),
    #[error("Foo {0} has no namespace")]
    NoNamespace(String),
    #[error(transparent)]
    Kube(#[from] kube::Error),
}

pub struct FooReconciler {
    client: Client,
    events: Events,
}

impl FooReconciler {
    pub fn new(client: Client) -> Self {
        FooReconciler { events: Events::new(client.clone(), CONTROLLER_NAME), client }
    }
}

/// The Deployment a Foo asks for (sample-controller's `newDeployment`).
pub fn new_deployment(foo: &Foo) -> Deployment {
    let labels = BTreeMap::from([("app".to_string(), "nginx".to_string()), ("controller".to_string(), foo.name_any())]);
    Deployment {
        metadata: ObjectMeta {
            name: Some(foo.spec.deployment_name.clone()),
            namespace: foo.namespace(),
            owner_references: controller_owner_ref(foo).map(|r| vec![r]),
            ..Default::default()
        },
        spec: DeploymentSpec {
            replicas: foo.spec.replicas,
            selector: LabelSelector { match_labels: Some(labels.clone()), ..Default::default() },
            template: PodTemplateSpec {
                metadata: Some(ObjectMeta { labels: Some(labels), ..Default::default() }),
                spec: Some(PodSpec {
                    containers: vec![Container {
                        name: "nginx".into(),
                        image: Some("nginx:latest".into()),
                        ..Default::default()
                    }],
                    ..Default::default()
                }),
            },
            ..Default::default()
        },
        status: None,
    }
}

impl Reconciler<Foo> for FooReconciler {
    type Error = Error;

    async fn reconcile(&self, foo: Arc<Foo>) -> Result<Action, Error> {
        let ns = foo.namespace().ok_or_else(|| Error::NoNamespace(foo.name_any()))?;
        let name = foo.spec.deployment_name.clone();
        if name.is_empty() {
            // The schema refuses this; a Foo from before the schema gets an event, not a
            // retry loop (sample-controller: "deployment name must be specified").
            self.events.warning(foo.as_ref(), "InvalidSpec", "deployment name must be specified").await?;
            return Ok(Action::await_change());
        }
        let deployments: Api<Deployment> = Api::namespaced(self.client.clone(), &ns);
        let mut deployment = match deployments.get_opt(&name).await? {
            Some(d) => d,
            None => deployments.create(&PostParams::default(), &new_deployment(&foo)).await?,
        };

        let ours = deployment
            .owner_references()
            .iter()
            .any(|r| r.controller == Some(true) && Some(&r.uid) == foo.uid().as_ref());
        if !ours {
            let message = format!("Resource {name:?} already exists and is not managed by Foo");
            self.events.warning(foo.as_ref(), ERR_RESOURCE_EXISTS, &message).await?;
            return Err(Error::ResourceExists(name));
        }

        let current = deployment.spec.replicas;
        if foo.spec.replicas.is_some() && foo.spec.replicas != current {
            tracing::info!(foo = %foo.name_any(), want = ?foo.spec.replicas, have = ?current, "updating deployment replicas");
            let patch = serde_json::json!({ "spec": { "replicas": foo.spec.replicas } });
            deployment = deployments.patch(&name, &PatchParams::default(), &Patch::Merge(&patch)).await?;
        }

        let available = deployment.status.as_ref().and_then(|s| s.available_replicas).unwrap_or(0);
        if foo.status.as_ref().map(|s| s.available_replicas) != Some(available) {
            let foos: Api<Foo> = Api::namespaced(self.client.clone(), &ns);
            patch_status(&foos, &foo.name_any(), &FooStatus { available_replicas: available }).await?;
        }
        self.events.normal(foo.as_ref(), SUCCESS_SYNCED, MESSAGE_RESOURCE_SYNCED).await?;
        Ok(Action::await_change())
    }
}

/// The controller: Foos, and the Deployments they own.
pub fn controller(client: Client, namespace: Option<&str>) -> Controller<Foo> {
    let (foos, deployments) = match namespace {
        Some(ns) => (Api::<Foo>::namespaced(client.clone(), ns), Api::<Deployment>::namespaced(client, ns)),
        None => (Api::<Foo>::all(client.clone()), Api::<Deployment>::all(client)),
    };
    Controller::new(foos).named("foo").owns(deployments)
}
