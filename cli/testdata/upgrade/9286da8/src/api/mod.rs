//! The API, one module per group; `codegen-cli create api` adds them.
pub mod cache;
