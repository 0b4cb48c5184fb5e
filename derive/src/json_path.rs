//! The printer columns' and selectable fields' JSONPath, checked as kubectl parses it.

/// Whether `path` parses as kubectl's JSONPath does for printer columns: `.name`
/// segments, `[N]`, `[*]`, `['key']` and `[?(...)]` filters, brackets and quotes closed.
pub fn syntax(path: &str) -> Result<(), String> {
    let chars: Vec<char> = path.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '.' => {
                let start = i + 1;
                i = start;
                while i < chars.len() && chars[i] != '.' && chars[i] != '[' {
                    if chars[i] == ']' {
                        return Err(format!("a `]` without its `[` at character {}", i + 1));
                    }
                    i += 1;
                }
                if i == start {
                    return Err(format!("an empty segment at character {start}"));
                }
            }
            '[' => {
                let mut depth = 0;
                let mut quote = None;
                let start = i;
                loop {
                    let Some(&c) = chars.get(i) else {
                        return Err(format!("the `[` at character {} is never closed", start + 1));
                    };
                    match (quote, c) {
                        (Some(q), c) if c == q => quote = None,
                        (Some(_), _) => {}
                        (None, '\'' | '"') => quote = Some(c),
                        (None, '[' | '(') => depth += 1,
                        (None, ')') => depth -= 1,
                        (None, ']') => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
                if i == start + 1 {
                    return Err(format!("an empty `[]` at character {}", start + 1));
                }
                i += 1;
            }
            c => return Err(format!("`{c}` at character {} where `.` or `[` should be", i + 1)),
        }
    }
    Ok(())
}
