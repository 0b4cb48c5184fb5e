//! Markers: the parser of both spellings, reading the registry (one definition per
//! marker) that kubegen-core keeps for the derive, the library and the CLI.

mod parse;
pub use kubegen_core::markers::registry;

pub use parse::{DEFAULT_REF, Marker, MarkerValue, Parsed, parse_attrs};
