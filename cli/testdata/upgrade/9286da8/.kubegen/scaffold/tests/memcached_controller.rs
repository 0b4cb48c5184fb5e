//! The Memcached controller against a real API server: `kubegen::testenv` starts etcd and
//! kube-apiserver (from `$KUBEBUILDER_ASSETS`, as controller-runtime's envtest does, or
//! from what `codegen-cli envtest` prepared) and installs the CRD; the controller runs
//! in-process. `make test` runs it, or `cargo test -- --ignored`.

use std::time::Duration;

use kube::Api;
use kube::api::PostParams;
use kubegen::CustomResourceExt;
use kubegen::conditions;
use kubegen::host::Manager;
use kubegen::testenv::TestEnv;
use memcached_operator::api::cache::v1alpha1::{Memcached, MemcachedSpec};

#[tokio::test]
#[ignore = "needs etcd and kube-apiserver: `make test`, or `codegen-cli envtest` then `cargo test -- --ignored`"]
async fn a_new_memcached_becomes_available() {
    let env = TestEnv::start().await.expect("the test environment starts");
    env.install_crds(vec![Memcached::crd()])
        .await
        .expect("the CRD is installed");
    let manager = memcached_operator::controller::memcached::add(Manager::new(env.client()), None);
    let stop = manager.stop_handle();
    let running = tokio::spawn(manager.run());
    let api: Api<Memcached> = Api::namespaced(env.client(), "default");
    let object = Memcached::new("test", MemcachedSpec::default());
    api.create(&PostParams::default(), &object)
        .await
        .expect("the Memcached is created");
    let mut available = false;
    for _ in 0..300 {
        let current = api.get("test").await.expect("the Memcached is read");
        if current
            .status
            .is_some_and(|s| conditions::is_true(&s.conditions, "Available"))
        {
            available = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    stop.trigger();
    running
        .await
        .expect("the manager task ends")
        .expect("the manager stops cleanly");
    assert!(available, "the Memcached never became Available");
}
