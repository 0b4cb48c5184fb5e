//! The controllers, one module per kind; `codegen-cli create api` adds them, and
//! `src/main.rs` adds each to the manager.
pub mod memcached;
