//! kubegen's command line, as a library: the `codegen-cli` binary (kubegen's own, or the
//! member `codegen-cli init` scaffolds into a workspace) is `kubegen_cli::main()`.
//! Clap definitions here, the work in the modules.

mod layout;
mod manifests;
mod sources;
mod workspace;

use std::path::PathBuf;
use std::process::ExitCode;

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
    Manifests(ManifestsArgs),
}

#[derive(Args)]
struct ManifestsArgs {
    /// Write nothing; exit with status 1 and print a diff when a file on disk is stale.
    #[arg(long)]
    check: bool,
    /// Directory to write into, relative to the workspace root.
    #[arg(long, value_name = "DIR", default_value = "config")]
    out: PathBuf,
    /// Only these packages (repeatable).
    #[arg(short, long = "package", value_name = "SPEC")]
    packages: Vec<String>,
    /// Path to the workspace's Cargo.toml.
    #[arg(long, value_name = "PATH")]
    manifest_path: Option<PathBuf>,
    /// Name of the ClusterRole for RBAC markers without `roleName`.
    #[arg(long, value_name = "NAME", default_value = "manager-role")]
    role_name: String,
    /// Cut descriptions to N characters at a sentence boundary; 0 drops them.
    #[arg(long, value_name = "N")]
    max_desc_len: Option<usize>,
    /// Put this file's text, as YAML comments, at the top of every generated file.
    #[arg(long, value_name = "FILE")]
    header: Option<PathBuf>,
}

fn manifests(args: ManifestsArgs) -> Result<ExitCode> {
    let ws = workspace::Workspace::load(args.manifest_path.as_deref(), &args.packages)?;
    let out = ws.root.join(&args.out);
    let header = match &args.header {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).with_context(|| format!("reading header file {}", path.display()))?;
            layout::header(&text)?
        }
        None => String::new(),
    };

    let kinds = ws.kinds()?;
    let kind_count = kinds.len();
    let mut crds = manifests::crds(kinds)?;
    let mut outputs = Vec::new();
    let mut crd_files = Vec::new();
    let mut samples = Vec::new();
    let problems: Vec<String> = crds.iter().flat_map(kubegen::crd::lint).collect();
    if !problems.is_empty() {
        anyhow::bail!("the API server would refuse these CRDs:\n  {}", problems.join("\n  "));
    }
    for crd in &mut crds {
        if let Some(max) = args.max_desc_len {
            kubegen::crd::truncate_descriptions(crd, max);
        }
        let name = crd.metadata.name.clone().unwrap_or_default();
        let size = kubegen::crd::applied_size(crd);
        if size > kubegen::crd::LAST_APPLIED_LIMIT {
            eprintln!(
                "warning: {name} is {size} bytes, over the {} bytes of the last-applied-configuration annotation: client-side `kubectl apply` will refuse it. Cut descriptions with --max-desc-len, drop some with #[kube(skip_description)], or apply with `kubectl apply --server-side`",
                kubegen::crd::LAST_APPLIED_LIMIT
            );
        }
        let file = manifests::crd_file(crd);
        let yaml = kubegen::to_yaml(&*crd).with_context(|| format!("rendering {name} as YAML"))?;
        outputs.push(manifests::Output {
            path: out.join("crd/bases").join(&file),
            contents: format!("{header}{yaml}"),
            overwrite: true,
        });
        crd_files.push(file);
        let sample = kubegen::to_yaml(&kubegen::crd::sample_object(crd))
            .with_context(|| format!("rendering the sample of {name}"))?;
        samples.push((manifests::sample_file(crd), sample));
    }

    let files: Vec<PathBuf> = ws.source_dirs.iter().flat_map(|d| sources::rust_files(d)).collect();
    let rules = sources::scan(&files, &ws.root)?;
    let roles = kubegen::rbac::generate_roles(&rules, &args.role_name);
    outputs.extend(layout::outputs(&layout::Inputs {
        out: &out,
        crd_files: &crd_files,
        samples: &samples,
        roles: &roles,
        role_name: &args.role_name,
        project: &ws.project,
        header: &header,
    })?);

    if args.check {
        let stale = manifests::check(&outputs, &ws.root);
        if stale.is_empty() {
            eprintln!(
                "manifests are up to date ({} files, {kind_count} kinds, {} RBAC rules)",
                outputs.len(),
                rules.len()
            );
            return Ok(ExitCode::SUCCESS);
        }
        for diff in &stale {
            print!("{diff}");
        }
        eprintln!(
            "{} of {} manifest files are stale; run `{}` and commit the result",
            stale.len(),
            outputs.len(),
            rerun_without("--check")
        );
        return Ok(ExitCode::FAILURE);
    }
    let written = manifests::write(&outputs)?;
    eprintln!(
        "{} files for {kind_count} kinds and {} RBAC rules in {} ({written} written)",
        outputs.len(),
        rules.len(),
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// This very command line without `flag`, spelled the way it was started: through
/// `cargo run -p <package>` (cargo sets `CARGO_PKG_NAME` for what it runs) or as an
/// installed binary.
fn rerun_without(flag: &str) -> String {
    let quoted = |a: String| {
        if a.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:,@".contains(c)) {
            a
        } else {
            format!("'{}'", a.replace('\'', r"'\''"))
        }
    };
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != flag).map(quoted).collect();
    let args = args.join(" ");
    match std::env::var("CARGO_PKG_NAME") {
        Ok(package) if std::env::var_os("CARGO").is_some() => format!("cargo run -p {package} -- {args}"),
        _ => format!("codegen-cli {args}"),
    }
}

/// The command line: parses `std::env::args` and runs the subcommand.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Manifests(args) => manifests(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
