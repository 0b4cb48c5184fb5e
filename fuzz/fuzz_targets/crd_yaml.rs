//! CRD YAML as `diff` reads it from a directory, a file or a git ref (every
//! CustomResourceDefinition among the documents), then compared with Foo's CRD and with
//! itself, linted as `manifests` lints, and sampled as `docs` and `config/samples` sample.

#![no_main]

use std::sync::OnceLock;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kubegen_cli::diff::{Generation, Options, compare};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fn foo() -> &'static Generation {
    static FOO: OnceLock<Generation> = OnceLock::new();
    FOO.get_or_init(|| Generation { name: "foo".into(), crds: vec![kubegen_fuzz::foo_crd()], clients: None, commit: None })
}

/// `diff`'s reader (cli/src/diff/source.rs, `parse`), step for step.
fn parse(text: &str) -> Option<Vec<CustomResourceDefinition>> {
    let docs: Vec<Value> = serde_saphyr::from_multiple(text).ok()?;
    let mut crds = Vec::new();
    for doc in docs {
        if doc.get("kind").and_then(Value::as_str) != Some("CustomResourceDefinition") {
            continue;
        }
        crds.push(serde_json::from_value(doc).ok()?);
    }
    Some(crds)
}

fuzz_target!(|text: &str| {
    let Some(crds) = parse(text) else { return };
    let read = Generation { name: "fuzz".into(), crds, clients: None, commit: None };
    let options = Options::default();
    let _ = compare(foo(), &read, &options);
    let _ = compare(&read, foo(), &options);
    let _ = compare(&read, &read, &options);
    for crd in &read.crds {
        let _ = kubegen::crd::lint(crd);
        let _ = kubegen::crd::sample_object(crd);
        for version in &crd.spec.versions {
            let _ = kubegen::crd::version_schema(version);
        }
    }
});
