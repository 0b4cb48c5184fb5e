//! The CRDs of a workspace: each kind's versions merged into one CRD with its storage
//! version chosen as controller-gen chooses it, and the file names kubebuilder gives
//! them and their samples.

use std::collections::BTreeMap;

use anyhow::{Context, Result, bail};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;

use crate::workspace::Kind;

/// Every kind's CRD; versions of one kind (same CRD name) become one CRD.
pub fn crds(kinds: Vec<Kind>) -> Result<Vec<CustomResourceDefinition>> {
    let mut by_name: BTreeMap<String, Vec<Kind>> = BTreeMap::new();
    for kind in kinds {
        let name = kind.crd.metadata.name.clone().unwrap_or_default();
        by_name.entry(name).or_default().push(kind);
    }
    by_name.into_iter().map(|(name, versions)| merge(&name, versions)).collect()
}

/// `<group>_<plural>.yaml`, controller-gen's file name.
pub fn crd_file(crd: &CustomResourceDefinition) -> String {
    format!("{}_{}.yaml", crd.spec.group, crd.spec.names.plural)
}

/// `<group>_<version>_<kind>.yaml`, kubebuilder's sample name (kind lowercased): one per
/// version, as `create api` writes one per version.
pub fn sample_file(crd: &CustomResourceDefinition, version: &str) -> String {
    format!("{}_{}_{}.yaml", crd.spec.group, version, crd.spec.names.kind.to_lowercase())
}

fn merge(name: &str, kinds: Vec<Kind>) -> Result<CustomResourceDefinition> {
    let sources = kinds.iter().map(|k| format!("{} ({})", k.type_path, k.source)).collect::<Vec<_>>().join(", ");
    let kept: Vec<Kind> = kinds.into_iter().filter(|k| !k.skip_version).collect();
    if kept.is_empty() {
        bail!("{name}: every version is marked +kubebuilder:skipversion ({sources}); keep at least one");
    }
    if kept.len() == 1 {
        let mut crd = kept.into_iter().next().map(|k| k.crd).unwrap_or_default();
        // A sole version is the storage version, as controller-gen makes it.
        for v in &mut crd.spec.versions {
            v.storage = true;
        }
        return Ok(crd);
    }
    let version = |k: &Kind| k.crd.spec.versions.first().map(|v| v.name.clone()).unwrap_or_default();
    let marked: Vec<String> = kept.iter().filter(|k| k.storage_marked == Some(true)).map(version).collect();
    let candidates: Vec<String> = kept.iter().filter(|k| k.storage_marked != Some(false)).map(version).collect();
    let storage = match (marked.as_slice(), candidates.as_slice()) {
        ([one], _) => one.clone(),
        ([], [one]) => one.clone(),
        ([], _) => bail!(
            "{name} has several versions ({sources}) and none is the storage version: mark one with `+kubebuilder:storageversion` (or `#[kube(storage)]`)"
        ),
        (many, _) => bail!(
            "{name} marks {} versions as the storage version ({}) in {sources}: the API server stores one; keep `+kubebuilder:storageversion` on one",
            many.len(),
            many.join(", ")
        ),
    };
    let crds = kept.into_iter().map(|k| k.crd).collect();
    kubegen::merge_crds(crds, &storage).with_context(|| format!("merging the versions of {name} ({sources})"))
}

#[cfg(test)]
mod tests {
    use kubegen::CustomResourceExt;
    use kubegen_tests::pavilion::{v1, v1beta1};

    use super::*;

    fn kind(crd: CustomResourceDefinition, storage_marked: Option<bool>, skip_version: bool) -> Kind {
        Kind {
            type_path: "zoo::Pavilion".into(),
            source: "zoo.rs:1".into(),
            skip_version,
            storage_marked,
            crd,
            types: kubegen_core::kind::KindTypes { style: kubegen_core::kind::Style::Spec, data: None, status: None },
        }
    }

    #[test]
    fn the_marked_version_is_stored() {
        let crd = merge(
            "pavilions",
            vec![kind(v1beta1::Pavilion::crd(), None, false), kind(v1::Pavilion::crd(), Some(true), false)],
        )
        .expect("merges");
        let versions: Vec<(&str, bool)> = crd.spec.versions.iter().map(|v| (v.name.as_str(), v.storage)).collect();
        assert_eq!(versions, [("v1", true), ("v1beta1", false)]);
    }

    #[test]
    fn the_only_version_not_marked_false_is_stored() {
        let crd = merge(
            "pavilions",
            vec![kind(v1beta1::Pavilion::crd(), Some(false), false), kind(v1::Pavilion::crd(), None, false)],
        )
        .expect("merges");
        assert!(crd.spec.versions.iter().any(|v| v.name == "v1" && v.storage));
    }

    #[test]
    fn no_or_two_storage_versions_are_errors_naming_the_types() {
        let err = merge(
            "pavilions",
            vec![kind(v1beta1::Pavilion::crd(), None, false), kind(v1::Pavilion::crd(), None, false)],
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("none is the storage version") && err.contains("zoo::Pavilion (zoo.rs:1)"), "{err}");
        let err = merge(
            "pavilions",
            vec![kind(v1beta1::Pavilion::crd(), Some(true), false), kind(v1::Pavilion::crd(), Some(true), false)],
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("marks 2 versions as the storage version (v1beta1, v1)"), "{err}");
    }

    #[test]
    fn skipped_versions_are_left_out() {
        let crd = merge(
            "pavilions",
            vec![kind(v1beta1::Pavilion::crd(), None, true), kind(v1::Pavilion::crd(), None, false)],
        )
        .expect("merges");
        let names: Vec<&str> = crd.spec.versions.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(names, ["v1"]);
    }
}
