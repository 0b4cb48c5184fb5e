//! Shapes serde can write that no structural schema can describe, caught at compile time
//! where the types are visible in the source. (Variants holding other user types are
//! checked when the schema is built: there the structural pass falls back to
//! `x-kubernetes-preserve-unknown-fields`, which still accepts what serde writes.)

use quote::ToTokens;
use syn::{Data, DeriveInput, Fields, GenericArgument, PathArguments, Type};

use crate::errors::Errors;
use crate::markers::Marker;
use crate::markers::registry::Key;
use crate::serde_attrs::{self, EnumRepr};

/// The JSON type serde writes for a Rust type, where the source alone tells.
pub fn json_kind(ty: &Type) -> Option<&'static str> {
    match ty {
        Type::Reference(r) => json_kind(&r.elem),
        Type::Array(_) | Type::Slice(_) => Some("array"),
        Type::Tuple(t) if t.elems.is_empty() => Some("null"),
        Type::Tuple(_) => Some("array"),
        Type::Path(p) => {
            let seg = p.path.segments.last()?;
            let inner = || match &seg.arguments {
                PathArguments::AngleBracketed(a) => a.args.iter().find_map(|g| match g {
                    GenericArgument::Type(t) => Some(t),
                    _ => None,
                }),
                _ => None,
            };
            match seg.ident.to_string().as_str() {
                "String" | "str" | "char" => Some("string"),
                "i8" | "i16" | "i32" | "i64" | "i128" | "isize" | "u8" | "u16" | "u32" | "u64" | "u128" | "usize" => {
                    Some("integer")
                }
                "f32" | "f64" => Some("number"),
                "bool" => Some("boolean"),
                "Vec" | "VecDeque" | "HashSet" | "BTreeSet" => Some("array"),
                "HashMap" | "BTreeMap" => Some("object"),
                // k8s-openapi's own schemas.
                "Quantity" | "IntOrString" => Some("int-or-string"),
                "Time" | "MicroTime" => Some("string"),
                "Option" | "Box" => inner().and_then(json_kind),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The item type of a list type (`Vec<T>`, `Option<Vec<T>>`, sets, arrays).
pub fn item_type(ty: &Type) -> Option<&Type> {
    match ty {
        Type::Array(a) => Some(&a.elem),
        Type::Slice(s) => Some(&s.elem),
        Type::Reference(r) => item_type(&r.elem),
        Type::Path(p) => {
            let seg = p.path.segments.last()?;
            let PathArguments::AngleBracketed(a) = &seg.arguments else { return None };
            let inner = a.args.iter().find_map(|g| match g {
                GenericArgument::Type(t) => Some(t),
                _ => None,
            })?;
            match seg.ident.to_string().as_str() {
                "Vec" | "VecDeque" | "HashSet" | "BTreeSet" => Some(inner),
                "Option" | "Box" => item_type(inner),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Whether serde may leave the field out: an `Option`, or a field with a default.
pub fn is_optional(field: &syn::Field, container_default: bool) -> bool {
    let is_option = matches!(&field.ty, Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "Option"));
    is_option || container_default || crate::serde_attrs::has(&field.attrs, "default")
}

fn structural_kinds(kinds: &[&str]) -> bool {
    let mut k: Vec<&str> = kinds.to_vec();
    k.sort();
    k.dedup();
    k.len() <= 1 || k == ["integer", "string"]
}

fn check_tuple(fields: &Fields, what: &str, span: proc_macro2::Span, errors: &mut Errors) {
    let Fields::Unnamed(u) = fields else { return };
    if u.unnamed.len() < 2 {
        return;
    }
    let first = u.unnamed[0].ty.to_token_stream().to_string();
    if u.unnamed.iter().any(|f| f.ty.to_token_stream().to_string() != first) {
        errors.push(
            span,
            format!("{what} has fields of different types, which serde writes as a JSON array of mixed items; a structural schema gives all items of an array one schema. Give the fields names: `{{ a: A, b: B }}`"),
        );
    }
}

pub fn check(input: &DeriveInput, errors: &mut Errors) {
    match &input.data {
        Data::Struct(s) => {
            check_tuple(&s.fields, &format!("tuple struct `{}`", input.ident), input.ident.span(), errors)
        }
        Data::Enum(e) => {
            let repr = serde_attrs::enum_repr(&input.attrs);
            let variants: Vec<_> = e.variants.iter().filter(|v| !serde_attrs::has(&v.attrs, "skip")).collect();
            for v in &variants {
                if !matches!(repr, EnumRepr::Internal { .. }) {
                    check_tuple(&v.fields, &format!("tuple variant `{}`", v.ident), v.ident.span(), errors);
                }
            }
            let is_unit = |v: &&&syn::Variant| matches!(v.fields, Fields::Unit);
            let newtype = |v: &syn::Variant| match &v.fields {
                Fields::Unnamed(u) if u.unnamed.len() == 1 => Some(u.unnamed[0].ty.clone()),
                _ => None,
            };
            match &repr {
                EnumRepr::External => {
                    let unit: Vec<_> = variants.iter().filter(is_unit).collect();
                    let data = variants.iter().find(|v| !matches!(v.fields, Fields::Unit));
                    if let (Some(u), Some(d)) = (unit.first(), data) {
                        errors.push(
                            u.ident.span(),
                            format!(
                                "enum `{}` mixes unit variant `{}` (serde writes a string) with data variant `{}` (serde writes an object); a structural schema gives a value one type. Write `{} {{}}` to make it an object too, or tag the enum with `#[serde(tag = \"type\")]`",
                                input.ident, u.ident, d.ident, u.ident
                            ),
                        );
                    }
                }
                EnumRepr::Internal { tag } => {
                    for v in &variants {
                        if let Some(kind) = newtype(v).as_ref().and_then(json_kind)
                            && kind != "object"
                        {
                            errors.push(
                                    v.ident.span(),
                                    format!("variant `{}` holds a {kind}, which serde cannot put beside the tag `{tag}` of an internally tagged enum; write a struct variant `{} {{ value: ... }}`", v.ident, v.ident),
                                );
                        }
                    }
                }
                EnumRepr::Untagged | EnumRepr::Adjacent { .. } => one_json_type(input, &repr, &variants, errors),
            }
        }
        Data::Union(_) => {}
    }
}

/// An untagged enum's variants, or an adjacently tagged one's contents, are one JSON
/// type (or integer-or-string): a structural schema gives a value one type.
fn one_json_type(input: &DeriveInput, repr: &EnumRepr, variants: &[&syn::Variant], errors: &mut Errors) {
    // What serde writes as a variant's value (untagged) or content (adjacent).
    let kind_of = |v: &syn::Variant| -> Option<&'static str> {
        match &v.fields {
            Fields::Unit => Some("null"),
            Fields::Named(_) => Some("object"),
            Fields::Unnamed(u) if u.unnamed.len() == 1 => json_kind(&u.unnamed[0].ty),
            Fields::Unnamed(_) => Some("array"),
        }
    };
    let kinds: Vec<(&syn::Variant, &'static str)> = variants
        .iter()
        .filter(|v| !(matches!(repr, EnumRepr::Adjacent { .. }) && matches!(v.fields, Fields::Unit)))
        .filter_map(|v| kind_of(v).map(|k| (*v, k)))
        .collect();
    let only: Vec<&str> = kinds.iter().map(|(_, k)| *k).collect();
    if structural_kinds(&only) {
        return;
    }
    let listed = kinds.iter().map(|(v, k)| format!("`{}` ({k})", v.ident)).collect::<Vec<_>>().join(", ");
    let place = match repr {
        EnumRepr::Adjacent { content, .. } => format!("the content `{content}` of enum `{}`", input.ident),
        _ => format!("untagged enum `{}`", input.ident),
    };
    errors.push(
        input.ident.span(),
        format!("{place} is a different JSON type per variant: {listed}; a structural schema gives a value one type (integer-or-string is the one exception). Make every variant an object (struct variants), or use an externally tagged enum"),
    );
}

/// The field's JSON type after the markers that change it.
pub fn effective_kind(markers: &[Marker], kind: Option<&'static str>) -> Option<&'static str> {
    if markers.iter().any(|m| m.def.key == Key::IntOrString && m.flag()) {
        return Some("int-or-string");
    }
    if let Some(t) = markers.iter().rev().find(|m| m.def.key == Key::SchemaType).and_then(Marker::str) {
        return Some(match t {
            "string" => "string",
            "integer" => "integer",
            "number" => "number",
            "boolean" => "boolean",
            "array" => "array",
            "object" => "object",
            _ => return None,
        });
    }
    if markers.iter().any(|m| matches!(m.def.key, Key::PreserveUnknownFields | Key::Schemaless) && m.flag()) {
        return None;
    }
    kind
}

/// Whether `ty` names one of Rust's scalars or `String`: never a struct with rules.
fn scalar(ty: &Type) -> bool {
    const SCALARS: &[&str] = &[
        "String", "str", "bool", "char", "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128",
        "usize", "f32", "f64",
    ];
    let Type::Path(p) = ty else { return false };
    p.qself.is_none() && p.path.segments.len() == 1 && SCALARS.contains(&p.path.segments[0].ident.to_string().as_str())
}

/// The type arguments of `ty`'s last segment, and that segment's name.
pub fn arguments(ty: &Type) -> Option<(String, Vec<&Type>)> {
    match ty {
        Type::Array(a) => Some(("Vec".into(), vec![&*a.elem])),
        Type::Slice(s) => Some(("Vec".into(), vec![&*s.elem])),
        Type::Reference(r) => arguments(&r.elem),
        Type::Path(p) => {
            let seg = p.path.segments.last()?;
            let args = match &seg.arguments {
                PathArguments::AngleBracketed(a) => a
                    .args
                    .iter()
                    .filter_map(|g| match g {
                        GenericArgument::Type(t) => Some(t),
                        _ => None,
                    })
                    .collect(),
                _ => Vec::new(),
            };
            Some((seg.ident.to_string(), args))
        }
        _ => None,
    }
}

/// The named types a field's values are of, through `Option`, `Box`, lists and maps'
/// values (`Option<Vec<Port>>` → `Port`), without Rust's scalars.
pub fn named_types(ty: &Type) -> Vec<&Type> {
    let mut out = Vec::new();
    leaves(ty, &mut |leaf, _| out.push(leaf), None, None);
    out
}

/// The named types of a field's values, each with how many of them one value of the
/// field holds at the most: one through `Option` and `Box`, each list's or map's bound
/// under it (`bounds`: the field's `maxItems` or `maxProperties`, then its items', level
/// by level; a fixed-size array's length), `None` under a list or map without one (the
/// server then counts by the request size and the node's least size).
pub fn counted_types<'a>(ty: &'a Type, bounds: &[Option<u64>]) -> Vec<(&'a Type, Option<u64>)> {
    fn walk<'a>(ty: &'a Type, count: Option<u64>, bounds: &[Option<u64>], out: &mut Vec<(&'a Type, Option<u64>)>) {
        let (here, below) = bounds.split_first().map_or((None, &[][..]), |(b, rest)| (*b, rest));
        let times = |bound: Option<u64>| count.zip(bound).map(|(c, m)| c.saturating_mul(m));
        if let Type::Array(a) = ty {
            let bound = match (here, array_len(a)) {
                (Some(b), Some(n)) => Some(b.min(n)),
                (b, n) => b.or(n),
            };
            return walk(&a.elem, times(bound), below, out);
        }
        if let Some((name, args)) = arguments(ty) {
            match (name.as_str(), args.as_slice()) {
                ("Option" | "Box" | "Arc" | "Rc", [inner]) => return walk(inner, count, bounds, out),
                ("Vec" | "VecDeque" | "HashSet" | "BTreeSet", [inner])
                | ("BTreeMap" | "HashMap" | "IndexMap", [_, inner]) => return walk(inner, times(here), below, out),
                _ => {}
            }
        }
        if !scalar(ty) && !matches!(ty, Type::Reference(_)) {
            out.push((ty, count));
        }
    }
    let mut out = Vec::new();
    walk(ty, Some(1), bounds, &mut out);
    out
}

/// The length of a fixed-size array written as a literal (`[T; 3]`): schemars bounds its
/// items to it.
pub fn array_len(a: &syn::TypeArray) -> Option<u64> {
    match &a.len {
        syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(n), .. }) => n.base10_parse().ok(),
        _ => None,
    }
}

/// The length of `ty` where it is a fixed-size array, through `Option` and `Box`.
pub fn fixed_len(ty: &Type) -> Option<u64> {
    match ty {
        Type::Array(a) => array_len(a),
        _ => match arguments(ty) {
            Some((name, args)) if matches!(name.as_str(), "Option" | "Box") => args.first().and_then(|t| fixed_len(t)),
            _ => None,
        },
    }
}

/// The named types under a list that is not a list-map in a field of type `ty`, each with
/// whether that list is the field's own (`Vec<Port>`, which `+listType=map` would fix)
/// rather than one inside a map or another list (which no marker of the field reaches).
pub fn uncorrelated_types(ty: &Type, list_map: bool) -> Vec<(&Type, bool)> {
    let mut out = Vec::new();
    leaves(
        ty,
        &mut |leaf, under| {
            if let Some(own) = under {
                out.push((leaf, own))
            }
        },
        Some(!list_map),
        None,
    );
    out
}

/// Calls `found` with each leaf type of `ty` and, when a list that is not a list-map stands
/// above it, whether that list is the field's own. `own_list`: `Some(atomic)` while the
/// field's own list is still to come (`atomic`: it does not pair its items with old values,
/// no list-map); lists below it, or inside a map, never do.
fn leaves<'a>(
    ty: &'a Type,
    found: &mut dyn FnMut(&'a Type, Option<bool>),
    own_list: Option<bool>,
    under: Option<bool>,
) {
    if let Some((name, args)) = arguments(ty) {
        match (name.as_str(), args.as_slice()) {
            ("Option" | "Box" | "Arc" | "Rc", [inner]) => return leaves(inner, found, own_list, under),
            ("Vec" | "VecDeque" | "HashSet" | "BTreeSet", [item]) => {
                let here = match own_list {
                    Some(true) => Some(true),
                    Some(false) => None,
                    None => Some(false),
                };
                return leaves(item, found, None, under.or(here));
            }
            ("BTreeMap" | "HashMap" | "IndexMap", [_, value]) => return leaves(value, found, None, under),
            _ => {}
        }
    }
    if !scalar(ty) && !matches!(ty, Type::Reference(_)) {
        found(ty, under);
    }
}
