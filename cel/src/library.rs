//! The functions the API server declares for CRD validation rules: CEL's standard
//! library, the extensions Kubernetes enables (strings v2, sets, optional types) and
//! Kubernetes' own libraries (k8s.io/apiserver `pkg/cel/library`: lists, regex, urls,
//! quantity, ip, cidr, format, semver), each overload once, in one readable table.
//!
//! A line is `receiver.name(args) -> result` for a method, `fn name(args) -> result` for
//! a function (names may be qualified: `optional.of`). Single capitals are type
//! parameters; `IP`, `CIDR`, `URL`, `Quantity`, `Semver` and `Format` are Kubernetes'
//! library types. `@since 1.NN` and `@until 1.NN` bound the releases that declare an
//! overload (inclusive).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use crate::types::{Size, Ty, list, map, string};

const DECLARATIONS: &str = r#"
fn !_(bool) -> bool
fn -_(int) -> int
fn -_(double) -> double
fn _&&_(bool, bool) -> bool
fn _||_(bool, bool) -> bool
fn @not_strictly_false(bool) -> bool
fn _?_:_(bool, A, A) -> A
fn _==_(A, A) -> bool
fn _!=_(A, A) -> bool
fn @in(A, list(A)) -> bool
fn @in(A, map(A, B)) -> bool
fn _[_](list(A), int) -> A
fn _[_](map(A, B), A) -> B
fn _<_(bool, bool) -> bool
fn _<_(int, int) -> bool
fn _<_(uint, uint) -> bool
fn _<_(double, double) -> bool
fn _<_(string, string) -> bool
fn _<_(bytes, bytes) -> bool
fn _<_(timestamp, timestamp) -> bool
fn _<_(duration, duration) -> bool
fn _<_(int, uint) -> bool
fn _<_(int, double) -> bool
fn _<_(uint, int) -> bool
fn _<_(uint, double) -> bool
fn _<_(double, int) -> bool
fn _<_(double, uint) -> bool
fn _<=_(bool, bool) -> bool
fn _<=_(int, int) -> bool
fn _<=_(uint, uint) -> bool
fn _<=_(double, double) -> bool
fn _<=_(string, string) -> bool
fn _<=_(bytes, bytes) -> bool
fn _<=_(timestamp, timestamp) -> bool
fn _<=_(duration, duration) -> bool
fn _<=_(int, uint) -> bool
fn _<=_(int, double) -> bool
fn _<=_(uint, int) -> bool
fn _<=_(uint, double) -> bool
fn _<=_(double, int) -> bool
fn _<=_(double, uint) -> bool
fn _>_(bool, bool) -> bool
fn _>_(int, int) -> bool
fn _>_(uint, uint) -> bool
fn _>_(double, double) -> bool
fn _>_(string, string) -> bool
fn _>_(bytes, bytes) -> bool
fn _>_(timestamp, timestamp) -> bool
fn _>_(duration, duration) -> bool
fn _>_(int, uint) -> bool
fn _>_(int, double) -> bool
fn _>_(uint, int) -> bool
fn _>_(uint, double) -> bool
fn _>_(double, int) -> bool
fn _>_(double, uint) -> bool
fn _>=_(bool, bool) -> bool
fn _>=_(int, int) -> bool
fn _>=_(uint, uint) -> bool
fn _>=_(double, double) -> bool
fn _>=_(string, string) -> bool
fn _>=_(bytes, bytes) -> bool
fn _>=_(timestamp, timestamp) -> bool
fn _>=_(duration, duration) -> bool
fn _>=_(int, uint) -> bool
fn _>=_(int, double) -> bool
fn _>=_(uint, int) -> bool
fn _>=_(uint, double) -> bool
fn _>=_(double, int) -> bool
fn _>=_(double, uint) -> bool
fn _+_(int, int) -> int
fn _+_(uint, uint) -> uint
fn _+_(double, double) -> double
fn _+_(string, string) -> string
fn _+_(bytes, bytes) -> bytes
fn _+_(list(A), list(A)) -> list(A)
fn _+_(timestamp, duration) -> timestamp
fn _+_(duration, timestamp) -> timestamp
fn _+_(duration, duration) -> duration
fn _-_(int, int) -> int
fn _-_(uint, uint) -> uint
fn _-_(double, double) -> double
fn _-_(timestamp, timestamp) -> duration
fn _-_(timestamp, duration) -> timestamp
fn _-_(duration, duration) -> duration
fn _*_(int, int) -> int
fn _*_(uint, uint) -> uint
fn _*_(double, double) -> double
fn _/_(int, int) -> int
fn _/_(uint, uint) -> uint
fn _/_(double, double) -> double
fn _%_(int, int) -> int
fn _%_(uint, uint) -> uint
fn size(string) -> int
fn size(bytes) -> int
fn size(list(A)) -> int
fn size(map(A, B)) -> int
string.size() -> int
bytes.size() -> int
list(A).size() -> int
map(A, B).size() -> int
fn int(int) -> int
fn int(uint) -> int
fn int(double) -> int
fn int(string) -> int
fn int(timestamp) -> int
fn int(duration) -> int
fn uint(uint) -> uint
fn uint(int) -> uint
fn uint(double) -> uint
fn uint(string) -> uint
fn double(double) -> double
fn double(int) -> double
fn double(uint) -> double
fn double(string) -> double
fn string(string) -> string
fn string(int) -> string
fn string(uint) -> string
fn string(double) -> string
fn string(bool) -> string
fn string(bytes) -> string
fn string(timestamp) -> string
fn string(duration) -> string
fn bytes(bytes) -> bytes
fn bytes(string) -> bytes
fn bool(bool) -> bool
fn bool(string) -> bool
fn duration(duration) -> duration
fn duration(string) -> duration
fn duration(int) -> duration @until 1.35
fn timestamp(timestamp) -> timestamp
fn timestamp(string) -> timestamp
fn timestamp(int) -> timestamp
fn dyn(A) -> dyn
fn type(A) -> type(A)
string.contains(string) -> bool
string.startsWith(string) -> bool
string.endsWith(string) -> bool
string.matches(string) -> bool
fn matches(string, string) -> bool
timestamp.getFullYear() -> int
timestamp.getFullYear(string) -> int
timestamp.getMonth() -> int
timestamp.getMonth(string) -> int
timestamp.getDayOfYear() -> int
timestamp.getDayOfYear(string) -> int
timestamp.getDayOfMonth() -> int
timestamp.getDayOfMonth(string) -> int
timestamp.getDate() -> int
timestamp.getDate(string) -> int
timestamp.getDayOfWeek() -> int
timestamp.getDayOfWeek(string) -> int
timestamp.getHours() -> int
timestamp.getHours(string) -> int
timestamp.getMinutes() -> int
timestamp.getMinutes(string) -> int
timestamp.getSeconds() -> int
timestamp.getSeconds(string) -> int
timestamp.getMilliseconds() -> int
timestamp.getMilliseconds(string) -> int
duration.getHours() -> int
duration.getMinutes() -> int
duration.getSeconds() -> int
duration.getMilliseconds() -> int

fn optional.of(A) -> optional(A)
fn optional.ofNonZeroValue(A) -> optional(A)
fn optional.none() -> optional(A)
optional(A).value() -> A
optional(A).hasValue() -> bool
optional(A).or(optional(A)) -> optional(A)
optional(A).orValue(A) -> A
fn _?._(A, string) -> optional(B)
fn _[?_](list(A), int) -> optional(A)
fn _[?_](map(A, B), A) -> optional(B)
fn _[_](optional(list(A)), int) -> optional(A)
fn _[_](optional(map(A, B)), A) -> optional(B)
fn _[?_](optional(list(A)), int) -> optional(A)
fn _[?_](optional(map(A, B)), A) -> optional(B)

string.charAt(int) -> string
string.indexOf(string) -> int
string.indexOf(string, int) -> int
string.lastIndexOf(string) -> int
string.lastIndexOf(string, int) -> int
string.lowerAscii() -> string
string.upperAscii() -> string
string.replace(string, string) -> string
string.replace(string, string, int) -> string
string.split(string) -> list(string)
string.split(string, int) -> list(string)
string.substring(int) -> string
string.substring(int, int) -> string
string.trim() -> string
list(string).join() -> string
list(string).join(string) -> string
fn strings.quote(string) -> string
string.format(list(dyn)) -> string

list(A).slice(int, int) -> list(A)
list(A).distinct() -> list(A)
list(A).first() -> optional(A)
list(A).last() -> optional(A)
list(A).reverse() -> list(A)
list(int).sort() -> list(int)
list(uint).sort() -> list(uint)
list(double).sort() -> list(double)
list(bool).sort() -> list(bool)
list(string).sort() -> list(string)
list(bytes).sort() -> list(bytes)
list(duration).sort() -> list(duration)
list(timestamp).sort() -> list(timestamp)
list(list(A)).flatten() -> list(A)
list(dyn).flatten(int) -> list(dyn)
fn lists.range(int) -> list(int)

fn sets.contains(list(A), list(A)) -> bool
fn sets.equivalent(list(A), list(A)) -> bool
fn sets.intersects(list(A), list(A)) -> bool

list(int).isSorted() -> bool
list(uint).isSorted() -> bool
list(double).isSorted() -> bool
list(bool).isSorted() -> bool
list(string).isSorted() -> bool
list(bytes).isSorted() -> bool
list(duration).isSorted() -> bool
list(timestamp).isSorted() -> bool
list(int).sum() -> int
list(uint).sum() -> uint
list(double).sum() -> double
list(duration).sum() -> duration
list(int).min() -> int
list(uint).min() -> uint
list(double).min() -> double
list(bool).min() -> bool
list(string).min() -> string
list(bytes).min() -> bytes
list(duration).min() -> duration
list(timestamp).min() -> timestamp
list(int).max() -> int
list(uint).max() -> uint
list(double).max() -> double
list(bool).max() -> bool
list(string).max() -> string
list(bytes).max() -> bytes
list(duration).max() -> duration
list(timestamp).max() -> timestamp
list(A).indexOf(A) -> int
list(A).lastIndexOf(A) -> int

string.find(string) -> string
string.findAll(string) -> list(string)
string.findAll(string, int) -> list(string)

fn url(string) -> URL
fn isURL(string) -> bool
URL.getScheme() -> string
URL.getHost() -> string
URL.getHostname() -> string
URL.getPort() -> string
URL.getEscapedPath() -> string
URL.getQuery() -> map(string, list(string))

fn quantity(string) -> Quantity
fn isQuantity(string) -> bool
fn sign(Quantity) -> int
Quantity.isInteger() -> bool
Quantity.asInteger() -> int
Quantity.asApproximateFloat() -> double
Quantity.add(Quantity) -> Quantity
Quantity.add(int) -> Quantity
Quantity.sub(Quantity) -> Quantity
Quantity.sub(int) -> Quantity
Quantity.isGreaterThan(Quantity) -> bool
Quantity.isLessThan(Quantity) -> bool
Quantity.compareTo(Quantity) -> int

fn ip(string) -> IP
fn isIP(string) -> bool
fn ip.isCanonical(string) -> bool
IP.family() -> int
IP.isUnspecified() -> bool
IP.isLoopback() -> bool
IP.isLinkLocalMulticast() -> bool
IP.isLinkLocalUnicast() -> bool
IP.isGlobalUnicast() -> bool
fn string(IP) -> string
fn cidr(string) -> CIDR
fn isCIDR(string) -> bool
CIDR.containsIP(string) -> bool
CIDR.containsIP(IP) -> bool
CIDR.containsCIDR(string) -> bool
CIDR.containsCIDR(CIDR) -> bool
CIDR.ip() -> IP
CIDR.masked() -> CIDR
CIDR.prefixLength() -> int
fn string(CIDR) -> string

fn format.named(string) -> optional(Format)
fn format.dns1123Label() -> Format
fn format.dns1123Subdomain() -> Format
fn format.dns1035Label() -> Format
fn format.qualifiedName() -> Format
fn format.dns1123LabelPrefix() -> Format
fn format.dns1123SubdomainPrefix() -> Format
fn format.dns1035LabelPrefix() -> Format
fn format.labelValue() -> Format
fn format.uri() -> Format
fn format.uuid() -> Format
fn format.byte() -> Format
fn format.date() -> Format
fn format.datetime() -> Format
Format.validate(string) -> optional(list(string))

fn semver(string) -> Semver
fn semver(string, bool) -> Semver
fn isSemver(string) -> bool
fn isSemver(string, bool) -> bool
Semver.major() -> int
Semver.minor() -> int
Semver.patch() -> int
Semver.isGreaterThan(Semver) -> bool
Semver.isLessThan(Semver) -> bool
Semver.compareTo(Semver) -> int
"#;

/// One overload: the function's name, its receiver for a method, its parameters and
/// its result, all possibly holding type parameters.
#[derive(Debug)]
pub struct Overload {
    pub name: String,
    pub receiver: Option<Ty>,
    pub params: Vec<Ty>,
    pub result: Ty,
    /// The declaration as written, for messages and cost.
    pub signature: String,
    /// The first and last Kubernetes minor releases that declare it.
    pub since: u32,
    pub until: u32,
}

/// The Kubernetes minor releases (1.NN) whose CEL environment kubegen checks rules
/// against: those CI runs the corpus on, and the one between them.
pub const RELEASES: &[u32] = &[35, 36, 37];

impl Overload {
    pub fn declared_in(&self, minor: u32) -> bool {
        (self.since..=self.until).contains(&minor)
    }
}

/// Every overload by function name.
pub fn overloads() -> &'static BTreeMap<String, Vec<Overload>> {
    static TABLE: OnceLock<BTreeMap<String, Vec<Overload>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table: BTreeMap<String, Vec<Overload>> = BTreeMap::new();
        for line in DECLARATIONS.lines().map(str::trim).filter(|l| !l.is_empty()) {
            let o = parse_declaration(line).unwrap_or_else(|e| panic!("library declaration `{line}`: {e}"));
            table.entry(o.name.clone()).or_default().push(o);
        }
        table
    })
}

/// Whether `name` is a function (not a method) of the library, `optional.of` included.
pub fn is_function(name: &str) -> bool {
    overloads().get(name).is_some_and(|os| os.iter().any(|o| o.receiver.is_none()))
}

/// Namespaces of qualified functions (`optional`, `sets`, `format`, `strings`, `ip`).
pub fn is_namespace(name: &str) -> bool {
    overloads().keys().any(|k| k.strip_prefix(name).is_some_and(|r| r.starts_with('.')))
}

fn parse_declaration(line: &str) -> Result<Overload, String> {
    let mut since = 0;
    let mut until = u32::MAX;
    let mut decl = line;
    while let Some((rest, tag)) =
        decl.rsplit_once(" @").filter(|(_, t)| t.starts_with("since ") || t.starts_with("until "))
    {
        let (word, version) = tag.split_once(' ').ok_or("a release tag needs a release")?;
        let minor = version.strip_prefix("1.").and_then(|m| m.parse().ok()).ok_or("a release is `1.NN`")?;
        match word {
            "since" => since = minor,
            "until" => until = minor,
            other => return Err(format!("unknown tag `@{other}`")),
        }
        decl = rest;
    }
    let line = decl;
    let (sig, result) = line.split_once(" -> ").ok_or("no ` -> `")?;
    let result = parse_type(&mut result.trim())?;
    let (receiver, rest) = match sig.strip_prefix("fn ") {
        Some(rest) => (None, rest.to_string()),
        None => {
            let mut s = sig;
            let recv = parse_type(&mut s)?;
            let rest = s.strip_prefix('.').ok_or("no `.` after the receiver")?;
            (Some(recv), rest.to_string())
        }
    };
    let open = rest.find('(').ok_or("no `(`")?;
    let name = rest[..open].to_string();
    let mut args = rest[open + 1..].strip_suffix(')').ok_or("no `)`")?.trim();
    let mut params = Vec::new();
    while !args.is_empty() {
        params.push(parse_type(&mut args)?);
        args = args.trim_start().strip_prefix(',').unwrap_or(args).trim_start();
    }
    Ok(Overload { name, receiver, params, result, signature: line.to_string(), since, until })
}

fn parse_type(s: &mut &str) -> Result<Ty, String> {
    *s = s.trim_start();
    let end = s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(s.len());
    let word = &s[..end];
    *s = &s[end..];
    let mut args = Vec::new();
    if let Some(rest) = s.strip_prefix('(') {
        *s = rest;
        loop {
            *s = s.trim_start();
            if let Some(rest) = s.strip_prefix(')') {
                *s = rest;
                break;
            }
            args.push(parse_type(s)?);
            *s = s.trim_start();
            if let Some(rest) = s.strip_prefix(',') {
                *s = rest;
            }
        }
    }
    let arg = |i: usize| args.get(i).cloned().ok_or(format!("`{word}` needs a type argument"));
    Ok(match word {
        "int" => Ty::Int,
        "uint" => Ty::Uint,
        "double" => Ty::Double,
        "bool" => Ty::Bool,
        "string" => string(),
        "bytes" => Ty::Bytes(Size::default()),
        "null" => Ty::Null,
        "dyn" => Ty::Dyn,
        "duration" => Ty::Duration,
        "timestamp" => Ty::Timestamp,
        "list" => list(arg(0)?),
        "map" => map(arg(0)?, arg(1)?),
        "optional" => Ty::Optional(Box::new(arg(0)?)),
        "type" => Ty::Type(Box::new(arg(0)?)),
        "IP" => Ty::Opaque("net.IP", Size::default()),
        "CIDR" => Ty::Opaque("net.CIDR", Size::default()),
        "URL" => Ty::Opaque("kubernetes.URL", Size::default()),
        "Quantity" => Ty::Opaque("kubernetes.Quantity", Size::default()),
        "Semver" => Ty::Opaque("kubernetes.Semver", Size::default()),
        "Format" => Ty::Opaque("kubernetes.NamedFormat", Size::default()),
        w if w.len() == 1 && w.chars().all(|c| c.is_ascii_uppercase()) => Ty::Param(w.chars().next().unwrap_or('A')),
        w => return Err(format!("unknown type `{w}`")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_declaration_parses() {
        let table = overloads();
        assert!(table["startsWith"].iter().any(|o| o.receiver == Some(string())));
        assert!(is_function("optional.of") && is_function("sets.contains") && !is_function("startsWith"));
        assert!(is_namespace("optional") && is_namespace("format") && !is_namespace("self"));
    }
}
