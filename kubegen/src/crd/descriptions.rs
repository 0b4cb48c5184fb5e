//! The description budget. Descriptions are most of a CRD's bytes, and a CRD over
//! 262 144 bytes no longer fits the `kubectl.kubernetes.io/last-applied-configuration`
//! annotation of client-side `kubectl apply`.

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kubegen_core::schema::node::Node;

/// The size limit of an annotation: a CRD larger than this cannot be applied client-side.
pub const LAST_APPLIED_LIMIT: usize = 262_144;

/// Cuts every description in `crd` to at most `max` characters, back to the last full
/// sentence when there is one, else to the last whole word followed by `...`, as
/// controller-gen's `maxDescLen` does; `0` removes them.
pub fn truncate_descriptions(crd: &mut CustomResourceDefinition, max: usize) {
    for version in &mut crd.spec.versions {
        if let Some(schema) = version.schema.as_mut().and_then(|s| s.open_api_v3_schema.as_mut()) {
            // kubegen's CRDs are lowered from the IR, so they read back into it.
            if let Some(mut node) = serde_json::to_value(&*schema).ok().as_ref().and_then(Node::from_value) {
                node.walk_mut(&mut |n: &mut Node| truncate(&mut n.description, max));
                *schema = super::lower(&node);
            }
        }
    }
}

fn truncate(description: &mut Option<String>, max: usize) {
    let Some(text) = description.as_mut() else { return };
    if max == 0 {
        *description = None;
        return;
    }
    if text.chars().count() <= max {
        return;
    }
    let mut cut: String = text.chars().take(max).collect();
    if let Some(end) = cut.rfind('.') {
        cut.truncate(end + 1);
    } else {
        // No sentence fits: end at the last whole word and say the text goes on, as
        // controller-gen does, rather than mid-word.
        if let Some(space) = cut.rfind(char::is_whitespace) {
            cut.truncate(space);
        }
        cut.push_str("...");
    }
    *text = cut;
}

/// The bytes `kubectl apply` would store in the last-applied annotation.
pub fn applied_size(crd: &CustomResourceDefinition) -> usize {
    serde_json::to_vec(crd).map(|v| v.len()).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::{
        CustomResourceDefinitionVersion, CustomResourceValidation,
    };
    use serde_json::json;

    use super::*;

    #[test]
    fn every_description_in_every_version_is_cut_and_nothing_else_changes() {
        let long = "Short one. Then a much longer second sentence.";
        let schema = json!({
            "type": "object", "description": long,
            "properties": {
                "list": {"type": "array", "description": long, "maxItems": 3,
                         "items": {"type": "string", "description": long, "pattern": "^a"}},
                "map": {"type": "object", "additionalProperties": {"type": "integer", "description": long}},
                "either": {"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]}
            },
            "x-kubernetes-validations": [{"rule": "self.list.size() < 3", "message": long}]
        });
        let mut crd = CustomResourceDefinition::default();
        crd.spec.versions = vec![CustomResourceDefinitionVersion {
            schema: Some(CustomResourceValidation { open_api_v3_schema: serde_json::from_value(schema.clone()).ok() }),
            ..Default::default()
        }];
        truncate_descriptions(&mut crd, 12);
        let cut = serde_json::to_string(&crd.spec.versions[0].schema).unwrap();
        let expected = serde_json::to_string(&json!({"openAPIV3Schema": schema})).unwrap().replace(long, "Short one.");
        // The rule's message is no description: it stays whole.
        let expected = expected.replacen("\"message\":\"Short one.\"", &format!("\"message\":\"{long}\""), 1);
        assert_eq!(cut, expected);
        truncate_descriptions(&mut crd, 0);
        assert!(!serde_json::to_string(&crd).unwrap().contains("description"));
    }

    #[test]
    fn truncates_at_a_sentence_like_controller_gen() {
        let mut d = Some("First sentence. Second sentence is long.".to_string());
        truncate(&mut d, 20);
        assert_eq!(d.as_deref(), Some("First sentence."));
        let mut d = Some("No full stop in reach here".to_string());
        truncate(&mut d, 10);
        assert_eq!(d.as_deref(), Some("No full..."));
        let mut d = Some("Unbreakable".to_string());
        truncate(&mut d, 4);
        assert_eq!(d.as_deref(), Some("Unbr..."));
        let mut d = Some("Gone".to_string());
        truncate(&mut d, 0);
        assert_eq!(d, None);
    }
}
