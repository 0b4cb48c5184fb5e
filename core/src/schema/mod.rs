//! Schema facts shared across the seam between the derive and the library (`kubegen`): the typed
//! markers a node carries ([`markers`]), what they do to a structural schema node, and
//! the check of a value against a node that the API server makes ([`validate`]), which
//! the derive (a default against its field), the library (`Validate`) and the CRD lint
//! all use.

mod apply;
pub mod formats;
pub mod markers;
pub mod node;
pub mod validate;

/// Private key carrying a node's markers from the derive to the structural pass.
pub const MARKERS_KEY: &str = "x-kubegen-markers";
/// A reference to a named type in the client model (`kubegen::schema::model_for`).
pub const REF_KEY: &str = "x-kubegen-ref";
/// A Kubernetes type that controller-gen writes as a closed object (no unknown fields).
pub const CLOSED_KEY: &str = "x-kubegen-closed";
