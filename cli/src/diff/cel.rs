//! An added or changed `x-kubernetes-validations` rule, classed by what it does to the
//! objects a cluster already stores. The API server runs a rule:
//!
//! - without `oldSelf`: on create and on every update. Since validation ratcheting
//!   (KEP-4008, GA on every release kubegen supports: 1.35 and later), an update that leaves the
//!   rule's value unchanged is not refused by it. The server pairs a value with its old
//!   one by field name, map key, and in a list-map by the item's keys; the items of an
//!   atomic or set list are not paired, so their failures are excused only while the
//!   nearest value that is — the whole list — stays unchanged. On a server without ratcheting (older than kubegen supports) any update of a stored object that breaks the rule is refused,
//!   whatever the update changes.
//! - with `oldSelf` (a transition rule): on every update whose old object holds the
//!   value, never ratcheted; with `optionalOldSelf: true` on creates too, `oldSelf`
//!   then empty.
//!
//! So the classes: *ratchet-safe* (holds on every Kubernetes release kubegen supports (1.35 and later, where validation ratcheting is GA): stored objects keep updating as long as the value stays),
//! *breaks stored objects* (under an atomic or set list, a stored item that breaks the
//! rule blocks every update that changes its list, even one that leaves that item
//! alone; at the root, or on a value that may hold fields the schema does not declare,
//! which the server never finds unchanged, it blocks every update; a transition rule
//! not proved to hold when `oldSelf` equals `self` blocks every update of an object
//! whose stored value it refuses), *breaks new writes only* (a transition rule that
//! provably holds while the value is unchanged, kubegen-cel's `transition`: what a new
//! update does to the value is checked, not what is stored). Every class is an error by
//! default, as a tightened bound is: new writes of values the server took are refused.
//! Whether a stored value breaks the rule is a question about data, which
//! `--cluster` answers (`cluster.rs`); the class says what follows if one does.
//! tests/tests/e2e/diff.rs holds each class to a real API server.
//!
//! Apart from its class, a rule has a cost: the API server estimates it when it reads
//! the CRD, per evaluation times how often the rule can run per object (the `maxItems`
//! and `maxProperties` above it), and refuses a rule over its budget. The estimate
//! differs between releases (a function's cost, or whether it is declared at all), so
//! an added or changed rule is estimated for every release kubegen supports:
//! `cel-rule-over-budget` names the releases that refuse it, `cel-rule-near-budget` those
//! where it is within a tenth of the budget, which a bound raised later (a relaxation,
//! not reported itself) tips over. An unchanged rule is reported when its estimate grew
//! (a `maxItems` above it raised) to over or near the budget.

use kubegen_cel::check::{Part, Scope, Site, check_rule_for, compile, parse};
use kubegen_cel::cost::{self, PER_RULE_LIMIT};
use kubegen_cel::library::RELEASES;
use kubegen_cel::schema::Placement;
use kubegen_cel::transition::holds_when_unchanged;
use kubegen_cel::types;
use kubegen_core::schema::markers::Rule;
use kubegen_core::schema::node::Node;
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CelClass {
    /// Under an atomic or set list: a stored item that breaks the rule blocks every
    /// update that changes the list (every update of the object without ratcheting).
    /// At the root or on a value that may hold undeclared fields, or a transition rule
    /// that may refuse an unchanged value: every update.
    BreaksStoredObjects,
    /// Only new writes are checked: a transition rule that holds whenever the value is
    /// unchanged.
    BreaksNewWrites,
    /// Ratcheting lets stored objects update while the value stays as it is.
    RatchetSafe,
}

impl CelClass {
    pub fn words(self) -> &'static str {
        match self {
            CelClass::BreaksStoredObjects => "breaks stored objects",
            CelClass::BreaksNewWrites => "breaks new writes only",
            CelClass::RatchetSafe => "ratchet-safe",
        }
    }
}

/// A CEL finding: its check, the node's path, the message, its class (`None`: the
/// rule could not be read, reported as `unhandled`).
pub type Report<'a> = dyn FnMut(&'static str, &str, String, Option<CelClass>) + 'a;

/// Where a node stands for the rules on it, in the old schema and the new (kubegen-cel's
/// `Placement`: how often a rule can run per object, whether the server pairs the node
/// with its old value). Ratcheting and `oldSelf` are the new schema's.
#[derive(Clone, Copy, Debug)]
pub struct Stand {
    pub old: Placement,
    pub new: Placement,
}

impl Stand {
    /// The root of a version's schema.
    pub const ROOT: Stand = Stand { old: Placement::ROOT, new: Placement::ROOT };
}

/// Compares the rules of one node. A rule is the same rule when its text and
/// `optionalOldSelf` are; rules left over on both sides are paired by message, then in
/// order, as changed; the new side's others are added. Removed rules relax validation
/// and are not reported. A rule kept as it was is reported only when its cost estimate
/// grew to over or near the budget.
pub fn compare(report: &mut Report<'_>, path: &str, old: &Node, new: &Node, stand: Stand) {
    let same = |a: &Rule, b: &Rule| a.rule == b.rule && a.optional_old_self == b.optional_old_self;
    // A rule's estimate reads its node's subtree and cardinality only.
    let moved = old != new || stand.old.cardinality != stand.new.cardinality;
    for rule in new.validations.iter().flatten().filter(|_| moved) {
        if let Some(was) = old.validations.iter().flatten().find(|o| same(o, rule)) {
            let before = Before { rule: was, node: old, cardinality: stand.old.cardinality };
            budget(report, path, rule, new, stand, Some(before));
        }
    }
    let olds: Vec<&Rule> = old.validations.iter().flatten().collect();
    let mut left_old: Vec<&Rule> =
        olds.iter().copied().filter(|o| !new.validations.iter().flatten().any(|n| same(o, n))).collect();
    let left_new: Vec<&Rule> = new.validations.iter().flatten().filter(|n| !olds.iter().any(|o| same(o, n))).collect();
    let mut unpaired = Vec::new();
    let mut pairs = Vec::new();
    for rule in &left_new {
        let by_message = left_old.iter().position(|o| o.message.is_some() && o.message == rule.message);
        match by_message {
            Some(i) => pairs.push((left_old.remove(i), *rule)),
            None => unpaired.push(*rule),
        }
    }
    for rule in unpaired {
        match left_old.is_empty() {
            false => pairs.push((left_old.remove(0), rule)),
            true => added(report, path, rule, new, stand, None),
        }
    }
    for (was, rule) in pairs {
        added(report, path, rule, new, stand, Some(was));
    }
}

fn added(report: &mut Report<'_>, path: &str, rule: &Rule, node: &Node, stand: Stand, was: Option<&Rule>) {
    let correlatable = stand.new.correlatable;
    let at = if path.is_empty() { "the root" } else { path };
    let check = if was.is_some() { "cel-rule-changed" } else { "cel-rule-added" };
    let what = match was {
        Some(was) => format!("the rule `{}` of {at} became `{}`", was.rule, rule.rule),
        None => format!("the rule `{}` was added to {at}", rule.rule),
    };
    let classed = match classed(rule, node, path, correlatable) {
        Ok(classed) => classed,
        Err(why) => {
            report("unhandled", path, format!("{what}, and it could not be classed: {why}"), None);
            return;
        }
    };
    let class = classed.class();
    let why = match classed {
        Classed::Transition if rule.optional_old_self == Some(true) => {
            "it reads oldSelf with optionalOldSelf, and holds whenever the value is unchanged: it runs on creates (oldSelf empty) and on updates, never ratcheted; an update that leaves the value passes, and one that changes it is judged by the transition it makes (every Kubernetes release with transition rules)"
        }
        Classed::Transition => {
            "it reads oldSelf, and holds whenever the value is unchanged: it runs on updates only and is never ratcheted; creates are not checked, an update that leaves the value passes, and one that changes it is judged by the transition it makes (every Kubernetes release with transition rules)"
        }
        Classed::TransitionRefusingUnchanged => {
            "it reads oldSelf, and with oldSelf equal to self it is not shown to hold, so it can refuse a value that stays as stored: the server runs it on every update of an object holding the value, never ratcheted, so a stored object whose value breaks it is refused on every update, a label change or a status write too, until the update changes the value (every Kubernetes release with transition rules)"
        }
        Classed::RatchetSafe => {
            "on every Kubernetes release kubegen supports (1.35 and later, where validation ratcheting is GA) a stored object that breaks it updates as long as the value stays; creates and changed values must satisfy it. A server without ratcheting would refuse every update of such an object"
        }
        Classed::NeverUnchanged => {
            "its value may hold fields the schema does not declare (the root's metadata, an embedded resource's, preserve-unknown-fields), and the server never finds such a value unchanged, so ratcheting never excuses it: a stored object that breaks it is refused on every update, a label change or a status write too (every release)"
        }
        Classed::UnderList => {
            "it stands under an atomic or set list, whose items the server cannot pair with their old ones: on every Kubernetes release kubegen supports (1.35 and later, where validation ratcheting is GA) ratcheting excuses a stored item that breaks it only while the whole list stays unchanged, so an update that changes the list at all (another item edited, one appended) is refused until every item satisfies it"
        }
    };
    report(check, path, format!("{what}; {}: {why}", class.words()), Some(class));
    budget(report, path, rule, node, stand, None);
}

/// The old side of a rule kept as it was: its cost counts as the baseline.
struct Before<'a> {
    rule: &'a Rule,
    node: &'a Node,
    cardinality: Option<u64>,
}

/// One release's estimate of a rule where it stands, as the API server makes it when it
/// reads the CRD (kubegen-cel's `check_rule_for`, the check `manifests` makes too).
#[derive(Debug, PartialEq)]
enum Estimate {
    /// Refused for its cost: the server's words (the cost, the budget, what to bound).
    Over(String),
    /// The worst of the rule's and its message expression's cost, times how often it
    /// can run per object: what the per-rule budget holds.
    Within(u64),
    /// Refused for another reason (not compiling there, a message with a line break).
    Refused(String),
    /// A size the estimate relies on is unknown: no verdict.
    Unknown,
}

fn estimate(
    rule: &Rule,
    node: &Node,
    path: &str,
    correlatable: bool,
    cardinality: Option<u64>,
    release: u32,
) -> Estimate {
    let site = Site { schema: node, path, cardinality, correlatable };
    match check_rule_for(rule, &site, release) {
        Ok(v) if v.uncertain_cost => Estimate::Unknown,
        Ok(v) => {
            let times = cardinality
                .or_else(|| types::of_schema(node, path).map(|d| cost::unbounded_cardinality(d.min_size)))
                .unwrap_or(1);
            Estimate::Within(v.rule_cost.max(v.message_cost).saturating_mul(times))
        }
        Err(problems) => {
            let (costs, others): (Vec<_>, Vec<_>) = problems.into_iter().partition(|p| p.part == Part::Cost);
            let words =
                |ps: Vec<kubegen_cel::check::Problem>| ps.into_iter().map(|p| p.message).collect::<Vec<_>>().join("; ");
            match (costs.is_empty(), others.is_empty()) {
                (false, _) => Estimate::Over(words(costs)),
                (true, false) => Estimate::Refused(words(others)),
                (true, true) => Estimate::Unknown,
            }
        }
    }
}

/// Within a tenth of the per-rule budget: a bound raised later tips it over.
fn near(cost: u64) -> bool {
    (PER_RULE_LIMIT - PER_RULE_LIMIT / 10..=PER_RULE_LIMIT).contains(&cost)
}

/// `Kubernetes 1.35, 1.36`.
fn releases(rs: &[u32]) -> String {
    format!("Kubernetes {}", rs.iter().map(|r| format!("1.{r}")).collect::<Vec<_>>().join(", "))
}

/// Groups releases by what they said, in release order.
fn grouped<T: PartialEq>(items: Vec<(u32, T)>) -> Vec<(Vec<u32>, T)> {
    let mut out: Vec<(Vec<u32>, T)> = Vec::new();
    for (release, item) in items {
        match out.iter_mut().find(|(_, t)| *t == item) {
            Some((rs, _)) => rs.push(release),
            None => out.push((vec![release], item)),
        }
    }
    out
}

/// The rule's estimate on every release kubegen supports: over the budget
/// (`cel-rule-over-budget`), within a tenth of it (`cel-rule-near-budget`), or refused
/// for another reason (`unhandled`). With `before` (the rule is unchanged), only a
/// release whose estimate grew to over or near the budget is reported.
fn budget(report: &mut Report<'_>, path: &str, rule: &Rule, node: &Node, stand: Stand, before: Option<Before<'_>>) {
    let at = if path.is_empty() { "the root" } else { path };
    let (mut over, mut close, mut refused) = (Vec::new(), Vec::new(), Vec::new());
    for &release in RELEASES {
        let now = estimate(rule, node, path, stand.new.correlatable, stand.new.cardinality, release);
        let was =
            before.as_ref().map(|b| estimate(b.rule, b.node, path, stand.new.correlatable, b.cardinality, release));
        let grew = |now: u64| match &was {
            None => true,
            Some(Estimate::Within(was)) => now > *was,
            Some(_) => false,
        };
        match now {
            Estimate::Over(words) if !matches!(was, Some(Estimate::Over(_))) => over.push((release, words)),
            Estimate::Within(cost) if near(cost) && grew(cost) => close.push((release, cost)),
            Estimate::Refused(words) if before.is_none() => refused.push((release, words)),
            _ => {}
        }
    }
    let what = match before {
        Some(_) => {
            format!("the rule `{}` of {at} (unchanged, but a bound above or on it was raised or dropped)", rule.rule)
        }
        None => format!("the rule `{}` of {at}", rule.rule),
    };
    for (rs, words) in grouped(over) {
        report(
            "cel-rule-over-budget",
            path,
            format!(
                "{what} is over the API server's cost budget on {}, whose servers refuse the CRD: {words}",
                releases(&rs)
            ),
            None,
        );
    }
    if !close.is_empty() {
        let said: Vec<String> = grouped(close)
            .into_iter()
            .map(|(rs, cost)| format!("{cost} ({}%) on {}", cost * 100 / PER_RULE_LIMIT, releases(&rs)))
            .collect();
        report(
            "cel-rule-near-budget",
            path,
            format!(
                "{what} is estimated near the API server's budget of {PER_RULE_LIMIT} per rule: {}; a maxItems, maxProperties or maxLength raised above or on it would make those servers refuse the CRD",
                said.join("; ")
            ),
            None,
        );
    }
    for (rs, words) in grouped(refused) {
        report("unhandled", path, format!("{what} is refused by the API server of {}: {words}", releases(&rs)), None);
    }
}

/// The class of a rule standing on `node` (at `path`), and why: whether it reads
/// `oldSelf` comes from compiling it as the API server does (the checker marks every
/// use); a rule that does is *breaks new writes only* when it provably holds with
/// `oldSelf` equal to `self` (kubegen-cel's [`holds_when_unchanged`]), else *breaks
/// stored objects*: the server runs it, unratcheted, on every update of an object
/// holding the value.
fn classed(rule: &Rule, node: &Node, path: &str, correlatable: bool) -> Result<Classed, String> {
    parse(&rule.rule)?;
    let decl = types::of_schema(node, path).ok_or("the node has no type CEL can see")?;
    let release = kubegen_cel::library::RELEASES.last().copied().unwrap_or_default();
    let scope = Scope {
        self_ty: decl.ty,
        correlatable,
        optional_old_self: rule.optional_old_self == Some(true),
        partial: decl.partial,
        release,
    };
    let compiled = compile(&rule.rule, &scope)?;
    if compiled.reads_old_self && !correlatable {
        return Err("it reads oldSelf under an atomic or set list, whose values the server cannot pair with their old ones: the server refuses the rule".into());
    }
    Ok(if compiled.reads_old_self {
        match holds_when_unchanged(&rule.rule, node, scope.optional_old_self)? {
            true => Classed::Transition,
            false => Classed::TransitionRefusingUnchanged,
        }
    } else if !correlatable {
        Classed::UnderList
    } else if never_unchanged(node, path) {
        Classed::NeverUnchanged
    } else {
        Classed::RatchetSafe
    })
}

/// Why a rule has its class: each class has more than one road to it, and the message
/// says which.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Classed {
    RatchetSafe,
    /// Under an atomic or set list.
    UnderList,
    /// At the root, or on a value with fields its schema does not declare.
    NeverUnchanged,
    /// A transition rule that provably holds while the value is unchanged.
    Transition,
    /// A transition rule not shown to hold while the value is unchanged.
    TransitionRefusingUnchanged,
}

impl Classed {
    fn class(self) -> CelClass {
        match self {
            Classed::RatchetSafe => CelClass::RatchetSafe,
            Classed::Transition => CelClass::BreaksNewWrites,
            Classed::UnderList | Classed::NeverUnchanged | Classed::TransitionRefusingUnchanged => {
                CelClass::BreaksStoredObjects
            }
        }
    }
}

/// The class alone, as the tests read it.
#[cfg(test)]
pub fn classify(rule: &Rule, node: &Node, path: &str, correlatable: bool) -> Result<CelClass, String> {
    classed(rule, node, path, correlatable).map(Classed::class)
}

/// Whether the server can never find a value of `node` unchanged: its equality
/// (apiserver `pkg/cel/common/equality.go`) walks the schema, and a field the schema
/// does not declare makes two objects unequal. The root holds `metadata`, whose fields
/// no CRD declares; an embedded resource holds its own; preserve-unknown-fields keeps
/// any. A rule on such a value is never ratcheted.
pub fn never_unchanged(node: &Node, path: &str) -> bool {
    fn undeclared(n: &Node) -> bool {
        n.preserve_unknown_fields == Some(true)
            || n.embedded_resource == Some(true)
            || n.properties.iter().flatten().any(|(_, p)| undeclared(p))
            || n.map_values().is_some_and(undeclared)
            || n.items.as_deref().is_some_and(undeclared)
    }
    path.is_empty() || undeclared(node)
}
