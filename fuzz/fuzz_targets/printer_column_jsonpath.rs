//! JSONPaths a user writes for a kind, resolved against its schema as `manifests`' lint
//! resolves them before writing the CRD: a printer column's, the scale subresource's, a
//! selectable field's; and a CEL rule's `fieldPath`, as the rule checker reads it.

#![no_main]

use std::sync::OnceLock;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::{
    CustomResourceColumnDefinition, CustomResourceDefinition, SelectableField,
};
use kubegen_core::schema::node::Node;
use libfuzzer_sys::fuzz_target;

fn foo() -> &'static (CustomResourceDefinition, Node) {
    static FOO: OnceLock<(CustomResourceDefinition, Node)> = OnceLock::new();
    FOO.get_or_init(|| {
        let crd = kubegen_fuzz::foo_crd();
        let node = kubegen::crd::version_schema(&crd.spec.versions[0]).expect("Foo has a schema");
        (crd, node)
    })
}

fuzz_target!(|path: &str| {
    let (crd, node) = foo();
    let mut crd = crd.clone();
    for version in &mut crd.spec.versions {
        version.additional_printer_columns = Some(vec![CustomResourceColumnDefinition {
            name: "Fuzz".into(),
            type_: "string".into(),
            json_path: path.to_string(),
            ..Default::default()
        }]);
        version.selectable_fields = Some(vec![SelectableField { json_path: path.to_string() }]);
        if let Some(scale) = version.subresources.as_mut().and_then(|s| s.scale.as_mut()) {
            scale.label_selector_path = Some(path.to_string());
        }
    }
    let _ = kubegen::crd::lint(&crd);
    let _ = kubegen_cel::check::field_path(node, path);
});
