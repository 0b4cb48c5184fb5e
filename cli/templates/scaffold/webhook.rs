//! {{ kind }}'s admission webhooks ({{ group }}/{{ version }}), served by the manager
//! (`src/main.rs`) and registered by the markers below, which `codegen-cli manifests`
//! writes to config/webhook/manifests.yaml.

use kubegen::webhook::{ {%- if defaulting %}Defaulter, {% endif %}Denial, Request, {% if validation %}Validator, Verdict, {% endif %}Webhooks};

use crate::api::{{ group_module }}::{{ version }}::{{ kind }};
{% if defaulting %}
/// Fills in what a {{ kind }} leaves out, before it is stored.
/// +kubebuilder:webhook:path=/mutate-{{ group_path }}-{{ version }}-{{ kind_lower }},mutating=true,failurePolicy=fail,sideEffects=None,groups={{ group }},resources={{ plural }},verbs=create;update,versions={{ version }},name=m{{ kind_lower }}-{{ version }}.kb.io,admissionReviewVersions=v1
pub struct {{ kind }}Defaulter;

impl Defaulter<{{ kind }}> for {{ kind }}Defaulter {
    async fn default(&self, {{ kind_lower }}: &mut {{ kind }}, _request: &Request) -> Result<(), Denial> {
        // TODO(user): set the defaults a schema default cannot express.
        let _ = {{ kind_lower }};
        Ok(())
    }
}
{% endif %}{% if validation %}
/// Checks {{ kind }}s the schema and CEL rules cannot: return warnings, or a `Denial`
/// (`Denial::invalid(vec![FieldError::invalid("spec.size", "...")])` names the field).
/// +kubebuilder:webhook:path=/validate-{{ group_path }}-{{ version }}-{{ kind_lower }},mutating=false,failurePolicy=fail,sideEffects=None,groups={{ group }},resources={{ plural }},verbs=create;update,versions={{ version }},name=v{{ kind_lower }}-{{ version }}.kb.io,admissionReviewVersions=v1
pub struct {{ kind }}Validator;

impl Validator<{{ kind }}> for {{ kind }}Validator {
    async fn validate_create(&self, {{ kind_lower }}: &{{ kind }}, _request: &Request) -> Verdict {
        // TODO(user): what a new {{ kind }} must satisfy.
        let _ = {{ kind_lower }};
        Ok(Vec::new())
    }

    async fn validate_update(&self, old: &{{ kind }}, new: &{{ kind }}, _request: &Request) -> Verdict {
        // TODO(user): what may change, and what may not.
        let _ = (old, new);
        Ok(Vec::new())
    }
}
{% endif %}
/// Adds {{ kind }}'s webhooks to the manager's server.
pub fn add(webhooks: Webhooks) -> Webhooks {
    webhooks{% if defaulting %}.default::<{{ kind }}>({{ kind }}Defaulter){% endif %}{% if validation %}.validate::<{{ kind }}>({{ kind }}Validator){% endif %}
}
