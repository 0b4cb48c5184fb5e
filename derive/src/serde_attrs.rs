//! The parts of serde's attributes the derive must see at compile time: field names on
//! the wire (for printer column and scale paths) and the enum representation (for the
//! shapes a structural schema cannot express). The schema itself comes from schemars,
//! which reads serde's attributes in full.

use syn::{Attribute, Expr, ExprLit, Lit, Meta};

/// `#[serde(key = "value")]` and `#[serde(key)]` entries of the given attributes.
fn serde_entries(attrs: &[Attribute]) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let Meta::List(list) = &attr.meta else { continue };
        let _ = list.parse_nested_meta(|meta| {
            let key = meta.path.get_ident().map(|i| i.to_string()).unwrap_or_default();
            if meta.input.peek(syn::Token![=]) {
                let expr: Expr = meta.value()?.parse()?;
                let value = match expr {
                    Expr::Lit(ExprLit { lit: Lit::Str(s), .. }) => Some(s.value()),
                    _ => None,
                };
                out.push((key, value));
            } else if meta.input.peek(syn::token::Paren) {
                // `rename_all(deserialize = "...")`: the wire format serde reads.
                let mut de = None;
                meta.parse_nested_meta(|inner| {
                    let expr: Expr = inner.value()?.parse()?;
                    if inner.path.is_ident("deserialize")
                        && let Expr::Lit(ExprLit { lit: Lit::Str(s), .. }) = expr
                    {
                        de = Some(s.value());
                    }
                    Ok(())
                })?;
                out.push((key, de));
            } else {
                out.push((key, None));
            }
            Ok(())
        });
    }
    out
}

pub fn has(attrs: &[Attribute], key: &str) -> bool {
    serde_entries(attrs).iter().any(|(k, _)| k == key)
}

pub fn value(attrs: &[Attribute], key: &str) -> Option<String> {
    serde_entries(attrs).into_iter().find(|(k, _)| k == key).and_then(|(_, v)| v)
}

/// The name serde reads for a field.
pub fn field_name(ident: &syn::Ident, field_attrs: &[Attribute], rename_all: Option<&str>) -> String {
    if let Some(name) = value(field_attrs, "rename") {
        return name;
    }
    let name = unraw(ident);
    match rename_all {
        Some(rule) => apply_rename_rule(&name, rule),
        None => name,
    }
}

/// An identifier as serde names it: a raw one without its `r#`.
pub fn unraw(ident: &syn::Ident) -> String {
    let name = ident.to_string();
    name.strip_prefix("r#").map(String::from).unwrap_or(name)
}

/// serde's `rename_all` rules applied to a field name, as serde applies them (an
/// unknown rule, which serde refuses, leaves the name).
pub fn apply_rename_rule(field: &str, rule: &str) -> String {
    apply_field_rule(field, Some(rule)).unwrap_or_else(|| field.to_string())
}

/// serde's `RenameRule::apply_to_field`; `None` for a rule serde does not know.
pub fn apply_field_rule(field: &str, rule: Option<&str>) -> Option<String> {
    let pascal = || {
        let mut out = String::new();
        let mut upper = true;
        for c in field.chars() {
            if c == '_' {
                upper = true;
            } else if upper {
                out.push(c.to_ascii_uppercase());
                upper = false;
            } else {
                out.push(c);
            }
        }
        out
    };
    Some(match rule {
        None | Some("lowercase" | "snake_case") => field.to_string(),
        Some("UPPERCASE" | "SCREAMING_SNAKE_CASE") => field.to_ascii_uppercase(),
        Some("PascalCase") => pascal(),
        Some("camelCase") => {
            let p = pascal();
            let mut chars = p.chars();
            match chars.next() {
                Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
                None => p,
            }
        }
        Some("kebab-case") => field.replace('_', "-"),
        Some("SCREAMING-KEBAB-CASE") => field.to_ascii_uppercase().replace('_', "-"),
        Some(_) => return None,
    })
}

/// serde's `RenameRule::apply_to_variant`; `None` for a rule serde does not know.
pub fn apply_variant_rule(variant: &str, rule: Option<&str>) -> Option<String> {
    let snake = || {
        let mut out = String::new();
        for (i, c) in variant.char_indices() {
            if i > 0 && c.is_uppercase() {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        }
        out
    };
    Some(match rule {
        None | Some("PascalCase") => variant.to_string(),
        Some("lowercase") => variant.to_ascii_lowercase(),
        Some("UPPERCASE") => variant.to_ascii_uppercase(),
        Some("camelCase") => {
            let mut chars = variant.chars();
            match chars.next() {
                Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
                None => String::new(),
            }
        }
        Some("snake_case") => snake(),
        Some("SCREAMING_SNAKE_CASE") => snake().to_ascii_uppercase(),
        Some("kebab-case") => snake().replace('_', "-"),
        Some("SCREAMING-KEBAB-CASE") => snake().to_ascii_uppercase().replace('_', "-"),
        Some(_) => return None,
    })
}

/// One entry of `#[serde(...)]`: `key` or `key = "value"`.
pub struct Entry {
    pub key: String,
    pub value: Option<String>,
    /// The value's literal, whose span an error about it points at.
    pub lit: Option<syn::LitStr>,
}

impl Entry {
    /// The value as a path (`default = "path"`, `skip_serializing_if = "path"`), spanned
    /// at its literal; `None` when it is none.
    pub fn path(&self) -> Option<syn::ExprPath> {
        self.lit.as_ref()?.parse().ok()
    }
}

/// Every `#[serde(...)]` entry of `attrs`, when each is a bare key or `key = "string"`;
/// `None` for any other form (`rename(serialize = ...)`, a non-string value), which only
/// serde's own reading (schemars') may interpret.
pub fn strict_entries(attrs: &[Attribute]) -> Option<Vec<Entry>> {
    let mut out = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let Meta::List(list) = &attr.meta else { return None };
        let parsed = list.parse_nested_meta(|meta| {
            let key = meta.path.get_ident().map(|i| i.to_string()).ok_or_else(|| meta.error("a path"))?;
            if meta.input.peek(syn::Token![=]) {
                match meta.value()?.parse::<Expr>()? {
                    Expr::Lit(ExprLit { lit: Lit::Str(s), .. }) => {
                        out.push(Entry { key, value: Some(s.value()), lit: Some(s) })
                    }
                    _ => return Err(meta.error("not a string")),
                }
            } else if meta.input.is_empty() || meta.input.peek(syn::Token![,]) {
                out.push(Entry { key, value: None, lit: None });
            } else {
                return Err(meta.error("a list"));
            }
            Ok(())
        });
        parsed.ok()?;
    }
    Some(out)
}

/// How serde writes an enum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EnumRepr {
    External,
    Internal { tag: String },
    Adjacent { tag: String, content: String },
    Untagged,
}

pub fn enum_repr(attrs: &[Attribute]) -> EnumRepr {
    if has(attrs, "untagged") {
        return EnumRepr::Untagged;
    }
    match (value(attrs, "tag"), value(attrs, "content")) {
        (Some(tag), Some(content)) => EnumRepr::Adjacent { tag, content },
        (Some(tag), None) => EnumRepr::Internal { tag },
        _ => EnumRepr::External,
    }
}

#[cfg(test)]
mod tests {
    use super::apply_rename_rule;

    #[test]
    fn rename_rules_match_serde() {
        assert_eq!(apply_rename_rule("deployment_name", "camelCase"), "deploymentName");
        assert_eq!(apply_rename_rule("deployment_name", "PascalCase"), "DeploymentName");
        assert_eq!(apply_rename_rule("deployment_name", "kebab-case"), "deployment-name");
        assert_eq!(apply_rename_rule("deployment_name", "SCREAMING-KEBAB-CASE"), "DEPLOYMENT-NAME");
        // serde leaves a field's name as it is under lowercase and snake_case.
        assert_eq!(apply_rename_rule("fooBar", "lowercase"), "fooBar");
        assert_eq!(apply_rename_rule("fooBar", "snake_case"), "fooBar");
    }

    #[test]
    fn variant_rules_match_serde() {
        use super::apply_variant_rule as v;
        assert_eq!(v("HTTPRoute", Some("snake_case")).unwrap(), "h_t_t_p_route");
        assert_eq!(v("RollingUpdate", Some("camelCase")).unwrap(), "rollingUpdate");
        assert_eq!(v("RollingUpdate", Some("kebab-case")).unwrap(), "rolling-update");
        assert_eq!(v("RollingUpdate", Some("SCREAMING_SNAKE_CASE")).unwrap(), "ROLLING_UPDATE");
        assert_eq!(v("RollingUpdate", Some("lowercase")).unwrap(), "rollingupdate");
        assert_eq!(v("RollingUpdate", None).unwrap(), "RollingUpdate");
        assert!(v("RollingUpdate", Some("Title Case")).is_none());
    }
}
