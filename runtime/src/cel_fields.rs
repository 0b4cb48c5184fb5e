//! What a CEL rule may read of a type whose fields the derive of another type cannot see.
//!
//! A derive sees one type at a time: in `FooSpec`, a rule `self.endpoint.host` reaches
//! into `Endpoint`, whose fields only `Endpoint`'s own derive knows. So each struct's
//! derive writes its fields here as a constant ([`Fields`]: the names a rule reads them
//! by and the shape of each), and the derive of a type with a rule writes the rule's
//! obligations — every path the rule reads through another type, and what it does with
//! the value there — as constant assertions over those constants ([`check`]). A rule that
//! names a field the type lacks, or calls a string method on an integer, then fails
//! `cargo build` at the marker, as the API server would refuse the CRD.
//!
//! A type without the derive (one of k8s-openapi's, a hand-written `JsonSchema`, a
//! generic one) has no constant: [`Probe`] yields `None` for it and the obligation holds;
//! `codegen-cli manifests` checks such rules on the whole CRD.

use std::marker::PhantomData;

/// How a rule sees a value.
#[derive(Clone, Copy, Debug)]
pub enum Shape {
    Str,
    Int,
    Num,
    Bool,
    List(&'static Shape),
    /// An object with string keys and values of one shape (`additionalProperties`).
    Map(&'static Shape),
    /// A struct's fields, `None` when its derive is not ours (or it is generic).
    Object(Option<&'static [Field]>),
    /// Anything else (int-or-string, a duration, a timestamp, an embedded resource, an
    /// open object): whatever a rule does with it is left to the whole-CRD check.
    Any,
}

/// A field as a rule reads it: `ident` is its CEL identifier (`__namespace__` for
/// `namespace`; a reserved word has two), or, for a `#[serde(flatten)]` field, empty,
/// with the flattened type's fields in `shape`.
#[derive(Clone, Copy, Debug)]
pub struct Field {
    pub ident: &'static str,
    pub shape: Shape,
}

/// A struct's fields on the wire, written by its derive.
pub trait Fields {
    const FIELDS: &'static [Field];
    /// A transition rule (one reading `oldSelf`) on the type, on one of its fields or
    /// anywhere below them: the server pairs a node with its old value only through
    /// objects, maps and the items of list-maps, so a list of another kind above the type
    /// leaves such a rule nothing to compare with, and the server refuses the CRD.
    const TRANSITION: Option<&'static str> = None;
    /// The estimated cost of the CEL rules one value of the type brings to the server's
    /// budgets where every list and map between the CRD's root and the type has a bound:
    /// its own rules and its fields', each times how many of its node one value holds,
    /// plus, for each field of a type with the derive, that type's cost times how many of
    /// it the field holds (`maxItems`, `maxProperties`). The API server multiplies these
    /// by the bounds above the type, so its parent does.
    const COST: Cost = Cost::ZERO;
    /// The rules below a list or map without a bound inside the type: the server counts
    /// each of those as often as its node fits in the largest request
    /// ([`Cost::unbounded`]), wherever the type stands, so no bound above multiplies them.
    const FIXED: Cost = Cost::ZERO;
    /// Every rule of the type and below it as the server counts them when the type
    /// stands below a list or map without a bound.
    const UNBOUNDED: Cost = Cost::ZERO;
    /// The least size of one value of the type in JSON, as the API server reckons it
    /// (`{}` and each required property without a default); [`UNKNOWN_SIZE`] when a
    /// required field's type has no derive of ours.
    const MIN_SIZE: u64 = UNKNOWN_SIZE;
}

/// The largest request body the API server accepts (`MaxRequestSizeBytes`): a rule under
/// a list or map without a bound runs as often as its node fits in it.
pub const MAX_REQUEST_BYTES: u64 = kubegen_cel::types::MAX_REQUEST_BYTES;
/// The most one rule (or message expression) may cost, times how often it runs per
/// object (`StaticEstimatedCostLimit`).
pub const PER_RULE_LIMIT: u64 = kubegen_cel::cost::PER_RULE_LIMIT;
/// The most all rules of one CRD version's schema may cost together
/// (`StaticEstimatedCRDCostLimit`).
pub const PER_CRD_LIMIT: u64 = kubegen_cel::cost::PER_CRD_LIMIT;
/// A least size the derive cannot know (a type without our derive): no count under a
/// list without a bound is estimated from it, and `codegen-cli manifests` judges it.
pub const UNKNOWN_SIZE: u64 = u64::MAX;

/// The estimated cost of CEL rules: `total` against the CRD's budget, `most` (the one
/// rule or message expression that costs most, times how often it runs) against the
/// per-rule budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cost {
    pub total: u64,
    pub most: u64,
}

impl Cost {
    pub const ZERO: Cost = Cost { total: 0, most: 0 };

    /// One rule: `total` is its cost with its message expression's, `most` the larger of
    /// the two.
    pub const fn rule(total: u64, most: u64) -> Cost {
        Cost { total, most }
    }

    /// `self` run `n` times.
    pub const fn times(self, n: u64) -> Cost {
        Cost { total: self.total.saturating_mul(n), most: self.most.saturating_mul(n) }
    }

    /// `self` run as often as a node of `min_size` bytes fits in the largest request,
    /// as the server counts a rule below a list or map without a bound; nothing where the
    /// size is not known.
    pub const fn unbounded(self, min_size: u64) -> Cost {
        if min_size == UNKNOWN_SIZE {
            return Cost::ZERO;
        }
        self.times(MAX_REQUEST_BYTES / (min_size + 1))
    }

    /// Whether the server refuses a CRD whose rules cost `self`.
    pub const fn over(self) -> bool {
        self.most > PER_RULE_LIMIT || self.total > PER_CRD_LIMIT
    }
}

/// The costs together: totals added, the most of the mosts.
pub const fn all(costs: &[Cost]) -> Cost {
    let mut out = Cost::ZERO;
    let mut i = 0;
    while i < costs.len() {
        out.total = out.total.saturating_add(costs[i].total);
        if costs[i].most > out.most {
            out.most = costs[i].most;
        }
        i += 1;
    }
    out
}

/// `a + b + ...` in a constant, saturating (an unknown size stays unknown).
pub const fn sum(sizes: &[u64]) -> u64 {
    let mut total = 0u64;
    let mut i = 0;
    while i < sizes.len() {
        total = total.saturating_add(sizes[i]);
        i += 1;
    }
    total
}

/// What a required property named with `name_len` bytes, of a value at least
/// `min_size` bytes, adds to its object's least size (the key, its quotes, the colon and
/// a comma).
pub const fn property(name_len: u64, min_size: u64) -> u64 {
    if min_size == UNKNOWN_SIZE { UNKNOWN_SIZE } else { min_size.saturating_add(name_len + 4) }
}

/// What a flattened struct's fields add to its parent's least size: its own, without
/// its braces.
pub const fn flattened(min_size: u64) -> u64 {
    if min_size == UNKNOWN_SIZE { UNKNOWN_SIZE } else { min_size.saturating_sub(2) }
}

/// `Probe::<T>::FIELDS`: `Some` of `T`'s fields when `T` has the derive, else `None`
/// (through [`Unseen`], which the inherent constant shadows when it applies).
pub struct Probe<T: ?Sized>(PhantomData<T>);

impl<T: ?Sized + Fields> Probe<T> {
    pub const FIELDS: Option<&'static [Field]> = Some(T::FIELDS);
    pub const TRANSITION: Option<&'static str> = T::TRANSITION;
    pub const COST: Cost = T::COST;
    pub const FIXED: Cost = T::FIXED;
    pub const UNBOUNDED: Cost = T::UNBOUNDED;
    pub const MIN_SIZE: u64 = T::MIN_SIZE;
}

/// The fallback of [`Probe`]: a type without the derive.
pub trait Unseen {
    const FIELDS: Option<&'static [Field]> = None;
    /// A type without the derive: `codegen-cli manifests` checks its rules' placement.
    const TRANSITION: Option<&'static str> = None;
    /// A type without the derive: its rules' cost is the whole-CRD check's.
    const COST: Cost = Cost::ZERO;
    const FIXED: Cost = Cost::ZERO;
    const UNBOUNDED: Cost = Cost::ZERO;
    const MIN_SIZE: u64 = UNKNOWN_SIZE;
}

/// The first of `rules` that is `Some`.
pub const fn first(rules: &[Option<&'static str>]) -> Option<&'static str> {
    let mut i = 0;
    while i < rules.len() {
        if rules[i].is_some() {
            return rules[i];
        }
        i += 1;
    }
    None
}

impl<T: ?Sized> Unseen for Probe<T> {}

/// One step of a path a rule reads.
#[derive(Clone, Copy, Debug)]
pub enum Seg {
    Field(&'static str),
    /// A list's item or a map's value.
    Each,
    /// A macro's only variable: a list's item, or a map's key.
    Item,
}

/// What a rule does with the value at the end of a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Use {
    /// Reads it (a select, `has()`, an optional chain).
    Read,
    /// Calls a string function on it.
    Str,
    /// `size()`: a string, list or map.
    Sized,
    /// Iterates it in a macro: a list or map.
    Iterate,
    /// Compares it with a number literal.
    Number,
    /// Compares it with a bool literal.
    Bool,
}

/// The path holds: each step exists, or the value is one the check cannot see.
pub const HOLDS: u8 = 0;
/// The last step names no field of a type whose fields are known.
pub const NO_FIELD: u8 = 1;
/// The value at the end cannot be used as the rule uses it.
pub const WRONG_TYPE: u8 = 2;

/// Whether `path` from `root` can be read and used as `usage` says. Only the last step is
/// judged: a shorter path of the same rule reports an earlier step.
pub const fn check(root: Shape, path: &[Seg], usage: Use) -> u8 {
    let mut shape = root;
    let mut i = 0;
    while i < path.len() {
        let last = i + 1 == path.len();
        let next = match (shape, path[i]) {
            (Shape::Object(None) | Shape::Any, _) => return HOLDS,
            (Shape::Object(Some(fields)), Seg::Field(name)) => match find(fields, name) {
                Found::Yes(s) => s,
                Found::Unknown => return HOLDS,
                Found::No => return if last { NO_FIELD } else { HOLDS },
            },
            (Shape::List(items), Seg::Each | Seg::Item) | (Shape::Map(items), Seg::Each) => *items,
            (Shape::Map(_), Seg::Item) => Shape::Str,
            // A map's entry read as a field (`self.labels.app`).
            (Shape::Map(values), Seg::Field(_)) => *values,
            // A step into a scalar: another path of the rule, or the whole-CRD check, says so.
            _ => return HOLDS,
        };
        shape = next;
        i += 1;
    }
    let fits = match usage {
        Use::Read => true,
        Use::Str => matches!(shape, Shape::Str | Shape::Any),
        Use::Sized => matches!(shape, Shape::Str | Shape::List(_) | Shape::Map(_) | Shape::Any),
        Use::Iterate => matches!(shape, Shape::List(_) | Shape::Map(_) | Shape::Any),
        Use::Number => matches!(shape, Shape::Int | Shape::Num | Shape::Any),
        Use::Bool => matches!(shape, Shape::Bool | Shape::Any),
    };
    if fits { HOLDS } else { WRONG_TYPE }
}

enum Found {
    Yes(Shape),
    No,
    /// A flattened type whose fields are not known may hold it.
    Unknown,
}

const fn find(fields: &[Field], name: &str) -> Found {
    let mut open = false;
    let mut i = 0;
    while i < fields.len() {
        let f = fields[i];
        if f.ident.is_empty() {
            match f.shape {
                Shape::Object(Some(inner)) => match find(inner, name) {
                    Found::No => {}
                    found => return found,
                },
                _ => open = true,
            }
        } else if eq(f.ident, name) {
            return Found::Yes(f.shape);
        }
        i += 1;
    }
    if open { Found::Unknown } else { Found::No }
}

const fn eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Tls;
    impl Fields for Tls {
        const FIELDS: &'static [Field] = &[Field { ident: "cert", shape: Shape::Str }];
    }
    struct Endpoint;
    impl Fields for Endpoint {
        const FIELDS: &'static [Field] = &[
            Field { ident: "host", shape: Shape::Str },
            Field { ident: "port", shape: Shape::Int },
            Field { ident: "tls", shape: Shape::Object(Probe::<Tls>::FIELDS) },
        ];
    }
    struct NotDerived;

    #[test]
    fn paths_through_derived_types_are_judged() {
        let root = Shape::Object(Probe::<Endpoint>::FIELDS);
        assert_eq!(check(root, &[Seg::Field("host")], Use::Str), HOLDS);
        assert_eq!(check(root, &[Seg::Field("hostname")], Use::Read), NO_FIELD);
        assert_eq!(check(root, &[Seg::Field("port")], Use::Str), WRONG_TYPE);
        assert_eq!(check(root, &[Seg::Field("tls"), Seg::Field("cert")], Use::Sized), HOLDS);
        assert_eq!(check(root, &[Seg::Field("tls"), Seg::Field("certs")], Use::Read), NO_FIELD);
        // Only the last step is judged: the shorter path reports `nope`.
        assert_eq!(check(root, &[Seg::Field("nope"), Seg::Field("x")], Use::Read), HOLDS);
    }

    #[test]
    fn types_without_the_derive_hold_anything() {
        assert!(Probe::<NotDerived>::FIELDS.is_none());
        let root = Shape::Object(Probe::<NotDerived>::FIELDS);
        assert_eq!(check(root, &[Seg::Field("anything")], Use::Str), HOLDS);
    }
}
