//! Apply configurations: only what was set is sent.

use k8s_openapi::api::core::v1::{Container, PodSpec, PodTemplateSpec};
use kubegen_tests::fleet::{FleetApply, FleetSpecApply, FleetStatusApply};
use serde_json::json;

#[test]
fn an_apply_configuration_sends_only_what_was_set() {
    let template = PodTemplateSpec {
        spec: Some(PodSpec {
            containers: vec![Container { name: "sidecar".into(), image: Some("side:1".into()), ..Default::default() }],
            ..Default::default()
        }),
        ..Default::default()
    };
    let config =
        FleetApply::new("one").namespace("ns").label("team", "rust").spec(FleetSpecApply::default().template(template));
    assert_eq!(
        serde_json::to_value(&config).unwrap(),
        json!({
            "apiVersion": "zoo.kubegen.dev/v1",
            "kind": "Fleet",
            "metadata": {"name": "one", "namespace": "ns", "labels": {"team": "rust"}},
            "spec": {"template": {"spec": {"containers": [{"name": "sidecar", "image": "side:1"}]}}}
        })
    );
    // Nothing set, nothing sent: not even the spec's required fields or serde defaults.
    assert_eq!(
        serde_json::to_value(FleetApply::new("one").spec(FleetSpecApply::default())).unwrap(),
        json!({"apiVersion": "zoo.kubegen.dev/v1", "kind": "Fleet", "metadata": {"name": "one"}, "spec": {}})
    );
    let status = FleetApply::new("one").status(FleetStatusApply::default().conditions(vec![]));
    assert_eq!(serde_json::to_value(status).unwrap()["status"], json!({"conditions": []}));
}
