//! RBAC from markers: `+kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list`
//! in a comment, or the typed `#[kubegen::rbac(...)]`, read and checked by one reader
//! (`kubegen_core::rbac`). Merging the rules into ClusterRoles and Roles as controller-gen
//! does is `codegen-cli manifests`' (`config/rbac/role.yaml`), not every operator's.

pub use kubegen_core::rbac::{RbacError, RbacRule, VERBS};
