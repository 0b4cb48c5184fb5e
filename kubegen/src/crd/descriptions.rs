//! The description budget. Descriptions are most of a CRD's bytes, and a CRD over
//! 262 144 bytes no longer fits the `kubectl.kubernetes.io/last-applied-configuration`
//! annotation of client-side `kubectl apply`.

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kubegen_core::schema::node::Node;

/// The size limit of an annotation: a CRD larger than this cannot be applied client-side.
pub const LAST_APPLIED_LIMIT: usize = 262_144;

/// The request size etcd takes by default (`--max-request-bytes`, 1.5 MiB): the API server
/// refuses to store a CRD larger than this, whichever way it is applied.
pub const ETCD_REQUEST_LIMIT: usize = 1_572_864;

/// What [`fit_descriptions`] did to a CRD.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fitted {
    /// Its JSON size before and after.
    pub before: usize,
    pub after: usize,
    /// Descriptions dropped, of how many.
    pub dropped: usize,
    pub of: usize,
}

/// Drops descriptions until `crd`'s JSON fits `budget` bytes: the deepest first (an
/// embedded Kubernetes type's fields, which are most of a large CRD's text, before the
/// user's own), the longest first at one depth, the kind's top-level ones last. Nothing
/// else changes, and a CRD that fits is left as it is. `Err` with its size when it does
/// not fit even without descriptions.
pub fn fit_descriptions(crd: &mut CustomResourceDefinition, budget: usize) -> Result<Fitted, usize> {
    let before = applied_size(crd);
    let mut trees: Vec<Option<Node>> = crd.spec.versions.iter().map(version_node).collect();
    // Every description: (version, its place in the walk, depth, bytes in JSON).
    let mut found = Vec::new();
    for (v, tree) in trees.iter_mut().enumerate() {
        if let Some(node) = tree {
            let mut at = 0;
            visit(node, 0, &mut at, &mut |n, i, depth| {
                if let Some(d) = &n.description {
                    found.push((v, i, depth, serde_json::to_string(d).map_or(0, |t| t.len()) + 15));
                }
            });
        }
    }
    let of = found.len();
    found.sort_by(|a, b| b.2.cmp(&a.2).then(b.3.cmp(&a.3)).then(a.0.cmp(&b.0)).then(a.1.cmp(&b.1)));
    let mut size = before;
    let mut dropped = std::collections::BTreeSet::new();
    let mut next = found.iter();
    while size > budget {
        // Drop about as much as is over, then measure.
        let mut freed = 0;
        for &(v, i, _, bytes) in next.by_ref() {
            dropped.insert((v, i));
            freed += bytes;
            if freed >= size - budget {
                break;
            }
        }
        if freed == 0 {
            return Err(size);
        }
        for (v, tree) in trees.iter_mut().enumerate() {
            if let Some(node) = tree {
                let mut at = 0;
                visit(node, 0, &mut at, &mut |n, i, _| {
                    if dropped.contains(&(v, i)) {
                        n.description = None;
                    }
                });
            }
        }
        for (version, tree) in crd.spec.versions.iter_mut().zip(&trees) {
            if let (Some(schema), Some(node)) =
                (version.schema.as_mut().and_then(|s| s.open_api_v3_schema.as_mut()), tree)
            {
                *schema = super::lower(node);
            }
        }
        size = applied_size(crd);
    }
    Ok(Fitted { before, after: size, dropped: dropped.len(), of })
}

/// A version's schema as the IR (kubegen's CRDs are lowered from it, so they read back).
fn version_node(
    version: &k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinitionVersion,
) -> Option<Node> {
    let schema = version.schema.as_ref()?.open_api_v3_schema.as_ref()?;
    Node::from_value(&serde_json::to_value(schema).ok()?)
}

/// Calls `f` on every node below `node` with its place in the walk and its depth, in one
/// fixed order.
fn visit(node: &mut Node, depth: usize, at: &mut usize, f: &mut impl FnMut(&mut Node, usize, usize)) {
    f(node, *at, depth);
    *at += 1;
    for child in node.properties.iter_mut().flat_map(|p| p.values_mut()) {
        visit(child, depth + 1, at, f);
    }
    if let Some(items) = &mut node.items {
        visit(items, depth + 1, at, f);
    }
    if let Some(kubegen_core::schema::node::Additional::Schema(values)) = &mut node.additional_properties {
        visit(values, depth + 1, at, f);
    }
    for child in [&mut node.all_of, &mut node.any_of, &mut node.one_of].into_iter().flatten().flatten() {
        visit(child, depth + 1, at, f);
    }
    if let Some(not) = &mut node.not {
        visit(not, depth + 1, at, f);
    }
}

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

/// The bytes `kubectl apply` would store in the last-applied annotation: the CRD's JSON as
/// Go writes it, which escapes `<`, `>` and `&` as `\u003c` (six bytes for one) and
/// U+2028 and U+2029 likewise.
pub fn applied_size(crd: &CustomResourceDefinition) -> usize {
    let Ok(json) = serde_json::to_string(crd) else { return 0 };
    let escaped: usize = json
        .chars()
        .map(|c| match c {
            '<' | '>' | '&' => 5,
            '\u{2028}' | '\u{2029}' => 3,
            _ => 0,
        })
        .sum();
    json.len() + escaped
}

/// The most the CRD's JSON may be for client-side `kubectl apply`: the annotation limit,
/// less the last-applied annotation's key and newline and the CRD's own annotations (the
/// limit counts every annotation of the object).
pub fn annotation_budget(crd: &CustomResourceDefinition) -> usize {
    const KEY: &str = "kubectl.kubernetes.io/last-applied-configuration";
    let own: usize = crd.metadata.annotations.iter().flatten().map(|(k, v)| k.len() + v.len()).sum();
    LAST_APPLIED_LIMIT.saturating_sub(KEY.len() + 1 + own)
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
    fn a_budget_drops_the_deepest_descriptions_first_and_keeps_the_rest() {
        let text = |n: usize| format!("Text {n}: {}.", "word ".repeat(n).trim_end());
        let schema = json!({
            "type": "object", "description": text(10),
            "properties": {
                "spec": {"type": "object", "description": text(20), "properties": {
                    "template": {"type": "object", "description": text(5), "properties": {
                        "deep": {"type": "string", "description": text(40)},
                        "deeper": {"type": "object", "description": text(3), "properties": {
                            "deepest": {"type": "integer", "description": text(30), "minimum": 1}
                        }}
                    }},
                    "description": {"type": "string", "description": text(2)}
                }}
            }
        });
        let crd = || {
            let mut crd = CustomResourceDefinition::default();
            crd.spec.versions = vec![CustomResourceDefinitionVersion {
                schema: Some(CustomResourceValidation {
                    open_api_v3_schema: serde_json::from_value(schema.clone()).ok(),
                }),
                ..Default::default()
            }];
            crd
        };
        let full = applied_size(&crd());
        // Fits: untouched.
        let mut c = crd();
        assert_eq!(fit_descriptions(&mut c, full), Ok(Fitted { before: full, after: full, dropped: 0, of: 7 }));
        assert_eq!(c, crd());
        // A little over: the deepest goes first, the rest stay, and so does every other fact.
        let mut c = crd();
        let fitted = fit_descriptions(&mut c, full - 50).unwrap();
        assert!(fitted.after <= full - 50 && fitted.dropped == 1, "{fitted:?}");
        let json = serde_json::to_string(&c).unwrap();
        assert!(!json.contains(&text(30)) && json.contains(&text(40)) && json.contains("\"minimum\":1"), "{json}");
        // The property named `description` is a field, not a description: it stays.
        assert!(
            json.contains("\"description\":{\"description\":\"Text 2: word word.\",\"type\":\"string\"}"),
            "{json}"
        );
        // More over: the top-level description is the last to go.
        let mut c = crd();
        let fitted = fit_descriptions(&mut c, full - 600).unwrap();
        let json = serde_json::to_string(&c).unwrap();
        assert!(json.contains(&text(10)), "{fitted:?} {json}");
        // Cannot fit: said, with the size without descriptions.
        let mut c = crd();
        let bare = fit_descriptions(&mut c, 10).unwrap_err();
        assert!(bare < full && !serde_json::to_string(&c).unwrap().contains("Text "));
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
