//! The facts that kubegen's derive, library and command line all use, kept once: the
//! marker registry (every marker's spellings, argument shape and target), the plural
//! rules of resource names, the RBAC verbs, the webhook markers' parser, Kubernetes' own marker tables, the kind
//! record the manifests helper prints and the CLI reads, and the store of test-environment
//! binaries `codegen-cli envtest` fills and `kubegen::testenv` reads.
//!
//! No proc-macro and no kube dependency: the derive links it at compile time, the
//! library (`kubegen`) and the CLI at run time. The `k8s` feature adds what needs k8s-openapi's
//! types; it never enables a Kubernetes version feature.

pub mod envtest;
pub mod k8s;
pub mod kind;
pub mod markers;
pub mod plural;
pub mod rbac;
pub mod schema;
pub mod webhook;
