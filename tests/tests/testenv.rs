//! `kubegen::testenv` starts a real etcd + kube-apiserver for a crate's tests. Ignored
//! by default like the e2e tier; `scripts/e2e.sh` runs it with KUBEBUILDER_ASSETS set.

use foo_controller::{Foo, FooSpec};
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
    let kubeconfig = env.kubeconfig_path();
    assert!(kubeconfig.exists());
    drop(env);
    assert!(!kubeconfig.exists(), "the environment's directory is removed on drop");
}
