//! Offline checks of a CRD's schema that the API server makes when it reads the CRD and
//! that need the whole schema — a list-map key on a nested type, a default against the
//! schema it ends up in. `codegen-cli manifests` refuses to write a CRD that fails them.

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kubegen_core::schema::node::{Node, Step as NodeStep};
use kubegen_core::schema::validate::check_node;

/// Every problem found, as `<crd> <version>: <path>: <what>`.
pub fn lint(crd: &CustomResourceDefinition) -> Vec<String> {
    let name = crd.metadata.name.clone().unwrap_or_default();
    let mut out = Vec::new();
    for v in &crd.spec.versions {
        if v.schema.as_ref().and_then(|s| s.open_api_v3_schema.as_ref()).is_none() {
            continue;
        }
        let node = super::version_schema(v).unwrap_or_default();
        let mut problems = Vec::new();
        node.walk(&mut |path: &[NodeStep<'_>], n: &Node| node_problems(path, n, &mut problems));
        problems.extend(kubegen_cel::schema::check(&node).refusals.into_iter().map(cel_refusal));
        let columns = v.additional_printer_columns.iter().flatten().map(|c| ("printer column", &c.json_path));
        let scale = v.subresources.as_ref().and_then(|s| s.scale.as_ref()).into_iter().flat_map(|s| {
            [
                ("scale spec replicas path", &s.spec_replicas_path),
                ("scale status replicas path", &s.status_replicas_path),
            ]
            .into_iter()
            .chain(s.label_selector_path.as_ref().map(|p| ("scale label selector path", p)))
        });
        let selectable = v.selectable_fields.iter().flatten().map(|f| ("selectable field", &f.json_path));
        for (what, path) in columns.chain(scale).chain(selectable) {
            if let Err(why) = resolve(&node, path) {
                problems.push(format!("{what} `{path}`: {why}"));
            }
        }
        out.extend(problems.into_iter().map(|p| format!("{name} {}: {p}", v.name)));
    }
    out
}

/// A rule the API server would refuse, in words that find the marker: the node, the
/// rule as written, and the server's reason.
fn cel_refusal(r: kubegen_cel::schema::Refusal) -> String {
    let here = if r.path.is_empty() { "<root>" } else { r.path.as_str() };
    if r.rule.is_empty() {
        return format!("{here}: {}", r.problem.message);
    }
    format!(
        "{here}: x-kubernetes-validations[{}].{} of the rule `{}` is refused by the API server: {}",
        r.index,
        r.problem.part.key(),
        r.rule,
        r.problem.message
    )
}

/// One step of a JSONPath: a field, or any item or entry (`[0]`, `[*]`, a filter).
#[derive(Debug, PartialEq)]
enum Step {
    Field(String),
    Any,
}

fn steps(path: &str) -> Result<Vec<Step>, String> {
    let mut out = Vec::new();
    let mut rest = path;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('.') {
            let end = r.find(['.', '[']).unwrap_or(r.len());
            if end == 0 {
                return Err("it has an empty segment".into());
            }
            out.push(Step::Field(r[..end].to_string()));
            rest = &r[end..];
        } else if let Some(r) = rest.strip_prefix('[') {
            let end = r.find(']').ok_or("a `[` is never closed")?;
            let inner = r[..end].trim();
            let quoted = inner.strip_prefix('\'').and_then(|i| i.strip_suffix('\''));
            let quoted = quoted.or_else(|| inner.strip_prefix('"').and_then(|i| i.strip_suffix('"')));
            out.push(match quoted {
                Some(key) => Step::Field(key.to_string()),
                None => Step::Any,
            });
            rest = &r[end + 1..];
        } else {
            return Err(format!("`{rest}` is neither `.field` nor `[...]`"));
        }
    }
    Ok(out)
}

/// Follows `path` through `schema`; an error names the first step the schema lacks.
/// Objects the schema leaves open (metadata, embedded or preserved ones) end the walk.
fn resolve(schema: &Node, path: &str) -> Result<(), String> {
    let mut node = schema;
    let mut at = String::new();
    for step in steps(path)? {
        let open = node.preserve_unknown_fields == Some(true) || node.int_or_string.is_some();
        let props = node.properties.as_ref();
        let additional = node.map_values();
        let next = match &step {
            Step::Field(name) => props.and_then(|p| p.get(name)).or(additional),
            Step::Any => node.items.as_deref().or(additional),
        };
        match next {
            Some(n) => node = n,
            None if open || (props.is_none() && node.items.is_none() && additional.is_none()) => {
                // An object whose fields the schema does not list.
                let ty = node.type_.as_deref();
                if ty.is_none_or(|t| t == "object") {
                    return Ok(());
                }
                let ty = match ty {
                    Some(t @ ("integer" | "array")) => format!("an {t}"),
                    Some(t) => format!("a {t}"),
                    None => "a value".into(),
                };
                let step = match step {
                    Step::Field(name) => format!("field `{name}`"),
                    Step::Any => "items".into(),
                };
                return Err(format!("`{at}` is {ty}: it has no {step}"));
            }
            None => {
                let here = if at.is_empty() { "the object".to_string() } else { format!("`{at}`") };
                let has: Vec<&str> = props.map(|p| p.keys().map(String::as_str).collect()).unwrap_or_default();
                return Err(match step {
                    Step::Field(name) => format!("{here} has no field `{name}`; it has {}", has.join(", ")),
                    Step::Any => format!("{here} is not a list or map"),
                });
            }
        }
        match step {
            Step::Field(name) => at = format!("{at}.{name}"),
            Step::Any => at.push_str("[*]"),
        }
    }
    Ok(())
}

/// A node's path as the lint names it: `spec.ports[*].name`.
fn shown_path(path: &[NodeStep<'_>]) -> String {
    let mut out = String::new();
    for step in path {
        match step {
            NodeStep::Property(name) if out.is_empty() => out.push_str(name),
            NodeStep::Property(name) => out = format!("{out}.{name}"),
            _ => out.push_str("[*]"),
        }
    }
    out
}

/// The problems of one node; value-validation junctors (`allOf`, ...) hold no defaults
/// or list types of their own, and are not entered.
fn node_problems(path: &[NodeStep<'_>], s: &Node, out: &mut Vec<String>) -> bool {
    if matches!(path.last(), Some(NodeStep::AllOf(_) | NodeStep::AnyOf(_) | NodeStep::OneOf(_) | NodeStep::Not)) {
        return false;
    }
    let path = shown_path(path);
    let here = if path.is_empty() { "<root>" } else { path.as_str() };
    if let Some(default) = &s.default {
        let mut scratch = Vec::new();
        check_node(s, default, here, &mut scratch);
        for v in scratch {
            out.push(format!(
                "{here}: the default {default} does not fit its own schema ({}); the API server refuses the CRD",
                v.message
            ));
        }
    }
    if s.unique_items == Some(true) {
        out.push(format!("{here}: uniqueItems: true is refused by the API server; use x-kubernetes-list-type: set"));
    }
    if s.list_type.as_deref() == Some("map") {
        let item = s.items.as_deref();
        let required: &[String] = item.and_then(|i| i.required.as_deref()).unwrap_or_default();
        for key in s.list_map_keys.iter().flatten() {
            match item.and_then(|i| i.properties.as_ref()).and_then(|p| p.get(key)) {
                None => out.push(format!("{here}: list-map key `{key}` is not a field of the items")),
                Some(prop) if !required.contains(key) && prop.default.is_none() => out.push(format!(
                    "{here}: list-map key `{key}` must be required or have a default (make the field non-optional, or give it +kubebuilder:default)"
                )),
                _ => {}
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn paths_are_followed_to_their_last_step() {
        let schema = Node::from_value(&json!({"type": "object", "properties": {
            "metadata": {"type": "object"},
            "spec": {"type": "object", "properties": {
                "size": {"type": "integer"},
                "server": {"type": "object", "properties": {"port": {"type": "integer"}}},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                "conditions": {"type": "array", "items": {"type": "object", "properties": {"type": {"type": "string"}}}}
            }}
        }}))
        .expect("a schema");
        for good in [
            ".spec.size",
            ".spec.server.port",
            ".spec.labels.app",
            ".spec.conditions[0].type",
            ".spec.conditions[?(@.type==\"Ready\")].type",
            ".metadata.labels.app",
            ".spec['size']",
        ] {
            assert_eq!(resolve(&schema, good), Ok(()), "{good}");
        }
        assert_eq!(
            resolve(&schema, ".spec.server.prot").unwrap_err(),
            "`.spec.server` has no field `prot`; it has port"
        );
        assert_eq!(
            resolve(&schema, ".spec.sise").unwrap_err(),
            "`.spec` has no field `sise`; it has conditions, labels, server, size"
        );
        assert_eq!(resolve(&schema, ".spec.size.x").unwrap_err(), "`.spec.size` is an integer: it has no field `x`");
        assert!(resolve(&schema, ".spec.size[0").unwrap_err().contains("never closed"));
    }
}
