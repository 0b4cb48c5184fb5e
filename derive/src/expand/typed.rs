//! A node's checked markers handed to the structural pass: the typed `NodeMarkers` the
//! derive made, serialized once here and read back there (`kubegen::__private::Markers`),
//! with no Rust that rebuilds them fact by fact.

use kubegen_core::schema::markers::NodeMarkers;
use proc_macro2::TokenStream;
use quote::quote;

/// `markers` as the structural pass reads them back (`kubegen::__private::Markers`).
pub fn markers_json(markers: &NodeMarkers) -> String {
    // `NodeMarkers` holds JSON values and strings only: it serializes.
    serde_json::to_string(markers).unwrap_or_default()
}

/// The `#[schemars(transform = ...)]` that hands `markers` to the structural pass.
pub fn typed_markers(markers: &NodeMarkers) -> TokenStream {
    let json = markers_json(markers);
    quote!(#[schemars(transform = ::kubegen::__private::Markers(#json))])
}
