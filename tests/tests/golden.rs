//! Golden CRDs. The examples' goldens are the committed files under `config/` (also
//! guarded by `codegen-cli manifests --check`); the zoo's live in `tests/golden/`.
//! `KUBEGEN_BLESS=1 cargo test -p kubegen-tests --test golden` rewrites them; read the
//! diff before committing.

use std::path::{Path, PathBuf};

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kubegen::CustomResourceExt;
use kubegen_tests::{aviary, fleet, menagerie, pavilion};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn assert_golden(crd: &CustomResourceDefinition, path: &Path) {
    let rendered = kubegen::to_yaml(crd).expect("CRD renders as YAML");
    // Same input, same bytes.
    assert_eq!(rendered, kubegen::to_yaml(crd).expect("renders"), "rendering is not deterministic");
    if std::env::var_os("KUBEGEN_BLESS").is_some() {
        std::fs::write(path, &rendered).expect("write golden");
        return;
    }
    let expected =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}; bless with KUBEGEN_BLESS=1", path.display()));
    if expected != rendered {
        for (i, (a, b)) in expected.lines().zip(rendered.lines()).enumerate() {
            if a != b {
                panic!("{} differs at line {}:\n  golden:   {a}\n  rendered: {b}", path.display(), i + 1);
            }
        }
        panic!(
            "{} differs in length ({} vs {} lines)",
            path.display(),
            expected.lines().count(),
            rendered.lines().count()
        );
    }
}

#[test]
fn foo_matches_config() {
    // Both versions in one CRD, as `manifests` merges them: v1alpha1 stored.
    let versions = vec![foo_controller::Foo::crd(), foo_controller::v1beta1::Foo::crd()];
    let crd = kubegen::merge_crds(versions, "v1alpha1").expect("Foo's versions merge");
    assert_golden(&crd, &root().join("config/crd/bases/samplecontroller.k8s.io_foos.yaml"));
}

#[test]
fn sample_matches_config() {
    assert_golden(&sample::Sample::crd(), &root().join("config/crd/bases/example.com_samples.yaml"));
}

#[test]
fn menagerie() {
    assert_golden(&menagerie::Menagerie::crd(), &root().join("tests/golden/zoo.kubegen.dev_menageries.yaml"));
}

#[test]
fn pavilion_versions_merge_into_one_crd() {
    let merged = kubegen::merge_crds(vec![pavilion::v1beta1::Pavilion::crd(), pavilion::v1::Pavilion::crd()], "v1")
        .expect("versions merge");
    let versions: Vec<(&str, bool, bool)> =
        merged.spec.versions.iter().map(|v| (v.name.as_str(), v.served, v.storage)).collect();
    assert_eq!(versions, [("v1", true, true), ("v1beta1", false, false)]);
    assert_golden(&merged, &root().join("tests/golden/zoo.kubegen.dev_pavilions.yaml"));
}

#[test]
fn fleet_of_kubernetes_types() {
    assert_golden(&fleet::Fleet::crd(), &root().join("tests/golden/zoo.kubegen.dev_fleets.yaml"));
}

#[test]
fn aviary() {
    assert_golden(&aviary::Birdhouse::crd(), &root().join("tests/golden/zoo.kubegen.dev_aviaries.yaml"));
}

#[test]
fn roost() {
    assert_golden(&aviary::Roost::crd(), &root().join("tests/golden/zoo.kubegen.dev_roosts.yaml"));
}

#[test]
fn merge_rejects_conflicts() {
    let err = kubegen::merge_crds(vec![pavilion::v1::Pavilion::crd(), menagerie::Menagerie::crd()], "v1").unwrap_err();
    assert!(err.to_string().contains("kind"), "{err}");
    let err = kubegen::merge_crds(vec![pavilion::v1::Pavilion::crd()], "v2").unwrap_err();
    assert_eq!(err.to_string(), "storage version \"v2\" is not among the versions of pavilions.zoo.kubegen.dev (v1)");
    let err =
        kubegen::merge_crds(vec![pavilion::v1::Pavilion::crd(), pavilion::v1::Pavilion::crd()], "v1").unwrap_err();
    assert_eq!(err.to_string(), "version \"v1\" of pavilions.zoo.kubegen.dev is given twice");
    assert_eq!(kubegen::merge_crds(vec![], "v1").unwrap_err(), kubegen::MergeError::Empty);
}

#[test]
fn accord() {
    assert_golden(&kubegen_tests::accord::Accord::crd(), &root().join("tests/golden/zoo.kubegen.dev_accords.yaml"));
}

#[test]
fn marker_zoo() {
    assert_golden(
        &kubegen_tests::markers::Inspection::crd(),
        &root().join("tests/golden/zoo.kubegen.dev_inspections.yaml"),
    );
    assert_golden(&kubegen_tests::markers::Ledger::crd(), &root().join("tests/golden/zoo.kubegen.dev_ledgers.yaml"));
}

#[test]
fn every_zoo_crd_passes_the_offline_checks() {
    for crd in [
        foo_controller::Foo::crd(),
        sample::Sample::crd(),
        menagerie::Menagerie::crd(),
        pavilion::v1::Pavilion::crd(),
        aviary::Birdhouse::crd(),
        aviary::Roost::crd(),
        kubegen_tests::markers::Inspection::crd(),
        kubegen_tests::markers::Ledger::crd(),
        kubegen_tests::accord::Accord::crd(),
    ] {
        assert_eq!(kubegen::crd::lint(&crd), Vec::<String>::new());
    }
}

#[test]
fn offline_checks_find_what_the_server_refuses() {
    let mut crd = kubegen_tests::markers::Inspection::crd();
    let schema = crd.spec.versions[0].schema.as_mut().unwrap().open_api_v3_schema.as_mut().unwrap();
    let spec = schema.properties.as_mut().unwrap().get_mut("spec").unwrap();
    let checks = spec.properties.as_mut().unwrap().get_mut("checks").unwrap();
    checks.x_kubernetes_list_map_keys = Some(vec!["name".into(), "enabled".into(), "missing".into()]);
    let replicas = spec.properties.as_mut().unwrap().get_mut("replicas").unwrap();
    replicas.default =
        Some(k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::JSON(serde_json::json!(20)));
    let problems = kubegen::crd::lint(&crd);
    assert_eq!(
        problems,
        [
            "inspections.zoo.kubegen.dev v1: spec.checks: list-map key `missing` is not a field of the items",
            "inspections.zoo.kubegen.dev v1: spec.replicas: the default 20 does not fit its own schema (spec.replicas in body should be less than or equal to 10); the API server refuses the CRD",
        ]
    );
}
