//! Memcached's admission webhooks (cache.example.com/v1alpha1), served by the manager
//! (`src/main.rs`) and registered by the markers below, which `codegen-cli manifests`
//! writes to config/webhook/manifests.yaml.

use kubegen::webhook::{Defaulter, Denial, Request, Validator, Verdict, Webhooks};

use crate::api::cache::v1alpha1::Memcached;

/// Fills in what a Memcached leaves out, before it is stored.
/// +kubebuilder:webhook:path=/mutate-cache-example-com-v1alpha1-memcached,mutating=true,failurePolicy=fail,sideEffects=None,groups=cache.example.com,resources=memcacheds,verbs=create;update,versions=v1alpha1,name=mmemcached-v1alpha1.kb.io,admissionReviewVersions=v1
pub struct MemcachedDefaulter;

impl Defaulter<Memcached> for MemcachedDefaulter {
    async fn default(&self, memcached: &mut Memcached, _request: &Request) -> Result<(), Denial> {
        // TODO(user): set the defaults a schema default cannot express.
        let _ = memcached;
        Ok(())
    }
}

/// Checks Memcacheds the schema and CEL rules cannot: return warnings, or a `Denial`
/// (`Denial::invalid(vec![FieldError::invalid("spec.size", "...")])` names the field).
/// +kubebuilder:webhook:path=/validate-cache-example-com-v1alpha1-memcached,mutating=false,failurePolicy=fail,sideEffects=None,groups=cache.example.com,resources=memcacheds,verbs=create;update,versions=v1alpha1,name=vmemcached-v1alpha1.kb.io,admissionReviewVersions=v1
pub struct MemcachedValidator;

impl Validator<Memcached> for MemcachedValidator {
    async fn validate_create(&self, memcached: &Memcached, _request: &Request) -> Verdict {
        // TODO(user): what a new Memcached must satisfy.
        let _ = memcached;
        Ok(Vec::new())
    }

    async fn validate_update(
        &self,
        old: &Memcached,
        new: &Memcached,
        _request: &Request,
    ) -> Verdict {
        // TODO(user): what may change, and what may not.
        let _ = (old, new);
        Ok(Vec::new())
    }
}

/// Adds Memcached's webhooks to the manager's server.
pub fn add(webhooks: Webhooks) -> Webhooks {
    webhooks
        .default::<Memcached>(MemcachedDefaulter)
        .validate::<Memcached>(MemcachedValidator)
}
