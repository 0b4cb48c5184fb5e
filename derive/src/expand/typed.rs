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
    match set {
        Set::Type(s) => {
            let s = text(s);
            quote!(#p::Set::Type(#s))
        }
        Set::Pattern(s) => {
            let s = text(s);
            quote!(#p::Set::Pattern(#s))
        }
        Set::Format(s) => {
            let s = text(s);
            quote!(#p::Set::Format(#s))
        }
        Set::Title(s) => {
            let s = text(s);
            quote!(#p::Set::Title(#s))
        }
        Set::Description(s) => {
            let s = text(s);
            quote!(#p::Set::Description(#s))
        }
        Set::Minimum(n) => {
            let n = number(n);
            quote!(#p::Set::Minimum(#n))
        }
        Set::Maximum(n) => {
            let n = number(n);
            quote!(#p::Set::Maximum(#n))
        }
        Set::MultipleOf(n) => {
            let n = number(n);
            quote!(#p::Set::MultipleOf(#n))
        }
        Set::ExclusiveMinimum(b) => quote!(#p::Set::ExclusiveMinimum(#b)),
        Set::ExclusiveMaximum(b) => quote!(#p::Set::ExclusiveMaximum(#b)),
        Set::Nullable(b) => quote!(#p::Set::Nullable(#b)),
        Set::PreserveUnknownFields(b) => quote!(#p::Set::PreserveUnknownFields(#b)),
        Set::EmbeddedResource(b) => quote!(#p::Set::EmbeddedResource(#b)),
        Set::MinLength(n) => quote!(#p::Set::MinLength(#n)),
        Set::MaxLength(n) => quote!(#p::Set::MaxLength(#n)),
        Set::MinItems(n) => quote!(#p::Set::MinItems(#n)),
        Set::MaxItems(n) => quote!(#p::Set::MaxItems(#n)),
        Set::MinProperties(n) => quote!(#p::Set::MinProperties(#n)),
        Set::MaxProperties(n) => quote!(#p::Set::MaxProperties(#n)),
        Set::Enum(values) => {
            let values = values.iter().map(value);
            quote!(#p::Set::Enum(::std::vec![#(#values),*]))
        }
        Set::ListType(t) => {
            let t = match t {
                ListType::Atomic => quote!(Atomic),
                ListType::Set => quote!(Set),
                ListType::Map => quote!(Map),
            };
            quote!(#p::Set::ListType(#p::ListType::#t))
        }
        Set::MapType(t) => {
            let t = match t {
                MapType::Atomic => quote!(Atomic),
                MapType::Granular => quote!(Granular),
            };
            quote!(#p::Set::MapType(#p::MapType::#t))
        }
        Set::ListMapKeys(keys) => {
            let keys = keys.iter().map(|k| text(k));
            quote!(#p::Set::ListMapKeys(::std::vec![#(#keys),*]))
        }
        Set::IntOrString => quote!(#p::Set::IntOrString),
        Set::NonEmpty => quote!(#p::Set::NonEmpty),
        Set::Default(v) => {
            let v = value(v);
            quote!(#p::Set::Default(#v))
        }
        Set::Example(v) => {
            let v = value(v);
            quote!(#p::Set::Example(#v))
        }
        Set::ExternalDocs(docs) => {
            let docs = map(docs);
            quote!(#p::Set::ExternalDocs(#docs))
        }
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
