//! The CEL environment the Kubernetes API server gives CRD validation rules
//! (`x-kubernetes-validations`), as one checker that the derive, the CRD lint and
//! `Validate` all use, so a rule that builds is a rule the server accepts:
//!
//! - [`names`]: how a schema's property names become CEL identifiers;
//! - [`types`]: the CEL type of a structural schema node, with the bounds that cost uses;
//! - [`library`]: the functions Kubernetes declares, per release;
//! - [`check`]: parse, type-check and cost-estimate a rule as the server does;
//! - [`schema`]: every rule of a CRD version, where it stands, and the CRD's budget;
//! - `eval` (feature `eval`): evaluate rules against objects, with Kubernetes' libraries.

pub mod check;
pub mod cost;
#[cfg(feature = "eval")]
pub mod eval;
mod go_duration;
pub mod library;
pub mod names;
pub mod reads;
pub mod schema;
pub mod transition;
pub mod types;
