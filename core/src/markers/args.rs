//! The argument syntax of controller-gen's comment markers, for the markers read from
//! comments (`+kubebuilder:rbac`, `+kubebuilder:webhook`): `key=value` pairs split at
//! the commas outside quotes, braces and brackets, and lists as `a;b` or `{a,b}`.

/// Splits `a=1,b={x,y},c=`x,y`` at the commas between arguments.
pub fn split_args(args: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut depth, mut quote, mut current) = (0i32, None::<char>, String::new());
    for c in args.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '`') => quote = Some(c),
            (None, '{' | '[') => depth += 1,
            (None, '}' | ']') => depth -= 1,
            (None, ',') if depth == 0 => {
                out.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    out.push(current);
    out
}

pub fn unquote(value: &str) -> String {
    let v = value.trim();
    for q in ['"', '`'] {
        if let Some(inner) = v.strip_prefix(q).and_then(|v| v.strip_suffix(q)) {
            return inner.to_string();
        }
    }
    v.to_string()
}

pub fn list(value: &str) -> Vec<String> {
    let value = value.trim();
    let parts: Vec<&str> = match value.strip_prefix('{').and_then(|v| v.strip_suffix('}')) {
        Some(inner) => inner.split(',').collect(),
        None => value.split(';').collect(),
    };
    parts.into_iter().map(str::trim).filter(|p| !p.is_empty()).map(unquote).collect()
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
        assert_eq!(unquote("`x`"), "x");
    }
}
