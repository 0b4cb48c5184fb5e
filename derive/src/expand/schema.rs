//! `impl JsonSchema` for a type with markers.
//!
//! schemars already reads every serde attribute correctly; re-implementing that would be
//! a second, drifting copy of serde's rules. So the derive emits a hidden mirror of the
//! type — same fields and types, same serde attributes, the doc comment reduced to its
//! description, each node's markers attached as a schemars transform — derives schemars'
//! `JsonSchema` on the mirror, and forwards the user's type to it.

use crate::markers::registry::Key;
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Attribute, DeriveInput, Fields};

use super::typed::typed_markers;
use crate::ast::{Body, Container, Field};
use crate::errors::Errors;
use crate::markers::Parsed;
use crate::model::{Lowered, schema_markers};
use crate::shapes;
use kubegen_core::schema::markers::{NodeMarkers, Rule};

/// Attributes schemars' derive understands; everything else stays off the mirror.
fn keep(attr: &Attribute) -> bool {
    ["serde", "schemars", "cfg", "validate", "garde"].iter().any(|k| attr.path().is_ident(k))
}

/// A node's description and its checked markers, as the mirror's schemars attributes.
fn node_attrs(parsed: &Parsed, lowered: Option<&Lowered>) -> TokenStream {
    let mut out = TokenStream::new();
    if let Some(d) = &parsed.description {
        out.extend(quote!(#[schemars(description = #d)]));
    }
    if let Some(lowered) = lowered {
        if !lowered.markers.is_empty() {
            out.extend(typed_markers(&lowered.markers));
        }
        // `+default=ref(PATH)`: the constant's serde JSON, applied after the other markers.
        if let Some(path) = default_ref_path(parsed, lowered) {
            // No closure: schemars' derive parses the expression with syn, which reads
            // closures only with its `full` feature, which a lean build need not enable.
            out.extend(quote!(#[schemars(transform = ::kubegen::__private::DefaultRef(
                ::kubegen::__private::serde_json::to_value(&#path).ok()
            ))]));
        }
    }
    out
}

/// The constant `+default=ref(PATH)` names, its tokens at the marker's span, so an
/// unknown constant is reported there.
pub(crate) fn default_ref_path(parsed: &Parsed, lowered: &Lowered) -> Option<TokenStream> {
    let path = syn::parse_str::<syn::Path>(lowered.default_ref.as_deref()?).ok()?;
    let span = parsed.get(Key::DefaultJson).map_or_else(proc_macro2::Span::call_site, |m| m.span);
    Some(
        quote::ToTokens::into_token_stream(path)
            .into_iter()
            .map(|mut t| {
                t.set_span(span);
                t
            })
            .collect(),
    )
}

/// The field's type with foreign types that have no `JsonSchema` replaced by kubegen's
/// stand-ins (the mirror only describes, it never holds a value): k8s-openapi's
/// `ByteString`, Go's `[]byte`, is `type: string, format: byte`, however deeply nested.
pub(crate) fn with_schema_stand_ins(ty: &syn::Type) -> syn::Type {
    use syn::visit_mut::VisitMut;
    struct StandIns;
    impl VisitMut for StandIns {
        fn visit_type_mut(&mut self, ty: &mut syn::Type) {
            if let syn::Type::Path(p) = ty
                && p.qself.is_none()
                && p.path.segments.last().is_some_and(|s| s.ident == "ByteString" && s.arguments.is_empty())
            {
                *ty = syn::parse_quote!(::kubegen::__private::ByteStringSchema);
                return;
            }
            syn::visit_mut::visit_type_mut(self, ty);
        }
    }
    let mut ty = ty.clone();
    StandIns.visit_type_mut(&mut ty);
    ty
}

/// `TypeMeta`, by any path (`kube::core::TypeMeta`, `kube_core::TypeMeta`, imported).
fn is_type_meta(ty: &syn::Type) -> bool {
    matches!(ty, syn::Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "TypeMeta"))
}

/// The lowered markers of each field (and each variant's), checked whole before any
/// token is written.
fn lower_fields(fields: &mut crate::ast::Fields, errors: &mut Errors) {
    for f in &mut fields.fields {
        f.lowered = schema_markers(&f.markers, Some(&f.field.ty), &f.described(), errors);
    }
}

fn mirror_fields(fields: &crate::ast::Fields) -> TokenStream {
    let one = |field: &Field| {
        let f = field.field;
        let kept = f.attrs.iter().filter(|a| keep(a));
        let mut extra = node_attrs(&field.markers, field.lowered.as_ref());
        // Go's inlined `metav1.TypeMeta`: apiVersion and kind, which every object has and
        // the API server describes itself; the CRD's schema leaves them to it.
        if crate::serde_attrs::has(&f.attrs, "flatten") && is_type_meta(&f.ty) {
            extra = quote!(#[schemars(skip)]);
        }
        let ty = with_schema_stand_ins(&f.ty);
        match &f.ident {
            Some(ident) => quote!(#(#kept)* #extra #ident: #ty),
            None => quote!(#(#kept)* #extra #ty),
        }
    };
    let fs: Vec<_> = fields.fields.iter().map(one).collect();
    match fields.syn {
        Fields::Named(_) => quote!({ #(#fs,)* }),
        Fields::Unnamed(_) => quote!(( #(#fs,)* )),
        Fields::Unit => quote!(),
    }
}

/// Rules and checks that need the struct's fields together: an optional immutable field
/// is immutable once set (a rule on the struct, as controller-gen writes it); one-of
/// groups name optional fields; CEL rules on the struct name fields it has.
fn struct_rules(
    input: &DeriveInput,
    fields: &crate::ast::Fields,
    type_markers: &Parsed,
    errors: &mut Errors,
) -> Vec<Rule> {
    let Some(named) = fields.named() else { return Vec::new() };
    let rename_all = crate::serde_attrs::value(&input.attrs, "rename_all");
    let container_default = crate::serde_attrs::has(&input.attrs, "default");
    let flattened = named.iter().any(|f| crate::serde_attrs::has(&f.field.attrs, "flatten"));
    let mut wire: Vec<(String, bool)> = Vec::new();
    let mut rules: Vec<Rule> = Vec::new();
    let mut cel_fields = Vec::new();
    for Field { field: f, markers: parsed, .. } in named {
        let Some(ident) = &f.ident else { continue };
        if crate::serde_attrs::has(&f.attrs, "skip") || crate::serde_attrs::has(&f.attrs, "flatten") {
            continue;
        }
        let name = crate::serde_attrs::field_name(ident, &f.attrs, rename_all.as_deref());
        let optional = shapes::is_optional(f, container_default) && parsed.get(Key::Required).is_none()
            || parsed.get(Key::Optional).is_some_and(|m| m.flag());
        if optional && parsed.get(Key::Immutable).is_some_and(|m| m.flag()) {
            let cel = kubegen_cel::names::escape(&name).unwrap_or_else(|| name.clone());
            rules.push(Rule {
                rule: format!("!has(oldSelf.{cel}) || has(self.{cel})"),
                message: Some(format!("field {name} is immutable once set")),
                ..Default::default()
            });
        }
        let field_schema = if parsed.foreign_schema {
            crate::cel::unknown()
        } else {
            crate::cel::node_schema(Some(&f.ty), &parsed.markers)
        };
        cel_fields.push((name.clone(), field_schema));
        wire.push((name, optional));
    }
    let wire = crate::check::Wire { ty: &input.ident, fields: &wire, schemas: &cel_fields, flattened };
    crate::check::one_of_groups(&wire, type_markers, errors);
    if !flattened {
        crate::check::type_rules(&wire, type_markers, crate::serde_attrs::has(&input.attrs, "transparent"), errors);
    }
    rules
}

/// What the checks leave for the tokens beside the tree's lowered fields: the type's own
/// lowered markers and the rules that need its fields together.
struct Checked {
    type_node: Option<Lowered>,
    struct_rules: Vec<Rule>,
}

/// The schema derive for `ast`, in serde_derive's rooms: the item was parsed whole
/// ([`Container::parse`]); every check runs here over all of it, then the tokens are
/// written from what was checked. `type_markers` are the type's own markers (the caller
/// decides which of the item's markers shape its schema).
pub fn expand(ast: &mut Container, type_markers: &Parsed, errors: &mut Errors) -> TokenStream {
    let input = ast.input;
    crate::cel::begin(!input.generics.params.is_empty(), &input.ident);
    match check(ast, type_markers, errors) {
        Some(checked) => emit(ast, type_markers, checked),
        None => quote!(),
    }
}

/// The check room: the type's markers, its shape, the rules over its fields together,
/// then each field's and variant's markers, lowered. `None` for a union.
fn check(ast: &mut Container, type_markers: &Parsed, errors: &mut Errors) -> Option<Checked> {
    let input = ast.input;
    let type_node = schema_markers(type_markers, None, &format!("`{}`", input.ident), errors);
    shapes::check(input, errors);
    let struct_rules = match ast.struct_fields() {
        Some(fields) => struct_rules(input, fields, type_markers, errors),
        None => Vec::new(),
    };
    match &mut ast.body {
        Body::Struct(fields) => lower_fields(fields, errors),
        Body::Enum(variants) => {
            for v in variants {
                let place = format!("on variant `{}`", v.variant.ident);
                v.lowered = schema_markers(&v.markers, None, &place, errors);
                lower_fields(&mut v.fields, errors);
            }
        }
        Body::Union(u) => {
            errors.push(u.union_token.span, "a union has no serde representation; use a struct or an enum");
            return None;
        }
    }
    Some(Checked { type_node, struct_rules })
}

/// The emit room: the CEL table and the `JsonSchema` impl, from the checked tree — the
/// schema as data where the derive reads every serde attribute that shapes it
/// ([`super::schema_data`]), else the mirror with its schemars attributes and a
/// forwarding impl.
fn emit(ast: &Container, type_markers: &Parsed, checked: Checked) -> TokenStream {
    let input = ast.input;
    let name = &input.ident;
    let name_str = name.to_string();
    let mut fns = crate::cel::obligations();
    fns.push(cel_fields(ast, type_markers));
    let type_id = crate::cel::type_id(&name_str);
    if let Some(data) = super::schema_data::body(ast, type_markers, checked.type_node.as_ref(), &checked.struct_rules) {
        let s = quote!(::kubegen::__private::schemars);
        return quote! {
            const _: () = {
                #(#fns)*

                #[automatically_derived]
                impl #s::JsonSchema for #name {
                    fn schema_name() -> ::std::borrow::Cow<'static, str> {
                        ::std::borrow::Cow::Borrowed(#name_str)
                    }
                    fn schema_id() -> ::std::borrow::Cow<'static, str> {
                        ::std::borrow::Cow::Borrowed(#type_id)
                    }
                    fn json_schema(generator: &mut #s::SchemaGenerator) -> #s::Schema {
                        #data
                    }
                }
            };
        };
    }
    let mirror = format_ident!("__KubegenSchema{}", name);
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let container_attrs = input.attrs.iter().filter(|a| keep(a));
    let mut type_attrs = node_attrs(type_markers, checked.type_node.as_ref());
    if !checked.struct_rules.is_empty() {
        type_attrs.extend(typed_markers(&NodeMarkers { rules: checked.struct_rules, ..Default::default() }));
    }
    // `struct FooStatus {}` holds nothing, as controller-gen's closed `type: object`
    // says; without the mark the structural pass keeps an empty object open.
    if ast.struct_fields().and_then(|f| f.named()).is_some_and(<[Field]>::is_empty) {
        let closed = kubegen_core::schema::CLOSED_KEY;
        type_attrs.extend(quote!(#[schemars(extend(#closed = true))]));
    }
    let Some((body, default_impl)) = mirror_type(ast, &mirror) else { return quote!() };

    let mut where_clause = where_clause.cloned().unwrap_or_else(|| syn::parse_quote!(where));
    where_clause.predicates.push(syn::parse_quote!(#mirror #ty_generics: ::kubegen::__private::schemars::JsonSchema));

    quote! {
        const _: () = {
            #(#fns)*

            #[derive(::kubegen::__private::schemars::JsonSchema)]
            #[schemars(crate = "::kubegen::__private::schemars", rename = #name_str)]
            #[allow(dead_code, non_camel_case_types)]
            #(#container_attrs)*
            #type_attrs
            #body

            #default_impl

            #[automatically_derived]
            impl #impl_generics ::kubegen::__private::schemars::JsonSchema for #name #ty_generics #where_clause {
                fn schema_name() -> ::std::borrow::Cow<'static, str> {
                    <#mirror #ty_generics as ::kubegen::__private::schemars::JsonSchema>::schema_name()
                }
                fn schema_id() -> ::std::borrow::Cow<'static, str> {
                    ::std::borrow::Cow::Borrowed(#type_id)
                }
                // A `#[serde(transparent)]` newtype is its field's schema, inline as
                // schemars' own derive has it (else it became a named type of its
                // field's name, `string`, in the clients); `#[schemars(inline)]` too.
                fn inline_schema() -> bool {
                    <#mirror #ty_generics as ::kubegen::__private::schemars::JsonSchema>::inline_schema()
                }
                fn json_schema(generator: &mut ::kubegen::__private::schemars::SchemaGenerator) -> ::kubegen::__private::schemars::Schema {
                    <#mirror #ty_generics as ::kubegen::__private::schemars::JsonSchema>::json_schema(generator)
                }
            }
        };
    }
}

/// The mirror type schemars derives the schema of (`mirror`: the input with its markers
/// as schemars attributes), and, where `#[serde(default)]` asks for it, its `Default`
/// from the input's. `None` for a union, which has no serde representation.
fn mirror_type(ast: &Container, mirror: &syn::Ident) -> Option<(TokenStream, TokenStream)> {
    let input = ast.input;
    let generics = &input.generics;
    let where_clause = &input.generics.where_clause;
    match &ast.body {
        Body::Struct(fields) => {
            let tokens = mirror_fields(fields);
            let semi = if matches!(fields.syn, Fields::Named(_)) { quote!() } else { quote!(;) };
            Some((
                quote!(struct #mirror #generics #where_clause #tokens #semi),
                mirror_default(input, mirror, fields.syn),
            ))
        }
        Body::Enum(variants) => {
            let variants: Vec<_> = variants
                .iter()
                .map(|v| {
                    let kept = v.variant.attrs.iter().filter(|a| keep(a));
                    let extra = node_attrs(&v.markers, v.lowered.as_ref());
                    let ident = &v.variant.ident;
                    let fields = mirror_fields(&v.fields);
                    let discriminant = v.variant.discriminant.as_ref().map(|(eq, d)| quote!(#eq #d));
                    quote!(#(#kept)* #extra #ident #fields #discriminant)
                })
                .collect();
            Some((quote!(enum #mirror #generics #where_clause { #(#variants,)* }), quote!()))
        }
        // Refused by the check room.
        Body::Union(_) => None,
    }
}

/// `#[serde(default)]` on the container makes schemars read each field's default off
/// `Default::default()`: the mirror's `Default` gives it the user's values.
fn mirror_default(input: &DeriveInput, mirror: &syn::Ident, fields: &Fields) -> TokenStream {
    if !crate::serde_attrs::has(&input.attrs, "default") || crate::serde_attrs::value(&input.attrs, "default").is_some()
    {
        return quote!();
    }
    let name = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let destructure = match fields {
        Fields::Named(n) => {
            let ids: Vec<_> = n.named.iter().map(|f| f.ident.clone()).collect();
            quote!(let #name { #(#ids),* } = <#name #ty_generics as ::core::default::Default>::default(); Self { #(#ids),* })
        }
        Fields::Unnamed(u) => {
            let ids: Vec<_> = (0..u.unnamed.len()).map(|i| format_ident!("f{}", i)).collect();
            quote!(let #name ( #(#ids),* ) = <#name #ty_generics as ::core::default::Default>::default(); Self ( #(#ids),* ))
        }
        Fields::Unit => quote!(Self),
    };
    quote! {
        impl #impl_generics ::core::default::Default for #mirror #ty_generics #where_clause {
            fn default() -> Self { #destructure }
        }
    }
}

/// `kubegen::__private::cel::Fields` for a struct with named fields: each field as a CEL
/// rule reads it (its identifiers on the wire and its shape), so rules on other types
/// that read into this one are checked against it at build time. Nothing for a generic
/// struct, an enum, or a type whose unknown fields are kept (a rule may read any).
fn cel_fields(ast: &Container, type_markers: &Parsed) -> TokenStream {
    let input = ast.input;
    let Some(named) = table_fields(ast, type_markers) else { return quote!() };
    let cel = quote!(::kubegen::__private::cel);
    let mut table = TableParts {
        // The transition rules on the type itself.
        transitions: transition_rules(type_markers),
        // `{}`, before each required property without a default.
        size: vec![quote!(#cel::Part::Bytes(2))],
        ..TableParts::default()
    };
    table.placed_rules(&input.ident);
    let rename_all = crate::serde_attrs::value(&input.attrs, "rename_all");
    let container_default = crate::serde_attrs::has(&input.attrs, "default");
    for f in named {
        table.field(f, rename_all.as_deref(), container_default);
    }
    table.tokens(&input.ident)
}

/// The named fields of a struct that gets a table: not a generic struct, an enum, or a
/// type whose unknown fields are kept (a rule may read any).
fn table_fields<'c, 'a>(ast: &'c Container<'a>, type_markers: &Parsed) -> Option<&'c [Field<'a>]> {
    let input = ast.input;
    let named = ast.struct_fields()?.named()?;
    let open = type_markers
        .markers
        .iter()
        .any(|m| matches!(m.def.key, Key::EmbeddedResource | Key::PreserveUnknownFields | Key::Schemaless) && m.flag());
    let skip = !input.generics.params.is_empty() || open || crate::serde_attrs::has(&input.attrs, "transparent");
    (!skip).then_some(named)
}

/// A struct's `kubegen::__private::cel::Table`, in parts (each a list of constant
/// expressions), and the constant assertions that stand beside it.
#[derive(Default)]
struct TableParts {
    entries: Vec<TokenStream>,
    /// The transition rules on the type and on its fields (`Table::transition`).
    transitions: Vec<String>,
    /// The types below its fields (`Table::below`).
    below: Vec<TokenStream>,
    rules: Vec<TokenStream>,
    holds: Vec<TokenStream>,
    size: Vec<TokenStream>,
    placements: Vec<TokenStream>,
}

impl TableParts {
    /// The type's own rules and its fields' (and their items'), checked since the
    /// derive began the type; where one runs more than once, an assertion of its count.
    fn placed_rules(&mut self, name: &syn::Ident) {
        let cel = quote!(::kubegen::__private::cel);
        for p in crate::cel::placed() {
            let (total, most) = (p.total, p.most);
            let rule = quote!(#cel::Cost::rule(#total, #most));
            let node = p.min_size.least();
            let count = match p.count {
                Some(n) => quote!(::core::option::Option::Some(#n)),
                None => quote!(::core::option::Option::None),
            };
            self.rules.push(quote!(#cel::Rule { cost: #rule, node: #node, count: #count }));
            let min = p.min_size.tokens(name);
            let (placed, message, fix) = match p.count {
                Some(1) => continue,
                Some(n) => {
                    let message =
                        format!("it runs once per item, up to {n} times (the maxItems of the lists it stands in)");
                    (quote!(#rule.times(#n)), message, "lower the list's maxItems")
                }
                None => {
                    let message = "it stands below a list without maxItems, where the server runs it as often as its node fits in the largest request (3 MiB over the node's least size in JSON)".to_string();
                    (quote!(#rule.unbounded(#min)), message, "give the list maxItems")
                }
            };
            self.placements.push(over(p.span, &placed, &format!("the API server refuses the CEL rule `{}`: {message}, and its estimated cost times that exceeds the server's budget ({PER_RULE} per rule, {PER_CRD} for all rules of the CRD); {fix}, or make the rule cheaper (maxLength or maxItems on what it reads)", p.rule)));
        }
    }

    /// What field `f` adds: its entries as a rule reads them, the types it holds, its
    /// part of the least size, its transition rules and its assertions.
    fn field(&mut self, field: &Field, rename_all: Option<&str>, container_default: bool) {
        let cel = quote!(::kubegen::__private::cel);
        let (f, parsed) = (field.field, &field.markers);
        let Some(ident) = &f.ident else { return };
        if crate::serde_attrs::has(&f.attrs, "skip") {
            return;
        }
        let name = crate::serde_attrs::field_name(ident, &f.attrs, rename_all);
        counted_costs(f, &name, parsed, &mut self.holds, &mut self.placements);
        self.size.extend(required_size(f, &name, parsed, container_default));
        for ty in crate::shapes::named_types(&f.ty).into_iter().filter(|ty| !crate::cel::is_own(ty)) {
            self.below.push(quote!(#cel::Probe::<#ty>::TABLE));
        }
        if crate::serde_attrs::has(&f.attrs, "flatten") {
            let inner = crate::cel::strip(&f.ty);
            self.entries.push(quote!(#cel::Field {
                ident: "",
                shape: #cel::Shape::Object(#cel::Probe::<#inner>::TABLE),
            }));
            return;
        }
        let shape = crate::cel::shape(&f.ty, &parsed.markers, parsed.foreign_schema);
        for ident in kubegen_cel::names::identifiers(&name) {
            self.entries.push(quote!(#cel::Field { ident: #ident, shape: #shape }));
        }
        self.transitions.extend(transition_rules(parsed));
        self.placements.extend(uncorrelated(f, &name, parsed));
    }

    /// The `Fields` impl of `name` holding the table (a `static` inside the constant:
    /// tables of types that hold each other link each other, which statics may, as `Link`
    /// says), then the assertions.
    fn tokens(self, name: &syn::Ident) -> TokenStream {
        let cel = quote!(::kubegen::__private::cel);
        let TableParts { entries, transitions, below, rules, holds, size, placements } = self;
        let transition = match transitions.first() {
            Some(rule) => quote!(::core::option::Option::Some(#rule)),
            None => quote!(::core::option::Option::None),
        };
        let id = crate::cel::type_id(&name.to_string());
        let crd_wide = crd_wide(name);
        quote! {
            #[allow(unused_imports)]
            use #cel::Unseen as _;
            #[automatically_derived]
            impl #cel::Fields for #name {
                const TABLE: #cel::Link = {
                    static TABLE: #cel::Table = #cel::Table {
                        id: #id,
                        fields: &[#(#entries),*],
                        transition: #transition,
                        below: &[#(#below),*],
                        rules: &[#(#rules),*],
                        holds: &[#(#holds),*],
                        size: &[#(#size),*],
                    };
                    #cel::Link::new(&TABLE)
                };
            }
            #(#placements)*
            #crd_wide
        }
    }
}

/// The assertion that the sum over every field of `name` fits the CRD's budget: each
/// field's own count is asserted where it is declared, the CRD's budget holds all of
/// them at once.
fn crd_wide(name: &syn::Ident) -> TokenStream {
    let cel = quote!(::kubegen::__private::cel);
    let message = format!(
        "the API server refuses a CRD holding `{name}`: the CEL rules of `{name}` and of the types below it, each times how many of them one `{name}` holds (the maxItems or maxProperties of the lists and maps they stand in, or, below one without a bound, as many as fit in the largest request), add up to an estimated cost over the server's budget for all rules of a CRD ({PER_CRD}); lower those bounds, or make the rules cheaper (maxLength or maxItems on what they read)"
    );
    quote_spanned! {name.span()=>
        const _: () = {
            #[allow(unused_imports)]
            use #cel::Unseen as _;
            let fields = <#name as #cel::Fields>::COST.total.saturating_add(<#name as #cel::Fields>::FIXED.total);
            if fields > #cel::PER_CRD_LIMIT {
                ::core::panic!("{}", #message)
            }
        };
    }
}

const PER_RULE: u64 = kubegen_cel::cost::PER_RULE_LIMIT;
const PER_CRD: u64 = kubegen_cel::cost::PER_CRD_LIMIT;

/// The bound of each level of a field's lists and maps, outermost first: its `maxItems`
/// or `maxProperties`, then its items' (`items(max_items = ...)`), and so on.
fn level_bounds(markers: &[crate::markers::Marker]) -> Vec<Option<u64>> {
    use crate::markers::MarkerValue;
    let bound = |ms: &[crate::markers::Marker]| {
        ms.iter().rev().find(|m| matches!(m.def.key, Key::MaxItems | Key::MaxProperties)).and_then(|m| m.count())
    };
    let items = |ms: &[crate::markers::Marker]| -> Vec<crate::markers::Marker> {
        ms.iter()
            .filter_map(|m| match &m.value {
                MarkerValue::Items(nested) if m.def.key == Key::Items => Some(nested.clone()),
                _ => None,
            })
            .flatten()
            .collect()
    };
    let mut out = vec![bound(markers)];
    let mut level = items(markers);
    while !level.is_empty() {
        out.push(bound(&level));
        level = items(&level);
    }
    out
}

/// A constant assertion, at `span`, that the server's budgets hold `cost`.
fn over(span: proc_macro2::Span, cost: &TokenStream, message: &str) -> TokenStream {
    quote_spanned! {span=>
        const _: () = {
            #[allow(unused_imports)]
            use ::kubegen::__private::cel::Unseen as _;
            if #cost.over() {
                ::core::panic!("{}", #message)
            }
        };
    }
}

/// What field `f` adds to its struct's least size in JSON, as the API server reckons it:
/// nothing for a field that is optional or has a default (the server fills those in),
/// else its key and its value's least size. A flattened struct adds its required fields.
/// Where the derive cannot tell, it counts the field as required: a larger least size
/// means fewer values fit in a request, so the estimate never exceeds the server's.
fn required_size(f: &syn::Field, name: &str, parsed: &Parsed, container_default: bool) -> Option<TokenStream> {
    let cel = quote!(::kubegen::__private::cel);
    // schemars keeps a flattened struct's required fields required unless it is an
    // `Option` (a `default` on the field does not change that).
    if crate::serde_attrs::has(&f.attrs, "flatten") {
        if crate::shapes::arguments(&f.ty).is_some_and(|(name, _)| name == "Option") {
            return None;
        }
        let inner = crate::cel::strip(&f.ty);
        return Some(quote!(#cel::Part::Flattened(#cel::Probe::<#inner>::TABLE)));
    }
    let optional = crate::shapes::is_optional(f, container_default) && parsed.get(Key::Required).is_none()
        || parsed.get(Key::Optional).is_some_and(|m| m.flag());
    if optional || parsed.get(Key::Default).is_some() || parsed.get(Key::DefaultJson).is_some() {
        return None;
    }
    let schema = if parsed.foreign_schema {
        crate::cel::unknown()
    } else {
        crate::cel::node_schema(Some(&f.ty), &parsed.markers)
    };
    // A schemaless field (`serde_json::Value`) has no CEL type: the server leaves it out.
    // Written `Value` alone it may be a type of the user's of that name, whose least size
    // the derive cannot tell.
    if schema.reference.is_none() && kubegen_cel::types::of_schema(&schema, "self").is_none() {
        let spelled_out = matches!(crate::cel::strip(&f.ty), syn::Type::Path(p) if p.path.segments.len() > 1);
        return (!spelled_out).then(|| quote!(#cel::Part::Bytes(#cel::UNKNOWN_SIZE)));
    }
    let size = match crate::cel::min_size(&schema) {
        crate::cel::MinSize::Known(n) => quote!(#cel::Least::Bytes(#n)),
        crate::cel::MinSize::Named(ty) if !crate::cel::is_own(&ty) => {
            quote!(#cel::Least::Of(#cel::Probe::<#ty>::TABLE))
        }
        // The type itself (a recursive one): the structural schema keeps unknown fields
        // there, whose least size the derive does not count.
        crate::cel::MinSize::Named(_) | crate::cel::MinSize::Own | crate::cel::MinSize::Unknown => {
            quote!(#cel::Least::Bytes(#cel::UNKNOWN_SIZE))
        }
    };
    let len = name.len() as u64;
    Some(quote!(#cel::Part::Property(#len, #size)))
}

/// What the named types of field `f` add to its struct's `Fields` costs: where the field
/// bounds how many of them it holds, their costs times that count (and the rules below
/// their own unbounded lists as they are); without a bound, every rule as the server
/// counts it below an unbounded list. Where the field holds more than one, a constant
/// assertion that they stay inside the API server's budgets, per rule and per CRD: a rule
/// on a list item's type runs once per item, and the derive of that type judged it once.
fn counted_costs(
    f: &syn::Field,
    name: &str,
    parsed: &Parsed,
    holds: &mut Vec<TokenStream>,
    assertions: &mut Vec<TokenStream>,
) {
    let cel = quote!(::kubegen::__private::cel);
    let flattened = crate::serde_attrs::has(&f.attrs, "flatten");
    for (ty, count) in crate::shapes::counted_types(&f.ty, &level_bounds(&parsed.markers)) {
        // What the type holds of itself the CRD's schema keeps open: nothing counts there.
        if crate::cel::is_own(ty) {
            continue;
        }
        let probe = quote!(#cel::Probe::<#ty>);
        // A flattened struct's own rules land on this struct's node, which the server
        // sizes with this struct's fields: its count below an unbounded list is this
        // struct's to say, and left out here (the whole-CRD check judges it).
        if flattened {
            holds.push(quote!(#cel::Held { of: #probe::TABLE, count: #cel::Count::Flattened }));
            continue;
        }
        let ty_name = quote!(#ty).to_string().replace(' ', "");
        let (placed, message, fix) = match count {
            Some(count) => {
                holds.push(quote!(#cel::Held { of: #probe::TABLE, count: #cel::Count::Up(#count) }));
                if count <= 1 {
                    continue;
                }
                (
                    quote!(#probe::COST.times(#count)),
                    format!("run once per entry of `{name}`, up to {count} times (its maxItems or maxProperties)"),
                    format!("lower the bound on `{name}`"),
                )
            }
            None => {
                holds.push(quote!(#cel::Held { of: #probe::TABLE, count: #cel::Count::Unbounded }));
                (
                    quote!(#probe::UNBOUNDED),
                    format!(
                        "stand below a list or map without a bound in `{name}`, where the server runs each as often as its node fits in the largest request (3 MiB over the node's least size in JSON)"
                    ),
                    format!("give `{name}` a maxItems or maxProperties"),
                )
            }
        };
        let message = format!(
            "the API server refuses the CRD: the CEL rules of `{ty_name}` (and of the types below it) {message}, and their estimated cost times that count exceeds the server's budget ({PER_RULE} per rule, {PER_CRD} for all rules of the CRD); {fix}, or make the rules cheaper (maxLength or maxItems on what they read)"
        );
        assertions.push(over(f.ty.span(), &placed, &message));
    }
}

/// The transition rules `parsed`'s markers write on their node: `validation` rules that read
/// `oldSelf`, and `immutable`'s `self == oldSelf`.
fn transition_rules(parsed: &Parsed) -> Vec<String> {
    parsed
        .markers
        .iter()
        .filter_map(|m| match (&m.value, m.def.key) {
            (crate::markers::MarkerValue::Rule(rule), Key::Validation) => {
                Some(rule.rule.clone()).filter(|r| crate::check::reads_old_self(r))
            }
            (_, Key::Immutable) if m.flag() => Some("self == oldSelf".to_string()),
            _ => None,
        })
        .collect()
}

/// For a field whose values stand under a list that is not a list-map (`Vec<Port>`
/// without `+listType=map`, or any list inside another), a constant assertion that the
/// named types there hold no transition rule: the server pairs such items with no old
/// value, and refuses `oldSelf` on them.
fn uncorrelated(f: &syn::Field, name: &str, parsed: &Parsed) -> Vec<TokenStream> {
    let list_map = parsed.get(Key::ListType).and_then(|m| m.str()) == Some("map");
    crate::shapes::uncorrelated_types(&f.ty, list_map)
        .into_iter()
        // The type itself (`Vec<Self>`): its own transition rules are its own derive's.
        .filter(|(ty, _)| !crate::cel::is_own(ty))
        .map(|(ty, own)| {
            let ty_name = quote!(#ty).to_string().replace(' ', "");
            let message = if own {
                format!(
                    "the API server refuses a transition rule (one reading `oldSelf`) on `{ty_name}` or below it: the items of `{name}` stand in a list that is not a list-map, which the server never pairs with old values; make `{name}` a list-map (`+listType=map` with `+listMapKey=<a required field of {ty_name}>`), or drop the rule"
                )
            } else {
                format!(
                    "the API server refuses a transition rule (one reading `oldSelf`) on `{ty_name}` or below it: in `{name}` it stands in a list inside a map or another list, which the server never pairs with old values (only the items of a list-map are); hold the values in a list-map or a map of `{ty_name}`, or drop the rule"
                )
            };
            let span = f.ty.span();
            quote_spanned! {span=>
                const _: () = {
                    #[allow(unused_imports)]
                    use ::kubegen::__private::cel::Unseen as _;
                    if ::kubegen::__private::cel::Probe::<#ty>::TRANSITION.is_some() {
                        ::core::panic!("{}", #message)
                    }
                };
            }
        })
        .collect()
}

/// A schema that stands in for a type whose markers failed: the build reports the
/// markers' errors, not a cascade of "`X: JsonSchema` is not satisfied" from every type
/// that uses it (serde_derive does the same with its dummy impls).
pub fn stand_in(input: &DeriveInput) -> TokenStream {
    let ident = &input.ident;
    let name = ident.to_string();
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    quote! {
        impl #impl_generics ::kubegen::__private::schemars::JsonSchema for #ident #ty_generics #where_clause {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                ::std::borrow::Cow::Borrowed(#name)
            }
            fn json_schema(_: &mut ::kubegen::__private::schemars::SchemaGenerator) -> ::kubegen::__private::schemars::Schema {
                ::kubegen::__private::schemars::Schema::default()
            }
        }
    }
}
