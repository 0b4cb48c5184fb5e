//! The generator seam: every output the CLI writes — CRDs, RBAC, kubebuilder's
//! `config/` layout, each client language — is a [`Generator`] reading one [`Project`].
//! A command picks generators, concatenates their outputs and hands them to
//! [`output::finish`] for writing or `--check`; docs and webhooks plug in the same way.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};

use crate::clients::{self, Language, Package};
use crate::fingerprint::{Before, Inputs, Probe};
use crate::output::{self, Output};
use crate::project::Project;
use crate::{crd_merge, layout};

pub trait Generator {
    /// The files this generator makes of the project.
    fn outputs(&self, project: &Project) -> Result<Vec<Output>>;
}

/// A command's run as its fingerprint sees it: the stamp looked up before the project
/// loaded, the inputs as they were before the run, and the directories it writes.
pub struct Fingerprint {
    pub probe: Probe,
    pub before: Before,
    pub outs: Vec<PathBuf>,
}

impl Fingerprint {
    /// The inputs of a run over `project` writing into `outs`, read now: every package the
    /// helper builds from source, every member's manifest and the directories a `members`
    /// glob lists, the lock file, the toolchain files and cargo configuration (here and
    /// above, rustup's and cargo's homes), and the `--header` file.
    pub fn read(probe: Probe, project: &Project, outs: Vec<PathBuf>, header: Option<&Path>) -> Fingerprint {
        let root = project.root();
        let cwd = std::env::current_dir().unwrap_or_default();
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let cargo_home =
            std::env::var_os("CARGO_HOME").map(PathBuf::from).or_else(|| home.as_ref().map(|h| h.join(".cargo")));
        let rustup_home =
            std::env::var_os("RUSTUP_HOME").map(PathBuf::from).or_else(|| home.as_ref().map(|h| h.join(".rustup")));
        let mut files: Vec<PathBuf> = vec![root.join("Cargo.toml"), root.join("Cargo.lock")];
        files.extend(project.workspace.member_manifests.iter().cloned());
        for dir in cwd.ancestors().chain(root.ancestors()) {
            files.extend(["rust-toolchain", "rust-toolchain.toml"].map(|f| dir.join(f)));
            files.extend(["config", "config.toml"].map(|f| dir.join(".cargo").join(f)));
        }
        if let Some(home) = cargo_home {
            files.extend(["config", "config.toml"].map(|f| home.join(f)));
        }
        files.extend(rustup_home.map(|h| h.join("settings.toml")));
        files.extend(header.map(|h| cwd.join(h)));
        files.sort();
        files.dedup();
        let (dirs, complete) = match &project.workspace.package_dirs {
            Some(dirs) => (dirs.clone(), true),
            None => (Vec::new(), false),
        };
        // The outputs are walked after the run; the target directory, wherever it is, never.
        let mut skipped = outs.clone();
        skipped.push(project.workspace.target_dir.clone());
        let listed = project.workspace.member_glob_dirs.clone();
        let before = probe.before(Inputs { dirs, skipped, files, listed, complete });
        Fingerprint { probe, before, outs }
    }
}

/// Runs `generators` in order and writes (or checks) what they make; a run that ends
/// well leaves its fingerprint's stamp.
pub fn run(
    project: &Project,
    generators: &[&dyn Generator],
    check: bool,
    what: &str,
    fingerprint: Fingerprint,
    summary: impl FnOnce(&Project) -> Result<String>,
) -> Result<ExitCode> {
    let mut outputs = Vec::new();
    for generator in generators {
        outputs.extend(generator.outputs(project)?);
    }
    let summary = summary(project)?;
    let code = output::finish(&outputs, project.root(), check, what, &summary)?;
    if code == ExitCode::SUCCESS {
        let Fingerprint { probe, before, outs } = fingerprint;
        let generated = outputs
            .iter()
            .filter(|o| o.overwrite)
            .map(|o| (o.path.clone(), crate::fingerprint::digest(&o.contents)))
            .collect();
        let left = crate::fingerprint::Outputs { dirs: outs, generated, count: outputs.len(), summary };
        probe.after(before, project.workspace.built_files(), &left, output::warnings());
    }
    Ok(code)
}

/// `<out>/crd/bases/<group>_<plural>.yaml`: one CRD per kind, its versions merged.
pub struct Crds {
    pub out: PathBuf,
    /// `--max-desc-len`: descriptions cut at a sentence boundary; 0 drops them.
    pub max_desc_len: Option<usize>,
    /// `--size-budget`: descriptions dropped, the deepest first, until each CRD fits.
    pub size_budget: Option<crate::settings::SizeBudget>,
}

impl Generator for Crds {
    fn outputs(&self, project: &Project) -> Result<Vec<Output>> {
        let mut outputs = Vec::new();
        let mut largest: Option<(usize, String)> = None;
        for crd in project.crds()? {
            let mut crd = crd.clone();
            if let Some(max) = self.max_desc_len {
                kubegen::crd::truncate_descriptions(&mut crd, max);
            }
            let name = crd.metadata.name.clone().unwrap_or_default();
            let size = self.fit(&mut crd, &name)?;
            if largest.as_ref().is_none_or(|(l, _)| size > *l) {
                largest = Some((size, name.clone()));
            }
            let yaml = kubegen::to_yaml(&crd).with_context(|| format!("rendering {name} as YAML"))?;
            outputs.push(Output::generated(
                self.out.join("crd/bases").join(crd_merge::crd_file(&crd)),
                format!("{}{yaml}", project.header),
            ));
        }
        if let Some((size, name)) = largest {
            let share = |limit: usize| size * 100 / limit;
            output::warn(format!(
                "CRD sizes: the largest, {name}, is {size} bytes of JSON ({}% of the {} bytes client-side `kubectl apply` can store in its annotation, {}% of etcd's {}-byte request limit)",
                share(kubegen::crd::LAST_APPLIED_LIMIT),
                kubegen::crd::LAST_APPLIED_LIMIT,
                share(kubegen::crd::ETCD_REQUEST_LIMIT),
                kubegen::crd::ETCD_REQUEST_LIMIT,
            ));
        }
        Ok(outputs)
    }
}

impl Crds {
    /// `crd` within the size budget, if one is set (descriptions dropped, the deepest
    /// first, and said); its size in JSON. Over the annotation it is a warning; over what
    /// etcd stores, an error: the API server would refuse the CRD.
    fn fit(
        &self,
        crd: &mut k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition,
        name: &str,
    ) -> Result<usize> {
        use kubegen::crd::{ETCD_REQUEST_LIMIT, LAST_APPLIED_LIMIT};
        let mut size = kubegen::crd::applied_size(crd);
        if let Some(budget) = self.size_budget.map(|b| b.bytes_for(crd))
            && size > budget
        {
            match kubegen::crd::fit_descriptions(crd, budget) {
                Ok(fitted) => {
                    output::warn(format!(
                        "note: {name}: {} of its {} descriptions dropped to fit the size budget of {budget} bytes ({} -> {} bytes; the deepest first); `codegen-cli docs` keeps them all",
                        fitted.dropped, fitted.of, fitted.before, fitted.after
                    ));
                    size = fitted.after;
                }
                Err(bare) => anyhow::bail!(
                    "{name} is {bare} bytes even without the descriptions the budget may drop, over the size budget of {budget} bytes: give a larger budget (`--size-budget etcd` keeps it under what the API server stores, then apply with `kubectl apply --server-side`), split the kind, or drop fields"
                ),
            }
        }
        if size > ETCD_REQUEST_LIMIT {
            anyhow::bail!(
                "{name} is {size} bytes, over the {ETCD_REQUEST_LIMIT} bytes etcd stores in one request: the API server would refuse it. Write `--size-budget etcd` (or `size-budget = \"etcd\"` in [workspace.metadata.kubegen]) to drop descriptions until it fits, the deepest first"
            );
        }
        // A budget the user chose over the annotation says they apply server-side.
        let chose_larger = self.size_budget.is_some_and(|b| b.bytes_for(crd) > kubegen::crd::annotation_budget(crd));
        if size > kubegen::crd::annotation_budget(crd) && !chose_larger {
            output::warn(format!(
                "warning: {name} is {size} bytes, over the {LAST_APPLIED_LIMIT} bytes of the last-applied-configuration annotation: client-side `kubectl apply` will refuse it. Write `--size-budget annotation` (or `size-budget = \"annotation\"` in [workspace.metadata.kubegen]) to drop descriptions until it fits, the deepest first; or apply with `kubectl apply --server-side`"
            ));
        }
        Ok(size)
    }
}

/// `<out>/rbac/role.yaml` from the RBAC markers, merged as controller-gen merges them.
pub struct Rbac {
    pub out: PathBuf,
    /// The ClusterRole of markers without `roleName`.
    pub role_name: String,
}

impl Generator for Rbac {
    fn outputs(&self, project: &Project) -> Result<Vec<Output>> {
        let namespaced = project.settings.namespaced;
        let rules = project.rbac_rules()?;
        if namespaced {
            let own: Vec<(String, String)> = project
                .crds()?
                .iter()
                .filter(|c| c.spec.scope == "Cluster")
                .map(|c| (c.spec.group.clone(), c.spec.names.plural.clone()))
                .collect();
            let refused = crate::roles::namespaced_refusals(rules, &own);
            if !refused.is_empty() {
                anyhow::bail!("config/rbac/role.yaml:\n  {}", refused.join("\n  "));
            }
        }
        let roles = crate::roles::generate_roles(rules, &self.role_name, namespaced.then_some(layout::SYSTEM));
        let role = layout::role_yaml(&roles, &self.role_name, &project.header, namespaced)?;
        Ok(vec![Output::generated(self.out.join("rbac/role.yaml"), role)])
    }
}

/// `<out>/webhook/manifests.yaml` from the webhook markers, as controller-gen writes it:
/// the mutating configuration, then the validating one. No markers, no file — unless
/// one is there from earlier markers: it is emptied (config/webhook's kustomization
/// still lists it), so `--check` finds it stale and no configuration outlives its markers.
pub struct WebhookManifests {
    pub out: PathBuf,
}

/// What `manifests.yaml` says once its last marker is gone.
const NO_WEBHOOKS: &str = "# No +kubebuilder:webhook markers: no webhook configurations.\n";

impl Generator for WebhookManifests {
    fn outputs(&self, project: &Project) -> Result<Vec<Output>> {
        let (markers, names) = project.webhooks()?;
        let (mutating, validating) = crate::webhook_configurations::configurations(markers, names)?;
        let path = self.out.join("webhook/manifests.yaml");
        let mut yaml = project.header.clone();
        if mutating.is_none() && validating.is_none() {
            if !path.exists() {
                return Ok(Vec::new());
            }
            yaml.push_str(NO_WEBHOOKS);
            return Ok(vec![Output::generated(path, yaml)]);
        }
        if let Some(m) = &mutating {
            yaml.push_str(&kubegen::to_yaml(m).context("rendering webhook/manifests.yaml")?);
        }
        if let Some(v) = &validating {
            yaml.push_str(&kubegen::to_yaml(v).context("rendering webhook/manifests.yaml")?);
        }
        Ok(vec![Output::generated(path, yaml)])
    }
}

/// Says so when the sample at `path` was edited (`manifests` leaves it alone) and the
/// schema of its version now refuses it: a stale sample is reported while it is wrong,
/// not on every run.
fn edited_and_refused(
    path: &std::path::Path,
    generated: &str,
    crd: &k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition,
    version: &str,
) {
    let Ok(on_disk) = std::fs::read_to_string(path) else { return };
    if crate::layout::unedited(&on_disk) || on_disk == generated {
        return;
    }
    let object: serde_json::Value = match serde_saphyr::from_str(&on_disk) {
        Ok(object) => object,
        Err(e) => {
            output::warn(format!("note: {} is not YAML ({e}); it is left as is", path.display()));
            return;
        }
    };
    if let Err(violations) = kubegen::validate::Validator::for_version(crd, version).validate(&object, None) {
        output::warn(format!(
            "note: {} was edited, so manifests leaves it alone, and the schema of {version} now refuses it: {violations}. Fix it, or delete it and run manifests again to regenerate it",
            path.display()
        ));
    }
}

/// The rest of kubebuilder's `config/`: kustomizations listing every CRD and sample,
/// and, written once and then the user's, RBAC bindings, the manager and the samples.
pub struct Layout {
    pub out: PathBuf,
    pub role_name: String,
}

impl Generator for Layout {
    fn outputs(&self, project: &Project) -> Result<Vec<Output>> {
        let crds = project.crds()?;
        let crd_files: Vec<String> = crds.iter().map(crd_merge::crd_file).collect();
        let mut samples = Vec::new();
        for crd in crds {
            let name = crd.metadata.name.as_deref().unwrap_or_default();
            // One per served version (kubebuilder's `create api` writes one per version).
            for version in crd.spec.versions.iter().filter(|v| v.served) {
                let sample = kubegen::to_yaml(&kubegen::crd::sample_object_in(crd, &version.name))
                    .with_context(|| format!("rendering the {} sample of {name}", version.name))?;
                let file = crd_merge::sample_file(crd, &version.name);
                edited_and_refused(&self.out.join("samples").join(&file), &sample, crd, &version.name);
                samples.push((file, sample));
            }
        }
        layout::outputs(&layout::Inputs {
            out: &self.out,
            crd_files: &crd_files,
            samples: &samples,
            role_name: &self.role_name,
            partial: project.partial,
            project: project.name(),
            namespaced: project.settings.namespaced,
        })
    }
}

/// One language's package, from the kinds grouped by group/version.
pub struct Client<'a> {
    pub language: &'static dyn Language,
    pub dir: PathBuf,
    pub packages: &'a [Package],
    pub go_kubernetes_types: crate::settings::GoKubernetesTypes,
}

impl Generator for Client<'_> {
    fn outputs(&self, project: &Project) -> Result<Vec<Output>> {
        let settings = &project.settings.clients;
        let options = clients::Options {
            project: project.name(),
            settings,
            version: settings.version.clone().unwrap_or_else(|| "0.1.0".into()),
            header: &project.header,
            go_kubernetes_types: self.go_kubernetes_types,
        };
        let files = self.language.files(self.packages, &options)?;
        Ok(files.into_iter().map(|(path, contents)| Output::generated(self.dir.join(path), contents)).collect())
    }
}
