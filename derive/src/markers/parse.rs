//! Both spellings of a marker parse into one [`Marker`]: `#[kube(key = value)]` and the
//! controller-gen line `/// +kubebuilder:...` in a doc comment.

use kubegen_core::markers::args::{list_checked, split_top, unquote_checked as unquote};
use kubegen_core::schema::markers::Rule;
use proc_macro2::Span;
use serde_json::{Map, Number, Value};
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprLit, Lit, Meta, UnOp};

use super::registry::{self, Arg, ArgValue, ITEMS_PREFIX, Key, MarkerDef, Named, Sub, SubArg, Target};
use crate::errors::Errors;

/// A marker's argument, typed by the registry's [`Arg`] shape, the same from either
/// spelling.
#[derive(Debug, Clone)]
pub enum MarkerValue {
    Flag(bool),
    Int(i64),
    Number(Number),
    Str(String),
    Strs(Vec<String>),
    /// A value of the schema itself (a default, an example): JSON is its type.
    Json(Value),
    /// `key("name", "value")`.
    Pair(String, String),
    /// Named arguments, each typed.
    Named(Named),
    /// A CEL rule, from any of its spellings.
    Rule(Rule),
    /// A Rust expression evaluated at run time (`validation = Rule::new(..)`).
    Expr(Box<Expr>),
    /// Nested markers (`items(...)`, `+kubebuilder:validation:items:...`).
    Items(Vec<Marker>),
}

impl From<ArgValue> for MarkerValue {
    fn from(v: ArgValue) -> Self {
        match v {
            ArgValue::Flag(b) => MarkerValue::Flag(b),
            ArgValue::Int(i) => MarkerValue::Int(i),
            ArgValue::Number(n) => MarkerValue::Number(n),
            ArgValue::Str(s) => MarkerValue::Str(s),
            ArgValue::Strs(s) => MarkerValue::Strs(s),
            ArgValue::Json(v) => MarkerValue::Json(v),
        }
    }
}

impl MarkerValue {
    /// A single value as the argument it is (`None` for named arguments, rules, pairs,
    /// expressions and nested markers).
    pub fn arg(&self) -> Option<ArgValue> {
        Some(match self {
            MarkerValue::Flag(b) => ArgValue::Flag(*b),
            MarkerValue::Int(i) => ArgValue::Int(*i),
            MarkerValue::Number(n) => ArgValue::Number(n.clone()),
            MarkerValue::Str(s) => ArgValue::Str(s.clone()),
            MarkerValue::Strs(s) => ArgValue::Strs(s.clone()),
            MarkerValue::Json(v) => ArgValue::Json(v.clone()),
            _ => return None,
        })
    }
}

#[derive(Debug, Clone)]
pub struct Marker {
    pub def: &'static MarkerDef,
    pub value: MarkerValue,
    pub span: Span,
    /// Written as a doc-comment marker (controller-gen's spelling), not `#[kube(...)]`.
    pub from_doc: bool,
    /// The marker as written, for errors: `+kubebuilder:validation:MaxLength` or `max_length`.
    pub written: String,
}

impl Marker {
    /// The marker as the user wrote it.
    pub fn name(&self) -> &str {
        &self.written
    }

    pub fn str(&self) -> Option<&str> {
        match &self.value {
            MarkerValue::Str(s) => Some(s),
            _ => None,
        }
    }

    /// An integer value (a count: `max_length = 63`).
    pub fn int(&self) -> Option<i64> {
        match self.value {
            MarkerValue::Int(i) => Some(i),
            _ => None,
        }
    }

    /// A count (a non-negative integer).
    pub fn count(&self) -> Option<u64> {
        self.int().and_then(|i| u64::try_from(i).ok())
    }

    /// A number value (`minimum = 1.5`), integers included.
    pub fn number(&self) -> Option<f64> {
        match &self.value {
            MarkerValue::Int(i) => Some(*i as f64),
            MarkerValue::Number(n) => n.as_f64(),
            _ => None,
        }
    }

    /// Named arguments, if the marker takes them.
    pub fn named(&self) -> Option<&Named> {
        match &self.value {
            MarkerValue::Named(n) => Some(n),
            _ => None,
        }
    }

    pub fn flag(&self) -> bool {
        matches!(self.value, MarkerValue::Flag(true))
    }

    pub fn strs(&self) -> &[String] {
        match &self.value {
            MarkerValue::Strs(s) => s,
            MarkerValue::Str(s) => std::slice::from_ref(s),
            _ => &[],
        }
    }
}

/// A rule's named arguments (`validation(rule = ..., message = ...)`) as the rule.
fn rule_of(s: &Named) -> Rule {
    let text = |key: Sub| s.str(key).map(String::from);
    Rule {
        rule: text(Sub::Rule).unwrap_or_default(),
        message: text(Sub::Message),
        message_expression: text(Sub::MessageExpression),
        reason: text(Sub::Reason),
        field_path: text(Sub::FieldPath),
        optional_old_self: s.flag(Sub::OptionalOldSelf),
    }
}

/// Markers of one item (type, field or variant), with its description: the doc comment
/// without its marker lines.
#[derive(Debug, Default, Clone)]
pub struct Parsed {
    pub markers: Vec<Marker>,
    pub description: Option<String>,
    /// Keys given with a value that did not parse (already reported): not "missing".
    pub failed: Vec<Key>,
    /// Attributes other than kubegen's shape this node's schema too (schemars, validator,
    /// garde, serde's `with`): the derive cannot see all of it, so its CEL check treats
    /// the node as unknown and leaves it to `codegen-cli manifests`.
    pub foreign_schema: bool,
}

impl Parsed {
    pub fn get(&self, key: Key) -> Option<&Marker> {
        self.markers.iter().rev().find(|m| m.def.key == key)
    }

    pub fn all(&self, key: Key) -> impl Iterator<Item = &Marker> + '_ {
        self.markers.iter().filter(move |m| m.def.key == key)
    }
}

/// Parses every `#[kube(...)]` and doc-comment marker on an item. `allowed` says which
/// targets make sense where the item stands; anything else is an error naming the place.
pub fn parse_attrs(attrs: &[Attribute], allowed: &[Target], place: &str, errors: &mut Errors) -> Parsed {
    let foreign_schema = attrs.iter().any(|a| ["schemars", "validate", "garde"].iter().any(|k| a.path().is_ident(k)))
        || ["with", "serialize_with", "deserialize_with", "transparent"]
            .iter()
            .any(|k| crate::serde_attrs::has(attrs, k));
    let mut parsed = Parsed { foreign_schema, ..Parsed::default() };
    let mut description: Vec<String> = Vec::new();
    for attr in attrs {
        if attr.path().is_ident("doc") {
            let Meta::NameValue(nv) = &attr.meta else { continue };
            let Expr::Lit(ExprLit { lit: Lit::Str(s), .. }) = &nv.value else { continue };
            for line in s.value().lines() {
                let text = line.strip_prefix(' ').unwrap_or(line).trim_end();
                match text.trim_start().strip_prefix('+') {
                    Some(marker) if marker.starts_with(|c: char| c.is_ascii_alphabetic()) => {
                        parse_doc_marker(marker, attr.span(), allowed, place, errors, &mut parsed.markers)
                    }
                    _ => description.push(text.to_string()),
                }
            }
        } else if attr.path().is_ident("kube") {
            let result = attr.parse_nested_meta(|meta| {
                let key = meta.path.get_ident().map(|i| i.to_string()).unwrap_or_default();
                let span = meta.path.span();
                let Some(def) = registry::by_key(&key) else {
                    let hint = registry::suggest(&key, registry::typed_keys())
                        .map(|s| format!("; did you mean `{s}`?"))
                        .unwrap_or_default();
                    errors.push(span, format!("unknown key `{key}` in #[kube(...)]{hint}"));
                    skip_value(&meta)?;
                    return Ok(());
                };
                if !target_allowed(def, allowed) {
                    errors.push(span, misplaced(def.key.as_str(), def, place));
                    skip_value(&meta)?;
                    return Ok(());
                }
                match typed_value(def, &meta, allowed, place, errors) {
                    Ok(value) => parsed.markers.push(Marker {
                        def,
                        value,
                        span,
                        from_doc: false,
                        written: def.key.as_str().into(),
                    }),
                    Err(e) => {
                        parsed.failed.push(def.key);
                        errors.push_syn(e);
                    }
                }
                Ok(())
            });
            if let Err(e) = result {
                errors.push_syn(e);
            }
        }
    }
    while description.first().is_some_and(|l| l.trim().is_empty()) {
        description.remove(0);
    }
    while description.last().is_some_and(|l| l.trim().is_empty()) {
        description.pop();
    }
    if !description.is_empty() {
        parsed.description = Some(description.join("\n"));
    }
    check_repeats(&parsed.markers, errors);
    parsed
}

fn check_repeats(markers: &[Marker], errors: &mut Errors) {
    for (i, m) in markers.iter().enumerate() {
        if !m.def.repeatable && markers[..i].iter().any(|o| o.def.key == m.def.key) {
            errors.push(m.span, format!("`{}` is given twice; keep one", m.name()));
        }
    }
}

fn target_allowed(def: &MarkerDef, allowed: &[Target]) -> bool {
    allowed.contains(&def.target)
        || (def.target == Target::Schema && allowed.iter().any(|t| matches!(t, Target::Field | Target::Type)))
}

fn misplaced(spelling: &str, def: &MarkerDef, place: &str) -> String {
    let belongs = match def.target {
        Target::Resource => "on the resource type (next to group/version/kind)",
        Target::Schema => "on a field or a type",
        Target::Field => "on a field",
        Target::Type => "on a struct",
    };
    format!("`{spelling}` cannot stand {place}; it belongs {belongs}")
}

fn skip_value(meta: &syn::meta::ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        let _: Expr = meta.value()?.parse()?;
    } else if meta.input.peek(syn::token::Paren) {
        let content;
        syn::parenthesized!(content in meta.input);
        let _: proc_macro2::TokenStream = content.parse()?;
    }
    Ok(())
}

fn lit_json(expr: &Expr) -> Option<Value> {
    match expr {
        Expr::Lit(ExprLit { lit, .. }) => match lit {
            Lit::Str(s) => Some(Value::String(s.value())),
            Lit::Int(i) => i.base10_parse::<i64>().ok().map(Value::from),
            Lit::Float(f) => f.base10_parse::<f64>().ok().and_then(serde_json::Number::from_f64).map(Value::Number),
            Lit::Bool(b) => Some(Value::Bool(b.value)),
            _ => None,
        },
        Expr::Unary(u) if matches!(u.op, UnOp::Neg(_)) => match lit_json(&u.expr)? {
            Value::Number(n) => n
                .as_i64()
                .map(|i| Value::from(-i))
                .or_else(|| n.as_f64().and_then(|f| serde_json::Number::from_f64(-f)).map(Value::Number)),
            _ => None,
        },
        Expr::Group(g) => lit_json(&g.expr),
        Expr::Paren(p) => lit_json(&p.expr),
        _ => None,
    }
}

fn want(kind: &str, key: &str, example: &str, span: Span) -> syn::Error {
    syn::Error::new(span, format!("`{key}` takes {kind}: write `{key} = {example}`"))
}

fn example_for(arg: Arg) -> &'static str {
    match arg {
        Arg::Int => "1",
        Arg::Number => "1",
        Arg::Str => "\"...\"",
        Arg::StrList => "[\"a\", \"b\"]",
        Arg::Any => "3` or `default = \"text\"",
        Arg::JsonText => "r#\"{\\\"a\\\": 1}\"#",
        _ => "...",
    }
}

/// Converts a literal into the value a marker of shape `arg` takes.
fn typed_scalar(arg: Arg, key: &str, expr: &Expr) -> syn::Result<ArgValue> {
    let span = expr.span();
    let value = lit_json(expr);
    match (arg, value) {
        (Arg::Int, Some(Value::Number(n))) if n.is_i64() => Ok(ArgValue::Int(n.as_i64().unwrap_or_default())),
        (Arg::Int, _) => Err(want("an integer", key, example_for(arg), span)),
        (Arg::Number, Some(Value::Number(n))) => Ok(ArgValue::Number(n)),
        (Arg::Number, _) => Err(want("a number", key, example_for(arg), span)),
        (Arg::Str, Some(Value::String(s))) => Ok(ArgValue::Str(s)),
        (Arg::Str, _) => Err(want("a string", key, example_for(arg), span)),
        (Arg::Flag, Some(Value::Bool(b))) => Ok(ArgValue::Flag(b)),
        (Arg::Flag, _) => Err(syn::Error::new(span, format!("`{key}` is a flag: write `{key}` or `{key} = false`"))),
        (Arg::Any, Some(v)) => Ok(ArgValue::Json(v)),
        (Arg::Any, None) => Err(syn::Error::new(
            span,
            format!(
                "`{key}` takes a literal (`{key} = 3`, `{key} = \"text\"`, `{key} = true`); for lists and objects write `{key}_json = r#\"[1, 2]\"#`"
            ),
        )),
        (Arg::JsonText, Some(Value::String(s))) => {
            json_text(key, &s).map(ArgValue::Json).map_err(|e| syn::Error::new(span, format!("`{key}`: {e}")))
        }
        (Arg::JsonText, _) => Err(want("JSON text in a string", key, example_for(arg), span)),
        (Arg::StrList, Some(Value::String(s))) => Ok(ArgValue::Strs(vec![s])),
        (Arg::StrList, _) => match expr {
            Expr::Array(a) => a
                .elems
                .iter()
                .map(|e| match lit_json(e) {
                    Some(Value::String(s)) => Ok(s),
                    _ => Err(want("a list of strings", key, example_for(arg), e.span())),
                })
                .collect::<syn::Result<Vec<_>>>()
                .map(ArgValue::Strs),
            _ => Err(want("a list of strings", key, example_for(arg), span)),
        },
        _ => Err(syn::Error::new(span, format!("`{key}` does not take this value"))),
    }
}

fn typed_value(
    def: &'static MarkerDef,
    meta: &syn::meta::ParseNestedMeta,
    allowed: &[Target],
    place: &str,
    errors: &mut Errors,
) -> syn::Result<MarkerValue> {
    let key = def.key.as_str();
    let has_eq = meta.input.peek(syn::Token![=]);
    let has_paren = meta.input.peek(syn::token::Paren);
    match def.arg {
        Arg::Flag if !has_eq => Ok(MarkerValue::Flag(true)),
        Arg::FlagOrStr if !has_eq => Ok(MarkerValue::Flag(true)),
        Arg::FlagOrStr => {
            let expr: Expr = meta.value()?.parse()?;
            match lit_json(&expr) {
                Some(Value::String(s)) => Ok(MarkerValue::Str(s)),
                Some(Value::Bool(b)) => Ok(MarkerValue::Flag(b)),
                _ => Err(syn::Error::new(expr.span(), format!("write `{key}` or `{key} = \"warning text\"`"))),
            }
        }
        Arg::Flag => {
            let expr: Expr = meta.value()?.parse()?;
            typed_scalar(Arg::Flag, key, &expr).map(MarkerValue::from)
        }
        Arg::Pair => {
            let content;
            syn::parenthesized!(content in meta.input);
            let args = content.parse_terminated(<syn::LitStr as syn::parse::Parse>::parse, syn::Token![,])?;
            let args: Vec<_> = args.into_iter().collect();
            if args.len() != 2 {
                return Err(syn::Error::new(meta.path.span(), format!("write `{key}(\"name\", \"value\")`")));
            }
            Ok(MarkerValue::Pair(args[0].value(), args[1].value()))
        }
        Arg::Struct(subs) if has_paren => typed_struct(key, subs, meta).map(MarkerValue::Named),
        Arg::Struct(subs) => {
            // kube-derive's legacy JSON-string form: `printcolumn = r#"{"name": ...}"#`.
            let expr: Expr = meta.value()?.parse()?;
            struct_from_json(key, subs, &expr).map(MarkerValue::Named)
        }
        Arg::Rule if has_paren => typed_struct(key, registry::RULE_ARGS, meta).map(|n| MarkerValue::Rule(rule_of(&n))),
        Arg::Rule => {
            let expr: Expr = meta.value()?.parse()?;
            Ok(rule_value(expr))
        }
        Arg::Items => {
            let content;
            syn::parenthesized!(content in meta.input);
            let tokens: proc_macro2::TokenStream = content.parse()?;
            let attr: Attribute = syn::parse_quote!(#[kube(#tokens)]);
            let nested = parse_attrs(&[attr], allowed, place, errors);
            Ok(MarkerValue::Items(nested.markers))
        }
        arg => {
            if !has_eq {
                return Err(want("a value", key, example_for(arg), meta.path.span()));
            }
            let expr: Expr = meta.value()?.parse()?;
            typed_scalar(arg, key, &expr).map(MarkerValue::from)
        }
    }
}

/// A struct-valued marker in kube-derive's legacy form, a JSON object in a string
/// (`printcolumn = r#"{"name": ...}"#`), or, for a marker with one required argument, that
/// argument bare (`selectable = ".spec.x"`).
fn struct_from_json(key: &str, subs: &[SubArg], expr: &Expr) -> syn::Result<Named> {
    let text = match lit_json(expr) {
        Some(Value::String(s)) => s,
        _ => return Err(syn::Error::new(expr.span(), format!("write `{key}({} = ...)`", subs[0].key.as_str()))),
    };
    if let [only] = subs.iter().filter(|s| s.required).collect::<Vec<_>>().as_slice()
        && !text.trim_start().starts_with('{')
    {
        let mut out = Named::default();
        out.insert(only.key, ArgValue::Str(text));
        return Ok(out);
    }
    let Ok(Value::Object(obj)) = serde_json::from_str::<Value>(&text) else {
        return Err(syn::Error::new(
            expr.span(),
            format!("`{key} = \"...\"` must hold a JSON object; or write `{key}({} = ...)`", subs[0].key.as_str()),
        ));
    };
    let mut out = Named::default();
    for (k, v) in obj {
        let Some(s) = subs.iter().find(|s| camel(s.key.as_str()) == k || s.key.as_str() == k || s.doc == k) else {
            return Err(syn::Error::new(expr.span(), format!("`{key}` has no field `{k}`")));
        };
        let Some(value) = json_arg(s.arg, &v) else {
            return Err(syn::Error::new(
                expr.span(),
                format!("`{key}`'s field `{k}` takes {}, not {v}", what_arg(s.arg)),
            ));
        };
        out.insert(s.key, value);
    }
    check_required(key, subs, &out, expr.span())?;
    Ok(out)
}

/// A named argument given in JSON (kube-derive's legacy form), as its shape takes it.
fn json_arg(arg: Arg, v: &Value) -> Option<ArgValue> {
    Some(match (arg, v) {
        (Arg::Str, Value::String(s)) => ArgValue::Str(s.clone()),
        (Arg::Int, Value::Number(n)) => ArgValue::Int(n.as_i64()?),
        (Arg::Number, Value::Number(n)) => ArgValue::Number(n.clone()),
        (Arg::Flag, Value::Bool(b)) => ArgValue::Flag(*b),
        (Arg::StrList, Value::String(s)) => ArgValue::Strs(vec![s.clone()]),
        (Arg::StrList, Value::Array(a)) => {
            ArgValue::Strs(a.iter().map(|v| v.as_str().map(String::from)).collect::<Option<_>>()?)
        }
        _ => return None,
    })
}

fn what_arg(arg: Arg) -> &'static str {
    match arg {
        Arg::Str => "a string",
        Arg::Int => "an integer",
        Arg::Number => "a number",
        Arg::Flag => "true or false",
        Arg::StrList => "a list of strings",
        _ => "another value",
    }
}

/// A rule marker's value written `= "rule"` or `= ("rule", "message")`, or an
/// expression the derive evaluates (`= my_rule()`).
fn rule_value(expr: Expr) -> MarkerValue {
    if let Some(Value::String(rule)) = lit_json(&expr) {
        return MarkerValue::Rule(Rule { rule, ..Rule::default() });
    }
    if let Expr::Tuple(t) = &expr {
        let parts: Vec<_> = t.elems.iter().map(lit_json).collect();
        if let [Some(Value::String(rule)), Some(Value::String(message))] = parts.as_slice() {
            return MarkerValue::Rule(Rule { rule: rule.clone(), message: Some(message.clone()), ..Rule::default() });
        }
    }
    MarkerValue::Expr(Box::new(expr))
}

fn typed_struct(key: &str, subs: &[SubArg], meta: &syn::meta::ParseNestedMeta) -> syn::Result<Named> {
    let mut out = Named::default();
    let span = meta.path.span();
    meta.parse_nested_meta(|inner| {
        let name = inner.path.get_ident().map(|i| i.to_string()).unwrap_or_default();
        // kube-derive spells the printer column type `type_`.
        let name = if name == "type_" { "type".to_string() } else { name };
        let Some(s) = subs.iter().find(|s| s.key.as_str() == name) else {
            let hint = registry::suggest(&name, subs.iter().map(|s| s.key.as_str()))
                .map(|s| format!("; did you mean `{s}`?"))
                .unwrap_or_default();
            let known = subs.iter().map(|s| s.key.as_str()).collect::<Vec<_>>().join(", ");
            return Err(syn::Error::new(
                inner.path.span(),
                format!("`{key}` has no argument `{name}` (it takes {known}){hint}"),
            ));
        };
        let value = if s.arg == Arg::Flag && !inner.input.peek(syn::Token![=]) {
            ArgValue::Flag(true)
        } else {
            let expr: Expr = inner.value()?.parse()?;
            typed_scalar(s.arg, s.key.as_str(), &expr)?
        };
        out.insert(s.key, value);
        Ok(())
    })?;
    check_required(key, subs, &out, span)?;
    Ok(out)
}

fn check_required(key: &str, subs: &[SubArg], out: &Named, span: Span) -> syn::Result<()> {
    for s in subs.iter().filter(|s| s.required) {
        if !out.has(s.key) {
            return Err(syn::Error::new(span, format!("`{key}` needs `{}`", s.key.as_str())));
        }
    }
    Ok(())
}

fn camel(snake: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in snake.chars() {
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
}

/// Parses one doc-comment marker (the line after `+`).
fn parse_doc_marker(
    line: &str,
    span: Span,
    allowed: &[Target],
    place: &str,
    errors: &mut Errors,
    out: &mut Vec<Marker>,
) {
    if let Some(rest) = line.strip_prefix(ITEMS_PREFIX) {
        let inner = format!("kubebuilder:validation:{rest}");
        let mut nested = Vec::new();
        parse_doc_marker(&inner, span, &[Target::Schema, Target::Field], place, errors, &mut nested);
        if !nested.is_empty() {
            let def = registry::def(Key::Items);
            let written = format!("+{ITEMS_PREFIX}{}", rest.split(['=', ':']).next().unwrap_or_default());
            out.push(Marker { def, value: MarkerValue::Items(nested), span, from_doc: true, written });
        }
        return;
    }
    // RBAC and webhook markers are `codegen-cli manifests`' to read from any comment; on a
    // derived type they are checked here with the parser it runs, and do nothing else.
    if let Some(read) = kubegen_core::markers::comment::comment_marker(line) {
        if let Err(e) = read {
            errors.push(span, e);
        }
        return;
    }
    let Some((def, rest)) = registry::by_doc(line) else {
        let name = line.split(['=', ':']).collect::<Vec<_>>();
        let name_len = line.find('=').unwrap_or(line.len());
        let full = &line[..name_len];
        // Markers of other generators (`+genclient`, `+k8s:deepcopy-gen`, ...) are theirs;
        // under `+kubebuilder:` every marker is ours, so an unknown one is a mistake.
        // Go's `+enum` marks a string type whose constants are its values; a Rust enum's
        // variants already are. On a field it means nothing.
        if matches!(full, "k8s:enum" | "enum") && allowed.contains(&Target::Field) {
            errors.push(
                span,
                format!("`+{full}` marks a Go string type by its constants; on a field, list the values with `+kubebuilder:validation:Enum=a;b`, or make the field's type a Rust enum"),
            );
            return;
        }
        if name.first() == Some(&"kubebuilder") {
            let hint = registry::suggest(full, registry::doc_spellings())
                .map(|s| format!("; did you mean `+{s}`?"))
                .unwrap_or_default();
            errors.push(span, format!("unknown marker `+{full}`{hint}"));
        }
        return;
    };
    let spelling = &line[..line.len() - rest.len()];
    if !target_allowed(def, allowed) {
        errors.push(span, misplaced(&format!("+{spelling}"), def, place));
        return;
    }
    match doc_value(def, spelling, rest) {
        Ok(value) => out.push(Marker { def, value, span, from_doc: true, written: format!("+{spelling}") }),
        Err(msg) => errors.push(span, msg),
    }
}

fn doc_value(def: &MarkerDef, spelling: &str, rest: &str) -> Result<MarkerValue, String> {
    let value = rest.strip_prefix('=');
    let args = rest.strip_prefix(':');
    match def.arg {
        Arg::Flag | Arg::FlagOrStr if rest.is_empty() => Ok(MarkerValue::Flag(true)),
        Arg::Flag => match value.map(str::trim) {
            Some("true") => Ok(MarkerValue::Flag(true)),
            Some("false") => Ok(MarkerValue::Flag(false)),
            _ => Err(format!("`+{spelling}` is a flag: write `+{spelling}` or `+{spelling}=false`")),
        },
        Arg::FlagOrStr | Arg::Struct(_) | Arg::Rule => {
            let subs = match def.arg {
                Arg::Struct(subs) => subs,
                Arg::Rule => registry::RULE_ARGS,
                _ => registry::DEPRECATED_ARGS,
            };
            let Some(args) = args else {
                let first = subs.first().map(|s| s.doc).unwrap_or("arg");
                return Err(format!("`+{spelling}` takes named arguments: write `+{spelling}:{first}=...`"));
            };
            let named = doc_struct(spelling, subs, args)?;
            Ok(match def.arg {
                Arg::FlagOrStr => match named.str(Sub::Warning) {
                    Some(w) => MarkerValue::Str(w.to_string()),
                    None => MarkerValue::Flag(true),
                },
                Arg::Rule => MarkerValue::Rule(rule_of(&named)),
                _ => MarkerValue::Named(named),
            })
        }
        arg => {
            let Some(value) = value else {
                return Err(format!("`+{spelling}` takes a value: write `+{spelling}=...`"));
            };
            let parsed = match arg {
                Arg::JsonText => json_text(def.key.as_str(), value.trim()).map(ArgValue::Json),
                _ => doc_scalar(arg, value.trim()),
            };
            parsed.map(MarkerValue::from).map_err(|what| format!("`+{spelling}={value}`: {what}"))
        }
    }
}

fn doc_struct(spelling: &str, subs: &[SubArg], args: &str) -> Result<Named, String> {
    let mut out = Named::default();
    for part in split_top(args, ',') {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let (k, v) = part.split_once('=').unwrap_or((part, "true"));
        let Some(s) = subs.iter().find(|s| s.doc == k.trim()) else {
            let known = subs.iter().map(|s| s.doc).collect::<Vec<_>>().join(", ");
            let hint = registry::suggest(k.trim(), subs.iter().map(|s| s.doc))
                .map(|s| format!("; did you mean `{s}`?"))
                .unwrap_or_default();
            return Err(format!("`+{spelling}` has no argument `{}` (it takes {known}){hint}", k.trim()));
        };
        let value =
            doc_scalar(s.arg, v.trim()).map_err(|what| format!("`+{spelling}` argument `{}`: {what}", s.doc))?;
        out.insert(s.key, value);
    }
    for s in subs.iter().filter(|s| s.required) {
        if !out.has(s.key) {
            return Err(format!("`+{spelling}` needs `{}=...`", s.doc));
        }
    }
    Ok(out)
}

/// A value in controller-gen's marker syntax.
fn doc_scalar(arg: Arg, v: &str) -> Result<ArgValue, String> {
    match arg {
        Arg::Int => v.parse::<i64>().map(ArgValue::Int).map_err(|_| format!("expected an integer, found `{v}`")),
        Arg::Number => v
            .parse::<f64>()
            .ok()
            .and_then(|f| {
                if f.fract() == 0.0 && f.abs() < 9e15 { Some(Number::from(f as i64)) } else { Number::from_f64(f) }
            })
            .map(ArgValue::Number)
            .ok_or_else(|| format!("expected a number, found `{v}`")),
        // A bare number, list or object is not text, as controller-gen's parser sees it.
        Arg::Str if !v.starts_with('"') && (v.parse::<f64>().is_ok() || v.starts_with(['{', '['])) => {
            Err(format!("expected a string, found `{v}`; if the text is meant, quote it: \"{v}\""))
        }
        Arg::Str => unquote(v).map(ArgValue::Str),
        Arg::Flag => match v {
            "true" => Ok(ArgValue::Flag(true)),
            "false" => Ok(ArgValue::Flag(false)),
            _ => Err(format!("expected true or false, found `{v}`")),
        },
        Arg::StrList => list_checked(v).map(ArgValue::Strs),
        Arg::JsonText => json_text("value", v).map(ArgValue::Json),
        Arg::Any => any_value(v).map(ArgValue::Json),
        _ => Err("this marker takes named arguments".into()),
    }
}

/// Key of the placeholder a `ref(path)` default stands as until the derive emits the
/// code that serializes the constant.
pub const DEFAULT_REF: &str = "kubegen:ref";

/// JSON text, or for a default `ref(path)`: the value of the Rust constant at `path`,
/// serialized by serde when the schema is generated (Kubernetes' `+default=ref(Name)`
/// names a Go constant the same way).
fn json_text(key: &str, v: &str) -> Result<Value, String> {
    let v = v.trim();
    if let Some(path) = v.strip_prefix("ref(").and_then(|r| r.strip_suffix(')')) {
        if !key.starts_with("default") {
            return Err(format!("`ref(...)` is for defaults; `{key}` takes JSON text"));
        }
        return match syn::parse_str::<syn::Path>(path.trim()) {
            Ok(_) => Ok(serde_json::json!({ DEFAULT_REF: path.trim() })),
            Err(_) => Err(format!(
                "`ref({path})` takes the path of a Rust constant whose serde JSON is the default, e.g. `ref(DEFAULT_MODE)` or `ref(Mode::Safe)`"
            )),
        };
    }
    serde_json::from_str(v).map_err(|e| {
        let hint = if key.starts_with("default") { ", or `ref(CONSTANT)` for a Rust constant's value" } else { "" };
        format!("not valid JSON ({e}); write JSON text{hint}")
    })
}

/// controller-gen's `any` syntax: JSON scalars, bare words as strings, `{a, b}` lists and
/// `{key: value}` maps.
fn any_value(v: &str) -> Result<Value, String> {
    let v = v.trim();
    if let Ok(json) = serde_json::from_str::<Value>(v) {
        return Ok(json);
    }
    if let Some(inner) = v.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
        let parts: Vec<String> = split_top(inner, ',').into_iter().filter(|p| !p.trim().is_empty()).collect();
        let is_map = parts.first().is_some_and(|p| split_top(p, ':').len() == 2 && !p.trim().starts_with('{'));
        if is_map {
            let mut map = Map::new();
            for p in parts {
                let kv = split_top(&p, ':');
                let [k, val] = kv.as_slice() else {
                    return Err(format!("`{p}` is not `key: value`"));
                };
                map.insert(unquote(k)?, any_value(val)?);
            }
            return Ok(Value::Object(map));
        }
        return parts.iter().map(|p| any_value(p)).collect::<Result<Vec<_>, _>>().map(Value::Array);
    }
    if v.starts_with('`') {
        return unquote(v).map(Value::String);
    }
    Ok(Value::String(v.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_syntax_matches_controller_gen() {
        assert_eq!(any_value("1").unwrap(), serde_json::json!(1));
        assert_eq!(any_value("nginx").unwrap(), serde_json::json!("nginx"));
        assert_eq!(any_value("{80,443}").unwrap(), serde_json::json!([80, 443]));
        assert_eq!(any_value("{replicas: 1, name: a}").unwrap(), serde_json::json!({"replicas": 1, "name": "a"}));
        assert_eq!(any_value("{}").unwrap(), serde_json::json!({}));
    }

    #[test]
    fn values_are_typed_by_their_shape_in_both_spellings() {
        let int: Expr = syn::parse_quote!(63);
        assert_eq!(typed_scalar(Arg::Int, "max_length", &int).unwrap(), ArgValue::Int(63));
        assert_eq!(doc_scalar(Arg::Int, "63").unwrap(), ArgValue::Int(63));
        let neg: Expr = syn::parse_quote!(-1.5);
        assert_eq!(typed_scalar(Arg::Number, "minimum", &neg).unwrap().to_json(), serde_json::json!(-1.5));
        assert_eq!(doc_scalar(Arg::Number, "3").unwrap(), ArgValue::Number(3.into()));
        let list: Expr = syn::parse_quote!(["a", "b"]);
        let strs = ArgValue::Strs(vec!["a".into(), "b".into()]);
        assert_eq!(typed_scalar(Arg::StrList, "enum_values", &list).unwrap(), strs);
        assert_eq!(doc_scalar(Arg::StrList, "a;b").unwrap(), strs);
        // A value of another shape is refused, not carried along.
        assert!(typed_scalar(Arg::Int, "max_length", &syn::parse_quote!("63")).is_err());
        assert!(doc_scalar(Arg::Str, "63").is_err());
    }

    #[test]
    fn legacy_json_arguments_are_typed_or_refused() {
        let subs = registry::PRINTCOLUMN_ARGS;
        let ok: Expr = syn::parse_quote!(r#"{"name": "Age", "type": "date", "jsonPath": ".x", "priority": 1}"#);
        let named = struct_from_json("printcolumn", subs, &ok).unwrap();
        assert_eq!((named.str(Sub::JsonPath), named.int(Sub::Priority)), (Some(".x"), Some(1)));
        let bad: Expr = syn::parse_quote!(r#"{"name": "Age", "type": "date", "jsonPath": ".x", "priority": "high"}"#);
        let e = struct_from_json("printcolumn", subs, &bad).unwrap_err().to_string();
        assert!(e.contains("`priority` takes an integer"), "{e}");
    }

    #[test]
    fn lists_split_on_semicolons() {
        assert_eq!(
            doc_scalar(Arg::StrList, "a;b;\"c;d\"").unwrap(),
            ArgValue::Strs(vec!["a".into(), "b".into(), "c;d".into()])
        );
    }
}
