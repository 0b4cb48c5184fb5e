//! Kubernetes' lists library (k8s.io/apiserver `pkg/cel/library/lists.go`):
//! `isSorted`, `sum`, `min`, `max`, `indexOf`, `lastIndexOf`; and `first`/`last` of
//! cel-go's lists extension, which the `cel` crate's lacks.

use std::cmp::Ordering;

use cel::common::types::{CelBool, CelInt, CelOptional, DYN_TYPE, LIST_TYPE};
use cel::common::value::{CowVal, Val};
use cel::{Env, ExecutionError};

use super::overload::{Args, Ret, fail, ok};

pub(crate) fn register(env: &mut Env) -> Result<(), cel::DeclarationError> {
    env.add_member_overload("isSorted", "list_is_sorted_bool", LIST_TYPE, vec![], is_sorted)?;
    env.add_member_overload("sum", "list_sum", LIST_TYPE, vec![], sum)?;
    env.add_member_overload("min", "list_min", LIST_TYPE, vec![], min)?;
    env.add_member_overload("max", "list_max", LIST_TYPE, vec![], max)?;
    env.add_member_overload("indexOf", "list_a_index_of_int", LIST_TYPE, vec![DYN_TYPE], index_of)?;
    env.add_member_overload("lastIndexOf", "list_a_last_index_of_int", LIST_TYPE, vec![DYN_TYPE], last_index_of)?;
    env.add_member_overload("first", "list_first", LIST_TYPE, vec![], |a| end(a, true))?;
    env.add_member_overload("last", "list_last", LIST_TYPE, vec![], |a| end(a, false))?;
    Ok(())
}

/// The elements of a list argument.
pub(crate) fn elements<'a, 'v>(v: &'a (dyn Val + 'v)) -> Result<Vec<&'a (dyn Val + 'v)>, ExecutionError> {
    let mut it = v
        .as_iterable()
        .ok_or_else(|| ExecutionError::no_such_overload("", vec![v.get_type().name().to_string()]))?
        .iter();
    let mut out = Vec::new();
    while let Some(e) = it.next() {
        out.push(e);
    }
    Ok(out)
}

/// `a.compare(b)`; elements that don't compare are reported as the server does: not at
/// all (its comparison yields an error value, which is never "greater" or "less").
fn compare(a: &dyn Val, b: &dyn Val) -> Result<Option<Ordering>, ExecutionError> {
    let c =
        a.as_comparer().ok_or_else(|| ExecutionError::no_such_overload("", vec![a.get_type().name().to_string()]))?;
    Ok(c.compare(b).ok())
}

fn is_sorted<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let items = elements(args[0].as_ref())?;
    for pair in items.windows(2) {
        if compare(pair[0], pair[1])? == Some(Ordering::Greater) {
            return ok(CelBool::from(false));
        }
    }
    if let Some(last) = items.last() {
        compare(*last, *last)?;
    }
    ok(CelBool::from(true))
}

fn sum<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let items = elements(args[0].as_ref())?;
    // The server starts from the zero of the list's declared element type; at run time
    // the type of an empty list is unknown, and int's zero is the one given.
    let Some((first, rest)) = items.split_first() else { return ok(CelInt::from(0)) };
    let mut acc: Box<dyn Val + 'v> = first.clone_as_boxed();
    for next in rest {
        let adder = acc
            .as_adder()
            .ok_or_else(|| ExecutionError::no_such_overload("", vec![acc.get_type().name().to_string()]))?;
        let s = adder.add(*next)?.into_owned();
        acc = s;
    }
    Ok(CowVal::Owned(acc))
}

fn pick<'b, 'v>(args: Args<'b, 'v>, name: &str, prefer: Ordering) -> Ret<'b, 'v> {
    let items = elements(args[0].as_ref())?;
    let Some((first, rest)) = items.split_first() else {
        return fail(name, format!("{name} called on empty list"));
    };
    compare(*first, *first)?;
    let mut best = *first;
    for next in rest {
        compare(*next, *next)?;
        if compare(best, *next)? == Some(prefer) {
            best = *next;
        }
    }
    Ok(CowVal::Owned(best.clone_as_boxed()))
}

fn min<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    pick(args, "min", Ordering::Greater)
}

fn max<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    pick(args, "max", Ordering::Less)
}

fn index_of<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let items = elements(args[0].as_ref())?;
    let i = items.iter().position(|e| e.equals(args[1].as_ref())).map_or(-1, |i| i as i64);
    ok(CelInt::from(i))
}

fn last_index_of<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let items = elements(args[0].as_ref())?;
    let i = items.iter().rposition(|e| e.equals(args[1].as_ref())).map_or(-1, |i| i as i64);
    ok(CelInt::from(i))
}

/// `list.first()` / `list.last()`: the element, or `optional.none()` for an empty list.
fn end<'b, 'v>(args: Args<'b, 'v>, first: bool) -> Ret<'b, 'v> {
    let items = elements(args[0].as_ref())?;
    let e = if first { items.first() } else { items.last() };
    ok(match e {
        Some(e) => CelOptional::of(e.clone_as_boxed()),
        None => CelOptional::none(),
    })
}
