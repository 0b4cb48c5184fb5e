//! `kubegen::testenv` starts a real etcd + kube-apiserver for a crate's tests. Ignored
//! by default like the e2e tier; `scripts/e2e.sh` runs it with KUBEBUILDER_ASSETS set.

use foo_controller::{Foo, FooSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube::core::TypeMeta;
use kubegen::CustomResource;
use serde::{Deserialize, Serialize};

/// A kubebuilder style root with Go's inlined TypeMeta.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "cache.example.com", version = "v1alpha1", namespaced)]
pub struct Cache {
    #[serde(flatten)]
    pub types: TypeMeta,
    pub metadata: ObjectMeta,
    pub size: Option<i32>,
}
use kube::Api;
use kubegen::CustomResourceExt;
use kubegen::testenv::TestEnv;

#[tokio::test]
#[ignore = "needs etcd and kube-apiserver in $KUBEBUILDER_ASSETS; run by scripts/e2e.sh"]
async fn starts_installs_crds_and_cleans_up() {
    let env = TestEnv::start().await.expect("the test environment starts");
    env.install_crds(vec![Foo::crd()]).await.expect("the CRD is installed and Established");
    let foos: Api<Foo> = Api::namespaced(env.client(), "default");
    let foo = Foo::new("from-testenv", FooSpec { deployment_name: "web".into(), replicas: None });
    foos.create(&Default::default(), &foo).await.expect("created");
    // Read back with the schema's default applied by the server.
    assert_eq!(foos.get("from-testenv").await.expect("read back").spec.replicas, Some(1));

    // A style-2 root with an inlined TypeMeta is created and applied through kube::Api.
    env.install_crds(vec![Cache::crd()]).await.expect("the CRD is installed and Established");
    let caches: Api<Cache> = Api::namespaced(env.client(), "default");
    let cache = Cache {
        types: TypeMeta::resource::<Cache>(),
        metadata: ObjectMeta { name: Some("c".into()), ..Default::default() },
        size: Some(3),
    };
    caches.create(&Default::default(), &cache).await.expect("created");
    let applied = caches
        .patch(
            "c",
            &kube::api::PatchParams::apply("test").force(),
            &kube::api::Patch::Apply(&Cache { size: Some(4), ..cache }),
        )
        .await
        .expect("applied");
    assert_eq!((applied.size, applied.types.kind.as_str()), (Some(4), "Cache"));

    // create_or_update / create_or_patch: created, then changed, then left alone.
    use k8s_openapi::api::core::v1::ConfigMap;
    use kubegen::host::{OperationResult, create_or_patch, create_or_update};
    let maps: Api<ConfigMap> = Api::namespaced(env.client(), "default");
    let set = |key: &'static str, value: &'static str| {
        move |cm: &mut ConfigMap| {
            cm.data.get_or_insert_with(Default::default).insert(key.into(), value.into());
        }
    };
    let (_, op) = create_or_update(&maps, "settings", set("a", "1")).await.expect("created");
    assert_eq!(op, OperationResult::Created);
    let (_, op) = create_or_update(&maps, "settings", set("a", "2")).await.expect("updated");
    assert_eq!(op, OperationResult::Updated);
    let (_, op) = create_or_update(&maps, "settings", set("a", "2")).await.expect("unchanged");
    assert_eq!(op, OperationResult::Unchanged);
    let (_, op) = create_or_patch(&maps, "settings", set("b", "3")).await.expect("patched");
    assert_eq!(op, OperationResult::Updated);
    let (cm, op) = create_or_patch(&maps, "settings", set("b", "3")).await.expect("unchanged");
    assert_eq!((op, cm.data.unwrap_or_default().len()), (OperationResult::Unchanged, 2));
    let (_, op) = create_or_patch(&maps, "other", set("c", "4")).await.expect("created");
    assert_eq!(op, OperationResult::Created);

    let kubeconfig = env.kubeconfig_path();
    assert!(kubeconfig.exists());
    drop(env);
    assert!(!kubeconfig.exists(), "the environment's directory is removed on drop");
}
