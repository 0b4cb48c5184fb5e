//! Kubernetes' semver library (k8s.io/apiserver `pkg/cel/library/semverlib.go`,
//! version 1 with `normalize`), on a port of blang/semver v4's `Parse` and `Compare`.

use std::any::Any;
use std::cmp::Ordering;

use cel::Env;
use cel::common::types::{BOOL_TYPE, CelBool, CelInt, CelString, STRING_TYPE, Type};
use cel::common::value::{StaticVal, Val};

use super::overload::{Args, Ret, arg, declare, fail, ok};

pub(crate) static SEMVER_TYPE: Type = Type::new_unspecified_type("kubernetes.Semver");

pub(crate) fn register(env: &mut Env) -> Result<(), cel::DeclarationError> {
    declare(env, &SEMVER_TYPE)?;
    let sv = || SEMVER_TYPE.to_owned();
    env.add_overload("semver", "string_to_semver", vec![STRING_TYPE], to_semver)?;
    env.add_overload("semver", "string_bool_to_semver", vec![STRING_TYPE, BOOL_TYPE], to_semver)?;
    env.add_overload("isSemver", "is_semver_string", vec![STRING_TYPE], is_semver)?;
    env.add_overload("isSemver", "is_semver_string_bool", vec![STRING_TYPE, BOOL_TYPE], is_semver)?;
    env.add_member_overload("major", "semver_major", sv(), vec![], |a| {
        ok(CelInt::from(arg::<Semver>(&a, 0)?.major as i64))
    })?;
    env.add_member_overload("minor", "semver_minor", sv(), vec![], |a| {
        ok(CelInt::from(arg::<Semver>(&a, 0)?.minor as i64))
    })?;
    env.add_member_overload("patch", "semver_patch", sv(), vec![], |a| {
        ok(CelInt::from(arg::<Semver>(&a, 0)?.patch as i64))
    })?;
    env.add_member_overload("isGreaterThan", "semver_is_greater_than", sv(), vec![sv()], |a| {
        cmp_bool(a, Ordering::Greater)
    })?;
    env.add_member_overload("isLessThan", "semver_is_less_than", sv(), vec![sv()], |a| cmp_bool(a, Ordering::Less))?;
    env.add_member_overload("compareTo", "semver_compare_to", sv(), vec![sv()], |a| {
        ok(CelInt::from(arg::<Semver>(&a, 0)?.compare(arg::<Semver>(&a, 1)?) as i64))
    })?;
    Ok(())
}

fn normalize_arg(args: &Args<'_, '_>) -> Result<bool, cel::ExecutionError> {
    Ok(args.len() > 1 && *arg::<CelBool>(args, 1)?.inner())
}

fn parse_with(s: &str, normalize: bool) -> Result<Semver, String> {
    if normalize { normalize_and_parse(s) } else { Semver::parse(s) }
}

fn to_semver<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    match parse_with(arg::<CelString>(&args, 0)?.inner(), normalize_arg(&args)?) {
        Ok(v) => ok(v),
        Err(e) => fail("semver", e),
    }
}

fn is_semver<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    ok(CelBool::from(parse_with(arg::<CelString>(&args, 0)?.inner(), normalize_arg(&args)?).is_ok()))
}

fn cmp_bool<'b, 'v>(args: Args<'b, 'v>, want: Ordering) -> Ret<'b, 'v> {
    ok(CelBool::from(arg::<Semver>(&args, 0)?.compare(arg::<Semver>(&args, 1)?) == want))
}

/// A semantic version; build metadata is kept but never compared.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Semver {
    major: u64,
    minor: u64,
    patch: u64,
    pre: Vec<Pre>,
    build: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
enum Pre {
    Num(u64),
    Str(String),
}

impl Val for Semver {
    fn get_type(&self) -> &Type {
        &SEMVER_TYPE
    }
    fn cel_type() -> &'static Type {
        &SEMVER_TYPE
    }
    fn clone_as_boxed<'v>(&self) -> Box<dyn Val + 'v> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> Option<&dyn Any> {
        Some(self)
    }
    fn equals(&self, other: &dyn Val) -> bool {
        other.downcast_ref::<Semver>().is_some_and(|o| self.compare(o) == Ordering::Equal)
    }
}
impl StaticVal for Semver {}

fn only(s: &str, f: impl Fn(char) -> bool) -> bool {
    s.chars().all(f)
}

fn numeric(c: char) -> bool {
    c.is_ascii_digit()
}

fn alphanum(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-'
}

fn leading_zero(s: &str) -> bool {
    s.len() > 1 && s.starts_with('0')
}

/// Go's `strconv.ParseUint(s, 10, 64)`, its error as Go words it.
fn parse_uint(s: &str) -> Result<u64, String> {
    if s.is_empty() {
        return Err(format!("strconv.ParseUint: parsing {s:?}: invalid syntax"));
    }
    s.parse().map_err(|_| format!("strconv.ParseUint: parsing {s:?}: value out of range"))
}

impl Semver {
    /// blang/semver's `Parse`.
    fn parse(s: &str) -> Result<Semver, String> {
        if s.is_empty() {
            return Err("Version string empty".into());
        }
        let parts: Vec<&str> = s.splitn(3, '.').collect();
        if parts.len() != 3 {
            return Err("No Major.Minor.Patch elements found".into());
        }
        let number = |p: &str, what: &str| -> Result<u64, String> {
            if !only(p, numeric) {
                return Err(format!("Invalid character(s) found in {what} number {p:?}"));
            }
            if leading_zero(p) {
                return Err(format!("{} number must not contain leading zeroes {p:?}", capitalize(what)));
            }
            parse_uint(p)
        };
        let major = number(parts[0], "major")?;
        let minor = number(parts[1], "minor")?;
        let mut patch_str = parts[2];
        let mut build = Vec::new();
        let mut pre_strs = Vec::new();
        if let Some(i) = patch_str.find('+') {
            build = patch_str[i + 1..].split('.').map(str::to_string).collect();
            patch_str = &patch_str[..i];
        }
        if let Some(i) = patch_str.find('-') {
            pre_strs = patch_str[i + 1..].split('.').collect();
            patch_str = &patch_str[..i];
        }
        let patch = number(patch_str, "patch")?;
        let mut pre = Vec::new();
        for p in pre_strs {
            if p.is_empty() {
                return Err("Prerelease is empty".into());
            }
            if only(p, numeric) {
                if leading_zero(p) {
                    return Err(format!("Numeric PreRelease version must not contain leading zeroes {p:?}"));
                }
                pre.push(Pre::Num(parse_uint(p)?));
            } else if only(p, alphanum) {
                pre.push(Pre::Str(p.to_string()));
            } else {
                return Err(format!("Invalid character(s) found in prerelease {p:?}"));
            }
        }
        for b in &build {
            if b.is_empty() {
                return Err("Build meta data is empty".into());
            }
            if !only(b, alphanum) {
                return Err(format!("Invalid character(s) found in build meta data {b:?}"));
            }
        }
        Ok(Semver { major, minor, patch, pre, build })
    }

    /// blang/semver's `Compare`.
    fn compare(&self, o: &Semver) -> Ordering {
        let c = (self.major, self.minor, self.patch).cmp(&(o.major, o.minor, o.patch));
        if c != Ordering::Equal {
            return c;
        }
        match (self.pre.is_empty(), o.pre.is_empty()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Greater,
            (false, true) => return Ordering::Less,
            _ => {}
        }
        for (a, b) in self.pre.iter().zip(&o.pre) {
            let c = match (a, b) {
                (Pre::Num(x), Pre::Num(y)) => x.cmp(y),
                (Pre::Num(_), Pre::Str(_)) => Ordering::Less,
                (Pre::Str(_), Pre::Num(_)) => Ordering::Greater,
                (Pre::Str(x), Pre::Str(y)) => x.cmp(y),
            };
            if c != Ordering::Equal {
                return c;
            }
        }
        self.pre.len().cmp(&o.pre.len())
    }
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

/// The library's `normalizeAndParse`: no leading `v`, leading zeros dropped, missing
/// minor and patch filled with 0.
fn normalize_and_parse(s: &str) -> Result<Semver, String> {
    let s = s.strip_prefix('v').unwrap_or(s);
    let mut parts: Vec<String> = s.splitn(3, '.').map(str::to_string).collect();
    for p in parts.iter_mut() {
        if p.len() > 1 {
            let mut t = p.trim_start_matches('0').to_string();
            if t.is_empty() || !t.starts_with(|c: char| c.is_ascii_digit()) {
                t = format!("0{t}");
            }
            *p = t;
        }
    }
    if parts.len() < 3 {
        if parts.last().is_some_and(|l| l.contains(['+', '-'])) {
            return Err("short version cannot contain PreRelease/Build meta data".into());
        }
        while parts.len() < 3 {
            parts.push("0".into());
        }
    }
    Semver::parse(&parts.join("."))
}
