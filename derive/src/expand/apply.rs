//! Apply configurations (`#[kube(apply_config)]`, `+kubebuilder:ac:generate=true`):
//! for a type `X`, `XApply` with every field optional, serializing only what was set,
//! with a builder method per field — client-go's applyconfigurations (KEP-2155) for
//! server-side apply, where sending a field means owning it.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, GenericArgument, PathArguments, Type};

use crate::serde_attrs;

/// Rust types serialized as they are (no apply configuration of their own).
const PLAIN: &[&str] = &[
    "String",
    "str",
    "bool",
    "char",
    "i8",
    "i16",
    "i32",
    "i64",
    "i128",
    "isize",
    "u8",
    "u16",
    "u32",
    "u64",
    "u128",
    "usize",
    "f32",
    "f64",
    "Value",
    "BTreeSet",
    "HashSet",
    "Quantity",
    "IntOrString",
    "Time",
    "MicroTime",
    "ByteString",
];

fn generic_args(ty: &Type) -> Option<(String, Vec<&Type>)> {
    let Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    let args = match &last.arguments {
        PathArguments::AngleBracketed(a) => {
            a.args.iter().filter_map(|g| if let GenericArgument::Type(t) = g { Some(t) } else { None }).collect()
        }
        _ => Vec::new(),
    };
    Some((last.ident.to_string(), args))
}

/// The type a field holds in an apply configuration, without the outer `Option`.
fn apply_type(ty: &Type) -> TokenStream {
    match generic_args(ty) {
        Some((name, args)) if (name == "Option" || name == "Box") && args.len() == 1 => apply_type(args[0]),
        Some((name, args)) if name == "Vec" && args.len() == 1 => {
            let inner = apply_type(args[0]);
            quote!(::std::vec::Vec<#inner>)
        }
        Some((name, args)) if (name == "BTreeMap" || name == "HashMap") && args.len() == 2 => {
            let (key, value) = (args[0], apply_type(args[1]));
            quote!(::std::collections::BTreeMap<#key, #value>)
        }
        // Scalars, and Kubernetes' own types: their fields are optional already, as in
        // client-go's apply configurations (a type of yours with the name of one of
        // theirs is sent whole too).
        Some((name, _))
            if PLAIN.contains(&name.as_str()) || kubegen_core::k8s::K8S_TYPES.binary_search(&name.as_str()).is_ok() =>
        {
            quote!(#ty)
        }
        // Spanned at the field's type, so a missing apply configuration is reported there.
        Some(_) => quote_spanned!(ty.span()=> <#ty as ::kubegen::apply::ApplyConfig>::Apply),
        // Tuples, arrays, references: as they are.
        None => quote!(#ty),
    }
}

/// `XApply` for a struct with named fields, or `ApplyConfig` with `Apply = Self` for
/// anything else (an enum is sent whole).
pub fn expand(input: &DeriveInput) -> TokenStream {
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let Data::Struct(data) = &input.data else {
        return quote! {
            #[automatically_derived]
            impl #impl_generics ::kubegen::apply::ApplyConfig for #ident #ty_generics #where_clause {
                type Apply = Self;
            }
        };
    };
    let Fields::Named(fields) = &data.fields else {
        return quote! {
            #[automatically_derived]
            impl #impl_generics ::kubegen::apply::ApplyConfig for #ident #ty_generics #where_clause {
                type Apply = Self;
            }
        };
    };
    let apply = format_ident!("{}Apply", ident);
    let vis = &input.vis;
    let body = fields_and_builders(&input.attrs, fields.named.iter(), &[]);
    let (decls, builders) = (body.decls, body.builders);
    let doc = format!(
        "Apply configuration of [`{ident}`]: every field optional, only what is set is sent, so a server-side apply owns exactly those fields."
    );
    quote! {
        #[doc = #doc]
        #[derive(::kubegen::__private::serde::Serialize, ::core::clone::Clone, ::core::fmt::Debug, ::core::default::Default)]
        #[serde(crate = "::kubegen::__private::serde")]
        #vis struct #apply {
            #(#decls)*
        }

        impl #apply {
            #(#builders)*
        }

        #[automatically_derived]
        impl ::kubegen::apply::ApplyConfig for #ident {
            type Apply = #apply;
        }
    }
}

struct Body {
    decls: Vec<TokenStream>,
    builders: Vec<TokenStream>,
}

/// Optional fields with serde's wire names, and a builder method for each.
fn fields_and_builders<'a>(
    container: &[syn::Attribute],
    fields: impl Iterator<Item = &'a syn::Field>,
    skip: &[&str],
) -> Body {
    let rename_all = serde_attrs::value(container, "rename_all");
    let mut decls = Vec::new();
    let mut builders = Vec::new();
    for f in fields {
        let Some(name) = &f.ident else { continue };
        if serde_attrs::has(&f.attrs, "skip") || serde_attrs::has(&f.attrs, "skip_serializing") {
            continue;
        }
        let wire = serde_attrs::field_name(name, &f.attrs, rename_all.as_deref());
        if skip.contains(&wire.as_str()) {
            continue;
        }
        let ty = apply_type(&f.ty);
        let field_doc = format!("Sets `{wire}`.");
        if serde_attrs::has(&f.attrs, "flatten") {
            decls.push(quote! {
                #[serde(flatten, skip_serializing_if = "::core::option::Option::is_none")]
                pub #name: ::core::option::Option<#ty>,
            });
        } else {
            decls.push(quote! {
                #[serde(rename = #wire, skip_serializing_if = "::core::option::Option::is_none")]
                pub #name: ::core::option::Option<#ty>,
            });
        }
        builders.push(quote! {
            #[doc = #field_doc]
            pub fn #name(mut self, value: impl ::core::convert::Into<#ty>) -> Self {
                self.#name = ::core::option::Option::Some(value.into());
                self
            }
        });
    }
    Body { decls, builders }
}

/// The root's apply configuration: `apiVersion` and `kind` always, the metadata that
/// names the object, and the spec (or the flattened data) and status as set.
pub fn expand_root(
    vis: &syn::Visibility,
    root: &syn::Ident,
    api_version: &str,
    kind: &str,
    data: RootData<'_>,
    status: Option<&syn::Path>,
) -> TokenStream {
    let apply = format_ident!("{}Apply", root);
    let object_meta = quote!(::kubegen::__private::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta);
    let (data_decls, data_builders) = match data {
        RootData::Spec(spec) => part("spec", spec, false, "Sets the spec (only the fields set in it are sent)."),
        RootData::Flattened(spec) => {
            part("data", spec, true, "Sets the object's data (only the fields set in it are sent).")
        }
        RootData::Fields(input) => {
            let Data::Struct(s) = &input.data else { return quote!() };
            let body = fields_and_builders(&input.attrs, s.fields.iter(), &["metadata", "apiVersion", "kind"]);
            let (decls, builders) = (body.decls, body.builders);
            (quote!(#(#decls)*), quote!(#(#builders)*))
        }
    };
    let (status_decl, status_builder) = match status {
        Some(status) => part("status", status, false, "Sets the status, for an apply through the status subresource."),
        None => (quote!(), quote!()),
    };
    let metadata_builders = metadata_builders(api_version, kind);
    let doc = format!(
        "Apply configuration of a [`{root}`]: send it with `kubegen::apply::ApiApplyExt::server_side_apply`; the fields left unset are neither sent nor owned."
    );
    quote! {
        #[doc = #doc]
        #[derive(::kubegen::__private::serde::Serialize, ::core::clone::Clone, ::core::fmt::Debug, ::core::default::Default)]
        #[serde(crate = "::kubegen::__private::serde")]
        #vis struct #apply {
            #[serde(rename = "apiVersion")]
            api_version: &'static str,
            kind: &'static str,
            /// The object's name, namespace, labels and annotations (only what is set is sent).
            pub metadata: #object_meta,
            #data_decls
            #status_decl
        }

        impl #apply {
            #metadata_builders

            #data_builders
            #status_builder
        }

        #[automatically_derived]
        impl ::kubegen::apply::ResourceApply for #apply {
            type Resource = #root;
            fn name(&self) -> &str {
                self.metadata.name.as_deref().unwrap_or_default()
            }
        }
    }
}

/// The root apply configuration's constructor and its metadata builders.
fn metadata_builders(api_version: &str, kind: &str) -> TokenStream {
    let object_meta = quote!(::kubegen::__private::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta);
    quote! {
        /// An apply configuration for the object named `name`.
        pub fn new(name: impl ::core::convert::Into<::std::string::String>) -> Self {
            Self {
                api_version: #api_version,
                kind: #kind,
                metadata: #object_meta { name: ::core::option::Option::Some(name.into()), ..::core::default::Default::default() },
                ..::core::default::Default::default()
            }
        }

        /// In this namespace.
        pub fn namespace(mut self, namespace: impl ::core::convert::Into<::std::string::String>) -> Self {
            self.metadata.namespace = ::core::option::Option::Some(namespace.into());
            self
        }

        /// With this label (owned by this field manager from now on).
        pub fn label(mut self, key: impl ::core::convert::Into<::std::string::String>, value: impl ::core::convert::Into<::std::string::String>) -> Self {
            self.metadata.labels.get_or_insert_with(::core::default::Default::default).insert(key.into(), value.into());
            self
        }

        /// With this annotation (owned by this field manager from now on).
        pub fn annotation(mut self, key: impl ::core::convert::Into<::std::string::String>, value: impl ::core::convert::Into<::std::string::String>) -> Self {
            self.metadata.annotations.get_or_insert_with(::core::default::Default::default).insert(key.into(), value.into());
            self
        }
    }
}

/// One optional part of the root (`spec`, flattened `data`, `status`) holding `ty`'s
/// apply configuration, and its builder method.
fn part(name: &str, ty: &impl quote::ToTokens, flatten: bool, doc: &str) -> (TokenStream, TokenStream) {
    let name = format_ident!("{name}");
    let apply = quote!(<#ty as ::kubegen::apply::ApplyConfig>::Apply);
    let serde = if flatten {
        quote!(#[serde(flatten, skip_serializing_if = "::core::option::Option::is_none")])
    } else {
        quote!(#[serde(skip_serializing_if = "::core::option::Option::is_none")])
    };
    (
        quote! {
            #serde
            pub #name: ::core::option::Option<#apply>,
        },
        quote! {
            #[doc = #doc]
            pub fn #name(mut self, #name: #apply) -> Self {
                self.#name = ::core::option::Option::Some(#name);
                self
            }
        },
    )
}

/// Where the root's data sits.
pub enum RootData<'a> {
    /// Under `spec`, of this type (kube-rs style).
    Spec(&'a syn::Ident),
    /// Beside `metadata`, the fields of this type (`no_spec`).
    Flattened(&'a syn::Ident),
    /// The root struct's own fields (kubebuilder style).
    Fields(&'a DeriveInput),
}
