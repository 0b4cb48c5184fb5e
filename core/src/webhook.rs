//! `+kubebuilder:webhook:...` markers, controller-gen's spelling verbatim
//! (`pkg/webhook/parser.go`), and their typed spelling `#[kubegen::webhook(...)]`: one
//! parser and one check, which the derive runs at compile time on the typed attribute
//! and `codegen-cli manifests` runs on both. Beyond controller-gen: `namespaceSelector`,
//! `objectSelector` and `matchConditions`, as JSON in backticks.

use serde_json::Value;

use crate::markers::args::{list, split_args, unquote};
use crate::markers::registry::suggest;

/// The operations a webhook rule takes (`verbs=create;update`), as the API names them.
pub const OPERATIONS: &[(&str, &str)] =
    &[("create", "CREATE"), ("update", "UPDATE"), ("delete", "DELETE"), ("connect", "CONNECT"), ("*", "*")];

/// The Service a `path` is served by when the marker names none: kubebuilder's
/// `config/webhook/service.yaml`, in the namespace kustomize sets.
pub const DEFAULT_SERVICE: (&str, &str) = ("webhook-service", "system");

/// One `+kubebuilder:webhook` marker.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WebhookMarker {
    pub name: String,
    pub mutating: bool,
    /// `Fail` or `Ignore`.
    pub failure_policy: String,
    /// `Exact` or `Equivalent`.
    pub match_policy: Option<String>,
    /// `None` or `NoneOnDryRun`.
    pub side_effects: Option<String>,
    pub timeout_seconds: Option<i32>,
    pub groups: Vec<String>,
    pub resources: Vec<String>,
    /// As the API names them: `CREATE`, `UPDATE`, `DELETE`, `CONNECT`, `*`.
    pub operations: Vec<String>,
    pub versions: Vec<String>,
    pub admission_review_versions: Vec<String>,
    /// `Never` or `IfNeeded` (mutating only).
    pub reinvocation_policy: Option<String>,
    pub service_name: Option<String>,
    pub service_namespace: Option<String>,
    pub service_port: Option<i32>,
    pub path: Option<String>,
    pub url: Option<String>,
    /// A `LabelSelector`, as JSON.
    pub namespace_selector: Option<Value>,
    pub object_selector: Option<Value>,
    /// `MatchCondition`s (`name`, CEL `expression`), as JSON.
    pub match_conditions: Option<Value>,
}

/// Why a marker is not a webhook, in words that say what to write instead.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{0}")]
pub struct WebhookMarkerError(pub String);

fn err(message: impl Into<String>) -> WebhookMarkerError {
    WebhookMarkerError(message.into())
}

/// The arguments a `+kubebuilder:webhook` marker takes.
pub const ARGUMENTS: &[&str] = &[
    "path",
    "mutating",
    "failurePolicy",
    "matchPolicy",
    "sideEffects",
    "timeoutSeconds",
    "groups",
    "resources",
    "verbs",
    "versions",
    "name",
    "admissionReviewVersions",
    "reinvocationPolicy",
    "webhookVersions",
    "serviceName",
    "serviceNamespace",
    "servicePort",
    "url",
    "namespaceSelector",
    "objectSelector",
    "matchConditions",
];

/// The marker argument a typed key stands for: `failure_policy` is `failurePolicy`.
pub fn marker_argument(typed: &str) -> Option<&'static str> {
    ARGUMENTS.iter().copied().find(|a| snake(a) == typed)
}

/// A value of the typed attribute `#[kubegen::webhook(key = value, ...)]`.
#[derive(Debug, Clone, PartialEq)]
pub enum Typed {
    Str(String),
    Bool(bool),
    Int(i64),
    List(Vec<String>),
}

/// The typed attribute's arguments as the marker's: one parser and one check for both.
pub fn from_typed(pairs: Vec<(String, Typed)>) -> Result<WebhookMarker, WebhookMarkerError> {
    let mut args = Vec::new();
    for (key, value) in pairs {
        let Some(arg) = marker_argument(&key) else {
            let typed: Vec<String> = ARGUMENTS.iter().map(|a| snake(a)).collect();
            let hint = suggest(&key, typed.iter().map(String::as_str))
                .map(|a| format!("; did you mean `{a}`?"))
                .unwrap_or_default();
            return Err(err(format!("`{key}` is not an argument of #[kubegen::webhook]{hint}")));
        };
        let text = match value {
            Typed::Str(s) => format!("`{s}`"),
            Typed::Bool(b) => b.to_string(),
            Typed::Int(n) => n.to_string(),
            Typed::List(items) => items.iter().map(|i| format!("\"{i}\"")).collect::<Vec<_>>().join(";"),
        };
        args.push(format!("{arg}={text}"));
    }
    WebhookMarker::parse_marker(&args.join(","))
}

fn snake(argument: &str) -> String {
    argument
        .chars()
        .flat_map(|c| if c.is_ascii_uppercase() { vec!['_', c.to_ascii_lowercase()] } else { vec![c] })
        .collect()
}

fn one_of(key: &str, value: &str, allowed: &[&str]) -> Result<String, WebhookMarkerError> {
    let value = unquote(value);
    allowed
        .iter()
        .find(|a| a.eq_ignore_ascii_case(&value))
        .map(|a| a.to_string())
        .ok_or_else(|| err(format!("`{key}={value}` is not one of {}", allowed.join(", "))))
}

/// JSON of the shape the key takes: a selector is an object of `matchLabels` and
/// `matchExpressions`; match conditions are a list of `name` and `expression`.
fn json(key: &str, value: &str, example: &str) -> Result<Value, WebhookMarkerError> {
    let wrong = |why: String| err(format!("`{key}` takes JSON in backticks, as in {key}=`{example}`: {why}"));
    let v: Value = serde_json::from_str(&unquote(value)).map_err(|e| wrong(e.to_string()))?;
    let fits = match key {
        "matchConditions" => v.as_array().is_some_and(|conditions| {
            conditions.iter().all(|c| {
                c.as_object().is_some_and(|c| {
                    c.get("name").is_some_and(Value::is_string)
                        && c.get("expression").is_some_and(Value::is_string)
                        && c.keys().all(|k| k == "name" || k == "expression")
                })
            })
        }),
        _ => v.as_object().is_some_and(|s| s.keys().all(|k| k == "matchLabels" || k == "matchExpressions")),
    };
    if fits { Ok(v) } else { Err(wrong("not of that shape".into())) }
}

impl WebhookMarker {
    /// Parses the arguments after `+kubebuilder:webhook:` and checks them as the API
    /// server and controller-gen would.
    pub fn parse_marker(args: &str) -> Result<Self, WebhookMarkerError> {
        let mut w = WebhookMarker::default();
        for part in split_args(args) {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            let (key, value) = part.split_once('=').ok_or_else(|| err(format!("`{part}` is not `key=value`")))?;
            let key = key.trim();
            match key {
                "path" => w.path = Some(unquote(value)),
                "url" => w.url = Some(unquote(value)),
                "name" => w.name = unquote(value),
                "mutating" => {
                    w.mutating = match unquote(value).as_str() {
                        "true" => true,
                        "false" => false,
                        other => return Err(err(format!("`mutating={other}` is not true or false"))),
                    }
                }
                "failurePolicy" => w.failure_policy = one_of(key, value, &["Fail", "Ignore"])?,
                "matchPolicy" => w.match_policy = Some(one_of(key, value, &["Exact", "Equivalent"])?),
                "sideEffects" => {
                    let v = one_of(key, value, &["None", "NoneOnDryRun", "Some", "Unknown"])?;
                    if matches!(v.as_str(), "Some" | "Unknown") {
                        return Err(err(format!(
                            "`sideEffects={v}` is refused by admissionregistration.k8s.io/v1: a webhook with side effects declares NoneOnDryRun and skips them on dry runs"
                        )));
                    }
                    w.side_effects = Some(v);
                }
                "timeoutSeconds" => {
                    let n: i32 =
                        unquote(value).parse().map_err(|_| err(format!("`timeoutSeconds={value}` is not a number")))?;
                    if !(1..=30).contains(&n) {
                        return Err(err(format!("`timeoutSeconds={n}`: the API server takes 1 to 30 seconds")));
                    }
                    w.timeout_seconds = Some(n);
                }
                "groups" => {
                    // controller-gen's `core` is the core group, "".
                    w.groups = list(value).into_iter().map(|g| if g == "core" { String::new() } else { g }).collect();
                }
                "resources" => w.resources = list(value),
                "versions" => w.versions = list(value),
                "verbs" => {
                    w.operations = list(value)
                        .into_iter()
                        .map(|v| {
                            OPERATIONS
                                .iter()
                                .find(|(m, _)| m.eq_ignore_ascii_case(&v))
                                .map(|(_, op)| op.to_string())
                                .ok_or_else(|| {
                                    err(format!(
                                        "`{v}` is not an admission verb; use {}",
                                        OPERATIONS.iter().map(|(m, _)| *m).collect::<Vec<_>>().join(", ")
                                    ))
                                })
                        })
                        .collect::<Result<_, _>>()?
                }
                "admissionReviewVersions" => w.admission_review_versions = list(value),
                "reinvocationPolicy" => w.reinvocation_policy = Some(one_of(key, value, &["Never", "IfNeeded"])?),
                "webhookVersions" => {
                    if let Some(v) = list(value).into_iter().find(|v| v != "v1") {
                        return Err(err(format!("`webhookVersions={v}`: only v1 is served")));
                    }
                }
                "serviceName" => w.service_name = Some(unquote(value)),
                "serviceNamespace" => w.service_namespace = Some(unquote(value)),
                "servicePort" => {
                    w.service_port =
                        Some(unquote(value).parse().map_err(|_| err(format!("`servicePort={value}` is not a port")))?)
                }
                "namespaceSelector" => {
                    w.namespace_selector = Some(json(key, value, r#"{"matchLabels":{"team":"a"}}"#)?)
                }
                "objectSelector" => w.object_selector = Some(json(key, value, r#"{"matchLabels":{"team":"a"}}"#)?),
                "matchConditions" => {
                    w.match_conditions = Some(json(
                        key,
                        value,
                        r#"[{"name":"not-system","expression":"request.userInfo.username != 'admin'"}]"#,
                    )?)
                }
                other => {
                    let hint = suggest(other, ARGUMENTS.iter().copied())
                        .map(|a| format!("; did you mean `{a}`?"))
                        .unwrap_or_default();
                    return Err(err(format!("`{other}` is not an argument of +kubebuilder:webhook{hint}")));
                }
            }
        }
        w.check()?;
        Ok(w)
    }

    fn check(&self) -> Result<(), WebhookMarkerError> {
        let missing = |what: &str| err(format!("+kubebuilder:webhook needs `{what}=...`"));
        if self.name.is_empty() {
            return Err(missing("name"));
        }
        // The API server requires a fully qualified name: a DNS subdomain of at least
        // three segments (`vfoo.example.com`).
        let dns_label = |l: &str| {
            !l.is_empty()
                && l.len() <= 63
                && l.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                && !l.starts_with('-')
                && !l.ends_with('-')
        };
        let labels: Vec<&str> = self.name.split('.').collect();
        if labels.len() < 3 || !labels.iter().all(|l| dns_label(l)) || self.name.len() > 253 {
            return Err(err(format!(
                "`name={}` must be a lowercase DNS name of at least three segments, as the API server requires: `v{}.example.com`",
                self.name,
                self.resources.first().map(|r| r.trim_end_matches('s')).unwrap_or("foo")
            )));
        }
        if self.failure_policy.is_empty() {
            return Err(missing("failurePolicy"));
        }
        if self.side_effects.is_none() {
            return Err(err(
                "+kubebuilder:webhook needs `sideEffects=None` (or NoneOnDryRun): admissionregistration.k8s.io/v1 requires it",
            ));
        }
        if self.admission_review_versions.is_empty() {
            return Err(err("+kubebuilder:webhook needs `admissionReviewVersions=v1`"));
        }
        for (what, list) in [("groups", &self.groups), ("resources", &self.resources), ("versions", &self.versions)] {
            if list.is_empty() {
                return Err(missing(what));
            }
        }
        if self.operations.is_empty() {
            return Err(missing("verbs"));
        }
        match (&self.path, &self.url) {
            (Some(_), Some(_)) | (None, None) => {
                return Err(err(
                    "+kubebuilder:webhook takes exactly one of `path=` (served by the webhook Service) and `url=`",
                ));
            }
            _ => {}
        }
        if self.reinvocation_policy.is_some() && !self.mutating {
            return Err(err("`reinvocationPolicy` is for mutating webhooks; add `mutating=true` or drop it"));
        }
        Ok(())
    }
}

/// `+kubebuilder:webhookconfiguration:mutating=...,name=...`: the name of the
/// configuration the webhooks of that kind go into.
pub fn parse_configuration_marker(args: &str) -> Result<(bool, String), WebhookMarkerError> {
    let (mut mutating, mut name) = (None, None);
    for part in split_args(args) {
        let Some((key, value)) = part.trim().split_once('=') else { continue };
        match key.trim() {
            "mutating" => mutating = Some(value.trim() == "true"),
            "name" => name = Some(unquote(value)),
            other => {
                return Err(err(format!(
                    "`{other}` is not an argument of +kubebuilder:webhookconfiguration (it takes mutating, name)"
                )));
            }
        }
    }
    match (mutating, name) {
        (Some(m), Some(n)) => Ok((m, n)),
        _ => Err(err("+kubebuilder:webhookconfiguration needs `mutating=` and `name=`")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CRONJOB: &str = "path=/mutate-batch-tutorial-kubebuilder-io-v1-cronjob,mutating=true,failurePolicy=fail,sideEffects=None,groups=batch.tutorial.kubebuilder.io,resources=cronjobs,verbs=create;update,versions=v1,name=mcronjob-v1.kb.io,admissionReviewVersions=v1";

    #[test]
    fn the_tutorials_marker_reads_as_controller_gen_reads_it() {
        let w = WebhookMarker::parse_marker(CRONJOB).expect("a webhook");
        assert!(w.mutating);
        assert_eq!(w.failure_policy, "Fail");
        assert_eq!(w.operations, ["CREATE", "UPDATE"]);
        assert_eq!(w.side_effects.as_deref(), Some("None"));
        assert_eq!(w.path.as_deref(), Some("/mutate-batch-tutorial-kubebuilder-io-v1-cronjob"));
    }

    #[test]
    fn what_the_api_server_refuses_is_an_error_saying_what_to_write() {
        for (args, says) in [
            (CRONJOB.replace("name=mcronjob-v1.kb.io", "name=mcronjob"), "at least three segments"),
            (CRONJOB.replace("verbs=create;update", "verbs=create;patch"), "`patch` is not an admission verb"),
            (CRONJOB.replace("sideEffects=None", "sideEffects=Some"), "NoneOnDryRun"),
            (
                CRONJOB.replace("failurePolicy=fail", "failurePolicy=maybe"),
                "`failurePolicy=maybe` is not one of Fail, Ignore",
            ),
            (format!("{CRONJOB},timeoutSeconds=45"), "1 to 30 seconds"),
            (format!("{CRONJOB},url=https://x.example.com"), "exactly one of `path=`"),
            (format!("{CRONJOB},sideEfects=None"), "did you mean `sideEffects`?"),
            (CRONJOB.replace(",admissionReviewVersions=v1", ""), "admissionReviewVersions=v1"),
        ] {
            let e = WebhookMarker::parse_marker(&args).expect_err(&args).to_string();
            assert!(e.contains(says), "{args}: {e}");
        }
    }

    #[test]
    fn typed_keys_are_the_arguments_in_snake_case() {
        assert_eq!(marker_argument("failure_policy"), Some("failurePolicy"));
        assert_eq!(marker_argument("admission_review_versions"), Some("admissionReviewVersions"));
        assert_eq!(marker_argument("path"), Some("path"));
        assert_eq!(marker_argument("failurePolicy"), None);
    }

    #[test]
    fn the_typed_spelling_reads_as_the_marker() {
        use Typed::*;
        let pairs = |extra: Vec<(&str, Typed)>| {
            let mut p: Vec<(String, Typed)> = vec![
                ("path".into(), Str("/mutate-batch-tutorial-kubebuilder-io-v1-cronjob".into())),
                ("mutating".into(), Bool(true)),
                ("failure_policy".into(), Str("fail".into())),
                ("side_effects".into(), Str("None".into())),
                ("groups".into(), List(vec!["batch.tutorial.kubebuilder.io".into()])),
                ("resources".into(), List(vec!["cronjobs".into()])),
                ("verbs".into(), List(vec!["create".into(), "update".into()])),
                ("versions".into(), List(vec!["v1".into()])),
                ("name".into(), Str("mcronjob-v1.kb.io".into())),
                ("admission_review_versions".into(), List(vec!["v1".into()])),
            ];
            p.extend(extra.into_iter().map(|(k, v)| (k.to_string(), v)));
            p
        };
        assert_eq!(from_typed(pairs(vec![])), WebhookMarker::parse_marker(CRONJOB));
        let e = from_typed(pairs(vec![("failur_policy", Str("Fail".into()))])).unwrap_err().to_string();
        assert!(e.contains("did you mean `failure_policy`?"), "{e}");
        let core = from_typed(vec![("groups".into(), List(vec![String::new()]))]).unwrap_err().to_string();
        assert!(!core.contains("groups"), "the core group counts: {core}");
    }

    #[test]
    fn selectors_and_match_conditions_are_json_in_backticks() {
        let args = format!(
            "{CRONJOB},namespaceSelector=`{{\"matchLabels\":{{\"team\":\"a\"}}}}`,matchConditions=`[{{\"name\":\"no-admin\",\"expression\":\"request.userInfo.username != 'admin'\"}}]`"
        );
        let w = WebhookMarker::parse_marker(&args).expect("a webhook");
        assert_eq!(w.namespace_selector, Some(serde_json::json!({"matchLabels": {"team": "a"}})));
        assert_eq!(w.match_conditions.as_ref().and_then(|c| c[0]["name"].as_str()), Some("no-admin"));
        let wrong = format!("{CRONJOB},objectSelector=`{{\"labels\":{{}}}}`");
        assert!(WebhookMarker::parse_marker(&wrong).expect_err("a wrong selector").to_string().contains("matchLabels"));
    }
}
