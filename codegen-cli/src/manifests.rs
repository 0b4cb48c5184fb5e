//! `manifests`: one CRD file per kind under `<out>/crd/bases/<group>_<plural>.yaml`,
//! versions of one kind merged; `--check` compares instead of writing.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;

use crate::workspace::Kind;

/// A file the command produces.
pub struct Output {
    pub path: PathBuf,
    pub contents: String,
}

/// Renders every kind's CRD; versions of one kind (same CRD name) become one CRD.
pub fn render(kinds: Vec<Kind>, out: &Path) -> Result<Vec<Output>> {
    let mut by_name: BTreeMap<String, Vec<Kind>> = BTreeMap::new();
    for kind in kinds {
        let name = kind.crd.metadata.name.clone().unwrap_or_default();
        by_name.entry(name).or_default().push(kind);
    }
    let mut outputs = Vec::new();
    for (name, versions) in by_name {
        let crd = merge(&name, versions)?;
        let file = format!("{}_{}.yaml", crd.spec.group, crd.spec.names.plural);
        let contents = kubegen::to_yaml(&crd).with_context(|| format!("rendering {name} as YAML"))?;
        outputs.push(Output { path: out.join("crd").join("bases").join(file), contents });
    }
    Ok(outputs)
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
    let storage: Vec<String> = kept
        .iter()
        .flat_map(|k| k.crd.spec.versions.iter().filter(|v| v.storage).map(|v| v.name.clone()))
        .collect();
    if storage.len() != 1 {
        bail!(
            "{name} has {} versions marked as storage ({}) among {sources}: mark exactly one with `+kubebuilder:storageversion` and give the others `#[kube(storage = false)]`",
            storage.len(),
            storage.join(", ")
        );
    }
    let crds = kept.into_iter().map(|k| k.crd).collect();
    kubegen::merge_crds(crds, &storage[0]).with_context(|| format!("merging the versions of {name} ({sources})"))
}

/// Writes each file whose contents changed, through a temporary file and a rename, so
/// a file on disk is always either the old or the new version.
pub fn write(outputs: &[Output]) -> Result<usize> {
    let mut written = 0;
    for o in outputs {
        if std::fs::read_to_string(&o.path).ok().as_deref() == Some(o.contents.as_str()) {
            continue;
        }
        let dir = o.path.parent().context("output path has no directory")?;
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let tmp = dir.join(format!(".{}.tmp", o.path.file_name().and_then(|n| n.to_str()).unwrap_or("out")));
        std::fs::write(&tmp, &o.contents).with_context(|| format!("writing {}", tmp.display()))?;
        std::fs::rename(&tmp, &o.path).with_context(|| format!("renaming {} to {}", tmp.display(), o.path.display()))?;
        written += 1;
    }
    Ok(written)
}

/// Compares with the files on disk; returns a unified diff per stale file.
pub fn check(outputs: &[Output], root: &Path) -> Vec<String> {
    let mut stale = Vec::new();
    for o in outputs {
        let on_disk = std::fs::read_to_string(&o.path).unwrap_or_default();
        if on_disk == o.contents {
            continue;
        }
        let shown = o.path.strip_prefix(root).unwrap_or(&o.path).display().to_string();
        let diff = similar::TextDiff::from_lines(&on_disk, &o.contents)
            .unified_diff()
            .context_radius(3)
            .header(&format!("a/{shown}"), &format!("b/{shown}"))
            .to_string();
        let diff = if on_disk.is_empty() && !o.path.exists() { format!("{shown} is missing\n{diff}") } else { diff };
        stale.push(diff);
    }
    stale
}
