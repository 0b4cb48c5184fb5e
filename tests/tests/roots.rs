//! The generated roots read and write the JSON the API server speaks.

use foo_controller::{Foo, FooSpec, FooStatus};
use kube::Resource;
use kubegen_tests::aviary::{AviarySpec, Birdhouse, Roost, RoostSpec};
use serde_json::json;

#[test]
fn root_writes_api_version_and_kind_first() {
    let mut foo = Foo::new("web", FooSpec { deployment_name: "web".into(), replicas: Some(2) });
    let text = serde_json::to_string(&foo).expect("serialize");
    assert!(
        text.starts_with(
            r#"{"apiVersion":"samplecontroller.k8s.io/v1alpha1","kind":"Foo","metadata":{"name":"web"},"spec":"#
        ),
        "{text}"
    );
    assert!(!text.contains("status"), "no status when there is none: {text}");
    foo.status = Some(FooStatus { available_replicas: 1 });
    let value = serde_json::to_value(&foo).expect("serialize");
    assert_eq!(value["status"], json!({"availableReplicas": 1}));
    let back: Foo = serde_json::from_value(value).expect("deserialize");
    assert_eq!(back.spec, foo.spec);
    assert_eq!(back.status, foo.status);
    assert_eq!(Foo::api_version(&()), "samplecontroller.k8s.io/v1alpha1");
    assert_eq!(Foo::plural(&()), "foos");
}

#[test]
fn no_spec_root_puts_spec_fields_at_the_top() {
    let bh = Birdhouse::new("aviary-a", AviarySpec { species: "finch".into(), capacity: 3, birds: vec![] });
    let value = serde_json::to_value(&bh).expect("serialize");
    assert_eq!(value["species"], json!("finch"));
    assert!(value.get("spec").is_none(), "{value}");
    let back: Birdhouse = serde_json::from_value(value).expect("deserialize");
    assert_eq!(back.spec, bh.spec);
}

#[test]
fn a_root_without_status_skips_one_from_the_server() {
    let back: Roost = serde_json::from_value(json!({
        "apiVersion": "zoo.kubegen.dev/v1", "kind": "Roost", "metadata": {"name": "r"},
        "spec": {"anything": [1]}, "status": {"whatever": true}
    }))
    .expect("deserialize");
    assert_eq!(back.spec, RoostSpec { anything: json!([1]) });
}
