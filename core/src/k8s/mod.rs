//! Kubernetes' own markers, generated from the Go API modules of every release
//! k8s-openapi supports (`scripts/k8s-markers.sh`, checked in CI): the list types, map
//! keys, map types, defaults and validations their Go markers carry, which k8s-openapi's
//! OpenAPI-derived schemas leave out, and the names of their types.

mod types;

pub use types::{K8S_FIELDS, K8S_TYPES};

#[cfg(feature = "k8s")]
mod release {
    k8s_openapi::k8s_if_1_33! { pub const TABLE: &str = include_str!("tables/v1_33.json"); }
    k8s_openapi::k8s_if_1_34! { pub const TABLE: &str = include_str!("tables/v1_34.json"); }
    k8s_openapi::k8s_if_1_35! { pub const TABLE: &str = include_str!("tables/v1_35.json"); }
    k8s_openapi::k8s_if_1_36! { pub const TABLE: &str = include_str!("tables/v1_36.json"); }
    k8s_openapi::k8s_if_1_37! { pub const TABLE: &str = include_str!("tables/v1_37.json"); }

    k8s_openapi::k8s_if_1_33! { pub const MODULE_VERSION: &str = "v0.33.13"; }
    k8s_openapi::k8s_if_1_34! { pub const MODULE_VERSION: &str = "v0.34.13"; }
    k8s_openapi::k8s_if_1_35! { pub const MODULE_VERSION: &str = "v0.35.10"; }
    k8s_openapi::k8s_if_1_36! { pub const MODULE_VERSION: &str = "v0.36.6"; }
    k8s_openapi::k8s_if_1_37! { pub const MODULE_VERSION: &str = "v0.37.2"; }
}

/// The marker table (JSON: type name → list types, map keys, defaults, validations,
/// `shallow`) of the Kubernetes release k8s-openapi is built for.
#[cfg(feature = "k8s")]
pub const TABLE: &str = release::TABLE;

/// The release of Kubernetes' Go API modules (`k8s.io/api`, `k8s.io/apimachinery`) that
/// matches the k8s-openapi version feature, and that [`TABLE`] comes from: what a
/// generated Go client requires.
#[cfg(feature = "k8s")]
pub const MODULE_VERSION: &str = release::MODULE_VERSION;
