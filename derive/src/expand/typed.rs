//! A node's checked markers as Rust that builds them: the typed `NodeMarkers` the derive
//! made, emitted as a function beside the schema mirror (schemars' `transform` attribute
//! takes only a path or a call in a lean build, so the constructors live in the function
//! and the attribute names it).

use kubegen_core::schema::markers::{ListType, MapType, NodeMarkers, Set};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use serde_json::{Map, Number, Value};

/// The `#[schemars(transform = ...)]` that hands `markers` to the structural pass, and
/// the function that builds them, pushed onto `fns`.
pub fn typed_markers(markers: &NodeMarkers, fns: &mut Vec<TokenStream>) -> TokenStream {
    let name = format_ident!("__kubegen_markers_{}", fns.len());
    let body = markers_tokens(markers);
    fns.push(quote! {
        #[allow(non_snake_case, clippy::all)]
        fn #name() -> ::kubegen::__private::markers::NodeMarkers { #body }
    });
    quote!(#[schemars(transform = ::kubegen::__private::TypedMarkers(#name))])
}

fn markers_tokens(m: &NodeMarkers) -> TokenStream {
    let p = quote!(::kubegen::__private::markers);
    let sets = m.set.iter().map(set_tokens);
    let rules = m.rules.iter().map(super::resource::rule_tokens);
    let required = match m.required {
        Some(b) => quote!(::core::option::Option::Some(#b)),
        None => quote!(::core::option::Option::None),
    };
    let items = match &m.items {
        Some(items) => {
            let items = markers_tokens(items);
            quote!(::core::option::Option::Some(::std::boxed::Box::new(#items)))
        }
        None => quote!(::core::option::Option::None),
    };
    let (skip_description, schemaless) = (m.skip_description, m.schemaless);
    quote!(#p::NodeMarkers {
        set: ::std::vec![#(#sets),*],
        rules: ::std::vec![#(#rules),*],
        required: #required,
        items: #items,
        skip_description: #skip_description,
        schemaless: #schemaless,
    })
}

fn text(s: &str) -> TokenStream {
    quote!(::std::string::String::from(#s))
}

fn set_tokens(set: &Set) -> TokenStream {
    let p = quote!(::kubegen::__private::markers);
    // The variant's name and its payload; unit variants have none.
    let (variant, payload): (&str, Option<TokenStream>) = match set {
        Set::Type(s) => ("Type", Some(text(s))),
        Set::Pattern(s) => ("Pattern", Some(text(s))),
        Set::Format(s) => ("Format", Some(text(s))),
        Set::Title(s) => ("Title", Some(text(s))),
        Set::Description(s) => ("Description", Some(text(s))),
        Set::Minimum(n) => ("Minimum", Some(number(n))),
        Set::Maximum(n) => ("Maximum", Some(number(n))),
        Set::MultipleOf(n) => ("MultipleOf", Some(number(n))),
        Set::ExclusiveMinimum(b) => ("ExclusiveMinimum", Some(quote!(#b))),
        Set::ExclusiveMaximum(b) => ("ExclusiveMaximum", Some(quote!(#b))),
        Set::Nullable(b) => ("Nullable", Some(quote!(#b))),
        Set::PreserveUnknownFields(b) => ("PreserveUnknownFields", Some(quote!(#b))),
        Set::EmbeddedResource(b) => ("EmbeddedResource", Some(quote!(#b))),
        Set::MinLength(n) => ("MinLength", Some(quote!(#n))),
        Set::MaxLength(n) => ("MaxLength", Some(quote!(#n))),
        Set::MinItems(n) => ("MinItems", Some(quote!(#n))),
        Set::MaxItems(n) => ("MaxItems", Some(quote!(#n))),
        Set::MinProperties(n) => ("MinProperties", Some(quote!(#n))),
        Set::MaxProperties(n) => ("MaxProperties", Some(quote!(#n))),
        Set::Enum(values) => {
            let values = values.iter().map(value);
            ("Enum", Some(quote!(::std::vec![#(#values),*])))
        }
        Set::ListType(t) => {
            let t = format_ident!(
                "{}",
                match t {
                    ListType::Atomic => "Atomic",
                    ListType::Set => "Set",
                    ListType::Map => "Map",
                }
            );
            ("ListType", Some(quote!(#p::ListType::#t)))
        }
        Set::MapType(t) => {
            let t = format_ident!(
                "{}",
                match t {
                    MapType::Atomic => "Atomic",
                    MapType::Granular => "Granular",
                }
            );
            ("MapType", Some(quote!(#p::MapType::#t)))
        }
        Set::ListMapKeys(keys) => {
            let keys = keys.iter().map(|k| text(k));
            ("ListMapKeys", Some(quote!(::std::vec![#(#keys),*])))
        }
        Set::IntOrString => ("IntOrString", None),
        Set::NonEmpty => ("NonEmpty", None),
        Set::Default(v) => ("Default", Some(value(v))),
        Set::Example(v) => ("Example", Some(value(v))),
        Set::ExternalDocs(docs) => ("ExternalDocs", Some(map(docs))),
    };
    let variant = format_ident!("{variant}");
    match payload {
        Some(payload) => quote!(#p::Set::#variant(#payload)),
        None => quote!(#p::Set::#variant),
    }
}

fn number(n: &Number) -> TokenStream {
    let json = quote!(::kubegen::__private::serde_json);
    if let Some(i) = n.as_i64() {
        quote!(#json::Number::from(#i))
    } else if let Some(u) = n.as_u64() {
        quote!(#json::Number::from(#u))
    } else {
        // A JSON number is finite.
        let f = n.as_f64().unwrap_or_default();
        quote!(::kubegen::__private::float(#f))
    }
}

fn value(v: &Value) -> TokenStream {
    let json = quote!(::kubegen::__private::serde_json);
    match v {
        Value::Null => quote!(#json::Value::Null),
        Value::Bool(b) => quote!(#json::Value::Bool(#b)),
        Value::Number(n) => {
            let n = number(n);
            quote!(#json::Value::Number(#n))
        }
        Value::String(s) => {
            let s = text(s);
            quote!(#json::Value::String(#s))
        }
        Value::Array(items) => {
            let items = items.iter().map(value);
            quote!(#json::Value::Array(::std::vec![#(#items),*]))
        }
        Value::Object(fields) => {
            let fields = map(fields);
            quote!(#json::Value::Object(#fields))
        }
    }
}

fn map(fields: &Map<String, Value>) -> TokenStream {
    let json = quote!(::kubegen::__private::serde_json);
    let entries = fields.iter().map(|(k, v)| {
        let (k, v) = (text(k), value(v));
        quote!((#k, #v))
    });
    quote!(<#json::Map<::std::string::String, #json::Value> as ::core::iter::FromIterator<_>>::from_iter([#(#entries),*]))
}
