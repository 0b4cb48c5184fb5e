//! The webhook server's flags, as kubebuilder's `main.go` has them, as a clap `Args`
//! struct to `#[command(flatten)]` beside [`crate::host::ManagerArgs`]:
//! `--webhook-cert-path` (the directory cert-manager's Secret is mounted in) and
//! `--webhook-bind-address` (`:9443`); and, without cert-manager, `--webhook-cert-secret`
//! with `--webhook-cert-name` and `--webhook-ca-inject`: certificates the manager keeps
//! itself ([`super::ManagedCerts`]).

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
    /// Keep the serving certificate in this Secret instead of reading --webhook-cert-path,
    /// without cert-manager: the first replica issues a CA and a certificate into it,
    /// every replica serves that certificate, and they renew it and rotate the CA before
    /// either expires. The manager's client (in the cluster, or $KUBECONFIG) gets,
    /// creates and updates the Secret.
    #[arg(long, value_name = "NAMESPACE/NAME")]
    pub webhook_cert_secret: Option<SecretRef>,
    /// With --webhook-cert-secret: the serving certificate's DNS names (the webhook
    /// Service's `<service>.<namespace>.svc`) or IP addresses; repeatable, or comma
    /// separated.
    #[arg(long, value_name = "NAME", value_delimiter = ',', requires = "webhook_cert_secret")]
    pub webhook_cert_name: Vec<String>,
    /// With --webhook-cert-secret: where the CA is kept as `caBundle` (gets and updates
    /// them): `mutating=NAME` or `validating=NAME` (every webhook of that configuration),
    /// `crd=NAME` (that CRD's conversion webhook); repeatable, or comma separated.
    #[arg(long, value_name = "KIND=NAME", value_delimiter = ',', requires = "webhook_cert_secret")]
    pub webhook_ca_inject: Vec<CaInject>,
}

/// `--webhook-cert-secret`'s `NAMESPACE/NAME`.
#[derive(Clone, Debug, PartialEq)]
pub struct SecretRef {
    pub namespace: String,
    pub name: String,
}

impl std::str::FromStr for SecretRef {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s.split_once('/') {
            Some((namespace, name)) if !namespace.is_empty() && !name.is_empty() && !name.contains('/') => {
                Ok(SecretRef { namespace: namespace.into(), name: name.into() })
            }
            _ => Err(format!(
                "`{s}` is not NAMESPACE/NAME: write the Secret's namespace, e.g. my-system/webhook-server-cert"
            )),
        }
    }
}

/// Where `--webhook-ca-inject` keeps the CA.
#[derive(Clone, Debug, PartialEq)]
pub enum CaInject {
    /// A MutatingWebhookConfiguration, each of its webhooks.
    Mutating(String),
    /// A ValidatingWebhookConfiguration, each of its webhooks.
    Validating(String),
    /// A CustomResourceDefinition's conversion webhook.
    Crd(String),
}

impl std::str::FromStr for CaInject {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s.split_once('=') {
            Some((kind, name)) if !name.is_empty() => match kind {
                "mutating" => Ok(CaInject::Mutating(name.into())),
                "validating" => Ok(CaInject::Validating(name.into())),
                "crd" => Ok(CaInject::Crd(name.into())),
                _ => Err(format!("`{kind}` in `{s}` is not mutating, validating or crd")),
            },
            _ => Err(format!("`{s}` is not KIND=NAME: write mutating=NAME, validating=NAME or crd=NAME")),
        }
    }
}

/// Why the webhooks could not be served.
#[derive(Debug, thiserror::Error)]
pub enum WebhookArgsError {
    #[error("the serving certificate in {dir}: {source}")]
    Certificate { dir: PathBuf, source: super::authority::CertError },
    #[error("serving the webhooks on {addr}: {source}")]
    Listen { addr: std::net::SocketAddr, source: std::io::Error },
    #[error(
        "--webhook-cert-secret needs --webhook-cert-name: the names the API server calls the webhooks by (the webhook Service's <service>.<namespace>.svc)"
    )]
    NoNames,
    #[error("--webhook-cert-secret: no Kubernetes client: {0}")]
    Client(kube::Error),
    #[error(transparent)]
    Managed(#[from] super::ManagedError),
}

impl WebhookArgs {
    /// Serves `webhooks` on the bind address with the certificate in the cert path. With
    /// no certificate there (a manager run outside the cluster without one), or the
    /// address `0`, they are not served: `None`, and a warning says why.
    ///
    /// With --webhook-cert-secret, the certificates are the manager's own, kept in that
    /// Secret through a client from the environment (in the cluster, or $KUBECONFIG);
    /// [`WebhookArgs::serve_with`] takes the manager's.
    pub async fn serve(&self, webhooks: Webhooks) -> Result<Option<WebhookServer>, WebhookArgsError> {
        self.serve_with(None, webhooks).await
    }

    /// [`WebhookArgs::serve`], with this client for --webhook-cert-secret.
    pub async fn serve_with(
        &self,
        client: Option<kube::Client>,
        webhooks: Webhooks,
    ) -> Result<Option<WebhookServer>, WebhookArgsError> {
        let Some(addr) = self.webhook_bind_address.0 else {
            tracing::info!("--webhook-bind-address=0: the webhooks are not served");
            return Ok(None);
        };
        if let Some(secret) = &self.webhook_cert_secret {
            if self.webhook_cert_name.is_empty() {
                return Err(WebhookArgsError::NoNames);
            }
            let client = match client {
                Some(client) => client,
                None => kube::Client::try_default().await.map_err(WebhookArgsError::Client)?,
            };
            let mut managed = super::ManagedCerts::new(&secret.namespace, &secret.name, self.webhook_cert_name.clone());
            for inject in &self.webhook_ca_inject {
                match inject {
                    CaInject::Mutating(n) => managed.mutating.push(n.clone()),
                    CaInject::Validating(n) => managed.validating.push(n.clone()),
                    CaInject::Crd(n) => managed.crds.push(n.clone()),
                }
            }
            let (certs, keeper) = managed.start(client).await?;
            let server =
                webhooks.serve(addr, certs).await.map_err(|source| WebhookArgsError::Listen { addr, source })?;
            tracing::info!(address = %server.local_addr(), secret = %format!("{}/{}", secret.namespace, secret.name), "serving the webhooks with certificates of their own");
            return Ok(Some(server.keeping(keeper)));
        }
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

    #[test]
    fn managed_certificates_name_their_secret_names_and_bundles() {
        let cli = Cli::parse_from([
            "manager",
            "--webhook-cert-secret=shop-system/webhook-server-cert",
            "--webhook-cert-name=shop-webhook-service.shop-system.svc,shop-webhook-service.shop-system.svc.cluster.local",
            "--webhook-ca-inject=mutating=shop-mutating,validating=shop-validating",
            "--webhook-ca-inject",
            "crd=shops.example.com",
        ]);
        let w = cli.webhook;
        assert_eq!(
            w.webhook_cert_secret,
            Some(SecretRef { namespace: "shop-system".into(), name: "webhook-server-cert".into() })
        );
        assert_eq!(w.webhook_cert_name.len(), 2);
        assert_eq!(
            w.webhook_ca_inject,
            [
                CaInject::Mutating("shop-mutating".into()),
                CaInject::Validating("shop-validating".into()),
                CaInject::Crd("shops.example.com".into())
            ]
        );
        for bad in [
            vec!["manager", "--webhook-cert-secret=webhook-server-cert"],
            vec!["manager", "--webhook-cert-secret=a/b", "--webhook-ca-inject=service=x"],
            vec!["manager", "--webhook-cert-name=x"],
        ] {
            assert!(Cli::try_parse_from(&bad).is_err(), "{bad:?}");
        }
    }

    #[tokio::test]
    async fn managed_certificates_need_names() {
        let cli =
            Cli::parse_from(["manager", "--webhook-cert-secret=ns/certs", "--webhook-bind-address", "127.0.0.1:0"]);
        let err = cli.webhook.serve(Webhooks::new()).await.expect_err("no names");
        assert!(err.to_string().contains("--webhook-cert-name"), "{err}");
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
