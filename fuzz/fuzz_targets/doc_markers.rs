//! A doc comment as the derive reads it: every `+marker` line through the marker
//! registry into the marker model, the rest as the description. Also kubegen-core's
//! lookups a doc-comment line goes through (`by_doc`, the argument splitter).

#![no_main]

use kubegen_core::markers::{args, registry};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let doc = syn::LitStr::new(text, proc_macro2::Span::call_site());
    let attr: syn::Attribute = syn::parse_quote!(#[doc = #doc]);
    kubegen_fuzz::parse_everywhere(&[attr]);
    for line in text.lines() {
        let line = line.trim_start().trim_start_matches('+');
        if let Some((_, rest)) = registry::by_doc(line) {
            for arg in args::split_args(rest.trim_start_matches([':', '='])) {
                let _ = (args::list(&arg), args::unquote(&arg));
            }
        }
    }
});
