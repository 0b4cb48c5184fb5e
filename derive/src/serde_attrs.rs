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
    let name = ident.to_string();
    let name = name.strip_prefix("r#").unwrap_or(&name).to_string();
    match rename_all {
        Some(rule) => apply_rename_rule(&name, rule),
        None => name,
    }
}

/// serde's `rename_all` rules applied to a snake_case field name.
pub fn apply_rename_rule(field: &str, rule: &str) -> String {
    let pascal = || {
        let mut out = String::new();
        let mut upper = true;
        for c in field.chars() {
            if c == '_' {
                upper = true;
            } else if upper {
                out.extend(c.to_uppercase());
                upper = false;
            } else {
                out.push(c);
            }
        }
        out
    };
    match rule {
        "lowercase" => field.to_lowercase(),
        "UPPERCASE" => field.to_uppercase(),
        "PascalCase" => pascal(),
        "camelCase" => {
            let p = pascal();
            let mut chars = p.chars();
            match chars.next() {
                Some(first) => first.to_lowercase().chain(chars).collect(),
                None => p,
            }
        }
        "SCREAMING_SNAKE_CASE" => field.to_uppercase(),
        "kebab-case" => field.replace('_', "-"),
        "SCREAMING-KEBAB-CASE" => field.to_uppercase().replace('_', "-"),
        _ => field.to_string(),
    }
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
    }
}
