//! Foo's webhooks: the admission webhooks at the paths its markers (in the crate root)
//! register, a defaulter that labels a Foo with its Deployment's name and a validator that
//! keeps a Foo's Deployment from changing under it; and the conversion between its two
//! versions, at `/convert`, which config/crd/patches/webhook_in_foos.yaml names.
//! `src/main.rs` serves them with kubebuilder's webhook flags.

use kubegen::webhook::{
    Conversion, Defaulter, Denial, FieldError, Request, Validator, Verdict, Webhooks, stash, unstash,
};

use crate::{Foo, FooSpec, v1beta1};

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

/// Foo's conversion: `v1alpha1`, the version stored, is the hub; `v1beta1` converts
/// through it.
pub fn conversion() -> Conversion<Foo> {
    Conversion::<Foo>::hub().spoke::<v1beta1::Foo>()
}

/// The field of `v1beta1` that `v1alpha1` has no place for, kept in its annotation
/// `conversion.kubegen.dev/stash` under this name.
const REVISION_HISTORY_LIMIT: &str = "revisionHistoryLimit";

impl TryFrom<Foo> for v1beta1::Foo {
    type Error = String;

    fn try_from(hub: Foo) -> Result<Self, String> {
        let Foo { mut metadata, spec, status } = hub;
        let revision_history_limit = unstash(&mut metadata, REVISION_HISTORY_LIMIT)?;
        let spec =
            v1beta1::FooSpec { deployment_name: spec.deployment_name, replicas: spec.replicas, revision_history_limit };
        Ok(v1beta1::Foo { metadata, spec, status })
    }
}

impl TryFrom<v1beta1::Foo> for Foo {
    type Error = String;

    fn try_from(spoke: v1beta1::Foo) -> Result<Self, String> {
        let v1beta1::Foo { mut metadata, spec, status } = spoke;
        stash(&mut metadata, REVISION_HISTORY_LIMIT, &spec.revision_history_limit)?;
        Ok(Foo { metadata, spec: FooSpec { deployment_name: spec.deployment_name, replicas: spec.replicas }, status })
    }
}

/// Adds Foo's webhooks to a server: admission and conversion.
pub fn add(webhooks: Webhooks) -> Webhooks {
    webhooks.default::<Foo>(FooDefaulter).validate::<Foo>(FooValidator).convert(conversion())
}
