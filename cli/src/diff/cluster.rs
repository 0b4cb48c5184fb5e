//! `--cluster`: the objects a cluster already stores, checked against the new schema.
//! A finding says a change *can* break stored objects; whether any stored object is
//! affected is a question about data, answered here. For each kind with findings, the
//! cluster's objects are listed (read-only: the CRD is read with get, the objects with
//! list, page by page) in the version compared — the API server returns every object in
//! the version asked for, converting it from the version it was stored in — and each is
//! validated in-process against that version's new schema (kubegen's `Validator`:
//! defaults, then the structural checks, then the CEL rules).
//!
//! The next update of an object is not known, so each violation carries what decides
//! it on a server with validation ratcheting (KEP-4008, GA on every release kubegen supports:
//! 1.35 and later): the value whose staying unchanged excuses the violation — the violating value
//! itself, or for an item of an atomic or set list (which the server cannot pair with
//! its old item) the whole list — or none: a transition rule (`oldSelf`) is never
//! ratcheted, and a value holding fields its schema does not declare (the root, with
//! metadata) is never found unchanged.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, ApiResource, DynamicObject, ListParams};
use kubegen::validate::{Validator, Violation};
use kubegen_cel::eval::Programs;
use kubegen_core::schema::node::Node;
use kubegen_core::schema::validate::apply_defaults;
use serde::Serialize;
use serde_json::Value;

use super::Finding;
use super::resource::kind_name;

/// What the verdicts assume, printed with them.
pub const ASSUMES: &str = "objects are read from the cluster in the version compared and checked against that version's new schema by kubegen's in-process validation (defaults, structural checks, CEL). \
Each violation refuses a create of the same object, an update that changes the value named after `unless unchanged` (for an item of an atomic or set list: the whole list), and every update on a server without validation ratcheting (older than the releases kubegen supports); \
on every Kubernetes release kubegen supports (1.35 and later, where validation ratcheting is GA) an update that leaves that value as stored passes. \
A violation without it no update excuses: a transition rule (oldSelf) failing with the stored value as both old and new, or a value the server never finds unchanged (the root, which holds metadata; a value with fields its schema does not declare): it refuses every update, a label or a status write too. \
Not modelled: admission webhooks, CEL cost limits, formats other than date and date-time, changes a conversion webhook would make";

/// The objects of every kind with findings, as the new CRDs would judge them.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterReport {
    /// The API server's URL.
    pub server: String,
    pub assumes: &'static str,
    pub kinds: Vec<KindReport>,
    /// Kinds or versions not checked, and why.
    pub notes: Vec<String>,
}

/// One kind in one version: how many objects were listed, and those with violations.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KindReport {
    /// `group/Kind`, as findings name it.
    pub kind: String,
    pub version: String,
    pub listed: usize,
    pub objects: Vec<StoredObject>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredObject {
    /// `namespace/name`, or `name` for a cluster-scoped kind.
    pub name: String,
    /// A violation no update excuses (a transition rule, the root): the object's next
    /// update is refused whatever it changes, on every server.
    pub refused_on_every_update: bool,
    pub violations: Vec<StoredViolation>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredViolation {
    /// The field, as the server prints it (`spec.items[0].size`).
    pub path: String,
    /// The server's wording.
    pub message: String,
    /// The value that, left as stored, lets an update pass on a ratcheting server; `None`
    /// when nothing does (a transition rule, a value never found unchanged).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unless_unchanged: Option<String>,
}

/// A kube client from `kubeconfig`, else the default kubeconfig (`KUBECONFIG`,
/// `~/.kube/config`) or the in-cluster service account; with the server's URL.
pub async fn client(kubeconfig: Option<&Path>) -> Result<(kube::Client, String)> {
    let config = match kubeconfig {
        Some(path) => {
            let file = kube::config::Kubeconfig::read_from(path)
                .with_context(|| format!("reading the kubeconfig {}", path.display()))?;
            kube::Config::from_custom_kubeconfig(file, &Default::default())
                .await
                .with_context(|| format!("the kubeconfig {}", path.display()))?
        }
        None => kube::Config::infer().await.context("no kubeconfig found (give --kubeconfig)")?,
    };
    let server = config.cluster_url.to_string();
    Ok((kube::Client::try_from(config).context("a client for the cluster")?, server))
}

/// Lists the stored objects of every kind with wire findings, in each version a finding
/// names (the new storage version for findings about the kind as a whole), and
/// validates them against `after`, the new CRDs.
pub async fn check(
    client: kube::Client,
    server: String,
    after: &[CustomResourceDefinition],
    findings: &[Finding],
) -> Result<ClusterReport> {
    let mut versions: BTreeMap<String, Vec<Option<String>>> = BTreeMap::new();
    for f in findings.iter().filter(|f| f.category == super::Category::Wire) {
        let vs = versions.entry(f.kind.clone()).or_default();
        if !vs.contains(&f.version) {
            vs.push(f.version.clone());
        }
    }
    let mut report = ClusterReport { server, assumes: ASSUMES, kinds: Vec::new(), notes: Vec::new() };
    let crds: Api<CustomResourceDefinition> = Api::all(client.clone());
    for (kind, vs) in versions {
        let Some(new) = after.iter().find(|c| kind_name(c) == kind) else {
            report.notes.push(format!("{kind}: removed from the CRDs, so no new schema to check its objects against"));
            continue;
        };
        let name = new.metadata.name.clone().unwrap_or_default();
        let Some(installed) = crds.get_opt(&name).await.with_context(|| format!("getting the CRD {name}"))? else {
            report.notes.push(format!("{kind}: the CRD {name} is not installed in the cluster: no stored objects"));
            continue;
        };
        let storage = || new.spec.versions.iter().find(|v| v.storage).map(|v| v.name.clone());
        let mut wanted: Vec<String> = vs.iter().flatten().cloned().collect();
        if wanted.is_empty() {
            wanted.extend(storage());
        }
        for version in wanted {
            if !new.spec.versions.iter().any(|v| v.name == version) {
                continue; // removed: the finding says so, there is no new schema
            }
            if !installed.spec.versions.iter().any(|v| v.name == version && v.served) {
                report.notes.push(format!(
                    "{kind} {version}: not served by the cluster's CRD, so its objects cannot be read in {version}"
                ));
                continue;
            }
            report.kinds.push(check_version(&client, new, &installed, &version).await?);
        }
    }
    Ok(report)
}

async fn check_version(
    client: &kube::Client,
    new: &CustomResourceDefinition,
    installed: &CustomResourceDefinition,
    version: &str,
) -> Result<KindReport> {
    let names = &installed.spec.names;
    let resource = ApiResource {
        group: installed.spec.group.clone(),
        version: version.to_string(),
        api_version: format!("{}/{version}", installed.spec.group),
        kind: names.kind.clone(),
        plural: names.plural.clone(),
    };
    let api: Api<DynamicObject> = Api::all_with(client.clone(), &resource);
    let judge = Judge::new(new, version);
    let mut report = KindReport { kind: kind_name(new), version: version.to_string(), listed: 0, objects: Vec::new() };
    let mut params = ListParams::default().limit(500);
    loop {
        let page = api.list(&params).await.with_context(|| format!("listing {}", resource.api_version))?;
        for object in &page.items {
            report.listed += 1;
            let value = serde_json::to_value(object).context("a listed object as JSON")?;
            let violations = judge.violations(&value);
            if violations.is_empty() {
                continue;
            }
            let meta = &object.metadata;
            let name = match &meta.namespace {
                Some(ns) => format!("{ns}/{}", meta.name.as_deref().unwrap_or_default()),
                None => meta.name.clone().unwrap_or_default(),
            };
            let refused_on_every_update = violations.iter().any(|v| v.unless_unchanged.is_none());
            report.objects.push(StoredObject { name, refused_on_every_update, violations });
        }
        match page.metadata.continue_.filter(|c| !c.is_empty()) {
            Some(token) => params = params.continue_token(&token),
            None => break,
        }
    }
    report.objects.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(report)
}

/// One version's new schema, as a validator and as the typed IR its paths are read in.
pub struct Judge {
    validator: Validator,
    programs: Programs,
}

impl Judge {
    /// The schema of `version` in `crd`.
    pub fn new(crd: &CustomResourceDefinition, version: &str) -> Self {
        Judge { validator: Validator::for_version(crd, version), programs: Programs::default() }
    }

    /// What the new schema finds in a stored object: everything a create of it would be
    /// refused for, each with the value that excuses it while unchanged, if any; and the
    /// transition rules that fail when the object is updated without a change.
    ///
    /// The CEL rules are evaluated a second time as an update that changes no value
    /// (the stored object as old and new): kubegen's evaluator ratchets as the server
    /// does, so what it still reports no update excuses — a transition rule, a rule on
    /// a value the server never finds unchanged (the root, which holds metadata). The
    /// structural checks are not ratcheted in-process; the same equality decides them
    /// here, at the nearest value the server pairs with its old one.
    pub fn violations(&self, object: &Value) -> Vec<StoredViolation> {
        let created = self.validator.validate(object, None).err().map(|v| v.0).unwrap_or_default();
        let mut defaulted = object.clone();
        apply_defaults(self.validator.node(), &mut defaulted);
        let cel = |old: Option<&Value>| -> Vec<Violation> {
            let found = kubegen_cel::eval::validate_with(&self.programs, self.validator.node(), &defaulted, old);
            found
                .into_iter()
                .map(|v| {
                    let message =
                        if v.field_path.is_empty() { v.message } else { format!("{}: {}", v.field_path, v.message) };
                    Violation { path: v.field_path, message }
                })
                .collect()
        };
        let (cel_created, cel_unchanged) = (cel(None), cel(Some(&defaulted)));
        let mut out = Vec::new();
        for v in &created {
            let (anchor, comparable) = ratchet_anchor(self.validator.node(), &defaulted, &v.path);
            let excused = match cel_created.contains(v) {
                true => !cel_unchanged.contains(v),
                false => comparable,
            };
            let unless_unchanged = excused.then_some(anchor);
            out.push(StoredViolation { path: v.path.clone(), message: v.message.clone(), unless_unchanged });
        }
        for v in cel_unchanged.into_iter().filter(|v| !cel_created.contains(v)) {
            out.push(StoredViolation { path: v.path, message: v.message, unless_unchanged: None });
        }
        out
    }
}

/// The nearest value at or above `path` that the API server pairs with its old value
/// (object fields by name, map entries by key, list items only in
/// `x-kubernetes-list-type: map` lists): ratcheting excuses the violation while it is
/// unchanged. `spec.items[0].size` under an atomic list is excused while `spec.items`
/// is. With it, whether the server can find that value unchanged at all: not when it
/// holds a field its schema does not declare (the root holds metadata).
pub fn ratchet_anchor(root: &Node, object: &Value, path: &str) -> (String, bool) {
    let mut node = Some(root);
    let mut value = Some(object);
    let (mut end, mut at) = (0, (node, value));
    let mut i = 0;
    while i < path.len() {
        let rest = &path[i..];
        if let Some(after_dot) = rest.strip_prefix('.') {
            i = path.len() - after_dot.len();
            continue;
        }
        let index = rest.starts_with('[');
        let token_end = match index {
            true => rest.find(']').map_or(path.len(), |j| i + j + 1),
            false => rest.find(['.', '[']).map_or(path.len(), |j| i + j),
        };
        let name = path[i..token_end].trim_start_matches('[').trim_end_matches(']');
        match (node, index) {
            (Some(n), true) if n.items.is_some() => {
                if n.list_type.as_deref() != Some("map") {
                    break;
                }
                node = n.items.as_deref();
                value = name.parse::<usize>().ok().and_then(|k| value?.get(k));
            }
            (n, _) => {
                node = n.and_then(|n| n.properties.as_ref().and_then(|p| p.get(name)).or_else(|| n.map_values()));
                value = value.and_then(|v| v.get(name));
            }
        }
        end = token_end;
        at = (node, value);
        i = token_end;
    }
    let comparable = at.1.is_none_or(|v| comparable(at.0, v));
    (path[..end].to_string(), comparable)
}

/// Whether every field of `value`, at every depth, is one its schema declares: the
/// server's equality finds no other value unchanged.
fn comparable(node: Option<&Node>, value: &Value) -> bool {
    match value {
        Value::Object(fields) => fields.iter().all(|(k, v)| {
            let field = node.and_then(|n| n.properties.as_ref().and_then(|p| p.get(k)).or_else(|| n.map_values()));
            field.is_some() && comparable(field, v)
        }),
        Value::Array(items) => items.iter().all(|v| comparable(node.and_then(|n| n.items.as_deref()), v)),
        _ => true,
    }
}

/// The verdicts as text, after the findings.
pub fn text(report: &ClusterReport) -> String {
    let mut out = format!("stored objects in {}:\n", report.server);
    for kind in &report.kinds {
        out += &format!(
            "{} {}: {} listed, {} the new schema refuses\n",
            kind.kind,
            kind.version,
            kind.listed,
            kind.objects.len()
        );
        for object in &kind.objects {
            let verdict = if object.refused_on_every_update {
                "refused on every update"
            } else {
                "refused on an update that changes these values (and on every update without ratcheting)"
            };
            out += &format!("  {}: {verdict}\n", object.name);
            for v in &object.violations {
                let excuse = match &v.unless_unchanged {
                    Some(anchor) if anchor.is_empty() => " (unless the object is unchanged)".to_string(),
                    Some(anchor) => format!(" (unless {anchor} is unchanged)"),
                    None => " (no update excuses it)".to_string(),
                };
                // The server's wording starts with the path already.
                out += &format!("    {}{excuse}\n", v.message);
            }
        }
    }
    for note in &report.notes {
        out += &format!("note: {note}\n");
    }
    out += &format!("assumes: {}\n", report.assumes);
    out
}
