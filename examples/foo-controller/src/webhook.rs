//! Foo's admission webhooks, at the paths its markers (in the crate root) register: a
//! defaulter that labels a Foo with its Deployment's name, and a validator that keeps a
//! Foo's Deployment from changing under it. `src/main.rs` serves them with kubebuilder's
//! webhook flags.

use kubegen::webhook::{Defaulter, Denial, FieldError, Request, Validator, Verdict, Webhooks};

use crate::Foo;

/// The label the defaulter sets: `kubectl get foos -l samplecontroller.k8s.io/deployment=web`.
pub const DEPLOYMENT_LABEL: &str = "samplecontroller.k8s.io/deployment";

/// Labels a Foo with the name of the Deployment it owns, where that name is a valid label
/// value (at most 63 characters).
pub struct FooDefaulter;

impl Defaulter<Foo> for FooDefaulter {
    async fn default(&self, foo: &mut Foo, _: &Request) -> Result<(), Denial> {
        let name = &foo.spec.deployment_name;
        let valid = name.len() <= 63
            && name.starts_with(|c: char| c.is_ascii_alphanumeric())
            && name.ends_with(|c: char| c.is_ascii_alphanumeric())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
        if valid {
            let labels = foo.metadata.labels.get_or_insert_with(Default::default);
            labels.insert(DEPLOYMENT_LABEL.into(), name.clone());
        }
        Ok(())
    }
}

/// A Foo keeps the Deployment it was created with: the controller owns that Deployment,
/// and a rename would leave it behind.
pub struct FooValidator;

impl Validator<Foo> for FooValidator {
    async fn validate_update(&self, old: &Foo, new: &Foo, _: &Request) -> Verdict {
        if old.spec.deployment_name != new.spec.deployment_name {
            let why = format!("a Foo keeps its Deployment; this one owns {}", old.spec.deployment_name);
            return Err(Denial::invalid(vec![FieldError::forbidden("spec.deploymentName", why)]));
        }
        Ok(Vec::new())
    }
}

/// Adds Foo's webhooks to a server.
pub fn add(webhooks: Webhooks) -> Webhooks {
    webhooks.default::<Foo>(FooDefaulter).validate::<Foo>(FooValidator)
}
