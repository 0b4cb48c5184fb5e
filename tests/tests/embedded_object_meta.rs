//! `codegen-cli manifests --embedded-object-meta`: an `ObjectMeta` inside a spec as
//! controller-gen's `crd:generateEmbeddedObjectMeta=true` writes it: the option reaches
//! the schema through `CrdWithOptions::crd_with`, never through process state.

use kubegen::CrdWithOptions;
use kubegen::schema::Options;
use kubegen_tests::fleet::Fleet;
use serde_json::json;

fn template_metadata(options: Options) -> serde_json::Value {
    let crd = serde_json::to_value(Fleet::crd_with(&options)).expect("json");
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["template"]["properties"]
        ["metadata"]
        .clone()
}

#[test]
fn embedded_object_meta_is_an_open_object_unless_asked_for_its_fields() {
    let open = template_metadata(Options::default());
    assert_eq!(open["type"], "object");
    assert_eq!(open["x-kubernetes-preserve-unknown-fields"], true, "{open}");
    assert!(open.get("properties").is_none(), "{open}");

    let full = template_metadata(Options { embedded_object_meta: true });
    assert_eq!(full["type"], "object");
    assert!(full.get("x-kubernetes-preserve-unknown-fields").is_none(), "{full}");
    let mut fields: Vec<&String> = full["properties"].as_object().expect("properties").keys().collect();
    fields.sort();
    assert_eq!(fields, ["annotations", "finalizers", "labels", "name", "namespace"]);
    assert_eq!(full["properties"]["labels"], json!({"type": "object", "additionalProperties": {"type": "string"}}));
}

#[test]
fn crd_is_crd_with_the_default_options() {
    use kubegen::CustomResourceExt;
    assert_eq!(Fleet::crd(), Fleet::crd_with(&Options::default()));
    // The option is an argument, not a setting: asking once changes nothing after.
    let _ = Fleet::crd_with(&Options { embedded_object_meta: true });
    assert_eq!(Fleet::crd(), Fleet::crd_with(&Options::default()));
}
