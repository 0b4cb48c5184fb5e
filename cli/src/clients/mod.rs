//! `clients`: typed API packages for other languages, from the same kinds `manifests`
//! reads. Each kind brings its client model (`kubegen::schema::model_for`: named types
//! with Rust's names, structural schemas, references between them) and its CRD (names,
//! scope, subresources, columns). Go, TypeScript and Python (`go.rs`, `typescript.rs`,
//! `python.rs`) share one reading of a schema node (`shape.rs`: its shape and its bounds)
//! and supply only their own spelling of each case.

mod go;
#[cfg(test)]
mod ir_tier;
mod python;
pub(crate) mod shape;
mod typescript;

use std::collections::{BTreeMap, BTreeSet};

use anyhow::{Result, bail};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use serde_json::Value;

use kubegen_core::kind::{External, Model, Style};
use kubegen_core::schema::node::Node;

use crate::crd_merge;
use crate::output;
use crate::workspace::Kind;

/// A reference to a named type in the model (`kubegen::schema::model_for`).
use kubegen_core::schema::REF_KEY;

/// An error in what the model says, naming the kind or type.
#[derive(Debug)]
pub struct ModelError(pub String);

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ModelError {}

/// One kind in one version, as the generators see it.
#[derive(Clone)]
pub struct KindModel {
    pub kind: String,
    pub type_path: String,
    /// Where the data sits: under `spec` (kube-rs style) or beside `metadata`.
    pub style: Style,
    pub data: Model,
    pub status: Option<Model>,
    pub root_description: String,
    pub plural: String,
    pub namespaced: bool,
    pub status_subresource: bool,
    pub scale_subresource: bool,
    /// The resource's kubebuilder markers (`+kubebuilder:resource:...`, subresources,
    /// printer columns, ...), from its CRD.
    pub resource_markers: Vec<String>,
}

/// One group/version: its kinds and every named type they use.
#[derive(Clone)]
pub struct Package {
    pub group: String,
    /// The group's short name for directories and modules: its first label (`zoo` for
    /// `zoo.kubegen.dev`), or the whole group in underscores when two groups share it.
    pub short: String,
    pub version: String,
    /// Directory relative to the language's root, e.g. `api/zoo/v1`.
    pub dir: String,
    pub kinds: Vec<KindModel>,
    /// Every named type, in the typed schema IR.
    pub types: BTreeMap<String, Node>,
    /// Kubernetes' types the kinds use, with what the model says of them.
    pub external: BTreeMap<String, External>,
    /// The Kubernetes types the kinds reach, as their CRDs carry them
    /// ([`Package::generated_kubernetes`]).
    pub kubernetes: BTreeMap<String, Node>,
    /// Named types the server keeps unknown keys in at some use though their own schema
    /// does not say so: a field's `preserve_unknown_fields` over a named type
    /// ([`open_types`]).
    pub open: BTreeSet<String>,
}

impl Package {
    /// The Kubernetes types the TypeScript and Python packages declare themselves, by
    /// definition name, each with its client name (`io.k8s.api.core.v1.PodSpec` →
    /// `V1PodSpec`, the upstream libraries' name): every one the kinds reach but
    /// `ObjectMeta` (kept as sent, the upstream type) and those with a wire form of their
    /// own ([`shape::wire_form`]). The upstream libraries lag the API server (client-node's
    /// `V1PodSpec` had no 1.37 fields) and type a Quantity inside them as a string, where
    /// the server takes an integer too: a client typed by them refused what the server
    /// admitted (issue 28's generated kinds tier). Each comes with its node; a type or kind
    /// of the API with the name of one of them is refused by name.
    pub fn generated_kubernetes(&self) -> Result<BTreeMap<&str, (String, &Node)>, ModelError> {
        let mut out = BTreeMap::new();
        for (definition, node) in &self.kubernetes {
            if definition == OBJECT_META || shape::wire_form(definition).is_some() {
                continue;
            }
            let name = kubernetes_name(definition);
            if self.types.contains_key(&name) || self.kinds.iter().any(|k| k.kind == name) {
                return Err(ModelError(format!(
                    "a type used by {}/{}: the type name `{name}` is the name of Kubernetes' {definition}, which the package declares; give the Rust type another schema name (#[schemars(rename = \"...\")]) or rename it",
                    self.group, self.version
                )));
            }
            out.insert(definition.as_str(), (name, node));
        }
        Ok(out)
    }

    /// The API server keeps keys `name`'s schema does not name, at some use of it: the
    /// type's own `x-kubernetes-preserve-unknown-fields`, or a field's over it. One type
    /// per named type in every language, so it keeps them wherever it is used (where the
    /// server prunes them, the server drops what the client sent); a type that dropped
    /// them would lose them on a read-modify-write where the server keeps them.
    pub fn keeps_unknown(&self, name: &str) -> bool {
        self.open.contains(name) || self.types.get(name).is_some_and(|def| shape::is(def.preserve_unknown_fields))
    }
}

/// Kubernetes' `ObjectMeta`: a kind's metadata and an embedded template's, typed by the
/// upstream library in every language.
pub const OBJECT_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";

/// The upstream client libraries' name of a Kubernetes definition:
/// `io.k8s.api.core.v1.PodSpec` → `V1PodSpec`; with its group where another definition
/// has the same version and name (`io.k8s.api.core.v1.Event` → `CoreV1Event`, beside
/// `EventsV1Event`), as client-node and the kubernetes client name them.
pub fn kubernetes_name(definition: &str) -> String {
    let (group, short) = short_kubernetes_name(definition);
    if ambiguous_kubernetes_names().contains(&short) { format!("{}{short}", upper_first(group)) } else { short }
}

/// A definition's group and its name without it (`V1Event`).
fn short_kubernetes_name(definition: &str) -> (&str, String) {
    let mut parts: Vec<&str> = definition.split('.').collect();
    let name = parts.pop().unwrap_or_default();
    let version = parts.pop().unwrap_or_default();
    (parts.pop().unwrap_or_default(), format!("{}{name}", upper_first(version)))
}

/// The names without a group that two of Kubernetes' definitions share (of the release
/// k8s-openapi is built for).
fn ambiguous_kubernetes_names() -> &'static std::collections::BTreeSet<String> {
    static AMBIGUOUS: std::sync::OnceLock<std::collections::BTreeSet<String>> = std::sync::OnceLock::new();
    AMBIGUOUS.get_or_init(|| {
        let table: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(kubegen_core::k8s::TABLE).unwrap_or_default();
        let mut count: BTreeMap<String, usize> = BTreeMap::new();
        for definition in table.keys() {
            *count.entry(short_kubernetes_name(definition).1).or_default() += 1;
        }
        count.into_iter().filter(|(_, n)| *n > 1).map(|(name, _)| name).collect()
    })
}

// The languages `clients` writes: a setting (`[workspace.metadata.kubegen.clients]
// languages`) as much as a flag, so it lives with the settings, which import nothing of
// the generators.
pub use crate::settings::Lang;

/// What a language's generator is given besides the packages.
pub struct Options<'a> {
    /// `[workspace.metadata.kubegen] project`: the default package names derive from it.
    pub project: &'a str,
    /// `[workspace.metadata.kubegen.clients]`.
    pub settings: &'a crate::settings::ClientSettings,
    /// The package's version (`version`, default 0.1.0).
    pub version: String,
    /// `--header FILE`'s text as YAML comments ([`slash_comment_header`] and the like
    /// turn it into the language's).
    pub header: &'a str,
    /// `--go-kubernetes-types`, else the setting, else its default.
    pub go_kubernetes_types: crate::settings::GoKubernetesTypes,
}

/// One language of `clients`, in a module of this folder: a new language is its module
/// and one line of [`language`] (and its name in [`Lang`]).
pub trait Language: Sync {
    /// The package's files, by path relative to its directory.
    fn files(&self, packages: &[Package], options: &Options) -> Result<Vec<(String, String)>, ModelError>;
}

/// The generator of `lang`.
pub(crate) fn language(lang: Lang) -> &'static dyn Language {
    match lang {
        Lang::Go => &go::Go,
        Lang::Typescript => &typescript::TypeScript,
        Lang::Python => &python::Python,
    }
}

/// The kinds by group/version, with their models merged into one type table per package
/// (a workspace's are [`Project::packages`](crate::project::Project::packages), built once).
pub(crate) fn packages(kinds: Vec<Kind>) -> Result<Vec<Package>> {
    let merged = crd_merge::crds(kinds.clone())?;
    packages_merged(kinds, &merged)
}

/// [`packages`] of kinds whose versions `merged` holds merged, as `manifests` writes them:
/// storage versions and merged names come from there.
pub(crate) fn packages_merged(kinds: Vec<Kind>, merged: &[CustomResourceDefinition]) -> Result<Vec<Package>> {
    let merged: BTreeMap<String, &CustomResourceDefinition> =
        merged.iter().map(|c| (c.metadata.name.clone().unwrap_or_default(), c)).collect();
    let mut by_gv: BTreeMap<(String, String), Package> = BTreeMap::new();
    let groups: std::collections::BTreeSet<String> = kinds.iter().map(|k| k.crd.spec.group.clone()).collect();
    for kind in kinds {
        if kind.skip_version || kind.types.style == Style::Disabled {
            continue;
        }
        let crd = &kind.crd;
        let Some(version) = crd.spec.versions.first() else { continue };
        let group = crd.spec.group.clone();
        let short = short_name(&group, &groups);
        let dir =
            if groups.len() > 1 { format!("api/{short}/{}", version.name) } else { format!("api/{}", version.name) };
        let pkg = by_gv.entry((group.clone(), version.name.clone())).or_insert_with(|| Package {
            group: group.clone(),
            short: short.clone(),
            version: version.name.clone(),
            dir,
            kinds: Vec::new(),
            types: BTreeMap::new(),
            external: BTreeMap::new(),
            kubernetes: BTreeMap::new(),
            open: BTreeSet::new(),
        });
        let Some(data) = kind.types.data.clone() else { continue };
        for part in [Some(&data), kind.types.status.as_ref()].into_iter().flatten() {
            pkg.external.extend(part.external.clone());
            // One release's types per workspace; a second kind's node of the same name is
            // the same unless its options differ (an embedded ObjectMeta's form), and
            // the first one read serves the package.
            for (name, node) in &part.kubernetes {
                pkg.kubernetes.entry(name.clone()).or_insert_with(|| node.clone());
            }
            for (name, schema) in &part.types {
                match pkg.types.get(name) {
                    Some(existing) if existing != schema => bail!(
                        "{}: two different types named {name} in {group}/{}; rename one (#[schemars(rename = ...)] or the Rust type)",
                        kind.type_path,
                        version.name
                    ),
                    _ => {
                        pkg.types.insert(name.clone(), schema.clone());
                    }
                }
            }
        }
        let merged_crd = merged.get(crd.metadata.name.as_deref().unwrap_or_default()).copied();
        let resource_markers = resource_markers(crd, merged_crd);
        let root_description = version
            .schema
            .as_ref()
            .and_then(|s| s.open_api_v3_schema.as_ref())
            .and_then(|s| s.description.clone())
            .unwrap_or_default();
        let subresources = version.subresources.as_ref();
        pkg.kinds.push(KindModel {
            plural: crd.spec.names.plural.clone(),
            namespaced: crd.spec.scope == "Namespaced",
            status_subresource: subresources.is_some_and(|s| s.status.is_some()),
            scale_subresource: subresources.is_some_and(|s| s.scale.is_some()),
            kind: crd.spec.names.kind.clone(),
            type_path: kind.type_path.clone(),
            style: kind.types.style,
            data,
            status: kind.types.status.clone(),
            root_description,
            resource_markers,
        });
    }
    let mut packages: Vec<Package> = by_gv.into_values().collect();
    for pkg in &mut packages {
        let roots: Vec<&Node> =
            pkg.kinds.iter().flat_map(|k| [Some(&k.data.root), k.status.as_ref().map(|s| &s.root)]).flatten().collect();
        pkg.open = open_types(&pkg.types, roots);
    }
    Ok(packages)
}

/// The named types a use keeps unknown keys in though their own schema does not: a
/// reference with `x-kubernetes-preserve-unknown-fields` (a field's marker, beside the
/// reference or through `Option`) reaches them, also through named types that are
/// another type's name (a transparent newtype). Only the object the reference stands
/// for: the server prunes the fields its schema names by their own schemas, and a
/// list's items or a map's values by theirs.
fn open_types<'a>(types: &BTreeMap<String, Node>, roots: impl IntoIterator<Item = &'a Node>) -> BTreeSet<String> {
    let mut pending: Vec<&str> = Vec::new();
    let mut find = |node: &Node| {
        node.walk(&mut |_: &[kubegen_core::schema::node::Step<'_>], n: &Node| {
            if let Some(name) = n.reference.as_deref()
                && shape::is(n.preserve_unknown_fields)
                && let Some((name, _)) = types.get_key_value(name)
            {
                pending.push(name.as_str());
            }
            true
        });
    };
    roots.into_iter().for_each(&mut find);
    types.values().for_each(&mut find);
    let mut open = BTreeSet::new();
    while let Some(name) = pending.pop() {
        let Some(def) = types.get(name) else { continue };
        if shape::is(def.preserve_unknown_fields) || !open.insert(name.to_string()) {
            continue;
        }
        // `type A = B`: what A's use keeps, B's type holds.
        if let Some((target, _)) = def.reference.as_deref().and_then(|r| types.get_key_value(r)) {
            pending.push(target.as_str());
        }
    }
    open
}

/// Renders a template; the file ends with a newline.
fn render(t: &dyn askama::DynTemplate, what: &str) -> Result<String, ModelError> {
    output::render(t, what).map_err(|e| ModelError(format!("{e:#}")))
}

/// A JSON number as a marker or literal writes it: integral values without a fraction.
fn number(v: &Value) -> String {
    match v.as_f64() {
        Some(f) if f.fract() == 0.0 && f.abs() < 9e15 => format!("{}", f as i64),
        _ => v.to_string(),
    }
}

fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

/// The `--header` text (YAML comments, as `manifests` reads it) as `//` comments.
fn slash_comment_header(header: &str) -> String {
    let mut out = String::new();
    for line in header.lines() {
        if line == "---" {
            continue;
        }
        let text = line.strip_prefix('#').map(str::trim_start).unwrap_or(line);
        if text.is_empty() { out.push_str("//\n") } else { out.push_str(&format!("// {text}\n")) }
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// A group's first label, unless another group of the workspace starts with it too.
fn short_name(group: &str, groups: &std::collections::BTreeSet<String>) -> String {
    let first = |g: &str| g.split('.').next().unwrap_or(g).to_string();
    let label = first(group);
    if groups.iter().filter(|g| first(g) == label).count() > 1 {
        group.replace(['.', '-'], "_")
    } else {
        label.replace('-', "_")
    }
}

fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// The markers controller-gen reads on a root type to write this kind's CRD.
fn resource_markers(crd: &CustomResourceDefinition, merged: Option<&CustomResourceDefinition>) -> Vec<String> {
    let mut out = Vec::new();
    let names = &crd.spec.names;
    let mut resource = format!(
        "+kubebuilder:resource:path={},singular={},scope={}",
        names.plural,
        names.singular.as_deref().unwrap_or_default(),
        crd.spec.scope
    );
    if let Some(short) = names.short_names.as_ref().filter(|s| !s.is_empty()) {
        resource += &format!(",shortName={}", short.join(";"));
    }
    if let Some(categories) = names.categories.as_ref().filter(|c| !c.is_empty()) {
        resource += &format!(",categories={}", categories.join(";"));
    }
    out.push(resource);
    let Some(version) = crd.spec.versions.first() else { return out };
    let merged_version = merged.and_then(|m| m.spec.versions.iter().find(|v| v.name == version.name));
    if let Some(m) = merged
        && m.spec.versions.len() > 1
        && merged_version.is_some_and(|v| v.storage)
    {
        out.push("+kubebuilder:storageversion".into());
    }
    if !version.served {
        out.push("+kubebuilder:unservedversion".into());
    }
    if version.deprecated == Some(true) {
        match &version.deprecation_warning {
            Some(w) => out.push(format!("+kubebuilder:deprecatedversion:warning={}", quoted(w))),
            None => out.push("+kubebuilder:deprecatedversion".into()),
        }
    }
    if let Some(sub) = &version.subresources {
        if sub.status.is_some() {
            out.push("+kubebuilder:subresource:status".into());
        }
        if let Some(scale) = &sub.scale {
            let mut s = format!(
                "+kubebuilder:subresource:scale:specpath={},statuspath={}",
                scale.spec_replicas_path, scale.status_replicas_path
            );
            if let Some(sel) = &scale.label_selector_path {
                s += &format!(",selectorpath={sel}");
            }
            out.push(s);
        }
    }
    for c in version.additional_printer_columns.iter().flatten() {
        let mut s = format!(
            "+kubebuilder:printcolumn:name={},type={},JSONPath={}",
            quoted(&c.name),
            c.type_,
            quoted(&c.json_path)
        );
        if let Some(d) = &c.description {
            s += &format!(",description={}", quoted(d));
        }
        if let Some(f) = &c.format {
            s += &format!(",format={f}");
        }
        if let Some(p) = c.priority {
            s += &format!(",priority={p}");
        }
        out.push(s);
    }
    for f in version.selectable_fields.iter().flatten() {
        out.push(format!("+kubebuilder:selectablefield:JSONPath={}", quoted(&f.json_path)));
    }
    for (k, v) in crd.metadata.annotations.iter().flatten() {
        out.push(format!("+kubebuilder:metadata:annotations={}", quoted(&format!("{k}={v}"))));
    }
    for (k, v) in crd.metadata.labels.iter().flatten() {
        out.push(format!("+kubebuilder:metadata:labels={}", quoted(&format!("{k}={v}"))));
    }
    let root = version.schema.as_ref().and_then(|s| s.open_api_v3_schema.as_ref());
    for rule in root.and_then(|r| r.x_kubernetes_validations.as_ref()).into_iter().flatten() {
        if let Ok(v) = serde_json::to_value(rule) {
            out.push(go::xvalidation(&v));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 28: found by a new user's trial, preserve_unknown_fields on a named-struct
    /// field. The CRD kept unknown keys at such a field, but every client's type for the
    /// named struct was closed: TypeScript refused them, Python dropped them, Go dropped
    /// them on unmarshal. The kind uses named structs under a field's marker in each way a
    /// field reaches one, and closed beside them.
    /// Kubernetes' own types in a kind, for the Go package's two forms of them.
    pub(super) mod kubernetes_types {
        use kubegen::CustomResource;
        use serde::{Deserialize, Serialize};

        #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
        #[kube(group = "k8stypes.kubegen.dev", version = "v1", kind = "Runner", namespaced)]
        pub struct RunnerSpec {
            pub resources: Option<k8s_openapi::api::core::v1::ResourceRequirements>,
            pub env: Option<Vec<k8s_openapi::api::core::v1::EnvVar>>,
        }
    }

    /// Found by review: `io.k8s.api.core.v1.Event` and `io.k8s.api.events.v1.Event` were both
    /// `V1Event`, one declared type for two schemas (and an import client-node lacks).
    #[test]
    fn kubernetes_names_are_the_upstream_clients() {
        assert_eq!(kubernetes_name("io.k8s.api.core.v1.PodSpec"), "V1PodSpec");
        assert_eq!(kubernetes_name("io.k8s.api.core.v1.Event"), "CoreV1Event");
        assert_eq!(kubernetes_name("io.k8s.api.events.v1.Event"), "EventsV1Event");
        assert_eq!(kubernetes_name("io.k8s.api.core.v1.EndpointPort"), "CoreV1EndpointPort");
        assert_eq!(
            kubernetes_name("io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ServiceReference"),
            "ApiextensionsV1ServiceReference"
        );
    }

    /// The one package of the kinds registered in the test module `module`, as `clients`
    /// builds it.
    fn package_of(module: &str) -> Package {
        let prefix = format!("kubegen_cli::clients::tests::{module}::");
        let kinds: Vec<Kind> = kubegen::kinds::records(&Default::default())
            .into_iter()
            .filter(|k| k.type_path.starts_with(&prefix))
            .collect();
        let mut packages = packages(kinds).expect("the client model");
        assert_eq!(packages.len(), 1);
        packages.remove(0)
    }

    /// The package of [`kubernetes_types`]'s kind.
    pub(super) fn kubernetes_types_package() -> Package {
        package_of("kubernetes_types")
    }

    pub(super) mod issue28 {
        use kubegen::{CustomResource, KubeSchema};
        use serde::{Deserialize, Serialize};

        #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
        #[kube(group = "issue28.kubegen.dev", version = "v1", kind = "Gadget", namespaced)]
        #[serde(rename_all = "camelCase")]
        pub struct GadgetSpec {
            /// The typed key, on the type itself.
            #[kube(preserve_unknown_fields)]
            pub part: Part,
            /// The marker, through `Option`; the same type closed in `closedShared`.
            /// +kubebuilder:pruning:PreserveUnknownFields
            pub shared: Option<Shared>,
            pub closed_shared: Option<Shared>,
            /// A transparent newtype: the type it names keeps the keys.
            #[kube(preserve_unknown_fields)]
            pub alias: Option<Alias>,
            /// Items and the open type's own fields are pruned by their own schemas.
            pub closed: Option<Vec<Closed>>,
        }

        #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
        pub struct Part {
            pub name: String,
            pub inner: Option<Closed>,
        }

        #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
        pub struct Shared {
            pub size: Option<i32>,
        }

        #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
        #[serde(transparent)]
        pub struct Alias(pub Target);

        #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
        pub struct Target {
            pub id: Option<String>,
        }

        #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
        pub struct Closed {
            pub x: Option<String>,
        }
    }

    /// The package of [`issue28`]'s kind, as `clients` builds it.
    pub(super) fn issue28_package() -> Package {
        package_of("issue28")
    }

    #[test]
    fn a_field_s_preserve_unknown_fields_opens_the_named_type_it_uses() {
        let pkg = issue28_package();
        let open: Vec<&str> = pkg.open.iter().map(String::as_str).collect();
        assert_eq!(open, ["Part", "Shared", "Target"], "{:#?}", pkg.types);
        for name in ["Part", "Shared", "Target"] {
            assert!(pkg.keeps_unknown(name), "{name}");
            // The type's own schema is unchanged: the marker stays the field's.
            assert_eq!(pkg.types[name].preserve_unknown_fields, None, "{name}");
        }
        assert!(!pkg.keeps_unknown("Closed"));
        assert!(!pkg.keeps_unknown("GadgetSpec"));
        // Where the CRD keeps unknown keys: the open types' uses and nowhere else.
        use kubegen::CustomResourceExt;
        let crd = serde_json::to_value(issue28::Gadget::crd()).expect("the CRD as JSON");
        let spec = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"];
        let kept: Vec<&str> = spec
            .as_object()
            .expect("spec's fields")
            .iter()
            .filter(|(_, node)| node["x-kubernetes-preserve-unknown-fields"] == true)
            .map(|(name, _)| name.as_str())
            .collect();
        assert_eq!(kept, ["alias", "part", "shared"], "{spec:#}");
        assert_eq!(spec["part"]["properties"]["inner"].get("x-kubernetes-preserve-unknown-fields"), None);
    }

    #[test]
    fn an_open_use_reaches_through_another_type_s_name_and_into_items() {
        let types: BTreeMap<String, Node> = [
            ("Name", serde_json::json!({"x-kubegen-ref": "Named"})),
            ("Named", serde_json::json!({"type": "object", "properties": {"a": {"x-kubegen-ref": "Inner"}}})),
            ("Inner", serde_json::json!({"type": "object", "properties": {"b": {"type": "string"}}})),
            ("Item", serde_json::json!({"type": "object", "properties": {"c": {"type": "string"}}})),
            (
                "Own",
                serde_json::json!({"type": "object", "properties": {}, "x-kubernetes-preserve-unknown-fields": true}),
            ),
        ]
        .into_iter()
        .map(|(name, v)| (name.to_string(), Node::from_value(&v).expect("a schema")))
        .collect();
        let root = Node::from_value(&serde_json::json!({"type": "object", "properties": {
            "name": {"x-kubegen-ref": "Name", "x-kubernetes-preserve-unknown-fields": true},
            "items": {"type": "array", "items": {"x-kubegen-ref": "Item", "x-kubernetes-preserve-unknown-fields": true}},
            "own": {"x-kubegen-ref": "Own", "x-kubernetes-preserve-unknown-fields": true},
            "closed": {"x-kubegen-ref": "Inner"}
        }}))
        .expect("a schema");
        let open = open_types(&types, [&root]);
        // `Own` keeps them by its own schema already; `Inner`'s own use is closed.
        assert_eq!(open.into_iter().collect::<Vec<_>>(), ["Item", "Name", "Named"]);
    }

    #[test]
    fn groups_sharing_a_first_label_get_their_whole_name() {
        let groups: std::collections::BTreeSet<String> =
            ["zoo.kubegen.dev", "a.example.com", "a.other.io"].iter().map(|g| g.to_string()).collect();
        assert_eq!(short_name("zoo.kubegen.dev", &groups), "zoo");
        assert_eq!(short_name("a.example.com", &groups), "a_example_com");
        assert_eq!(short_name("a.other.io", &groups), "a_other_io");
    }
}
