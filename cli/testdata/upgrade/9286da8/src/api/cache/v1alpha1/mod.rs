//! One module per version (or kind); `codegen-cli create` adds them.

mod memcached;
pub use memcached::*;
