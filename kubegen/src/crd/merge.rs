use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;

/// Why several single-version CRDs are not one kind in several versions.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum MergeError {
    #[error("no CRDs to merge")]
    Empty,
    #[error("storage version {storage:?} is not among the versions of {crd} ({versions})")]
    MissingStorageVersion { crd: String, storage: String, versions: String },
    #[error("version {version:?} of {crd} is given twice")]
    DuplicateVersion { crd: String, version: String },
    #[error(
        "{crd}: version {version:?} has {field} {found:?}, but version {first_version:?} has {expected:?}; every version of a kind must agree on it"
    )]
    Conflict {
        crd: String,
        field: &'static str,
        first_version: String,
        expected: String,
        version: String,
        found: String,
    },
}

/// Merges single-version CRDs of one kind into one CRD with every version, in the
/// order controller-gen writes them (by name). `storage` names the version the API
/// server stores; every other version gets `storage: false` and keeps `served` as given.
///
/// Group, names and scope must agree across versions: the API server has one of each
/// per CRD.
// A MergeError carries the versions it compares, by value, as the CLI prints them; it is
// made once per `manifests` run, where its size costs nothing.
#[allow(clippy::result_large_err)]
pub fn merge_crds(crds: Vec<CustomResourceDefinition>, storage: &str) -> Result<CustomResourceDefinition, MergeError> {
    let mut crds = crds.into_iter();
    let mut merged = crds.next().ok_or(MergeError::Empty)?;
    let crd_name = merged.metadata.name.clone().unwrap_or_default();
    let first_version = merged.spec.versions.first().map(|v| v.name.clone()).unwrap_or_default();
    for crd in crds {
        let version = crd.spec.versions.first().map(|v| v.name.clone()).unwrap_or_default();
        let checks: [(&'static str, String, String); 5] = [
            ("group", merged.spec.group.clone(), crd.spec.group.clone()),
            ("kind", merged.spec.names.kind.clone(), crd.spec.names.kind.clone()),
            ("plural", merged.spec.names.plural.clone(), crd.spec.names.plural.clone()),
            ("scope", merged.spec.scope.clone(), crd.spec.scope.clone()),
            (
                "short names",
                format!("{:?}", merged.spec.names.short_names),
                format!("{:?}", crd.spec.names.short_names),
            ),
        ];
        for (field, expected, found) in checks {
            if expected != found {
                return Err(MergeError::Conflict { crd: crd_name, field, first_version, expected, version, found });
            }
        }
        for v in crd.spec.versions {
            if merged.spec.versions.iter().any(|m| m.name == v.name) {
                return Err(MergeError::DuplicateVersion { crd: crd_name, version: v.name });
            }
            merged.spec.versions.push(v);
        }
    }
    if !merged.spec.versions.iter().any(|v| v.name == storage) {
        let versions = merged.spec.versions.iter().map(|v| v.name.as_str()).collect::<Vec<_>>().join(", ");
        return Err(MergeError::MissingStorageVersion { crd: crd_name, storage: storage.into(), versions });
    }
    for v in &mut merged.spec.versions {
        v.storage = v.name == storage;
    }
    merged.spec.versions.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(merged)
}
