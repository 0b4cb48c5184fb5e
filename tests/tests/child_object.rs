//! docs/runtime.md's "A child object" example, compiled and run: the kubebuilder
//! Memcached tutorial's Deployment, built with k8s-openapi's types and owned through
//! `set_controller_reference`. The page shows the code between the markers verbatim.

use kubegen::CustomResource;
use serde::{Deserialize, Serialize};

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "cache.example.com", version = "v1alpha1", kind = "Memcached", namespaced)]
pub struct MemcachedSpec {
    pub size: Option<i32>,
}

// docs:child-object:start
use std::collections::BTreeMap;

use k8s_openapi::api::apps::v1::{Deployment, DeploymentSpec};
use k8s_openapi::api::core::v1::{Container, PodSpec, PodTemplateSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ObjectMeta};
use kube::ResourceExt;
use kubegen::host::{OwnerError, set_controller_reference};

/// The Deployment a Memcached asks for (the tutorial's `deploymentForMemcached`).
fn deployment_for(memcached: &Memcached) -> Result<Deployment, OwnerError> {
    let labels = BTreeMap::from([("app.kubernetes.io/name".to_string(), memcached.name_any())]);
    let container =
        Container { name: "memcached".into(), image: Some("memcached:1.6.26-alpine3.19".into()), ..Default::default() };
    let mut deployment = Deployment {
        metadata: ObjectMeta {
            name: Some(memcached.name_any()),
            namespace: memcached.namespace(),
            ..Default::default()
        },
        spec: DeploymentSpec {
            replicas: memcached.spec.size,
            selector: LabelSelector { match_labels: Some(labels.clone()), ..Default::default() },
            template: PodTemplateSpec {
                metadata: Some(ObjectMeta { labels: Some(labels), ..Default::default() }),
                spec: Some(PodSpec { containers: vec![container], ..Default::default() }),
            },
            ..Default::default()
        },
        ..Default::default()
    };
    set_controller_reference(memcached, &mut deployment)?;
    Ok(deployment)
}
// docs:child-object:end

#[test]
fn the_child_is_owned_by_its_memcached() {
    let mut memcached = Memcached::new("cache", MemcachedSpec { size: Some(3) });
    memcached.metadata.namespace = Some("default".into());
    assert!(deployment_for(&memcached).is_err(), "an owner not read from the server has no uid");
    memcached.metadata.uid = Some("u-1".into());
    let deployment = deployment_for(&memcached).expect("a Deployment");
    let owner = &deployment.metadata.owner_references.as_ref().expect("an owner")[0];
    assert_eq!((owner.kind.as_str(), owner.uid.as_str(), owner.controller), ("Memcached", "u-1", Some(true)));
    assert_eq!(deployment.spec.replicas, Some(3));
}

#[test]
fn the_docs_show_this_code() {
    let source = include_str!("child_object.rs");
    let start =
        source.find("// docs:child-object:start\n").expect("start marker") + "// docs:child-object:start\n".len();
    let end = source.find("// docs:child-object:end").expect("end marker");
    let docs = include_str!("../../docs/runtime.md");
    assert!(
        docs.contains(&format!("```rust\n{}```", &source[start..end])),
        "docs/runtime.md must show the example verbatim"
    );
}
