//! A workspace as every command sees it, loaded once: its packages, its typed settings,
//! the `--header` text, and — built on first use and kept — its kinds, their merged
//! CRDs and its RBAC rules. Generators read from here and nothing else.

use std::cell::OnceCell;
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kubegen::rbac::RbacRule;
use kubegen_core::kind::Options;
use kubegen_core::webhook::WebhookMarker;

use crate::clients::Package;
use crate::settings::Settings;
use crate::workspace::{Kind, Workspace};
use crate::{crd_merge, output, source_markers};

pub struct Project {
    pub workspace: Workspace,
    pub settings: Settings,
    /// `--header FILE` as YAML comments; empty without it.
    pub header: String,
    /// `-p` named some packages: outputs listing every kind keep the others' entries.
    pub partial: bool,
    options: Options,
    kinds: OnceCell<Vec<Kind>>,
    crds: OnceCell<Vec<CustomResourceDefinition>>,
    /// The CRDs were checked as the API server would check them (once).
    linted: OnceCell<()>,
    packages: OnceCell<Vec<Package>>,
    scan: OnceCell<source_markers::Scan>,
    /// The RBAC rules were checked against the kinds' singulars (once).
    singular_checked: OnceCell<()>,
}

/// The flags by which `manifests`, `clients` and `docs` name the workspace they read.
#[derive(clap::Args)]
pub struct ProjectArgs {
    /// Only these packages' kinds (repeatable).
    #[arg(short, long = "package", value_name = "SPEC")]
    pub packages: Vec<String>,
    /// Path to the workspace's Cargo.toml.
    #[arg(long, value_name = "PATH")]
    pub manifest_path: Option<PathBuf>,
    /// Put this file's text at the top of every generated file, as comments of the file's
    /// language (YAML and code comments; an HTML comment in Markdown).
    #[arg(long, value_name = "FILE")]
    pub header: Option<PathBuf>,
    /// Report this class of markers that do nothing as warnings instead of failing
    /// (repeatable; also `warn = [...]` in [workspace.metadata.kubegen]).
    #[arg(long = "warn", value_name = "CLASS")]
    pub warn: Vec<source_markers::Lost>,
}

/// The configuration names `+kubebuilder:webhookconfiguration` gives: (mutating, validating).
pub type ConfigurationNames<'a> = (Option<&'a str>, Option<&'a str>);

impl ProjectArgs {
    /// The project these flags name, its CRDs written with `options`.
    pub fn load(&self, options: Options) -> Result<Project> {
        Project::load(Load {
            manifest_path: self.manifest_path.as_deref(),
            packages: &self.packages,
            header: self.header.as_deref(),
            warn: &self.warn,
            options,
        })
    }
}

/// How a command loads the project: its `--manifest-path`, `-p`, `--header` and schema options.
#[derive(Default)]
pub struct Load<'a> {
    pub manifest_path: Option<&'a Path>,
    pub packages: &'a [String],
    pub header: Option<&'a Path>,
    /// `--warn`: classes of lost markers reported as warnings.
    pub warn: &'a [source_markers::Lost],
    pub options: Options,
}

impl Project {
    pub fn load(load: Load) -> Result<Self> {
        let workspace = Workspace::load(load.manifest_path, load.packages)?;
        let mut settings = workspace.settings()?;
        settings.warn.extend_from_slice(load.warn);
        Ok(Project {
            workspace,
            settings,
            header: output::header(load.header)?,
            partial: !load.packages.is_empty(),
            options: load.options,
            kinds: OnceCell::new(),
            crds: OnceCell::new(),
            linted: OnceCell::new(),
            packages: OnceCell::new(),
            scan: OnceCell::new(),
            singular_checked: OnceCell::new(),
        })
    }

    pub fn root(&self) -> &Path {
        &self.workspace.root
    }

    /// `root/dir`.
    pub fn path(&self, dir: impl AsRef<Path>) -> PathBuf {
        self.workspace.root.join(dir)
    }

    /// `[workspace.metadata.kubegen] project`, or `controller`.
    pub fn name(&self) -> &str {
        self.settings.project.as_deref().unwrap_or("controller")
    }

    /// Every kind of the workspace (one per version), ordered by type path: the helper
    /// program is built and run on first use.
    pub fn kinds(&self) -> Result<&[Kind]> {
        if let Some(kinds) = self.kinds.get() {
            return Ok(kinds);
        }
        let kinds = self.workspace.kinds(self.options)?;
        Ok(self.kinds.get_or_init(|| kinds))
    }

    /// One CRD per kind, its versions merged, checked as the API server would check it.
    pub fn crds(&self) -> Result<&[CustomResourceDefinition]> {
        let crds = self.merged()?;
        if self.linted.get().is_none() {
            let problems: Vec<String> = crds.iter().flat_map(kubegen::crd::lint).collect();
            if !problems.is_empty() {
                bail!("the API server would refuse these CRDs:\n  {}", problems.join("\n  "));
            }
            let _ = self.linted.set(());
        }
        Ok(crds)
    }

    /// One CRD per kind, its versions merged (not checked).
    fn merged(&self) -> Result<&[CustomResourceDefinition]> {
        if let Some(crds) = self.crds.get() {
            return Ok(crds);
        }
        let crds = crd_merge::crds(self.kinds()?.to_vec())?;
        Ok(self.crds.get_or_init(|| crds))
    }

    /// The client model — the kinds by group/version, every named type they use — that
    /// `clients`, `docs` and `diff` read: built once, from the kinds and their merged CRDs.
    pub fn packages(&self) -> Result<&[Package]> {
        if let Some(packages) = self.packages.get() {
            return Ok(packages);
        }
        let packages = crate::clients::packages_merged(self.kinds()?.to_vec(), self.merged()?)?;
        Ok(self.packages.get_or_init(|| packages))
    }

    /// The `+kubebuilder:rbac` markers and `#[kubegen::rbac]` attributes of every member
    /// that depends on kubegen. Markers that would do nothing fail it, unless their class
    /// is reported as a warning (`--warn`, `warn = [...]`); warnings go to stderr once.
    pub fn rbac_rules(&self) -> Result<&[RbacRule]> {
        let scan = self.scan()?;
        if self.singular_checked.get().is_none() {
            // The workspace's own kinds, when they are built already (`manifests` builds
            // them first).
            let kinds = self.crds.get().into_iter().flatten().map(|c| {
                let names = &c.spec.names;
                (names.singular.as_deref().unwrap_or_default(), names.plural.as_str())
            });
            self.report(&source_markers::singular_resources(&scan.rules, kinds))?;
            let _ = self.singular_checked.set(());
        }
        Ok(&scan.rules)
    }

    /// Reads the sources' markers: those that would do nothing fail here, before the
    /// kinds are built (`manifests` calls it first).
    pub fn check_sources(&self) -> Result<()> {
        self.scan().map(|_| ())
    }

    /// The `+kubebuilder:webhook` markers and `#[kubegen::webhook]` attributes, with the
    /// configuration names `+kubebuilder:webhookconfiguration` gives (mutating, validating).
    pub fn webhooks(&self) -> Result<(&[WebhookMarker], ConfigurationNames<'_>)> {
        let scan = self.scan()?;
        let (m, v) = &scan.webhook_configurations;
        Ok((&scan.webhooks, (m.as_deref(), v.as_deref())))
    }

    fn scan(&self) -> Result<&source_markers::Scan> {
        if let Some(scan) = self.scan.get() {
            return Ok(scan);
        }
        let files: Vec<PathBuf> =
            self.workspace.source_dirs.iter().flat_map(|d| source_markers::rust_files(d)).collect();
        let scan = source_markers::scan(&files, self.root())?;
        self.report(&scan.findings)?;
        Ok(self.scan.get_or_init(|| scan))
    }

    /// Warns about the findings whose class is listed as a warning; fails on the others.
    fn report(&self, findings: &[source_markers::Finding]) -> Result<()> {
        let (warnings, errors): (Vec<&source_markers::Finding>, Vec<&source_markers::Finding>) =
            findings.iter().partition(|f| self.settings.warn.contains(&f.class));
        for f in warnings {
            output::warn(format!("warning[{}]: {}", f.class.name(), f.message));
        }
        if !errors.is_empty() {
            let mut classes: Vec<&str> = errors.iter().map(|f| f.class.name()).collect();
            classes.sort();
            classes.dedup();
            let flags: Vec<String> = classes.iter().map(|c| format!("--warn {c}")).collect();
            let listed: Vec<String> = classes.iter().map(|c| format!("\"{c}\"")).collect();
            bail!(
                "markers that would do nothing (a rule, a bound or a field's marker lost):\n  {}\nFix them, or report a class as a warning: `{}`, or `warn = [{}]` in [workspace.metadata.kubegen]",
                errors.iter().map(|f| format!("[{}] {}", f.class.name(), f.message)).collect::<Vec<_>>().join("\n  "),
                flags.join(" "),
                listed.join(", ")
            );
        }
        Ok(())
    }
}
