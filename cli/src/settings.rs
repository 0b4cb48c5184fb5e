//! `[workspace.metadata.kubegen]` and `[package.metadata.kubegen]`, typed. A key the tool
//! does not know is an error naming the table and the closest known key: a misspelled
//! setting that is silently ignored is a setting that silently does nothing.

use anyhow::{Result, bail};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// The languages `clients` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, clap::ValueEnum, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// Go API types in kubebuilder's layout, with deepcopy
    Go,
    /// A TypeScript package over @kubernetes/client-node
    Typescript,
    /// A Python package over the kubernetes client, with pydantic models
    Python,
}

impl Lang {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Lang::Go => "go",
            Lang::Typescript => "typescript",
            Lang::Python => "python",
        }
    }
}

/// Where the Go package takes Kubernetes' own types (`PodTemplateSpec`, `Container`, ...)
/// from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GoKubernetesTypes {
    /// k8s.io/api's types (`corev1.PodTemplateSpec`): what controller-runtime and client-go
    /// take, but their `omitempty` drops an empty string or list the server keeps, and
    /// their `resource.Quantity` writes a quantity in its canonical form
    Upstream,
    /// The package declares them from the CRD's own schema, as the TypeScript and Python
    /// packages do: what the server keeps inside them comes back as sent
    #[default]
    Declared,
}

/// `[workspace.metadata.kubegen]`.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Settings {
    /// Names the namespace (`<project>-system`) and the name prefix of `config/default`.
    pub project: Option<String>,
    /// `create api` puts kinds under the group `<group>.<domain>`.
    pub domain: Option<String>,
    /// A namespace-scoped manager (`init --namespaced`, `edit --namespaced`): it watches
    /// its own namespace, and the RBAC markers' rules become a Role and a RoleBinding there
    /// instead of a ClusterRole and a ClusterRoleBinding.
    #[serde(default)]
    pub namespaced: bool,
    #[serde(default)]
    pub clients: ClientSettings,
    #[serde(default)]
    pub docs: DocsSettings,
    /// `[workspace.metadata.kubegen.diff]`: a level per `diff` check id
    /// (`field-removed = "warn"`); the ids are checked by `diff` itself.
    #[serde(default)]
    pub diff: std::collections::BTreeMap<String, DiffLevel>,
    /// Classes of markers that do nothing (`plain-comment`, `misspelled-marker`,
    /// `singular-resource`, `events-rbac`) that `manifests` reports as warnings; every
    /// other class fails it.
    #[serde(default)]
    pub warn: Vec<crate::source_markers::Lost>,
    /// `size-budget = "annotation"`: what `manifests --size-budget` says when not given.
    pub size_budget: Option<SizeBudget>,
}

/// How large a CRD may be, in JSON bytes: `manifests` drops descriptions, the deepest
/// first, until each fits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SizeBudget {
    /// The 262,144 bytes of the annotation client-side `kubectl apply` writes.
    Annotation,
    /// etcd's default request limit, 1.5 MiB: what any apply needs.
    Etcd,
    Bytes(usize),
}

impl SizeBudget {
    /// The most `crd`'s JSON may be (for the annotation: less its key and the CRD's own
    /// annotations, which the limit counts too).
    pub fn bytes_for(
        self,
        crd: &k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition,
    ) -> usize {
        match self {
            SizeBudget::Annotation => kubegen::crd::annotation_budget(crd),
            SizeBudget::Etcd => kubegen::crd::ETCD_REQUEST_LIMIT,
            SizeBudget::Bytes(n) => n,
        }
    }
}

impl std::str::FromStr for SizeBudget {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "annotation" => Ok(SizeBudget::Annotation),
            "etcd" => Ok(SizeBudget::Etcd),
            n => n.replace('_', "").parse().map(SizeBudget::Bytes).map_err(|_| {
                format!("`{n}` is no size budget: write `annotation` (262144 bytes, client-side kubectl apply), `etcd` (1572864) or a number of bytes")
            }),
        }
    }
}

impl<'de> Deserialize<'de> for SizeBudget {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::Number(n) => n
                .as_u64()
                .map(|n| SizeBudget::Bytes(n as usize))
                .ok_or_else(|| serde::de::Error::custom(format!("size-budget `{n}` is not a number of bytes"))),
            Value::String(s) => s.parse().map_err(serde::de::Error::custom),
            other => Err(serde::de::Error::custom(format!(
                "size-budget `{other}` is not `annotation`, `etcd` or a number of bytes"
            ))),
        }
    }
}

/// How a `diff` finding counts: an error fails the command, a warning is printed, off
/// is not reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DiffLevel {
    Error,
    Warn,
    Off,
}

/// `[workspace.metadata.kubegen.docs]`.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct DocsSettings {
    /// The reference's title (its index page's heading); "API reference" when unset.
    pub title: Option<String>,
    /// Only these kinds (by kind name, or `group/Kind`); every kind when unset.
    pub kinds: Option<Vec<String>>,
    /// Links listed on the index page: `[{ title = "...", url = "..." }]`.
    #[serde(default)]
    pub links: Vec<DocsLink>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DocsLink {
    pub title: String,
    pub url: String,
}

/// `[workspace.metadata.kubegen.clients]`.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct ClientSettings {
    /// The languages `clients` writes without `--lang`; every language when unset.
    pub languages: Option<Vec<Lang>>,
    /// The Go module path of `clients/go`.
    pub go_module: Option<String>,
    /// Where the Go package takes Kubernetes' own types from (`declared`, the default, or
    /// `upstream`).
    pub go_kubernetes_types: Option<GoKubernetesTypes>,
    /// The npm package name of `clients/typescript`.
    pub typescript_package: Option<String>,
    /// The Python package (import name) of `clients/python`.
    pub python_package: Option<String>,
    /// The version the TypeScript and Python packages carry.
    pub version: Option<String>,
}

/// `[package.metadata.kubegen]`.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct PackageSettings {
    /// `false`: `manifests` and `clients` leave the package out unless `-p` names it.
    pub manifests: Option<bool>,
}

const WORKSPACE_KEYS: &[&str] = &["project", "domain", "namespaced", "clients", "docs", "diff", "warn", "size-budget"];
const DOCS_KEYS: &[&str] = &["title", "kinds", "links"];
const CLIENT_KEYS: &[&str] =
    &["languages", "go-module", "go-kubernetes-types", "typescript-package", "python-package", "version"];
const PACKAGE_KEYS: &[&str] = &["manifests"];

impl Settings {
    /// The workspace's settings from `cargo metadata`'s `metadata.kubegen` (absent: all defaults).
    pub fn from_metadata(kubegen: Option<&Value>) -> Result<Self> {
        let Some(value) = kubegen else { return Ok(Settings::default()) };
        known_keys(value, "[workspace.metadata.kubegen]", WORKSPACE_KEYS)?;
        if let Some(clients) = value.get("clients") {
            known_keys(clients, "[workspace.metadata.kubegen.clients]", CLIENT_KEYS)?;
        }
        if let Some(docs) = value.get("docs") {
            known_keys(docs, "[workspace.metadata.kubegen.docs]", DOCS_KEYS)?;
        }
        typed(value, "[workspace.metadata.kubegen]")
    }
}

impl PackageSettings {
    /// A package's settings; `package` names it in errors.
    pub fn from_metadata(kubegen: Option<&Value>, package: &str) -> Result<Self> {
        let Some(value) = kubegen else { return Ok(PackageSettings::default()) };
        let table = format!("[package.metadata.kubegen] of {package}");
        known_keys(value, &table, PACKAGE_KEYS)?;
        typed(value, &table)
    }
}

fn typed<T: DeserializeOwned>(value: &Value, table: &str) -> Result<T> {
    T::deserialize(value).map_err(|e| anyhow::anyhow!("{table}: {e}"))
}

fn known_keys(value: &Value, table: &str, known: &[&str]) -> Result<()> {
    let Some(map) = value.as_object() else { bail!("{table} must be a table") };
    for key in map.keys() {
        if known.contains(&key.as_str()) {
            continue;
        }
        let hint = match kubegen_core::markers::registry::suggest(key, known.iter().copied()) {
            Some(close) => format!("did you mean `{close}`?"),
            None => format!("the keys are {}", known.join(", ")),
        };
        bail!("{table}: unknown key `{key}`; {hint}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_misspelled_key_is_an_error_with_the_closest_key() {
        let err = Settings::from_metadata(Some(&json!({"projekt": "x"}))).unwrap_err().to_string();
        assert_eq!(err, "[workspace.metadata.kubegen]: unknown key `projekt`; did you mean `project`?");
        let err = Settings::from_metadata(Some(&json!({"clients": {"go_module": "x"}}))).unwrap_err().to_string();
        assert_eq!(err, "[workspace.metadata.kubegen.clients]: unknown key `go_module`; did you mean `go-module`?");
        let err = PackageSettings::from_metadata(Some(&json!({"manifest": false})), "zoo").unwrap_err().to_string();
        assert_eq!(err, "[package.metadata.kubegen] of zoo: unknown key `manifest`; did you mean `manifests`?");
    }

    #[test]
    fn a_wrong_value_names_the_table() {
        let err = Settings::from_metadata(Some(&json!({"clients": {"languages": ["rust"]}}))).unwrap_err().to_string();
        assert!(err.starts_with("[workspace.metadata.kubegen]: unknown variant `rust`"), "{err}");
    }

    #[test]
    fn settings_read_as_written() {
        let s = Settings::from_metadata(Some(
            &json!({"project": "p", "clients": {"languages": ["go", "python"], "go-module": "m"}}),
        ))
        .unwrap();
        assert_eq!(s.project.as_deref(), Some("p"));
        assert_eq!(s.clients.languages, Some(vec![Lang::Go, Lang::Python]));
        assert_eq!(s.clients.go_module.as_deref(), Some("m"));
        assert_eq!(s.clients.go_kubernetes_types, None);
        let s = Settings::from_metadata(Some(&json!({"clients": {"go-kubernetes-types": "declared"}}))).unwrap();
        assert_eq!(s.clients.go_kubernetes_types, Some(GoKubernetesTypes::Declared));
        let err = Settings::from_metadata(Some(&json!({"clients": {"go-kubernetes-types": "ours"}})))
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown variant `ours`, expected `upstream` or `declared`"), "{err}");
        let s = Settings::from_metadata(Some(
            &json!({"docs": {"title": "T", "kinds": ["Foo"], "links": [{"title": "a", "url": "u"}]}}),
        ))
        .unwrap();
        assert_eq!(
            (s.docs.title.as_deref(), s.docs.kinds.as_deref().map(|k| k.len()), s.docs.links.len()),
            (Some("T"), Some(1), 1)
        );
        let err = Settings::from_metadata(Some(&json!({"docs": {"titel": "T"}}))).unwrap_err().to_string();
        assert_eq!(err, "[workspace.metadata.kubegen.docs]: unknown key `titel`; did you mean `title`?");
        let s = Settings::from_metadata(Some(&json!({"diff": {"field-removed": "warn"}}))).unwrap();
        assert_eq!(s.diff.get("field-removed"), Some(&DiffLevel::Warn));
        let err = Settings::from_metadata(Some(&json!({"diff": {"field-removed": "loud"}}))).unwrap_err().to_string();
        assert!(err.starts_with("[workspace.metadata.kubegen]: unknown variant `loud`"), "{err}");
        let s = Settings::from_metadata(Some(&json!({"size-budget": "annotation"}))).unwrap();
        assert_eq!(s.size_budget, Some(SizeBudget::Annotation));
        let s = Settings::from_metadata(Some(&json!({"size-budget": 500000}))).unwrap();
        assert_eq!(s.size_budget, Some(SizeBudget::Bytes(500_000)));
        let err = Settings::from_metadata(Some(&json!({"size-budget": "small"}))).unwrap_err().to_string();
        assert!(err.contains("`small` is no size budget"), "{err}");
        let s = Settings::from_metadata(Some(&json!({"warn": ["plain-comment", "events-rbac"]}))).unwrap();
        assert_eq!(s.warn, [crate::source_markers::Lost::PlainComment, crate::source_markers::Lost::EventsRbac]);
        let err = Settings::from_metadata(Some(&json!({"warn": ["plain-comments"]}))).unwrap_err().to_string();
        assert!(err.contains("unknown variant `plain-comments`, expected one of `plain-comment`"), "{err}");
    }
}
