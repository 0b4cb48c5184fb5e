//! How the libraries' overloads take arguments and hand back values: the calling
//! convention every library module (`quantity`, `urls`, ...) writes its functions in.

use cel::common::types::Type;
use cel::common::value::{CowVal, FromVal, Val};
use cel::{Env, ExecutionError};

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
