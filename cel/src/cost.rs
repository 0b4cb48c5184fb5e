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

    pub fn add(self, o: Cost) -> Cost {
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
    /// The estimate went through a value of unknown size (a `dyn`): it is not the
    /// server's, and no verdict is drawn from it.
    pub uncertain: bool,
}

impl Unbounded {
    /// `sizeOrUnknown`: how large the value of type `ty` can be.
    pub fn size(&mut self, ty: &Ty) -> Range {
        match ty.size() {
            Some(Size { max: Some(max), unbounded }) => {
                if let Some(path) = unbounded {
                    self.paths.insert(path.to_string());
                }
                Range { min: 0, max: *max }
            }
            // A size nothing bounds (a function's result the estimator cannot size, a
            // `dyn`): whatever the estimate, it is not the server's.
            Some(Size { max: None, .. }) => {
                self.uncertain = true;
                Range::UNKNOWN
            }
            None if matches!(ty, Ty::Dyn) => {
                self.uncertain = true;
                Range::UNKNOWN
            }
            // Scalars, objects and library values: no size to traverse.
            None => Range { min: 0, max: 0 },
        }
    }
}

/// What calling `o` costs beyond its arguments' own cost (`args`), and how large its
/// result can be. `target` is the receiver's type for a method; `int_literals` holds
/// each argument's value where it is an integer literal.
pub fn call(
    o: &Overload,
    target: Option<&Ty>,
    arg_types: &[Ty],
    int_literals: &[Option<i64>],
    args: Cost,
    sizes: &mut Unbounded,
) -> (Cost, Option<Size>) {
    let n = o.name.as_str();
    let size_of = |sizes: &mut Unbounded, i: usize| arg_types.get(i).map(|t| sizes.size(t)).unwrap_or(Range::UNKNOWN);
    let known = |r: Range| Size { max: (r.max != u64::MAX).then_some(r.max), unbounded: None };
    // Kubernetes' libraries first, as the API server asks its own estimator first.
    if let Some(t) = target {
        match n {
            "isSorted" | "sum" | "max" | "min" | "indexOf" | "lastIndexOf" if matches!(t, Ty::List(..)) => {
                let mut per_item = Cost::fixed(1);
                if let Ty::List(item, _) = t
                    && matches!(**item, Ty::String(_) | Ty::Bytes(_))
                {
                    per_item = per_item.add(sizes.size(item).factor(STRING_TRAVERSAL));
                }
                return (per_item.times(sizes.size(t)).add(args), None);
            }
            "lowerAscii" | "upperAscii" | "substring" | "trim" => {
                let sz = sizes.size(t);
                return (sz.factor(STRING_TRAVERSAL).add(args), Some(known(sz)));
            }
            "replace" => {
                let sz = sizes.size(t);
                return (sz.factor(2.0 * STRING_TRAVERSAL).add(args), Some(known(sz)));
            }
            "split" => {
                let sz = sizes.size(t);
                let max = int_literals.get(1).copied().flatten().map_or(sz.max, |i| i.max(0) as u64);
                return (sz.factor(2.0 * STRING_TRAVERSAL).add(args), Some(Size { max: Some(max), unbounded: None }));
            }
            "join" => {
                let items = sizes.size(t);
                let item = match t {
                    Ty::List(item, _) => sizes.size(item),
                    _ => Range::UNKNOWN,
                };
                let sep = if arg_types.is_empty() { Range { min: 0, max: 0 } } else { size_of(sizes, 0) };
                let total = Range {
                    min: items.min.saturating_mul(item.min),
                    max: items.max.saturating_mul(item.max.saturating_add(sep.max)),
                };
                return (total.factor(2.0 * STRING_TRAVERSAL).add(args), Some(known(total)));
            }
            "find" | "findAll" => {
                let sz = sizes.size(t);
                let strc = sz.plus(Range { min: 1, max: 1 }).factor(STRING_TRAVERSAL);
                let rec = size_of(sizes, 0).factor(REGEX_LENGTH);
                return (strc.product(rec).add(args), Some(known(sz)));
            }
            "validate" | "containsIP" | "containsCIDR" if arg_types.first().is_some_and(|a| matches!(a, Ty::String(_))) => {
                return (size_of(sizes, 0).factor(STRING_TRAVERSAL).add(args), None);
            }
            _ => {}
        }
    } else {
        match n {
            "url" | "isURL" | "quantity" | "isQuantity" | "ip" | "isIP" | "cidr" | "isCIDR" | "semver" | "isSemver"
                if matches!(arg_types.first(), Some(Ty::String(_))) =>
            {
                return (size_of(sizes, 0).factor(STRING_TRAVERSAL).add(args), None);
            }
            "ip.isCanonical" => return (size_of(sizes, 0).factor(2.0 * STRING_TRAVERSAL).add(args), None),
            "sets.contains" | "sets.equivalent" | "sets.intersects" => {
                let a = size_of(sizes, 0);
                let b = size_of(sizes, 1);
                let pairs = Range { min: a.min.saturating_mul(b.min), max: a.max.saturating_mul(b.max) };
                return (pairs.factor(1.0).add(args), None);
            }
            "strings.quote" => {
                let sz = size_of(sizes, 0);
                let out = Range { min: sz.min.saturating_add(2), max: sz.max.saturating_mul(2).saturating_add(2) };
                return (sz.factor(STRING_TRAVERSAL).add(args), Some(known(out)));
            }
            _ => {}
        }
    }
    // cel-go's own estimates of its standard library.
    match (n, target) {
        ("format", Some(t)) => return (sizes.size(t).factor(STRING_TRAVERSAL).add(args), None),
        ("startsWith" | "endsWith", Some(_)) => return (size_of(sizes, 0).factor(STRING_TRAVERSAL).add(args), None),
        ("matches", _) => {
            let (text, pattern) = match target {
                Some(t) => (sizes.size(t), size_of(sizes, 0)),
                None => (size_of(sizes, 0), size_of(sizes, 1)),
            };
            let strc = text.plus(Range { min: 1, max: 1 }).factor(STRING_TRAVERSAL);
            return (strc.product(pattern.factor(REGEX_LENGTH)).add(args), None);
        }
        ("contains", Some(t)) => {
            let strc = sizes.size(t).factor(STRING_TRAVERSAL);
            return (strc.product(size_of(sizes, 0).factor(STRING_TRAVERSAL)).add(args), None);
        }
        ("bytes", None) if matches!(arg_types.first(), Some(Ty::String(_))) => {
            let sz = size_of(sizes, 0);
            let out = Range { min: sz.min, max: sz.max.saturating_mul(4) };
            return (sz.factor(STRING_TRAVERSAL).add(args), Some(known(out)));
        }
        ("string", None) if matches!(arg_types.first(), Some(Ty::Bytes(_))) => {
            let sz = size_of(sizes, 0);
            return (sz.factor(STRING_TRAVERSAL).add(args), Some(known(sz)));
        }
        ("@in", None) => return (size_of(sizes, 1).factor(1.0).add(args), None),
        ("_+_", None) if matches!(arg_types.first(), Some(Ty::String(_) | Ty::Bytes(_) | Ty::List(..))) => {
            let total = size_of(sizes, 0).plus(size_of(sizes, 1));
            let cost = if matches!(arg_types.first(), Some(Ty::List(..))) {
                Cost::fixed(1)
            } else {
                total.factor(STRING_TRAVERSAL)
            };
            return (cost.add(args), Some(known(total)));
        }
        ("_==_" | "_!=_" | "_<_" | "_>_" | "_<=_" | "_>=_", None) => {
            let equality = matches!(n, "_==_" | "_!=_");
            let textual = matches!(arg_types.first(), Some(Ty::String(_) | Ty::Bytes(_)));
            if equality || textual {
                let a = size_of(sizes, 0);
                let b = size_of(sizes, 1);
                let smallest = a.max.min(b.max);
                let r = Range { min: u64::from(smallest > 0), max: smallest };
                return (r.factor(STRING_TRAVERSAL).add(args), None);
            }
        }
        _ => {}
    }
    (Cost::fixed(1).add(args), None)
}

/// How many times a rule at a node can run for one object: the product of the bounds
/// of the lists and maps above it, or, under an unbounded one, as many copies of the
/// node as fit in a request.
pub fn unbounded_cardinality(min_size: u64) -> u64 {
    crate::types::MAX_REQUEST_BYTES / (min_size + 1)
}

/// The API server's words for a cost over budget: the factor it is over by.
pub fn over_by(cost: u64, limit: u64) -> String {
    let factor = cost as f64 / limit as f64;
    if factor >= 100.0 { "more than 100x".to_string() } else { format!("{factor:.1}x") }
}
