//! The webhook's own certificate authority and the serving certificates it issues (no
//! cert-manager needed): what the server presents ([`CertStore`](super::CertStore)), and
//! what `codegen-cli local-webhooks` and the test environment issue for a process on
//! this machine.

use std::time::{Duration, SystemTime};

use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair, KeyUsagePurpose,
};

/// A certificate problem, in words.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct CertError(pub(crate) String);

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
