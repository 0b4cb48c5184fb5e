//! The certificates a webhook server presents: its own CA and a serving certificate it
//! issues (no cert-manager needed), or the files another tool writes (cert-manager's
//! Secret mounted at kubebuilder's `/tmp/k8s-webhook-server/serving-certs`), swapped
//! while the server runs — a TLS handshake always gets the newest certificate, and
//! connections already open keep theirs.

use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::{Duration, SystemTime};

use rustls::crypto::ring::sign::any_supported_type;
use rustls::server::{ClientHello, ResolvesServerCert};
use rustls::sign::CertifiedKey;
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};

#[cfg(test)]
use super::authority::{Authority, Validity};
use super::authority::{CertError, Serving};

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
