//! Markers: the registry every spelling is parsed from.

pub mod args;
pub mod comment;
pub mod registry;

pub use registry::{Arg, ITEMS_PREFIX, MARKERS, MarkerDef, SubArg, Target};
