//! Errors are collected, not returned at the first one: a user with three bad markers
//! sees three errors in one build, each at its marker (serde_derive's `Ctxt`). Errors
//! collected must be turned into compile errors, or the collection's drop panics: an
//! error collected and never reported is a marker dropped in silence, the derive's bug.
//! Markers are read once (`crate::ast`), so no reading's errors are ever set aside.

use proc_macro2::{Span, TokenStream};

pub struct Errors(Option<Vec<syn::Error>>);

impl Default for Errors {
    fn default() -> Self {
        Errors(Some(Vec::new()))
    }
}

impl Errors {
    fn list(&mut self) -> &mut Vec<syn::Error> {
        self.0.get_or_insert_with(Vec::new)
    }

    pub fn push(&mut self, span: Span, message: impl std::fmt::Display) {
        self.list().push(syn::Error::new(span, message));
    }

    pub fn push_syn(&mut self, error: syn::Error) {
        self.list().push(error);
    }

    pub fn is_empty(&self) -> bool {
        self.0.as_ref().is_none_or(Vec::is_empty)
    }

    /// Every error, as `compile_error!` invocations at their spans.
    pub fn into_compile_errors(mut self) -> TokenStream {
        self.0.take().unwrap_or_default().into_iter().map(|e| e.to_compile_error()).collect()
    }
}

impl Drop for Errors {
    fn drop(&mut self) {
        if self.0.as_ref().is_some_and(|errors| !errors.is_empty()) && !std::thread::panicking() {
            panic!("kubegen-derive: errors were collected and never reported (a bug in kubegen-derive)");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[should_panic(expected = "never reported")]
    fn errors_never_reported_are_the_derives_bug() {
        let mut errors = Errors::default();
        errors.push(Span::call_site(), "a marker's error");
    }

    #[test]
    fn reported_or_none_are_fine() {
        let mut reported = Errors::default();
        reported.push(Span::call_site(), "shown");
        assert!(!reported.into_compile_errors().is_empty());
        let _none = Errors::default();
    }
}
