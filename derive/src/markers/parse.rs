//! Both spellings of a marker parse into one [`Marker`]: `#[kube(key = value)]` and the
//! controller-gen line `/// +kubebuilder:...` in a doc comment.

use kubegen_core::markers::args::{list_checked, split_top, unquote_checked as unquote};
use kubegen_core::schema::markers::Rule;
use proc_macro2::Span;
use serde_json::{Map, Value};
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprLit, Lit, Meta, UnOp};

use super::registry::{self, Arg, Args, ITEMS_PREFIX, Key, MarkerDef, Sub, SubArg, Target};
use crate::errors::Errors;

/// A marker's argument, normalised across spellings.
#[derive(Debug, Clone)]
pub enum MarkerValue {
    Flag(bool),
    Json(Value),
    /// Named arguments under their typed names.
    Struct(Map<String, Value>),
    /// A Rust expression evaluated at run time (`validation = Rule::new(..)`).
    Expr(Box<Expr>),
    /// Nested markers (`items(...)`, `+kubebuilder:validation:items:...`).
    Items(Vec<Marker>),
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
            MarkerValue::Json(Value::String(s)) => Some(s),
            _ => None,
        }
    }

    pub fn flag(&self) -> bool {
        matches!(self.value, MarkerValue::Flag(true))
    }

    pub fn strs(&self) -> Vec<String> {
        match &self.value {
            MarkerValue::Json(Value::Array(a)) => a.iter().filter_map(|v| v.as_str().map(String::from)).collect(),
            MarkerValue::Json(Value::String(s)) => vec![s.clone()],
            _ => Vec::new(),
        }
    }
}

/// A rule's named arguments (`validation(rule = ..., message = ...)`) as the rule.
pub fn rule_of(s: &Map<String, Value>) -> Rule {
    let text = |key: Sub| s.arg_str(key).map(String::from);
    Rule {
        rule: text(Sub::Rule).unwrap_or_default(),
        message: text(Sub::Message),
        message_expression: text(Sub::MessageExpression),
        reason: text(Sub::Reason),
        field_path: text(Sub::FieldPath),
        optional_old_self: s.arg(Sub::OptionalOldSelf).and_then(Value::as_bool),
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

/// Converts a literal into the JSON a marker of shape `arg` takes.
fn typed_scalar(arg: Arg, key: &str, expr: &Expr) -> syn::Result<Value> {
    let span = expr.span();
    let value = lit_json(expr);
    match (arg, value) {
        (Arg::Int, Some(v @ Value::Number(_))) if v.is_i64() => Ok(v),
        (Arg::Int, _) => Err(want("an integer", key, example_for(arg), span)),
        (Arg::Number, Some(v @ Value::Number(_))) => Ok(v),
        (Arg::Number, _) => Err(want("a number", key, example_for(arg), span)),
        (Arg::Str, Some(v @ Value::String(_))) => Ok(v),
        (Arg::Str, _) => Err(want("a string", key, example_for(arg), span)),
        (Arg::Flag, Some(v @ Value::Bool(_))) => Ok(v),
        (Arg::Flag, _) => Err(syn::Error::new(span, format!("`{key}` is a flag: write `{key}` or `{key} = false`"))),
        (Arg::Any, Some(v)) => Ok(v),
        (Arg::Any, None) => Err(syn::Error::new(
            span,
            format!(
                "`{key}` takes a literal (`{key} = 3`, `{key} = \"text\"`, `{key} = true`); for lists and objects write `{key}_json = r#\"[1, 2]\"#`"
            ),
        )),
        (Arg::JsonText, Some(Value::String(s))) => {
            json_text(key, &s).map_err(|e| syn::Error::new(span, format!("`{key}`: {e}")))
        }
        (Arg::JsonText, _) => Err(want("JSON text in a string", key, example_for(arg), span)),
        (Arg::StrList, Some(v @ Value::String(_))) => Ok(Value::Array(vec![v])),
        (Arg::StrList, _) => match expr {
            Expr::Array(a) => a
                .elems
                .iter()
                .map(|e| match lit_json(e) {
                    Some(v @ Value::String(_)) => Ok(v),
                    _ => Err(want("a list of strings", key, example_for(arg), e.span())),
                })
                .collect::<syn::Result<Vec<_>>>()
                .map(Value::Array),
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
                Some(v @ Value::String(_)) => Ok(MarkerValue::Json(v)),
                Some(Value::Bool(b)) => Ok(MarkerValue::Flag(b)),
                _ => Err(syn::Error::new(expr.span(), format!("write `{key}` or `{key} = \"warning text\"`"))),
            }
        }
        Arg::Flag => {
            let expr: Expr = meta.value()?.parse()?;
            match typed_scalar(Arg::Flag, key, &expr)? {
                Value::Bool(b) => Ok(MarkerValue::Flag(b)),
                _ => Ok(MarkerValue::Flag(true)),
            }
        }
        Arg::Pair => {
            let content;
            syn::parenthesized!(content in meta.input);
            let args = content.parse_terminated(<syn::LitStr as syn::parse::Parse>::parse, syn::Token![,])?;
            let args: Vec<_> = args.into_iter().collect();
            if args.len() != 2 {
                return Err(syn::Error::new(meta.path.span(), format!("write `{key}(\"name\", \"value\")`")));
            }
            Ok(MarkerValue::Json(Value::Array(vec![args[0].value().into(), args[1].value().into()])))
        }
        Arg::Struct(subs) if has_paren => typed_struct(key, subs, meta).map(MarkerValue::Struct),
        Arg::Struct(subs) => {
            // kube-derive's legacy JSON-string form: `printcolumn = r#"{"name": ...}"#`.
            let expr: Expr = meta.value()?.parse()?;
            struct_from_json(key, subs, &expr).map(MarkerValue::Struct)
        }
        Arg::Rule if has_paren => typed_struct(key, registry::RULE_ARGS, meta).map(MarkerValue::Struct),
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
            typed_scalar(arg, key, &expr).map(MarkerValue::Json)
        }
    }
}

/// A struct-valued marker in kube-derive's legacy form, a JSON object in a string
/// (`printcolumn = r#"{"name": ...}"#`), or, for a marker with one required argument, that
/// argument bare (`selectable = ".spec.x"`).
fn struct_from_json(key: &str, subs: &[SubArg], expr: &Expr) -> syn::Result<Map<String, Value>> {
    let text = match lit_json(expr) {
        Some(Value::String(s)) => s,
        _ => return Err(syn::Error::new(expr.span(), format!("write `{key}({} = ...)`", subs[0].key.as_str()))),
    };
    if let [only] = subs.iter().filter(|s| s.required).collect::<Vec<_>>().as_slice()
        && !text.trim_start().starts_with('{')
    {
        let mut out = Map::new();
        out.insert(only.key.as_str().into(), Value::String(text));
        return Ok(out);
    }
    let Ok(Value::Object(obj)) = serde_json::from_str::<Value>(&text) else {
        return Err(syn::Error::new(
            expr.span(),
            format!("`{key} = \"...\"` must hold a JSON object; or write `{key}({} = ...)`", subs[0].key.as_str()),
        ));
    };
    let mut out = Map::new();
    for (k, v) in obj {
        let Some(s) = subs.iter().find(|s| camel(s.key.as_str()) == k || s.key.as_str() == k || s.doc == k) else {
            return Err(syn::Error::new(expr.span(), format!("`{key}` has no field `{k}`")));
        };
        out.insert(s.key.as_str().into(), v);
    }
    check_required(key, subs, &out, expr.span())?;
    Ok(out)
}

/// A rule marker's value written `= "rule"` or `= ("rule", "message")`, or an
/// expression the derive evaluates (`= my_rule()`).
fn rule_value(expr: Expr) -> MarkerValue {
    if let Some(Value::String(rule)) = lit_json(&expr) {
        let mut out = Map::new();
        out.insert(Sub::Rule.as_str().into(), rule.into());
        return MarkerValue::Struct(out);
    }
    if let Expr::Tuple(t) = &expr {
        let parts: Vec<_> = t.elems.iter().map(lit_json).collect();
        if let [Some(Value::String(rule)), Some(Value::String(message))] = parts.as_slice() {
            let mut out = Map::new();
            out.insert(Sub::Rule.as_str().into(), rule.clone().into());
            out.insert(Sub::Message.as_str().into(), message.clone().into());
            return MarkerValue::Struct(out);
        }
    }
    MarkerValue::Expr(Box::new(expr))
}

fn typed_struct(key: &str, subs: &[SubArg], meta: &syn::meta::ParseNestedMeta) -> syn::Result<Map<String, Value>> {
    let mut out = Map::new();
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
            Value::Bool(true)
        } else {
            let expr: Expr = inner.value()?.parse()?;
            typed_scalar(s.arg, s.key.as_str(), &expr)?
        };
        out.insert(s.key.as_str().into(), value);
        Ok(())
    })?;
    check_required(key, subs, &out, span)?;
    Ok(out)
}

fn check_required(key: &str, subs: &[SubArg], out: &Map<String, Value>, span: Span) -> syn::Result<()> {
    for s in subs.iter().filter(|s| s.required) {
        if !out.contains_key(s.key.as_str()) {
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
            let map = doc_struct(spelling, subs, args)?;
            if def.arg == Arg::FlagOrStr {
                return Ok(match map.arg(Sub::Warning) {
                    Some(w) => MarkerValue::Json(w.clone()),
                    None => MarkerValue::Flag(true),
                });
            }
            Ok(MarkerValue::Struct(map))
        }
        arg => {
            let Some(value) = value else {
                return Err(format!("`+{spelling}` takes a value: write `+{spelling}=...`"));
            };
            let parsed = match arg {
                Arg::JsonText => json_text(def.key.as_str(), value.trim()),
                _ => doc_scalar(arg, value.trim()),
            };
            parsed.map(MarkerValue::Json).map_err(|what| format!("`+{spelling}={value}`: {what}"))
        }
    }
}

fn doc_struct(spelling: &str, subs: &[SubArg], args: &str) -> Result<Map<String, Value>, String> {
    let mut out = Map::new();
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
        out.insert(s.key.as_str().into(), value);
    }
    for s in subs.iter().filter(|s| s.required) {
        if !out.contains_key(s.key.as_str()) {
            return Err(format!("`+{spelling}` needs `{}=...`", s.doc));
        }
    }
    Ok(out)
}

/// A value in controller-gen's marker syntax.
fn doc_scalar(arg: Arg, v: &str) -> Result<Value, String> {
    match arg {
        Arg::Int => v.parse::<i64>().map(Value::from).map_err(|_| format!("expected an integer, found `{v}`")),
        Arg::Number => v
            .parse::<f64>()
            .ok()
            .map(|f| {
                if f.fract() == 0.0 && f.abs() < 9e15 {
                    Value::from(f as i64)
                } else {
                    serde_json::Number::from_f64(f).map(Value::Number).unwrap_or(Value::Null)
                }
            })
            .filter(|v| !v.is_null())
            .ok_or_else(|| format!("expected a number, found `{v}`")),
        // A bare number, list or object is not text, as controller-gen's parser sees it.
        Arg::Str if !v.starts_with('"') && (v.parse::<f64>().is_ok() || v.starts_with(['{', '['])) => {
            Err(format!("expected a string, found `{v}`; if the text is meant, quote it: \"{v}\""))
        }
        Arg::Str => unquote(v).map(Value::String),
        Arg::Flag => match v {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            _ => Err(format!("expected true or false, found `{v}`")),
        },
        Arg::StrList => list_checked(v).map(|items| Value::Array(items.into_iter().map(Value::String).collect())),
        Arg::JsonText => json_text("value", v),
        Arg::Any => any_value(v),
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
    fn lists_split_on_semicolons() {
        assert_eq!(doc_scalar(Arg::StrList, "a;b;\"c;d\"").unwrap(), serde_json::json!(["a", "b", "c;d"]));
    }
}
