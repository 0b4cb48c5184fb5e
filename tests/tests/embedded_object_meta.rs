//! `codegen-cli manifests --embedded-object-meta`: an `ObjectMeta` inside a spec as
//! controller-gen's `crd:generateEmbeddedObjectMeta=true` writes it. (Its own process:
//! the option holds for every schema generated afterwards.)

use kubegen::CustomResourceExt;
use kubegen_tests::fleet::Fleet;
use serde_json::json;

fn template_metadata() -> serde_json::Value {
    let crd = serde_json::to_value(Fleet::crd()).expect("json");
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["template"]["properties"]
        ["metadata"]
        .clone()
}

#[test]
fn embedded_object_meta_is_an_open_object_unless_asked_for_its_fields() {
    let open = template_metadata();
    assert_eq!(open["type"], "object");
    assert_eq!(open["x-kubernetes-preserve-unknown-fields"], true, "{open}");
    assert!(open.get("properties").is_none(), "{open}");

    kubegen::schema::set_options(kubegen::schema::Options { embedded_object_meta: true });
    let full = template_metadata();
    assert_eq!(full["type"], "object");
    assert!(full.get("x-kubernetes-preserve-unknown-fields").is_none(), "{full}");
    let mut fields: Vec<&String> = full["properties"].as_object().expect("properties").keys().collect();
    fields.sort();
    assert_eq!(fields, ["annotations", "finalizers", "labels", "name", "namespace"]);
    assert_eq!(full["properties"]["labels"], json!({"type": "object", "additionalProperties": {"type": "string"}}));
}
