//! CEL rules checked at the marker with the API server's verdict (`kubegen-cel`), as far
//! as the derive can see: the node's own Rust type and markers, and, for a rule on a
//! struct, its fields. A field whose type is another user type is `dyn` to the checker;
//! what a rule reads through it becomes obligations — the path, and what the rule does
//! with the value there — written as constant assertions over the table that type's own
//! derive writes (`kubegen::__private::cel::Table`), so a misspelled nested field or a
//! string method on a nested integer fails `cargo build` at the marker. What a rule costs
//! where its type stands (once per item of a list, or as often as it fits in a request
//! below a list without a bound) is in the same tables, summed by walks over them
//! (`Fields::COST`, `FIXED`, `UNBOUNDED`, `MIN_SIZE`) and asserted where a field places the
//! type; the CRD lint (`codegen-cli manifests`) checks every rule again on the whole
//! schema.

use crate::markers::registry::Key;
use std::cell::RefCell;

use kubegen_cel::reads::{Read, Seg, Use};
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use kubegen_cel::check::{Part, Site, check_rule};
use kubegen_core::schema::markers::Rule;
use kubegen_core::schema::node::{Additional, Node};
use serde_json::Value;
use syn::{GenericArgument, PathArguments, Type};

use crate::errors::Errors;
use crate::markers::{Marker, MarkerValue};

/// The schema of a node as the derive sees it: its JSON type from the Rust type and
/// markers, and the markers that bound or retype it. Unknown where it cannot tell.
pub fn node_schema(ty: Option<&Type>, markers: &[Marker]) -> Node {
    // Fixed-size arrays and chars get bounds from schemars; `Time` may be k8s-openapi's
    // (a timestamp) or another crate's: none of them is the derive's to guess.
    if matches!(ty, Some(Type::Array(_))) {
        return unknown();
    }
    let last = ty.and_then(last_segment);
    if matches!(last.as_ref().map(|(n, _)| n.as_str()), Some("Time" | "MicroTime" | "char")) {
        return unknown();
    }
    let kind = crate::shapes::effective_kind(markers, ty.and_then(crate::shapes::json_kind));
    if markers.iter().any(|m| m.def.key == Key::EmbeddedResource && m.flag()) {
        return unknown();
    }
    // `serde_json::Value` is schemaless (preserve-unknown-fields, no type): the server
    // leaves it out of what a rule sees, so a rule that names it, or stands on a map of
    // it, does not compile (found by the generated kinds tier: an `at_most_one_of`
    // naming such a field, a rule on a `BTreeMap<String, Value>`).
    if kind.is_none() && matches!(last.as_ref().map(|(n, _)| n.as_str()), Some("Value")) {
        return Node { preserve_unknown_fields: Some(true), ..Node::default() };
    }
    let mut s = match kind {
        Some("int-or-string") => return Node { int_or_string: Some(true), ..Node::default() },
        Some(k @ ("string" | "integer" | "number" | "boolean")) => Node::of_type(k),
        Some("array") => {
            let item_markers: Vec<Marker> = markers
                .iter()
                .filter_map(|m| match &m.value {
                    MarkerValue::Items(nested) if m.def.key == Key::Items => Some(nested.clone()),
                    _ => None,
                })
                .flatten()
                .collect();
            let item_ty = ty.and_then(crate::shapes::item_type);
            Node { items: Some(Box::new(node_schema(item_ty, &item_markers))), ..Node::of_type("array") }
        }
        Some("object") => match last {
            Some((name, Some(value))) if matches!(name.as_str(), "HashMap" | "BTreeMap" | "IndexMap") => Node {
                additional_properties: Some(Additional::Schema(Box::new(node_schema(Some(&value), &[])))),
                ..Node::of_type("object")
            },
            _ => return ty.map_or_else(unknown, unseen),
        },
        None if matches!(ty.map(strip), Some(Type::Path(_))) => return ty.map_or_else(unknown, unseen),
        _ => return unknown(),
    };
    for m in markers {
        match m.def.key {
            Key::MaxLength => s.max_length = m.count(),
            Key::MaxItems => s.max_items = m.count(),
            Key::MaxProperties => s.max_properties = m.count(),
            Key::Format => s.format = m.str().map(String::from),
            Key::EnumValues => s.enum_ = Some(m.strs().iter().map(|v| Value::String(v.clone())).collect()),
            Key::ListType => s.list_type = m.str().map(String::from),
            _ => {}
        }
    }
    s
}

/// A node the derive cannot see (another type's schema): a reference, which the checker
/// takes as `dyn` and judges no cost through.
pub fn unknown() -> Node {
    Node::named("a type the derive does not see")
}

/// What the reference of a struct the derive does not see starts with; the Rust type
/// follows, as tokens.
const UNSEEN: &str = "rust:";

/// Another struct's node: unknown to the checker, named by its Rust type (without
/// `Option`/`Box`) so that what a rule reads of it becomes obligations on its fields.
pub fn unseen(ty: &Type) -> Node {
    let inner = strip(ty);
    Node::named(&format!("{UNSEEN}{}", quote!(#inner)))
}

/// `ty` without `Option`/`Box` around it.
pub fn strip(ty: &Type) -> &Type {
    if let Type::Path(p) = ty
        && let Some(seg) = p.path.segments.last()
        && matches!(seg.ident.to_string().as_str(), "Option" | "Box")
        && let PathArguments::AngleBracketed(a) = &seg.arguments
        && let Some(GenericArgument::Type(inner)) = a.args.first()
    {
        return strip(inner);
    }
    ty
}

/// An object schema of named fields.
pub fn object_schema(fields: Vec<(String, Node)>) -> Node {
    Node { properties: Some(fields.into_iter().collect()), ..Node::of_type("object") }
}

/// The last path segment's name and, for a map, its value type (through `Option`).
fn last_segment(ty: &Type) -> Option<(String, Option<Type>)> {
    let Type::Path(_) = ty else { return None };
    let (name, args) = crate::shapes::arguments(ty)?;
    if matches!(name.as_str(), "Option" | "Box") {
        return args.first().and_then(|t| last_segment(t));
    }
    Some((name, args.get(1).map(|t| (*t).clone())))
}

/// Checks the rule a marker writes (`rule` as `s` holds it) against `schema`, the node
/// it stands on (`own`: the struct being derived); every refusal is an error at the
/// marker. An accepted rule's cost is kept for the struct's table, with how
/// many of its node one value of the struct holds ([`within`]).
pub fn check(m: &Marker, rule: &Rule, schema: &Node, own: bool, errors: &mut Errors) {
    let rule_text = rule.rule.clone();
    // A rule that does not parse is reported once, by the parse check.
    if kubegen_cel::check::parse(&rule_text).is_err()
        || rule.message_expression.as_deref().is_some_and(|e| kubegen_cel::check::parse(e).is_err())
    {
        return;
    }
    let mut read = kubegen_cel::reads::reads(&rule_text).unwrap_or_default();
    if let Some(e) = &rule.message_expression {
        read.extend(kubegen_cel::reads::reads(e).unwrap_or_default());
    }
    if let Some(fp) = &rule.field_path {
        read.extend(field_path_read(fp));
    }
    // What the rule reads through other structs: obligations on their fields.
    for r in &read {
        oblige(m, &rule_text, schema, r);
    }
    // A rule that reads nothing of the structs this derive does not see is judged whole:
    // without them, its cost is the server's too.
    let pruned = prune(schema, &read);
    let schema = &pruned;
    let site = Site { schema, path: "self", cardinality: Some(1), correlatable: true };
    let problems = match check_rule(rule, &site) {
        Ok(verdict) => {
            let min_size = if own { MinSize::Own } else { min_size(schema) };
            let most = if verdict.uncertain_cost { 0 } else { verdict.rule_cost.max(verdict.message_cost) };
            let count = COUNT.with(std::cell::Cell::get);
            let placed = Placed { total: verdict.total, most, min_size, count, span: m.span, rule: rule_text };
            PLACED.with(|p| p.borrow_mut().push(placed));
            return;
        }
        Err(problems) => problems,
    };
    // `rule_json` has reported an unknown reason already.
    for p in problems.into_iter().filter(|p| p.part != Part::Reason) {
        let what = match p.part {
            Part::MessageExpression => format!("the messageExpression of the CEL rule `{rule_text}`"),
            Part::FieldPath => format!("the fieldPath of the CEL rule `{rule_text}`"),
            Part::OptionalOldSelf => format!("`optional_old_self` on the CEL rule `{rule_text}`"),
            Part::Message => format!("the message of the CEL rule `{rule_text}`"),
            Part::Rule | Part::Cost | Part::Reason => format!("the CEL rule `{rule_text}`"),
        };
        // The checker names nodes by their path from `self`; here `self` is the marker's node.
        let message = p.message.replace("to `self`", "to this field").replace("to `self.", "to field `");
        errors.push(m.span, format!("the API server refuses {what}: {message}"));
    }
}

/// A `fieldPath` (`.endpoint.host`, `['a.b']`) as the path it names, by CEL identifiers;
/// nothing for one with a list index, which the server refuses (the checker says why).
fn field_path_read(path: &str) -> Option<Read> {
    let mut segs = Vec::new();
    let mut rest = path;
    while !rest.is_empty() {
        let r = rest.strip_prefix('.')?;
        let end = r.find(['.', '[']).unwrap_or(r.len());
        segs.push(Seg::Field(kubegen_cel::names::escape(&r[..end])?));
        rest = &r[end..];
    }
    (!segs.is_empty()).then_some(Read { path: segs, usage: Use::Read })
}

/// The property of `node` a rule reads as `ident`.
fn property<'a>(node: &'a Node, ident: &str) -> Option<&'a Node> {
    node.properties
        .as_ref()?
        .iter()
        .find(|(name, _)| kubegen_cel::names::identifiers(name).iter().any(|i| i == ident))
        .map(|(_, n)| n)
}

/// `schema` without the structs it does not see that no read of the rule reaches.
fn prune(schema: &Node, reads: &[Read]) -> Node {
    let mut out = schema.clone();
    // The whole node is read (`self == oldSelf`, `string(self)`): keep it as it is.
    if reads.iter().any(|r| r.path.is_empty()) {
        return out;
    }
    if let Some(props) = out.properties.as_mut() {
        props.retain(|name, child| {
            let ids = kubegen_cel::names::identifiers(name);
            let below: Vec<Read> = reads
                .iter()
                .filter_map(|r| match r.path.split_first() {
                    Some((Seg::Field(f), rest)) if ids.contains(f) => {
                        Some(Read { path: rest.to_vec(), usage: r.usage })
                    }
                    _ => None,
                })
                .collect();
            if child.reference.is_some() && below.is_empty() {
                return false;
            }
            *child = prune(child, &below);
            true
        });
    }
    let each: Vec<Read> = reads
        .iter()
        .filter_map(|r| match r.path.split_first() {
            Some((Seg::Each | Seg::Item, rest)) => Some(Read { path: rest.to_vec(), usage: r.usage }),
            _ => None,
        })
        .collect();
    if let Some(items) = out.items.as_mut() {
        **items = prune(items, &each);
    }
    if let Some(Additional::Schema(values)) = out.additional_properties.as_mut() {
        **values = prune(values, &each);
    }
    out
}

thread_local! {
    /// The obligations of the rules of the type being derived (a derive runs on one
    /// thread), and whether that type is generic (a constant cannot name its parameters).
    static OBLIGATIONS: RefCell<(bool, Vec<TokenStream>)> = const { RefCell::new((false, Vec::new())) };
    /// The rules of the type being derived checked so far, with their costs.
    static PLACED: RefCell<Vec<Placed>> = const { RefCell::new(Vec::new()) };
    /// How many of the node being lowered one value of the type holds: 1 for the type and
    /// its fields, a list's bound for its items, `None` below a list without one.
    static COUNT: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(Some(1)) };
    /// The name of the type being derived.
    static OWN: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Whether `ty` is the type being derived (since [`begin`]): `Self`, or its name alone (`v1::Endpoint` in
/// the derive of another module's `Endpoint` is that other type).
pub fn is_own(ty: &Type) -> bool {
    matches!(ty, Type::Path(p) if p.qself.is_none() && p.path.get_ident().is_some_and(|i| i == "Self" || OWN.with(|o| i == &*o.borrow())))
}

/// The id of the type `name` of the module the derive's output stands in: its schema id
/// (`JsonSchema::schema_id`) and its table's (`Table::id`), which a rule's check names
/// its own type by.
pub fn type_id(name: &str) -> TokenStream {
    quote!(::core::concat!(::core::module_path!(), "::", #name))
}

/// How large a rule's node is at least in JSON, as far as the derive knows: the server
/// counts a rule below a list or map without a bound as often as its node fits in the
/// largest request.
#[derive(Clone)]
pub enum MinSize {
    Known(u64),
    /// The struct being derived (its `Fields::MIN_SIZE`).
    Own,
    /// Another struct, by its `Fields::MIN_SIZE` where it has our derive.
    Named(Box<Type>),
    Unknown,
}

impl MinSize {
    /// The size as a `kubegen::__private::cel::Least`, for the struct's table.
    pub fn least(&self) -> TokenStream {
        let cel = quote!(::kubegen::__private::cel);
        match self {
            MinSize::Known(n) => quote!(#cel::Least::Bytes(#n)),
            MinSize::Own => quote!(#cel::Least::Own),
            MinSize::Named(ty) if is_own(ty) => quote!(#cel::Least::Own),
            MinSize::Named(ty) => quote!(#cel::Least::Of(#cel::Probe::<#ty>::TABLE)),
            MinSize::Unknown => quote!(#cel::Least::Bytes(#cel::UNKNOWN_SIZE)),
        }
    }

    /// The size as a constant expression of `u64`, for the struct `name`.
    pub fn tokens(&self, name: &syn::Ident) -> TokenStream {
        match self {
            MinSize::Known(n) => quote!(#n),
            MinSize::Own => quote!(<#name as ::kubegen::__private::cel::Fields>::MIN_SIZE),
            // `Self` (an item of `Vec<Self>`) is the struct's own name outside its impl.
            MinSize::Named(ty) if matches!(&**ty, Type::Path(p) if p.path.is_ident("Self")) => {
                quote!(<#name as ::kubegen::__private::cel::Fields>::MIN_SIZE)
            }
            MinSize::Named(ty) => quote!(::kubegen::__private::cel::Probe::<#ty>::MIN_SIZE),
            MinSize::Unknown => quote!(::kubegen::__private::cel::UNKNOWN_SIZE),
        }
    }
}

/// The least size in JSON of a node of `schema`, as the API server reckons it.
pub fn min_size(schema: &Node) -> MinSize {
    if let Some(r) = &schema.reference {
        return match r.strip_prefix(UNSEEN).and_then(|t| syn::parse_str::<Type>(t).ok()) {
            Some(ty) => MinSize::Named(Box::new(ty)),
            None => MinSize::Unknown,
        };
    }
    match kubegen_cel::types::of_schema(schema, "self") {
        Some(decl) => MinSize::Known(decl.min_size),
        None => MinSize::Unknown,
    }
}

/// A rule the derive checked, as its struct's `Fields` constants count it.
pub struct Placed {
    /// The rule's estimated cost with its message expression's, per evaluation.
    pub total: u64,
    /// The larger of the two (0 where the estimate reads through a type the derive does
    /// not see, so it holds no per-rule budget).
    pub most: u64,
    pub min_size: MinSize,
    /// How many of the rule's node one value of the struct holds (`None`: below a list
    /// without a bound).
    pub count: Option<u64>,
    pub span: proc_macro2::Span,
    pub rule: String,
}

/// Starts collecting the obligations and costs of the rules of the type `name`.
pub fn begin(generic: bool, name: &syn::Ident) {
    OWN.with(|o| *o.borrow_mut() = name.to_string());
    OBLIGATIONS.with(|o| *o.borrow_mut() = (generic, Vec::new()));
    PLACED.with(|p| p.borrow_mut().clear());
    COUNT.with(|c| c.set(Some(1)));
}

/// Runs `f` for the items of a list whose bound is `max` (`None`: none), so the rules it
/// checks count as many times as one value holds them.
pub fn within<T>(max: Option<u64>, f: impl FnOnce() -> T) -> T {
    let outer = COUNT.with(std::cell::Cell::get);
    COUNT.with(|c| c.set(outer.zip(max).map(|(a, b)| a.saturating_mul(b))));
    let out = f();
    COUNT.with(|c| c.set(outer));
    out
}

/// The rules checked since [`begin`], with their costs.
pub fn placed() -> Vec<Placed> {
    PLACED.with(|p| std::mem::take(&mut *p.borrow_mut()))
}

/// The obligations collected since [`begin`], as constant items.
pub fn obligations() -> Vec<TokenStream> {
    OBLIGATIONS.with(|o| std::mem::take(&mut o.borrow_mut().1))
}

/// Follows `read` through `schema` to the first struct the derive does not see, and
/// writes what the rest of the path needs of that struct's fields.
fn oblige(m: &Marker, rule: &str, schema: &Node, read: &Read) {
    if OBLIGATIONS.with(|o| o.borrow().0) {
        return;
    }
    let mut node = schema;
    for (i, seg) in read.path.iter().enumerate() {
        if let Some(r) = &node.reference {
            return emit(m, rule, r, read, i);
        }
        node = match seg {
            Seg::Field(f) => match property(node, f) {
                Some(n) => n,
                None => return,
            },
            Seg::Each | Seg::Item => match node.items.as_deref() {
                Some(items) => items,
                None if matches!(seg, Seg::Each) => match node.map_values() {
                    Some(v) => v,
                    None => return,
                },
                None => return,
            },
        };
    }
    if let Some(r) = &node.reference {
        return emit(m, rule, r, read, read.path.len());
    }
    // A list or map of a struct read as a whole: the struct may be the rule's own type
    // (or hold it), where the CRD's schema stops and the server types nothing.
    let mut inner = node;
    while let Some(next) = inner.items.as_deref().or_else(|| inner.map_values()) {
        if let Some(r) = &next.reference {
            let whole = Read { path: read.path.clone(), usage: Use::Read };
            return emit(m, rule, r, &whole, read.path.len());
        }
        inner = next;
    }
}

/// The obligation of `read` from step `from` on, where it enters the type `reference`
/// names: a constant assertion, at the marker, over that type's table.
fn emit(m: &Marker, rule: &str, reference: &str, read: &Read, from: usize) {
    let Some(mut ty) = reference.strip_prefix(UNSEEN).and_then(|t| syn::parse_str::<Type>(t).ok()) else { return };
    // `Self` (an item of `Vec<Self>`) by its name: the assertion stands outside the impl.
    if matches!(&ty, Type::Path(p) if p.path.is_ident("Self")) {
        let own = OWN.with(|o| o.borrow().clone());
        ty = syn::parse_str::<Type>(&own).unwrap_or(ty);
    }
    let rest = &read.path[from..];
    let Refusals { missing, wrong, recurs, stands } =
        refusals(rule, &quote!(#ty).to_string().replace(' ', ""), read, from);
    let segs = rest.iter().map(|s| match s {
        Seg::Field(f) => quote!(::kubegen::__private::cel::Seg::Field(#f)),
        Seg::Each => quote!(::kubegen::__private::cel::Seg::Each),
        Seg::Item => quote!(::kubegen::__private::cel::Seg::Item),
    });
    let usage = match read.usage {
        Use::Read => quote!(Read),
        Use::Str => quote!(Str),
        Use::Sized => quote!(Sized),
        Use::Iterate => quote!(Iterate),
        Use::Number => quote!(Number),
        Use::Bool => quote!(Bool),
    };
    let span = m.span;
    // The rule's own type, as its table names it: the schema stops where it recurs.
    let own_id = type_id(&OWN.with(|o| o.borrow().clone()));
    // Where the value the rule reads from here on is itself a recurring type: the rule
    // stands on it (from its own node) or reads it.
    let stands = if from == 0 { stands } else { recurs.clone() };
    // One arm where both verdicts say the same (fewer tokens for rustc to read).
    let recursion = if stands == recurs {
        quote_spanned!(span=> ::kubegen::__private::cel::RECURS | ::kubegen::__private::cel::STANDS_IN_RECURSION => ::core::panic!("{}", #recurs),)
    } else {
        quote_spanned! {span=>
            ::kubegen::__private::cel::RECURS => ::core::panic!("{}", #recurs),
            ::kubegen::__private::cel::STANDS_IN_RECURSION => ::core::panic!("{}", #stands),
        }
    };
    let tokens = quote_spanned! {span=>
        const _: () = {
            #[allow(unused_imports)]
            use ::kubegen::__private::cel::Unseen as _;
            match ::kubegen::__private::cel::check(
                #own_id,
                ::kubegen::__private::cel::Shape::Object(::kubegen::__private::cel::Probe::<#ty>::TABLE),
                &[#(#segs),*],
                ::kubegen::__private::cel::Use::#usage,
            ) {
                ::kubegen::__private::cel::NO_FIELD => ::core::panic!("{}", #missing),
                ::kubegen::__private::cel::WRONG_TYPE => ::core::panic!("{}", #wrong),
                #recursion
                _ => {}
            }
        };
    };
    OBLIGATIONS.with(|o| o.borrow_mut().1.push(tokens));
}

/// What an obligation says when it fails, one message per verdict.
struct Refusals {
    missing: String,
    wrong: String,
    recurs: String,
    /// The rule stands on a node of a recurring type.
    stands: String,
}

/// The messages of the obligation of `read` from step `from` on, in the type `ty_name`.
fn refusals(rule: &str, ty_name: &str, read: &Read, from: usize) -> Refusals {
    let shown = |segs: &[Seg]| {
        segs.iter().fold(String::from("self"), |mut s, seg| {
            match seg {
                Seg::Field(f) => {
                    s.push('.');
                    s.push_str(f);
                }
                Seg::Each | Seg::Item => s.push_str("[*]"),
            }
            s
        })
    };
    let full = shown(&read.path);
    let within = shown(&read.path[from..]).replacen("self", ty_name, 1);
    let what = match read.usage {
        Use::Str => "uses it as a string",
        Use::Sized => "takes its size()",
        Use::Iterate => "iterates over it",
        Use::Number => "compares it with a number",
        Use::Bool => "compares it with a bool",
        Use::Read => "reads it",
    };
    // Where the type recurs, the CRD's structural schema stops and keeps unknown fields,
    // which the server gives no CEL type.
    let stands = format!(
        "the API server refuses the CEL rule `{rule}`: it stands on a `{ty_name}` inside a `{ty_name}`, where the CRD's structural schema stops and keeps unknown fields, which the server gives no CEL type; put the rule on `{ty_name}` itself"
    );
    let recurs = format!(
        "the API server refuses the CEL rule `{rule}`: it reads `{full}`, a field (reached through `{ty_name}`) that holds a type standing above it, as types that hold themselves or each other do; the CRD's structural schema stops there and keeps unknown fields, which the server gives no CEL type (`undefined field`); read only above that field, or put the rule on the type it holds"
    );
    Refusals {
        missing: format!(
            "the API server refuses the CEL rule `{rule}`: it reads `{full}`, and `{within}` names no field on the wire (check the field's name, its serde rename, and the type's fields)"
        ),
        wrong: format!(
            "the API server refuses the CEL rule `{rule}`: `{full}` (`{within}`) is not of a type the rule can use: the rule {what}"
        ),
        recurs,
        stands,
    }
}

/// The shape a rule sees of a field of type `ty` with `markers`, as a constant
/// expression of `kubegen::__private::cel::Shape`.
pub fn shape(ty: &Type, markers: &[Marker], foreign: bool) -> TokenStream {
    let any = quote!(::kubegen::__private::cel::Shape::Any);
    let opaque = markers.iter().any(|m| {
        matches!(m.def.key, Key::EmbeddedResource | Key::PreserveUnknownFields | Key::Schemaless | Key::IntOrString)
            && m.flag()
    });
    if foreign || opaque {
        return any;
    }
    let node = node_schema(Some(ty), markers);
    if let Some(r) = &node.reference {
        return match r.strip_prefix(UNSEEN).and_then(|t| syn::parse_str::<Type>(t).ok()) {
            // The type itself (`Vec<Self>`), by its name: a table may link itself.
            Some(inner) if is_own(&inner) => {
                let own: TokenStream = OWN.with(|o| o.borrow().parse().unwrap_or_default());
                quote!(::kubegen::__private::cel::Shape::Object(::kubegen::__private::cel::Probe::<#own>::TABLE))
            }
            Some(inner) => {
                quote!(::kubegen::__private::cel::Shape::Object(::kubegen::__private::cel::Probe::<#inner>::TABLE))
            }
            None => any,
        };
    }
    if node.int_or_string == Some(true) {
        return any;
    }
    match node.type_.as_deref() {
        Some("string")
            if node.format.as_deref().is_some_and(|f| matches!(f, "duration" | "date" | "date-time" | "byte")) =>
        {
            any
        }
        Some("string") => quote!(::kubegen::__private::cel::Shape::Str),
        Some("integer") => quote!(::kubegen::__private::cel::Shape::Int),
        Some("number") => quote!(::kubegen::__private::cel::Shape::Num),
        Some("boolean") => quote!(::kubegen::__private::cel::Shape::Bool),
        Some("array") => match crate::shapes::item_type(ty) {
            Some(item) => {
                let inner = shape(item, &[], false);
                quote!(::kubegen::__private::cel::Shape::List(&#inner))
            }
            None => any,
        },
        Some("object") => match last_segment(ty) {
            Some((_, Some(value))) => {
                let inner = shape(&value, &[], false);
                quote!(::kubegen::__private::cel::Shape::Map(&#inner))
            }
            _ => any,
        },
        _ => any,
    }
}
