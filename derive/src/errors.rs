//! Errors are collected, not returned at the first one: a user with three bad markers
//! sees three errors in one build, each at its marker (serde_derive's `Ctxt`).

use proc_macro2::{Span, TokenStream};

#[derive(Default)]
pub struct Errors(Vec<syn::Error>);

impl Errors {
    pub fn push(&mut self, span: Span, message: impl std::fmt::Display) {
        self.0.push(syn::Error::new(span, message));
    }

    pub fn push_syn(&mut self, error: syn::Error) {
        self.0.push(error);
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn into_compile_errors(self) -> TokenStream {
        self.0.into_iter().map(|e| e.to_compile_error()).collect()
    }
}
