//! The description budget. Descriptions are most of a CRD's bytes, and a CRD over
//! 262 144 bytes no longer fits the `kubectl.kubernetes.io/last-applied-configuration`
//! annotation of client-side `kubectl apply`.

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::{
    CustomResourceDefinition, JSONSchemaProps, JSONSchemaPropsOrArray, JSONSchemaPropsOrBool,
};

/// The size limit of an annotation: a CRD larger than this cannot be applied client-side.
pub const LAST_APPLIED_LIMIT: usize = 262_144;

/// Cuts every description in `crd` to at most `max` characters, back to the last full
/// sentence when there is one, else to the last whole word followed by `...`, as
/// controller-gen's `maxDescLen` does; `0` removes them.
pub fn truncate_descriptions(crd: &mut CustomResourceDefinition, max: usize) {
    for version in &mut crd.spec.versions {
        if let Some(schema) = version.schema.as_mut().and_then(|s| s.open_api_v3_schema.as_mut()) {
            walk(schema, &|d: &mut Option<String>| truncate(d, max));
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

fn walk(s: &mut JSONSchemaProps, f: &dyn Fn(&mut Option<String>)) {
    f(&mut s.description);
    for p in s.properties.iter_mut().flat_map(|p| p.values_mut()) {
        walk(p, f);
    }
    match s.items.as_mut() {
        Some(JSONSchemaPropsOrArray::Schema(i)) => walk(i, f),
        Some(JSONSchemaPropsOrArray::Schemas(is)) => is.iter_mut().for_each(|i| walk(i, f)),
        None => {}
    }
    if let Some(JSONSchemaPropsOrBool::Schema(a)) = s.additional_properties.as_mut() {
        walk(a, f);
    }
    for list in [&mut s.all_of, &mut s.any_of, &mut s.one_of] {
        for b in list.iter_mut().flatten() {
            walk(b, f);
        }
    }
}

/// The bytes `kubectl apply` would store in the last-applied annotation.
pub fn applied_size(crd: &CustomResourceDefinition) -> usize {
    serde_json::to_vec(crd).map(|v| v.len()).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::truncate;

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
