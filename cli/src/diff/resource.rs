//! What only a CRD says of a kind — which versions exist, are served and stored, its
//! scope, printer columns, selectable fields and subresources — compared version by
//! version; each version's schema then goes to [`super::schema`] as the typed IR.

use std::collections::BTreeMap;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::{
    CustomResourceDefinition, CustomResourceDefinitionVersion,
};
use kubegen_core::schema::node::Node;
use serde_json::Value;

use super::{At, Finding, schema};

/// `group/Kind`, how findings name a CRD.
pub fn kind_name(crd: &CustomResourceDefinition) -> String {
    format!("{}/{}", crd.spec.group, crd.spec.names.kind)
}

/// Compares CRDs matched by name (`<plural>.<group>`, what the API server keys them by).
pub fn compare(before: &[CustomResourceDefinition], after: &[CustomResourceDefinition]) -> Vec<Finding> {
    let by_name = |crds: &[CustomResourceDefinition]| -> BTreeMap<String, CustomResourceDefinition> {
        crds.iter().map(|c| (c.metadata.name.clone().unwrap_or_default(), c.clone())).collect()
    };
    let (old, new) = (by_name(before), by_name(after));
    let mut findings = Vec::new();
    for (name, old) in &old {
        let at = At { kind: kind_name(old), ..At::default() };
        match new.get(name) {
            None => findings.push(at.finding(
                "kind-removed",
                format!("the CRD {name} is gone: its stored objects become unreachable and its clients fail"),
            )),
            Some(new) => compare_crd(&at, old, new, &mut findings),
        }
    }
    findings
}

fn compare_crd(at: &At, old: &CustomResourceDefinition, new: &CustomResourceDefinition, out: &mut Vec<Finding>) {
    if old.spec.scope != new.spec.scope {
        out.push(at.finding(
            "scope-changed",
            format!(
                "the scope changed from {} to {}: every object's URL changes and stored objects are not moved",
                old.spec.scope, new.spec.scope
            ),
        ));
    }
    unhandled_spec(at, old, new, out);
    let storage = |c: &CustomResourceDefinition| c.spec.versions.iter().find(|v| v.storage).map(|v| v.name.clone());
    if let (Some(was), Some(now)) = (storage(old), storage(new))
        && was != now
        && !new.spec.versions.iter().any(|v| v.name == was && v.served)
    {
        out.push(at.finding(
            "storage-version-changed",
            format!(
                "the storage version changed from {was} to {now} and {was} is no longer served: objects stored as {was} are read only through conversion; serve {was} until a storage migration has rewritten them"
            ),
        ));
    }
    for old_v in &old.spec.versions {
        let at = At { version: Some(old_v.name.clone()), ..at.clone() };
        let Some(new_v) = new.spec.versions.iter().find(|v| v.name == old_v.name) else {
            out.push(at.finding(
                "version-removed",
                format!(
                    "version {} is gone{}",
                    old_v.name,
                    if old_v.storage { ", and it was the storage version" } else { "" }
                ),
            ));
            continue;
        };
        if old_v.served && !new_v.served {
            out.push(at.finding(
                "version-unserved",
                format!("version {} is no longer served: its clients get 404", old_v.name),
            ));
        }
        compare_version(&at, old_v, new_v, out);
    }
}

/// The spec's other facts: a change to the names or conversion is not one `diff` reads.
fn unhandled_spec(at: &At, old: &CustomResourceDefinition, new: &CustomResourceDefinition, out: &mut Vec<Finding>) {
    let (a, b) = (&old.spec.names, &new.spec.names);
    let lost = |x: &Option<Vec<String>>, y: &Option<Vec<String>>| -> Vec<String> {
        x.iter().flatten().filter(|n| !y.iter().flatten().any(|m| m == *n)).cloned().collect()
    };
    let names =
        [("shortNames", lost(&a.short_names, &b.short_names)), ("categories", lost(&a.categories, &b.categories))];
    for (key, gone) in names {
        if !gone.is_empty() {
            out.push(at.finding(
                "unhandled",
                format!("names.{key} lost {}: `kubectl get` by those names stops working", gone.join(", ")),
            ));
        }
    }
    if a.singular != b.singular || a.list_kind != b.list_kind {
        out.push(at.finding("unhandled", "names.singular or names.listKind changed".into()));
    }
    if old.spec.conversion != new.spec.conversion {
        out.push(at.finding(
            "unhandled",
            "spec.conversion changed: diff does not compare conversion strategies or webhooks".into(),
        ));
    }
    if old.spec.preserve_unknown_fields != new.spec.preserve_unknown_fields {
        out.push(at.finding("unhandled", "spec.preserveUnknownFields changed".into()));
    }
}

fn compare_version(
    at: &At,
    old: &CustomResourceDefinitionVersion,
    new: &CustomResourceDefinitionVersion,
    out: &mut Vec<Finding>,
) {
    for column in old.additional_printer_columns.iter().flatten() {
        let kept = new.additional_printer_columns.iter().flatten().any(|c| c.name == column.name);
        if !kept {
            out.push(at.finding(
                "printer-column-removed",
                format!("the printer column {:?} ({}) is gone from `kubectl get`", column.name, column.json_path),
            ));
        }
    }
    for field in old.selectable_fields.iter().flatten() {
        let kept = new.selectable_fields.iter().flatten().any(|f| f.json_path == field.json_path);
        if !kept {
            out.push(at.finding(
                "selectable-field-removed",
                format!(
                    "the selectable field {} is gone: list and watch requests selecting on it are refused",
                    field.json_path
                ),
            ));
        }
    }
    let (old_sub, new_sub) =
        (old.subresources.clone().unwrap_or_default(), new.subresources.clone().unwrap_or_default());
    if old_sub.status.is_some() && new_sub.status.is_none() {
        out.push(at.finding(
            "subresource-removed",
            "the status subresource is gone: writes to /status fail, and status is written with the object".into(),
        ));
    }
    match (&old_sub.scale, &new_sub.scale) {
        (Some(_), None) => out.push(at.finding(
            "subresource-removed",
            "the scale subresource is gone: `kubectl scale` and autoscalers stop working".into(),
        )),
        (Some(a), Some(b)) if a != b => out.push(at.finding(
            "unhandled",
            format!(
                "the scale subresource's paths changed (spec {} → {}, status {} → {})",
                a.spec_replicas_path, b.spec_replicas_path, a.status_replicas_path, b.status_replicas_path
            ),
        )),
        _ => {}
    }
    match (schema_of(old), schema_of(new)) {
        (Ok(Some(a)), Ok(Some(b))) => schema::compare(at, &a, &b, out),
        (Ok(None), Ok(None)) => {}
        (Ok(Some(_)), Ok(None)) => {
            out.push(at.finding("unhandled", "the version no longer has a schema".into()));
        }
        (Ok(None), Ok(Some(_))) => {
            out.push(at.finding("unhandled", "the version has a schema where it had none".into()));
        }
        (Err(e), _) | (_, Err(e)) => out.push(at.finding("unhandled", e)),
    }
}

/// A version's `openAPIV3Schema` as the typed IR. The IR reads what a structural
/// schema may hold; a key it does not read is an error (it would not be compared).
fn schema_of(version: &CustomResourceDefinitionVersion) -> Result<Option<Node>, String> {
    let Some(props) = version.schema.as_ref().and_then(|s| s.open_api_v3_schema.as_ref()) else { return Ok(None) };
    let raw = serde_json::to_value(props).map_err(|e| format!("the schema does not serialize: {e}"))?;
    let node = Node::from_value(&raw).ok_or("the schema is not one kubegen's schema model reads")?;
    let mut unread = Vec::new();
    unread_keys(&raw, &node.to_value(), "", &mut unread);
    if !unread.is_empty() {
        return Err(format!(
            "the schema has keys kubegen's schema model does not read, not compared: {}",
            unread.join(", ")
        ));
    }
    Ok(Some(node))
}

/// Keys of `raw` the round trip through the IR lost (`spec.x.$ref`).
fn unread_keys(raw: &Value, read: &Value, path: &str, out: &mut Vec<String>) {
    let (Value::Object(raw), Value::Object(read)) = (raw, read) else { return };
    for (key, value) in raw {
        let at = if path.is_empty() { key.clone() } else { format!("{path}.{key}") };
        match read.get(key) {
            None => out.push(at),
            Some(r) => match (value, r) {
                (Value::Array(xs), Value::Array(ys)) => {
                    for (x, y) in xs.iter().zip(ys) {
                        unread_keys(x, y, &at, out);
                    }
                }
                _ => unread_keys(value, r, &at, out),
            },
        }
    }
}
