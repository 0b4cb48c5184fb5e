//! Webhooks served by a process on this machine, for an API server on this machine (a
//! local cluster, the test environment): what controller-runtime's envtest
//! `WebhookInstallOptions` does. The configurations `config/` deploys (the admission
//! webhooks of `config/webhook/manifests.yaml`, the conversions of `config/crd/patches`)
//! are installed with `url: https://<address><path>` and the `caBundle` of a CA made for
//! the purpose, in place of the in-cluster Service that does not run here; undone, they
//! are deleted and each CRD's conversion is what it was before.
//!
//! What is installed carries the label `app.kubernetes.io/managed-by: kubegen-local-webhooks`;
//! a configuration of the same name without it is not replaced, and one that calls the
//! same webhook at a Service (a deployed manager's) is reported rather than left to fail
//! every write.

use std::path::Path;

use k8s_openapi::ByteString;
use k8s_openapi::api::admissionregistration::v1::{
    MutatingWebhookConfiguration, ValidatingWebhookConfiguration, WebhookClientConfig,
};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::{
    CustomResourceConversion, CustomResourceDefinition,
};
use kube::api::{Api, DeleteParams, ListParams, Patch, PatchParams, PostParams};
use kube::{Client, Resource, ResourceExt};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The label on what is installed, and its value.
pub const MANAGED_BY: (&str, &str) = ("app.kubernetes.io/managed-by", "kubegen-local-webhooks");

/// A CRD's conversion webhook, as a patch in `config/crd/patches` configures it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrdConversion {
    /// The CRD (`memcacheds.cache.example.com`).
    pub crd: String,
    /// The path the manager serves it at (`/convert`).
    pub path: String,
    pub review_versions: Vec<String>,
}

/// What `config/` has the API server call.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    pub mutating: Vec<MutatingWebhookConfiguration>,
    pub validating: Vec<ValidatingWebhookConfiguration>,
    pub conversions: Vec<CrdConversion>,
}

#[derive(Debug, thiserror::Error)]
pub enum LocalError {
    #[error("{path}: {why}")]
    Config { path: String, why: String },
    #[error(
        "{kind} {name} exists and was not installed for local webhooks (it has no label {}={}): replacing it could break whoever made it; delete it (`kubectl delete {resource} {name}`), then run again",
        MANAGED_BY.0, MANAGED_BY.1
    )]
    Foreign { kind: &'static str, resource: &'static str, name: String },
    #[error(
        "{kind} {name} calls webhook {webhook} at Service {service}, which a process on this machine does not serve: with it installed every write it matches fails. It is a deployed manager's (`make undeploy`), or delete it (`kubectl delete {resource} {name}`), then run again"
    )]
    Deployed { kind: &'static str, resource: &'static str, name: String, webhook: String, service: String },
    #[error(
        "CRD {0} is not installed, so its conversion cannot point here: install the CRDs first (`make install`, or `kubectl apply --server-side -f config/crd/bases`)"
    )]
    NoCrd(String),
    #[error("{what}: {source}")]
    Kube { what: String, source: kube::Error },
}

fn kube_err(what: impl Into<String>) -> impl FnOnce(kube::Error) -> LocalError {
    let what = what.into();
    move |source| LocalError::Kube { what, source }
}

fn documents(path: &Path) -> Result<Vec<Value>, LocalError> {
    let shown = path.display().to_string();
    let text =
        std::fs::read_to_string(path).map_err(|e| LocalError::Config { path: shown.clone(), why: e.to_string() })?;
    let docs: Vec<Option<Value>> = serde_saphyr::from_multiple(&text)
        .map_err(|e| LocalError::Config { path: shown.clone(), why: format!("not YAML: {e}") })?;
    Ok(docs.into_iter().flatten().filter(|d| !d.is_null()).collect())
}

fn typed<T: serde::de::DeserializeOwned>(path: &Path, doc: Value) -> Result<T, LocalError> {
    serde_json::from_value(doc).map_err(|e| LocalError::Config { path: path.display().to_string(), why: e.to_string() })
}

impl Plan {
    /// The webhooks a project's `config/` directory deploys: the configurations of
    /// `webhook/manifests.yaml`, and the conversion of every CRD patch in `crd/patches`
    /// that `crd/kustomization.yaml` applies (all of them without one). Either may be
    /// absent (a project without webhooks has an empty plan).
    pub fn from_config(config: impl AsRef<Path>) -> Result<Plan, LocalError> {
        let config = config.as_ref();
        let mut plan = Plan::default();
        let manifests = config.join("webhook/manifests.yaml");
        if manifests.is_file() {
            for doc in documents(&manifests)? {
                match doc.get("kind").and_then(Value::as_str) {
                    Some("MutatingWebhookConfiguration") => plan.mutating.push(typed(&manifests, doc)?),
                    Some("ValidatingWebhookConfiguration") => plan.validating.push(typed(&manifests, doc)?),
                    _ => {}
                }
            }
        }
        let applied = std::fs::read_to_string(config.join("crd/kustomization.yaml")).ok();
        let listed = |name: &str| {
            applied.as_ref().is_none_or(|k| {
                k.lines().map(str::trim).any(|line| !line.starts_with('#') && line.contains(&format!("patches/{name}")))
            })
        };
        let mut patches: Vec<_> = std::fs::read_dir(config.join("crd/patches"))
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
            .filter(|p| p.file_name().is_some_and(|n| listed(&n.to_string_lossy())))
            .collect();
        patches.sort();
        for patch in patches {
            for doc in documents(&patch)? {
                let conversion = &doc["spec"]["conversion"];
                if doc["kind"] != "CustomResourceDefinition" || conversion["strategy"] != "Webhook" {
                    continue;
                }
                let Some(crd) = doc["metadata"]["name"].as_str() else { continue };
                let webhook = &conversion["webhook"];
                let path = webhook["clientConfig"]["service"]["path"].as_str().unwrap_or("/convert").to_string();
                let review_versions = webhook["conversionReviewVersions"]
                    .as_array()
                    .map(|v| v.iter().filter_map(Value::as_str).map(String::from).collect())
                    .unwrap_or_else(|| vec!["v1".to_string()]);
                plan.conversions.push(CrdConversion { crd: crd.to_string(), path, review_versions });
            }
        }
        Ok(plan)
    }

    pub fn is_empty(&self) -> bool {
        self.mutating.is_empty() && self.validating.is_empty() && self.conversions.is_empty()
    }

    /// Every admission webhook's name and client config, mutating and validating.
    fn calls(&self) -> Vec<(&str, &WebhookClientConfig)> {
        self.mutating
            .iter()
            .flat_map(Configuration::calls)
            .chain(self.validating.iter().flat_map(Configuration::calls))
            .collect()
    }

    /// The paths the API server will call, for the message that says what is served.
    pub fn paths(&self) -> Vec<String> {
        let mut paths: Vec<String> = self
            .calls()
            .into_iter()
            .filter_map(|(_, c)| c.service.as_ref().map(|s| s.path.clone().unwrap_or_else(|| "/".into())))
            .chain(self.conversions.iter().map(|c| c.path.clone()))
            .collect();
        paths.sort();
        paths.dedup();
        paths
    }
}

/// What [`install`] did, to undo it (kept by `codegen-cli local-webhooks` in its
/// directory, so a run that was killed is undone by the next).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Installed {
    pub mutating: Vec<String>,
    pub validating: Vec<String>,
    pub conversions: Vec<InstalledConversion>,
}

/// A CRD whose conversion [`install`] pointed here.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct InstalledConversion {
    pub crd: String,
    /// Its conversion before, set back by [`uninstall`].
    pub previous: Option<CustomResourceConversion>,
    /// The URL it was pointed at: set back only while it still calls it.
    pub url: String,
}

impl Installed {
    pub fn is_empty(&self) -> bool {
        self.mutating.is_empty() && self.validating.is_empty() && self.conversions.is_empty()
    }
}

/// A client config that calls `base` (`https://127.0.0.1:9443`) at the Service's path,
/// trusting `ca`. One that names a `url` already (the marker's own) is left alone.
fn pointed(config: &mut WebhookClientConfig, base: &str, ca: &str) {
    if let Some(service) = config.service.take() {
        config.url = Some(format!("{base}{}", service.path.as_deref().unwrap_or("/")));
        config.ca_bundle = Some(ByteString(ca.as_bytes().to_vec()));
    }
}

fn labelled(meta: &mut kube::api::ObjectMeta) {
    meta.labels.get_or_insert_default().insert(MANAGED_BY.0.into(), MANAGED_BY.1.into());
}

fn ours(meta: &kube::api::ObjectMeta) -> bool {
    meta.labels.as_ref().and_then(|l| l.get(MANAGED_BY.0)).is_some_and(|v| v == MANAGED_BY.1)
}

/// Webhook names of `config` that call a Service, with the Service.
fn service_calls<'a>(configs: impl Iterator<Item = (&'a str, &'a WebhookClientConfig)>) -> Vec<(String, String)> {
    configs
        .filter_map(|(name, c)| c.service.as_ref().map(|s| (name.to_string(), format!("{}/{}", s.namespace, s.name))))
        .collect()
}

/// A webhook configuration kind, mutating or validating: what [`install`] and
/// [`uninstall`] do with either.
trait Configuration:
    Resource<DynamicType = ()> + Clone + Serialize + serde::de::DeserializeOwned + std::fmt::Debug
{
    const KIND: &'static str;
    const RESOURCE: &'static str;
    /// Each webhook's name and client config.
    fn calls(&self) -> Vec<(&str, &WebhookClientConfig)>;
    fn client_configs(&mut self) -> Vec<&mut WebhookClientConfig>;
}

impl Configuration for MutatingWebhookConfiguration {
    const KIND: &'static str = "MutatingWebhookConfiguration";
    const RESOURCE: &'static str = "mutatingwebhookconfiguration";
    fn calls(&self) -> Vec<(&str, &WebhookClientConfig)> {
        self.webhooks.iter().flatten().map(|w| (w.name.as_str(), &w.client_config)).collect()
    }
    fn client_configs(&mut self) -> Vec<&mut WebhookClientConfig> {
        self.webhooks.iter_mut().flatten().map(|w| &mut w.client_config).collect()
    }
}

impl Configuration for ValidatingWebhookConfiguration {
    const KIND: &'static str = "ValidatingWebhookConfiguration";
    const RESOURCE: &'static str = "validatingwebhookconfiguration";
    fn calls(&self) -> Vec<(&str, &WebhookClientConfig)> {
        self.webhooks.iter().flatten().map(|w| (w.name.as_str(), &w.client_config)).collect()
    }
    fn client_configs(&mut self) -> Vec<&mut WebhookClientConfig> {
        self.webhooks.iter_mut().flatten().map(|w| &mut w.client_config).collect()
    }
}

/// Refuses, before anything is written, a configuration of kind `K` that is not ours and
/// calls one of `names` at a Service, and one of the name of one of `planned` not ours.
async fn check<K: Configuration>(
    api: &Api<K>,
    planned: &[K],
    names: &std::collections::BTreeSet<&str>,
) -> Result<(), LocalError> {
    if planned.is_empty() {
        return Ok(());
    }
    let found = api.list(&ListParams::default()).await.map_err(kube_err(format!("listing {}s", K::KIND)))?;
    for c in found.items.iter().filter(|c| !ours(c.meta())) {
        let calls = service_calls(c.calls().into_iter());
        if let Some((webhook, service)) = calls.into_iter().find(|(w, _)| names.contains(w.as_str())) {
            return Err(LocalError::Deployed {
                kind: K::KIND,
                resource: K::RESOURCE,
                name: c.name_any(),
                webhook,
                service,
            });
        }
        if planned.iter().any(|p| p.name_any() == c.name_any()) {
            return Err(LocalError::Foreign { kind: K::KIND, resource: K::RESOURCE, name: c.name_any() });
        }
    }
    Ok(())
}

/// Writes each of `planned` labelled as ours, every webhook calling `base` and trusting
/// `ca`; pushes each name written onto `written`.
async fn write_all<K: Configuration>(
    api: &Api<K>,
    planned: &[K],
    base: &str,
    ca: &str,
    written: &mut Vec<String>,
) -> Result<(), LocalError> {
    for c in planned {
        let mut c = c.clone();
        let name = c.name_any();
        *c.meta_mut() = kube::api::ObjectMeta { name: Some(name.clone()), ..Default::default() };
        labelled(c.meta_mut());
        c.client_configs().into_iter().for_each(|config| pointed(config, base, ca));
        put(api, c).await?;
        written.push(name);
    }
    Ok(())
}

/// Deletes each of `names` that is still ours.
async fn delete_ours<K: Configuration>(api: &Api<K>, names: &[String], first_error: &mut Option<LocalError>) {
    for name in names {
        if let Ok(Some(c)) = api.get_opt(name).await
            && ours(c.meta())
            && let Err(e) = api.delete(name, &DeleteParams::default()).await
        {
            first_error.get_or_insert(LocalError::Kube { what: format!("deleting {} {name}", K::KIND), source: e });
        }
    }
}

/// Creates `object` or replaces the one of its name that is ours; refuses one that is not.
async fn put<K: Configuration>(api: &Api<K>, mut object: K) -> Result<(), LocalError> {
    let (kind, resource) = (K::KIND, K::RESOURCE);
    let name = object.name_any();
    match api.get_opt(&name).await.map_err(kube_err(format!("reading {kind} {name}")))? {
        Some(existing) if !ours(existing.meta()) => Err(LocalError::Foreign { kind, resource, name }),
        Some(existing) => {
            object.meta_mut().resource_version = existing.meta().resource_version.clone();
            api.replace(&name, &PostParams::default(), &object)
                .await
                .map_err(kube_err(format!("replacing {kind} {name}")))?;
            Ok(())
        }
        None => {
            api.create(&PostParams::default(), &object).await.map_err(kube_err(format!("creating {kind} {name}")))?;
            Ok(())
        }
    }
}

/// Installs `plan` against the API server of `client`, every webhook calling `base`
/// (`https://127.0.0.1:9443`) and trusting `ca_pem`. Checks everything first: a
/// configuration of the same name that is not ours, another that calls one of the
/// webhooks at a Service, or a CRD to convert that is not installed, is an error before
/// anything is written. On an error half-way, what was written is undone.
pub async fn install(client: &Client, plan: &Plan, base: &str, ca_pem: &str) -> Result<Installed, LocalError> {
    let mutating_api: Api<MutatingWebhookConfiguration> = Api::all(client.clone());
    let validating_api: Api<ValidatingWebhookConfiguration> = Api::all(client.clone());
    let crds: Api<CustomResourceDefinition> = Api::all(client.clone());

    // Whatever else calls these webhooks at a Service.
    let names: std::collections::BTreeSet<&str> = plan.calls().into_iter().map(|(name, _)| name).collect();
    check(&mutating_api, &plan.mutating, &names).await?;
    check(&validating_api, &plan.validating, &names).await?;
    let mut before = Vec::new();
    for conversion in &plan.conversions {
        let crd = crds
            .get_opt(&conversion.crd)
            .await
            .map_err(kube_err(format!("reading CRD {}", conversion.crd)))?
            .ok_or_else(|| LocalError::NoCrd(conversion.crd.clone()))?;
        before.push((conversion.crd.clone(), crd.spec.conversion));
    }
    let mut installed = Installed::default();
    let written = async {
        write_all(&mutating_api, &plan.mutating, base, ca_pem, &mut installed.mutating).await?;
        write_all(&validating_api, &plan.validating, base, ca_pem, &mut installed.validating).await?;
        for (conversion, (crd, previous)) in plan.conversions.iter().zip(before) {
            let url = format!("{base}{}", conversion.path);
            let value = serde_json::json!({
                "strategy": "Webhook",
                "webhook": {
                    "clientConfig": {
                        "url": url,
                        "caBundle": ByteString(ca_pem.as_bytes().to_vec()),
                    },
                    "conversionReviewVersions": conversion.review_versions,
                },
            });
            set_conversion(&crds, &crd, value).await?;
            installed.conversions.push(InstalledConversion { crd, previous, url });
        }
        Ok::<(), LocalError>(())
    }
    .await;
    match written {
        Ok(()) => Ok(installed),
        Err(e) => {
            let _ = uninstall(client, &installed).await;
            Err(e)
        }
    }
}

/// Sets CRD `crd`'s `spec.conversion` to `value` exactly: a merge patch that writes
/// `value` and removes what the current conversion has beyond it (a Service where a URL
/// goes, and back).
async fn set_conversion(crds: &Api<CustomResourceDefinition>, crd: &str, value: Value) -> Result<(), LocalError> {
    let current = crds.get(crd).await.map_err(kube_err(format!("reading CRD {crd}")))?;
    let current = serde_json::to_value(&current.spec.conversion).unwrap_or(Value::Null);
    let patch = serde_json::json!({ "spec": { "conversion": replacing(&current, &value) } });
    crds.patch(crd, &PatchParams::default(), &Patch::Merge(&patch))
        .await
        .map_err(kube_err(format!("setting the conversion of CRD {crd}")))?;
    Ok(())
}

/// The JSON merge patch (RFC 7386) that turns `current` into `wanted`.
fn replacing(current: &Value, wanted: &Value) -> Value {
    match (current, wanted) {
        (Value::Object(current), Value::Object(wanted)) => {
            let mut patch = serde_json::Map::new();
            for (key, value) in wanted {
                let value = match current.get(key) {
                    Some(old) => replacing(old, value),
                    None => value.clone(),
                };
                patch.insert(key.clone(), value);
            }
            for key in current.keys().filter(|k| !wanted.contains_key(*k)) {
                patch.insert(key.clone(), Value::Null);
            }
            Value::Object(patch)
        }
        _ => wanted.clone(),
    }
}

/// Undoes [`install`]: deletes the configurations it made (those still ours) and sets
/// each CRD's conversion back to what it was (`None` when it had none) while it still
/// calls the URL `install` set. Returns what it left alone because it changed since.
pub async fn uninstall(client: &Client, installed: &Installed) -> Result<Vec<String>, LocalError> {
    let mutating_api: Api<MutatingWebhookConfiguration> = Api::all(client.clone());
    let validating_api: Api<ValidatingWebhookConfiguration> = Api::all(client.clone());
    let crds: Api<CustomResourceDefinition> = Api::all(client.clone());
    let mut first_error = None;
    delete_ours(&mutating_api, &installed.mutating, &mut first_error).await;
    delete_ours(&validating_api, &installed.validating, &mut first_error).await;
    let mut kept = Vec::new();
    for InstalledConversion { crd, previous, url } in &installed.conversions {
        let value = match previous {
            Some(previous) => {
                serde_json::to_value(previous).unwrap_or_else(|_| serde_json::json!({"strategy": "None"}))
            }
            None => serde_json::json!({"strategy": "None"}),
        };
        // A CRD deleted since has no conversion to restore; one whose conversion changed
        // since (a deploy) is not ours to set back.
        match crds.get_opt(crd).await {
            Ok(Some(current)) => {
                let calls = current
                    .spec
                    .conversion
                    .as_ref()
                    .and_then(|c| c.webhook.as_ref())
                    .and_then(|w| w.client_config.as_ref())
                    .and_then(|c| c.url.as_deref());
                if calls != Some(url.as_str()) {
                    kept.push(format!("CRD {crd}'s conversion no longer calls {url} (changed since): left as it is"));
                } else if let Err(e) = set_conversion(&crds, crd, value).await {
                    first_error.get_or_insert(e);
                }
            }
            Ok(None) => {}
            Err(e) => {
                first_error.get_or_insert(LocalError::Kube { what: format!("reading CRD {crd}"), source: e });
            }
        }
    }
    match first_error {
        Some(e) => Err(e),
        None => Ok(kept),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_merge_patch_replaces_a_service_with_a_url_and_back() {
        let service = serde_json::json!({"strategy": "Webhook", "webhook": {"clientConfig": {"service": {"name": "s", "namespace": "n", "path": "/convert"}, "caBundle": "QQ=="}, "conversionReviewVersions": ["v1"]}});
        let url = serde_json::json!({"strategy": "Webhook", "webhook": {"clientConfig": {"url": "https://127.0.0.1:9443/convert", "caBundle": "Qg=="}, "conversionReviewVersions": ["v1"]}});
        let mut doc = service.clone();
        json_merge(&mut doc, &replacing(&service, &url));
        assert_eq!(doc, url);
        json_merge(&mut doc, &replacing(&url, &serde_json::json!({"strategy": "None"})));
        assert_eq!(doc, serde_json::json!({"strategy": "None"}));
        json_merge(&mut doc, &replacing(&serde_json::json!({"strategy": "None"}), &service));
        assert_eq!(doc, service);
    }

    /// RFC 7386, as the API server applies a merge patch.
    fn json_merge(doc: &mut Value, patch: &Value) {
        match patch {
            Value::Object(patch) => {
                if !doc.is_object() {
                    *doc = Value::Object(serde_json::Map::new());
                }
                let map = doc.as_object_mut().expect("an object");
                for (key, value) in patch {
                    if value.is_null() {
                        map.remove(key);
                    } else {
                        json_merge(map.entry(key.clone()).or_insert(Value::Null), value);
                    }
                }
            }
            _ => *doc = patch.clone(),
        }
    }

    #[test]
    fn the_plan_is_what_config_deploys() {
        let dir = std::env::temp_dir().join(format!("kubegen-local-plan-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("webhook")).expect("a directory");
        std::fs::create_dir_all(dir.join("crd/patches")).expect("a directory");
        std::fs::write(
            dir.join("webhook/manifests.yaml"),
            "---\napiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata:\n  name: validating-webhook-configuration\nwebhooks:\n- name: vfoo.kb.io\n  admissionReviewVersions: [v1]\n  sideEffects: None\n  clientConfig:\n    service: {name: webhook-service, namespace: system, path: /validate-foo}\n",
        )
        .expect("written");
        let patch = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: NAME\nspec:\n  conversion:\n    strategy: Webhook\n    webhook:\n      clientConfig:\n        service: {name: webhook-service, namespace: system, path: /convert}\n      conversionReviewVersions: [v1]\n";
        std::fs::write(dir.join("crd/patches/webhook_in_foos.yaml"), patch.replace("NAME", "foos.example.com"))
            .expect("written");
        std::fs::write(dir.join("crd/patches/webhook_in_bars.yaml"), patch.replace("NAME", "bars.example.com"))
            .expect("written");
        std::fs::write(
            dir.join("crd/kustomization.yaml"),
            "resources: []\npatches:\n- path: patches/webhook_in_foos.yaml\n#- path: patches/webhook_in_bars.yaml\n",
        )
        .expect("written");
        let plan = Plan::from_config(&dir).expect("a plan");
        std::fs::remove_dir_all(&dir).expect("cleaned");
        assert_eq!(plan.validating.len(), 1);
        assert!(plan.mutating.is_empty());
        // The commented-out patch is not applied by kustomize, so not here either.
        assert_eq!(
            plan.conversions,
            vec![CrdConversion {
                crd: "foos.example.com".into(),
                path: "/convert".into(),
                review_versions: vec!["v1".into()]
            }]
        );
        assert_eq!(plan.paths(), vec!["/convert".to_string(), "/validate-foo".to_string()]);
        let mut config = plan.validating[0].webhooks.as_ref().expect("webhooks")[0].client_config.clone();
        pointed(&mut config, "https://127.0.0.1:9443", "CA");
        assert_eq!(config.url.as_deref(), Some("https://127.0.0.1:9443/validate-foo"));
        assert!(config.service.is_none());
        assert_eq!(config.ca_bundle, Some(ByteString(b"CA".to_vec())));
    }
}
