//! Kubernetes' regex library (k8s.io/apiserver `pkg/cel/library/regex.go`): `find` and
//! `findAll`, on RE2 syntax as Go's `regexp`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use cel::Env;
use cel::common::types::{CelInt, CelList, CelString, INT_TYPE, STRING_TYPE};
use cel::common::value::Val;
use regex::Regex;

use super::overload::{Args, Ret, arg, fail, ok};

pub(crate) fn register(env: &mut Env) -> Result<(), cel::DeclarationError> {
    env.add_member_overload("find", "string_find_string", STRING_TYPE, vec![STRING_TYPE], find)?;
    env.add_member_overload("findAll", "string_find_all_string", STRING_TYPE, vec![STRING_TYPE], find_all)?;
    env.add_member_overload(
        "findAll",
        "string_find_all_string_int",
        STRING_TYPE,
        vec![STRING_TYPE, INT_TYPE],
        find_all_n,
    )?;
    Ok(())
}

/// `pattern`, compiled once per process.
pub(crate) fn compiled(pattern: &str) -> Result<Arc<Regex>, String> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<Regex>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(re) = cache.lock().ok().and_then(|c| c.get(pattern).cloned()) {
        return Ok(re);
    }
    let re = Arc::new(Regex::new(pattern).map_err(|e| e.to_string())?);
    if let Ok(mut c) = cache.lock() {
        if c.len() > 256 {
            c.clear();
        }
        c.insert(pattern.to_string(), re.clone());
    }
    Ok(re)
}

fn find<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let s = arg::<CelString>(&args, 0)?.inner();
    let re = match compiled(arg::<CelString>(&args, 1)?.inner()) {
        Ok(re) => re,
        Err(e) => return fail("find", format!("Illegal regex: {e}")),
    };
    ok(CelString::from(re.find(s).map(|m| m.as_str().to_string()).unwrap_or_default()))
}

fn find_all_limit<'b, 'v>(args: &Args<'b, 'v>, n: i64) -> Ret<'b, 'v> {
    let s = arg::<CelString>(args, 0)?.inner();
    let re = match compiled(arg::<CelString>(args, 1)?.inner()) {
        Ok(re) => re,
        Err(e) => return fail("findAll", format!("Illegal regex: {e}")),
    };
    let limit = if n < 0 { usize::MAX } else { n as usize };
    let found: Vec<Box<dyn Val>> = re
        .find_iter(s)
        .take(limit)
        .map(|m| Box::new(CelString::from(m.as_str().to_string())) as Box<dyn Val>)
        .collect();
    ok(CelList::from(found))
}

fn find_all<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    find_all_limit(&args, -1)
}

fn find_all_n<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let n = *arg::<CelInt>(&args, 2)?.inner();
    find_all_limit(&args, n)
}
