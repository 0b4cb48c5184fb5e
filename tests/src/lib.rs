//! The test zoo: kinds that together use every resource-level key and marker of the
//! derive, and nested types in every shape serde writes. Golden files pin their CRDs;
//! the end-to-end tier applies them to a real API server and round-trips values.

pub mod accord;
pub mod aviary;
pub mod cel_corpus;
pub mod cel_gen;
pub mod fleet;
pub mod ir_gen;
pub mod kind_gen;
pub mod markers;
pub mod menagerie;
pub mod pavilion;

/// The README's Rust blocks, compiled (and run, unless `no_run`) as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;

/// docs/clients.md's Rust blocks (the apply configurations), as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../docs/clients.md")]
pub struct ClientsDoctests;

/// docs/crds.md's Rust blocks, as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../docs/crds.md")]
pub struct CrdsDoctests;
