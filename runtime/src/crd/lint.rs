//! Offline checks of a CRD's schema that the API server makes when it reads the CRD and
//! that need the whole schema — a list-map key on a nested type, a default against the
//! schema it ends up in. `codegen-cli manifests` refuses to write a CRD that fails them.

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use serde_json::Value;

/// Every problem found, as `<crd> <version>: <path>: <what>`.
pub fn lint(crd: &CustomResourceDefinition) -> Vec<String> {
    let name = crd.metadata.name.clone().unwrap_or_default();
    let mut out = Vec::new();
    for v in &crd.spec.versions {
        let Some(schema) = v.schema.as_ref().and_then(|s| s.open_api_v3_schema.as_ref()) else { continue };
        let schema = serde_json::to_value(schema).unwrap_or(Value::Null);
        let mut problems = Vec::new();
        walk(&schema, "", &mut problems);
        out.extend(problems.into_iter().map(|p| format!("{name} {}: {p}", v.name)));
    }
    out
}

fn walk(s: &Value, path: &str, out: &mut Vec<String>) {
    let here = if path.is_empty() { "<root>" } else { path };
    if let Some(default) = s.get("default") {
        let mut scratch = Vec::new();
        crate::validate::check_value(s, default, here, &mut scratch);
        for v in scratch {
            out.push(format!(
                "{here}: the default {default} does not fit its own schema ({}); the API server refuses the CRD",
                v.message
            ));
        }
    }
    if s.get("uniqueItems") == Some(&Value::Bool(true)) {
        out.push(format!("{here}: uniqueItems: true is refused by the API server; use x-kubernetes-list-type: set"));
    }
    if s.get("x-kubernetes-list-type").and_then(Value::as_str) == Some("map") {
        let item = s.get("items");
        let required: Vec<&str> = item
            .and_then(|i| i.get("required"))
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        for key in s
            .get("x-kubernetes-list-map-keys")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            match item.and_then(|i| i.get("properties")).and_then(|p| p.get(key)) {
                None => out.push(format!("{here}: list-map key `{key}` is not a field of the items")),
                Some(prop) if !required.contains(&key) && prop.get("default").is_none() => out.push(format!(
                    "{here}: list-map key `{key}` must be required or have a default (make the field non-optional, or give it +kubebuilder:default)"
                )),
                _ => {}
            }
        }
    }
    if let Some(serde_json::Value::Object(props)) = s.get("properties") {
        for (k, sub) in props {
            walk(sub, &if path.is_empty() { k.clone() } else { format!("{path}.{k}") }, out);
        }
    }
    if let Some(items) = s.get("items") {
        walk(items, &format!("{path}[*]"), out);
    }
    if let Some(additional) = s.get("additionalProperties").filter(|a| a.is_object()) {
        walk(additional, &format!("{path}[*]"), out);
    }
}
