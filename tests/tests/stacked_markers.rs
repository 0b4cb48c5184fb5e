//! A field marker and a marker of the field's type with the same key both hold, as
//! controller-gen keeps both: the stricter bound wins, a second pattern joins `allOf`.

use kubegen::{CustomResource, CustomResourceExt, KubeSchema};
use serde::{Deserialize, Serialize};
use serde_json::json;

/// A DNS label.
/// +kubebuilder:validation:MaxLength=63
/// +kubebuilder:validation:Pattern=`^[a-z0-9-]+$`
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[serde(transparent)]
pub struct Label(pub String);

/// A port.
/// +kubebuilder:validation:XValidation:rule="self > 0",message="type rule"
#[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
#[serde(transparent)]
pub struct Port(pub i32);

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Gate")]
pub struct GateSpec {
    /// +kubebuilder:validation:XValidation:rule="self < 100",message="field rule"
    pub p: Port,
    /// +kubebuilder:validation:XValidation:rule="self < 200",message="optional field rule"
    pub q: Option<Port>,
}

/// controller-gen writes a field's rules before its type's (checked against
/// controller-gen v0.23.0 on the Go twin: `type Port int32` with the same markers).
#[test]
fn the_field_rules_come_before_the_type_rules() {
    let crd = serde_json::to_value(Gate::crd()).expect("json");
    let p = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["p"];
    assert_eq!(
        p["x-kubernetes-validations"],
        json!([{"message": "field rule", "rule": "self < 100"}, {"message": "type rule", "rule": "self > 0"}])
    );
    let q = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["q"];
    assert_eq!(
        q["x-kubernetes-validations"],
        json!([{"message": "optional field rule", "rule": "self < 200"}, {"message": "type rule", "rule": "self > 0"}])
    );
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Host")]
pub struct HostSpec {
    /// +kubebuilder:validation:MaxLength=100
    pub loose: Label,
    /// +kubebuilder:validation:MaxLength=10
    /// +kubebuilder:validation:Pattern=`^web-`
    pub strict: Label,
}

#[test]
fn both_markers_hold() {
    let crd = serde_json::to_value(Host::crd()).expect("json");
    let spec = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"];
    assert_eq!(spec["loose"]["maxLength"], json!(63));
    assert_eq!(spec["strict"]["maxLength"], json!(10));
    assert_eq!(spec["strict"]["pattern"], json!("^[a-z0-9-]+$"));
    assert_eq!(spec["strict"]["allOf"], json!([{"pattern": "^web-"}]));

    // In-process validation holds both, as the server does.
    use kubegen::Validate;
    let host = |loose: &str, strict: &str| {
        Host::new("h", HostSpec { loose: Label(loose.into()), strict: Label(strict.into()) })
    };
    assert!(host("a", "web-1").validate().is_ok());
    assert!(host(&"a".repeat(64), "web-1").validate().is_err(), "the type's MaxLength=63 holds under the field's 100");
    assert!(host("a", "api-1").validate().is_err(), "the field's pattern holds beside the type's");
}

#[tokio::test]
#[ignore = "needs etcd and kube-apiserver in $KUBEBUILDER_ASSETS; run by scripts/e2e.sh"]
async fn the_api_server_holds_both() {
    let env = kubegen::testenv::TestEnv::start().await.expect("the test environment starts");
    env.install_crds(vec![Host::crd()]).await.expect("the CRD with allOf is accepted");
    let hosts: kube::Api<Host> = kube::Api::namespaced(env.client(), "default");
    let host = |name: &str, loose: &str, strict: &str| {
        Host::new(name, HostSpec { loose: Label(loose.into()), strict: Label(strict.into()) })
    };
    let pp = kube::api::PostParams::default();
    hosts.create(&pp, &host("ok", "a", "web-1")).await.expect("a valid Host is created");
    let err = hosts.create(&pp, &host("long", &"a".repeat(64), "web-1")).await.expect_err("too long").to_string();
    assert!(err.contains("spec.loose"), "{err}");
    let err = hosts.create(&pp, &host("api", "a", "api-1")).await.expect_err("pattern").to_string();
    assert!(err.contains("spec.strict"), "{err}");
}
