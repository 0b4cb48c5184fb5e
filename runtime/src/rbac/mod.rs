//! RBAC from markers: `+kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list`
//! in a comment, or the typed `#[kubegen::rbac(...)]`, into ClusterRoles and Roles
//! normalised and merged exactly as controller-gen does (`pkg/rbac/parser.go`), so the
//! output is byte-stable whatever order the markers were found in.

mod merge;

pub use merge::{RoleObject, generate_roles};

use kubegen_core::markers::args::{list, split_args};
pub use kubegen_core::rbac::VERBS;

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
            match key.trim() {
                "groups" => rule.groups = list(value),
                "resources" => rule.resources = list(value),
                "resourceNames" => rule.resource_names = list(value),
                "verbs" => rule.verbs = list(value),
                "urls" => rule.urls = list(value),
                "namespace" => rule.namespace = value.trim().trim_matches('"').to_string(),
                "roleName" => rule.role_name = value.trim().trim_matches('"').to_string(),
                other => return Err(RbacError::UnknownArgument(other.to_string())),
            }
        }
        rule.check()?;
        Ok(rule)
    }

    pub fn check(&self) -> Result<(), RbacError> {
        if self.verbs.is_empty() {
            return Err(RbacError::MissingVerbs);
        }
        for verb in &self.verbs {
            if !VERBS.contains(&verb.as_str()) {
                return Err(RbacError::UnknownVerb { verb: verb.clone() });
            }
        }
        Ok(())
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
}
