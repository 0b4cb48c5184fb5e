//! One module per version (or kind); `codegen-cli create` adds them.

pub mod v1alpha1;
