//! A type's schema as data, where the derive can read every serde attribute that shapes
//! it: a struct of named fields and an enum of unit variants, not generic, with serde's
//! plain attributes only (names, defaults, `skip`, `skip_serializing_if`). For those the
//! derive writes a table (`kubegen::__private::Object`) and one call that builds from it
//! what schemars' derive on the mirror builds, in the same order — far less code per
//! type than a schemars derive (each type's own `json_schema` body). Anything else keeps
//! the mirror ([`super::schema`]), whose schemars derive reads serde in full.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Attribute, Fields};

use super::schema::with_schema_stand_ins;
use crate::ast::{Body, Container, Field, Variant};
use crate::markers::Parsed;
use crate::model::Lowered;
use crate::serde_attrs::{self, Entry};
use kubegen_core::schema::markers::NodeMarkers;

/// serde's container attributes that leave a plain struct's or enum's schema to this
/// table (`bound`, `crate`, `expecting` change no schema; `rename` only the type's name,
/// which the schema takes from the Rust name).
const CONTAINER: &[&str] = &["rename_all", "rename", "default", "deny_unknown_fields", "crate", "expecting", "bound"];
/// serde's field attributes the table reads.
const FIELD: &[&str] = &["rename", "alias", "default", "skip", "skip_serializing_if"];
/// serde's variant attributes the table reads.
const VARIANT: &[&str] = &["rename", "alias"];

/// An attribute only schemars' derive reads in full (or one that removes the item).
fn foreign(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| ["schemars", "validate", "garde", "cfg", "cfg_attr"].iter().any(|k| a.path().is_ident(k)))
}

/// The attributes' serde entries when each is one the table reads.
fn plain(attrs: &[Attribute], allowed: &[&str]) -> Option<Vec<Entry>> {
    if foreign(attrs) {
        return None;
    }
    let entries = serde_attrs::strict_entries(attrs)?;
    entries.iter().all(|e| allowed.contains(&e.key.as_str())).then_some(entries)
}

fn get<'e>(entries: &'e [Entry], key: &str) -> Option<&'e Entry> {
    entries.iter().rev().find(|e| e.key == key)
}

/// serde's `default` among `entries`: none, bare (`Some(None)`), or a function's path;
/// `Err` for a value that is no path.
fn default_of(entries: &[Entry]) -> Result<Option<Option<syn::ExprPath>>, ()> {
    match get(entries, "default") {
        None => Ok(None),
        Some(e) if e.value.is_none() => Ok(Some(None)),
        Some(e) => e.path().map(|p| Some(Some(p))).ok_or(()),
    }
}

/// Whether `ty` names `Self`, which the table (an item of its own) cannot.
fn names_self(ty: &syn::Type) -> bool {
    fn walk(tokens: TokenStream) -> bool {
        tokens.into_iter().any(|t| match t {
            proc_macro2::TokenTree::Ident(i) => i == "Self",
            proc_macro2::TokenTree::Group(g) => walk(g.stream()),
            _ => false,
        })
    }
    walk(quote!(#ty))
}

/// The `JsonSchema::json_schema` body for `ast` as data, or `None` where the mirror must
/// build it. `type_node` and `struct_rules` are what the check room made of the type's
/// own markers.
pub fn body(
    ast: &Container,
    type_markers: &Parsed,
    type_node: Option<&Lowered>,
    struct_rules: &[kubegen_core::schema::markers::Rule],
) -> Option<TokenStream> {
    let input = ast.input;
    if !input.generics.params.is_empty() || input.generics.where_clause.is_some() || type_markers.foreign_schema {
        return None;
    }
    let container = plain(&input.attrs, CONTAINER)?;
    let rename_all = match get(&container, "rename_all") {
        Some(e) => Some(e.value.clone()?),
        None => None,
    };
    let deny = get(&container, "deny_unknown_fields").is_some();
    let mut marks = marks(type_markers, type_node);
    if !struct_rules.is_empty() {
        marks.push(markers_mark(&NodeMarkers { rules: struct_rules.to_vec(), ..Default::default() }));
    }
    let p = quote!(::kubegen::__private);
    match &ast.body {
        Body::Struct(fields) => {
            let Fields::Named(_) = fields.syn else { return None };
            let closed = fields.fields.is_empty();
            let node = node(type_markers, &marks, closed);
            let default = default_of(&container).ok()?;
            let object = object(Some(&input.ident), &fields.fields, rename_all.as_deref(), default, deny, node)?;
            Some(quote! {
                static __KUBEGEN_OBJECT: #p::Object = #object;
                #p::object_schema(generator, &__KUBEGEN_OBJECT)
            })
        }
        Body::Enum(variants) => {
            if variants.is_empty() || get(&container, "default").is_some() {
                return None;
            }
            let variants =
                variants.iter().map(|v| variant(v, rename_all.as_deref(), deny)).collect::<Option<Vec<_>>>()?;
            let node = node(type_markers, &marks, false);
            Some(quote! {
                static __KUBEGEN_VARIANTS: &[#p::Variant] = &[#(#variants),*];
                static __KUBEGEN_NODE: #p::Node = #node;
                #p::enum_schema(generator, __KUBEGEN_VARIANTS, &__KUBEGEN_NODE)
            })
        }
        Body::Union(_) => None,
    }
}

/// A variant of an externally tagged enum as data, where the table can write it: a unit
/// variant, or one of named fields; serde's name and alias only.
fn variant(v: &Variant, rename_all: Option<&str>, deny_unknown_fields: bool) -> Option<TokenStream> {
    let p = quote!(::kubegen::__private);
    let plain = plain(&v.variant.attrs, VARIANT)?;
    if v.markers.foreign_schema {
        return None;
    }
    let name = match get(&plain, "rename") {
        Some(e) => e.value.clone()?,
        None => serde_attrs::apply_variant_rule(&serde_attrs::unraw(&v.variant.ident), rename_all)?,
    };
    let own = marks(&v.markers, v.lowered.as_ref());
    match v.variant.fields {
        // schemars writes a unit variant with a description or markers as a `oneOf`
        // branch of its own, the others as one string enum.
        Fields::Unit if v.markers.description.is_none() && v.lowered.is_none() => {
            Some(quote!(#p::Variant::Unit(#name, ::core::option::Option::None)))
        }
        Fields::Unit => {
            let node = node(&v.markers, &own, false);
            Some(quote!(#p::Variant::Unit(#name, ::core::option::Option::Some(#node))))
        }
        Fields::Named(_) => {
            // A variant's fields take no container rule (serde's `rename_all` renames
            // variants) and no container default.
            let empty = Parsed::default();
            let object = object(None, &v.fields.fields, None, None, deny_unknown_fields, node(&empty, &[], false))?;
            let node = node(&v.markers, &own, false);
            Some(quote!(#p::Variant::Struct(#name, #object, #node)))
        }
        Fields::Unnamed(_) => None,
    }
}

/// The `Object` of a struct's fields (`name`: the struct, whose `Default` a container
/// default reads) or a struct variant's.
fn object(
    name: Option<&syn::Ident>,
    fields: &[Field],
    rename_all: Option<&str>,
    container_default: Option<Option<syn::ExprPath>>,
    deny_unknown_fields: bool,
    type_node: TokenStream,
) -> Option<TokenStream> {
    let p = quote!(::kubegen::__private);
    let s = quote!(#p::schemars);
    let mut properties = Vec::new();
    let mut defaults = Vec::new();
    let mut any_default = false;
    for field in fields {
        let f = field.field;
        let ident = f.ident.as_ref()?;
        let attrs = plain(&f.attrs, FIELD)?;
        if field.markers.foreign_schema || names_self(&f.ty) {
            return None;
        }
        if get(&attrs, "skip").is_some() {
            continue;
        }
        let wire = match get(&attrs, "rename") {
            Some(e) => e.value.clone()?,
            None => serde_attrs::apply_field_rule(&serde_attrs::unraw(ident), rename_all)?,
        };
        let own_default = default_of(&attrs).ok()?;
        let skip_if = match get(&attrs, "skip_serializing_if") {
            Some(e) => Some(e.path()?),
            None => None,
        };
        let ty = with_schema_stand_ins(&f.ty);
        let span = f.ty.span();
        // The default serde fills in, as schemars reads it: the field's own, else the
        // container's `Default` (one value for all fields), and none where
        // `skip_serializing_if` would leave it out.
        let value = match &own_default {
            Some(None) => Some(quote_spanned!(span=> &<#ty as ::core::default::Default>::default())),
            Some(Some(path)) => Some(quote!(&#path())),
            None if container_default.is_some() => Some(quote!(&__kubegen_default.#ident)),
            None => None,
        };
        any_default |= value.is_some();
        defaults.push(match value {
            None => quote!(::core::option::Option::None),
            Some(value) => match &skip_if {
                Some(skip) => quote!({
                    let __kubegen_value = #value;
                    if #skip(__kubegen_value) {
                        ::core::option::Option::None
                    } else {
                        #p::MaybeSerialize(__kubegen_value).maybe_to_value()
                    }
                }),
                None => quote!(#p::MaybeSerialize(#value).maybe_to_value()),
            },
        });
        let has_default = container_default.is_some() || own_default.is_some();
        let skip_serializing_if = skip_if.is_some();
        let field_node = node(&field.markers, &marks(&field.markers, field.lowered.as_ref()), false);
        properties.push(quote_spanned! {span=>
            #p::Property {
                name: #wire,
                schema: #s::SchemaGenerator::subschema_for::<#ty>,
                is_option: <#ty as #s::JsonSchema>::_schemars_private_is_option,
                has_default: #has_default,
                skip_serializing_if: #skip_serializing_if,
                node: #field_node,
            }
        });
    }
    let defaults = if !any_default {
        quote!(::core::option::Option::None)
    } else {
        let container = match container_default {
            Some(None) => {
                let name = name?;
                quote!(let __kubegen_default = <#name as ::core::default::Default>::default();)
            }
            Some(Some(path)) => {
                let name = name?;
                quote!(let __kubegen_default: #name = #path();)
            }
            None => quote!(),
        };
        quote!(::core::option::Option::Some({
            fn __kubegen_defaults() -> ::std::vec::Vec<::core::option::Option<#p::serde_json::Value>> {
                #[allow(unused_imports)]
                use #p::NotSerialize as _;
                #container
                ::std::vec![#(#defaults),*]
            }
            __kubegen_defaults
        }))
    };
    Some(quote! {
        #p::Object {
            properties: &[#(#properties),*],
            deny_unknown_fields: #deny_unknown_fields,
            defaults: #defaults,
            node: #type_node,
        }
    })
}

/// A node's `kubegen::__private::Node`: its description, closed mark and marks.
fn node(parsed: &Parsed, marks: &[TokenStream], closed: bool) -> TokenStream {
    let p = quote!(::kubegen::__private);
    let description = match &parsed.description {
        Some(d) => quote!(::core::option::Option::Some(#d)),
        None => quote!(::core::option::Option::None),
    };
    quote!(#p::Node { description: #description, closed: #closed, marks: &[#(#marks),*] })
}

fn markers_mark(markers: &NodeMarkers) -> TokenStream {
    let json = super::typed::markers_json(markers);
    quote!(::kubegen::__private::Mark::Markers(#json))
}

/// A node's markers and `+default=ref(PATH)` as the mirror's transforms carry them.
fn marks(parsed: &Parsed, lowered: Option<&Lowered>) -> Vec<TokenStream> {
    let mut out = Vec::new();
    let Some(lowered) = lowered else { return out };
    if !lowered.markers.is_empty() {
        out.push(markers_mark(&lowered.markers));
    }
    if let Some(path) = super::schema::default_ref_path(parsed, lowered) {
        out.push(quote!(::kubegen::__private::Mark::DefaultRef({
            fn __kubegen_default_ref() -> ::core::option::Option<::kubegen::__private::serde_json::Value> {
                ::kubegen::__private::serde_json::to_value(&#path).ok()
            }
            __kubegen_default_ref
        })));
    }
    out
}
