//! Checks of a node's markers against each other and against the JSON type of the field
//! they stand on, where the source tells it: the checks controller-gen makes when it
//! applies markers, and the ones the API server makes when it reads the CRD, moved to
//! compile time; and the checks of a struct's type-level markers against its fields on
//! the wire (one-of groups, its own CEL rules).

use crate::errors::Errors;
use crate::markers::registry::Key;
use crate::markers::{Marker, MarkerValue, Parsed};

/// How a marker's field type is spelled in Rust, for the error.
fn example(needs: &[&str]) -> &'static str {
    match needs.first().copied() {
        Some("string") => "a string (`String`)",
        Some("integer" | "number") => "a number (`i32`, `f64`, ...)",
        Some("array") => "a list (`Vec<T>`)",
        _ => "an object (a struct or a map)",
    }
}

/// Markers that need another JSON type than the field's.
pub fn marker_types(markers: &[Marker], kind: Option<&'static str>, place: &str, errors: &mut Errors) {
    for m in markers {
        let count = m.def.sets.is_some_and(|f| f.is_count());
        if count
            && let Some(v) = m.int()
            && v < 0
        {
            errors.push(m.span, format!("`{}` counts, so it is 0 or more, not {v}", m.name()));
        }
    }
    let Some(kind) = crate::shapes::effective_kind(markers, kind) else { return };
    for m in markers {
        let allowed = m.def.needs;
        if allowed.is_empty() {
            continue;
        }
        let fits = allowed.contains(&kind)
            || (kind == "int-or-string" && (allowed.contains(&"string") || allowed.contains(&"integer")));
        if !fits && !matches!(m.value, MarkerValue::Flag(false)) {
            errors.push(
                m.span,
                format!(
                    "`{}` applies to {}, but {place} is {}; remove it, or use a marker for {kind} values",
                    m.name(),
                    example(allowed),
                    article(kind)
                ),
            );
        }
    }
}

fn article(kind: &str) -> String {
    match kind {
        "integer" | "object" | "array" | "int-or-string" => format!("an {kind}"),
        _ => format!("a {kind}"),
    }
}

/// The byte offsets of a CEL rule that stand outside its string literals, each with
/// whether a word starts there (no identifier character or `.` before it).
fn code_starts(rule: &str) -> Vec<(usize, bool)> {
    let bytes = rule.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut out = Vec::new();
    let mut i = 0;
    let mut in_str: Option<u8> = None;
    while i < bytes.len() {
        let c = bytes[i];
        match in_str {
            Some(_) if c == b'\\' => i += 1,
            Some(q) if c == q => in_str = None,
            Some(_) => {}
            None if c == b'\'' || c == b'"' => in_str = Some(c),
            None => out.push((i, i == 0 || !(word(bytes[i - 1]) || bytes[i - 1] == b'.'))),
        }
        i += 1;
    }
    out
}

/// Whether a CEL rule reads `oldSelf` (a transition rule), outside its string literals.
pub fn reads_old_self(rule: &str) -> bool {
    let bytes = rule.as_bytes();
    code_starts(rule).into_iter().any(|(i, starts_word)| {
        starts_word
            && bytes[i..].starts_with(b"oldSelf")
            && bytes.get(i + 7).is_none_or(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
    })
}

/// The fields a CEL rule reads directly off `self` (`self.a`, `has(self.a)`), not those
/// of nested values (`self.a.b` reads `a` only) or of other variables.
pub fn self_fields(rule: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (i, starts_word) in code_starts(rule) {
        if starts_word && rule.as_bytes()[i..].starts_with(b"self.") {
            let rest = &rule[i + 5..];
            let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            // `self.x(` is a method call on self, not a field.
            let after = rest[name.len()..].chars().next();
            if !name.is_empty() && after != Some('(') && !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{reads_old_self, self_fields};

    #[test]
    fn finds_fields_read_off_self() {
        assert_eq!(self_fields("has(self.a) && self.b.c > 0 && oldSelf.d == 1"), ["a", "b"]);
        assert!(reads_old_self("self == oldSelf") && reads_old_self("!has(oldSelf.x) || has(self.x)"));
        assert!(!reads_old_self("self.oldSelf == 'oldSelf'") && !reads_old_self("self.oldSelfish > 0"));
        assert_eq!(self_fields("self.name != 'self.nope'"), ["name"]);
        assert_eq!(self_fields("self.size() > 1 || self.x.startsWith('a')"), ["x"]);
    }
}

#[cfg(test)]
mod cel_tests {
    #[test]
    fn cel_parser_rejects_broken_rules() {
        use kubegen_cel::check::parse;
        assert!(parse("self.size( > 1").is_err());
        assert!(parse("self.a == ").is_err());
        assert!(parse("has(self.a) && self.b.all(x, x > 0)").is_ok());
        // Optional types, which the API server accepts.
        assert!(parse("self.?a.orValue(1) > 0 && oldSelf[?'k'].hasValue()").is_ok());
    }
}

/// A struct's fields as the wire has them: each name with whether it is optional, and
/// its schema as a CEL rule on the struct sees it.
pub struct Wire<'a> {
    pub ty: &'a syn::Ident,
    pub fields: &'a [(String, bool)],
    pub schemas: &'a [(String, kubegen_core::schema::node::Node)],
    /// A `#[serde(flatten)]` field brings fields the derive does not see.
    pub flattened: bool,
}

impl Wire<'_> {
    fn names(&self) -> String {
        self.fields.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", ")
    }
}

/// The one-of groups (`at_most_one_of` and its kin) name optional fields the struct has
/// on the wire, which CEL rules can see.
pub fn one_of_groups(wire: &Wire, type_markers: &Parsed, errors: &mut Errors) {
    let groups = type_markers
        .markers
        .iter()
        .filter(|m| matches!(m.def.key, Key::AtMostOneOf | Key::ExactlyOneOf | Key::AtLeastOneOf));
    for m in groups {
        for field in m.strs() {
            match wire.fields.iter().find(|(n, _)| *n == *field) {
                None if !wire.flattened => errors.push(
                    m.span,
                    format!("`{}` names `{field}`, which `{}` does not have on the wire (it has {})", m.name(), wire.ty, wire.names()),
                ),
                Some((_, false)) => errors.push(
                    m.span,
                    format!("`{field}` is in an `{}` group but is required, so the group can never hold: make it `Option<...>` or give it `#[serde(default)]`", m.name()),
                ),
                // The group is a CEL rule, and the server leaves a schemaless field out of
                // what rules see (found by the generated kinds tier).
                Some(_) if wire.schemas.iter().any(|(n, node)| {
                    *n == *field && node.type_.is_none() && node.preserve_unknown_fields == Some(true)
                }) => errors.push(
                    m.span,
                    format!("`{field}` is schemaless (`serde_json::Value`): the API server leaves it out of what CEL rules see, so the `{}` group cannot name it; give the field a type", m.name()),
                ),
                _ => {}
            }
        }
    }
}

/// The type's own CEL rules read fields it has (by their CEL names: `namespace` is
/// `self.__namespace__`, or, a reserved word, `self.namespace` as well), and type-check
/// against its fields' schemas.
pub fn type_rules(wire: &Wire, type_markers: &Parsed, transparent: bool, errors: &mut Errors) {
    let self_schema = crate::cel::object_schema(wire.schemas.to_vec());
    let cel_names: Vec<String> = wire.fields.iter().flat_map(|(n, _)| kubegen_cel::names::identifiers(n)).collect();
    for m in type_markers.all(Key::Validation) {
        let MarkerValue::Rule(map) = &m.value else { continue };
        let rule = map.rule.as_str();
        let unknown: Vec<String> = self_fields(rule).into_iter().filter(|f| !cel_names.contains(f)).collect();
        if unknown.is_empty() && !transparent {
            crate::cel::check(m, map, &self_schema, true, errors);
        }
        for referenced in unknown {
            let hint = crate::markers::registry::suggest(&referenced, cel_names.iter().map(String::as_str))
                .map(|s| format!("; did you mean `self.{s}`?"))
                .unwrap_or_default();
            errors.push(
                m.span,
                format!("the rule `{rule}` reads `self.{referenced}`, but `{}` has no field `{referenced}` on the wire (it has {}){hint}", wire.ty, wire.names()),
            );
        }
    }
}
