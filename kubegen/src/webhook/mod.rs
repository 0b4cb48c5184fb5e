//! Admission and conversion webhooks: validating and defaulting admission, and
//! conversion through a hub version, for any number of kinds, served over HTTPS by the
//! runtime with certificates it can make and rotate itself (feature `webhook`) —
//! controller-runtime's webhook server, `admission.Validator`/`Defaulter` and
//! `Hub`/`Convertible`, typed. The configurations `codegen-cli manifests` writes from
//! `+kubebuilder:webhook` markers are the CLI's; the markers' one reader is
//! `kubegen_core::webhook`.
//!
//! ```no_run
//! use kubegen::CustomResource;
//! use kubegen::webhook::{Authority, CertStore, Denial, FieldError, Request, Validator, Verdict, Webhooks};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
//! #[kube(group = "example.com", version = "v1", kind = "Foo", namespaced)]
//! pub struct FooSpec {
//!     pub deployment_name: String,
//! }
//!
//! /// A Foo's Deployment keeps its name.
//! struct NoRename;
//!
//! impl Validator<Foo> for NoRename {
//!     async fn validate_update(&self, old: &Foo, new: &Foo, _: &Request) -> Verdict {
//!         if old.spec.deployment_name != new.spec.deployment_name {
//!             return Err(Denial::invalid(vec![FieldError::forbidden("spec.deploymentName", "cannot change")]));
//!         }
//!         Ok(Vec::new())
//!     }
//! }
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let ca = Authority::new("foo-webhook", Default::default())?;
//! let certs = CertStore::new(&ca.issue(&["foo-webhook-service.foo-system.svc".into()])?)?;
//! let server = Webhooks::new().validate::<Foo>(NoRename).serve(([0, 0, 0, 0], 9443).into(), certs).await?;
//! # Ok(()) }
//! ```

#[cfg(feature = "webhook")]
mod admission;
#[cfg(feature = "webhook-testing")]
pub mod arbitrary;
#[cfg(feature = "webhook")]
mod args;
#[cfg(feature = "certs")]
mod authority;
#[cfg(feature = "webhook")]
mod certs;
#[cfg(feature = "webhook")]
mod conversion;
#[cfg(all(feature = "certs", feature = "testenv"))]
pub mod local;
#[cfg(feature = "webhook")]
mod managed;
#[cfg(feature = "webhook")]
mod server;

#[cfg(feature = "webhook")]
pub use admission::{Defaulter, Denial, FieldError, Request, SchemaValidator, UserInfo, Validator, Verdict};
#[cfg(feature = "webhook")]
pub use args::{CaInject, SecretRef, WebhookArgs, WebhookArgsError};
#[cfg(feature = "certs")]
pub use authority::{Authority, CertError, Serving, Validity};
#[cfg(feature = "webhook")]
pub use certs::CertStore;
#[cfg(feature = "webhook-testing")]
pub use conversion::RoundTrip;
#[cfg(feature = "webhook")]
pub use conversion::{Conversion, STASH_ANNOTATION, by_fields, stash, unstash};
#[cfg(feature = "webhook")]
pub use kube_core::admission::Operation;
#[cfg(feature = "webhook")]
pub use managed::{ManagedCerts, ManagedError};
#[cfg(feature = "webhook")]
pub use server::{BODIES_IN_FLIGHT, BODY_LIMIT, WebhookServer, Webhooks, mutate_path, validate_path};
