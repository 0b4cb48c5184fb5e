//! The environment rules run in: CEL's standard library with optional types, the
//! strings and lists extensions (cel-go's `ext.Strings`, `ext.Lists`), cel-go's
//! `ext.Sets` and two-variable comprehensions, and Kubernetes' libraries
//! (k8s.io/apiserver `pkg/cel/library`), as the API server's base environment for CRD
//! validation rules (`environment/base.go`; `authz` is not offered to CRDs).

use std::sync::{Arc, OnceLock};

use cel::common::types::Type;
use cel::common::value::{CowVal, FromVal, Val};
use cel::{Env, ExecutionError};

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

/// The arguments of an overload.
pub(crate) type Args<'b, 'v> = Vec<CowVal<'b, 'v>>;

/// The result of an overload.
pub(crate) type Ret<'b, 'v> = Result<CowVal<'b, 'v>, ExecutionError>;

/// Argument `i` as the type its overload was declared for.
pub(crate) fn arg<'a, 'b, 'v, T: FromVal<'a, 'v>>(
    args: &'a [CowVal<'b, 'v>],
    i: usize,
) -> Result<&'a T, ExecutionError> {
    let v: &'a (dyn Val + 'v) =
        args.get(i).ok_or_else(|| ExecutionError::invalid_argument_count(i + 1, args.len()))?.as_ref();
    v.downcast_ref::<T>().ok_or_else(|| {
        ExecutionError::no_such_overload("", args.iter().map(|a| a.get_type().name().to_string()).collect())
    })
}

/// A value to hand back.
pub(crate) fn ok<'b, 'v, T: Val + 'v>(v: T) -> Ret<'b, 'v> {
    Ok(CowVal::owned(v))
}

/// An error of `function`, whose message the validator reports as it is.
pub(crate) fn fail<'b, 'v>(function: &str, message: impl ToString) -> Ret<'b, 'v> {
    Err(ExecutionError::function_error(function, message.to_string()))
}

/// A type of the libraries' own values.
pub(crate) fn declare(env: &mut Env, t: &'static Type) -> Result<(), cel::DeclarationError> {
    env.add_type(t.to_owned())
}
