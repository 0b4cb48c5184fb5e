//! The environment rules run in: CEL's standard library with optional types, the
//! strings and lists extensions (cel-go's `ext.Strings`, `ext.Lists`), cel-go's
//! `ext.Sets` and two-variable comprehensions, and Kubernetes' libraries
//! (k8s.io/apiserver `pkg/cel/library`), as the API server's base environment for CRD
//! validation rules (`environment/base.go`; `authz` is not offered to CRDs).

use std::sync::{Arc, OnceLock};

use cel::Env;

use super::{comprehensions, format, lists, net, quantity, regex_lib, semver, sets, timestamps, urls};

/// The environment, built once.
pub(crate) fn env() -> Arc<Env> {
    static ENV: OnceLock<Arc<Env>> = OnceLock::new();
    ENV.get_or_init(|| Arc::new(build())).clone()
}

fn build() -> Env {
    let mut env = Env::stdlib();
    type Library = fn(&mut Env) -> Result<(), cel::DeclarationError>;
    let libraries: [Library; 12] = [
        cel::extensions::strings,
        cel::extensions::lists,
        comprehensions::register,
        sets::register,
        lists::register,
        regex_lib::register,
        urls::register,
        quantity::register,
        net::register,
        format::register,
        semver::register,
        timestamps::register,
    ];
    for library in libraries {
        env.add_extension(library).expect("the libraries declare distinct overloads");
    }
    env
}
