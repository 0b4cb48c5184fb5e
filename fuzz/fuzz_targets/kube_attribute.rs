//! Typed attributes as the derive reads them: the text of an item's attributes
//! (`#[kube(minimum = 1, items(max_length = 63))]`, doc comments, `#[serde(...)]`) parsed by
//! syn, then by the derive's marker parser into the marker model.

#![no_main]

use libfuzzer_sys::fuzz_target;
use syn::parse::Parser;

fuzz_target!(|text: &str| {
    let Ok(attrs) = syn::Attribute::parse_outer.parse_str(text) else { return };
    kubegen_fuzz::parse_everywhere(&attrs);
});
