//! Schemas for CRDs: schemars describes the JSON serde reads; this module makes that
//! description structural and applies the kubebuilder markers the derive collected.

pub(crate) mod markers;
mod structural;

pub use structural::structural;

use schemars::JsonSchema;
use schemars::generate::{SchemaGenerator, SchemaSettings};
use serde_json::Value;

/// The structural schema of `T`: every subschema inlined, `null` and `Option` folded,
/// markers applied. This is what a CRD version carries for `T`.
pub fn schema_for<T: JsonSchema + ?Sized>() -> Value {
    structural(raw_schema_for::<T>())
}

/// The schema schemars generates for `T` with every subschema inlined, before the
/// structural pass. Recursive types keep a `$ref`, which the structural pass resolves.
pub fn raw_schema_for<T: JsonSchema + ?Sized>() -> Value {
    generator().subschema_for::<T>().to_value()
}

/// Not generic, so each kind instantiates only `subschema_for::<T>`.
fn generator() -> SchemaGenerator {
    let mut settings = SchemaSettings::draft2020_12();
    settings.inline_subschemas = true;
    settings.meta_schema = None;
    settings.transforms.clear();
    settings.into_generator()
}
