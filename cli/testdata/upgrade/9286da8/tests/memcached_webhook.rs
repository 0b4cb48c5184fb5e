//! Memcached's admission webhooks called by a real API server: `kubegen::testenv` serves
//! them on a loopback port with a certificate of its own and installs the configurations
//! of config/webhook/manifests.yaml calling that port, as controller-runtime's envtest
//! `WebhookInstallOptions` does. `make test` runs it, or `cargo test -- --ignored`.

use kube::Api;
use kube::api::PostParams;
use kubegen::CustomResourceExt;
use kubegen::testenv::TestEnv;
use kubegen::webhook::Webhooks;
use memcached_operator::api::cache::v1alpha1::{Memcached, MemcachedSpec};

#[tokio::test]
#[ignore = "needs etcd and kube-apiserver: `make test`, or `codegen-cli envtest` then `cargo test -- --ignored`"]
async fn memcached_webhooks_are_called_by_the_api_server() {
    let env = TestEnv::start().await.expect("the test environment starts");
    env.install_crds(vec![Memcached::crd()])
        .await
        .expect("the CRD is installed");
    let webhooks = memcached_operator::webhook::memcached::add(Webhooks::new());
    let served = env
        .serve_webhooks(webhooks, concat!(env!("CARGO_MANIFEST_DIR"), "/config"))
        .await
        .expect("the webhooks are served and installed");
    assert!(
        !served.installed.mutating.is_empty() || !served.installed.validating.is_empty(),
        "config/webhook/manifests.yaml installed no configuration: run `codegen-cli manifests`"
    );
    let api: Api<Memcached> = Api::namespaced(env.client(), "default");
    // With failurePolicy=fail, the API server refuses the create unless it reached the
    // webhooks. TODO(user): objects your validator refuses, and what your defaulter sets.
    let object = Memcached::new("test", MemcachedSpec::default());
    api.create(&PostParams::default(), &object)
        .await
        .expect("the webhooks admit a default Memcached");
    served
        .stop()
        .await
        .expect("the webhook configurations are removed");
}
