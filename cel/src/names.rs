//! How the API server turns a schema's property names into CEL identifiers
//! (apiextensions-apiserver `pkg/apiserver/schema/cel/model/escaping.go`).

/// Words CEL reserves; a property named so is read as `self.__<word>__`.
pub const RESERVED: &[&str] = &[
    "true",
    "false",
    "null",
    "in",
    "as",
    "break",
    "const",
    "continue",
    "else",
    "for",
    "function",
    "if",
    "import",
    "let",
    "loop",
    "package",
    "namespace",
    "return",
    "var",
    "void",
    "while",
];

/// The identifier a rule uses for property `name`, or `None` when the server gives the
/// property no identifier (it then cannot be read from CEL).
pub fn escape(name: &str) -> Option<String> {
    let mut chars = name.chars();
    let first = chars.next()?;
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '/');
    if !(first.is_ascii_alphabetic() || matches!(first, '_' | '.' | '-' | '/')) || !chars.all(allowed) {
        return None;
    }
    if RESERVED.contains(&name) {
        return Some(format!("__{name}__"));
    }
    let mut out = String::with_capacity(name.len());
    let mut rest = name;
    while let Some(c) = rest.chars().next() {
        if let Some(r) = rest.strip_prefix("__") {
            out.push_str("__underscores__");
            rest = r;
            continue;
        }
        match c {
            '.' => out.push_str("__dot__"),
            '-' => out.push_str("__dash__"),
            '/' => out.push_str("__slash__"),
            c => out.push(c),
        }
        rest = &rest[c.len_utf8()..];
    }
    Some(out)
}

/// Every identifier a rule can read property `name` by: its escaped form and, for a
/// reserved word the grammar lets stand after a dot, the name as written
/// (`self.__namespace__` and `self.namespace`).
pub fn identifiers(name: &str) -> Vec<String> {
    let Some(escaped) = escape(name) else { return Vec::new() };
    if escaped != name && RESERVED.contains(&name) { vec![escaped, name.to_string()] } else { vec![escaped] }
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn escapes_as_the_api_server_does() {
        assert_eq!(escape("namespace").as_deref(), Some("__namespace__"));
        assert_eq!(escape("a.b-c/d").as_deref(), Some("a__dot__b__dash__c__slash__d"));
        assert_eq!(escape("__x").as_deref(), Some("__underscores__x"));
        assert_eq!(escape("replicas").as_deref(), Some("replicas"));
        assert_eq!(escape("1abc"), None);
        assert_eq!(escape("a b"), None);
    }
}
