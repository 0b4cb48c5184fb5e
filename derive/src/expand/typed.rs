//! A node's checked markers handed to the structural pass: the typed `NodeMarkers` the
//! derive made, serialized once here and read back there (`kubegen::__private::Markers`),
//! with no Rust that rebuilds them fact by fact.

use kubegen_core::schema::markers::NodeMarkers;
use proc_macro2::TokenStream;
use quote::quote;

/// The `#[schemars(transform = ...)]` that hands `markers` to the structural pass.
pub fn typed_markers(markers: &NodeMarkers) -> TokenStream {
    // `NodeMarkers` holds JSON values and strings only: it serializes.
    let json = serde_json::to_string(markers).unwrap_or_default();
    quote!(#[schemars(transform = ::kubegen::__private::Markers(#json))])
}
