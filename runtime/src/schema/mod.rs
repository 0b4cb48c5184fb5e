//! Schemas for CRDs: schemars describes the JSON serde reads; this module makes that
//! description structural and applies the kubebuilder markers the derive collected.

pub(crate) mod markers;
mod structural;

pub use structural::structural;

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::Value;

/// The structural schema of `T`: every subschema inlined, `null` and `Option` folded,
/// markers applied. This is what a CRD version carries for `T`.
pub fn schema_for<T: JsonSchema + ?Sized>() -> Value {
    structural(raw_schema_for::<T>())
}

/// The schema schemars generates for `T` with every subschema inlined, before the
/// structural pass. Recursive types keep a `$ref`, which the structural pass resolves.
pub fn raw_schema_for<T: JsonSchema + ?Sized>() -> Value {
    let mut generator = SchemaSettings::draft2020_12()
        .with(|s| {
            s.inline_subschemas = true;
            s.meta_schema = None;
            s.transforms.clear();
        })
        .into_generator();
    generator.subschema_for::<T>().to_value()
}
