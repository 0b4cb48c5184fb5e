//! codegen-cli: kubegen's command line. Clap definitions and calls into the library.

mod manifests;
mod workspace;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, Parser, Subcommand};

#[derive(Parser)]
#[command(name = "codegen-cli", version, about = "Generate Kubernetes manifests from Rust types with kubebuilder markers")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Write CustomResourceDefinitions for every kind in the workspace.
    ///
    /// Every workspace package that depends on kubegen and has a library is built and
    /// asked for its kinds; each kind becomes `<out>/crd/bases/<group>_<plural>.yaml`,
    /// its versions merged into one CRD.
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
}

fn manifests(args: ManifestsArgs) -> Result<ExitCode> {
    let ws = workspace::Workspace::load(args.manifest_path.as_deref(), &args.packages)?;
    let out = ws.root.join(&args.out);
    let kinds = ws.kinds()?;
    let count = kinds.len();
    let outputs = manifests::render(kinds, &out)?;
    if args.check {
        let stale = manifests::check(&outputs, &ws.root);
        if stale.is_empty() {
            eprintln!("manifests are up to date ({} CRD files, {count} kinds)", outputs.len());
            return Ok(ExitCode::SUCCESS);
        }
        for diff in &stale {
            print!("{diff}");
        }
        eprintln!(
            "{} of {} manifest files are stale; run `cargo run -p codegen-cli -- manifests` and commit the result",
            stale.len(),
            outputs.len()
        );
        return Ok(ExitCode::FAILURE);
    }
    let written = manifests::write(&outputs)?;
    eprintln!("{} CRD files for {count} kinds in {} ({written} changed)", outputs.len(), out.display());
    Ok(ExitCode::SUCCESS)
}

fn main() -> ExitCode {
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
