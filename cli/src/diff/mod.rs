//! `codegen-cli diff`: a breaking-change gate between two generations of a workspace's
//! kinds. The wire side compares CRDs — the resource facts only a CRD has (names,
//! versions, scope, printer columns, selectable fields, subresources) in `resource.rs`,
//! each version's schema as the typed IR ([`Node`], the model the clients and docs read)
//! in `schema.rs`, CEL rules classed by what they do to stored objects, and estimated
//! against each supported release's cost budget, in `cel.rs`. The client side compares
//! the client models (named types, fields, variants) in `client.rs`, buf-style: a change
//! that keeps the wire form may still break code.
//!
//! Every finding has a check id from [`CHECKS`], one table from which the default
//! levels, the settings' validation and docs/diff.md's list all read. What the tool
//! does not understand is reported as `unhandled`, never passed in silence.
//!
//! [`Node`]: kubegen_core::schema::node::Node

mod cel;
mod client;
pub mod cluster;
mod report;
mod resource;
mod schema;
mod source;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use serde::Serialize;

pub use cel::CelClass;

use crate::clients::Package;
use crate::settings::DiffLevel as Level;

/// Which contract a check guards: objects and requests (the CRD), or code written
/// against the generated clients.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    Wire,
    Client,
}

/// One check: its stable id, its default level and its category. docs/diff.md says
/// what each finds, with an example (a test holds it to this table).
pub struct Check {
    pub id: &'static str,
    pub level: Level,
    pub category: Category,
}

const fn check(id: &'static str, level: Level, category: Category) -> Check {
    Check { id, level, category }
}

use Category::{Client, Wire};
use Level::{Error, Warn};

/// Every check `diff` makes, with its default level. One rule decides the level: a
/// change the server answers differently on the wire — a request or object it took
/// refused (whatever ratcheting still excuses), data a client sends dropped, a value read
/// back changed, a merge or a decoding changed, the CRD itself refused — or code written
/// against the clients no longer compiling, is an error; a change that refuses and drops
/// nothing (what kubectl shows or finds, a deprecation warning, a value the server now
/// takes too, a cost close to the budget) is a warning. docs/diff.md's "Levels" has the
/// table, and a test holds each check's effect there to this level.
pub const CHECKS: &[Check] = &[
    check("kind-removed", Error, Wire),
    check("kind-renamed", Error, Wire),
    check("names-changed", Warn, Wire),
    check("version-removed", Error, Wire),
    check("version-unserved", Error, Wire),
    check("version-deprecated", Warn, Wire),
    check("storage-version-changed", Error, Wire),
    check("scope-changed", Error, Wire),
    check("printer-column-removed", Warn, Wire),
    check("printer-column-changed", Warn, Wire),
    check("selectable-field-removed", Error, Wire),
    check("subresource-removed", Error, Wire),
    check("status-subresource-added", Error, Wire),
    check("field-removed", Error, Wire),
    check("type-changed", Error, Wire),
    check("required-added", Error, Wire),
    check("enum-value-removed", Error, Wire),
    check("enum-value-added", Warn, Wire),
    check("bounds-tightened", Error, Wire),
    check("pattern-changed", Error, Wire),
    check("format-changed", Error, Wire),
    check("default-changed", Error, Wire),
    check("nullable-removed", Error, Wire),
    check("list-type-changed", Error, Wire),
    check("map-type-changed", Error, Wire),
    check("preserve-unknown-removed", Error, Wire),
    check("cel-rule-added", Error, Wire),
    check("cel-rule-changed", Error, Wire),
    check("cel-rule-over-budget", Error, Wire),
    check("cel-rule-near-budget", Warn, Wire),
    check("client-type-removed", Error, Client),
    check("client-variant-removed", Error, Client),
    check("client-field-removed", Error, Client),
    check("client-field-required", Error, Client),
    check("client-field-type-changed", Error, Client),
    check("unhandled", Error, Wire),
];

/// The check of an id; every id a finding names is in [`CHECKS`].
pub fn check_of(id: &str) -> &'static Check {
    CHECKS.iter().find(|c| c.id == id).unwrap_or_else(|| panic!("`{id}` is not in diff::CHECKS"))
}

/// One generation of a workspace's kinds: its CRDs and, when known, its client model.
pub struct Generation {
    /// What it is, for messages: `the workspace`, `HEAD~1:config/crd/bases`, a path.
    pub name: String,
    pub crds: Vec<CustomResourceDefinition>,
    /// The client packages (`clients::packages`); `None` when only CRDs are known (a
    /// directory or file of YAML, or a git ref, whose source is not built).
    pub clients: Option<Vec<Package>>,
    /// The commit it was read at, for a git ref.
    pub commit: Option<String>,
}

/// What one check found at one place.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    pub check: &'static str,
    pub level: Level,
    pub category: Category,
    /// `group/Kind` (the CRD's), or the group of a client package.
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The field (`spec.replicas`, `spec.ports[*].name`; empty at the root) or, for the
    /// client checks, the type and field (`PavilionSpec.replicas`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cel: Option<CelClass>,
}

/// Where a finding stands: the kind, its version and the field.
#[derive(Clone, Debug, Default)]
pub(crate) struct At {
    pub kind: String,
    pub version: Option<String>,
    pub path: Option<String>,
}

impl At {
    fn finding(&self, check: &'static str, message: String) -> Finding {
        let c = check_of(check);
        Finding {
            check: c.id,
            level: c.level,
            category: c.category,
            kind: self.kind.clone(),
            version: self.version.clone(),
            path: self.path.clone(),
            message,
            cel: None,
        }
    }
}

/// How levels are decided: `[workspace.metadata.kubegen.diff]` and `--strict`.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// A level per check id, replacing the default.
    pub levels: BTreeMap<String, Level>,
    /// Findings in `v*alpha*` versions keep their level instead of being lowered to warn.
    pub strict: bool,
    /// Every finding is at most a warning (`--warn-only`): advisory, never failing.
    pub warn_only: bool,
}

impl Options {
    /// Checks that every configured id is a check (a misspelled id would silently do nothing).
    pub fn new(levels: BTreeMap<String, Level>, strict: bool) -> Result<Self> {
        for id in levels.keys() {
            if CHECKS.iter().any(|c| c.id == id) {
                continue;
            }
            let hint = match kubegen_core::markers::registry::suggest(id, CHECKS.iter().map(|c| c.id)) {
                Some(close) => format!("did you mean `{close}`?"),
                None => "docs/diff.md lists the check ids".into(),
            };
            bail!("[workspace.metadata.kubegen.diff]: unknown check `{id}`; {hint}");
        }
        Ok(Options { levels, strict, warn_only: false })
    }

    /// The finding's level: configured, else its check's default;
    /// lowered to warn in an alpha version unless `--strict`.
    fn level(&self, finding: &Finding) -> Level {
        let level = self.levels.get(finding.check).copied().unwrap_or(finding.level);
        let alpha = finding.version.as_deref().is_some_and(is_alpha);
        let lowered = self.warn_only || (alpha && !self.strict);
        if lowered && level == Level::Error { Level::Warn } else { level }
    }
}

/// `v*alpha*`: an unstable version, checked at warn unless `--strict` (buf's
/// `ignore_unstable_packages`, softened to a warning).
pub fn is_alpha(version: &str) -> bool {
    version.starts_with('v') && version.contains("alpha")
}

/// Everything that changed from `before` to `after`, levels decided by `options`;
/// findings at level off are left out.
pub fn compare(before: &Generation, after: &Generation, options: &Options) -> Vec<Finding> {
    let mut findings = resource::compare(&before.crds, &after.crds);
    if let (Some(old), Some(new)) = (&before.clients, &after.clients) {
        findings.extend(client::compare(old, new));
    }
    for f in &mut findings {
        f.level = options.level(f);
    }
    findings.retain(|f| f.level != Level::Off);
    findings
}

/// Output formats of `diff`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
    Yaml,
}

#[derive(clap::Args)]
pub struct DiffArgs {
    /// The CRDs before, a file or directory of CRD YAML: with NEW, compares the two from
    /// anywhere, as crdify does — no workspace is read or built — with the same checks,
    /// levels and exit status (the levels of `[workspace.metadata.kubegen.diff]` only
    /// with --manifest-path).
    #[arg(value_name = "OLD", requires = "new", conflicts_with_all = ["against", "build_ref", "crd_dir", "packages", "header"])]
    old: Option<PathBuf>,
    /// The CRDs after, a file or directory of CRD YAML (with OLD).
    #[arg(value_name = "NEW")]
    new: Option<PathBuf>,
    /// What to compare with: a git ref (its committed config/crd/bases), a directory of
    /// CRD YAML, or a file. Default: the merge base with the default branch (origin's
    /// HEAD, else main or master), else HEAD.
    #[arg(long, value_name = "REF|DIR|FILE")]
    against: Option<String>,
    /// How findings are printed.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Findings in `v*alpha*` versions are errors too (by default they are warnings).
    #[arg(long)]
    strict: bool,
    /// Every finding is reported as a warning at most, so the command exits 0 on
    /// findings: an advisory run (this repository's CI runs the examples so).
    #[arg(long, conflicts_with = "strict")]
    warn_only: bool,
    /// The CRDs' directory, relative to the workspace root (in the tree and at a git ref).
    #[arg(long, value_name = "DIR", default_value = "config/crd/bases")]
    crd_dir: PathBuf,
    /// With a git ref: also extract the ref's tree (`git archive`, under the target
    /// directory), build its kinds and compare the client model. The first run compiles
    /// the ref's workspace crates; the dependencies are shared with the workspace's build.
    #[arg(long)]
    build_ref: bool,
    /// Also list the objects the cluster stores of each kind with findings (read-only:
    /// get and list) and report those the new schema refuses, with what ratcheting
    /// excuses. The cluster is --kubeconfig's, else the default kubeconfig's.
    #[arg(long)]
    cluster: bool,
    /// The kubeconfig for --cluster (default: KUBECONFIG, ~/.kube/config).
    #[arg(long, value_name = "FILE", requires = "cluster")]
    kubeconfig: Option<PathBuf>,
    #[command(flatten)]
    project: crate::project::ProjectArgs,
}

/// `codegen-cli diff`: exits 1 when a finding is at level error.
pub fn run(args: DiffArgs) -> Result<ExitCode> {
    if let (Some(old), Some(new)) = (&args.old, &args.new) {
        let (text, status) = files(&args, old, new)?;
        print!("{text}");
        return Ok(status);
    }
    let project = args.project.load(Default::default())?;
    let mut options = Options::new(project.settings.diff.clone(), args.strict)?;
    options.warn_only = args.warn_only;
    let mut before = source::load(project.root(), args.against.as_deref(), &args.crd_dir)?;
    if args.build_ref {
        let Some(commit) = &before.commit else {
            bail!("--build-ref needs a git ref to build; {} is a file or directory", before.name)
        };
        before.clients = Some(source::clients_at(&project, commit, &args.project.packages)?);
    }
    let after = Generation {
        name: "the workspace".into(),
        crds: project.crds()?.to_vec(),
        clients: Some(project.packages()?.to_vec()),
        commit: None,
    };
    let mut findings = compare(&before, &after, &options);
    let mut notes = Vec::new();
    if project.partial {
        // `-p`: only the named packages' kinds are generated now; a kind of `against`
        // that is missing may be another package's.
        findings.retain(|f| f.check != "kind-removed");
        notes.push("with -p, kinds missing now may be other packages': kind-removed is not checked".to_string());
    }
    if before.clients.is_none() {
        notes.push(format!(
            "client model not compared: {} gives CRD YAML only (for a git ref, --build-ref builds its source to compare the client model too); the CRDs were compared",
            before.name
        ));
    }
    let stored = match args.cluster {
        false => None,
        true => Some(stored_objects(args.kubeconfig.as_deref(), &after.crds, &findings)?),
    };
    print!("{}", report::render(args.format, &before.name, None, &notes, &findings, stored.as_ref())?);
    Ok(status(&findings))
}

/// Exit status 1 when a finding is at level error.
fn status(findings: &[Finding]) -> ExitCode {
    match findings.iter().any(|f| f.level == Level::Error) {
        true => ExitCode::FAILURE,
        false => ExitCode::SUCCESS,
    }
}

/// `codegen-cli diff OLD NEW`: two files or directories of CRD YAML, wherever they are;
/// the report and the exit status.
fn files(args: &DiffArgs, old: &std::path::Path, new: &std::path::Path) -> Result<(String, ExitCode)> {
    let levels = match &args.project.manifest_path {
        Some(manifest) => crate::workspace::Workspace::load(Some(manifest), &[])?.settings()?.diff,
        None => BTreeMap::new(),
    };
    let mut options = Options::new(levels, args.strict)?;
    options.warn_only = args.warn_only;
    let (before, after) = (source::read_path(old)?, source::read_path(new)?);
    let findings = compare(&before, &after, &options);
    let notes = [format!("client model not compared: {} and {} are CRD YAML", before.name, after.name)];
    let stored = match args.cluster {
        false => None,
        true => Some(stored_objects(args.kubeconfig.as_deref(), &after.crds, &findings)?),
    };
    let text = report::render(args.format, &before.name, Some(&after.name), &notes, &findings, stored.as_ref())?;
    Ok((text, status(&findings)))
}

/// `--cluster`: the verdicts on the stored objects, from a runtime of its own (the rest
/// of the command is synchronous).
fn stored_objects(
    kubeconfig: Option<&std::path::Path>,
    after: &[CustomResourceDefinition],
    findings: &[Finding],
) -> Result<cluster::ClusterReport> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting a runtime for --cluster")?;
    runtime.block_on(async {
        let (client, server) = cluster::client(kubeconfig).await?;
        cluster::check(client, server, after, findings).await
    })
}
