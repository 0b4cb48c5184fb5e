//! cel-go's two-variable comprehensions (`ext.TwoVarComprehensions`, in the server's
//! environment since 1.32): `all(i, v, p)`, `exists(i, v, p)`, `existsOne(i, v, p)`,
//! `transformList(i, v, [f,] e)`, `transformMap(k, v, [f,] e)` and
//! `transformMapEntry(k, v, [f,] e)`, over a list (index and element) or a map (key and
//! value).
//!
//! The `cel` crate's interpreter runs one-variable comprehensions only: each macro
//! expands to one over `@pairs(target)`, the list of `[i, v]` pairs, with `i` and `v`
//! bound in its step by comprehensions over nothing (as the lists extension's `sortBy`
//! binds its input).

use std::collections::HashMap;

use cel::common::ast::{CallExpr, ComprehensionExpr, Expr, IdedExpr, ListExpr, LiteralValue, operators};
use cel::common::types::{CelInt, CelList, CelMap, CelMapKey, DYN_TYPE, MAP_TYPE};
use cel::common::value::Val;
use cel::parser::{Macro, MacroExprHelper, ParseError};
use cel::{Env, ExecutionError};

use super::overload::{Args, Ret, fail, ok};

const ITEM: &str = "@it";
const RESULT: &str = "@result";
const PAIRS: &str = "@pairs";
const MAP_INSERT: &str = "@mapInsert";
const MAP_MERGE: &str = "@mapMerge";

#[derive(Clone, Copy)]
enum Kind {
    All,
    Exists,
    ExistsOne,
    TransformList,
    TransformMap,
    TransformMapEntry,
}

pub(crate) fn register(env: &mut Env) -> Result<(), cel::DeclarationError> {
    env.add_overload(PAIRS, "@pairs_dyn", vec![DYN_TYPE], pairs)?;
    env.add_overload(MAP_INSERT, "@map_insert", vec![MAP_TYPE, DYN_TYPE, DYN_TYPE], map_insert)?;
    env.add_overload(MAP_MERGE, "@map_merge", vec![MAP_TYPE, MAP_TYPE], map_merge)?;
    let macros: [(&str, usize, Kind); 9] = [
        ("all", 3, Kind::All),
        ("exists", 3, Kind::Exists),
        ("existsOne", 3, Kind::ExistsOne),
        ("transformList", 3, Kind::TransformList),
        ("transformList", 4, Kind::TransformList),
        ("transformMap", 3, Kind::TransformMap),
        ("transformMap", 4, Kind::TransformMap),
        ("transformMapEntry", 3, Kind::TransformMapEntry),
        ("transformMapEntry", 4, Kind::TransformMapEntry),
    ];
    for (name, arity, kind) in macros {
        env.add_macro(Macro::receiver(name, arity, move |helper, target, args| expand(helper, target, args, kind)))?;
    }
    Ok(())
}

fn ident_of(helper: &mut MacroExprHelper<'_>, e: &IdedExpr) -> Result<String, ParseError> {
    match &e.expr {
        Expr::Ident(name) => Ok(name.clone()),
        _ => Err(helper.new_error(e.id, "argument must be a simple name")),
    }
}

fn call(helper: &mut MacroExprHelper<'_>, name: &str, target: Option<IdedExpr>, args: Vec<IdedExpr>) -> IdedExpr {
    helper.next_expr(Expr::Call(CallExpr { func_name: name.to_string(), target: target.map(Box::new), args }))
}

fn ident(helper: &mut MacroExprHelper<'_>, name: &str) -> IdedExpr {
    helper.next_expr(Expr::Ident(name.to_string()))
}

fn int(helper: &mut MacroExprHelper<'_>, i: i64) -> IdedExpr {
    helper.next_expr(Expr::Literal(LiteralValue::Int(i.into())))
}

fn boolean(helper: &mut MacroExprHelper<'_>, b: bool) -> IdedExpr {
    helper.next_expr(Expr::Literal(LiteralValue::Boolean(b.into())))
}

/// `body` with `name` bound to `value`.
fn bind(helper: &mut MacroExprHelper<'_>, name: &str, value: IdedExpr, body: IdedExpr) -> IdedExpr {
    let range = helper.next_expr(Expr::List(ListExpr::new(Vec::new())));
    let cond = boolean(helper, false);
    let step = ident(helper, name);
    helper.next_expr(Expr::Comprehension(Box::new(ComprehensionExpr {
        iter_range: range,
        iter_var: "#unused".to_string(),
        iter_var2: None,
        accu_var: name.to_string(),
        accu_init: value,
        loop_cond: cond,
        loop_step: step,
        result: body,
    })))
}

fn expand(
    helper: &mut MacroExprHelper<'_>,
    target: &mut Option<IdedExpr>,
    args: &mut Vec<IdedExpr>,
    kind: Kind,
) -> Result<Option<IdedExpr>, ParseError> {
    let (Some(first), Some(second)) = (args.first(), args.get(1)) else { return Ok(None) };
    let (i, v) = (ident_of(helper, first)?, ident_of(helper, second)?);
    let Some(target) = target.take() else { return Ok(None) };
    let mut rest: Vec<IdedExpr> = args.drain(..).skip(2).collect();
    let body = rest.pop().expect("the macro's arity leaves a body");
    let filter = rest.pop();

    let accu = |h: &mut MacroExprHelper<'_>| ident(h, RESULT);
    let (init, cond, step, result) = match kind {
        Kind::All | Kind::Exists => {
            let all = matches!(kind, Kind::All);
            let init = boolean(helper, all);
            let a = accu(helper);
            let a = if all { a } else { call(helper, operators::LOGICAL_NOT, None, vec![a]) };
            let cond = call(helper, operators::NOT_STRICTLY_FALSE, None, vec![a]);
            let a = accu(helper);
            let op = if all { operators::LOGICAL_AND } else { operators::LOGICAL_OR };
            let step = call(helper, op, None, vec![a, body]);
            (init, cond, step, accu(helper))
        }
        Kind::ExistsOne => {
            let init = int(helper, 0);
            let cond = boolean(helper, true);
            let (a, one) = (accu(helper), int(helper, 1));
            let plus = call(helper, operators::ADD, None, vec![a, one]);
            let a = accu(helper);
            let step = call(helper, operators::CONDITIONAL, None, vec![body, plus, a]);
            let (a, one) = (accu(helper), int(helper, 1));
            let result = call(helper, operators::EQUALS, None, vec![a, one]);
            (init, cond, step, result)
        }
        Kind::TransformList | Kind::TransformMap | Kind::TransformMapEntry => {
            let init = match kind {
                Kind::TransformList => helper.next_expr(Expr::List(ListExpr::new(Vec::new()))),
                _ => helper.next_expr(Expr::Map(Default::default())),
            };
            let cond = boolean(helper, true);
            let a = accu(helper);
            let mut step = match kind {
                Kind::TransformList => {
                    let item = helper.next_expr(Expr::List(ListExpr::new(vec![body])));
                    call(helper, operators::ADD, None, vec![a, item])
                }
                Kind::TransformMap => {
                    let key = ident(helper, &i);
                    call(helper, MAP_INSERT, None, vec![a, key, body])
                }
                _ => call(helper, MAP_MERGE, None, vec![a, body]),
            };
            if let Some(filter) = filter {
                let a = accu(helper);
                step = call(helper, operators::CONDITIONAL, None, vec![filter, step, a]);
            }
            (init, cond, step, accu(helper))
        }
    };
    // Bind `i` and `v` to the pair's elements around the step.
    let (it, zero) = (ident(helper, ITEM), int(helper, 0));
    let first = call(helper, operators::INDEX, None, vec![it, zero]);
    let (it, one) = (ident(helper, ITEM), int(helper, 1));
    let second = call(helper, operators::INDEX, None, vec![it, one]);
    let step = bind(helper, &v, second, step);
    let step = bind(helper, &i, first, step);
    let range = call(helper, PAIRS, None, vec![target]);
    Ok(Some(helper.next_expr(Expr::Comprehension(Box::new(ComprehensionExpr {
        iter_range: range,
        iter_var: ITEM.to_string(),
        iter_var2: None,
        accu_var: RESULT.to_string(),
        accu_init: init,
        loop_cond: cond,
        loop_step: step,
        result,
    })))))
}

/// The `[index, element]` pairs of a list, or the `[key, value]` pairs of a map.
fn pairs<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let target = args[0].as_ref();
    let pair =
        |a: Box<dyn Val + 'v>, b: Box<dyn Val + 'v>| -> Box<dyn Val + 'v> { Box::new(CelList::from(vec![a, b])) };
    let mut out: Vec<Box<dyn Val + 'v>> = Vec::new();
    match target.get_type().kind() {
        cel::common::types::Kind::List => {
            let mut it = target.as_iterable().ok_or_else(|| no_overload(target))?.iter();
            let mut i = 0i64;
            while let Some(e) = it.next() {
                out.push(pair(Box::new(CelInt::from(i)), e.clone_as_boxed()));
                i += 1;
            }
        }
        cel::common::types::Kind::Map => {
            let mut it = target.as_iterable().ok_or_else(|| no_overload(target))?.iter();
            let indexer = target.as_indexer().ok_or_else(|| no_overload(target))?;
            while let Some(k) = it.next() {
                let v = indexer.get(k)?.into_owned();
                out.push(pair(k.clone_as_boxed(), v));
            }
        }
        _ => return Err(no_overload(target)),
    }
    ok(CelList::from(out))
}

fn no_overload(v: &dyn Val) -> ExecutionError {
    ExecutionError::no_such_overload("", vec![v.get_type().name().to_string()])
}

fn entries<'v>(m: &(dyn Val + 'v)) -> Result<HashMap<CelMapKey<'v>, Box<dyn Val + 'v>>, ExecutionError> {
    let map = m.downcast_ref::<CelMap>().ok_or_else(|| no_overload(m))?;
    Ok(map.inner().iter().map(|(k, v)| (k.clone(), v.clone_as_boxed())).collect())
}

/// `cel.@mapInsert(m, k, v)`: `m` with `k` set to `v`.
fn map_insert<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let mut m = entries(args[0].as_ref())?;
    let key = CelMapKey::try_from(args[1].clone().into_owned())?;
    if m.contains_key(&key) {
        return fail("transformMap", format!("insert failed: key {:?} already exists", key.inner()));
    }
    m.insert(key, args[2].clone().into_owned());
    ok(CelMap::from(m))
}

/// `cel.@mapInsert(m, entry)`: `m` with the entries of `entry`, none of them new keys.
fn map_merge<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let mut m = entries(args[0].as_ref())?;
    for (k, v) in entries(args[1].as_ref())? {
        if m.contains_key(&k) {
            return fail("transformMapEntry", format!("insert failed: key {:?} already exists", k.inner()));
        }
        m.insert(k, v);
    }
    ok(CelMap::from(m))
}
