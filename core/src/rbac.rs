//! RBAC from markers, shaped like webhooks: one rule type, one parser of both spellings —
//! `+kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list` in a comment and the
//! typed `#[kubegen::rbac(groups = ["apps"], ...)]` — and one check. The derive checks the
//! typed spelling at compile time with it, and `codegen-cli manifests` reads both with it.

use crate::markers::args::{list, split_args, unquote};
use crate::markers::registry::suggest;

/// The verbs the API server's authorizers know. RBAC accepts any string, but a typo
/// silently grants nothing, so anything else is refused.
pub const VERBS: &[&str] = &[
    "get",
    "list",
    "watch",
    "create",
    "update",
    "patch",
    "delete",
    "deletecollection",
    "impersonate",
    "bind",
    "escalate",
    "use",
    "approve",
    "sign",
    "*",
];

/// One argument of the marker, in both spellings, with where it goes in the rule.
pub struct Argument {
    /// controller-gen's spelling: `resourceNames`.
    pub marker: &'static str,
    /// The typed attribute's: `resource_names`.
    pub typed: &'static str,
    /// A list (`a;b`, `["a", "b"]`), or one string.
    pub list: bool,
    set: fn(&mut RbacRule, Vec<String>),
}

/// The marker's arguments.
pub const ARGUMENTS: &[Argument] = &[
    Argument { marker: "groups", typed: "groups", list: true, set: |r, v| r.groups = v },
    Argument { marker: "resources", typed: "resources", list: true, set: |r, v| r.resources = v },
    Argument { marker: "resourceNames", typed: "resource_names", list: true, set: |r, v| r.resource_names = v },
    Argument { marker: "verbs", typed: "verbs", list: true, set: |r, v| r.verbs = v },
    Argument { marker: "urls", typed: "urls", list: true, set: |r, v| r.urls = v },
    Argument { marker: "namespace", typed: "namespace", list: false, set: |r, v| r.namespace = v.concat() },
    Argument { marker: "roleName", typed: "role_name", list: false, set: |r, v| r.role_name = v.concat() },
];

/// The typed attribute's argument `key`.
pub fn typed_argument(key: &str) -> Option<&'static Argument> {
    ARGUMENTS.iter().find(|a| a.typed == key)
}

/// One `+kubebuilder:rbac` marker.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RbacRule {
    pub groups: Vec<String>,
    pub resources: Vec<String>,
    pub resource_names: Vec<String>,
    pub verbs: Vec<String>,
    pub urls: Vec<String>,
    /// Empty: a ClusterRole rule; otherwise a Role in this namespace.
    pub namespace: String,
    /// Empty: the generator's role name (`--role-name`).
    pub role_name: String,
}

/// Why a marker is not a rule.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RbacError {
    #[error(
        "`{0}` is not an argument of +kubebuilder:rbac (it takes groups, resources, resourceNames, verbs, urls, namespace, roleName)"
    )]
    UnknownArgument(String),
    #[error(
        "`{key}` is not an argument of #[kubegen::rbac] (it takes groups, resources, resource_names, verbs, urls, namespace, role_name){}",
        hint.map(|h| format!("; did you mean `{h}`?")).unwrap_or_default()
    )]
    UnknownTypedArgument { key: String, hint: Option<&'static str> },
    #[error("+kubebuilder:rbac needs `verbs=...`")]
    MissingVerbs,
    #[error("`{verb}` is not a verb the API server knows; use one of {}", VERBS.join(", "))]
    UnknownVerb { verb: String },
    #[error("`{0}` is not `key=value`")]
    Malformed(String),
}

impl RbacRule {
    /// Parses the arguments after `+kubebuilder:rbac:`.
    pub fn parse_marker(args: &str) -> Result<Self, RbacError> {
        let mut rule = RbacRule::default();
        for part in split_args(args) {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            let (key, value) = part.split_once('=').ok_or_else(|| RbacError::Malformed(part.to_string()))?;
            let key = key.trim();
            let arg =
                ARGUMENTS.iter().find(|a| a.marker == key).ok_or_else(|| RbacError::UnknownArgument(key.into()))?;
            (arg.set)(&mut rule, if arg.list { list(value) } else { vec![unquote(value)] });
        }
        rule.check()?;
        Ok(rule)
    }

    /// The typed attribute's arguments (`resource_names = [...]`) as the marker's: one
    /// reading and one check for both.
    pub fn from_typed(pairs: Vec<(String, Vec<String>)>) -> Result<Self, RbacError> {
        let mut rule = RbacRule::default();
        for (key, values) in pairs {
            let arg = typed_argument(&key).ok_or_else(|| unknown_typed(&key))?;
            (arg.set)(&mut rule, values);
        }
        rule.check()?;
        Ok(rule)
    }

    pub fn check(&self) -> Result<(), RbacError> {
        if self.verbs.is_empty() {
            return Err(RbacError::MissingVerbs);
        }
        self.verbs.iter().try_for_each(|v| check_verb(v))
    }
}

/// A verb the API server knows, or the error naming it.
pub fn check_verb(verb: &str) -> Result<(), RbacError> {
    if VERBS.contains(&verb) { Ok(()) } else { Err(RbacError::UnknownVerb { verb: verb.to_string() }) }
}

/// The error for a typed argument that is none, with the closest one.
pub fn unknown_typed(key: &str) -> RbacError {
    RbacError::UnknownTypedArgument { key: key.to_string(), hint: suggest(key, ARGUMENTS.iter().map(|a| a.typed)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_controller_gen_markers() {
        let r = RbacRule::parse_marker(
            "groups=apps,resources=deployments;deployments/status,verbs=get;list;watch,namespace=zoo",
        )
        .expect("parses");
        assert_eq!(r.groups, ["apps"]);
        assert_eq!(r.resources, ["deployments", "deployments/status"]);
        assert_eq!(r.verbs, ["get", "list", "watch"]);
        assert_eq!(r.namespace, "zoo");
        assert_eq!(
            RbacRule::parse_marker("groups=apps,resources=pods,verbs=fetch").unwrap_err().to_string().split(';').next(),
            Some("`fetch` is not a verb the API server knows")
        );
        assert_eq!(RbacRule::parse_marker("groups=apps").unwrap_err(), RbacError::MissingVerbs);
    }

    #[test]
    fn the_typed_spelling_reads_as_the_marker() {
        let typed = RbacRule::from_typed(vec![
            ("groups".into(), vec!["apps".into()]),
            ("resources".into(), vec!["deployments".into()]),
            ("resource_names".into(), vec!["web".into()]),
            ("verbs".into(), vec!["get".into(), "patch".into()]),
            ("role_name".into(), vec!["reader".into()]),
        ]);
        let marker = RbacRule::parse_marker(
            "groups=apps,resources=deployments,resourceNames=web,verbs=get;patch,roleName=reader",
        );
        assert_eq!(typed, marker);
        let e = RbacRule::from_typed(vec![("resource".into(), vec![])]).unwrap_err().to_string();
        assert!(e.ends_with("did you mean `resources`?"), "{e}");
    }
}
