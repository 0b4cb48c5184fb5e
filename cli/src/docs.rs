//! `codegen-cli docs`: an API reference of the final schema, in Markdown — one page per
//! group/version under `docs/api/`, each kind with its resource facts and an example,
//! and a section per named type whose field table says, in words, everything the CRD
//! checks: bounds, lengths, patterns, enums, formats, counts, list and map types (and
//! what they mean under server-side apply), defaults, nullability, CEL rules. It reads the
//! same model the clients do (the typed IR with its type names) and the merged CRDs
//! `manifests` writes.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{Context, Result};
use askama::Template;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kubegen_core::schema::node::{Additional, Node};
use serde_json::Value;

use crate::clients::Package;
use crate::clients::shape::{Bounds, Limit, Shape, WireForm, is, shape};
use crate::generate::Generator;
use crate::output::{self, Output};
use crate::project::Project;

mod html;

/// A description as the HTML pages render it: inline (a field's cell) and as paragraphs
/// (a kind's or type's), for the fuzz target of the rendering.
#[cfg(feature = "fuzzing")]
pub(crate) fn description_html(text: &str) -> (String, String) {
    (html::inline(&cell(text)), html::paragraphs(text))
}

/// One group/version's page, in Markdown; the HTML page renders the same view.
#[derive(Template)]
#[template(path = "docs/group_version.md", escape = "none")]
struct Page<'a> {
    header: &'a str,
    /// The reference's title, linking back to its index.
    title: &'a str,
    page: &'a GroupVersionView,
}

/// What one group/version's page shows, made once and rendered as Markdown and as HTML.
pub(crate) struct GroupVersionView {
    pub group: String,
    pub version: String,
    pub kinds: Vec<KindView>,
    pub types: Vec<TypeView>,
}

pub(crate) struct KindView {
    pub name: String,
    pub anchor: String,
    pub plural: String,
    pub description: String,
    /// The index's line for it: the description's first sentence.
    pub summary: String,
    pub facts: Vec<(String, String)>,
    /// Name, type, JSONPath, description.
    pub columns: Vec<(String, String, String, String)>,
    /// The config/samples file the example is, as `manifests` writes it (until edited).
    pub sample_file: String,
    pub sample: String,
    /// The version before this one (by Kubernetes' version priority), and what changed.
    pub previous: String,
    pub changes: Vec<String>,
    /// Every version of the kind, newest first, when it has more than one.
    pub versions: Vec<VersionLink>,
}

/// A version of a kind, for the HTML page's version switch.
pub(crate) struct VersionLink {
    pub name: String,
    /// This page's version.
    pub current: bool,
    /// The version has a page of its own (every version of a kind the reference holds).
    pub has_page: bool,
}

pub(crate) struct TypeView {
    pub name: String,
    pub anchor: String,
    pub description: String,
    /// What the type itself holds or checks, a fact per line.
    pub summary: Vec<String>,
    pub fields: Vec<FieldView>,
}

pub(crate) struct FieldView {
    /// The field's path inside its type (`ports[].port`).
    pub name: String,
    /// The HTML page's anchor of the field (`foospec-replicas`).
    pub anchor: String,
    pub ty: String,
    pub required: String,
    pub default: String,
    pub description: String,
    /// In which version the field came, was deprecated or went (`Added in `v1`.`).
    pub lifecycle: Vec<String>,
    /// Every check of the schema at the field, in words.
    pub facts: Vec<String>,
}

impl FieldView {
    /// The Markdown table's description cell: the description, then the version notes
    /// and the checks.
    fn cell(&self) -> String {
        let words: Vec<&str> = self.lifecycle.iter().chain(&self.facts).map(String::as_str).collect();
        match (self.description.is_empty(), words.is_empty()) {
            (_, true) => self.description.clone(),
            (true, false) => words.join(" "),
            (false, false) => format!("{}<br>{}", self.description, words.join(" ")),
        }
    }
}

/// The output formats of `docs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// `<group>/<version>.md` per group/version and `README.md` listing them
    Markdown,
    /// A static site beside it: `<group>/<version>.html` and `index.html`, with search
    /// and a version switch, viewable from disk (no network)
    Html,
}

/// The API reference: `<out>/<group>/<version>.md` per group/version and `<out>/README.md`
/// listing them, and the same pages as a static site (`.html`, `index.html`). The views
/// are made once and rendered in each format.
pub struct Docs {
    pub out: PathBuf,
    pub formats: Vec<Format>,
}

impl Generator for Docs {
    fn outputs(&self, project: &Project) -> Result<Vec<Output>> {
        let settings = &project.settings.docs;
        // The project's packages; copied only when `kinds` narrows them.
        let mut packages = std::borrow::Cow::Borrowed(project.packages()?);
        if let Some(wanted) = &settings.kinds {
            for name in wanted {
                let known = packages
                    .iter()
                    .any(|p| p.kinds.iter().any(|k| *name == k.kind || *name == format!("{}/{}", p.group, k.kind)));
                if !known {
                    anyhow::bail!(
                        "[workspace.metadata.kubegen.docs] kinds: no kind `{name}` in the workspace (write a kind's name, or group/Kind)"
                    );
                }
            }
            let narrowed = packages.to_mut();
            for pkg in narrowed.iter_mut() {
                let group = pkg.group.clone();
                pkg.kinds.retain(|k| wanted.iter().any(|w| *w == k.kind || *w == format!("{group}/{}", k.kind)));
            }
            narrowed.retain(|p| !p.kinds.is_empty());
        }
        let crds: BTreeMap<(String, String), &CustomResourceDefinition> =
            project.crds()?.iter().map(|c| ((c.spec.group.clone(), c.spec.names.kind.clone()), c)).collect();
        let pages: Vec<(String, String, String)> = packages
            .iter()
            .flat_map(|p| p.kinds.iter().map(|k| (p.group.clone(), p.version.clone(), k.kind.clone())))
            .collect();
        let mut views = Vec::new();
        for pkg in packages.iter() {
            views.push(page_view(pkg, &crds, &pages)?);
        }
        let header = markdown_header(&project.header);
        let title = settings.title.as_deref().unwrap_or("API reference");
        let mut outputs = Vec::new();
        if self.formats.contains(&Format::Markdown) {
            let mut index = format!(
                "{header}<!-- Generated by codegen-cli docs from the workspace's kinds. DO NOT EDIT. -->\n\n# {title}\n"
            );
            if !settings.links.is_empty() {
                index.push('\n');
                for link in &settings.links {
                    index.push_str(&format!("- [{}]({})\n", link.title, link.url));
                }
            }
            for view in &views {
                let path = format!("{}/{}.md", view.group, view.version);
                index.push_str(&format!("\n## [{}/{}]({path})\n\n", view.group, view.version));
                for kind in &view.kinds {
                    index.push_str(&format!("- [{}]({path}#{}){}\n", kind.name, kind.anchor, dash(&kind.summary)));
                }
                let page = output::render(&Page { header: &header, title, page: view }, "the API reference page")?;
                outputs.push(Output::generated(self.out.join(&path), page));
            }
            outputs.push(Output::generated(self.out.join("README.md"), index));
        }
        if self.formats.contains(&Format::Html) {
            let site = html::Site { header: &header, title, links: &settings.links, pages: &views };
            for (path, text) in site.render()? {
                outputs.push(Output::generated(self.out.join(path), text));
            }
        }
        Ok(outputs)
    }
}

/// A YAML `--header` as an HTML comment (a Markdown page shows none of it).
fn markdown_header(yaml: &str) -> String {
    if yaml.trim().is_empty() {
        return String::new();
    }
    let text: Vec<&str> = yaml.lines().map(|l| l.trim_start_matches('#').trim_start()).collect();
    format!("<!--\n{}\n-->\n", text.join("\n").trim_end())
}

fn dash(s: &str) -> String {
    if s.is_empty() { String::new() } else { format!(" — {s}") }
}

/// GitHub's anchor for a heading.
pub fn anchor(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            'a'..='z' | '0'..='9' | '-' | '_' => Some(c),
            ' ' => Some('-'),
            _ => None,
        })
        .collect()
}

fn first_sentence(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default();
    match line.find(". ") {
        Some(at) => line[..=at].to_string(),
        None => line.to_string(),
    }
}

/// Text for a table cell: one line, pipes escaped.
fn cell(text: &str) -> String {
    text.split('\n').map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" ").replace('|', "\\|")
}

fn code(value: &Value) -> String {
    format!("`{}`", value.to_string().replace('|', "\\|"))
}

/// The view of one group/version: its kinds, and its named types with every field's
/// checks and, from the kinds' other versions, when the field came, was deprecated or went.
/// `pages` lists every (group, version, kind) the reference holds.
fn page_view(
    pkg: &Package,
    crds: &BTreeMap<(String, String), &CustomResourceDefinition>,
    pages: &[(String, String, String)],
) -> Result<GroupVersionView> {
    let mut kinds = Vec::new();
    // Where each type's rows sit in the kinds (`(FooSpec, replicas)` at `spec.replicas`),
    // and what the kinds' versions say of those paths.
    // (type, field) → each path it sits at, with what the versions say of it.
    type Notes = BTreeMap<(String, String), Vec<(String, Vec<String>)>>;
    let mut notes: Notes = BTreeMap::new();
    for kind in &pkg.kinds {
        let crd = crds
            .get(&(pkg.group.clone(), kind.kind.clone()))
            .with_context(|| format!("{}: no CRD for {}", kind.type_path, kind.kind))?;
        kinds.push(kind_view(kind, crd, pkg, pages)?);
        let lifecycle = lifecycle(crd, &pkg.version);
        let mut at = BTreeMap::new();
        let roots = match kind.style {
            kubegen_core::kind::Style::Spec => vec![(&kind.data.root, "spec")],
            _ => vec![(&kind.data.root, "")],
        };
        let status = kind.status.as_ref().map(|s| (&s.root, "status"));
        for (root, path) in roots.into_iter().chain(status) {
            if let Some(name) = root.reference.as_deref() {
                kind_rows(name, path, &pkg.types, &mut Vec::new(), &mut at);
            }
        }
        for (row, paths) in at {
            for path in paths {
                let said = lifecycle.get(&path).cloned().unwrap_or_default();
                notes.entry(row.clone()).or_default().push((path, said));
            }
        }
    }
    let mut taken: std::collections::BTreeSet<String> = kinds.iter().map(|k| k.anchor.clone()).collect();
    taken.extend(pkg.types.keys().map(|name| type_anchor(name)));
    let mut types = Vec::new();
    for (name, node) in &pkg.types {
        let mut view = type_view(name, node, &pkg.types);
        for field in &mut view.fields {
            field.anchor =
                unique(anchor(&format!("{name} {}", field.name.replace("[]", "").replace('.', " "))), &mut taken);
            field.lifecycle = lifecycle_words(notes.get(&(name.clone(), field.name.clone())).map(Vec::as_slice));
        }
        types.push(view);
    }
    Ok(GroupVersionView { group: pkg.group.clone(), version: pkg.version.clone(), kinds, types })
}

/// `wanted`, or with `-2`, `-3`, ... when a page already holds it.
fn unique(wanted: String, taken: &mut std::collections::BTreeSet<String>) -> String {
    let mut candidate = wanted.clone();
    let mut n = 2;
    while !taken.insert(candidate.clone()) {
        candidate = format!("{wanted}-{n}");
        n += 1;
    }
    candidate
}

/// A row's version notes: as they are when every path it sits at says the same, else
/// each path's own (`Added in `v2` (at `spec.a`).`).
fn lifecycle_words(at: Option<&[(String, Vec<String>)]>) -> Vec<String> {
    let Some(at) = at else { return Vec::new() };
    if at.iter().all(|(_, said)| *said == at[0].1) {
        return at[0].1.clone();
    }
    at.iter()
        .flat_map(|(path, said)| said.iter().map(move |s| format!("{} (at `{path}`).", s.trim_end_matches('.'))))
        .collect()
}

/// Every row of the named type `name` (as its field table lists them), with the paths in
/// the kind where it sits (`at` is the type's own path), through the named types below it.
fn kind_rows(
    name: &str,
    at: &str,
    types: &BTreeMap<String, Node>,
    stack: &mut Vec<String>,
    out: &mut BTreeMap<(String, String), Vec<String>>,
) {
    let Some(node) = types.get(name).filter(|_| !stack.iter().any(|s| s == name)) else { return };
    stack.push(name.to_string());
    let mut rows = Vec::new();
    struct_rows("", node, &mut rows);
    for (row, field, _) in rows {
        let path = if at.is_empty() { row.clone() } else { format!("{at}.{row}") };
        let paths = out.entry((name.to_string(), row)).or_default();
        if !paths.contains(&path) {
            paths.push(path.clone());
        }
        let below = [
            (field.reference.as_deref(), ""),
            (field.items.as_ref().and_then(|i| i.reference.as_deref()), "[]"),
            (
                match &field.additional_properties {
                    Some(Additional::Schema(values)) => values.reference.as_deref(),
                    _ => None,
                },
                "{}",
            ),
        ];
        for (named, step) in below {
            if let Some(named) = named {
                kind_rows(named, &format!("{path}{step}"), types, stack, out);
            }
        }
    }
    stack.pop();
}

fn kind_view(
    kind: &crate::clients::KindModel,
    crd: &CustomResourceDefinition,
    pkg: &Package,
    pages: &[(String, String, String)],
) -> Result<KindView> {
    let names = &crd.spec.names;
    let mut facts = vec![
        ("API version".to_string(), format!("`{}/{}`", pkg.group, pkg.version)),
        ("Kind".to_string(), format!("`{}` (list: `{}`)", names.kind, names.list_kind.as_deref().unwrap_or_default())),
        (
            "Resource".to_string(),
            format!("`{}`, singular `{}`", names.plural, names.singular.as_deref().unwrap_or_default()),
        ),
        ("Scope".to_string(), crd.spec.scope.clone()),
    ];
    if let Some(short) = names.short_names.as_ref().filter(|s| !s.is_empty()) {
        facts.push(("Short names".into(), short.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", ")));
    }
    if let Some(categories) = names.categories.as_ref().filter(|c| !c.is_empty()) {
        facts.push(("Categories".into(), categories.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", ")));
    }
    let versions: Vec<String> = crd
        .spec
        .versions
        .iter()
        .map(|v| {
            let mut said = vec![if v.served { "served" } else { "not served" }.to_string()];
            if v.storage {
                said.push("storage".into());
            }
            if v.deprecated == Some(true) {
                let warning = v.deprecation_warning.as_deref().map(|w| format!(": {}", cell(w))).unwrap_or_default();
                said.push(format!("deprecated{warning}"));
            }
            format!("`{}` ({})", v.name, said.join(", "))
        })
        .collect();
    facts.push(("Versions".into(), versions.join(", ")));
    let version = crd.spec.versions.iter().find(|v| v.name == pkg.version);
    let mut sub = Vec::new();
    if let Some(s) = version.and_then(|v| v.subresources.as_ref()) {
        if s.status.is_some() {
            sub.push("status (`/status`: the status is written there only)".to_string());
        }
        if let Some(scale) = &s.scale {
            let selector =
                scale.label_selector_path.as_deref().map(|p| format!(", selector `{p}`")).unwrap_or_default();
            sub.push(format!(
                "scale (`kubectl scale`: replicas `{}`, status `{}`{selector})",
                scale.spec_replicas_path, scale.status_replicas_path
            ));
        }
    }
    facts.push(("Subresources".into(), if sub.is_empty() { "none".into() } else { sub.join("; ") }));
    if let Some(fields) = version.and_then(|v| v.selectable_fields.as_ref()).filter(|f| !f.is_empty()) {
        let paths: Vec<String> = fields.iter().map(|f| format!("`{}`", f.json_path)).collect();
        facts.push(("Selectable fields".into(), format!("{} (`kubectl get --field-selector`)", paths.join(", "))));
    }
    let data = kind.data.root.reference.as_deref();
    let status = kind.status.as_ref().and_then(|s| s.root.reference.as_deref());
    match (kind.style, data) {
        (kubegen_core::kind::Style::Spec, Some(spec)) => facts.push(("Spec".into(), link(spec))),
        (_, Some(fields)) => facts.push(("Fields".into(), format!("{} (beside `metadata`)", link(fields)))),
        _ => {}
    }
    if let Some(status) = status {
        facts.push(("Status".into(), link(status)));
    }
    let columns = version
        .and_then(|v| v.additional_printer_columns.as_ref())
        .into_iter()
        .flatten()
        .map(|c| {
            (c.name.clone(), c.type_.clone(), c.json_path.clone(), cell(c.description.as_deref().unwrap_or_default()))
        })
        .collect();
    let (previous, changes) = changes_from_previous(crd, &pkg.version);
    // The example in this page's version: what `manifests` writes to config/samples for
    // it (without the file's first line), and keeps writing there until it is edited.
    let sample =
        kubegen::to_yaml(&kubegen::crd::sample_object_in(crd, &pkg.version)).context("rendering the example")?;
    let sample = sample.strip_prefix("---\n").unwrap_or(&sample).to_string();
    let mut versions: Vec<VersionLink> = crd
        .spec
        .versions
        .iter()
        .map(|v| VersionLink {
            name: v.name.clone(),
            current: v.name == pkg.version,
            has_page: pages.iter().any(|(g, ver, k)| *g == pkg.group && *ver == v.name && *k == kind.kind),
        })
        .collect();
    versions.sort_by_key(|v| std::cmp::Reverse(priority(&v.name)));
    if versions.len() < 2 {
        versions.clear();
    }
    Ok(KindView {
        name: kind.kind.clone(),
        anchor: anchor(&kind.kind),
        plural: names.plural.clone(),
        description: kind.root_description.trim().to_string(),
        summary: first_sentence(&kind.root_description),
        versions,
        facts,
        columns,
        sample_file: crate::crd_merge::sample_file(crd, &pkg.version),
        sample,
        previous,
        changes,
    })
}

/// Kubernetes' order of versions: GA before beta before alpha, then by the numbers
/// (`v2` > `v1` > `v1beta2` > `v1beta1` > `v1alpha1`); other names last, by name: kube-core's
/// `Version::priority`, the order kubectl picks a preferred version by.
fn priority(version: &str) -> impl Ord + use<> {
    kube::core::Version::parse(version).priority()
}

/// What a version's schema says of one field path, for comparing versions.
#[derive(Clone, PartialEq)]
struct PathFacts {
    /// What it holds, briefly (`integer (int32)`).
    held: String,
    /// Its description marks it deprecated, as Kubernetes' API conventions write it
    /// (`Deprecated: use ...`).
    deprecated: bool,
}

/// Every field path of a version's schema with what it holds (`spec.ports[].port`:
/// `integer (int32)`); `[]` steps into a list's items, `{}` into a map's values.
fn field_paths(node: &Node, prefix: &str, out: &mut BTreeMap<String, PathFacts>) {
    for (name, child) in node.properties.iter().flatten() {
        if prefix.is_empty() && matches!(name.as_str(), "apiVersion" | "kind" | "metadata") {
            continue;
        }
        let path = if prefix.is_empty() { name.clone() } else { format!("{prefix}.{name}") };
        let deprecated = child
            .description
            .as_deref()
            .is_some_and(|d| d.trim_start().starts_with("Deprecated") || d.contains("Deprecated:"));
        out.insert(path.clone(), PathFacts { held: held(child), deprecated });
        walk_paths(child, &path, out);
    }
}

fn walk_paths(node: &Node, path: &str, out: &mut BTreeMap<String, PathFacts>) {
    field_paths(node, path, out);
    if let Some(items) = &node.items {
        walk_paths(items, &format!("{path}[]"), out);
    }
    if let Some(Additional::Schema(values)) = &node.additional_properties {
        walk_paths(values, &format!("{path}{{}}"), out);
    }
}

/// What a node holds, briefly, for comparing versions.
fn held(node: &Node) -> String {
    if is(node.int_or_string) {
        return "integer or string".into();
    }
    match (node.type_.as_deref(), node.format.as_deref()) {
        (Some(t), Some(f)) => format!("{t} ({f})"),
        (Some(t), None) => t.to_string(),
        (None, _) => "any".into(),
    }
}

/// The field paths of each of the CRD's versions, oldest first in Kubernetes' order.
fn versions_paths(crd: &CustomResourceDefinition) -> Vec<(String, BTreeMap<String, PathFacts>)> {
    let mut versions: Vec<(String, BTreeMap<String, PathFacts>)> = crd
        .spec
        .versions
        .iter()
        .map(|v| {
            let mut paths = BTreeMap::new();
            if let Some(node) = kubegen::crd::version_schema(v) {
                field_paths(&node, "", &mut paths);
            }
            (v.name.clone(), paths)
        })
        .collect();
    versions.sort_by_key(|(name, _)| priority(name));
    versions
}

/// The field that holds `path` (`spec.ports` for `spec.ports[].port`); none at the top.
fn parent(path: &str) -> Option<&str> {
    let mut parent = &path[..path.rfind('.')?];
    while let Some(p) = parent.strip_suffix("[]").or_else(|| parent.strip_suffix("{}")) {
        parent = p;
    }
    Some(parent)
}

/// Per field path of `version`: the version it came in, the version its description
/// first calls it deprecated, the version it is gone in — each said where the field
/// itself changes, not under a field that came or went with it.
fn lifecycle(crd: &CustomResourceDefinition, version: &str) -> BTreeMap<String, Vec<String>> {
    let versions = versions_paths(crd);
    let Some(at) = versions.iter().position(|(name, _)| name == version) else { return BTreeMap::new() };
    let holds = |i: usize, path: Option<&str>| path.is_none_or(|p| versions[i].1.contains_key(p));
    let mut out = BTreeMap::new();
    for (path, facts) in &versions[at].1 {
        let mut said = Vec::new();
        let parent = parent(path);
        if let Some(before) = (0..at).rev().find(|&i| !holds(i, Some(path)))
            && holds(before, parent)
        {
            said.push(format!("Added in `{}`.", versions[before + 1].0));
        }
        let deprecated = |i: usize| versions[i].1.get(path).is_some_and(|f| f.deprecated);
        if facts.deprecated {
            let first = (0..at).rev().take_while(|&i| deprecated(i)).last().unwrap_or(at);
            said.push(format!("Deprecated in `{}`.", versions[first].0));
        } else if let Some(later) =
            (at + 1..versions.len()).take_while(|&i| holds(i, Some(path))).find(|&i| deprecated(i))
        {
            said.push(format!("Deprecated in `{}`.", versions[later].0));
        }
        if let Some(gone) = (at + 1..versions.len()).find(|&i| !holds(i, Some(path)))
            && holds(gone, parent)
        {
            said.push(format!("Removed in `{}`.", versions[gone].0));
        }
        if !said.is_empty() {
            out.insert(path.clone(), said);
        }
    }
    out
}

/// The served version before `version` in Kubernetes' order, and what `version` changes
/// from it: fields added and removed (a field under one added or removed is not listed
/// again), and fields whose type changed.
fn changes_from_previous(crd: &CustomResourceDefinition, version: &str) -> (String, Vec<String>) {
    let versions = versions_paths(crd);
    let Some(at) = versions.iter().position(|(name, _)| name == version).filter(|&at| at > 0) else {
        return (String::new(), Vec::new());
    };
    let (previous, was) = &versions[at - 1];
    let is_now = &versions[at].1;
    let under = |path: &str, parents: &[&String]| {
        parents.iter().any(|p| {
            path.starts_with(&format!("{p}."))
                || path.starts_with(&format!("{p}["))
                || path.starts_with(&format!("{p}{{"))
        })
    };
    let added: Vec<&String> = is_now.keys().filter(|p| !was.contains_key(*p)).collect();
    let removed: Vec<&String> = was.keys().filter(|p| !is_now.contains_key(*p)).collect();
    let mut changes = Vec::new();
    for path in &added {
        if !under(path, &added) {
            changes.push(format!("Added `{path}` ({}).", is_now[*path].held));
        }
    }
    for path in &removed {
        if !under(path, &removed) {
            changes.push(format!("Removed `{path}`."));
        }
    }
    for (path, now) in is_now {
        if let Some(old) = was.get(path).filter(|old| old.held != now.held) {
            changes.push(format!("`{path}`: {} → {}.", old.held, now.held));
        }
    }
    if changes.is_empty() {
        changes.push("No field changed.".into());
    }
    (previous.clone(), changes)
}

/// A link to a named type's section (`#type-foospec`: a kind and its root type may share
/// a name).
fn link(name: &str) -> String {
    format!("[{name}](#{})", type_anchor(name))
}

fn type_anchor(name: &str) -> String {
    format!("type-{}", anchor(name))
}

fn type_view(name: &str, node: &Node, types: &BTreeMap<String, Node>) -> TypeView {
    let mut fields = Vec::new();
    let summary = match shape(node) {
        Shape::Struct => {
            struct_fields(node, types, &mut fields);
            facts(node)
        }
        _ => {
            let mut words = facts(node);
            words.insert(0, format!("Type: {}.", type_text(node, types)));
            words
        }
    };
    TypeView {
        name: name.to_string(),
        anchor: type_anchor(name),
        description: node.description.clone().unwrap_or_default(),
        summary,
        fields,
    }
}

/// The rows of an object's field table, with an inline object's own fields below it
/// (`parent.child`, `list[].child`): the row's path, its node and whether it is required.
fn struct_rows<'n>(prefix: &str, node: &'n Node, out: &mut Vec<(String, &'n Node, bool)>) {
    let required = node.required.clone().unwrap_or_default();
    for (name, field) in node.properties.iter().flatten() {
        let path = format!("{prefix}{name}");
        out.push((path.clone(), field, required.contains(name)));
        if field.reference.is_none() && matches!(shape(field), Shape::Struct) {
            struct_rows(&format!("{path}."), field, out);
        }
        if let Shape::List(items) = shape(field)
            && items.reference.is_none()
            && matches!(shape(items), Shape::Struct)
        {
            struct_rows(&format!("{path}[]."), items, out);
        }
    }
}

/// An object's field table.
fn struct_fields(node: &Node, types: &BTreeMap<String, Node>, out: &mut Vec<FieldView>) {
    let mut rows = Vec::new();
    struct_rows("", node, &mut rows);
    for (path, field, required) in rows {
        let mut words = facts(field);
        // A field that narrows its type's values: the field's are the ones the CRD keeps.
        if let (Some(name), Some(values)) = (&field.reference, &field.enum_) {
            let of_type = types.get(name).and_then(|t| t.enum_.as_ref()).filter(|all| *all != values);
            let said = |values: &Vec<Value>| values.iter().map(code).collect::<Vec<_>>().join(", ");
            match of_type {
                Some(all) => words.push(format!("One of: {} (of {name}'s {}).", said(values), said(all))),
                None => words.push(format!("One of: {}.", said(values))),
            }
        }
        // What each item or value must be, where it is no named type of its own.
        let inner = match shape(field) {
            Shape::List(items) => Some(("Each item", items)),
            Shape::Map(values) => Some(("Each value", values)),
            _ => None,
        };
        if let Some((each, inner)) = inner.filter(|(_, n)| n.reference.is_none()) {
            let said = facts(inner);
            if !said.is_empty() {
                words.push(format!("{each}: {}", said.join(" ")));
            }
        }
        out.push(FieldView {
            name: path,
            anchor: String::new(),
            ty: type_text(field, types),
            required: if required { "required" } else { "" }.into(),
            default: field.default.as_ref().map(code).unwrap_or_default(),
            description: field.description.as_deref().map(cell).unwrap_or_default(),
            lifecycle: Vec::new(),
            facts: words,
        });
    }
}

/// The Kubernetes API reference's anchor for a definition (`podtemplatespec-v1-core`).
fn kubernetes_link(definition: &str) -> String {
    let parts: Vec<&str> = definition.split('.').collect();
    let (kind, version) =
        (parts.last().copied().unwrap_or_default(), parts.iter().rev().nth(1).copied().unwrap_or_default());
    let group = match definition {
        d if d.starts_with("io.k8s.apimachinery.pkg.apis.meta.") => "meta".to_string(),
        d if d.starts_with("io.k8s.api.") => parts.get(3).copied().unwrap_or_default().to_string(),
        _ => String::new(),
    };
    let minor = kubegen::schema::K8S_MODULE_VERSION.trim_start_matches("v0.").split('.').next().unwrap_or("37");
    format!(
        "[{kind}](https://kubernetes.io/docs/reference/generated/kubernetes-api/v1.{minor}/#{}-{version}-{group})",
        kind.to_lowercase()
    )
}

/// What a node holds, in the page's words, with links to named types.
fn type_text(node: &Node, types: &BTreeMap<String, Node>) -> String {
    match shape(node) {
        Shape::Named(name) if types.contains_key(name) => link(name),
        Shape::Named(name) => format!("`{name}`"),
        Shape::Kubernetes { wire: Some(WireForm::Quantity), .. } => "quantity (integer or string)".into(),
        Shape::Kubernetes { wire: Some(WireForm::IntOrString), .. } => "integer or string".into(),
        Shape::Kubernetes { wire: Some(WireForm::Time), .. } => "string (date-time)".into(),
        Shape::Kubernetes { wire: Some(WireForm::Raw), .. } => "object (kept as sent)".into(),
        Shape::Kubernetes { name, wire: None } => kubernetes_link(name),
        Shape::IntOrString => "integer or string".into(),
        Shape::String { format: Some(f), .. } => format!("string ({f})"),
        Shape::String { .. } => "string".into(),
        Shape::Integer { format: Some(f), .. } => format!("integer ({f})"),
        Shape::Integer { .. } => "integer".into(),
        Shape::Number { .. } => "number".into(),
        Shape::Boolean => "boolean".into(),
        Shape::List(items) => format!("[]{}", type_text(items, types)),
        Shape::Map(values) => format!("map[string]{}", type_text(values, types)),
        Shape::Struct => "object".into(),
        Shape::Open => "object (any fields, kept)".into(),
        Shape::Empty => "object".into(),
        Shape::Any => "any JSON value".into(),
    }
}

fn limit(word: &str, limit: &Limit, exclusive: &str) -> String {
    let value = limit.value.to_string();
    if limit.exclusive { format!("{exclusive} {value}.") } else { format!("{word}: {value}.") }
}

/// What tells a union's variant apart: the fields it requires, and the values its tag
/// fields take (`kind` = `"daily"`, with `hour`).
fn variant(branch: &Node) -> Option<String> {
    let tags: Vec<(&String, &Vec<Value>)> =
        branch.properties.iter().flatten().filter_map(|(name, p)| p.enum_.as_ref().map(|e| (name, e))).collect();
    let mut words: Vec<String> = tags
        .iter()
        .map(|(name, values)| {
            let values: Vec<String> = values.iter().map(code).collect();
            format!("`{name}` = {}", values.join(" or "))
        })
        .collect();
    let required: Vec<String> = branch
        .required
        .iter()
        .flatten()
        .filter(|r| !tags.iter().any(|(name, _)| name == r))
        .map(|r| format!("`{r}`"))
        .collect();
    match (words.is_empty(), required.is_empty()) {
        (true, true) => return None,
        (true, false) => words.push(required.join(" and ")),
        (false, false) => words.push(format!("with {}", required.join(" and "))),
        (false, true) => {}
    }
    Some(words.join(" "))
}

/// Everything the schema checks at this node, in words, in a fixed order.
fn facts(node: &Node) -> Vec<String> {
    let mut out = Vec::new();
    let bounds = Bounds::of(node);
    if let Some(min) = &bounds.minimum {
        out.push(limit("Minimum", min, "Greater than"));
    }
    if let Some(max) = &bounds.maximum {
        out.push(limit("Maximum", max, "Less than"));
    }
    if let Some(m) = &bounds.multiple_of {
        out.push(format!("A multiple of {m}."));
    }
    for also in bounds.all_of.iter().filter_map(|b| b.multiple_of.as_ref()) {
        out.push(format!("A multiple of {also}."));
    }
    let pairs = [
        ("Length", bounds.min_length.as_ref(), bounds.max_length.as_ref(), ("character", "characters")),
        ("Items", bounds.min_items.as_ref(), bounds.max_items.as_ref(), ("item", "items")),
        ("Entries", bounds.min_properties.as_ref(), bounds.max_properties.as_ref(), ("entry", "entries")),
    ];
    for (what, min, max, (one, many)) in pairs {
        let unit = |last: &Value| if last.as_u64() == Some(1) { one } else { many };
        match (min, max) {
            (Some(min), Some(max)) if min == max => out.push(format!("{what}: exactly {min} {}.", unit(max))),
            (Some(min), Some(max)) => out.push(format!("{what}: {min} to {max} {}.", unit(max))),
            (Some(min), None) => out.push(format!("{what}: at least {min} {}.", unit(min))),
            (None, Some(max)) => out.push(format!("{what}: at most {max} {}.", unit(max))),
            (None, None) => {}
        }
    }
    for pattern in bounds.patterns() {
        out.push(format!("Matches `{}`.", pattern.replace('|', "\\|")));
    }
    if node.reference.is_none()
        && let Some(values) = &node.enum_
    {
        let values: Vec<String> = values.iter().map(code).collect();
        out.push(format!("One of: {}.", values.join(", ")));
    }
    if is(node.nullable) {
        out.push("May be null.".into());
    }
    match node.list_type.as_deref() {
        Some("set") => out.push(
            "A set: each value at most once; server-side apply merges it value by value, each owned by its manager."
                .into(),
        ),
        Some("map") => {
            let keys: Vec<String> = node.list_map_keys.iter().flatten().map(|k| format!("`{k}`")).collect();
            out.push(format!(
                "A map list keyed by {}: one item per key; server-side apply merges items by key.",
                keys.join(" and ")
            ));
        }
        Some("atomic") => out.push("Atomic: server-side apply replaces the whole list.".into()),
        _ => {}
    }
    match node.map_type.as_deref() {
        Some("atomic") => out.push("Atomic: server-side apply replaces the whole object.".into()),
        Some("granular") => out.push("Granular: server-side apply merges it field by field.".into()),
        _ => {}
    }
    if node.reference.is_none() && is(node.preserve_unknown_fields) && node.type_.as_deref() == Some("object") {
        out.push("Keeps fields the schema does not name.".into());
    }
    if is(node.embedded_resource) {
        out.push("An embedded Kubernetes object: `apiVersion`, `kind` and `metadata` of its own.".into());
    }
    for rule in node.validations.iter().flatten() {
        if rule.rule.replace(' ', "") == "self==oldSelf" {
            let message = rule.message.as_deref().map(|m| format!(" ({})", cell(m))).unwrap_or_default();
            out.push(format!("Immutable once set{message}."));
            continue;
        }
        let mut said = format!("Rule: `{}`", rule.rule.replace('|', "\\|"));
        if let Some(m) = rule.message.as_deref() {
            said.push_str(&format!(" — {}", cell(m)));
        } else if let Some(m) = rule.message_expression.as_deref() {
            said.push_str(&format!(" — the message `{}`", cell(m).replace('`', "'")));
        }
        if let Some(reason) = &rule.reason {
            said.push_str(&format!(" ({reason}"));
            if let Some(path) = &rule.field_path {
                said.push_str(&format!(", at `{path}`"));
            }
            said.push(')');
        } else if let Some(path) = &rule.field_path {
            said.push_str(&format!(" (at `{path}`)"));
        }
        said.push('.');
        out.push(said);
    }
    for (variants, how) in
        [(&node.one_of, "Exactly one of"), (&node.any_of, "At least one of (the first that fits is read)")]
    {
        let said: Vec<String> = variants.iter().flatten().filter_map(variant).collect();
        if !said.is_empty() && node.int_or_string.is_none() {
            out.push(format!("{how}: {}.", said.join("; ")));
        }
    }
    if let Some(example) = &node.example {
        out.push(format!("Example: {}.", code(example)));
    }
    if let Some(Additional::Allowed(false)) = &node.additional_properties {
        out.push("No other fields.".into());
    }
    out
}

#[derive(clap::Args)]
pub struct DocsArgs {
    /// Write nothing; exit with status 1 and print a diff when a page on disk is stale.
    #[arg(long)]
    check: bool,
    /// The formats to write (repeat the flag for several); both when not given.
    #[arg(long, value_enum, value_name = "FORMAT")]
    format: Vec<Format>,
    /// Directory to write into, relative to the workspace root.
    #[arg(long, value_name = "DIR", default_value = "docs/api")]
    out: PathBuf,
    #[command(flatten)]
    project: crate::project::ProjectArgs,
}

pub fn run(args: DocsArgs) -> Result<std::process::ExitCode> {
    let probe = crate::fingerprint::Probe::new("docs", args.project.manifest_path.as_deref());
    if probe.replayed(args.check, "doc") {
        return Ok(std::process::ExitCode::SUCCESS);
    }
    let project = args.project.load(Default::default())?;
    let formats = if args.format.is_empty() { vec![Format::Markdown, Format::Html] } else { args.format };
    let docs = Docs { out: project.path(&args.out), formats };
    let fingerprint =
        crate::generate::Fingerprint::read(probe, &project, vec![docs.out.clone()], args.project.header.as_deref());
    crate::generate::run(&project, &[&docs], args.check, "doc", fingerprint, |p| {
        Ok(output::count(p.kinds()?.len(), "kind"))
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn node(v: Value) -> Node {
        Node::from_value(&v).expect("a schema node")
    }

    #[test]
    fn every_marker_family_is_said_in_words() {
        let said = |v: Value| facts(&node(v)).join(" ");
        assert_eq!(
            said(json!({"type": "integer", "minimum": 1, "maximum": 10, "exclusiveMaximum": true})),
            "Minimum: 1. Less than 10."
        );
        assert_eq!(
            said(json!({"type": "number", "minimum": 0, "exclusiveMinimum": true, "multipleOf": 0.5})),
            "Greater than 0. A multiple of 0.5."
        );
        assert_eq!(said(json!({"type": "string", "minLength": 1, "maxLength": 253})), "Length: 1 to 253 characters.");
        assert_eq!(
            said(json!({"type": "array", "items": {"type": "string"}, "maxItems": 4})),
            "Items: at most 4 items."
        );
        assert_eq!(
            said(json!({"type": "object", "minProperties": 2, "maxProperties": 2})),
            "Entries: exactly 2 entries."
        );
        assert_eq!(
            said(json!({"type": "string", "pattern": "^a|b$", "allOf": [{"pattern": "^web-"}]})),
            "Matches `^a\\|b$`. Matches `^web-`."
        );
        assert_eq!(said(json!({"type": "string", "enum": ["a", "b"]})), "One of: `\"a\"`, `\"b\"`.");
        assert_eq!(said(json!({"type": "string", "nullable": true})), "May be null.");
        assert!(
            said(json!({"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set"}))
                .starts_with("A set")
        );
        assert_eq!(
            said(
                json!({"type": "array", "items": {"type": "object"}, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name", "protocol"]})
            ),
            "A map list keyed by `name` and `protocol`: one item per key; server-side apply merges items by key."
        );
        assert_eq!(
            said(json!({"type": "object", "x-kubernetes-map-type": "atomic"})),
            "Atomic: server-side apply replaces the whole object."
        );
        assert_eq!(
            said(json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true})),
            "Keeps fields the schema does not name."
        );
        assert!(
            said(json!({"type": "object", "x-kubernetes-embedded-resource": true}))
                .starts_with("An embedded Kubernetes object")
        );
        assert_eq!(
            said(
                json!({"type": "string", "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "name is immutable"}]})
            ),
            "Immutable once set (name is immutable)."
        );
        assert_eq!(
            said(
                json!({"type": "object", "x-kubernetes-validations": [{"rule": "self.low <= self.high", "message": "low must not exceed high", "reason": "FieldValueInvalid", "fieldPath": ".low"}]})
            ),
            "Rule: `self.low <= self.high` — low must not exceed high (FieldValueInvalid, at `.low`)."
        );
        assert_eq!(said(json!({"type": "string", "example": "example-foo"})), "Example: `\"example-foo\"`.");
    }

    #[test]
    fn types_link_to_their_sections_and_kubernetes_types_to_the_api_reference() {
        let types = BTreeMap::from([("Cage".to_string(), node(json!({"type": "object"})))]);
        let ty = |v: Value| type_text(&node(v), &types);
        assert_eq!(ty(json!({"x-kubegen-ref": "Cage"})), "[Cage](#type-cage)");
        assert_eq!(ty(json!({"type": "array", "items": {"x-kubegen-ref": "Cage"}})), "[][Cage](#type-cage)");
        assert_eq!(
            ty(json!({"type": "object", "additionalProperties": {"type": "integer", "format": "int32"}})),
            "map[string]integer (int32)"
        );
        assert_eq!(
            ty(json!({"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]})),
            "integer or string"
        );
        let minor = kubegen::schema::K8S_MODULE_VERSION
            .trim_start_matches("v0.")
            .split('.')
            .next()
            .unwrap_or_default()
            .to_string();
        assert_eq!(
            ty(json!({"x-kubegen-ref": "io.k8s.api.core.v1.PodTemplateSpec"})),
            format!(
                "[PodTemplateSpec](https://kubernetes.io/docs/reference/generated/kubernetes-api/v1.{minor}/#podtemplatespec-v1-core)"
            )
        );
        assert_eq!(
            ty(json!({"x-kubegen-ref": "io.k8s.apimachinery.pkg.apis.meta.v1.Condition"})),
            format!(
                "[Condition](https://kubernetes.io/docs/reference/generated/kubernetes-api/v1.{minor}/#condition-v1-meta)"
            )
        );
        assert_eq!(anchor("FooSpec"), "foospec");
    }

    /// A CRD whose versions hold `spec` with these fields (name → description).
    fn crd(versions: &[(&str, &[(&str, &str)])]) -> CustomResourceDefinition {
        let versions: Vec<Value> = versions
            .iter()
            .map(|(name, fields)| {
                let props: serde_json::Map<String, Value> =
                    fields.iter().map(|(f, d)| (f.to_string(), json!({"type": "string", "description": d}))).collect();
                json!({"name": name, "served": true, "storage": *name == "v1", "schema": {"openAPIV3Schema": {
                    "type": "object", "properties": {"spec": {"type": "object", "properties": props}}}}})
            })
            .collect();
        serde_json::from_value(json!({"metadata": {"name": "foos.example.com"}, "spec": {
            "group": "example.com", "scope": "Namespaced", "versions": versions,
            "names": {"plural": "foos", "kind": "Foo"}}}))
        .expect("a CRD")
    }

    #[test]
    fn fields_say_the_version_they_came_were_deprecated_and_went_in() {
        let crd = crd(&[
            ("v1", &[("kept", ""), ("added", ""), ("old", "Deprecated: use added.")]),
            ("v1alpha1", &[("kept", ""), ("old", ""), ("gone", "")]),
            ("v1beta1", &[("kept", ""), ("old", "Deprecated: use added."), ("added", "")]),
        ]);
        let said = |version: &str| {
            lifecycle(&crd, version)
                .into_iter()
                .map(|(path, words)| format!("{path}: {}", words.join(" ")))
                .collect::<Vec<_>>()
        };
        assert_eq!(said("v1alpha1"), ["spec.gone: Removed in `v1beta1`.", "spec.old: Deprecated in `v1beta1`."]);
        assert_eq!(said("v1beta1"), ["spec.added: Added in `v1beta1`.", "spec.old: Deprecated in `v1beta1`."]);
        assert_eq!(said("v1"), ["spec.added: Added in `v1beta1`.", "spec.old: Deprecated in `v1beta1`."]);
        // A field that comes or goes with its parent is said of the parent only.
        let crd = crd_with_parent();
        assert_eq!(lifecycle(&crd, "v1").into_keys().collect::<Vec<_>>(), ["spec.added"]);
    }

    fn crd_with_parent() -> CustomResourceDefinition {
        let mut crd = crd(&[("v1beta1", &[]), ("v1", &[("added", "")])]);
        let schema =
            crd.spec.versions[1].schema.as_mut().and_then(|s| s.open_api_v3_schema.as_mut()).expect("a schema");
        let spec = schema.properties.as_mut().and_then(|p| p.get_mut("spec")).expect("spec");
        let added = spec.properties.as_mut().and_then(|p| p.get_mut("added")).expect("added");
        *added = serde_json::from_value(json!({"type": "object", "properties": {"inner": {"type": "string"}}}))
            .expect("a schema");
        crd
    }

    #[test]
    fn versions_follow_kubernetes_priority() {
        let mut versions = vec!["v1alpha1", "v2", "v1beta2", "v1", "v1beta1", "v10", "foo"];
        versions.sort_by_key(|v| std::cmp::Reverse(priority(v)));
        assert_eq!(versions, ["v10", "v2", "v1", "v1beta2", "v1beta1", "v1alpha1", "foo"]);
    }
}
