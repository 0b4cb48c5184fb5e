//! What only a CRD says of a kind — its names, which versions exist, are served,
//! deprecated and stored, its scope, printer columns, selectable fields and
//! subresources — compared version by version; each version's schema then goes to
//! [`super::schema`] as the typed IR. Every field of the spec and of a version is
//! destructured where it is compared, so none can change without a check reading it,
//! an `unhandled`, or a word on why it does not matter.

use std::collections::BTreeMap;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::{
    CustomResourceColumnDefinition, CustomResourceDefinition, CustomResourceDefinitionNames,
    CustomResourceDefinitionSpec, CustomResourceDefinitionVersion, CustomResourceSubresources,
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

/// Every field of the spec is destructured here, so a field k8s-openapi gains does not
/// compile until it is compared or named as not affecting compatibility.
fn compare_crd(at: &At, old: &CustomResourceDefinition, new: &CustomResourceDefinition, out: &mut Vec<Finding>) {
    // The group is half of the name CRDs are matched by: another group is another CRD.
    let CustomResourceDefinitionSpec { conversion, group: _, names, preserve_unknown_fields, scope, versions } =
        &old.spec;
    if *scope != new.spec.scope {
        out.push(at.finding(
            "scope-changed",
            format!(
                "the scope changed from {scope} to {}: every object's URL changes and stored objects are not moved",
                new.spec.scope
            ),
        ));
    }
    compare_names(at, names, &new.spec.names, out);
    if *conversion != new.spec.conversion {
        out.push(at.finding(
            "unhandled",
            "spec.conversion changed: diff does not compare conversion strategies or webhooks".into(),
        ));
    }
    if *preserve_unknown_fields != new.spec.preserve_unknown_fields {
        out.push(at.finding("unhandled", "spec.preserveUnknownFields changed".into()));
    }
    let storage = |vs: &[CustomResourceDefinitionVersion]| vs.iter().find(|v| v.storage).map(|v| v.name.clone());
    if let (Some(was), Some(now)) = (storage(versions), storage(&new.spec.versions))
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
    for old_v in versions {
        let at = At { version: Some(old_v.name.clone()), ..at.clone() };
        match new.spec.versions.iter().find(|v| v.name == old_v.name) {
            None => out.push(at.finding(
                "version-removed",
                format!(
                    "version {} is gone{}",
                    old_v.name,
                    if old_v.storage { ", and it was the storage version" } else { "" }
                ),
            )),
            Some(new_v) => compare_version(&at, old_v, new_v, out),
        }
    }
}

/// `names`: the kind and plural name the objects and their URLs (`kind-renamed`); the
/// other names are how people and tools find them (`names-changed`). Names added are
/// not reported.
fn compare_names(
    at: &At,
    old: &CustomResourceDefinitionNames,
    new: &CustomResourceDefinitionNames,
    out: &mut Vec<Finding>,
) {
    // listKind and singular are compared below with the server's defaults filled in.
    let CustomResourceDefinitionNames { categories, kind, list_kind: _, plural, short_names, singular: _ } = old;
    if *kind != new.kind {
        out.push(at.finding(
            "kind-renamed",
            format!(
                "names.kind changed from {kind} to {}: requests and manifests sending kind {kind} are refused, and code naming {kind} stops compiling",
                new.kind
            ),
        ));
    }
    if *plural != new.plural {
        out.push(at.finding(
            "kind-renamed",
            format!(
                "names.plural changed from {plural} to {}: every object's URL changes, and `kubectl get {plural}` stops working",
                new.plural
            ),
        ));
    }
    // Unset, the server fills in `<kind>List` and the kind in lower case; when the kind
    // changed, so do those, and `kind-renamed` says it.
    let list = |n: &CustomResourceDefinitionNames| n.list_kind.clone().unwrap_or_else(|| format!("{}List", n.kind));
    let one = |n: &CustomResourceDefinitionNames| n.singular.clone().unwrap_or_else(|| n.kind.to_lowercase());
    let same_kind = *kind == new.kind;
    if list(old) != list(new) && same_kind {
        out.push(at.finding(
            "names-changed",
            format!(
                "names.listKind changed from {} to {}: list responses carry the new kind, which clients decoding lists by kind do not expect",
                list(old),
                list(new)
            ),
        ));
    }
    if one(old) != one(new) && same_kind {
        out.push(at.finding(
            "names-changed",
            format!(
                "names.singular changed from {} to {}: `kubectl get {}` stops working",
                one(old),
                one(new),
                one(old)
            ),
        ));
    }
    let lost = |x: &Option<Vec<String>>, y: &Option<Vec<String>>| -> Vec<String> {
        x.iter().flatten().filter(|n| !y.iter().flatten().any(|m| m == *n)).cloned().collect()
    };
    let gone = lost(short_names, &new.short_names);
    if !gone.is_empty() {
        out.push(at.finding(
            "names-changed",
            format!("names.shortNames lost {}: `kubectl get {}` stops working", gone.join(", "), gone[0]),
        ));
    }
    let gone = lost(categories, &new.categories);
    if !gone.is_empty() {
        out.push(at.finding(
            "names-changed",
            format!("names.categories lost {}: `kubectl get {}` no longer lists this kind", gone.join(", "), gone[0]),
        ));
    }
}

/// A version's facts, destructured as the spec's are: the deprecation warning's text is
/// the only one not compared (wording).
fn compare_version(
    at: &At,
    old: &CustomResourceDefinitionVersion,
    new: &CustomResourceDefinitionVersion,
    out: &mut Vec<Finding>,
) {
    let CustomResourceDefinitionVersion {
        additional_printer_columns,
        deprecated,
        deprecation_warning: _,
        name,
        schema: _,
        selectable_fields,
        served,
        // Read for the CRD as a whole (`storage-version-changed`).
        storage: _,
        subresources,
    } = old;
    if *served && !new.served {
        out.push(at.finding("version-unserved", format!("version {name} is no longer served: its clients get 404")));
    }
    if *deprecated != Some(true) && new.deprecated == Some(true) {
        let warning = match &new.deprecation_warning {
            Some(w) => format!("{w:?}"),
            None => "the server's default".into(),
        };
        out.push(at.finding(
            "version-deprecated",
            format!(
                "version {name} is deprecated: every request to it gets a warning ({warning}), and kubectl shows it"
            ),
        ));
    }
    compare_columns(at, additional_printer_columns.as_deref().unwrap_or_default(), new, out);
    for field in selectable_fields.iter().flatten() {
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
    let CustomResourceSubresources { scale, status } = subresources.clone().unwrap_or_default();
    let new_sub = new.subresources.clone().unwrap_or_default();
    match (status.is_some(), new_sub.status.is_some()) {
        (true, false) => out.push(at.finding(
            "subresource-removed",
            "the status subresource is gone: writes to /status fail, and status is written with the object".into(),
        )),
        (false, true) => out.push(at.finding(
            "status-subresource-added",
            "the status subresource was added: updates and patches of the object now ignore its status (a client writing status with the object loses it silently) and must go to /status".into(),
        )),
        _ => {}
    }
    match (&scale, &new_sub.scale) {
        (Some(_), None) => out.push(at.finding(
            "subresource-removed",
            "the scale subresource is gone: `kubectl scale` and autoscalers stop working".into(),
        )),
        (Some(a), Some(b)) if a != b => {
            let path = |p: &Option<String>| p.clone().unwrap_or_else(|| "none".into());
            let paths = [
                ("specReplicasPath", a.spec_replicas_path.clone(), b.spec_replicas_path.clone()),
                ("statusReplicasPath", a.status_replicas_path.clone(), b.status_replicas_path.clone()),
                ("labelSelectorPath", path(&a.label_selector_path), path(&b.label_selector_path)),
            ];
            let changed: Vec<String> =
                paths.iter().filter(|(_, x, y)| x != y).map(|(key, x, y)| format!("{key} {x} → {y}")).collect();
            out.push(at.finding(
                "unhandled",
                format!(
                    "the scale subresource's paths changed ({}): `kubectl scale` and autoscalers read and write other fields",
                    changed.join(", ")
                ),
            ))
        }
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

/// Printer columns are matched by name. A column kept under its name but showing
/// something else, or moved among the others, is what a script reading `kubectl get`
/// output does not notice; its description is not compared.
fn compare_columns(
    at: &At,
    old: &[CustomResourceColumnDefinition],
    new: &CustomResourceDefinitionVersion,
    out: &mut Vec<Finding>,
) {
    let now = new.additional_printer_columns.as_deref().unwrap_or_default();
    for column in old {
        let CustomResourceColumnDefinition { description: _, format, json_path, name, priority, type_ } = column;
        let Some(c) = now.iter().find(|c| c.name == *name) else {
            out.push(at.finding(
                "printer-column-removed",
                format!("the printer column {name:?} ({json_path}) is gone from `kubectl get`"),
            ));
            continue;
        };
        let mut changed = Vec::new();
        if *json_path != c.json_path {
            changed.push(format!("jsonPath {json_path} → {}", c.json_path));
        }
        if *type_ != c.type_ {
            changed.push(format!("type {type_} → {}", c.type_));
        }
        if *format != c.format {
            let f = |f: &Option<String>| f.clone().unwrap_or_else(|| "none".into());
            changed.push(format!("format {} → {}", f(format), f(&c.format)));
        }
        let (was, is) = (priority.unwrap_or(0), c.priority.unwrap_or(0));
        if was != is {
            let shown = |p: i32| if p == 0 { "shown by default" } else { "shown with -o wide only" };
            changed.push(format!("priority {was} → {is}, {}", shown(is)));
        }
        if !changed.is_empty() {
            out.push(at.finding(
                "printer-column-changed",
                format!(
                    "the printer column {name:?} shows something else ({}): scripts reading it in `kubectl get` output read another value",
                    changed.join(", ")
                ),
            ));
        }
    }
    let kept = |cs: &[CustomResourceColumnDefinition], other: &[CustomResourceColumnDefinition]| -> Vec<String> {
        cs.iter().filter(|c| other.iter().any(|o| o.name == c.name)).map(|c| c.name.clone()).collect()
    };
    let (was, is) = (kept(old, now), kept(now, old));
    if was != is {
        out.push(at.finding(
            "printer-column-changed",
            format!(
                "the printer columns are in another order ({} → {}): scripts reading `kubectl get` output by position read other columns",
                was.join(", "),
                is.join(", ")
            ),
        ));
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
