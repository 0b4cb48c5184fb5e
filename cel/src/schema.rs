//! Every rule of a CRD version's schema, checked where it stands: with the node's type,
//! whether the server can correlate the node with its old value (for `oldSelf`), how
//! many times it can run per object, and the CRD's total cost budget.

use kubegen_core::schema::node::{Node, Step};

use crate::check::{Part, Problem, Site, check_rule, check_rule_for};
use crate::cost::{self, PER_CRD_LIMIT};

/// A refused rule: where it stands and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The node's path (`spec.hosts[*]`; empty at the root).
    pub path: String,
    /// Which rule of the node's `x-kubernetes-validations`.
    pub index: usize,
    pub rule: String,
    pub problem: Problem,
}

/// What checking a whole schema found.
#[derive(Debug, Default)]
pub struct Report {
    pub refusals: Vec<Refusal>,
    /// The estimated cost of all rules together, as the CRD budget counts it.
    pub total_cost: u64,
}

/// Checks every rule of `schema` (a version's `openAPIV3Schema`) for every release
/// kubegen supports.
pub fn check(schema: &Node) -> Report {
    checked(schema, None)
}

/// Checks every rule of `schema` as the API server of Kubernetes 1.`release` does.
pub fn check_for(schema: &Node, release: u32) -> Report {
    checked(schema, Some(release))
}

/// Where a node stands for the rules on it: how many times it can occur per object, and
/// whether the server pairs it with its old value (what ratcheting and `oldSelf` need).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    /// The product of `maxItems`/`maxProperties` above the node; `None` under an
    /// unbounded list or map.
    pub cardinality: Option<u64>,
    pub correlatable: bool,
}

impl Placement {
    /// A version schema's root.
    pub const ROOT: Placement = Placement { cardinality: Some(1), correlatable: true };

    /// The items of a list placed here: once per item (at most `max_items`), and matched
    /// with their old values only in a list-map.
    pub fn items(self, max_items: Option<u64>, list_type: Option<&str>) -> Placement {
        Placement {
            cardinality: times(self.cardinality, max_items),
            correlatable: self.correlatable && list_type == Some("map"),
        }
    }

    /// The values of a map placed here: once per entry (at most `max_properties`).
    pub fn values(self, max_properties: Option<u64>) -> Placement {
        Placement { cardinality: times(self.cardinality, max_properties), ..self }
    }
}

fn checked(schema: &Node, release: Option<u32>) -> Report {
    let mut report = Report::default();
    // What a node passes to its children, by depth (the walk visits parents first).
    struct Frame {
        path: String,
        placement: Placement,
        max_items: Option<u64>,
        max_properties: Option<u64>,
        list_type: Option<String>,
    }
    let mut frames: Vec<Frame> = Vec::new();
    schema.walk(&mut |steps: &[Step<'_>], s: &Node| {
        frames.truncate(steps.len());
        let (path, placement) = match (frames.last(), steps.last()) {
            (None, _) => (String::new(), Placement::ROOT),
            (Some(parent), Some(Step::Property(name))) => {
                let path = if parent.path.is_empty() { name.to_string() } else { format!("{}.{name}", parent.path) };
                (path, parent.placement)
            }
            (Some(parent), Some(Step::Items)) => {
                (format!("{}[*]", parent.path), parent.placement.items(parent.max_items, parent.list_type.as_deref()))
            }
            (Some(parent), Some(Step::AdditionalProperties)) => {
                (format!("{}[*]", parent.path), parent.placement.values(parent.max_properties))
            }
            // Junctors hold value validations only; the server runs no rules there.
            (Some(_), _) => return false,
        };
        let Placement { cardinality, correlatable } = placement;
        for (index, rule) in s.validations.iter().flatten().enumerate() {
            let site = Site { schema: s, path: &path, cardinality, correlatable };
            let verdict = match release {
                Some(r) => check_rule_for(rule, &site, r),
                None => check_rule(rule, &site),
            };
            match verdict {
                Ok(verdict) => report.total_cost = report.total_cost.saturating_add(verdict.total),
                Err(problems) => report.refusals.extend(problems.into_iter().map(|problem| Refusal {
                    path: path.clone(),
                    index,
                    rule: rule.rule.clone(),
                    problem,
                })),
            }
        }
        frames.push(Frame {
            path,
            placement,
            max_items: s.max_items,
            max_properties: s.max_properties,
            list_type: s.list_type.clone(),
        });
        true
    });
    if report.total_cost > PER_CRD_LIMIT {
        report.refusals.push(Refusal {
            path: String::new(),
            index: 0,
            rule: String::new(),
            problem: Problem {
                part: Part::Cost,
                message: format!(
                    "the estimated cost of all rules together, {}, exceeds the API server's budget of {PER_CRD_LIMIT} per CRD by a factor of {}; add maxItems, maxProperties and maxLength where lists, maps and strings are declared",
                    report.total_cost,
                    cost::over_by(report.total_cost, PER_CRD_LIMIT)
                ),
            },
        });
    }
    report
}

/// How many times a node under a list or map of at most `n` entries can occur.
fn times(cardinality: Option<u64>, n: Option<u64>) -> Option<u64> {
    cardinality.zip(n).map(|(c, n)| c.saturating_mul(n))
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    fn check(schema: &Value) -> Report {
        super::check(&Node::from_value(schema).expect("a schema"))
    }

    #[test]
    fn rules_are_checked_where_they_stand() {
        let schema = json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {
            "items": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}},
                "x-kubernetes-validations": [{"rule": "self.name == oldSelf.name"}]}},
            "hosts": {"type": "array", "maxItems": 5, "items": {"type": "string", "maxLength": 10,
                "x-kubernetes-validations": [{"rule": "self.size() > 0"}]}},
        }, "x-kubernetes-validations": [{"rule": "self.items.size() < 3"}, {"rule": "self.nope"}]}}});
        let report = check(&schema);
        let found: Vec<(&str, &str)> =
            report.refusals.iter().map(|r| (r.path.as_str(), r.problem.message.as_str())).collect();
        assert_eq!(found.len(), 3, "{found:?}");
        assert!(found[0].0 == "spec" && found[0].1.contains("undefined field 'nope'"), "{found:?}");
        assert!(found[1].0 == "spec.items[*]" && found[1].1.contains("uncorrelatable"), "{found:?}");
        // Two unbounded strings compared once per item of an unbounded list.
        assert!(found[2].1.contains("`+kubebuilder:validation:MaxLength` to `spec.items[*].name`"), "{found:?}");
    }

    #[test]
    fn a_rule_runs_once_per_item_of_the_lists_above_it() {
        let item = |max: u64| {
            json!({"type": "object", "properties": {"name": {"type": "string", "maxLength": max}},
            "x-kubernetes-validations": [{"rule": "self.name.contains('a')"}]})
        };
        let schema = |items: Value| {
            json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {
            "items": items}}}})
        };
        let unbounded = check(&schema(json!({"type": "array", "items": item(64)})));
        assert!(unbounded.refusals.iter().any(|r| r.problem.message.contains("once per item")), "{unbounded:?}");
        let bounded = check(&schema(json!({"type": "array", "maxItems": 100, "items": item(64)})));
        assert!(bounded.refusals.is_empty(), "{bounded:?}");
        assert!(bounded.total_cost > 100 && bounded.total_cost < 100_000, "{}", bounded.total_cost);
    }
}
