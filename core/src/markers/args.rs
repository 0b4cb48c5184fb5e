//! The argument syntax of controller-gen's comment markers, for the markers read from
//! comments (`+kubebuilder:rbac`, `+kubebuilder:webhook`): `key=value` pairs split at
//! the commas outside quotes, braces and brackets, and lists as `a;b` or `{a,b}`.

/// Splits `a=1,b={x,y},c=`x,y`` at the commas between arguments.
pub fn split_args(args: &str) -> Vec<String> {
    split_top(args, ',')
}

/// Splits at `sep` outside quotes (`"..."` with JSON's escapes, `` `...` `` raw), braces and
/// brackets: the one splitter of controller-gen's syntax, for the derive's doc-comment
/// markers and the CLI's RBAC and webhook markers alike.
pub fn split_top(s: &str, sep: char) -> Vec<String> {
    let mut parts = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut depth = 0usize;
    let mut escaped = false;
    for c in s.chars() {
        match quote {
            Some(q) => {
                cur.push(c);
                if escaped {
                    escaped = false;
                } else if c == '\\' && q == '"' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None => match c {
                '"' | '`' => {
                    quote = Some(c);
                    cur.push(c);
                }
                '{' | '[' => {
                    depth += 1;
                    cur.push(c);
                }
                '}' | ']' => {
                    depth = depth.saturating_sub(1);
                    cur.push(c);
                }
                c if c == sep && depth == 0 => parts.push(std::mem::take(&mut cur)),
                c => cur.push(c),
            },
        }
    }
    parts.push(cur);
    parts
}

/// A value's text: `` `raw` `` as it is, `"..."` with JSON's escapes read, anything else
/// trimmed; a `"` string not closed or with a bad escape is an error.
pub fn unquote_checked(s: &str) -> Result<String, String> {
    let s = s.trim();
    if let Some(inner) = s.strip_prefix('`').and_then(|r| r.strip_suffix('`')) {
        return Ok(inner.to_string());
    }
    if s.starts_with('"') {
        return serde_json::from_str::<String>(s)
            .map_err(|_| format!("the string {s} is not closed or has a bad escape"));
    }
    Ok(s.to_string())
}

/// [`unquote_checked`], taking a string it refuses without its quotes, as written.
pub fn unquote(value: &str) -> String {
    unquote_checked(value).unwrap_or_else(|_| value.trim().trim_matches('"').to_string())
}

/// A list: `{a,b}` or `a;b`, each item unquoted; empty items left out.
pub fn list_checked(value: &str) -> Result<Vec<String>, String> {
    items(value).iter().map(|i| unquote_checked(i)).collect()
}

/// [`list_checked`], each item it refuses taken as [`unquote`] takes it.
pub fn list(value: &str) -> Vec<String> {
    items(value).iter().map(|i| unquote(i)).collect()
}

/// A list's items as written, trimmed, the empty ones left out.
fn items(value: &str) -> Vec<String> {
    let value = value.trim();
    let items = match value.strip_prefix('{').and_then(|v| v.strip_suffix('}')) {
        Some(inner) => split_top(inner, ','),
        None => split_top(value, ';'),
    };
    items.into_iter().map(|i| i.trim().to_string()).filter(|i| !i.is_empty()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commas_inside_quotes_braces_and_brackets_stay() {
        assert_eq!(
            split_args("a=1,b={x,y},c=`x,y`,d=[1,2],e=\"p,q\""),
            ["a=1", "b={x,y}", "c=`x,y`", "d=[1,2]", "e=\"p,q\""]
        );
        assert_eq!(list("{a, b}"), ["a", "b"]);
        assert_eq!(list("a;\"\";b"), ["a", "", "b"]);
        // A `\"` inside a quoted value does not close it.
        assert_eq!(split_args(r#"a="x\",y",b=1"#), [r#"a="x\",y""#, "b=1"]);
        assert_eq!(unquote(r#""x\",y""#), "x\",y");
        assert!(unquote_checked(r#""open"#).is_err());
        assert_eq!(list_checked("{a, `b,c`}").unwrap(), ["a", "b,c"]);
        assert_eq!(unquote("`x`"), "x");
    }
}
