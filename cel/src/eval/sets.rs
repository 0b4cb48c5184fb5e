//! cel-go's sets extension (`ext.Sets`): `sets.contains`, `sets.equivalent`,
//! `sets.intersects`, with CEL's equality (so `1`, `1u` and `1.0` are one element).

use cel::Env;
use cel::common::types::{CelBool, LIST_TYPE};
use cel::common::value::Val;

use super::lists::elements;
use super::overload::{Args, Ret, ok};

pub(crate) fn register(env: &mut Env) -> Result<(), cel::DeclarationError> {
    env.add_overload("sets.contains", "list_sets_contains_list", vec![LIST_TYPE, LIST_TYPE], contains)?;
    env.add_overload("sets.equivalent", "list_sets_equivalent_list", vec![LIST_TYPE, LIST_TYPE], equivalent)?;
    env.add_overload("sets.intersects", "list_sets_intersects_list", vec![LIST_TYPE, LIST_TYPE], intersects)?;
    Ok(())
}

fn has(list: &[&dyn Val], e: &dyn Val) -> bool {
    list.iter().any(|x| x.equals(e))
}

fn contains<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let (list, sub) = (elements(args[0].as_ref())?, elements(args[1].as_ref())?);
    ok(CelBool::from(sub.iter().all(|e| has(&list, *e))))
}

fn equivalent<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let (a, b) = (elements(args[0].as_ref())?, elements(args[1].as_ref())?);
    ok(CelBool::from(b.iter().all(|e| has(&a, *e)) && a.iter().all(|e| has(&b, *e))))
}

fn intersects<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let (a, b) = (elements(args[0].as_ref())?, elements(args[1].as_ref())?);
    ok(CelBool::from(b.iter().any(|e| has(&a, *e))))
}
