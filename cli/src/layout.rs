//! kubebuilder's `config/` layout. Generated files (CRD bases, `role.yaml`, the CRD
//! kustomization) are rewritten on every run; the files kubebuilder scaffolds once
//! (the other kustomizations, RBAC bindings, the manager, samples) are written only when
//! missing, so edits to them survive.

use std::path::Path;

use crate::roles::RoleObject;
use anyhow::{Context, Result};
use askama::Template;
use k8s_openapi::api::rbac::v1::{ClusterRole, Role};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;

use crate::output::Output;

#[derive(Template)]
#[template(path = "crd_kustomization.yaml")]
struct CrdKustomization<'a> {
    files: &'a [String],
    /// The YAML files in crd/patches/, by name.
    patches: &'a [String],
    /// crd/kustomizeconfig.yaml exists.
    kustomizeconfig: bool,
}

#[derive(Template)]
#[template(path = "samples_kustomization.yaml")]
struct SamplesKustomization<'a> {
    files: &'a [String],
}

#[derive(Template)]
#[template(path = "rbac_kustomization.yaml")]
struct RbacKustomization;

#[derive(Template)]
#[template(path = "service_account.yaml")]
struct ServiceAccount;

#[derive(Template)]
#[template(path = "role_binding.yaml")]
struct RoleBinding<'a> {
    role_name: &'a str,
    namespaced: bool,
}

#[derive(Template)]
#[template(path = "leader_election_role.yaml")]
struct LeaderElectionRole;

#[derive(Template)]
#[template(path = "leader_election_role_binding.yaml")]
struct LeaderElectionRoleBinding;

#[derive(Template)]
#[template(path = "manager.yaml")]
struct Manager {
    namespaced: bool,
}

#[derive(Template)]
#[template(path = "metrics_service.yaml")]
struct MetricsService;

#[derive(Template)]
#[template(path = "manager_kustomization.yaml")]
struct ManagerKustomization;

#[derive(Template)]
#[template(path = "default_kustomization.yaml")]
struct DefaultKustomization<'a> {
    project: &'a str,
    /// `codegen-cli create webhook` has scaffolded config/webhook: wire it in.
    webhooks: bool,
}

fn rendered(t: &impl Template, what: &str) -> Result<String> {
    crate::output::render(t, what)
}

pub struct Inputs<'a> {
    pub out: &'a Path,
    pub crd_files: &'a [String],
    pub samples: &'a [(String, String)],
    pub role_name: &'a str,
    pub project: &'a str,
    /// Only some packages were read (`-p`): keep the other kinds' entries in the
    /// kustomizations that list every CRD and sample.
    pub partial: bool,
    /// A namespace-scoped manager: a RoleBinding, and the Deployment passes its namespace.
    pub namespaced: bool,
}

/// `files`, after the entries `path` already lists (with `prefix`) when `partial`.
fn with_listed(path: &Path, prefix: &str, files: &[String], partial: bool) -> Vec<String> {
    let mut all: Vec<String> = if partial {
        std::fs::read_to_string(path)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.strip_prefix("- ").and_then(|f| f.strip_prefix(prefix)))
            .map(String::from)
            .collect()
    } else {
        Vec::new()
    };
    for f in files {
        if !all.contains(f) {
            all.push(f.clone());
        }
    }
    all
}

/// The `.yaml` files directly in `dir`, by name, sorted; none when it does not exist.
fn yaml_files(dir: &Path) -> Result<Vec<String>> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("reading {}", dir.display())),
    };
    let mut names = Vec::new();
    for entry in entries {
        let name = entry.with_context(|| format!("reading {}", dir.display()))?.file_name();
        if let Some(name) = name.to_str().filter(|n| n.ends_with(".yaml") && !n.starts_with('.')) {
            names.push(name.to_string());
        }
    }
    names.sort();
    Ok(names)
}

/// The namespace config/ puts the manager's objects in, which config/default's
/// kustomization renames (`<project>-system`).
pub const SYSTEM: &str = "system";

/// `rbac/role.yaml`: the roles, or an empty ClusterRole (a Role in the manager's namespace
/// when it is namespace-scoped): rbac/kustomization.yaml lists the file, so it is written
/// with no rules too.
pub fn role_yaml(roles: &[RoleObject], role_name: &str, header: &str, namespaced: bool) -> Result<String> {
    let mut role = header.to_string();
    if roles.is_empty() {
        let name = Some(role_name.to_string());
        let empty = if namespaced {
            kubegen::to_yaml(&Role {
                metadata: ObjectMeta { name, namespace: Some(SYSTEM.into()), ..Default::default() },
                rules: Some(Vec::new()),
            })
        } else {
            kubegen::to_yaml(&ClusterRole {
                metadata: ObjectMeta { name, ..Default::default() },
                rules: Some(Vec::new()),
                ..Default::default()
            })
        };
        role.push_str(&empty.context("rendering role.yaml")?);
    }
    for r in roles {
        let doc = match r {
            RoleObject::Cluster(c) => kubegen::to_yaml(c),
            RoleObject::Namespaced(r) => kubegen::to_yaml(r),
        }
        .context("rendering role.yaml")?;
        role.push_str(&doc);
    }
    Ok(role)
}

/// The scaffolded files that say whether the manager is namespace-scoped, as written
/// for `namespaced` (config/-relative path, text): the binding of its role, and the
/// Deployment (which passes `--namespace`).
pub fn scope_files(role_name: &str, namespaced: bool) -> Result<[(&'static str, String); 2]> {
    Ok([
        ("rbac/role_binding.yaml", rendered(&RoleBinding { role_name, namespaced }, "rbac/role_binding.yaml")?),
        ("manager/manager.yaml", rendered(&Manager { namespaced }, "manager/manager.yaml")?),
    ])
}

/// Every file of the layout but the CRD bases and the role.
pub fn outputs(i: &Inputs) -> Result<Vec<Output>> {
    let out = i.out;
    let generated = |path: &str, contents: String| Output::generated(out.join(path), contents);
    let scaffold = |path: &str, contents: String| Output::scaffolded(out.join(path), contents);
    let mut files = vec![generated(
        "crd/kustomization.yaml",
        rendered(
            &CrdKustomization {
                files: &with_listed(&out.join("crd/kustomization.yaml"), "bases/", i.crd_files, i.partial),
                patches: &yaml_files(&out.join("crd/patches"))?,
                kustomizeconfig: out.join("crd/kustomizeconfig.yaml").exists(),
            },
            "crd/kustomization.yaml",
        )?,
    )];

    files.push(scaffold("rbac/kustomization.yaml", rendered(&RbacKustomization, "rbac/kustomization.yaml")?));
    files.push(scaffold("rbac/service_account.yaml", rendered(&ServiceAccount, "rbac/service_account.yaml")?));
    let [(binding, binding_text), (manager, manager_text)] = scope_files(i.role_name, i.namespaced)?;
    files.push(scaffold(binding, binding_text));
    files.push(scaffold(
        "rbac/leader_election_role.yaml",
        rendered(&LeaderElectionRole, "rbac/leader_election_role.yaml")?,
    ));
    files.push(scaffold(
        "rbac/leader_election_role_binding.yaml",
        rendered(&LeaderElectionRoleBinding, "rbac/leader_election_role_binding.yaml")?,
    ));
    files.push(scaffold("manager/kustomization.yaml", rendered(&ManagerKustomization, "manager/kustomization.yaml")?));
    files.push(scaffold(manager, manager_text));
    files.push(scaffold("default/metrics_service.yaml", rendered(&MetricsService, "default/metrics_service.yaml")?));
    files.push(scaffold(
        "default/kustomization.yaml",
        rendered(
            &DefaultKustomization { project: i.project, webhooks: out.join("webhook/kustomization.yaml").exists() },
            "default/kustomization.yaml",
        )?,
    ));

    let names: Vec<String> = i.samples.iter().map(|(name, _)| name.clone()).collect();
    let names = with_listed(&out.join("samples/kustomization.yaml"), "", &names, i.partial);
    // The samples kustomization lists every sample, so it follows the kinds.
    files.push(generated(
        "samples/kustomization.yaml",
        rendered(&SamplesKustomization { files: &names }, "samples/kustomization.yaml")?,
    ));
    for (name, text) in i.samples {
        let path = out.join("samples").join(name);
        let contents = marked_sample(text);
        match std::fs::read_to_string(&path) {
            Err(_) => files.push(scaffold(&format!("samples/{name}"), contents)),
            // As `manifests` wrote it, or as an older codegen-cli wrote it (no mark yet, the
            // same object): it follows the schema.
            Ok(on_disk) if unedited(&on_disk) || on_disk == *text => {
                files.push(generated(&format!("samples/{name}"), contents))
            }
            // Edited: the user's (generate.rs reports one the schema now refuses).
            Ok(_) => {}
        }
    }
    Ok(files)
}

/// The first line of a sample `manifests` writes, before the hash of the rest: the next
/// run rewrites a sample whose rest still has that hash (it follows the schema as fields
/// change) and leaves an edited one alone.
const SAMPLE_MARK: &str =
    "# Written by codegen-cli manifests from the schema, and rewritten as it changes until you edit this file. sha256:";

fn sample_hash(body: &str) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(body.as_bytes());
    digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

/// `body` under its mark line.
pub fn marked_sample(body: &str) -> String {
    format!("{SAMPLE_MARK}{}\n{body}", sample_hash(body))
}

/// Whether a sample on disk is as `manifests` wrote it (its mark's hash is its rest's).
pub fn unedited(text: &str) -> bool {
    text.split_once('\n')
        .is_some_and(|(first, rest)| first.strip_prefix(SAMPLE_MARK).is_some_and(|hash| hash == sample_hash(rest)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 29: a sample follows the schema while it is as `manifests` wrote it, and is
    /// the user's once edited.
    #[test]
    fn a_sample_follows_the_schema_until_it_is_edited() {
        let out = std::env::temp_dir().join(format!("kubegen-samples-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        let run = |sample: &str| {
            let samples = vec![("g_v1_foo.yaml".to_string(), sample.to_string())];
            let inputs = Inputs {
                out: &out,
                crd_files: &[],
                samples: &samples,
                role_name: "manager-role",
                project: "p",
                partial: false,
                namespaced: false,
            };
            let outputs = outputs(&inputs).expect("the layout");
            crate::output::write(&outputs).expect("written");
            std::fs::read_to_string(out.join("samples/g_v1_foo.yaml")).expect("the sample")
        };
        let first = run("---\nspec: {}\n");
        assert!(first.starts_with(SAMPLE_MARK) && first.ends_with("\n---\nspec: {}\n"), "{first}");
        // A field added to the schema reaches the unedited sample.
        let second = run("---\nspec:\n  size: 0\n");
        assert!(second.ends_with("\n---\nspec:\n  size: 0\n"), "{second}");
        // Edited, it stays as the user left it, whatever the schema says.
        let edited = second.replace("size: 0", "size: 3");
        std::fs::write(out.join("samples/g_v1_foo.yaml"), &edited).expect("edited");
        assert_eq!(run("---\nspec:\n  size: 0\n  foo: ''\n"), edited);
        // An unmarked sample an older codegen-cli wrote, equal to today's, is adopted.
        std::fs::write(out.join("samples/g_v1_foo.yaml"), "---\nspec: {}\n").expect("old");
        assert_eq!(run("---\nspec: {}\n"), first);
        std::fs::remove_dir_all(&out).expect("cleaned");
    }
}
