//! The webhook server's flags, as kubebuilder's `main.go` has them, as a clap `Args`
//! struct to `#[command(flatten)]` beside [`crate::host::ManagerArgs`]:
//! `--webhook-cert-path` (the directory cert-manager's Secret is mounted in) and
//! `--webhook-bind-address` (`:9443`).

use std::path::PathBuf;
use std::time::Duration;

use crate::host::BindAddress;

use super::certs::CertStore;
use super::server::{WebhookServer, Webhooks};

/// Where the webhook server listens, and the certificate it serves.
#[derive(clap::Args, Clone, Debug)]
pub struct WebhookArgs {
    /// Directory holding the serving certificate (`tls.crt`, `tls.key`), read again when
    /// it changes; where kubebuilder's deployment mounts cert-manager's Secret by default.
    #[arg(long, value_name = "DIR", default_value = "/tmp/k8s-webhook-server/serving-certs")]
    pub webhook_cert_path: PathBuf,
    /// Where the webhooks are served: `:9443`, `127.0.0.1:9443`, or `0` for nowhere.
    #[arg(long, value_name = "ADDR", default_value = ":9443")]
    pub webhook_bind_address: BindAddress,
}

/// Why the webhooks could not be served.
#[derive(Debug, thiserror::Error)]
pub enum WebhookArgsError {
    #[error("the serving certificate in {dir}: {source}")]
    Certificate { dir: PathBuf, source: super::authority::CertError },
    #[error("serving the webhooks on {addr}: {source}")]
    Listen { addr: std::net::SocketAddr, source: std::io::Error },
}

impl WebhookArgs {
    /// Serves `webhooks` on the bind address with the certificate in the cert path. With
    /// no certificate there (a manager run outside the cluster without one), or the
    /// address `0`, they are not served: `None`, and a warning says why.
    pub async fn serve(&self, webhooks: Webhooks) -> Result<Option<WebhookServer>, WebhookArgsError> {
        let Some(addr) = self.webhook_bind_address.0 else {
            tracing::info!("--webhook-bind-address=0: the webhooks are not served");
            return Ok(None);
        };
        let dir = &self.webhook_cert_path;
        if !dir.join("tls.crt").exists() {
            tracing::warn!("no serving certificate in {}: the webhooks are not served", dir.display());
            return Ok(None);
        }
        let certs = CertStore::from_dir(dir, Duration::from_secs(10))
            .map_err(|source| WebhookArgsError::Certificate { dir: dir.clone(), source })?;
        let server = webhooks.serve(addr, certs).await.map_err(|source| WebhookArgsError::Listen { addr, source })?;
        tracing::info!(address = %server.local_addr(), "serving the webhooks");
        Ok(Some(server))
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        webhook: WebhookArgs,
    }

    #[test]
    fn kubebuilders_defaults_and_go_style_addresses() {
        let cli = Cli::parse_from(["manager"]);
        assert_eq!(cli.webhook.webhook_cert_path, PathBuf::from("/tmp/k8s-webhook-server/serving-certs"));
        assert_eq!(cli.webhook.webhook_bind_address.0.map(|a| a.port()), Some(9443));
        let cli =
            Cli::parse_from(["manager", "--webhook-bind-address", "127.0.0.1:0", "--webhook-cert-path", "/certs"]);
        assert_eq!(cli.webhook.webhook_bind_address.0, Some(([127, 0, 0, 1], 0).into()));
        assert_eq!(cli.webhook.webhook_cert_path, PathBuf::from("/certs"));
        assert_eq!(Cli::parse_from(["manager", "--webhook-bind-address", "0"]).webhook.webhook_bind_address.0, None);
    }

    #[tokio::test]
    async fn without_a_certificate_nothing_is_served() {
        let cli = Cli::parse_from([
            "manager",
            "--webhook-cert-path",
            "/nonexistent/kubegen",
            "--webhook-bind-address",
            "127.0.0.1:0",
        ]);
        assert!(cli.webhook.serve(Webhooks::new()).await.expect("no error").is_none());
    }
}
