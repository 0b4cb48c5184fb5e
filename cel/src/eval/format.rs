//! Kubernetes' format library (k8s.io/apiserver `pkg/cel/library/format.go`):
//! `format.named(name)` and `format.<name>()`, and `<Format>.validate(s)`, which is
//! `optional.none()` for a valid string and the validation errors otherwise, worded as
//! apimachinery's validators word them.

use std::any::Any;
use std::sync::OnceLock;

use cel::Env;
use cel::common::types::{CelList, CelOptional, CelString, STRING_TYPE, Type};
use cel::common::value::{StaticVal, Val};
use regex::Regex;

use super::overload::{Args, Ret, arg, declare, ok};
use super::time;
use super::urls;

pub(crate) static FORMAT_TYPE: Type = Type::new_unspecified_type("kubernetes.NamedFormat");

/// The named formats, each once: the names `format.named` takes, and a function
/// `format.<name>()` for each.
macro_rules! named_formats {
    ($($name:literal),*) => {
        const NAMES: &[&str] = &[$($name),*];

        fn register_constants(env: &mut Env) -> Result<(), cel::DeclarationError> {
            $(env.add_overload(concat!("format.", $name), concat!("format.", $name), vec![], |_| ok(Format($name)))?;)*
            Ok(())
        }
    };
}

named_formats!(
    "dns1123Label",
    "dns1123Subdomain",
    "dns1035Label",
    "qualifiedName",
    "dns1123LabelPrefix",
    "dns1123SubdomainPrefix",
    "dns1035LabelPrefix",
    "labelValue",
    "uri",
    "uuid",
    "byte",
    "date",
    "datetime"
);

pub(crate) fn register(env: &mut Env) -> Result<(), cel::DeclarationError> {
    declare(env, &FORMAT_TYPE)?;
    env.add_overload("format.named", "format-named", vec![STRING_TYPE], named)?;
    env.add_member_overload("validate", "format-validate", FORMAT_TYPE.to_owned(), vec![STRING_TYPE], validate)?;
    register_constants(env)?;
    Ok(())
}

/// A named format.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Format(&'static str);

impl Val for Format {
    fn get_type(&self) -> &Type {
        &FORMAT_TYPE
    }
    fn cel_type() -> &'static Type {
        &FORMAT_TYPE
    }
    fn clone_as_boxed<'v>(&self) -> Box<dyn Val + 'v> {
        Box::new(*self)
    }
    fn as_any(&self) -> Option<&dyn Any> {
        Some(self)
    }
    fn equals(&self, other: &dyn Val) -> bool {
        other.downcast_ref::<Format>().is_some_and(|o| o == self)
    }
}
impl StaticVal for Format {}

fn named<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let name = arg::<CelString>(&args, 0)?.inner();
    ok(match NAMES.iter().find(|n| **n == name) {
        Some(n) => CelOptional::of(Box::new(Format(n))),
        None => CelOptional::none(),
    })
}

fn validate<'b, 'v>(args: Args<'b, 'v>) -> Ret<'b, 'v> {
    let f = arg::<Format>(&args, 0)?;
    let errors = check(f.0, arg::<CelString>(&args, 1)?.inner());
    ok(if errors.is_empty() {
        CelOptional::none()
    } else {
        let list: Vec<Box<dyn Val>> =
            errors.into_iter().map(|e| Box::new(CelString::from(e)) as Box<dyn Val>).collect();
        CelOptional::of(Box::new(CelList::from(list)))
    })
}

/// The errors of `s` under format `name`.
pub(crate) fn check(name: &str, s: &str) -> Vec<String> {
    match name {
        "dns1123Label" => dns1123_label(s),
        "dns1123Subdomain" => dns1123_subdomain(s),
        "dns1035Label" => dns1035_label(s),
        "qualifiedName" => qualified_name(s),
        "dns1123LabelPrefix" => dns1123_label(&mask_trailing_dash(s)),
        "dns1123SubdomainPrefix" => dns1123_subdomain(&mask_trailing_dash(s)),
        "dns1035LabelPrefix" => dns1035_label(&mask_trailing_dash(s)),
        "labelValue" => label_value(s),
        "uri" => match urls::parse_request_uri(s) {
            Ok(_) => vec![],
            Err(e) => vec![e],
        },
        "uuid" => {
            if re(&UUID, r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$").is_match(s) {
                vec![]
            } else {
                vec!["does not match the UUID format".into()]
            }
        }
        "byte" => {
            let b64 = r"^(?:[A-Za-z0-9+\/]{4})*(?:[A-Za-z0-9+\/]{2}==|[A-Za-z0-9+\/]{3}=|[A-Za-z0-9+\/]{4})$";
            if re(&BASE64, b64).is_match(s) { vec![] } else { vec!["invalid base64".into()] }
        }
        "date" => {
            if time::is_date(s) {
                vec![]
            } else {
                vec!["invalid date".into()]
            }
        }
        "datetime" => {
            if time::is_date_time(s) {
                vec![]
            } else {
                vec!["invalid datetime".into()]
            }
        }
        _ => vec![],
    }
}

static UUID: OnceLock<Regex> = OnceLock::new();
static BASE64: OnceLock<Regex> = OnceLock::new();
static LABEL: OnceLock<Regex> = OnceLock::new();
static SUBDOMAIN: OnceLock<Regex> = OnceLock::new();
static DNS1035: OnceLock<Regex> = OnceLock::new();
static QNAME: OnceLock<Regex> = OnceLock::new();
static LABEL_VALUE: OnceLock<Regex> = OnceLock::new();

fn re(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).expect("format regex"))
}

const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_SUBDOMAIN_FMT: &str = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1035_LABEL_FMT: &str = "[a-z]([-a-z0-9]*[a-z0-9])?";
const QNAME_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const QNAME_ERR: &str =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

fn anchored(cell: &'static OnceLock<Regex>, fmt: &str) -> &'static Regex {
    re(cell, &format!("^{fmt}$"))
}

/// apimachinery's `MaxLenError`.
fn max_len_error(n: usize) -> String {
    format!("must be no more than {n} characters")
}

/// apimachinery's `RegexError`.
fn regex_error(msg: &str, fmt: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{fmt}')");
    }
    let mut out = format!("{msg} (e.g. ");
    for (i, e) in examples.iter().enumerate() {
        if i > 0 {
            out.push_str(" or ");
        }
        out.push_str(&format!("'{e}', "));
    }
    out.push_str(&format!("regex used for validation is '{fmt}')"));
    out
}

/// apimachinery's `maskTrailingDash`, quirk included (it drops two characters).
fn mask_trailing_dash(s: &str) -> String {
    if s.len() > 1 && s.ends_with('-') {
        format!("{}a", String::from_utf8_lossy(&s.as_bytes()[..s.len() - 2]))
    } else {
        s.to_string()
    }
}

fn dns1123_label(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 63 {
        errs.push(max_len_error(63));
    }
    if !anchored(&LABEL, DNS1123_LABEL_FMT).is_match(s) {
        if anchored(&SUBDOMAIN, DNS1123_SUBDOMAIN_FMT).is_match(s) {
            errs.push("must not contain dots".into());
        } else {
            errs.push(regex_error(
                "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
                DNS1123_LABEL_FMT,
                &["my-name", "123-abc"],
            ));
        }
    }
    errs
}

fn dns1123_subdomain(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 253 {
        errs.push(max_len_error(253));
    }
    if !anchored(&SUBDOMAIN, DNS1123_SUBDOMAIN_FMT).is_match(s) {
        errs.push(regex_error(
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
            DNS1123_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
    errs
}

fn dns1035_label(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 63 {
        errs.push(max_len_error(63));
    }
    if !anchored(&DNS1035, DNS1035_LABEL_FMT).is_match(s) {
        errs.push(regex_error(
            "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
            DNS1035_LABEL_FMT,
            &["my-name", "abc-123"],
        ));
    }
    errs
}

fn qualified_name(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let parts: Vec<&str> = s.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".into());
            } else {
                errs.extend(dns1123_subdomain(prefix).into_iter().map(|m| format!("prefix part {m}")));
            }
            *name
        }
        _ => {
            return vec![format!(
                "a qualified name {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(QNAME_ERR, QNAME_FMT, &["MyName", "my.name", "123-abc"])
            )];
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".into());
    } else if name.len() > 63 {
        errs.push(format!("name part {}", max_len_error(63)));
    }
    if !anchored(&QNAME, QNAME_FMT).is_match(name) {
        errs.push(format!("name part {}", regex_error(QNAME_ERR, QNAME_FMT, &["MyName", "my.name", "123-abc"])));
    }
    errs
}

fn label_value(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 63 {
        errs.push(max_len_error(63));
    }
    if !anchored(&LABEL_VALUE, LABEL_VALUE_FMT).is_match(s) {
        errs.push(regex_error(
            "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
            LABEL_VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}
