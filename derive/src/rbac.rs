//! `#[kubegen::rbac(groups = ["apps"], resources = ["deployments"], verbs = ["get"])]`:
//! the typed spelling of `+kubebuilder:rbac`. The attribute leaves its item untouched;
//! it exists to be checked at compile time. `codegen-cli manifests` reads it from the
//! source, as it reads the doc-comment spelling.

use proc_macro2::TokenStream;
use syn::spanned::Spanned;
use syn::{Expr, ExprArray, ExprLit, Lit};

use kubegen_core::rbac::VERBS;

use crate::errors::Errors;

const LIST_KEYS: &[&str] = &["groups", "resources", "resource_names", "verbs", "urls"];
const STRING_KEYS: &[&str] = &["namespace", "role_name"];

fn strings(expr: &Expr) -> Option<Vec<(String, proc_macro2::Span)>> {
    match expr {
        Expr::Lit(ExprLit { lit: Lit::Str(s), .. }) => Some(vec![(s.value(), s.span())]),
        Expr::Array(ExprArray { elems, .. }) => elems
            .iter()
            .map(|e| match e {
                Expr::Lit(ExprLit { lit: Lit::Str(s), .. }) => Some((s.value(), s.span())),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

pub fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    let mut has_verbs = false;
    let parser = syn::meta::parser(|meta| {
        let key = meta.path.get_ident().map(|i| i.to_string()).unwrap_or_default();
        let expr: Expr = meta.value()?.parse()?;
        if LIST_KEYS.contains(&key.as_str()) {
            let Some(values) = strings(&expr) else {
                errors.push(expr.span(), format!("`{key}` takes a list of strings: `{key} = [\"...\"]`"));
                return Ok(());
            };
            if key == "verbs" {
                has_verbs = true;
                for (verb, span) in values {
                    if !VERBS.contains(&verb.as_str()) {
                        errors.push(
                            span,
                            format!("`{verb}` is not a verb the API server knows; use one of {}", VERBS.join(", ")),
                        );
                    }
                }
            }
        } else if STRING_KEYS.contains(&key.as_str()) {
            if !matches!(expr, Expr::Lit(ExprLit { lit: Lit::Str(_), .. })) {
                errors.push(expr.span(), format!("`{key}` takes a string: `{key} = \"...\"`"));
            }
        } else {
            let known = [LIST_KEYS, STRING_KEYS].concat().join(", ");
            let hint = crate::markers::registry::suggest(&key, LIST_KEYS.iter().chain(STRING_KEYS).copied())
                .map(|s| format!("; did you mean `{s}`?"))
                .unwrap_or_default();
            errors.push(
                meta.path.span(),
                format!("`{key}` is not an argument of #[kubegen::rbac] (it takes {known}){hint}"),
            );
        }
        Ok(())
    });
    let span = args.span();
    if let Err(e) = syn::parse::Parser::parse2(parser, args) {
        errors.push_syn(e);
    } else if !has_verbs {
        errors.push(span, "#[kubegen::rbac] needs `verbs = [\"get\", ...]`");
    }
    let checked = errors.into_compile_errors();
    quote::quote!(#checked #item)
}
