//! `#[kubegen::webhook(name = "vfoo.example.com", path = "/validate-...", ...)]`: the
//! typed spelling of `+kubebuilder:webhook`. The attribute leaves its item untouched; it
//! is checked at compile time with kubegen-core's parser, the one `codegen-cli
//! manifests` runs on both spellings, and manifests reads it from the source.

use kubegen_core::webhook::{Typed, from_typed};
use proc_macro2::TokenStream;
use syn::spanned::Spanned;
use syn::{Expr, ExprArray, ExprLit, Lit};

use crate::errors::Errors;

pub fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    let mut pairs = Vec::new();
    let span = args.span();
    let parser = syn::meta::parser(|meta| {
        let key = meta.path.get_ident().map(|i| i.to_string()).unwrap_or_default();
        let expr: Expr = meta.value()?.parse()?;
        if kubegen_core::webhook::marker_argument(&key).is_none() {
            // The parser words it (with the closest argument); said here, at the key.
            if let Err(e) = from_typed(vec![(key.clone(), Typed::Bool(true))]) {
                errors.push(meta.path.span(), e.to_string());
            }
            return Ok(());
        }
        let value = match &expr {
            Expr::Lit(ExprLit { lit: Lit::Str(s), .. }) => Typed::Str(s.value()),
            Expr::Lit(ExprLit { lit: Lit::Bool(b), .. }) => Typed::Bool(b.value),
            Expr::Lit(ExprLit { lit: Lit::Int(n), .. }) => Typed::Int(n.base10_parse()?),
            Expr::Array(ExprArray { elems, .. }) => {
                let mut items = Vec::new();
                for e in elems {
                    match e {
                        Expr::Lit(ExprLit { lit: Lit::Str(s), .. }) => items.push(s.value()),
                        other => {
                            errors.push(other.span(), format!("`{key}` takes a list of strings: `{key} = [\"...\"]`"))
                        }
                    }
                }
                Typed::List(items)
            }
            other => {
                errors.push(other.span(), format!("`{key}` takes a string, a bool, a number or a list of strings"));
                return Ok(());
            }
        };
        pairs.push((key, value));
        Ok(())
    });
    if let Err(e) = syn::parse::Parser::parse2(parser, args) {
        errors.push_syn(e);
    } else if errors.is_empty()
        && let Err(e) = from_typed(pairs)
    {
        errors.push(span, e.to_string());
    }
    let errors = errors.into_compile_errors();
    quote::quote!(#errors #item)
}
