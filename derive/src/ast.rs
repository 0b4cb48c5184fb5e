//! The item a derive stands on, parsed whole before anything is checked — serde_derive's
//! first room. Every marker of the item, its fields and its variants is read here, once,
//! its parse errors reported once; the checks (`check`, and `model`'s lowering, which checks
//! each value it lowers) read this tree and fill in each node's lowered markers; the
//! emitters read only what was checked.

use syn::{Data, DeriveInput};

use crate::errors::Errors;
use crate::markers::registry::Target;
use crate::markers::{Parsed, parse_attrs};
use crate::model::Lowered;

/// The derived item.
pub struct Container<'a> {
    pub input: &'a DeriveInput,
    /// The item's own markers, parsed for the targets its derive allows.
    pub markers: Parsed,
    pub body: Body<'a>,
}

/// A struct's fields, an enum's variants, or a union (which has no serde form).
pub enum Body<'a> {
    Struct(Fields<'a>),
    Enum(Vec<Variant<'a>>),
    Union(&'a syn::DataUnion),
}

/// The fields of a struct or a variant, in order.
pub struct Fields<'a> {
    /// Their syntax (named, tuple or unit).
    pub syn: &'a syn::Fields,
    pub fields: Vec<Field<'a>>,
}

/// One field with its markers.
pub struct Field<'a> {
    pub field: &'a syn::Field,
    pub markers: Parsed,
    /// Its markers lowered to the schema node's, by the check room (`None` until then, and
    /// when it has none).
    pub lowered: Option<Lowered>,
}

/// One enum variant with its markers and its fields'.
pub struct Variant<'a> {
    pub variant: &'a syn::Variant,
    pub markers: Parsed,
    pub lowered: Option<Lowered>,
    pub fields: Fields<'a>,
}

impl<'a> Container<'a> {
    /// Parses the whole item: the item's markers for the targets `allowed` (`place` says
    /// where it stands, for errors), then each field's and variant's.
    pub fn parse(input: &'a DeriveInput, allowed: &[Target], place: &str, errors: &mut Errors) -> Self {
        let markers = parse_attrs(&input.attrs, allowed, place, errors);
        let body = match &input.data {
            Data::Struct(s) => Body::Struct(Fields::parse(&s.fields, errors)),
            Data::Enum(e) => Body::Enum(
                e.variants
                    .iter()
                    .map(|v| Variant {
                        variant: v,
                        markers: parse_attrs(&v.attrs, &[], &format!("on variant `{}`", v.ident), errors),
                        lowered: None,
                        fields: Fields::parse(&v.fields, errors),
                    })
                    .collect(),
            ),
            Data::Union(u) => Body::Union(u),
        };
        Container { input, markers, body }
    }

    /// A struct's fields (`None` for an enum or a union).
    pub fn struct_fields(&self) -> Option<&Fields<'a>> {
        match &self.body {
            Body::Struct(fields) => Some(fields),
            _ => None,
        }
    }
}

impl<'a> Fields<'a> {
    fn parse(fields: &'a syn::Fields, errors: &mut Errors) -> Self {
        let fields_parsed = fields
            .iter()
            .map(|f| {
                let place = match &f.ident {
                    Some(i) => format!("on field `{i}`"),
                    None => "on a tuple field".to_string(),
                };
                let markers = parse_attrs(&f.attrs, &[Target::Field, Target::Schema], &place, errors);
                Field { field: f, markers, lowered: None }
            })
            .collect();
        Fields { syn: fields, fields: fields_parsed }
    }

    /// Named fields (a struct with braces), with their markers.
    pub fn named(&self) -> Option<&[Field<'a>]> {
        matches!(self.syn, syn::Fields::Named(_)).then_some(self.fields.as_slice())
    }
}

impl Field<'_> {
    /// How errors name it: "field `x`", or "the field" in a tuple.
    pub fn described(&self) -> String {
        match &self.field.ident {
            Some(i) => format!("field `{i}`"),
            None => "the field".to_string(),
        }
    }
}
