//! The certificates a webhook server presents: its own CA and a serving certificate it
//! issues (no cert-manager needed), or the files another tool writes (cert-manager's
//! Secret mounted at kubebuilder's `/tmp/k8s-webhook-server/serving-certs`), swapped
//! while the server runs — a TLS handshake always gets the newest certificate, and
//! connections already open keep theirs.

use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::{Duration, SystemTime};

use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair, KeyUsagePurpose,
};
use rustls::crypto::ring::sign::any_supported_type;
use rustls::server::{ClientHello, ResolvesServerCert};
use rustls::sign::CertifiedKey;
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};

/// A certificate problem, in words.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct CertError(String);

fn err(what: &str) -> impl Fn(rcgen::Error) -> CertError + '_ {
    move |e| CertError(format!("{what}: {e}"))
}

/// How long what the webhook issues itself is valid. The CA outlives every serving
/// certificate it signs by a wide margin, so a rotated serving certificate is trusted
/// by the `caBundle` the API server already has (the overlap a CA rotated together with
/// its leaf loses).
#[derive(Debug, Clone, Copy)]
pub struct Validity {
    pub ca: Duration,
    pub serving: Duration,
}

impl Default for Validity {
    fn default() -> Self {
        const DAY: u64 = 24 * 60 * 60;
        Validity { ca: Duration::from_secs(10 * 365 * DAY), serving: Duration::from_secs(90 * DAY) }
    }
}

/// The webhook's own certificate authority.
pub struct Authority {
    issuer: Issuer<'static, KeyPair>,
    ca_pem: String,
    key_pem: String,
    validity: Validity,
}

/// A serving certificate and its key, PEM.
#[derive(Clone, PartialEq, Eq)]
pub struct Serving {
    pub cert_pem: String,
    pub key_pem: String,
    /// When it stops being valid.
    pub not_after: SystemTime,
}

impl std::fmt::Debug for Serving {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Serving").field("not_after", &self.not_after).finish_non_exhaustive()
    }
}

impl Authority {
    /// A new CA, named after the webhook (`foo-webhook`), valid for `validity.ca`.
    pub fn new(name: &str, validity: Validity) -> Result<Self, CertError> {
        let mut params = CertificateParams::new(Vec::<String>::new()).map_err(err("the CA's parameters"))?;
        params.is_ca = IsCa::Ca(BasicConstraints::Constrained(0));
        params.distinguished_name.push(DnType::CommonName, format!("{name} CA"));
        params.key_usages =
            vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign, KeyUsagePurpose::DigitalSignature];
        let now = SystemTime::now();
        params.not_before = (now - Duration::from_secs(60 * 60)).into();
        params.not_after = (now + validity.ca).into();
        let key = KeyPair::generate().map_err(err("the CA's key"))?;
        let cert = params.self_signed(&key).map_err(err("the CA certificate"))?;
        let key_pem = key.serialize_pem();
        Ok(Authority { ca_pem: cert.pem(), key_pem, issuer: Issuer::new(params, key), validity })
    }

    /// The CA again, from its certificate and key (as kept in a Secret).
    pub fn from_pem(ca_pem: &str, key_pem: &str, validity: Validity) -> Result<Self, CertError> {
        let key = KeyPair::from_pem(key_pem).map_err(err("the CA's key"))?;
        let issuer = Issuer::from_ca_cert_pem(ca_pem, key).map_err(err("the CA certificate"))?;
        Ok(Authority { issuer, ca_pem: ca_pem.to_string(), key_pem: key_pem.to_string(), validity })
    }

    /// The CA certificate: the `caBundle` of the webhook configurations and of a CRD's
    /// conversion webhook.
    pub fn ca_pem(&self) -> &str {
        &self.ca_pem
    }

    /// The CA's private key, PEM, to keep it (in a Secret) across restarts.
    pub fn key_pem(&self) -> &str {
        &self.key_pem
    }

    /// A serving certificate for `names` (DNS names, such as
    /// `foo-webhook-service.foo-system.svc`, or IP addresses), valid for `validity.serving`.
    pub fn issue(&self, names: &[String]) -> Result<Serving, CertError> {
        let mut params = CertificateParams::new(names.to_vec()).map_err(err("the serving certificate's names"))?;
        if let Some(first) = names.first() {
            params.distinguished_name.push(DnType::CommonName, first.clone());
        }
        params.use_authority_key_identifier_extension = true;
        params.key_usages = vec![KeyUsagePurpose::DigitalSignature, KeyUsagePurpose::KeyEncipherment];
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        let now = SystemTime::now();
        let not_after = now + self.validity.serving;
        params.not_before = (now - Duration::from_secs(60 * 60)).into();
        params.not_after = not_after.into();
        let key = KeyPair::generate().map_err(err("the serving key"))?;
        let cert = params.signed_by(&key, &self.issuer).map_err(err("the serving certificate"))?;
        Ok(Serving { cert_pem: cert.pem(), key_pem: key.serialize_pem(), not_after })
    }
}

/// The certificate the server presents, replaced while it runs.
#[derive(Clone)]
pub struct CertStore {
    current: Arc<RwLock<Arc<CertifiedKey>>>,
}

impl std::fmt::Debug for CertStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CertStore").finish_non_exhaustive()
    }
}

impl CertStore {
    pub fn new(serving: &Serving) -> Result<Self, CertError> {
        Ok(CertStore { current: Arc::new(RwLock::new(Arc::new(certified(serving)?))) })
    }

    /// Presents `serving` from the next handshake on.
    pub fn replace(&self, serving: &Serving) -> Result<(), CertError> {
        let key = Arc::new(certified(serving)?);
        *self.current.write().unwrap_or_else(|poisoned| poisoned.into_inner()) = key;
        Ok(())
    }

    /// Reads `tls.crt` and `tls.key` in `dir` (cert-manager's Secret, mounted), and again
    /// every `every` when either file changed; a pair that does not read (half written)
    /// is skipped until the next look. Ends when the store is dropped by the server.
    pub fn from_dir(dir: impl AsRef<Path>, every: Duration) -> Result<Self, CertError> {
        let (cert, key) = (dir.as_ref().join("tls.crt"), dir.as_ref().join("tls.key"));
        let store = CertStore::new(&read_pair(&cert, &key)?)?;
        let weak = Arc::downgrade(&store.current);
        tokio::spawn(async move {
            let mut seen = stamps(&cert, &key);
            loop {
                tokio::time::sleep(every).await;
                let Some(current) = weak.upgrade() else { return };
                let now = stamps(&cert, &key);
                if now == seen {
                    continue;
                }
                if let Ok(key) = read_pair(&cert, &key).and_then(|s| certified(&s)) {
                    *current.write().unwrap_or_else(|poisoned| poisoned.into_inner()) = Arc::new(key);
                    seen = now;
                }
            }
        });
        Ok(store)
    }

    fn get(&self) -> Arc<CertifiedKey> {
        self.current.read().unwrap_or_else(|poisoned| poisoned.into_inner()).clone()
    }
}

type Stamps = (Option<SystemTime>, Option<SystemTime>);

fn stamps(cert: &PathBuf, key: &PathBuf) -> Stamps {
    let modified = |p: &PathBuf| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    (modified(cert), modified(key))
}

fn read_pair(cert: &Path, key: &Path) -> Result<Serving, CertError> {
    let read = |p: &Path| std::fs::read_to_string(p).map_err(|e| CertError(format!("{}: {e}", p.display())));
    Ok(Serving { cert_pem: read(cert)?, key_pem: read(key)?, not_after: SystemTime::UNIX_EPOCH })
}

fn certified(serving: &Serving) -> Result<CertifiedKey, CertError> {
    let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(serving.cert_pem.as_bytes())
        .collect::<Result<_, _>>()
        .map_err(|e| CertError(format!("the serving certificate: {e}")))?;
    if chain.is_empty() {
        return Err(CertError("the serving certificate holds no certificate".into()));
    }
    let key = PrivateKeyDer::from_pem_slice(serving.key_pem.as_bytes())
        .map_err(|e| CertError(format!("the serving key: {e}")))?;
    let key = any_supported_type(&key).map_err(|e| CertError(format!("the serving key: {e}")))?;
    Ok(CertifiedKey::new(chain, key))
}

impl ResolvesServerCert for CertStore {
    fn resolve(&self, _: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        Some(self.get())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_serving_certificate_is_signed_by_a_ca_that_outlives_it() {
        let ca = Authority::new("test-webhook", Validity::default()).expect("a CA");
        let serving = ca.issue(&["127.0.0.1".into(), "svc.ns.svc".into()]).expect("a serving certificate");
        assert!(serving.cert_pem.starts_with("-----BEGIN CERTIFICATE-----"), "{}", serving.cert_pem);
        assert!(CertStore::new(&serving).is_ok());
        let again = Authority::from_pem(ca.ca_pem(), ca.key_pem(), Validity::default()).expect("the CA again");
        assert!(again.issue(&["svc.ns.svc".into()]).is_ok());
        let remaining = serving.not_after.duration_since(SystemTime::now()).unwrap_or_default();
        assert!(remaining > Duration::from_secs(80 * 24 * 3600) && remaining < Validity::default().ca);
    }

    #[test]
    fn a_broken_pair_is_an_error_naming_the_part() {
        let bad = Serving { cert_pem: "nope".into(), key_pem: "nope".into(), not_after: SystemTime::now() };
        let e = CertStore::new(&bad).unwrap_err().to_string();
        assert!(e.contains("serving certificate"), "{e}");
    }
}
