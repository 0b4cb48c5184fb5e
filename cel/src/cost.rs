//! The API server's static cost estimate of a rule (cel-go `checker/cost.go` with
//! k8s.io/apiserver `pkg/cel/library/cost.go`), and the budgets apiextensions holds a
//! CRD's rules to. Sizes come from the schema ([`crate::types`]): a string, list or map
//! without a bound is as large as a request, which is what makes list-walking rules on
//! unbounded lists too expensive.

use std::collections::BTreeSet;

use crate::library::Overload;
use crate::types::{Size, Ty};

/// The most one rule (or message expression) may cost, times the number of times it
/// can run per object (`StaticEstimatedCostLimit`).
pub const PER_RULE_LIMIT: u64 = 10_000_000;
/// The most all rules of one CRD version's schema may cost together
/// (`StaticEstimatedCRDCostLimit`).
pub const PER_CRD_LIMIT: u64 = 100_000_000;

const STRING_TRAVERSAL: f64 = 0.1;
const REGEX_LENGTH: f64 = 0.25;
pub(crate) const CREATE_LIST: u64 = 10;
pub(crate) const CREATE_MAP: u64 = 30;
/// The longest named format's pattern, and the longest format name (k8s `cel/limits.go`).
const MAX_NAME_FORMAT_REGEX: u64 = 128;
const MAX_FORMAT: u64 = 64;

/// A cost range, in the API server's cost units.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cost {
    pub min: u64,
    pub max: u64,
}

impl Cost {
    pub const fn fixed(n: u64) -> Cost {
        Cost { min: n, max: n }
    }

    pub fn plus(self, o: Cost) -> Cost {
        Cost { min: self.min.saturating_add(o.min), max: self.max.saturating_add(o.max) }
    }

    pub fn union(self, o: Cost) -> Cost {
        Cost { min: self.min.min(o.min), max: self.max.max(o.max) }
    }

    /// `self` repeated as often as `times` says (a comprehension's iterations).
    pub fn times(self, times: Range) -> Cost {
        Cost { min: self.min.saturating_mul(times.min), max: self.max.saturating_mul(times.max) }
    }

    pub fn product(self, o: Cost) -> Cost {
        Cost { min: self.min.saturating_mul(o.min), max: self.max.saturating_mul(o.max) }
    }
}

/// A size range: characters, bytes, items or entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    pub min: u64,
    pub max: u64,
}

impl Range {
    pub const UNKNOWN: Range = Range { min: 0, max: u64::MAX };

    pub fn factor(self, per_unit: f64) -> Cost {
        let scale = |n: u64| {
            if n == u64::MAX {
                return u64::MAX;
            }
            let x = (n as f64 * per_unit).ceil();
            if x >= u64::MAX as f64 { u64::MAX } else { x as u64 }
        };
        Cost { min: scale(self.min), max: scale(self.max) }
    }

    pub fn plus(self, o: Range) -> Range {
        Range { min: self.min.saturating_add(o.min), max: self.max.saturating_add(o.max) }
    }
}

/// The sizes a cost estimate relied on that the schema leaves unbounded: where to add
/// `maxItems`, `maxProperties` or `maxLength` to bring the cost down.
#[derive(Default, Debug)]
pub struct Unbounded {
    pub paths: BTreeSet<String>,
    /// The estimate went through a value of unknown size in a partial schema (the
    /// derive's view): it is not the server's, and no verdict is drawn from it.
    pub uncertain: bool,
    /// The schema has nodes the checker cannot see ([`crate::types::UNKNOWN`]).
    pub partial: bool,
}

impl Unbounded {
    /// `sizeOrUnknown`: how large the value of type `ty` can be. Sizes come from the
    /// schema, from literals and from the library's result estimates; fixed-width
    /// scalars are 1; anything else (a `dyn`, an IP, a quantity) is as large as anything.
    pub fn size(&mut self, ty: &Ty) -> Range {
        match ty {
            Ty::Bool | Ty::Int | Ty::Uint | Ty::Double | Ty::Duration | Ty::Timestamp | Ty::Null | Ty::Type(_) => {
                Range { min: 1, max: 1 }
            }
            Ty::Optional(inner)
                if matches!(**inner, Ty::Bool | Ty::Int | Ty::Uint | Ty::Double | Ty::Duration | Ty::Timestamp) =>
            {
                Range { min: 1, max: 1 }
            }
            // Objects come from the schema, whose estimator gives them no size.
            Ty::Object(_) => Range { min: 0, max: 0 },
            _ => match ty.size() {
                Some(Size { max: Some(max), unbounded }) => {
                    if let Some(path) = unbounded {
                        self.paths.insert(path.to_string());
                    }
                    Range { min: 0, max: *max }
                }
                // The server's estimator cannot size it either — unless the schema is
                // partial, when it may be a value the checker could not see.
                _ => {
                    self.uncertain |= self.partial;
                    Range::UNKNOWN
                }
            },
        }
    }
}

/// What calling `o` costs, its receiver's and arguments' own costs included, and how large its
/// result can be. `target` is the receiver's type for a method; `int_literals` holds
/// each argument's value (receiver excluded) where it is an integer literal.
pub fn call(
    o: &Overload,
    target: Option<&Ty>,
    arg_types: &[Ty],
    int_literals: &[Option<i64>],
    target_cost: Cost,
    arg_costs: &[Cost],
    sizes: &mut Unbounded,
) -> (Cost, Option<Size>) {
    let n = o.name.as_str();
    match n {
        // Short-circuits: the right side may never run.
        "_&&_" | "_||_" => {
            let (l, r) = (arg_costs[0], arg_costs[1]);
            return (Cost { min: l.min, max: l.max.saturating_add(r.max) }, None);
        }
        "_?_:_" => return (arg_costs[0].plus(arg_costs[1].union(arg_costs[2])), None),
        _ => {}
    }
    let args = arg_costs.iter().fold(target_cost, |sum, c| sum.plus(*c));
    let size_of = |sizes: &mut Unbounded, i: usize| arg_types.get(i).map(|t| sizes.size(t)).unwrap_or(Range::UNKNOWN);
    let known = |r: Range| Size { max: (r.max != u64::MAX).then_some(r.max), unbounded: None };
    // Kubernetes' estimator first (k8s.io/apiserver `pkg/cel/library/cost.go`), as the
    // server asks it before cel-go's own.
    let traverse = |r: Range| r.factor(STRING_TRAVERSAL);
    let fixed = |n: u64| (Cost::fixed(n).plus(args), None);
    let ip_bytes = Range { min: 4, max: 16 };
    let string_arg = matches!(arg_types.first(), Some(Ty::String(_)));
    // The lists extension's estimators (cel-go `ext/lists.go`): the result list's size,
    // times a factor, plus the call and the list it allocates.
    let allocating = |factor: f64, size: Range| {
        let c = size.factor(factor).plus(Cost::fixed(1 + CREATE_LIST));
        (c.plus(args), Some(Size { max: (size.max != u64::MAX).then_some(size.max), unbounded: None }))
    };
    let literal = |i: usize| int_literals.get(i).copied().flatten().map(|v| v.max(0) as u64);
    match (n, target) {
        ("slice", Some(t)) if arg_types.len() == 2 => {
            let sz = sizes.size(t);
            let (start, end) = (literal(0).unwrap_or(0), literal(1).unwrap_or(sz.max));
            let n = end.saturating_sub(start);
            return allocating(1.0, Range { min: n, max: n });
        }
        ("lists.range", None) => {
            let n = literal(0).unwrap_or(u64::MAX);
            return allocating(1.0, Range { min: n, max: n });
        }
        ("reverse", Some(t)) => {
            let sz = sizes.size(t);
            return allocating(1.0, sz);
        }
        ("flatten", Some(t)) => {
            let depth = if arg_types.is_empty() { 1 } else { literal(0).unwrap_or(u64::MAX) };
            let sz = sizes.size(t);
            return allocating(depth as f64, sz);
        }
        ("distinct" | "sort", Some(t)) => {
            let sz = sizes.size(t);
            let squared = Range { min: sz.min.saturating_mul(sz.min), max: sz.max.saturating_mul(sz.max) };
            let textual = matches!(t, Ty::List(item, _) if matches!(**item, Ty::String(_) | Ty::Bytes(_)));
            let factor = if n == "sort" && textual { 2.0 + STRING_TRAVERSAL } else { 2.0 };
            let (cost, _) = allocating(factor, squared);
            return (cost, Some(Size { max: (sz.max != u64::MAX).then_some(sz.max), unbounded: None }));
        }
        _ => {}
    }
    match n {
        "isSorted" | "sum" | "max" | "min" | "indexOf" | "lastIndexOf" | "includes" if target.is_some() => {
            let t = target.unwrap_or(&Ty::Dyn);
            let items = sizes.size(t);
            return match t {
                Ty::List(item, _) => {
                    let mut per_item = Cost::fixed(1);
                    if matches!(**item, Ty::String(_) | Ty::Bytes(_)) {
                        per_item = per_item.plus(traverse(sizes.size(item)));
                    }
                    (per_item.times(items).plus(args), None)
                }
                _ => (traverse(items).plus(args), None),
            };
        }
        "url" if target.is_none() && arg_types.len() == 1 => {
            let sz = size_of(sizes, 0);
            return (traverse(sz).plus(args), Some(known(sz)));
        }
        "lowerAscii" | "upperAscii" | "substring" | "trim" if target.is_some() => {
            let sz = sizes.size(target.unwrap_or(&Ty::Dyn));
            return (traverse(sz).plus(args), Some(known(sz)));
        }
        "replace" if target.is_some() && arg_types.len() >= 2 => {
            let sz = sizes.size(target.unwrap_or(&Ty::Dyn));
            let (from, to) = (size_of(sizes, 0), size_of(sizes, 1));
            let (count, kept) = if from.min == 0 {
                (sz.max.saturating_add(1), sz.max)
            } else if to.max <= from.min {
                (0, sz.max)
            } else {
                ((sz.max as f64 / from.min as f64).ceil() as u64, 0)
            };
            let out = Range { min: 0, max: count.saturating_mul(to.max).saturating_add(kept) };
            return (sz.factor(2.0 * STRING_TRAVERSAL).plus(args), Some(known(out)));
        }
        "split" if target.is_some() => {
            let sz = sizes.size(target.unwrap_or(&Ty::Dyn));
            let max = literal(1).unwrap_or(sz.max);
            return (sz.factor(2.0 * STRING_TRAVERSAL).plus(args), Some(Size { max: Some(max), unbounded: None }));
        }
        "join" if target.is_some() => {
            let t = target.unwrap_or(&Ty::Dyn);
            let items = sizes.size(t);
            let item = match t {
                Ty::List(item, _) => sizes.size(item),
                _ => Range { min: 0, max: 0 },
            };
            let mut total = Range { min: items.min.saturating_mul(item.min), max: items.max.saturating_mul(item.max) };
            if !arg_types.is_empty() {
                let sep = size_of(sizes, 0);
                let between = Range { min: items.min.saturating_sub(1), max: items.max.saturating_sub(1) };
                total = total
                    .plus(Range { min: sep.min.saturating_mul(between.min), max: sep.max.saturating_mul(between.max) });
            }
            return (traverse(total).plus(args), Some(known(total)));
        }
        "find" | "findAll" if target.is_some() && !arg_types.is_empty() => {
            let sz = sizes.size(target.unwrap_or(&Ty::Dyn));
            let strc = traverse(sz.plus(Range { min: 1, max: 1 }));
            let rec = size_of(sizes, 0).factor(REGEX_LENGTH);
            return (strc.product(rec).plus(args), Some(known(Range { min: 0, max: sz.max })));
        }
        "cidr" | "isIP" | "isCIDR" | "quantity" | "isQuantity" | "semver" | "isSemver" if !arg_types.is_empty() => {
            return (traverse(size_of(sizes, 0)).plus(args), None);
        }
        // `cidr.ip()` reads a field.
        "ip" if target.is_some() => return fixed(1),
        "ip" if !arg_types.is_empty() => return (traverse(size_of(sizes, 0)).plus(args), None),
        "ip.isCanonical" if !arg_types.is_empty() => {
            return (size_of(sizes, 0).factor(2.0 * STRING_TRAVERSAL).plus(args), None);
        }
        "masked"
        | "prefixLength"
        | "family"
        | "isUnspecified"
        | "isLoopback"
        | "isLinkLocalMulticast"
        | "isLinkLocalUnicast"
        | "isGlobalUnicast"
        | "format.named"
        | "sign"
        | "asInteger"
        | "isInteger"
        | "asApproximateFloat"
        | "isGreaterThan"
        | "isLessThan"
        | "compareTo"
        | "add"
        | "sub"
        | "major"
        | "minor"
        | "patch"
        | "getScheme"
        | "getHostname"
        | "getHost"
        | "getPort"
        | "getEscapedPath"
        | "getQuery" => {
            return fixed(1);
        }
        "containsIP" | "containsCIDR" if !arg_types.is_empty() => {
            let mut c = traverse(ip_bytes.plus(ip_bytes));
            if n == "containsCIDR" {
                c = c.plus(traverse(ip_bytes)).plus(Cost::fixed(1));
            }
            if string_arg {
                c = c.plus(traverse(size_of(sizes, 0)));
            }
            return (c.plus(args), None);
        }
        "validate" if !arg_types.is_empty() => {
            let c = traverse(size_of(sizes, 0));
            let per = MAX_NAME_FORMAT_REGEX as f64 * REGEX_LENGTH;
            let scale = |x: u64| if x == u64::MAX { x } else { (x as f64 * per).ceil() as u64 };
            return (Cost { min: scale(c.min), max: scale(c.max) }.plus(args), None);
        }
        "_==_" if arg_types.len() == 2 && arg_types[0] == arg_types[1] => match &arg_types[0] {
            Ty::Opaque("net.IP" | "net.CIDR" | "kubernetes.Quantity" | "kubernetes.Semver", _) => return fixed(1),
            Ty::Opaque("kubernetes.NamedFormat", _) => {
                return (traverse(Range { min: 1, max: MAX_FORMAT }).plus(args), None);
            }
            Ty::Opaque("kubernetes.URL", _) => {
                let sz = size_of(sizes, 1);
                return (traverse(Range { min: 1, max: sz.max }).plus(args), None);
            }
            _ => {}
        },
        "sets.contains" | "sets.equivalent" | "sets.intersects" => {
            let a = size_of(sizes, 0);
            let b = size_of(sizes, 1);
            let pairs = Range { min: a.min.saturating_mul(b.min), max: a.max.saturating_mul(b.max) };
            return (pairs.factor(1.0).plus(args), None);
        }
        "strings.quote" => {
            let sz = size_of(sizes, 0);
            let out = Range { min: sz.min.saturating_add(2), max: sz.max.saturating_mul(2).saturating_add(2) };
            return (traverse(sz).plus(args), Some(known(out)));
        }
        _ => {}
    }
    // cel-go's own estimates of its standard library.
    match (n, target) {
        ("format", Some(t)) => return (sizes.size(t).factor(STRING_TRAVERSAL).plus(args), None),
        ("startsWith" | "endsWith", Some(_)) => return (size_of(sizes, 0).factor(STRING_TRAVERSAL).plus(args), None),
        ("matches", _) => {
            let (text, pattern) = match target {
                Some(t) => (sizes.size(t), size_of(sizes, 0)),
                None => (size_of(sizes, 0), size_of(sizes, 1)),
            };
            let strc = text.plus(Range { min: 1, max: 1 }).factor(STRING_TRAVERSAL);
            return (strc.product(pattern.factor(REGEX_LENGTH)).plus(args), None);
        }
        ("contains", Some(t)) => {
            let strc = sizes.size(t).factor(STRING_TRAVERSAL);
            return (strc.product(size_of(sizes, 0).factor(STRING_TRAVERSAL)).plus(args), None);
        }
        ("bytes", None) if matches!(arg_types.first(), Some(Ty::String(_))) => {
            let sz = size_of(sizes, 0);
            let out = Range { min: sz.min, max: sz.max.saturating_mul(4) };
            return (sz.factor(STRING_TRAVERSAL).plus(args), Some(known(out)));
        }
        // An int-or-string converts with a size the server estimates at twice the value's
        // (found by the generated CEL tier: `'x' + string(self)` on 100 such items is over
        // the budget by 6.3x on the server); an int, a double, a bool has none.
        ("string", None) if matches!(arg_types.first(), Some(Ty::IntOrString(_))) => {
            let sz = size_of(sizes, 0);
            return (Cost::fixed(1).plus(args), Some(known(Range { min: 0, max: sz.max.saturating_mul(2) })));
        }
        ("string", None) if matches!(arg_types.first(), Some(Ty::Bytes(_))) => {
            let sz = size_of(sizes, 0);
            return (sz.factor(STRING_TRAVERSAL).plus(args), Some(known(sz)));
        }
        ("@in", None) if matches!(arg_types.get(1), Some(Ty::List(..))) => {
            return (size_of(sizes, 1).factor(1.0).plus(args), None);
        }
        ("_+_", None) if matches!(arg_types.first(), Some(Ty::String(_) | Ty::Bytes(_) | Ty::List(..))) => {
            let total = size_of(sizes, 0).plus(size_of(sizes, 1));
            let cost = if matches!(arg_types.first(), Some(Ty::List(..))) {
                Cost::fixed(1)
            } else {
                total.factor(STRING_TRAVERSAL)
            };
            return (cost.plus(args), Some(known(total)));
        }
        ("_==_" | "_!=_" | "_<_" | "_>_" | "_<=_" | "_>=_", None) => {
            let equality = matches!(n, "_==_" | "_!=_");
            let textual = matches!(arg_types.first(), Some(Ty::String(_) | Ty::Bytes(_)));
            if equality || textual {
                let a = size_of(sizes, 0);
                let b = size_of(sizes, 1);
                let smallest = a.max.min(b.max);
                let r = Range { min: u64::from(smallest > 0), max: smallest };
                return (r.factor(STRING_TRAVERSAL).plus(args), None);
            }
        }
        _ => {}
    }
    (Cost::fixed(1).plus(args), None)
}

/// How many times a rule at a node can run for one object: the product of the bounds
/// of the lists and maps above it, or, under an unbounded one, as many copies of the
/// node as fit in a request.
pub fn unbounded_cardinality(min_size: u64) -> u64 {
    crate::types::MAX_REQUEST_BYTES / (min_size + 1)
}

/// The API server's words for a cost over budget: the factor it is over by, with six
/// decimals below 1.5, one up to 100, and "more than 100x" beyond.
pub fn over_by(cost: u64, limit: u64) -> String {
    let factor = cost as f64 / limit as f64;
    if factor > 100.0 {
        "more than 100x".to_string()
    } else if factor < 1.5 {
        format!("{factor:.6}x")
    } else {
        format!("{factor:.1}x")
    }
}
