//! `impl JsonSchema` for a type with markers.
//!
//! schemars already reads every serde attribute correctly; re-implementing that would be
//! a second, drifting copy of serde's rules. So the derive emits a hidden mirror of the
//! type — same fields and types, same serde attributes, the doc comment reduced to its
//! description, each node's markers attached as a schemars transform — derives schemars'
//! `JsonSchema` on the mirror, and forwards the user's type to it.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{Attribute, Data, DeriveInput, Fields};

use crate::errors::Errors;
use crate::markers::registry::Target;
use crate::markers::{Parsed, parse_attrs};
use crate::model::schema_markers;
use crate::shapes;

/// Attributes schemars' derive understands; everything else stays off the mirror.
fn keep(attr: &Attribute) -> bool {
    ["serde", "schemars", "cfg", "validate", "garde"].iter().any(|k| attr.path().is_ident(k))
}

fn node_attrs(parsed: &Parsed, errors: &mut Errors) -> TokenStream {
    let mut out = TokenStream::new();
    if let Some(d) = &parsed.description {
        out.extend(quote!(#[schemars(description = #d)]));
    }
    if let Some(doc) = schema_markers(parsed, errors) {
        let json = doc.to_string();
        out.extend(quote!(#[schemars(transform = ::kubegen::__private::Markers(#json))]));
    }
    out
}

fn mirror_fields(fields: &Fields, errors: &mut Errors) -> TokenStream {
    let one = |f: &syn::Field, errors: &mut Errors| {
        let place = match &f.ident {
            Some(i) => format!("on field `{i}`"),
            None => "on a tuple field".to_string(),
        };
        let parsed = parse_attrs(&f.attrs, &[Target::Field, Target::Schema], &place, errors);
        let kept = f.attrs.iter().filter(|a| keep(a));
        let extra = node_attrs(&parsed, errors);
        let ty = &f.ty;
        match &f.ident {
            Some(ident) => quote!(#(#kept)* #extra #ident: #ty),
            None => quote!(#(#kept)* #extra #ty),
        }
    };
    match fields {
        Fields::Named(named) => {
            let fs: Vec<_> = named.named.iter().map(|f| one(f, errors)).collect();
            quote!({ #(#fs,)* })
        }
        Fields::Unnamed(unnamed) => {
            let fs: Vec<_> = unnamed.unnamed.iter().map(|f| one(f, errors)).collect();
            quote!(( #(#fs,)* ))
        }
        Fields::Unit => quote!(),
    }
}

/// The schema derive for `input`. `type_markers` are the already parsed markers of the
/// type itself (the caller decides which targets they may have).
pub fn expand(input: &DeriveInput, type_markers: &Parsed, errors: &mut Errors) -> TokenStream {
    let name = &input.ident;
    let mirror = format_ident!("__KubegenSchema{}", name);
    let name_str = name.to_string();
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let generics = &input.generics;
    let container_attrs = input.attrs.iter().filter(|a| keep(a));
    let type_attrs = node_attrs(type_markers, errors);
    shapes::check(input, errors);

    let (body, default_impl) = match &input.data {
        Data::Struct(s) => {
            let fields = mirror_fields(&s.fields, errors);
            let semi = if matches!(s.fields, Fields::Named(_)) { quote!() } else { quote!(;) };
            // `#[serde(default)]` on the container makes schemars read each field's
            // default off `Default::default()`: give the mirror the user's values.
            let default_impl = if crate::serde_attrs::has(&input.attrs, "default")
                && crate::serde_attrs::value(&input.attrs, "default").is_none()
            {
                let destructure = match &s.fields {
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
            } else {
                quote!()
            };
            (quote!(struct #mirror #generics #where_clause #fields #semi), default_impl)
        }
        Data::Enum(e) => {
            let variants: Vec<_> = e
                .variants
                .iter()
                .map(|v| {
                    let place = format!("on variant `{}`", v.ident);
                    let parsed = parse_attrs(&v.attrs, &[], &place, errors);
                    let kept = v.attrs.iter().filter(|a| keep(a));
                    let extra = node_attrs(&parsed, errors);
                    let ident = &v.ident;
                    let fields = mirror_fields(&v.fields, errors);
                    let discriminant = v.discriminant.as_ref().map(|(eq, d)| quote!(#eq #d));
                    quote!(#(#kept)* #extra #ident #fields #discriminant)
                })
                .collect();
            (quote!(enum #mirror #generics #where_clause { #(#variants,)* }), quote!())
        }
        Data::Union(u) => {
            errors.push(u.union_token.span, "a union has no serde representation; use a struct or an enum");
            return quote!();
        }
    };

    let mut where_clause = where_clause.cloned().unwrap_or_else(|| syn::parse_quote!(where));
    where_clause
        .predicates
        .push(syn::parse_quote!(#mirror #ty_generics: ::kubegen::__private::schemars::JsonSchema));

    quote! {
        const _: () = {
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
                    ::std::borrow::Cow::Borrowed(::core::concat!(::core::module_path!(), "::", #name_str))
                }
                fn json_schema(generator: &mut ::kubegen::__private::schemars::SchemaGenerator) -> ::kubegen::__private::schemars::Schema {
                    <#mirror #ty_generics as ::kubegen::__private::schemars::JsonSchema>::json_schema(generator)
                }
            }
        };
    }
}
