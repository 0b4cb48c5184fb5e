//! Admission webhooks: validating and defaulting admission for any number of kinds,
//! served over HTTPS by the runtime with certificates it can make and rotate itself
//! (feature `webhook`) — controller-runtime's webhook server and `admission.Validator`/
//! `Defaulter`, typed — and the configurations `codegen-cli manifests` writes from
//! `+kubebuilder:webhook` markers ([`manifests`], always built).
//!
//! ```no_run
//! # use kubegen::webhook::{Authority, CertStore, Request, Validator, Verdict, Webhooks, Denial, FieldError};
//! # #[derive(Clone, serde::Deserialize)] struct Foo;
//! # impl kube_core::Resource for Foo { type DynamicType = (); type Scope = kube_core::NamespaceResourceScope;
//! #   fn kind(_: &()) -> std::borrow::Cow<'_, str> { "Foo".into() } fn group(_: &()) -> std::borrow::Cow<'_, str> { "example.com".into() }
//! #   fn version(_: &()) -> std::borrow::Cow<'_, str> { "v1".into() } fn plural(_: &()) -> std::borrow::Cow<'_, str> { "foos".into() }
//! #   fn meta(&self) -> &kube_core::ObjectMeta { unimplemented!() } fn meta_mut(&mut self) -> &mut kube_core::ObjectMeta { unimplemented!() } }
//! struct NoRename;
//!
//! impl Validator<Foo> for NoRename {
//!     async fn validate_update(&self, old: &Foo, new: &Foo, _: &Request) -> Verdict {
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
#[cfg(feature = "webhook")]
mod certs;
#[cfg(feature = "webhook")]
mod conversion;
#[cfg(feature = "webhook")]
mod managed;
pub mod manifests;
#[cfg(feature = "webhook")]
mod server;

#[cfg(feature = "webhook")]
pub use admission::{Defaulter, Denial, FieldError, Request, SchemaValidator, UserInfo, Validator, Verdict};
#[cfg(feature = "webhook")]
pub use certs::{Authority, CertError, CertStore, Serving, Validity};
#[cfg(feature = "webhook")]
pub use conversion::Conversion;
#[cfg(feature = "webhook")]
pub use kube_core::admission::Operation;
#[cfg(feature = "webhook")]
pub use managed::{ManagedCerts, ManagedError};
#[cfg(feature = "webhook")]
pub use server::{BODY_LIMIT, WebhookServer, Webhooks, mutate_path, validate_path};
