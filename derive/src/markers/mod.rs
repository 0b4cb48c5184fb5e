//! Markers: the registry (one definition per marker) and the parser of both spellings.

mod parse;
pub mod registry;

pub use parse::{DEFAULT_REF, Marker, MarkerValue, Parsed, parse_attrs};
