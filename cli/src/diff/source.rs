//! What `--against` names: a directory or file of CRD YAML, or a git ref whose
//! committed CRDs are read with `git ls-tree` and `git show` (the working tree is not
//! touched). Without `--against`: the merge base with the default branch, else HEAD.
//! `diff OLD NEW` reads two files or directories.

use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use serde_json::Value;

use super::Generation;
use crate::clients::Package;
use crate::project::Project;
use crate::workspace::Workspace;

/// The generation `against` names, relative to the workspace `root`; `crd_dir` is where
/// the CRDs sit in a git tree (`config/crd/bases`).
pub fn load(root: &Path, against: Option<&str>, crd_dir: &Path) -> Result<Generation> {
    let (against, label) = match against {
        Some(a) => (a.to_string(), a.to_string()),
        None => default_ref(root)?,
    };
    let path = root.join(&against);
    let path = if Path::new(&against).is_absolute() || Path::new(&against).exists() {
        Path::new(&against).to_path_buf()
    } else {
        path
    };
    if path.exists() {
        return read_path(&path);
    }
    let (commit, crds) = read_ref(root, &against, crd_dir)?;
    Ok(Generation { name: format!("{} at {label}", crd_dir.display()), crds, clients: None, commit: Some(commit) })
}

/// The CRDs of a file or a directory of CRD YAML (`diff OLD NEW`, `--against DIR`).
pub fn read_path(path: &Path) -> Result<Generation> {
    if !path.exists() {
        bail!("{}: no such file or directory", path.display());
    }
    let crds = if path.is_dir() { read_dir(path)? } else { read_file(path)? };
    Ok(Generation { name: path.display().to_string(), crds, clients: None, commit: None })
}

/// The client model at `commit`: its tree extracted with `git archive` under the
/// workspace's target directory (kept for the next run), loaded as a workspace and its
/// kinds built in the same target directory, so only the ref's own crates compile.
pub fn clients_at(project: &Project, commit: &str, packages: &[String]) -> Result<Vec<Package>> {
    let root = project.root();
    let prefix = git(root, &["rev-parse", "--show-prefix"])?;
    let dir = project.workspace.target_dir.join("kubegen").join(format!("diff-{commit}"));
    let done = dir.join(".kubegen-extracted");
    if !done.exists() {
        if dir.exists() {
            std::fs::remove_dir_all(&dir).with_context(|| format!("removing {}", dir.display()))?;
        }
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        let archive = Command::new("git")
            .arg("-C")
            .arg(root)
            .args(["archive", "--format=tar", commit])
            .stdout(Stdio::piped())
            .spawn()
            .context("running git archive")?;
        let tar = Command::new("tar")
            .arg("-x")
            .arg("-C")
            .arg(&dir)
            .stdin(archive.stdout.context("git archive's output")?)
            .status()
            .context("running tar")?;
        if !tar.success() {
            bail!("extracting {commit} into {} failed", dir.display());
        }
        std::fs::write(&done, commit).with_context(|| format!("writing {}", done.display()))?;
    }
    let manifest = dir.join(prefix).join("Cargo.toml");
    let mut workspace =
        Workspace::load(Some(&manifest), packages).with_context(|| format!("the workspace at {commit}"))?;
    workspace.target_dir = project.workspace.target_dir.clone();
    // In a mirror, the commit's packages would take the names of the workspace's own
    // artifacts in this shared target directory (and, older, be thought built).
    workspace.mirrorable = false;
    let kinds = workspace.kinds(Default::default()).with_context(|| format!("building the kinds at {commit}"))?;
    crate::clients::packages(kinds).with_context(|| format!("the client model at {commit}"))
}

/// The merge base of HEAD with the default branch (origin's HEAD, else `main` or
/// `master`, local or origin's: a CI checkout of a pull request has only the latter), or
/// HEAD when there is none; with how messages name it.
fn default_ref(root: &Path) -> Result<(String, String)> {
    let branch = git(root, &["symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"]).ok().or_else(|| {
        ["heads/main", "heads/master", "remotes/origin/main", "remotes/origin/master"]
            .into_iter()
            .find(|b| git(root, &["rev-parse", "--verify", "--quiet", &format!("refs/{b}")]).is_ok())
            .map(|b| b.trim_start_matches("heads/").trim_start_matches("remotes/").to_string())
    });
    if let Some(branch) = branch
        && let Ok(base) = git(root, &["merge-base", "HEAD", &branch])
    {
        let short = git(root, &["rev-parse", "--short", &base]).unwrap_or_else(|_| base.clone());
        return Ok((base, format!("{short} (the merge base with {branch})")));
    }
    git(root, &["rev-parse", "--verify", "--quiet", "HEAD"])
        .map(|_| ("HEAD".to_string(), "HEAD".to_string()))
        .with_context(|| format!("{}: no --against given and no commit to compare with", root.display()))
}

/// The commit `reference` names, and the CRDs committed under `crd_dir` there.
pub fn read_ref(root: &Path, reference: &str, crd_dir: &Path) -> Result<(String, Vec<CustomResourceDefinition>)> {
    let commit =
        git(root, &["rev-parse", "--verify", "--quiet", &format!("{reference}^{{commit}}")]).with_context(|| {
            format!(
                "--against {reference}: neither a file, a directory nor a git ref of the repository at {}",
                root.display()
            )
        })?;
    let dir = crd_dir.to_string_lossy();
    let listed = git(root, &["ls-tree", "-r", "--full-name", "--name-only", reference, "--", &dir])?;
    let mut crds = Vec::new();
    for file in listed.lines().filter(|f| f.ends_with(".yaml") || f.ends_with(".yml")) {
        let text = git(root, &["show", &format!("{reference}:{file}")])?;
        crds.extend(parse(&text).with_context(|| format!("{reference}:{file}"))?);
    }
    Ok((commit, crds))
}

fn read_dir(dir: &Path) -> Result<Vec<CustomResourceDefinition>> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "yaml" || e == "yml"))
        .collect();
    files.sort();
    let mut crds = Vec::new();
    for file in files {
        crds.extend(read_file(&file)?);
    }
    Ok(crds)
}

fn read_file(file: &Path) -> Result<Vec<CustomResourceDefinition>> {
    let text = std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    parse(&text).with_context(|| file.display().to_string())
}

/// Every CustomResourceDefinition among the YAML documents of `text`; other kinds
/// (a kustomization) are skipped.
pub fn parse(text: &str) -> Result<Vec<CustomResourceDefinition>> {
    let docs: Vec<Value> = serde_saphyr::from_multiple(text).map_err(|e| anyhow::anyhow!("not YAML: {e}"))?;
    let mut crds = Vec::new();
    for doc in docs {
        if doc.get("kind").and_then(Value::as_str) != Some("CustomResourceDefinition") {
            continue;
        }
        let name = doc.pointer("/metadata/name").and_then(Value::as_str).unwrap_or("?").to_string();
        crds.push(serde_json::from_value(doc).with_context(|| format!("the CRD {name}"))?);
    }
    Ok(crds)
}

/// Runs git in `root`; its stdout, trimmed at the end.
fn git(root: &Path, args: &[&str]) -> Result<String> {
    let out = Command::new("git").arg("-C").arg(root).args(args).output().context("running git")?;
    if !out.status.success() {
        bail!("git {}: {}", args.join(" "), String::from_utf8_lossy(&out.stderr).trim());
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim_end().to_string())
}
