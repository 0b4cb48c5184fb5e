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

/// The record of a run, in `--dir`: written first (so the directory's files are provably
/// this command's), then with what was installed.
const RECORD: &str = "kubegen-local-webhooks.json";
/// The certificate files a run writes beside the record.
const CERTS: [&str; 3] = ["ca.crt", "tls.crt", "tls.key"];

#[derive(serde::Serialize, serde::Deserialize, Default)]
struct Record {
    /// The run's process, to tell a live run from one that was killed.
    pid: u32,
    installed: Installed,
}

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

fn describe(installed: &Installed) -> String {
    let mut parts: Vec<String> = Vec::new();
    parts.extend(installed.mutating.iter().map(|n| format!("MutatingWebhookConfiguration {n}")));
    parts.extend(installed.validating.iter().map(|n| format!("ValidatingWebhookConfiguration {n}")));
    parts.extend(installed.conversions.iter().map(|c| format!("the conversion of CRD {}", c.crd)));
    parts.join(", ")
}

/// Whether process `pid` runs and is a `local-webhooks` run (its command line says so).
fn live(pid: u32) -> bool {
    if pid == std::process::id() {
        return false;
    }
    match std::fs::read(format!("/proc/{pid}/cmdline")) {
        Ok(command) => String::from_utf8_lossy(&command).contains("local-webhooks"),
        Err(_) if !Path::new("/proc").is_dir() => {
            Command::new("kill").args(["-0", &pid.to_string()]).status().is_ok_and(|s| s.success())
        }
        Err(_) => false,
    }
}

/// The directory's state before a run: what a run left there (undone and removed first),
/// or nothing. A live run, or files this command did not write, are errors.
async fn take_over(client: &kube::Client, dir: &Path) -> Result<()> {
    let record_path = dir.join(RECORD);
    match std::fs::read(&record_path) {
        Ok(text) => {
            let record: Record = serde_json::from_slice(&text)
                .with_context(|| format!("{} is not a record of this command", record_path.display()))?;
            if live(record.pid) {
                bail!(
                    "a local-webhooks run is live in {} (pid {}): stop it first (Ctrl-C there), or pass another --dir and --address",
                    dir.display(),
                    record.pid
                );
            }
            if !record.installed.is_empty() {
                log(format_args!(
                    "undoing what a run that was killed left installed ({})",
                    describe(&record.installed)
                ));
                let kept = local::uninstall(client, &record.installed).await?;
                for note in kept {
                    log(note);
                }
            }
            remove_certs(dir);
            std::fs::remove_file(&record_path).with_context(|| format!("removing {}", record_path.display()))?;
            Ok(())
        }
        Err(_) => {
            let foreign = crate::envtest::entries(dir);
            if foreign.is_empty() {
                Ok(())
            } else {
                bail!(
                    "{} holds files local-webhooks did not write ({}); pass another --dir, or empty it",
                    dir.display(),
                    foreign.join(", ")
                )
            }
        }
    }
}

fn write_record(dir: &Path, record: &Record) -> Result<()> {
    let text = serde_json::to_vec_pretty(record).context("the record")?;
    std::fs::write(dir.join(RECORD), text).with_context(|| format!("writing {}", dir.join(RECORD).display()))
}

/// Removes the certificates a run wrote in `dir`.
fn remove_certs(dir: &Path) {
    for file in CERTS {
        let _ = std::fs::remove_file(dir.join(file));
    }
}

/// Removes what a run wrote in `dir` (the certificates, the record), then `dir` when
/// nothing else is left.
fn remove_files(dir: &Path) {
    remove_certs(dir);
    let _ = std::fs::remove_file(dir.join(RECORD));
    let _ = std::fs::remove_dir(dir);
}

async fn serve(args: LocalWebhooksArgs) -> Result<ExitCode> {
    let dir = std::path::absolute(&args.dir).with_context(|| format!("the path of {}", args.dir.display()))?;
    let client = client().await?;
    take_over(&client, &dir).await?;
    if args.undo {
        let _ = std::fs::remove_dir(&dir);
        log("nothing is installed");
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
    let mut record = Record { pid: std::process::id(), installed: Installed::default() };
    write_record(&dir, &record)?;
    let written = (|| -> Result<()> {
        for (file, text) in [("ca.crt", ca.ca_pem()), ("tls.crt", &serving.cert_pem), ("tls.key", &serving.key_pem)] {
            kubegen_core::envtest::private_write(&dir.join(file), text)
                .with_context(|| format!("writing {}", dir.join(file).display()))?;
        }
        Ok(())
    })();
    if let Err(e) = written {
        remove_files(&dir);
        return Err(e);
    }

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
    let outcome = supervise(&client, &plan, &args.address, ca.ca_pem(), &dir, &mut child, &mut record).await;
    if outcome.is_err() {
        // Whatever went wrong, the manager does not outlive this command.
        stop(&child, "TERM");
        let _ = child.wait();
    }
    let undone = if record.installed.is_empty() {
        Ok(())
    } else {
        local::uninstall(&client, &record.installed).await.map(|kept| {
            for note in kept {
                log(note);
            }
            log("removed the webhook configurations; CRD conversions are as before");
        })
    };
    match &undone {
        Ok(()) => remove_files(&dir),
        // The record stays, so the next run (or --undo) undoes what is left.
        Err(_) => remove_certs(&dir),
    }
    let status = outcome?;
    undone.with_context(|| {
        format!(
            "undoing what was installed (its record stays in {}: `codegen-cli local-webhooks --undo` retries)",
            dir.display()
        )
    })?;
    Ok(match status.code() {
        Some(0) => ExitCode::SUCCESS,
        Some(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
        // Ended by a signal: as a shell reports it.
        None => ExitCode::from(1),
    })
}

/// Waits for the manager to listen, installs the plan calling it (into `record`, kept in
/// the directory), then waits for the manager to exit. SIGINT, SIGTERM and SIGHUP are
/// passed on; a second one kills the manager.
async fn supervise(
    client: &kube::Client,
    plan: &Plan,
    address: &SocketAddr,
    ca_pem: &str,
    dir: &Path,
    child: &mut Child,
    record: &mut Record,
) -> Result<std::process::ExitStatus> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut interrupt = signal(SignalKind::interrupt()).context("handling SIGINT")?;
    let mut terminate = signal(SignalKind::terminate()).context("handling SIGTERM")?;
    let mut hangup = signal(SignalKind::hangup()).context("handling SIGHUP")?;
    let mut installed = false;
    let mut signalled = 0;
    loop {
        if let Some(status) = child.try_wait().context("waiting for the manager")? {
            if !installed {
                log(format_args!("the manager exited ({status}) before it served on {address}; nothing was installed"));
            }
            return Ok(status);
        }
        if !installed && signalled == 0 && tokio::net::TcpStream::connect(address).await.is_ok() {
            let base = format!("https://{address}");
            // What install writes is in `record` (in memory) even when it fails half-way
            // or the record cannot be written: the caller undoes it.
            let done = local::install(client, plan, &base, ca_pem).await?;
            record.installed = done;
            installed = true;
            write_record(dir, record)?;
            log(format_args!(
                "the API server calls {} at {base} ({}); Ctrl-C stops the manager and removes them",
                plan.paths().join(", "),
                describe(&record.installed)
            ));
        }
        let forwarded = tokio::select! {
            _ = interrupt.recv() => Some("INT"),
            _ = terminate.recv() => Some("TERM"),
            _ = hangup.recv() => Some("TERM"),
            _ = tokio::time::sleep(Duration::from_millis(200)) => None,
        };
        if let Some(name) = forwarded {
            signalled += 1;
            // A terminal's Ctrl-C reached the manager too (one process group); passing it on
            // covers a signal sent to this process alone. A second one: the manager is
            // stuck in its shutdown, kill it (what was installed is still undone).
            stop(child, if signalled == 1 { name } else { "KILL" });
            if signalled == 2 {
                log("a second signal: killing the manager");
            }
        }
    }
}

fn stop(child: &Child, signal: &str) {
    let _ = Command::new("kill").args([&format!("-{signal}"), &child.id().to_string()]).status();
}
