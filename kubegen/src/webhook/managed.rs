//! Certificates the webhook manages itself, across restarts and replicas, without
//! cert-manager: the CA and the serving certificate live in one Secret (`ca.crt`,
//! `ca.key`, `tls.crt`, `tls.key`); the first replica to start creates it and the others
//! read it. Every replica reloads the serving certificate when the Secret changes; the
//! one that finds it close to expiry issues the next from the same CA, written with the
//! Secret's resourceVersion so that of replicas renewing at once, one write lands and the
//! others read it (no two replicas fight). The CA's certificate is patched into the
//! `caBundle` of the named webhook configurations and CRD conversion webhooks whenever it
//! differs there.
//!
//! The CA rotates too, before it expires, without a request failing: the new CA joins the
//! bundle beside the old one (`ca-previous.crt`); after an overlap, when every API server
//! trusts both, the serving certificate is issued from the new CA; after another, when
//! every replica serves the new certificate, the old CA leaves the bundle.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use k8s_openapi::ByteString;
use k8s_openapi::api::admissionregistration::v1::{
    MutatingWebhookConfiguration, ValidatingWebhookConfiguration, WebhookClientConfig,
};
use k8s_openapi::api::coordination::v1::Lease;
use k8s_openapi::api::core::v1::Secret;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, ObjectMeta, PostParams};

use super::authority::{Authority, Serving, Validity};
use super::certs::CertStore;
use crate::host::LeaderElection;
use crate::host::leader::try_acquire_or_renew;

/// When the Secret's serving certificate stops being valid, in seconds since the epoch.
const NOT_AFTER: &str = "kubegen.dev/serving-not-after";
/// When the Secret's CA stops being valid, in seconds since the epoch.
const CA_NOT_AFTER: &str = "kubegen.dev/ca-not-after";
/// When the CA was rotated (the previous one is still in the bundle, and still signs the
/// serving certificate), in seconds since the epoch.
const ROTATED_AT: &str = "kubegen.dev/ca-rotated-at";
/// When the previous CA leaves the bundle (the serving certificate is the new CA's), in
/// seconds since the epoch.
const PREVIOUS_UNTIL: &str = "kubegen.dev/previous-ca-until";
/// The previous CA's certificate, in the bundle while the CA rotates.
const PREVIOUS_CA: &str = "ca-previous.crt";

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
    /// Rotate the CA when less than this is left (a third of its validity by default).
    pub ca_renew_before: Duration,
    /// While the CA rotates, how long both CAs are in the bundle before the serving
    /// certificate comes from the new one (so every API server trusts it first), and
    /// again before the old CA leaves (so every replica serves the new certificate
    /// first): five minutes by default.
    pub overlap: Duration,
    /// How often the Secret and the `caBundle`s are looked at.
    pub every: Duration,
    /// Only the replica holding this Lease renews and rotates the certificates and patches
    /// the `caBundle`s; the others read the Secret and reload. Without one, every replica
    /// may step, and of replicas stepping at once one write lands (each is conditional
    /// on the resourceVersion it read).
    pub leader_election: Option<LeaderElection>,
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
            ca_renew_before: validity.ca / 3,
            overlap: Duration::from_secs(300),
            validity,
            every: Duration::from_secs(60),
            leader_election: None,
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
    Cert(#[from] super::authority::CertError),
}

/// What the Secret holds.
struct Held {
    ca: Authority,
    /// `None` for a Secret that does not say (it is then never rotated).
    ca_not_after: Option<SystemTime>,
    /// The previous CA's certificate while the CA rotates, with when it was rotated and,
    /// once the serving certificate is the new CA's, when the previous one goes.
    previous: Option<String>,
    rotated_at: Option<SystemTime>,
    previous_until: Option<SystemTime>,
    serving: Serving,
    version: Option<String>,
}

impl Held {
    /// The `caBundle`: the CA, and the previous one while they overlap.
    fn bundle(&self) -> String {
        let mut bundle = self.ca.ca_pem().to_string();
        if let Some(previous) = &self.previous {
            if !bundle.ends_with('\n') {
                bundle.push('\n');
            }
            bundle.push_str(previous);
        }
        bundle
    }
}

fn data(secret: &Secret, key: &str) -> Option<String> {
    secret.data.as_ref()?.get(key).and_then(|b| String::from_utf8(b.0.clone()).ok())
}

fn epoch(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or_default()
}

fn annotation(secret: &Secret, key: &str) -> Option<SystemTime> {
    let seconds = secret.metadata.annotations.as_ref()?.get(key)?.parse::<u64>().ok()?;
    Some(UNIX_EPOCH + Duration::from_secs(seconds))
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
        let serving = Serving {
            cert_pem: data(secret, "tls.crt").ok_or_else(|| unusable("no tls.crt"))?,
            key_pem: data(secret, "tls.key").ok_or_else(|| unusable("no tls.key"))?,
            not_after: annotation(secret, NOT_AFTER).unwrap_or(UNIX_EPOCH),
        };
        Ok(Held {
            ca,
            ca_not_after: annotation(secret, CA_NOT_AFTER),
            previous: data(secret, PREVIOUS_CA),
            rotated_at: annotation(secret, ROTATED_AT),
            previous_until: annotation(secret, PREVIOUS_UNTIL),
            serving,
            version: secret.metadata.resource_version.clone(),
        })
    }

    fn secret(&self, held: &Held) -> Secret {
        let bytes = |s: &str| ByteString(s.as_bytes().to_vec());
        let mut annotations = BTreeMap::from([(NOT_AFTER.to_string(), epoch(held.serving.not_after).to_string())]);
        for (key, at) in
            [(CA_NOT_AFTER, held.ca_not_after), (ROTATED_AT, held.rotated_at), (PREVIOUS_UNTIL, held.previous_until)]
        {
            if let Some(at) = at {
                annotations.insert(key.to_string(), epoch(at).to_string());
            }
        }
        let mut data = BTreeMap::from([
            ("ca.crt".to_string(), bytes(held.ca.ca_pem())),
            ("ca.key".to_string(), bytes(held.ca.key_pem())),
            ("tls.crt".to_string(), bytes(&held.serving.cert_pem)),
            ("tls.key".to_string(), bytes(&held.serving.key_pem)),
        ]);
        if let Some(previous) = &held.previous {
            data.insert(PREVIOUS_CA.to_string(), bytes(previous));
        }
        Secret {
            metadata: ObjectMeta {
                name: Some(self.secret.clone()),
                namespace: Some(self.namespace.clone()),
                annotations: Some(annotations),
                resource_version: held.version.clone(),
                ..Default::default()
            },
            type_: Some("kubernetes.io/tls".into()),
            data: Some(data),
            ..Default::default()
        }
    }

    /// A new CA and a serving certificate from it.
    fn fresh(&self) -> Result<Held, ManagedError> {
        let ca = Authority::new(&self.secret, self.validity)?;
        let serving = ca.issue(&self.names)?;
        Ok(Held {
            ca,
            ca_not_after: Some(SystemTime::now() + self.validity.ca),
            previous: None,
            rotated_at: None,
            previous_until: None,
            serving,
            version: None,
        })
    }

    /// The state of the Secret at `now`, and whether it changed: one step at a time, so
    /// that each reaches every API server and replica before the next.
    fn next(&self, held: Held, now: SystemTime) -> Result<(Held, bool), ManagedError> {
        let left = |t: SystemTime| t.duration_since(now).unwrap_or_default();
        // The rotation's last step: every replica serves the new CA's certificate.
        if held.previous.is_some() && held.previous_until.is_some_and(|t| now >= t) {
            return Ok((Held { previous: None, rotated_at: None, previous_until: None, ..held }, true));
        }
        // Its second: every API server trusts both CAs; serve from the new one.
        if let Some(at) = held.rotated_at
            && held.previous_until.is_none()
        {
            if now < at + self.overlap {
                return Ok((held, false));
            }
            let serving = held.ca.issue(&self.names)?;
            return Ok((Held { serving, previous_until: Some(now + self.overlap), ..held }, true));
        }
        // Its first: a new CA beside the old one, which still signs the certificate served.
        if held.previous.is_none() && held.ca_not_after.is_some_and(|t| left(t) < self.ca_renew_before) {
            let ca = Authority::new(&self.secret, self.validity)?;
            let rotated = Held {
                previous: Some(held.ca.ca_pem().to_string()),
                ca,
                ca_not_after: Some(now + self.validity.ca),
                rotated_at: Some(now),
                previous_until: None,
                ..held
            };
            return Ok((rotated, true));
        }
        if left(held.serving.not_after) < self.renew_before {
            let serving = held.ca.issue(&self.names)?;
            return Ok((Held { serving, ..held }, true));
        }
        Ok((held, false))
    }

    /// The Secret's certificates, created (CA and serving certificate) when there is
    /// none; a replica that loses the race to create it reads the winner's.
    async fn load_or_create(&self, api: &Api<Secret>) -> Result<Held, ManagedError> {
        let failed = |e| ManagedError::Secret(self.shown(), e);
        if let Some(secret) = api.get_opt(&self.secret).await.map_err(failed)? {
            return self.read(&secret);
        }
        let mut held = self.fresh()?;
        match api.create(&PostParams::default(), &self.secret(&held)).await {
            Ok(created) => {
                held.version = created.metadata.resource_version;
                Ok(held)
            }
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
        let leases =
            self.leader_election.as_ref().map(|cfg| (Api::namespaced(client.clone(), &cfg.namespace), cfg.clone()));
        let leads = async |leases: &Option<(Api<Lease>, LeaderElection)>| match leases {
            None => true,
            Some((api, cfg)) => try_acquire_or_renew(api, cfg).await.unwrap_or(false),
        };
        if leads(&leases).await {
            inject(&client, &self, &held.bundle()).await;
        }
        let task = {
            let store = store.clone();
            let this = Arc::new(self);
            tokio::spawn(async move {
                let mut current = held.serving;
                loop {
                    tokio::time::sleep(this.every).await;
                    let Ok(Some(secret)) = secrets.get_opt(&this.secret).await else { continue };
                    let Ok(held) = this.read(&secret) else { continue };
                    let leading = leads(&leases).await;
                    let stepped = if leading { this.next(held, SystemTime::now()) } else { Ok((held, false)) };
                    let held = match stepped {
                        Ok((next, true)) => {
                            // Another replica stepping at the same time wins or loses
                            // here; either way the next look reads what landed.
                            if secrets.replace(&this.secret, &PostParams::default(), &this.secret(&next)).await.is_err()
                            {
                                continue;
                            }
                            next
                        }
                        Ok((same, false)) => same,
                        Err(e) => {
                            tracing::warn!(secret = %this.shown(), "webhook certificates not renewed: {e}");
                            continue;
                        }
                    };
                    if held.serving != current && store.replace(&held.serving).is_ok() {
                        tracing::info!(secret = %this.shown(), "webhook serving certificate reloaded");
                        current = held.serving.clone();
                    }
                    if leading {
                        inject(&client, &this, &held.bundle()).await;
                    }
                }
            })
        };
        Ok((store, task))
    }
}

/// Sets `ca` (one or two PEM certificates) as the `caBundle` of every webhook of the named configurations and of the
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The CA's rotation, step by step: the new CA joins the bundle first, the serving
    /// certificate follows after the overlap, the old CA leaves after another; nothing
    /// changes between the steps.
    #[test]
    fn the_ca_rotates_in_three_steps_with_overlaps() {
        let mut managed = ManagedCerts::new("ns", "certs", vec!["127.0.0.1".into()]);
        managed.overlap = Duration::from_secs(300);
        // Certificates are issued on the real clock: a short-lived CA keeps the steps'
        // times (two days on) well inside the serving certificate's life.
        managed.validity.ca = Duration::from_secs(3 * 86_400);
        managed.ca_renew_before = Duration::from_secs(86_400);
        let start = SystemTime::now();
        let held = managed.fresh().expect("a CA and a certificate");
        let (first_ca, first_serving) = (held.ca.ca_pem().to_string(), held.serving.clone());
        assert_eq!(held.bundle(), first_ca);

        // Not due: nothing changes.
        let (held, changed) = managed.next(held, start).expect("a step");
        assert!(!changed);

        // Due (a third of the CA's life left): the new CA joins the bundle beside the old,
        // and the old one still signs the certificate served.
        let due = start + managed.validity.ca - managed.ca_renew_before + Duration::from_secs(1);
        let (held, changed) = managed.next(held, due).expect("a step");
        assert!(changed);
        let second_ca = held.ca.ca_pem().to_string();
        assert_ne!(second_ca, first_ca);
        assert_eq!(held.serving, first_serving);
        assert_eq!(held.bundle(), format!("{second_ca}{first_ca}"));

        // Within the overlap: nothing.
        let (held, changed) = managed.next(held, due + managed.overlap / 2).expect("a step");
        assert!(!changed);
        assert_eq!(held.serving, first_serving);

        // After it: the certificate comes from the new CA; both stay in the bundle.
        let later = due + managed.overlap;
        let (held, changed) = managed.next(held, later).expect("a step");
        assert!(changed && held.serving != first_serving);
        assert_eq!(held.bundle(), format!("{second_ca}{first_ca}"));
        let (held, changed) = managed.next(held, later + managed.overlap / 2).expect("a step");
        assert!(!changed);

        // After the second overlap the old CA goes, and the rotation is over.
        let (held, changed) = managed.next(held, later + managed.overlap).expect("a step");
        assert!(changed);
        assert_eq!(held.bundle(), second_ca);
        assert!(held.rotated_at.is_none() && held.previous_until.is_none());

        // What the Secret keeps reads back the same.
        let secret = managed.secret(&held);
        let read = managed.read(&secret).expect("it reads back");
        assert_eq!((read.bundle(), read.serving.cert_pem.clone()), (held.bundle(), held.serving.cert_pem.clone()));
        assert_eq!(read.ca_not_after.map(epoch), held.ca_not_after.map(epoch));
    }
}
