//! `codegen-cli local-webhooks`: the manager run here with its webhooks called by an API
//! server on this machine (`make cluster`'s), as controller-runtime's envtest
//! `WebhookInstallOptions` does for tests. A CA and a serving certificate for the local
//! address go into a directory this command owns; the manager runs with
//! `--webhook-bind-address` and `--webhook-cert-path` pointing at them; once it listens,
//! the webhook configurations of `config/webhook/manifests.yaml` and the conversions of
//! `config/crd/patches` are installed calling it (`url` + `caBundle`,
//! `kubegen::webhook::local`); when the manager stops (it exits, or this command gets
//! SIGINT or SIGTERM and passes it on) they are removed and each CRD's conversion is
//! set back. What was installed is recorded in the directory until it is undone, so a
//! run that was killed is undone by the next (or by `--undo`).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::Args;
use kubegen::webhook::local::{self, Installed, Plan};
use kubegen::webhook::{Authority, Validity};

#[derive(Args)]
pub struct LocalWebhooksArgs {
    /// Where the manager serves its webhooks; the API server calls https://ADDRESS.
    #[arg(long, value_name = "IP:PORT", default_value = "127.0.0.1:9443")]
    address: SocketAddr,
    /// The directory for the certificates and the record of what is installed (this
    /// command writes only there, and removes what it wrote).
    #[arg(long, value_name = "DIR", default_value = "target/kubegen/webhooks")]
    dir: PathBuf,
    /// The project's config/ directory: its webhook/manifests.yaml and crd/patches say
    /// what the API server calls.
    #[arg(long, value_name = "DIR", default_value = "config")]
    config: PathBuf,
    /// Undo what a run left installed (it was killed) and exit.
    #[arg(long)]
    undo: bool,
    /// The manager's command; the webhook flags are appended. Default: `cargo run --`.
    #[arg(last = true, value_name = "COMMAND")]
    command: Vec<String>,
}

/// The record of what is installed, in `--dir`.
const RECORD: &str = "installed.json";
/// The files this command writes into `--dir`.
const FILES: [&str; 4] = ["ca.crt", "tls.crt", "tls.key", RECORD];

fn log(message: impl std::fmt::Display) {
    eprintln!("[local-webhooks] {message}");
}

pub fn run(args: LocalWebhooksArgs) -> Result<ExitCode> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting an async runtime")?
        .block_on(serve(args))
}

async fn client() -> Result<kube::Client> {
    let config = kube::Config::infer()
        .await
        .context("no kubeconfig: set KUBECONFIG (`make cluster` prints the line) or ~/.kube/config")?;
    kube::Client::try_from(config).context("a client for the cluster")
}

/// Undoes the record in `dir`, if there is one, and removes it.
async fn undo_recorded(client: &kube::Client, dir: &Path) -> Result<()> {
    let record = dir.join(RECORD);
    let Ok(text) = std::fs::read(&record) else { return Ok(()) };
    let installed: Installed = serde_json::from_slice(&text)
        .with_context(|| format!("{} is not a record of this command", record.display()))?;
    log(format_args!("undoing what a run left installed ({})", describe(&installed)));
    local::uninstall(client, &installed).await?;
    std::fs::remove_file(&record).with_context(|| format!("removing {}", record.display()))?;
    Ok(())
}

fn describe(installed: &Installed) -> String {
    let mut parts: Vec<String> = Vec::new();
    parts.extend(installed.mutating.iter().map(|n| format!("MutatingWebhookConfiguration {n}")));
    parts.extend(installed.validating.iter().map(|n| format!("ValidatingWebhookConfiguration {n}")));
    parts.extend(installed.conversions.iter().map(|(crd, _)| format!("the conversion of CRD {crd}")));
    parts.join(", ")
}

/// Removes the files this command wrote in `dir`, then `dir` when nothing else is left.
fn remove_files(dir: &Path) {
    for file in FILES {
        let _ = std::fs::remove_file(dir.join(file));
    }
    let _ = std::fs::remove_dir(dir);
}

async fn serve(args: LocalWebhooksArgs) -> Result<ExitCode> {
    let dir = std::path::absolute(&args.dir).with_context(|| format!("the path of {}", args.dir.display()))?;
    let client = client().await?;
    undo_recorded(&client, &dir).await?;
    if args.undo {
        remove_files(&dir);
        log("nothing installed");
        return Ok(ExitCode::SUCCESS);
    }
    let plan = Plan::from_config(&args.config)?;
    if plan.is_empty() {
        bail!(
            "{} has no webhooks: {}/webhook/manifests.yaml holds no configuration and no patch in {}/crd/patches converts a CRD. Add them with `codegen-cli create webhook`, then `codegen-cli manifests`; without webhooks `make run` runs the manager",
            args.config.display(),
            args.config.display(),
            args.config.display()
        );
    }
    // Taken already: say so before the manager fails to bind.
    std::net::TcpListener::bind(args.address)
        .with_context(|| format!("{} is in use (a manager still running?); pass another --address", args.address))?;

    let ca = Authority::new("kubegen-local-webhooks", Validity::default())?;
    let serving = ca.issue(&[args.address.ip().to_string()])?;
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let write = |file: &str, text: &str| {
        kubegen_core::envtest::private_write(&dir.join(file), text)
            .with_context(|| format!("writing {}", dir.join(file).display()))
    };
    write("ca.crt", ca.ca_pem())?;
    write("tls.crt", &serving.cert_pem)?;
    write("tls.key", &serving.key_pem)?;

    let mut command = if args.command.is_empty() {
        vec!["cargo".to_string(), "run".to_string(), "--".to_string()]
    } else {
        args.command.clone()
    };
    command.extend([
        "--webhook-bind-address".to_string(),
        args.address.to_string(),
        "--webhook-cert-path".to_string(),
        dir.display().to_string(),
    ]);
    log(format_args!("running {}", command.join(" ")));
    let mut child = match Command::new(&command[0]).args(&command[1..]).spawn() {
        Ok(child) => child,
        Err(e) => {
            remove_files(&dir);
            return Err(e).with_context(|| format!("running {}", command[0]));
        }
    };
    let outcome = supervise(&client, &plan, &args.address, ca.ca_pem(), &dir, &mut child).await;
    let undone = match std::fs::read(dir.join(RECORD)) {
        Ok(_) => undo_recorded(&client, &dir)
            .await
            .map(|()| log("removed the webhook configurations; CRD conversions are as before")),
        Err(_) => Ok(()),
    };
    remove_files(&dir);
    let status = outcome?;
    undone?;
    Ok(match status.code() {
        Some(0) => ExitCode::SUCCESS,
        Some(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
        // Ended by a signal: as a shell reports it.
        None => ExitCode::from(1),
    })
}

/// Waits for the manager to listen, installs the plan calling it, then waits for the
/// manager to exit (passing SIGINT and SIGTERM on). Stops the manager on an error.
async fn supervise(
    client: &kube::Client,
    plan: &Plan,
    address: &SocketAddr,
    ca_pem: &str,
    dir: &Path,
    child: &mut Child,
) -> Result<std::process::ExitStatus> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut interrupt = signal(SignalKind::interrupt()).context("handling SIGINT")?;
    let mut terminate = signal(SignalKind::terminate()).context("handling SIGTERM")?;
    let mut installed = false;
    let mut forwarded = false;
    loop {
        if let Some(status) = child.try_wait().context("waiting for the manager")? {
            if !installed {
                log(format_args!("the manager exited ({status}) before it served on {address}; nothing was installed"));
            }
            return Ok(status);
        }
        if !installed && tokio::net::TcpStream::connect(address).await.is_ok() {
            let base = format!("https://{address}");
            match local::install(client, plan, &base, ca_pem).await {
                Ok(done) => {
                    let record = serde_json::to_vec_pretty(&done).context("the record")?;
                    std::fs::write(dir.join(RECORD), record)
                        .with_context(|| format!("writing {}", dir.join(RECORD).display()))?;
                    log(format_args!(
                        "the API server calls {} at {base} ({}); Ctrl-C stops the manager and removes them",
                        plan.paths().join(", "),
                        describe(&done)
                    ));
                    installed = true;
                }
                Err(e) => {
                    stop(child, "TERM");
                    let _ = child.wait();
                    return Err(e.into());
                }
            }
        }
        tokio::select! {
            _ = interrupt.recv() => {
                // A terminal's Ctrl-C reached the manager too (one process group); a
                // SIGINT sent to this process alone is passed on.
                if !forwarded { stop(child, "INT"); forwarded = true; }
            }
            _ = terminate.recv() => {
                if !forwarded { stop(child, "TERM"); forwarded = true; }
            }
            _ = tokio::time::sleep(Duration::from_millis(200)) => {}
        }
    }
}

fn stop(child: &Child, signal: &str) {
    let _ = Command::new("kill").args([&format!("-{signal}"), &child.id().to_string()]).status();
}
