//! RBAC facts shared by the derive's check of `#[kubegen::rbac]` and the runtime's
//! parse of `+kubebuilder:rbac` markers.

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
