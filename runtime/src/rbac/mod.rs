//! RBAC from markers: `+kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list`
//! in a comment, or the typed `#[kubegen::rbac(...)]`, into ClusterRoles and Roles
//! normalised and merged exactly as controller-gen does (`pkg/rbac/parser.go`), so the
//! output is byte-stable whatever order the markers were found in.

mod merge;

pub use merge::{RoleObject, generate_roles};

pub use kubegen_core::rbac::{RbacError, RbacRule, VERBS};
