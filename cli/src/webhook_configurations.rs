//! The webhook configurations `codegen-cli manifests` writes to
//! `config/webhook/manifests.yaml` from `+kubebuilder:webhook` markers, as controller-gen
//! writes them (`pkg/webhook/parser.go`): one configuration of each kind
//! (`mutating-webhook-configuration`, `validating-webhook-configuration`, or the names
//! `+kubebuilder:webhookconfiguration` gives), the mutating one first, webhooks sorted by
//! name, a `path` served by the `webhook-service` Service in `system` (kustomize renames
//! both) unless `serviceName`/`serviceNamespace` say otherwise.

use k8s_openapi::api::admissionregistration::v1::{
    MutatingWebhook, MutatingWebhookConfiguration, RuleWithOperations, ServiceReference, ValidatingWebhook,
    ValidatingWebhookConfiguration, WebhookClientConfig,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kubegen_core::webhook::{WebhookMarker, WebhookMarkerError};

/// The Service a `path` is served by when the marker names none: kubebuilder's
/// `config/webhook/service.yaml`, in the namespace kustomize sets.
pub const DEFAULT_SERVICE: (&str, &str) = ("webhook-service", "system");

fn client_config(w: &WebhookMarker) -> WebhookClientConfig {
    match &w.url {
        Some(url) => WebhookClientConfig { url: Some(url.clone()), ..Default::default() },
        None => WebhookClientConfig {
            service: Some(ServiceReference {
                name: w.service_name.clone().unwrap_or_else(|| DEFAULT_SERVICE.0.into()),
                namespace: w.service_namespace.clone().unwrap_or_else(|| DEFAULT_SERVICE.1.into()),
                path: w.path.clone(),
                port: w.service_port,
            }),
            ..Default::default()
        },
    }
}

fn rules(w: &WebhookMarker) -> Vec<RuleWithOperations> {
    vec![RuleWithOperations {
        api_groups: Some(w.groups.clone()),
        api_versions: Some(w.versions.clone()),
        operations: Some(w.operations.clone()),
        resources: Some(w.resources.clone()),
        scope: None,
    }]
}

fn typed<T: serde::de::DeserializeOwned>(v: &Option<serde_json::Value>) -> Option<T> {
    v.as_ref().and_then(|v| serde_json::from_value(v.clone()).ok())
}

/// The mutating and the validating configuration of `markers`, each present only when
/// some webhook is of its kind; `names` overrides their names. Two different webhooks
/// of one name are an error (the API server would refuse the configuration).
pub fn configurations(
    markers: &[WebhookMarker],
    names: (Option<&str>, Option<&str>),
) -> Result<(Option<MutatingWebhookConfiguration>, Option<ValidatingWebhookConfiguration>), WebhookMarkerError> {
    let mut sorted: Vec<&WebhookMarker> = markers.iter().collect();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    sorted.dedup();
    for pair in sorted.windows(2) {
        if pair[0].name == pair[1].name && pair[0].mutating == pair[1].mutating {
            return Err(WebhookMarkerError(format!(
                "two different +kubebuilder:webhook markers are named {}; a configuration's webhook names are unique",
                pair[0].name
            )));
        }
    }
    let meta = |name: &str| ObjectMeta { name: Some(name.to_string()), ..Default::default() };
    let mutating: Vec<MutatingWebhook> = sorted
        .iter()
        .filter(|w| w.mutating)
        .map(|w| MutatingWebhook {
            name: w.name.clone(),
            admission_review_versions: w.admission_review_versions.clone(),
            client_config: client_config(w),
            failure_policy: Some(w.failure_policy.clone()),
            match_policy: w.match_policy.clone(),
            side_effects: w.side_effects.clone().unwrap_or_default(),
            timeout_seconds: w.timeout_seconds,
            reinvocation_policy: w.reinvocation_policy.clone(),
            rules: Some(rules(w)),
            namespace_selector: typed(&w.namespace_selector),
            object_selector: typed(&w.object_selector),
            match_conditions: typed(&w.match_conditions),
        })
        .collect();
    let validating: Vec<ValidatingWebhook> = sorted
        .iter()
        .filter(|w| !w.mutating)
        .map(|w| ValidatingWebhook {
            name: w.name.clone(),
            admission_review_versions: w.admission_review_versions.clone(),
            client_config: client_config(w),
            failure_policy: Some(w.failure_policy.clone()),
            match_policy: w.match_policy.clone(),
            side_effects: w.side_effects.clone().unwrap_or_default(),
            timeout_seconds: w.timeout_seconds,
            rules: Some(rules(w)),
            namespace_selector: typed(&w.namespace_selector),
            object_selector: typed(&w.object_selector),
            match_conditions: typed(&w.match_conditions),
        })
        .collect();
    let mutating = (!mutating.is_empty()).then(|| MutatingWebhookConfiguration {
        metadata: meta(names.0.unwrap_or("mutating-webhook-configuration")),
        webhooks: Some(mutating),
    });
    let validating = (!validating.is_empty()).then(|| ValidatingWebhookConfiguration {
        metadata: meta(names.1.unwrap_or("validating-webhook-configuration")),
        webhooks: Some(validating),
    });
    Ok((mutating, validating))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_served_by_kubebuilders_service_and_webhooks_sort_by_name() {
        let marker = |name: &str, mutating: bool| {
            WebhookMarker::parse_marker(&format!(
                "path=/p,mutating={mutating},failurePolicy=fail,sideEffects=None,groups=a.io,resources=bs,verbs=create,versions=v1,name={name},admissionReviewVersions=v1"
            ))
            .expect("a webhook")
        };
        let (m, v) =
            configurations(&[marker("z.a.io", false), marker("b.a.io", false), marker("m.a.io", true)], (None, None))
                .expect("configurations");
        let v = v.expect("a validating configuration");
        let names: Vec<&str> = v.webhooks.iter().flatten().map(|w| w.name.as_str()).collect();
        assert_eq!(names, ["b.a.io", "z.a.io"]);
        let service = v.webhooks.as_ref().and_then(|w| w[0].client_config.service.clone()).expect("a service");
        assert_eq!((service.name.as_str(), service.namespace.as_str()), DEFAULT_SERVICE);
        assert_eq!(m.expect("a mutating one").metadata.name.as_deref(), Some("mutating-webhook-configuration"));
        let mut other = marker("b.a.io", false);
        other.resources = vec!["cs".into()];
        assert!(configurations(&[marker("b.a.io", false), other], (None, None)).is_err());
    }
}
