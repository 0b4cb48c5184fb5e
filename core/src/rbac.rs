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

/// The marker's arguments: (controller-gen's spelling, the typed attribute's, a list).
pub const ARGUMENTS: &[(&str, &str, bool)] = &[
    ("groups", "groups", true),
    ("resources", "resources", true),
    ("resourceNames", "resource_names", true),
    ("verbs", "verbs", true),
    ("urls", "urls", true),
    ("namespace", "namespace", false),
    ("roleName", "role_name", false),
];

/// The typed attribute's argument `key`: (its marker spelling, whether it takes a list).
pub fn typed_argument(key: &str) -> Option<(&'static str, bool)> {
    ARGUMENTS.iter().find(|(_, typed, _)| *typed == key).map(|(marker, _, list)| (*marker, *list))
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
            let list_arg = ARGUMENTS.iter().find(|(marker, ..)| *marker == key).map(|(.., list)| *list);
            let values = match list_arg {
                Some(true) => list(value),
                Some(false) => vec![unquote(value)],
                None => return Err(RbacError::UnknownArgument(key.to_string())),
            };
            rule.set(key, values);
        }
        rule.check()?;
        Ok(rule)
    }

    /// The typed attribute's arguments (`resource_names = [...]`) as the marker's: one
    /// reading and one check for both.
    pub fn from_typed(pairs: Vec<(String, Vec<String>)>) -> Result<Self, RbacError> {
        let mut rule = RbacRule::default();
        for (key, values) in pairs {
            let (marker, _) = typed_argument(&key).ok_or_else(|| unknown_typed(&key))?;
            rule.set(marker, values);
        }
        rule.check()?;
        Ok(rule)
    }

    /// Sets the argument of marker spelling `key` (one of [`ARGUMENTS`]).
    fn set(&mut self, key: &str, values: Vec<String>) {
        match key {
            "groups" => self.groups = values,
            "resources" => self.resources = values,
            "resourceNames" => self.resource_names = values,
            "verbs" => self.verbs = values,
            "urls" => self.urls = values,
            "namespace" => self.namespace = values.concat(),
            "roleName" => self.role_name = values.concat(),
            _ => {}
        }
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
    RbacError::UnknownTypedArgument {
        key: key.to_string(),
        hint: suggest(key, ARGUMENTS.iter().map(|(_, typed, _)| *typed)),
    }
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
