//! Certificates the webhook manages itself, across restarts and replicas, without
//! cert-manager: the CA and the serving certificate live in one Secret (`ca.crt`,
//! `ca.key`, `tls.crt`, `tls.key`); the first replica to start creates it and the others
//! read it. Every replica reloads the serving certificate when the Secret changes; the
//! one that finds it close to expiry issues the next from the same CA, written with the
//! Secret's resourceVersion so that of replicas renewing at once, one write lands and the
//! others read it (no two replicas fight). The CA's certificate is patched into the
//! `caBundle` of the named webhook configurations and CRD conversion webhooks whenever it
//! differs there.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use k8s_openapi::ByteString;
use k8s_openapi::api::admissionregistration::v1::{
    MutatingWebhookConfiguration, ValidatingWebhookConfiguration, WebhookClientConfig,
};
use k8s_openapi::api::core::v1::Secret;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, ObjectMeta, PostParams};

use super::certs::{Authority, CertStore, Serving, Validity};

/// When the Secret's serving certificate stops being valid, in seconds since the epoch.
const NOT_AFTER: &str = "kubegen.dev/serving-not-after";

/// What to manage and where.
#[derive(Debug, Clone)]
pub struct ManagedCerts {
    /// The Secret holding the CA and the serving certificate.
    pub namespace: String,
    pub secret: String,
    /// The names the serving certificate is for: the webhook Service's
    /// `<service>.<namespace>.svc` (and `.svc.cluster.local`), or addresses.
    pub names: Vec<String>,
    /// Webhook configurations whose every webhook gets the CA as `caBundle`.
    pub mutating: Vec<String>,
    pub validating: Vec<String>,
    /// CRDs whose conversion webhook gets the CA as `caBundle`.
    pub crds: Vec<String>,
    pub validity: Validity,
    /// Renew the serving certificate when less than this is left (a third of its
    /// validity by default).
    pub renew_before: Duration,
    /// How often the Secret and the `caBundle`s are looked at.
    pub every: Duration,
}

impl ManagedCerts {
    /// Certificates in the Secret `namespace/secret` for `names`, renewed a third of the
    /// way before expiry, looked at every minute.
    pub fn new(namespace: &str, secret: &str, names: Vec<String>) -> Self {
        let validity = Validity::default();
        ManagedCerts {
            namespace: namespace.into(),
            secret: secret.into(),
            names,
            mutating: Vec::new(),
            validating: Vec::new(),
            crds: Vec::new(),
            renew_before: validity.serving / 3,
            validity,
            every: Duration::from_secs(60),
        }
    }
}

/// Why the certificates could not be managed.
#[derive(Debug, thiserror::Error)]
pub enum ManagedError {
    #[error("the webhook's Secret {0}: {1}")]
    Secret(String, kube::Error),
    #[error("the webhook's Secret {0} does not hold a usable CA or certificate: {1}")]
    Unusable(String, String),
    #[error(transparent)]
    Cert(#[from] super::certs::CertError),
}

struct Held {
    ca: Authority,
    serving: Serving,
    version: Option<String>,
}

fn data(secret: &Secret, key: &str) -> Option<String> {
    secret.data.as_ref()?.get(key).and_then(|b| String::from_utf8(b.0.clone()).ok())
}

fn epoch(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or_default()
}

impl ManagedCerts {
    fn shown(&self) -> String {
        format!("{}/{}", self.namespace, self.secret)
    }

    fn read(&self, secret: &Secret) -> Result<Held, ManagedError> {
        let unusable = |why: &str| ManagedError::Unusable(self.shown(), why.to_string());
        let (ca, ca_key) = (
            data(secret, "ca.crt").ok_or_else(|| unusable("no ca.crt"))?,
            data(secret, "ca.key").ok_or_else(|| unusable("no ca.key"))?,
        );
        let ca = Authority::from_pem(&ca, &ca_key, self.validity).map_err(|e| unusable(&e.to_string()))?;
        let not_after = secret
            .metadata
            .annotations
            .as_ref()
            .and_then(|a| a.get(NOT_AFTER))
            .and_then(|s| s.parse::<u64>().ok())
            .map(|s| UNIX_EPOCH + Duration::from_secs(s))
            .unwrap_or(UNIX_EPOCH);
        let serving = Serving {
            cert_pem: data(secret, "tls.crt").ok_or_else(|| unusable("no tls.crt"))?,
            key_pem: data(secret, "tls.key").ok_or_else(|| unusable("no tls.key"))?,
            not_after,
        };
        Ok(Held { ca, serving, version: secret.metadata.resource_version.clone() })
    }

    fn secret(&self, ca: &Authority, serving: &Serving, version: Option<String>) -> Secret {
        let bytes = |s: &str| ByteString(s.as_bytes().to_vec());
        Secret {
            metadata: ObjectMeta {
                name: Some(self.secret.clone()),
                namespace: Some(self.namespace.clone()),
                annotations: Some(BTreeMap::from([(NOT_AFTER.to_string(), epoch(serving.not_after).to_string())])),
                resource_version: version,
                ..Default::default()
            },
            type_: Some("kubernetes.io/tls".into()),
            data: Some(BTreeMap::from([
                ("ca.crt".to_string(), bytes(ca.ca_pem())),
                ("ca.key".to_string(), bytes(ca.key_pem())),
                ("tls.crt".to_string(), bytes(&serving.cert_pem)),
                ("tls.key".to_string(), bytes(&serving.key_pem)),
            ])),
            ..Default::default()
        }
    }

    /// The Secret's certificates, created (CA and serving certificate) when there is
    /// none; a replica that loses the race to create it reads the winner's.
    async fn load_or_create(&self, api: &Api<Secret>) -> Result<Held, ManagedError> {
        let failed = |e| ManagedError::Secret(self.shown(), e);
        if let Some(secret) = api.get_opt(&self.secret).await.map_err(failed)? {
            return self.read(&secret);
        }
        let ca = Authority::new(&self.secret, self.validity)?;
        let serving = ca.issue(&self.names)?;
        match api.create(&PostParams::default(), &self.secret(&ca, &serving, None)).await {
            Ok(created) => Ok(Held { ca, serving, version: created.metadata.resource_version }),
            Err(kube::Error::Api(e)) if e.code == 409 => self.read(&api.get(&self.secret).await.map_err(failed)?),
            Err(e) => Err(failed(e)),
        }
    }

    /// Loads (or creates) the certificates, patches the CA into the `caBundle`s, and
    /// keeps both current until the returned task is dropped: the store the server
    /// serves from is replaced whenever the Secret's certificate changes.
    pub async fn start(self, client: kube::Client) -> Result<(CertStore, tokio::task::JoinHandle<()>), ManagedError> {
        let secrets: Api<Secret> = Api::namespaced(client.clone(), &self.namespace);
        let held = self.load_or_create(&secrets).await?;
        let store = CertStore::new(&held.serving)?;
        inject(&client, &self, held.ca.ca_pem()).await;
        let task = {
            let store = store.clone();
            let this = Arc::new(self);
            tokio::spawn(async move {
                let mut current = held.serving;
                loop {
                    tokio::time::sleep(this.every).await;
                    let Ok(Some(secret)) = secrets.get_opt(&this.secret).await else { continue };
                    let Ok(mut held) = this.read(&secret) else { continue };
                    let left = held.serving.not_after.duration_since(SystemTime::now()).unwrap_or_default();
                    if left < this.renew_before
                        && let Ok(next) = held.ca.issue(&this.names)
                    {
                        let renewed = this.secret(&held.ca, &next, held.version.clone());
                        // Another replica renewing at the same time wins or loses here;
                        // either way the next look reads what landed.
                        if secrets.replace(&this.secret, &PostParams::default(), &renewed).await.is_ok() {
                            held.serving = next;
                        }
                    }
                    if held.serving != current && store.replace(&held.serving).is_ok() {
                        tracing::info!(secret = %this.shown(), "webhook serving certificate reloaded");
                        current = held.serving.clone();
                    }
                    inject(&client, &this, held.ca.ca_pem()).await;
                }
            })
        };
        Ok((store, task))
    }
}

/// Sets `ca` as the `caBundle` of every webhook of the named configurations and of the
/// named CRDs' conversion webhooks, where it is not already; what is not there yet (a
/// configuration not applied) is left for the next look.
async fn inject(client: &kube::Client, managed: &ManagedCerts, ca: &str) {
    let bundle = ByteString(ca.as_bytes().to_vec());
    set_bundle::<MutatingWebhookConfiguration>(client, &managed.mutating, &bundle, |c| {
        c.webhooks.iter_mut().flatten().map(|h| &mut h.client_config).collect()
    })
    .await;
    set_bundle::<ValidatingWebhookConfiguration>(client, &managed.validating, &bundle, |c| {
        c.webhooks.iter_mut().flatten().map(|h| &mut h.client_config).collect()
    })
    .await;
    let crds: Api<CustomResourceDefinition> = Api::all(client.clone());
    for name in &managed.crds {
        if let Ok(Some(mut crd)) = crds.get_opt(name).await
            && let Some(config) =
                crd.spec.conversion.as_mut().and_then(|c| c.webhook.as_mut()).and_then(|w| w.client_config.as_mut())
            && config.ca_bundle.as_ref() != Some(&bundle)
        {
            config.ca_bundle = Some(bundle.clone());
            if let Err(e) = crds.replace(name, &PostParams::default(), &crd).await {
                tracing::debug!(%name, "caBundle not set yet: {e}");
            }
        }
    }
}

/// The `caBundle` of every client config `configs` finds in each named object.
async fn set_bundle<K>(
    client: &kube::Client,
    names: &[String],
    bundle: &ByteString,
    configs: impl Fn(&mut K) -> Vec<&mut WebhookClientConfig>,
) where
    K: kube::Resource<DynamicType = (), Scope = k8s_openapi::ClusterResourceScope>
        + Clone
        + std::fmt::Debug
        + serde::Serialize
        + serde::de::DeserializeOwned,
{
    let api: Api<K> = Api::all(client.clone());
    for name in names {
        let Ok(Some(mut object)) = api.get_opt(name).await else { continue };
        let mut changed = false;
        for config in configs(&mut object) {
            if config.ca_bundle.as_ref() != Some(bundle) {
                config.ca_bundle = Some(bundle.clone());
                changed = true;
            }
        }
        if changed && let Err(e) = api.replace(name, &PostParams::default(), &object).await {
            tracing::debug!(%name, "caBundle not set yet: {e}");
        }
    }
}
