//! kubegen's command line, as a library: the `codegen-cli` binary (kubegen's own, or the
//! member `codegen-cli init` scaffolds into a workspace) is `kubegen_cli::main()`.
//! Clap definitions here, the work in the modules.

mod clients;
mod crd_merge;
mod dashboards;
pub mod diff;
mod docs;
mod edit;
mod envtest;
mod fingerprint;
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod fuzzing;
mod generate;
mod helm;
mod install_source;
mod layout;
mod local_webhooks;
mod output;
mod project;
// docs/cli.md and docs/markers.md, generated and checked by its tests.
#[cfg(test)]
mod reference;
mod roles;
mod scaffold;
mod settings;
mod source_markers;
mod upgrade;
mod webhook_configurations;
mod workspace;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// GitHub's anchor for a Markdown heading: the one the API reference's links use, and the
/// one a link into any of kubegen's Markdown pages must name.
pub use docs::anchor as heading_anchor;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "codegen-cli",
    version,
    about = "Generate Kubernetes manifests from Rust types with kubebuilder markers",
    long_about = "Generate Kubernetes manifests from Rust types with kubebuilder markers.\n\nRun from anywhere in a cargo workspace: every member that depends on kubegen is read.",
    after_help = "See 'codegen-cli help <command>' for more information on a specific command."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Write CRDs, RBAC and kubebuilder's config/ layout for the workspace
    ///
    /// Every workspace package that depends on kubegen and has a library is built and
    /// asked for its kinds; each kind becomes `<out>/crd/bases/<group>_<plural>.yaml`,
    /// its versions merged into one CRD. `+kubebuilder:rbac` markers and
    /// `#[kubegen::rbac]` attributes in the sources become `<out>/rbac/role.yaml`.
    /// Kustomizations, RBAC bindings, the manager Deployment and samples are scaffolded
    /// once and then left to you; `kubectl apply -k <out>/default` deploys it all.
    ///
    /// A run that ends well leaves a fingerprint (under `target/kubegen/stamps/`) of all it
    /// read: the packages it builds and their path dependencies, the files cargo's
    /// dep-info says the build read, Cargo.lock, the workspace manifest, toolchain and
    /// cargo configuration, the environment, this binary, and the output directory. When none of it changed, the next `manifests`,
    /// `clients` or `docs` says so without building anything (a file that was touched is
    /// compared by its contents). `KUBEGEN_NO_SKIP=1` builds anyway.
    Manifests(ManifestsArgs),
    /// Start a new operator workspace here (kubebuilder's `init`)
    ///
    /// Writes a cargo workspace whose root package is the operator — `src/api/` for the
    /// API types, `src/controller/` for the reconcilers, `src/main.rs` a manager with
    /// controller-runtime's flags — beside a `codegen-cli` member that pins this tool in
    /// Cargo.lock, so `cargo run -p codegen-cli -- manifests` works here; plus `config/`
    /// (manager Deployment, RBAC, metrics Service), a Dockerfile and .gitignore. Run it in
    /// an empty directory; then `codegen-cli create api`.
    Init(InitArgs),
    /// Write typed API packages for other languages from the workspace's kinds
    ///
    /// Under `clients/<lang>`, from the same kinds `manifests` reads:
    /// `go` — Go API types in kubebuilder's layout (`groupversion_info.go`,
    /// `<kind>_types.go` with every schema fact as a kubebuilder marker,
    /// `zz_generated.deepcopy.go`, `go.mod`; run `go mod tidy` there);
    /// `typescript` — an npm package over @kubernetes/client-node (interfaces and a client
    /// class per kind); `python` — a package over the kubernetes client (pydantic models
    /// with the schema's bounds and a client class per kind). Names and languages come
    /// from `[workspace.metadata.kubegen.clients]`.
    Clients(ClientsArgs),
    /// Write an API reference of the workspace's kinds (Markdown and HTML, under docs/api/)
    ///
    /// One page per group/version: each kind with its resource facts (names, scope,
    /// versions, subresources, printer columns, selectable fields) and an example object,
    /// and a section per named type whose field table says in words what the CRD checks:
    /// bounds, lengths, patterns, enums, formats, counts, list and map types, defaults,
    /// nullability, CEL rules, and the version a field was added, deprecated or removed in.
    /// From the same model the clients and CRDs come from. The HTML pages are a static
    /// site that reads from disk (nothing fetched): a navigation tree, a search box over
    /// kinds, types and fields, an anchor on every field, a version switch per kind.
    Docs(docs::DocsArgs),
    /// Report breaking changes to the CRDs and generated clients since a git ref or CRD YAML
    ///
    /// Compares what `manifests` would write now (built in memory) and the client model
    /// with `--against`: a git ref's committed CRDs, a directory or a file of CRD YAML;
    /// by default the merge base with the default branch, else HEAD. Each finding has a
    /// check id and a level (error, warn, off) from `[workspace.metadata.kubegen.diff]`;
    /// CEL rules are classed as ratchet-safe, breaking stored objects or breaking new
    /// writes only. Exits 1 on an error-level finding. A ref, a directory or a file gives
    /// CRDs only: the client model is then not compared, and a note says so, unless
    /// `--build-ref` builds the ref's source. Every check is described in docs/diff.md.
    Diff(diff::DiffArgs),
    /// Prepare etcd and kube-apiserver for kubegen::testenv (kubegen's setup-envtest)
    ///
    /// Builds kube-apiserver of a Kubernetes release from the k8s.io/kubernetes Go module
    /// (Go on the PATH; minutes, once per release), takes etcd from the PATH or builds it
    /// from its Go module, keeps both in a per-user store and prints their directory:
    /// `export KUBEBUILDER_ASSETS=$(codegen-cli envtest)`. The build uses Go's own module
    /// and build caches, so modules already downloaded are not fetched again and a release
    /// built once (here or by scripts/kube-apiserver.sh) compiles nothing the second time.
    /// kubegen::testenv also finds the store's newest release by itself when
    /// KUBEBUILDER_ASSETS is unset.
    Envtest(envtest::EnvtestArgs),
    /// Run the manager with its webhooks called by an API server on this machine
    ///
    /// For a local cluster (`make cluster`), where the API server cannot reach the
    /// webhook Service and no cert-manager issues a certificate: makes a CA and a serving
    /// certificate for --address in --dir, runs the manager (`cargo run --`, or the
    /// command after `--`) with `--webhook-bind-address` and `--webhook-cert-path` appended,
    /// and once it listens installs the webhook configurations of
    /// config/webhook/manifests.yaml and the conversions of config/crd/patches calling it
    /// (`url` and `caBundle`; the CRDs must be installed: `make install`). When the manager
    /// stops (Ctrl-C, SIGTERM, or it exits) they are removed and each CRD's conversion is
    /// set back. `make run-webhooks` runs it.
    LocalWebhooks(local_webhooks::LocalWebhooksArgs),
    /// Add to the project: `create api` a kind and its controller, `create webhook` its webhooks
    #[command(subcommand)]
    Create(Create),
    /// Write a Helm chart of the operator under dist/chart (kubebuilder's helm/v2-alpha plugin)
    ///
    /// From the objects config/default deploys, as `make build-installer` renders them into
    /// dist/install.yaml: the CRDs (templates kept on uninstall while `crd.keep`), RBAC,
    /// the manager's Deployment, the metrics Service, the webhooks and cert-manager's
    /// Issuer and Certificate, named after the release and placed in its namespace, with
    /// values for the manager's image, replicas, args, env and envOverrides, resources,
    /// security contexts, scheduling and ports, and switches for the CRDs, RBAC helpers,
    /// a namespace-scoped manager (`rbac.namespaced`: a Role and RoleBinding in the
    /// release's namespace, `--namespace` to it, webhooks for its objects only), metrics,
    /// webhooks and cert-manager (off with the webhooks on, the manager keeps their
    /// certificates itself: `--webhook-cert-secret`, with the RBAC for it). With the
    /// default values the chart renders the
    /// install's objects, but for Helm's labels, the CRDs' keep policy and the Namespace
    /// (`--verify` checks it against `helm template`). Chart.yaml,
    /// NOTES.txt and .helmignore are written once; values.yaml is merged, keeping each
    /// value you changed; a template you edited is kept (and named) unless --force.
    Helm(helm::HelmArgs),
    /// Take a newer scaffold into the project, keeping your edits (kubebuilder's `alpha update`)
    ///
    /// `init` records how the project was scaffolded (`PROJECT`: its settings and each
    /// `create` and `edit` after it) and keeps each scaffolded file as written under
    /// `.kubegen/scaffold/`. `upgrade` replays the record with this codegen-cli (into
    /// target/kubegen/upgrade/new) and merges each file three ways: the scaffold as last
    /// written, yours, the new scaffold's. A file you did not change takes the new one; a
    /// file the new scaffold did not change stays yours; where both changed, the two are
    /// merged line by line. Where both changed the same lines differently, nothing at all
    /// is written and each conflict is listed with the three versions of its lines: merge
    /// the new scaffold's lines into your file by hand and pass --keep FILE (yours as it
    /// now is), or pass --take FILE (the new scaffold's); then run it again. Files
    /// `manifests` writes are not merged: run it after. Run it with the codegen-cli of the
    /// newer kubegen: bump the `kubegen-cli` dependency in codegen-cli/Cargo.toml first.
    Upgrade(UpgradeArgs),
    /// Change a choice `init` made (kubebuilder's `edit`): `--namespaced`
    ///
    /// `--namespaced` (or `--namespaced=false`) records in the root Cargo.toml's
    /// `[workspace.metadata.kubegen]` whether the manager is namespace-scoped, and rewrites
    /// the scaffolded files that follow from it while they are as scaffolded:
    /// config/rbac/role_binding.yaml (a RoleBinding in the manager's namespace) and
    /// config/manager/manager.yaml (`--namespace=$(POD_NAMESPACE)`: the manager watches
    /// its own namespace). A file you changed is named with what to change in it by hand.
    /// Then `cargo run -p codegen-cli -- manifests` writes the RBAC markers' rules as a
    /// Role in that namespace, and the webhook configurations for its objects only.
    Edit(EditArgs),
}

#[derive(Args)]
struct UpgradeArgs {
    /// Print what would change, and each conflict; write nothing.
    #[arg(long)]
    dry_run: bool,
    /// This file stays as it is: you merged the new scaffold's changes into it by hand, or
    /// want none of them (repeatable; a path relative to the workspace root).
    #[arg(long, value_name = "FILE")]
    keep: Vec<String>,
    /// This file becomes the new scaffold's, your changes to it dropped (repeatable).
    #[arg(long, value_name = "FILE")]
    take: Vec<String>,
    /// A project scaffolded before codegen-cli kept a record: with a PROJECT you wrote
    /// (init's settings and the commands you ran), record this codegen-cli's scaffold of
    /// it as the base (.kubegen/scaffold); your files are not touched.
    #[arg(long, conflicts_with_all = ["dry_run", "keep", "take"])]
    adopt: bool,
    /// Path to the workspace's Cargo.toml, or a directory in it (by default, the nearest
    /// directory up from here with a `PROJECT` file).
    #[arg(long, value_name = "PATH")]
    manifest_path: Option<PathBuf>,
}

fn upgrade(args: UpgradeArgs) -> Result<ExitCode> {
    let (start, up) = match &args.manifest_path {
        Some(m) if m.is_dir() => (m.clone(), false),
        Some(m) => (m.parent().map(Path::to_path_buf).unwrap_or_default(), false),
        None => (std::env::current_dir().context("reading the current directory")?, true),
    };
    let start = if start.as_os_str().is_empty() { PathBuf::from(".") } else { start };
    let start = start.canonicalize().with_context(|| format!("{}", start.display()))?;
    // --manifest-path names the workspace; from here, the nearest directory up with one.
    let root = start.ancestors().take(if up { usize::MAX } else { 1 }).find(|d| d.join(upgrade::RECORD).is_file()).map(Path::to_path_buf).with_context(|| {
        format!(
            "no {} in {} or above: `upgrade` replays the record `codegen-cli init` writes (a project scaffolded before codegen-cli kept one has none: write it as the README's \"Upgrading the scaffold\" shows, then `codegen-cli upgrade --adopt`)",
            upgrade::RECORD,
            start.display()
        )
    })?;
    let now = default_source();
    if args.adopt {
        let count = upgrade::adopt(&root, &replay_command, Some(&now))?;
        eprintln!(
            "recorded the scaffold of {} ({count} files) in {}: your files are as they were; where they differ from it, the next `upgrade` takes them as your edits",
            upgrade::RECORD,
            upgrade::BASE
        );
        return Ok(ExitCode::SUCCESS);
    }
    let plan = upgrade::plan(&root, &replay_command, Some(&now), &args.keep, &args.take)?;
    eprint!("{}", upgrade::describe(&plan));
    let conflicts = plan.conflicts();
    if !conflicts.is_empty() {
        let files: Vec<&str> = conflicts.iter().map(|(p, _)| *p).collect();
        eprintln!(
            "\n{} conflicting file(s): {}. Nothing was written. Settle each file, then run `upgrade` again: merge the new scaffold's lines into yours by hand (its files are in {}/) and pass --keep FILE (yours as it now is), or pass --take FILE (the new scaffold's, your changes to it dropped).",
            files.len(),
            files.join(", "),
            upgrade::NEW
        );
        return Ok(ExitCode::FAILURE);
    }
    if args.dry_run {
        eprintln!("dry run: nothing was written");
        return Ok(ExitCode::SUCCESS);
    }
    upgrade::apply_plan(&root, &plan)?;
    if !plan.actions.is_empty() {
        eprintln!(
            "upgraded to the scaffold of {}; next: `cargo run -p codegen-cli -- manifests`, then `make test`",
            plan.record.scaffolded_by
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The names a scaffold step in `ws` uses: its root crate, domain and project.
fn names_of(ws: &workspace::Workspace) -> Result<(String, Option<String>, String)> {
    let settings = ws.settings()?;
    let project = ws.project().unwrap_or_else(|_| "controller".into());
    let crate_name = ws.root_crate.clone().unwrap_or_else(|| project.replace('-', "_"));
    Ok((crate_name, settings.domain, project))
}

impl EditArgs {
    /// The command as the record keeps it.
    fn recorded(&self) -> Vec<String> {
        let mut args = vec!["edit".to_string(), format!("--namespaced={}", self.namespaced.unwrap_or(true))];
        if self.out != Path::new("config") {
            args.extend(["--out".to_string(), self.out.display().to_string()]);
        }
        if self.role_name != "manager-role" {
            args.extend(["--role-name".to_string(), self.role_name.clone()]);
        }
        args
    }
}

#[derive(Args)]
struct EditArgs {
    /// A namespace-scoped manager (`--namespaced`), or a cluster-wide one (`--namespaced=false`).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", required = true)]
    namespaced: Option<bool>,
    /// The config/ directory, as `manifests --out` names it.
    #[arg(long, value_name = "DIR", default_value = "config")]
    out: PathBuf,
    /// The manager's role, as `manifests --role-name` names it.
    #[arg(long, value_name = "NAME", default_value = "manager-role")]
    role_name: String,
    /// Path to the workspace's Cargo.toml.
    #[arg(long, value_name = "PATH")]
    manifest_path: Option<PathBuf>,
}

fn edit(args: EditArgs) -> Result<ExitCode> {
    upgrade::check_inside(&args.out)?;
    let ws = workspace::Workspace::load(args.manifest_path.as_deref(), &[])?;
    let namespaced = args.namespaced.unwrap_or(true);
    let (crate_name, domain, project) = names_of(&ws)?;
    let names = upgrade::Names { crate_name: &crate_name, domain: domain.as_deref(), project_name: &project };
    let recorded = args.recorded();
    let words: Vec<&str> = recorded.iter().map(String::as_str).collect();
    let edited = upgrade::recorded(&ws.root, &words, names, |tree, _| {
        edit::namespaced(tree, &tree.join(&args.out), &args.role_name, namespaced)
    })?;
    let shown = |p: &Path| p.strip_prefix(&ws.root).unwrap_or(p).display().to_string();
    if edited.written.is_empty() && edited.by_hand.is_empty() {
        eprintln!("the project is already {}", if namespaced { "namespace-scoped" } else { "cluster-wide" });
        return Ok(ExitCode::SUCCESS);
    }
    for path in &edited.written {
        eprintln!("  {}", shown(path));
    }
    for (path, what) in &edited.by_hand {
        eprintln!("left as you edited it: {}: {what}", shown(path));
    }
    eprintln!("next: `cargo run -p codegen-cli -- manifests` (config/rbac/role.yaml, config/webhook)");
    Ok(ExitCode::SUCCESS)
}

#[derive(Subcommand)]
enum Create {
    /// Add a kind (its spec and status types) and a controller for it (kubebuilder's `create api`)
    ///
    /// Writes `src/api/<group>/<version>/<kind>.rs`, `src/controller/<kind>.rs` (a
    /// reconciler that sets an `Available` condition, with its RBAC markers), adds the
    /// controller to the manager in `src/main.rs`, and scaffolds the kind's editor and
    /// viewer ClusterRoles under config/rbac. Then run `cargo run -p codegen-cli -- manifests`.
    Api(CreateApiArgs),
    /// Add a kind's admission or conversion webhooks (kubebuilder's `create webhook`)
    ///
    /// Admission (--defaulting, --programmatic-validation): writes `src/webhook/<kind>.rs`
    /// (a defaulter and/or a validator with their `+kubebuilder:webhook` markers).
    /// Conversion (--conversion --spoke v2): --version is the hub; writes
    /// `src/webhook/<kind>_conversion.rs` (each spoke's `TryFrom`s, field by field until
    /// you change them), `tests/<kind>_conversion.rs` (the round trips on arbitrary
    /// objects), marks the hub as the storage version when none is, and patches the CRD's
    /// conversion in config/crd/patches. Both: serves them from `src/main.rs` on :9443 with
    /// the certificate cert-manager mounts, enables kubegen's `webhook` feature, and
    /// scaffolds config/webhook, config/certmanager and config/default's wiring. Then run
    /// `cargo run -p codegen-cli -- manifests`.
    Webhook(CreateWebhookArgs),
    /// Write Grafana dashboards for the manager's metrics (kubebuilder's grafana plugin)
    ///
    /// Under `grafana/`: `controller-runtime-metrics.json` (reconciles by result, errors,
    /// reconcile time, busy workers, work queue depth, wait, adds and retries),
    /// `controller-resources-metrics.json` (CPU, memory, file descriptors, uptime of each
    /// manager process) and `kubegen-sharding-metrics.json` (objects per shard, the ring,
    /// assignments, drains, handoff time). Each queries the names the manager serves on
    /// /metrics, through a Prometheus data source variable and `job` and `controller`
    /// variables; import them in Grafana (Dashboards > New > Import). A file you changed is
    /// kept unless --force.
    Dashboards(CreateDashboardsArgs),
}

#[derive(Args)]
struct CreateDashboardsArgs {
    /// Overwrite dashboards that differ from what this command writes (your edits to them).
    #[arg(long)]
    force: bool,
    /// Path to the workspace's Cargo.toml.
    #[arg(long, value_name = "PATH")]
    manifest_path: Option<PathBuf>,
}

fn create_dashboards(args: CreateDashboardsArgs) -> Result<ExitCode> {
    let ws = workspace::Workspace::load(args.manifest_path.as_deref(), &[])?;
    let project = ws.project()?;
    let outputs = dashboards::outputs(&ws.root, &project, args.force)?;
    let shown = |p: &Path| p.strip_prefix(&ws.root).unwrap_or(p).display().to_string();
    let kept: Vec<String> = outputs
        .iter()
        .filter(|o| !o.overwrite && std::fs::read_to_string(&o.path).is_ok_and(|text| text != o.contents))
        .map(|o| shown(&o.path))
        .collect();
    let (crate_name, domain, _) = names_of(&ws)?;
    let names = upgrade::Names { crate_name: &crate_name, domain: domain.as_deref(), project_name: &project };
    upgrade::recorded(&ws.root, &["create", "dashboards"], names, |tree, base| {
        // --force overwrites your dashboards; the base holds the scaffold's anyway.
        output::write(&dashboards::outputs(tree, &project, args.force && !base)?)
    })?;
    for o in &outputs {
        eprintln!("  {}", shown(&o.path));
    }
    if !kept.is_empty() {
        eprintln!("kept (they differ from what this command writes; --force overwrites): {}", kept.join(", "));
    }
    eprintln!(
        "next: import them in Grafana (Dashboards > New > Import), with a Prometheus data source scraping the manager's /metrics"
    );
    Ok(ExitCode::SUCCESS)
}

impl CreateWebhookArgs {
    /// The command as the record keeps it.
    fn recorded(&self) -> Vec<String> {
        let mut args: Vec<String> = ["create", "webhook"].map(String::from).into();
        args.extend(self.kind.words());
        for (on, flag) in
            [(self.defaulting, "--defaulting"), (self.programmatic_validation, "--programmatic-validation")]
        {
            if on {
                args.push(flag.into());
            }
        }
        if self.conversion {
            args.extend(["--conversion".to_string(), "--spoke".to_string(), self.spoke.join(",")]);
        }
        args
    }
}

#[derive(Args)]
struct CreateWebhookArgs {
    #[command(flatten)]
    kind: KindArgs,
    /// A defaulting (mutating) webhook.
    #[arg(long)]
    defaulting: bool,
    /// A validating webhook.
    #[arg(long)]
    programmatic_validation: bool,
    /// A conversion webhook: --version is the hub, and each --spoke converts through it.
    #[arg(long, requires = "spoke")]
    conversion: bool,
    /// With --conversion: the versions that convert through the hub (v2, or v2,v3).
    #[arg(long, value_name = "VERSION", value_delimiter = ',', requires = "conversion")]
    spoke: Vec<String>,
    /// Path to the workspace's Cargo.toml.
    #[arg(long, value_name = "PATH")]
    manifest_path: Option<PathBuf>,
}

fn create_webhook(args: CreateWebhookArgs) -> Result<ExitCode> {
    let command = args.recorded();
    let hooks = scaffold::Hooks {
        defaulting: args.defaulting,
        validation: args.programmatic_validation,
        conversion: args.conversion,
        spokes: args.spoke,
    };
    scaffold_in(args.manifest_path.as_deref(), &command, "fill in the webhooks", |root, crate_name, domain| {
        scaffold::create_webhook(
            root,
            crate_name,
            domain,
            &args.kind.group,
            &args.kind.version,
            &args.kind.kind,
            &hooks,
        )
    })
}

/// Runs a `create` scaffold (`command`, as the record keeps it) in the workspace `init`
/// wrote, with its root package and domain, and on the record's base (see
/// [`upgrade::recorded`]); the files written listed, then what to do next.
fn scaffold_in(
    manifest_path: Option<&Path>,
    command: &[String],
    next: &str,
    scaffold: impl Fn(&Path, &str, Option<&str>) -> Result<Vec<PathBuf>>,
) -> Result<ExitCode> {
    let ws = workspace::Workspace::load(manifest_path, &[])?;
    let settings = ws.settings()?;
    let root_crate = ws.root_crate.as_deref().with_context(|| {
        format!(
            "the workspace at {} has no library package at its root: `{}` adds to the layout `codegen-cli init` writes",
            ws.root.display(),
            command[..2.min(command.len())].join(" ")
        )
    })?;
    let project = settings.project.clone().unwrap_or_else(|| root_crate.to_string());
    let names = upgrade::Names { crate_name: root_crate, domain: settings.domain.as_deref(), project_name: &project };
    let words: Vec<&str> = command.iter().map(String::as_str).collect();
    let written =
        upgrade::recorded(&ws.root, &words, names, |tree, _| scaffold(tree, root_crate, settings.domain.as_deref()))?;
    for path in &written {
        eprintln!("  {}", path.strip_prefix(&ws.root).unwrap_or(path).display());
    }
    eprintln!("next: {next}, then `cargo run -p codegen-cli -- manifests`");
    Ok(ExitCode::SUCCESS)
}

#[derive(Args)]
struct InitArgs {
    /// The API's domain: kinds live in the groups `<group>.<domain>`.
    #[arg(long, value_name = "DOMAIN", default_value = "my.domain")]
    domain: String,
    /// The project's name: the operator's crate, the namespace `<name>-system`, the prefix of
    /// every object; an RFC 1123 label. The directory's name by default.
    #[arg(long, value_name = "NAME")]
    project_name: Option<String>,
    /// Depend on kubegen from this checkout of its repository.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["kubegen_git", "kubegen_version"])]
    kubegen_path: Option<PathBuf>,
    /// Depend on kubegen from this git repository.
    #[arg(long, value_name = "URL", conflicts_with = "kubegen_version")]
    kubegen_git: Option<String>,
    /// With --kubegen-git: this branch, tag or commit.
    #[arg(long, value_name = "REF", requires = "kubegen_git")]
    kubegen_rev: Option<String>,
    /// Depend on this version of kubegen from crates.io.
    #[arg(long, value_name = "VERSION")]
    kubegen_version: Option<String>,
    /// A namespace-scoped manager (kubebuilder's `--namespaced`): it watches its own
    /// namespace, with a Role and a RoleBinding there instead of a ClusterRole; `edit
    /// --namespaced` switches a project later.
    #[arg(long)]
    namespaced: bool,
}

/// The kind a `create` command scaffolds for.
#[derive(Args)]
struct KindArgs {
    /// The group, without the domain: `cache` makes `cache.<domain>`.
    #[arg(long)]
    group: String,
    /// The version: `v1`, `v1alpha1`, ...
    #[arg(long)]
    version: String,
    /// The kind, in UpperCamelCase: `Memcached`.
    #[arg(long)]
    kind: String,
}

impl KindArgs {
    /// The flags as the record keeps them.
    fn words(&self) -> Vec<String> {
        ["--group", &self.group, "--version", &self.version, "--kind", &self.kind].map(String::from).into()
    }
}

/// Runs one recorded command (`create ...`, `edit ...`) in `tree` with the names it ran
/// with, as `upgrade` replays it: the scaffold alone, without the checks of the project
/// the command made when it first ran.
fn replay_command(tree: &Path, names: upgrade::Names, args: &[String]) -> Result<()> {
    let words = std::iter::once("codegen-cli").chain(args.iter().map(String::as_str));
    let cli = Cli::try_parse_from(words).map_err(|e| anyhow::anyhow!("{}", e.to_string().trim()))?;
    let (crate_name, domain) = (names.crate_name, names.domain);
    match cli.command {
        Command::Create(Create::Api(a)) => {
            let k = &a.kind;
            scaffold::create_api(tree, crate_name, domain, &k.group, &k.version, &k.kind, !a.cluster)?;
        }
        Command::Create(Create::Webhook(a)) => {
            let hooks = scaffold::Hooks {
                defaulting: a.defaulting,
                validation: a.programmatic_validation,
                conversion: a.conversion,
                spokes: a.spoke,
            };
            let k = &a.kind;
            scaffold::create_webhook(tree, crate_name, domain, &k.group, &k.version, &k.kind, &hooks)?;
        }
        Command::Create(Create::Dashboards(_)) => {
            output::write(&dashboards::outputs(tree, names.project_name, false)?)?;
        }
        Command::Edit(a) => {
            upgrade::check_inside(&a.out)?;
            edit::namespaced(tree, &tree.join(&a.out), &a.role_name, a.namespaced.unwrap_or(true))?;
        }
        _ => anyhow::bail!("not a command the scaffold records"),
    }
    Ok(())
}

/// The record's form of a command line as a user types it (for tests).
#[cfg(test)]
fn recorded_of(line: &[&str]) -> Vec<String> {
    let cli = Cli::try_parse_from(std::iter::once("codegen-cli").chain(line.iter().copied())).expect("a command line");
    match cli.command {
        Command::Create(Create::Api(a)) => a.recorded(),
        Command::Create(Create::Webhook(a)) => a.recorded(),
        Command::Create(Create::Dashboards(_)) => vec!["create".into(), "dashboards".into()],
        Command::Edit(a) => a.recorded(),
        _ => panic!("not a recorded command"),
    }
}

impl CreateApiArgs {
    /// The command as the record keeps it.
    fn recorded(&self) -> Vec<String> {
        let mut args: Vec<String> = ["create", "api"].map(String::from).into();
        args.extend(self.kind.words());
        if self.cluster {
            args.push("--cluster".into());
        }
        args
    }
}

#[derive(Args)]
struct CreateApiArgs {
    #[command(flatten)]
    kind: KindArgs,
    /// Objects live in a namespace (the default).
    #[arg(long, conflicts_with = "cluster")]
    namespaced: bool,
    /// Objects are cluster-scoped.
    #[arg(long)]
    cluster: bool,
    /// Path to the workspace's Cargo.toml.
    #[arg(long, value_name = "PATH")]
    manifest_path: Option<PathBuf>,
}

/// Where `init` points the new workspace for kubegen, unless told: the place this very
/// binary was installed from — the checkout of a `cargo install --path`, the repository
/// and commit of a `cargo install --git`, the crates.io version of a `cargo install` —
/// as cargo recorded it, else as the binary's build saw it.
fn default_source() -> scaffold::Source {
    // What `cargo install` recorded is exact, a git repository's URL and commit included.
    if let Some(source) = std::env::current_exe().ok().and_then(|exe| install_source::of_binary(&exe)) {
        return source;
    }
    let built_from = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shown = built_from.display().to_string();
    if shown.contains("/.cargo/registry/") {
        return scaffold::Source::Version(env!("CARGO_PKG_VERSION").into());
    }
    match built_from.parent() {
        Some(root) if !shown.contains("/.cargo/git/") && root.join("kubegen/Cargo.toml").exists() => {
            scaffold::Source::Path(root.to_path_buf())
        }
        _ => scaffold::Source::Git { url: env!("CARGO_PKG_REPOSITORY").into(), reference: None },
    }
}

fn init(args: InitArgs) -> Result<ExitCode> {
    let source = if let Some(path) = &args.kubegen_path {
        let path = path.canonicalize().with_context(|| format!("--kubegen-path {}", path.display()))?;
        if !path.join("kubegen/Cargo.toml").exists() {
            anyhow::bail!("--kubegen-path {} is not a checkout of kubegen (no kubegen/Cargo.toml)", path.display());
        }
        scaffold::Source::Path(path)
    } else if let Some(url) = &args.kubegen_git {
        let reference = args.kubegen_rev.clone().map(|r| {
            let is_commit = r.len() >= 7 && r.chars().all(|c| c.is_ascii_hexdigit());
            (if is_commit { "rev" } else { "branch" }, r)
        });
        scaffold::Source::Git { url: url.clone(), reference }
    } else if let Some(version) = &args.kubegen_version {
        scaffold::Source::Version(version.clone())
    } else {
        default_source()
    };
    let dir = std::env::current_dir().context("reading the current directory")?;
    let written = scaffold::init(&dir, args.project_name.as_deref(), &args.domain, &source, args.namespaced)?;
    eprintln!(
        "wrote {} files; next: codegen-cli create api --group <group> --version v1alpha1 --kind <Kind>",
        written.len()
    );
    // The Dockerfile's build context is this directory: a checkout elsewhere is not in it.
    if let scaffold::Source::Path(checkout) = &source
        && !checkout.starts_with(&dir)
    {
        eprintln!(
            "note: kubegen is a path dependency ({}), outside this directory: `cargo` builds here, but `make docker-build` cannot see it from the image's build context. To build the image, depend on kubegen by git (`init --kubegen-git URL`) or a version, or copy the checkout into this directory and point the path there.",
            checkout.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn create_api(args: CreateApiArgs) -> Result<ExitCode> {
    if args.cluster {
        let ws = workspace::Workspace::load(args.manifest_path.as_deref(), &[])?;
        if ws.settings()?.namespaced {
            anyhow::bail!(
                "{}: the project is namespace-scoped (`namespaced = true` in [workspace.metadata.kubegen]): its manager cannot watch a cluster-scoped kind with the Role it has; drop --cluster, or make the project cluster-wide first (`codegen-cli edit --namespaced=false`)",
                ws.root.join("Cargo.toml").display()
            );
        }
    }
    let command = args.recorded();
    scaffold_in(args.manifest_path.as_deref(), &command, "edit the types", |root, crate_name, domain| {
        let k = &args.kind;
        scaffold::create_api(root, crate_name, domain, &k.group, &k.version, &k.kind, !args.cluster)
    })
}

#[derive(Args)]
struct ManifestsArgs {
    /// Write nothing; exit with status 1 and print a diff when a file on disk is stale.
    #[arg(long)]
    check: bool,
    /// Directory to write into, relative to the workspace root.
    #[arg(long, value_name = "DIR", default_value = "config")]
    out: PathBuf,
    #[command(flatten)]
    project: project::ProjectArgs,
    /// Name of the role for RBAC markers without `roleName` (a ClusterRole; a Role in the
    /// manager's namespace when the project is namespace-scoped).
    #[arg(long, value_name = "NAME", default_value = "manager-role")]
    role_name: String,
    /// Cut descriptions to N characters at a sentence boundary; 0 drops them.
    #[arg(long, value_name = "N")]
    max_desc_len: Option<usize>,
    /// Drop descriptions from each CRD larger than this, the deepest first (an embedded
    /// Kubernetes type's fields before your own, the kind's top-level text last), until it
    /// fits: `annotation` (262144 bytes, what client-side `kubectl apply` can store),
    /// `etcd` (1572864, what the API server can store) or a number of bytes. The API
    /// reference (`docs`) keeps every description. Also `size-budget` in
    /// [workspace.metadata.kubegen]
    #[arg(long, value_name = "BUDGET")]
    size_budget: Option<settings::SizeBudget>,
    /// Write an `ObjectMeta` inside a spec (a pod template's metadata) with its name,
    /// namespace, labels, annotations and finalizers, as controller-gen's
    /// `crd:generateEmbeddedObjectMeta=true`; the server then prunes its other fields.
    /// Without it: `type: object` that keeps what it is sent.
    #[arg(long)]
    embedded_object_meta: bool,
}

/// `codegen-cli clients`: each language's package, one [`generate::Client`] each.
#[derive(clap::Args)]
struct ClientsArgs {
    /// Languages to write (repeatable); default: `[workspace.metadata.kubegen.clients]
    /// languages`, else every language.
    #[arg(long = "lang", value_name = "LANG")]
    langs: Vec<clients::Lang>,
    /// Write nothing; exit 1 with a unified diff when a file is stale.
    #[arg(long)]
    check: bool,
    /// Where the Go package takes Kubernetes' own types from; default:
    /// `[workspace.metadata.kubegen.clients] go-kubernetes-types`, else `declared`.
    #[arg(long, value_name = "FROM")]
    go_kubernetes_types: Option<crate::settings::GoKubernetesTypes>,
    /// Directory of the language's package, relative to the workspace root (default
    /// `clients/<lang>`; with several languages, each gets `<DIR>/<lang>`).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    #[command(flatten)]
    project: crate::project::ProjectArgs,
}

fn clients(args: ClientsArgs) -> Result<ExitCode> {
    let probe = fingerprint::Probe::new("clients", args.project.manifest_path.as_deref());
    if probe.replayed(args.check, "client") {
        return Ok(ExitCode::SUCCESS);
    }
    let project = args.project.load(Default::default())?;
    let settings = &project.settings.clients;
    let langs: Vec<clients::Lang> = match (&args.langs, &settings.languages) {
        (given, _) if !given.is_empty() => given.clone(),
        (_, Some(configured)) => configured.clone(),
        _ => vec![clients::Lang::Go, clients::Lang::Typescript, clients::Lang::Python],
    };
    let dir = |lang: clients::Lang| match (&args.out, langs.len()) {
        (Some(out), 1) => project.path(out),
        (Some(out), _) => project.path(out).join(lang.name()),
        (None, _) => project.path("clients").join(lang.name()),
    };
    // The inputs are read before the helper builds (`packages` builds it).
    let outs = langs.iter().map(|&lang| dir(lang)).collect();
    let fingerprint = generate::Fingerprint::read(probe, &project, outs, args.project.header.as_deref());
    let packages = project.packages()?;
    let clients: Vec<generate::Client> = langs
        .iter()
        .map(|&lang| generate::Client {
            language: clients::language(lang),
            dir: dir(lang),
            packages,
            go_kubernetes_types: args.go_kubernetes_types.or(settings.go_kubernetes_types).unwrap_or_default(),
        })
        .collect();
    let generators: Vec<&dyn generate::Generator> = clients.iter().map(|c| c as &dyn generate::Generator).collect();
    let names: Vec<&str> = langs.iter().map(|l| l.name()).collect();
    generate::run(&project, &generators, args.check, "client", fingerprint, |p| {
        Ok(format!("{}, {}", output::count(p.kinds()?.len(), "kind"), names.join(", ")))
    })
}

fn manifests(args: ManifestsArgs) -> Result<ExitCode> {
    let probe = fingerprint::Probe::new("manifests", args.project.manifest_path.as_deref());
    if probe.replayed(args.check, "manifest") {
        return Ok(ExitCode::SUCCESS);
    }
    let project = args.project.load(kubegen_core::kind::Options { embedded_object_meta: args.embedded_object_meta })?;
    let out = project.path(&args.out);
    let fingerprint = generate::Fingerprint::read(probe, &project, vec![out.clone()], args.project.header.as_deref());
    let size_budget = args.size_budget.or(project.settings.size_budget);
    let crds = generate::Crds { out: out.clone(), max_desc_len: args.max_desc_len, size_budget };
    let rbac = generate::Rbac { out: out.clone(), role_name: args.role_name.clone() };
    let webhooks = generate::WebhookManifests { out: out.clone() };
    let layout = generate::Layout { out, role_name: args.role_name.clone() };
    // Markers that would do nothing fail before the kinds are built.
    project.check_sources()?;
    generate::run(&project, &[&crds, &rbac, &webhooks, &layout], args.check, "manifest", fingerprint, |p| {
        let hooks = match p.webhooks()?.0.len() {
            0 => String::new(),
            n => format!(", {}", output::count(n, "webhook")),
        };
        Ok(format!(
            "{}, {}{hooks}",
            output::count(p.kinds()?.len(), "kind"),
            output::count(p.rbac_rules()?.len(), "RBAC rule")
        ))
    })
}

/// The command line: parses `std::env::args` and runs the subcommand.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Manifests(args) => manifests(args),
        Command::Clients(args) => clients(args),
        Command::Docs(args) => docs::run(args),
        Command::Diff(args) => diff::run(args),
        Command::Init(args) => init(args),
        Command::Envtest(args) => envtest::run(args),
        Command::LocalWebhooks(args) => local_webhooks::run(args),
        Command::Create(Create::Api(args)) => create_api(args),
        Command::Create(Create::Webhook(args)) => create_webhook(args),
        Command::Create(Create::Dashboards(args)) => create_dashboards(args),
        Command::Edit(args) => edit(args),
        Command::Helm(args) => helm::run(args),
        Command::Upgrade(args) => upgrade(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
