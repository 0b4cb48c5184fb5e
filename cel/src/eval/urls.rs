//! Kubernetes' URL library (k8s.io/apiserver `pkg/cel/library/urls.go`): `url`,
//! `isURL` and the `URL` getters, on a port of the parts of Go's `net/url` they use
//! (`ParseRequestURI`, `Parse`, `EscapedPath`, `Hostname`, `Port`, `Query`), so URLs
//! are accepted, rejected and taken apart as the server does.

use std::any::Any;
use std::collections::HashMap;

use cel::Env;
use cel::common::types::{CelBool, CelList, CelMap, CelMapKey, CelString, STRING_TYPE, Type};
use cel::common::value::{StaticVal, Val};

use super::overload::{Args, Ret, arg, declare, fail, ok};

pub(crate) static URL_TYPE: Type = Type::new_unspecified_type("kubernetes.URL");

pub(crate) fn register(env: &mut Env) -> Result<(), cel::DeclarationError> {
    declare(env, &URL_TYPE)?;
    let url = || URL_TYPE.to_owned();
    env.add_overload("url", "string_to_url", vec![STRING_TYPE], string_to_url)?;
    env.add_overload("isURL", "is_url_string", vec![STRING_TYPE], is_url)?;
    env.add_member_overload("getScheme", "url_get_scheme", url(), vec![], |a| get(a, |u| u.scheme.clone()))?;
    env.add_member_overload("getHost", "url_get_host", url(), vec![], |a| get(a, |u| u.host.clone()))?;
    env.add_member_overload("getHostname", "url_get_hostname", url(), vec![], |a| {
        get(a, |u| split_host_port(&u.host).0)
    })?;
    env.add_member_overload("getPort", "url_get_port", url(), vec![], |a| get(a, |u| split_host_port(&u.host).1))?;
    env.add_member_overload("getEscapedPath", "url_get_escaped_path", url(), vec![], |a| get(a, GoUrl::escaped_path))?;
    env.add_member_overload("getQuery", "url_get_query", url(), vec![], get_query)?;
    Ok(())
}

/// A URL as Go's `url.URL` holds it.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct GoUrl {
    scheme: String,
    opaque: String,
    user: Option<User>,
    host: String,
    path: Vec<u8>,
    raw_path: String,
    force_query: bool,
    raw_query: String,
    fragment: Vec<u8>,
}

impl Val for GoUrl {
    fn get_type(&self) -> &Type {
        &URL_TYPE
    }
    fn cel_type() -> &'static Type {
        &URL_TYPE
    }
    fn clone_as_boxed<'v>(&self) -> Box<dyn Val + 'v> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> Option<&dyn Any> {
        Some(self)
    }
    fn equals(&self, other: &dyn Val) -> bool {
        // The server compares the URLs' `String()`; equal parts give equal strings.
        other.downcast_ref::<GoUrl>().is_some_and(|o| {
            (
                &self.scheme,
                &self.opaque,
                &self.user,
                &self.host,
                self.escaped_path(),
                self.force_query,
                &self.raw_query,
                &self.fragment,
            ) == (&o.scheme, &o.opaque, &o.user, &o.host, o.escaped_path(), o.force_query, &o.raw_query, &o.fragment)
        })
    }
}
impl StaticVal for GoUrl {}

fn string_to_url<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let s = arg::<CelString>(&args, 0)?.inner();
    if let Err(e) = parse_request_uri(s) {
        return fail("url", format!("URL parse error during conversion from string: {e}"));
    }
    match parse(s) {
        Ok(u) => ok(u),
        Err(e) => fail("url", format!("URL parse error during conversion from string: {e}")),
    }
}

fn is_url<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    ok(CelBool::from(parse_request_uri(arg::<CelString>(&args, 0)?.inner()).is_ok()))
}

fn get<'b, 'v>(args: Args<'b, 'v>, f: impl Fn(&GoUrl) -> String) -> Ret<'b, 'v> {
    ok(CelString::from(f(arg::<GoUrl>(&args, 0)?)))
}

fn get_query<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let u = arg::<GoUrl>(&args, 0)?;
    let mut order: Vec<String> = Vec::new();
    let mut values: HashMap<String, Vec<String>> = HashMap::new();
    for (k, v) in parse_query(&u.raw_query) {
        if !values.contains_key(&k) {
            order.push(k.clone());
        }
        values.entry(k).or_default().push(v);
    }
    let entries: HashMap<CelMapKey<'static>, Box<dyn Val>> = order
        .into_iter()
        .map(|k| {
            let list: Vec<Box<dyn Val>> =
                values[&k].iter().map(|v| Box::new(CelString::from(v.clone())) as Box<dyn Val>).collect();
            (CelMapKey::from(k), Box::new(CelList::from(list)) as Box<dyn Val>)
        })
        .collect();
    ok(CelMap::from(entries))
}

// --- a port of Go's net/url -------------------------------------------------------

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Path,
    Host,
    Zone,
    UserPassword,
    QueryComponent,
    Fragment,
}

fn should_escape(c: u8, mode: Mode) -> bool {
    if c.is_ascii_alphanumeric() {
        return false;
    }
    if matches!(mode, Mode::Host | Mode::Zone)
        && matches!(
            c,
            b'!' | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'['
                | b']'
                | b'<'
                | b'>'
                | b'"'
        )
    {
        return false;
    }
    match c {
        b'-' | b'_' | b'.' | b'~' => return false,
        b'$' | b'&' | b'+' | b',' | b'/' | b':' | b';' | b'=' | b'?' | b'@' => {
            return match mode {
                Mode::Fragment => false,
                Mode::Path => c == b'?',
                Mode::UserPassword => matches!(c, b'@' | b'/' | b'?' | b':'),
                Mode::QueryComponent => true,
                Mode::Host | Mode::Zone => true,
            };
        }
        _ => {}
    }
    if mode == Mode::Fragment && matches!(c, b'!' | b'(' | b')' | b'*') {
        return false;
    }
    true
}

/// Go's `strconv.Quote`, for the messages.
pub(crate) fn go_quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\x0c' => out.push_str("\\f"),
            '\x0b' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn unhex(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        b'A'..=b'F' => c - b'A' + 10,
        _ => 0,
    }
}

fn unescape(s: &str, mode: Mode) -> Result<Vec<u8>, String> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                if i + 2 >= b.len() || !b[i + 1].is_ascii_hexdigit() || !b[i + 2].is_ascii_hexdigit() {
                    let rest = &s[i..];
                    let end = rest.char_indices().nth(3).map_or(rest.len(), |(j, _)| j);
                    return Err(format!("invalid URL escape {}", go_quote(&rest[..end])));
                }
                if mode == Mode::Host && unhex(b[i + 1]) < 8 && &s[i..i + 3] != "%25" {
                    return Err(format!("invalid URL escape {}", go_quote(&s[i..i + 3])));
                }
                if mode == Mode::Zone {
                    let v = unhex(b[i + 1]) << 4 | unhex(b[i + 2]);
                    if &s[i..i + 3] != "%25" && v != b' ' && should_escape(v, Mode::Host) {
                        return Err(format!("invalid URL escape {}", go_quote(&s[i..i + 3])));
                    }
                }
                i += 3;
            }
            c => {
                if matches!(mode, Mode::Host | Mode::Zone) && c < 0x80 && should_escape(c, mode) {
                    return Err(format!("invalid character {} in host name", go_quote(&(c as char).to_string())));
                }
                i += 1;
            }
        }
    }
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                out.push(unhex(b[i + 1]) << 4 | unhex(b[i + 2]));
                i += 3;
            }
            b'+' if mode == Mode::QueryComponent => {
                out.push(b' ');
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    Ok(out)
}

fn escape(s: &[u8], mode: Mode) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(s.len());
    for &c in s {
        if c == b' ' && mode == Mode::QueryComponent {
            out.push('+');
        } else if should_escape(c, mode) {
            out.push('%');
            out.push(HEX[(c >> 4) as usize] as char);
            out.push(HEX[(c & 15) as usize] as char);
        } else {
            out.push(c as char);
        }
    }
    out
}

fn valid_encoded(s: &str, mode: Mode) -> bool {
    s.bytes().all(|c| {
        matches!(
            c,
            b'!' | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'@'
                | b'['
                | b']'
                | b'%'
        ) || !should_escape(c, mode)
    })
}

fn lossy(b: Vec<u8>) -> String {
    String::from_utf8(b).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Go's `getScheme`.
fn get_scheme(raw: &str) -> Result<(&str, &str), String> {
    for (i, c) in raw.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' => {
                if i == 0 {
                    return Ok(("", raw));
                }
            }
            b':' => {
                if i == 0 {
                    return Err("missing protocol scheme".into());
                }
                return Ok((&raw[..i], &raw[i + 1..]));
            }
            _ => return Ok(("", raw)),
        }
    }
    Ok(("", raw))
}

fn valid_optional_port(port: &str) -> bool {
    port.is_empty() || (port.starts_with(':') && port[1..].bytes().all(|b| b.is_ascii_digit()))
}

fn parse_host(host: &str) -> Result<String, String> {
    if host.starts_with('[') {
        let Some(i) = host.rfind(']') else { return Err("missing ']' in host".into()) };
        let colon_port = &host[i + 1..];
        if !valid_optional_port(colon_port) {
            return Err(format!("invalid port {} after host", go_quote(colon_port)));
        }
        if let Some(zone) = host[..i].find("%25") {
            let host1 = unescape(&host[..zone], Mode::Host)?;
            let host2 = unescape(&host[zone..i], Mode::Zone)?;
            let host3 = unescape(&host[i..], Mode::Host)?;
            return Ok(lossy([host1, host2, host3].concat()));
        }
    } else if let Some(i) = host.rfind(':') {
        let colon_port = &host[i..];
        if !valid_optional_port(colon_port) {
            return Err(format!("invalid port {} after host", go_quote(colon_port)));
        }
    }
    Ok(lossy(unescape(host, Mode::Host)?))
}

fn valid_userinfo(s: &str) -> bool {
    s.chars().all(|r| {
        r.is_ascii_alphanumeric()
            || matches!(
                r,
                '-' | '.'
                    | '_'
                    | ':'
                    | '~'
                    | '!'
                    | '$'
                    | '&'
                    | '\''
                    | '('
                    | ')'
                    | '*'
                    | '+'
                    | ','
                    | ';'
                    | '='
                    | '%'
                    | '@'
            )
    })
}

/// A URL's user and optional password.
type User = (String, Option<String>);

fn parse_authority(authority: &str) -> Result<(Option<User>, String), String> {
    let i = authority.rfind('@');
    let host = match i {
        None => parse_host(authority)?,
        Some(i) => parse_host(&authority[i + 1..])?,
    };
    let Some(i) = i else { return Ok((None, host)) };
    let userinfo = &authority[..i];
    if !valid_userinfo(userinfo) {
        return Err("net/url: invalid userinfo".into());
    }
    let user = match userinfo.split_once(':') {
        None => (lossy(unescape(userinfo, Mode::UserPassword)?), None),
        Some((u, p)) => (lossy(unescape(u, Mode::UserPassword)?), Some(lossy(unescape(p, Mode::UserPassword)?))),
    };
    Ok((Some(user), host))
}

/// Go's `parse(rawURL, viaRequest)`.
fn parse_inner(raw: &str, via_request: bool) -> Result<GoUrl, String> {
    if raw.bytes().any(|b| b < 0x20 || b == 0x7f) {
        return Err("net/url: invalid control character in URL".into());
    }
    if raw.is_empty() && via_request {
        return Err("empty url".into());
    }
    let mut u = GoUrl::default();
    if raw == "*" {
        u.path = b"*".to_vec();
        return Ok(u);
    }
    let (scheme, mut rest) = get_scheme(raw)?;
    u.scheme = scheme.to_ascii_lowercase();
    if rest.ends_with('?') && rest.matches('?').count() == 1 {
        u.force_query = true;
        rest = &rest[..rest.len() - 1];
    } else if let Some((r, q)) = rest.split_once('?') {
        u.raw_query = q.to_string();
        rest = r;
    }
    if !rest.starts_with('/') {
        if !u.scheme.is_empty() {
            u.opaque = rest.to_string();
            return Ok(u);
        }
        if via_request {
            return Err("invalid URI for request".into());
        }
        let segment = rest.split('/').next().unwrap_or("");
        if segment.contains(':') {
            return Err("first path segment in URL cannot contain colon".into());
        }
    }
    if (!u.scheme.is_empty() || !via_request && !rest.starts_with("///")) && rest.starts_with("//") {
        let mut authority = &rest[2..];
        rest = "";
        if let Some(i) = authority.find('/') {
            rest = &authority[i..];
            authority = &authority[..i];
        }
        let (user, host) = parse_authority(authority)?;
        u.user = user;
        u.host = host;
    }
    let path = unescape(rest, Mode::Path)?;
    u.raw_path = if escape(&path, Mode::Path) == rest { String::new() } else { rest.to_string() };
    u.path = path;
    Ok(u)
}

/// Go's `url.ParseRequestURI`, its error as `Error()` prints it.
pub(crate) fn parse_request_uri(raw: &str) -> Result<GoUrl, String> {
    parse_inner(raw, true).map_err(|e| format!("parse {}: {e}", go_quote(raw)))
}

/// Go's `url.Parse`.
pub(crate) fn parse(raw: &str) -> Result<GoUrl, String> {
    let (u, frag) = raw.split_once('#').unwrap_or((raw, ""));
    let mut url = parse_inner(u, false).map_err(|e| format!("parse {}: {e}", go_quote(u)))?;
    if !frag.is_empty() {
        url.fragment = unescape(frag, Mode::Fragment).map_err(|e| format!("parse {}: {e}", go_quote(raw)))?;
    }
    Ok(url)
}

impl GoUrl {
    fn escaped_path(&self) -> String {
        if !self.raw_path.is_empty()
            && valid_encoded(&self.raw_path, Mode::Path)
            && unescape(&self.raw_path, Mode::Path).is_ok_and(|p| p == self.path)
        {
            return self.raw_path.clone();
        }
        if self.path == b"*" {
            return "*".into();
        }
        escape(&self.path, Mode::Path)
    }
}

/// Go's `splitHostPort`, for `Hostname()` and `Port()`.
fn split_host_port(host_port: &str) -> (String, String) {
    let mut host = host_port;
    let mut port = "";
    if let Some(colon) = host.rfind(':')
        && valid_optional_port(&host[colon..])
    {
        port = &host[colon + 1..];
        host = &host[..colon];
    }
    if host.starts_with('[') && host.ends_with(']') && host.len() >= 2 {
        host = &host[1..host.len() - 1];
    }
    (host.to_string(), port.to_string())
}

/// Go's `url.ParseQuery`, keeping what parses.
fn parse_query(query: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for key in query.split('&') {
        if key.contains(';') || key.is_empty() {
            continue;
        }
        let (k, v) = key.split_once('=').unwrap_or((key, ""));
        let (Ok(k), Ok(v)) = (unescape(k, Mode::QueryComponent), unescape(v, Mode::QueryComponent)) else { continue };
        out.push((lossy(k), lossy(v)));
    }
    out
}
