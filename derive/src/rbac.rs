//! `#[kubegen::rbac(groups = ["apps"], resources = ["deployments"], verbs = ["get"])]`:
//! the typed spelling of `+kubebuilder:rbac`. The attribute leaves its item untouched;
//! it exists to be checked at compile time, with kubegen-core's reading and check of both
//! spellings (`RbacRule::from_typed`), which `codegen-cli manifests` runs on the source.

use kubegen_core::rbac::{RbacError, RbacRule, check_verb, typed_argument, unknown_typed};
use proc_macro2::TokenStream;
use syn::spanned::Spanned;
use syn::{Expr, ExprArray, ExprLit, Lit};

use crate::errors::Errors;

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
    let mut pairs = Vec::new();
    let parser = syn::meta::parser(|meta| {
        let key = meta.path.get_ident().map(|i| i.to_string()).unwrap_or_default();
        let expr: Expr = meta.value()?.parse()?;
        // Each error at what it is about: the key, the value, the verb.
        let Some(arg) = typed_argument(&key) else {
            errors.push(meta.path.span(), unknown_typed(&key).to_string());
            return Ok(());
        };
        let values = match strings(&expr) {
            Some(values) if arg.list || matches!(expr, Expr::Lit(_)) => values,
            _ if arg.list => {
                errors.push(expr.span(), format!("`{key}` takes a list of strings: `{key} = [\"...\"]`"));
                return Ok(());
            }
            _ => {
                errors.push(expr.span(), format!("`{key}` takes a string: `{key} = \"...\"`"));
                return Ok(());
            }
        };
        if key == "verbs" {
            for (verb, span) in &values {
                if let Err(e) = check_verb(verb) {
                    errors.push(*span, e.to_string());
                }
            }
        }
        pairs.push((key, values.into_iter().map(|(v, _)| v).collect()));
        Ok(())
    });
    let span = args.span();
    if let Err(e) = syn::parse::Parser::parse2(parser, args) {
        errors.push_syn(e);
    } else {
        match RbacRule::from_typed(pairs) {
            Err(RbacError::MissingVerbs) => errors.push(span, "#[kubegen::rbac] needs `verbs = [\"get\", ...]`"),
            // Reported above, at the verb or the key.
            Err(RbacError::UnknownVerb { .. } | RbacError::UnknownTypedArgument { .. }) | Ok(_) => {}
            Err(e) => errors.push(span, e.to_string()),
        }
    }
    let checked = errors.into_compile_errors();
    quote::quote!(#checked #item)
}
