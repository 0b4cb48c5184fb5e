//! What a CEL rule may read of a type whose fields the derive of another type cannot see.
//!
//! A derive sees one type at a time: in `FooSpec`, a rule `self.endpoint.host` reaches
//! into `Endpoint`, whose fields only `Endpoint`'s own derive knows. So each struct's
//! derive writes a table of it here ([`Fields::TABLE`]: the names a rule reads its fields
//! by and the shape of each, its rules, the types it holds), and the derive of a type with
//! a rule writes the rule's obligations — every path the rule reads through another type,
//! and what it does with the value there — as constant assertions over those tables
//! ([`check`]). A rule that
//! names a field the type lacks, or calls a string method on an integer, then fails
//! `cargo build` at the marker, as the API server would refuse the CRD.
//!
//! A type without the derive (one of k8s-openapi's, a hand-written `JsonSchema`, a
//! generic one) has no table: [`Probe`] yields `None` for it and the obligation holds;
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
    /// A struct, by its table; `None` when its derive is not ours (or it is generic).
    Object(Option<Link>),
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

/// What a struct's derive knows of it, as data: its fields, its rules and the types its
/// fields hold, each of those by its own table. Types that hold each other (`Tree` lists
/// `Branch`es, a `Branch` lists `Tree`s) link each other's tables, which a `static` may
/// and a constant may not; the totals ([`Fields::COST`], [`Fields::MIN_SIZE`], ...) are
/// walks over the tables that stop where a type recurs on the path from where they start,
/// as the CRD's structural schema does (it keeps the unknown fields there, and no rule).
#[derive(Debug)]
pub struct Table {
    /// The type's path (`module_path!()` and its name): how a walk knows it met it before.
    pub id: &'static str,
    pub fields: &'static [Field],
    /// A transition rule on the type itself or on one of its fields (not below them).
    pub transition: Option<&'static str>,
    /// The types its fields hold, whose transition rules stand below the type.
    pub below: &'static [Option<Link>],
    /// Its own rules and its fields' (and their items').
    pub rules: &'static [Rule],
    /// The types its fields hold, with how many of each one value holds.
    pub holds: &'static [Held],
    /// Its least size in JSON, in parts: `{}`, and each required property.
    pub size: &'static [Part],
}

/// A type's [`Table`], made from a `&'static` one: a pointer, so that a constant may hold
/// a link to a `static` whose table links back (a reference there would make the compiler
/// evaluate the `static` first, and a cycle of those is refused).
#[derive(Clone, Copy)]
pub struct Link(*const Table);

// SAFETY: a `Link` is only made from a `&'static Table` (`Link::new`), which is immutable
// and lives for the whole program; sharing it across threads is sharing that reference.
unsafe impl Sync for Link {}
// SAFETY: as for `Sync`.
unsafe impl Send for Link {}

impl Link {
    pub const fn new(table: &'static Table) -> Link {
        Link(table)
    }

    pub const fn get(self) -> &'static Table {
        // SAFETY: made from a `&'static Table` (`Link::new` is the only constructor).
        unsafe { &*self.0 }
    }
}

impl std::fmt::Debug for Link {
    // The table's name only: tables that hold each other would print forever.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.get().id)
    }
}

/// One of a type's CEL rules: its cost per run, the least size of the node it stands on,
/// and how many of that node one value of the type holds (`None`: below a list or map
/// without a bound).
#[derive(Clone, Copy, Debug)]
pub struct Rule {
    pub cost: Cost,
    pub node: Least,
    pub count: Option<u64>,
}

/// A least size in JSON: known, the type's own, or another type's.
#[derive(Clone, Copy, Debug)]
pub enum Least {
    Bytes(u64),
    Own,
    Of(Option<Link>),
}

/// A type a field holds, and how many of it one value holds.
#[derive(Clone, Copy, Debug)]
pub struct Held {
    pub of: Option<Link>,
    pub count: Count,
}

#[derive(Clone, Copy, Debug)]
pub enum Count {
    /// `#[serde(flatten)]`: its fields stand on the holder's node.
    Flattened,
    /// At most this many (the `maxItems`/`maxProperties` of the lists and maps between).
    Up(u64),
    /// Below a list or map without a bound.
    Unbounded,
}

/// A part of a type's least size in JSON.
#[derive(Clone, Copy, Debug)]
pub enum Part {
    Bytes(u64),
    /// A required property: its name's length and its value's least size.
    Property(u64, Least),
    /// A flattened struct's fields.
    Flattened(Option<Link>),
}

/// A struct's fields on the wire, written by its derive as a [`Table`]; the rest are
/// walks over the tables from this one.
pub trait Fields {
    const TABLE: Link;
    /// A transition rule (one reading `oldSelf`) on the type, on one of its fields or
    /// anywhere below them: the server pairs a node with its old value only through
    /// objects, maps and the items of list-maps, so a list of another kind above the type
    /// leaves such a rule nothing to compare with, and the server refuses the CRD.
    const TRANSITION: Option<&'static str> = transition(Self::TABLE.get(), None);
    /// [`Fields::COST`], [`Fields::FIXED`] and [`Fields::UNBOUNDED`] in one walk.
    const TOTALS: Totals = totals(Self::TABLE.get(), None);
    /// The estimated cost of the CEL rules one value of the type brings to the server's
    /// budgets where every list and map between the CRD's root and the type has a bound:
    /// its own rules and its fields', each times how many of its node one value holds,
    /// plus, for each field of a type with the derive, that type's cost times how many of
    /// it the field holds (`maxItems`, `maxProperties`). The API server multiplies these
    /// by the bounds above the type, so its parent does.
    const COST: Cost = Self::TOTALS.cost;
    /// The rules below a list or map without a bound inside the type: the server counts
    /// each of those as often as its node fits in the largest request
    /// ([`Cost::unbounded`]), wherever the type stands, so no bound above multiplies them.
    const FIXED: Cost = Self::TOTALS.fixed;
    /// Every rule of the type and below it as the server counts them when the type
    /// stands below a list or map without a bound.
    const UNBOUNDED: Cost = Self::TOTALS.unbounded;
    /// The least size of one value of the type in JSON, as the API server reckons it
    /// (`{}` and each required property without a default); [`UNKNOWN_SIZE`] when a
    /// required field's type has no derive of ours.
    const MIN_SIZE: u64 = min_size(Self::TABLE.get(), None);
}

/// The types a walk over the tables has entered, innermost first.
#[derive(Clone, Copy)]
pub struct Path<'a> {
    id: &'static str,
    up: Option<&'a Path<'a>>,
}

/// Whether the walk at `path` met the type `id` before: the structural schema keeps the
/// unknown fields where a type recurs, so nothing of it counts there.
const fn recurs(path: Option<&Path<'_>>, id: &str) -> bool {
    let mut at = path;
    while let Some(p) = at {
        if eq(p.id, id) {
            return true;
        }
        at = p.up;
    }
    false
}

/// The least size of a value of `table`'s type in JSON, reached through `path`.
pub const fn min_size(table: &Table, path: Option<&Path<'_>>) -> u64 {
    if recurs(path, table.id) {
        return UNKNOWN_SIZE;
    }
    let here = Path { id: table.id, up: path };
    let mut total = 0u64;
    let mut i = 0;
    while i < table.size.len() {
        let part = match table.size[i] {
            Part::Bytes(n) => n,
            Part::Property(len, least) => property(len, least_size(least, table, path, &here)),
            Part::Flattened(of) => flattened(least_size(Least::Of(of), table, path, &here)),
        };
        total = total.saturating_add(part);
        i += 1;
    }
    total
}

/// `least` as bytes, for a node of `table`'s type reached through `path` (`here` is
/// `path` with the type on it).
const fn least_size(least: Least, table: &Table, path: Option<&Path<'_>>, here: &Path<'_>) -> u64 {
    match least {
        Least::Bytes(n) => n,
        Least::Own => min_size(table, path),
        Least::Of(Some(link)) => min_size(link.get(), Some(here)),
        Least::Of(None) => UNKNOWN_SIZE,
    }
}

/// Whether a rule of `table` stands on the type's own node.
const fn has_own_rule(table: &Table) -> bool {
    let mut i = 0;
    while i < table.rules.len() {
        if matches!(table.rules[i].node, Least::Own) {
            return true;
        }
        i += 1;
    }
    false
}

/// What [`Fields::COST`], [`Fields::FIXED`] and [`Fields::UNBOUNDED`] hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Totals {
    pub cost: Cost,
    pub fixed: Cost,
    pub unbounded: Cost,
}

/// The costs of `table`'s rules and of the types below it, reached through `path`.
pub const fn totals(table: &Table, path: Option<&Path<'_>>) -> Totals {
    let mut out = Totals { cost: Cost::ZERO, fixed: Cost::ZERO, unbounded: Cost::ZERO };
    if recurs(path, table.id) {
        return out;
    }
    let here = Path { id: table.id, up: path };
    // The type's own least size, walked once for every rule on its node.
    let own = if has_own_rule(table) { min_size(table, path) } else { UNKNOWN_SIZE };
    let mut i = 0;
    while i < table.rules.len() {
        let rule = table.rules[i];
        let node = match rule.node {
            Least::Own => own,
            least => least_size(least, table, path, &here),
        };
        let every = rule.cost.unbounded(node);
        out.unbounded = out.unbounded.and(every);
        match rule.count {
            Some(n) => out.cost = out.cost.and(rule.cost.times(n)),
            None => out.fixed = out.fixed.and(every),
        }
        i += 1;
    }
    let mut i = 0;
    while i < table.holds.len() {
        let held = table.holds[i];
        i += 1;
        let Some(link) = held.of else { continue };
        let below = totals(link.get(), Some(&here));
        match held.count {
            Count::Flattened => {
                out.cost = out.cost.and(below.cost);
                out.fixed = out.fixed.and(below.fixed);
            }
            Count::Up(n) => {
                out.cost = out.cost.and(below.cost.times(n));
                out.fixed = out.fixed.and(below.fixed);
                out.unbounded = out.unbounded.and(below.unbounded);
            }
            Count::Unbounded => {
                out.fixed = out.fixed.and(below.unbounded);
                out.unbounded = out.unbounded.and(below.unbounded);
            }
        }
    }
    out
}

/// The first transition rule on `table`'s type or below it, reached through `path`.
pub const fn transition(table: &Table, path: Option<&Path<'_>>) -> Option<&'static str> {
    if recurs(path, table.id) {
        return None;
    }
    if table.transition.is_some() {
        return table.transition;
    }
    let here = Path { id: table.id, up: path };
    let mut i = 0;
    while i < table.below.len() {
        if let Some(link) = table.below[i]
            && let Some(rule) = transition(link.get(), Some(&here))
        {
            return Some(rule);
        }
        i += 1;
    }
    None
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

    /// `self` and `other` together: totals added, the larger of the mosts.
    pub const fn and(self, other: Cost) -> Cost {
        Cost {
            total: self.total.saturating_add(other.total),
            most: if other.most > self.most { other.most } else { self.most },
        }
    }

    /// Whether the server refuses a CRD whose rules cost `self`.
    pub const fn over(self) -> bool {
        self.most > PER_RULE_LIMIT || self.total > PER_CRD_LIMIT
    }
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

/// `Probe::<T>::TABLE`: `Some` of `T`'s table when `T` has the derive, else `None`
/// (through [`Unseen`], which the inherent constant shadows when it applies).
pub struct Probe<T: ?Sized>(PhantomData<T>);

impl<T: ?Sized + Fields> Probe<T> {
    pub const TABLE: Option<Link> = Some(T::TABLE);
    pub const TRANSITION: Option<&'static str> = T::TRANSITION;
    pub const COST: Cost = T::COST;
    pub const UNBOUNDED: Cost = T::UNBOUNDED;
    pub const MIN_SIZE: u64 = T::MIN_SIZE;
}

/// The fallback of [`Probe`]: a type without the derive.
pub trait Unseen {
    const TABLE: Option<Link> = None;
    /// A type without the derive: `codegen-cli manifests` checks its rules' placement.
    const TRANSITION: Option<&'static str> = None;
    /// A type without the derive: its rules' cost is the whole-CRD check's.
    const COST: Cost = Cost::ZERO;
    const UNBOUNDED: Cost = Cost::ZERO;
    const MIN_SIZE: u64 = UNKNOWN_SIZE;
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

/// Whether `path` from `root` can be read and used as `usage` says, for a rule on the
/// type `own` (its table's id). Only the last step is judged: a shorter path of the same
/// rule reports an earlier step. A field that holds a type the path passed through before
/// (or the rule's own: types that hold each other) is where the CRD's structural schema
/// stops and keeps unknown fields, which the server gives no CEL type: [`RECURS`].
pub const fn check(own: &'static str, root: Shape, path: &[Seg], usage: Use) -> u8 {
    let start = Path { id: own, up: None };
    if holds_again(root, &start) {
        return STANDS_IN_RECURSION;
    }
    step(root, path, usage, &start)
}

/// The path reaches a field that holds a type above it, which the schema leaves open.
pub const RECURS: u8 = 3;
/// The value the path starts from is itself of a type above it (the rule's own, or one
/// on the way): the rule stands on, or reads, a node the schema leaves open.
pub const STANDS_IN_RECURSION: u8 = 4;

/// Whether `shape`, or its items or values at any depth, is a type on `seen`.
const fn holds_again(shape: Shape, seen: &Path<'_>) -> bool {
    match shape {
        Shape::Object(Some(link)) => recurs(Some(seen), link.get().id),
        Shape::List(inner) | Shape::Map(inner) => holds_again(*inner, seen),
        _ => false,
    }
}

const fn step(shape: Shape, path: &[Seg], usage: Use, seen: &Path<'_>) -> u8 {
    let Some((first, rest)) = path.split_first() else {
        let fits = match usage {
            Use::Read => true,
            Use::Str => matches!(shape, Shape::Str | Shape::Any),
            Use::Sized => matches!(shape, Shape::Str | Shape::List(_) | Shape::Map(_) | Shape::Any),
            Use::Iterate => matches!(shape, Shape::List(_) | Shape::Map(_) | Shape::Any),
            Use::Number => matches!(shape, Shape::Int | Shape::Num | Shape::Any),
            Use::Bool => matches!(shape, Shape::Bool | Shape::Any),
        };
        return if fits { HOLDS } else { WRONG_TYPE };
    };
    let next = match (shape, *first) {
        (Shape::Object(None) | Shape::Any, _) => return HOLDS,
        (Shape::Object(Some(link)), Seg::Field(name)) => {
            let table = link.get();
            let here = Path { id: table.id, up: Some(seen) };
            return match find(table.fields, name) {
                Found::Yes(s) if holds_again(s, &here) => RECURS,
                Found::Yes(s) => step(s, rest, usage, &here),
                Found::Unknown => HOLDS,
                Found::No if rest.is_empty() => NO_FIELD,
                Found::No => HOLDS,
            };
        }
        (Shape::List(items), Seg::Each | Seg::Item) | (Shape::Map(items), Seg::Each) => *items,
        (Shape::Map(_), Seg::Item) => Shape::Str,
        // A map's entry read as a field (`self.labels.app`).
        (Shape::Map(values), Seg::Field(_)) => *values,
        // A step into a scalar: another path of the rule, or the whole-CRD check, says so.
        _ => return HOLDS,
    };
    step(next, rest, usage, seen)
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
                Shape::Object(Some(inner)) => match find(inner.get().fields, name) {
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

    /// A table with `fields` and nothing else, as a derive writes it for a type named `id`.
    const fn plain(id: &'static str, fields: &'static [Field]) -> Table {
        Table { id, fields, transition: None, below: &[], rules: &[], holds: &[], size: &[Part::Bytes(2)] }
    }

    struct Tls;
    impl Fields for Tls {
        const TABLE: Link = {
            static TABLE: Table = plain("tests::Tls", &[Field { ident: "cert", shape: Shape::Str }]);
            Link::new(&TABLE)
        };
    }
    struct Endpoint;
    impl Fields for Endpoint {
        const TABLE: Link = {
            static TABLE: Table = plain(
                "tests::Endpoint",
                &[
                    Field { ident: "host", shape: Shape::Str },
                    Field { ident: "port", shape: Shape::Int },
                    Field { ident: "tls", shape: Shape::Object(Probe::<Tls>::TABLE) },
                ],
            );
            Link::new(&TABLE)
        };
    }
    struct NotDerived;

    #[test]
    fn paths_through_derived_types_are_judged() {
        let root = Shape::Object(Probe::<Endpoint>::TABLE);
        assert_eq!(check("tests::Spec", root, &[Seg::Field("host")], Use::Str), HOLDS);
        assert_eq!(check("tests::Spec", root, &[Seg::Field("hostname")], Use::Read), NO_FIELD);
        assert_eq!(check("tests::Spec", root, &[Seg::Field("port")], Use::Str), WRONG_TYPE);
        assert_eq!(check("tests::Spec", root, &[Seg::Field("tls"), Seg::Field("cert")], Use::Sized), HOLDS);
        assert_eq!(check("tests::Spec", root, &[Seg::Field("tls"), Seg::Field("certs")], Use::Read), NO_FIELD);
        // Only the last step is judged: the shorter path reports `nope`.
        assert_eq!(check("tests::Spec", root, &[Seg::Field("nope"), Seg::Field("x")], Use::Read), HOLDS);
    }

    #[test]
    fn types_without_the_derive_hold_anything() {
        assert!(Probe::<NotDerived>::TABLE.is_none());
        let root = Shape::Object(Probe::<NotDerived>::TABLE);
        assert_eq!(check("tests::Spec", root, &[Seg::Field("anything")], Use::Str), HOLDS);
    }

    // `Tree` lists `Branch`es (at most 3), a `Branch` lists `Tree`s (without a bound);
    // each has a rule of cost 10 and a required `name`.
    struct Tree;
    struct Branch;
    const RULE: Rule = Rule { cost: Cost { total: 10, most: 10 }, node: Least::Own, count: Some(1) };
    const NAME: Part = Part::Property(4, Least::Bytes(2));
    impl Fields for Tree {
        const TABLE: Link = {
            static TABLE: Table = Table {
                id: "tests::Tree",
                fields: &[Field { ident: "branches", shape: Shape::List(&Shape::Object(Probe::<Branch>::TABLE)) }],
                transition: None,
                below: &[Probe::<Branch>::TABLE],
                rules: &[RULE],
                holds: &[Held { of: Probe::<Branch>::TABLE, count: Count::Up(3) }],
                size: &[Part::Bytes(2), NAME],
            };
            Link::new(&TABLE)
        };
    }
    impl Fields for Branch {
        const TABLE: Link = {
            static TABLE: Table = Table {
                id: "tests::Branch",
                fields: &[Field { ident: "trees", shape: Shape::List(&Shape::Object(Probe::<Tree>::TABLE)) }],
                transition: Some("self == oldSelf"),
                below: &[Probe::<Tree>::TABLE],
                rules: &[RULE],
                holds: &[Held { of: Probe::<Tree>::TABLE, count: Count::Unbounded }],
                size: &[Part::Bytes(2), NAME, Part::Property(4, Least::Of(Probe::<Tree>::TABLE))],
            };
            Link::new(&TABLE)
        };
    }

    #[test]
    fn types_that_hold_each_other_are_walked_until_one_recurs() {
        // `Tree`: its rule, and three `Branch`es whose `trees` recur (nothing below).
        assert_eq!(<Tree as Fields>::COST, Cost { total: 10 + 3 * 10, most: 30 });
        assert_eq!(<Tree as Fields>::MIN_SIZE, 2 + 10);
        // `Branch`: its `trees` hold a required `Tree` whose `Branch`es recur.
        assert_eq!(<Branch as Fields>::MIN_SIZE, 2 + 10 + (4 + 4 + 12));
        // A `Branch`'s `Tree`s are unbounded: each counts as often as a `Tree` fits.
        let tree_fits = MAX_REQUEST_BYTES / (12 + 1);
        assert_eq!(<Branch as Fields>::FIXED.total, 10 * tree_fits);
        assert_eq!(<Tree as Fields>::TRANSITION, Some("self == oldSelf"));
        // A `Branch`'s `trees` hold a `Tree` again: the schema stops there, and the server
        // has no CEL type for the field (`undefined field 'trees'`).
        let root = Shape::Object(Probe::<Tree>::TABLE);
        let path = [Seg::Field("branches"), Seg::Each, Seg::Field("trees")];
        assert_eq!(check("tests::Spec", root, &path, Use::Sized), RECURS);
        assert_eq!(check("tests::Spec", root, &path[..1], Use::Sized), HOLDS);
        let typo = [Seg::Field("branches"), Seg::Each, Seg::Field("tree")];
        assert_eq!(check("tests::Spec", root, &typo, Use::Read), NO_FIELD);
        // A rule on a `Branch` that reads its `Tree`: the `Tree`'s `branches` recur.
        assert_eq!(check("tests::Branch", root, &path[..1], Use::Read), RECURS);
        // And one on a `Tree` that reads a `Tree` (its own fields, or a `Vec<Self>`'s).
        assert_eq!(check("tests::Tree", root, &[], Use::Read), STANDS_IN_RECURSION);
        assert_eq!(format!("{:?}", Probe::<Tree>::TABLE), "Some(tests::Tree)");
    }
}
