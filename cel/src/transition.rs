//! Whether a transition rule (one that reads `oldSelf`) passes every update that leaves
//! its value as stored. The API server never ratchets a transition rule: it runs it on
//! every update whose old object holds the value, with the stored value as `oldSelf`.
//! A rule that can fail when `self == oldSelf` (`oldSelf != 'legacy' || self !=
//! 'legacy'` on a stored `legacy`) therefore refuses every update of an object holding
//! such a value — a label change, a status write — and so breaks stored objects, not
//! only new writes.
//!
//! Decided soundly, by proof rather than by sampling: `oldSelf` is replaced by `self`
//! (with `optionalOldSelf`, `oldSelf.hasValue()` by `true` and `oldSelf.value()` and
//! `oldSelf.orValue(x)` by `self`) and the rule simplified symbolically — `x == x`,
//! `x <= x`, `x >= x` are true when `x` cannot fail to evaluate, `a || true` is true,
//! `a && true` is `a`, `!false` is true, a conditional on a known condition is its
//! branch — with what a `has()` test establishes carried into the other side of `||`,
//! `&&` and `? :` (`!has(oldSelf.x) || self.x == oldSelf.x`). Anything the
//! simplification does not reduce to `true` is reported as not holding: a rule is never
//! called safe for stored objects without a proof.
//!
//! What "cannot fail to evaluate" means: a field read is an error when the field is
//! absent (`no such key`), so `self.x == oldSelf.x` fails on an object without `x` —
//! unless `has()` says `x` is present, or the schema makes it so: required, or with a
//! default (which the server applies to stored objects when it reads them). `self` is
//! never null where a rule runs (the server skips rules on a null value).

use cel::common::ast::operators::{
    CONDITIONAL, EQUALS, GREATER, GREATER_EQUALS, LESS, LESS_EQUALS, LOGICAL_AND, LOGICAL_NOT, LOGICAL_OR, NOT_EQUALS,
};
use cel::common::ast::{
    CallExpr, ComprehensionExpr, EntryExpr, Expr, IdedEntryExpr, IdedExpr, ListExpr, LiteralValue, MapExpr, SelectExpr,
    StructExpr,
};
use kubegen_core::schema::node::Node;

use crate::names;

/// Whether `rule`, standing on `schema`, provably evaluates to `true` whenever the value
/// is unchanged (`oldSelf` equal to `self`); `optional_old_self` is the rule's
/// `optionalOldSelf`. `false` means no proof was found, not that a failing value exists.
/// An error is the parser's, for a rule that does not parse.
pub fn holds_when_unchanged(rule: &str, schema: &Node, optional_old_self: bool) -> Result<bool, String> {
    let parsed = cel::parser::Parser::new()
        .enable_optional_syntax(true)
        .max_recursion_depth(250)
        .parse(rule)
        .map_err(|e| e.to_string())?;
    let unchanged = substitute(&parsed, optional_old_self);
    let proof = Proof { schema };
    Ok(proof.truth(&unchanged, &Facts::default()) == Some(true))
}

fn ided(expr: Expr) -> IdedExpr {
    IdedExpr { id: 0, expr }
}

fn self_() -> Expr {
    Expr::Ident("self".into())
}

fn is_old_self(e: &IdedExpr) -> bool {
    matches!(&e.expr, Expr::Ident(name) if name == "oldSelf")
}

/// The rule with `oldSelf` read as `self`, every id zeroed so that equal
/// subexpressions compare equal.
fn substitute(e: &IdedExpr, optional: bool) -> IdedExpr {
    let go = |e: &IdedExpr| substitute(e, optional);
    let expr = match &e.expr {
        Expr::Ident(name) if name == "oldSelf" && !optional => self_(),
        Expr::Call(call) if optional && call.target.as_deref().is_some_and(is_old_self) => {
            match (call.func_name.as_str(), call.args.len()) {
                ("hasValue", 0) => Expr::Literal(LiteralValue::Boolean(true.into())),
                ("value", 0) | ("orValue", 1) => self_(),
                _ => Expr::Call(CallExpr {
                    func_name: call.func_name.clone(),
                    target: call.target.as_deref().map(|t| Box::new(go(t))),
                    args: call.args.iter().map(go).collect(),
                }),
            }
        }
        Expr::Call(call) => Expr::Call(CallExpr {
            func_name: call.func_name.clone(),
            target: call.target.as_deref().map(|t| Box::new(go(t))),
            args: call.args.iter().map(go).collect(),
        }),
        Expr::Select(s) => {
            Expr::Select(SelectExpr { operand: Box::new(go(&s.operand)), field: s.field.clone(), test: s.test })
        }
        Expr::Comprehension(c) => Expr::Comprehension(Box::new(ComprehensionExpr {
            iter_range: go(&c.iter_range),
            iter_var: c.iter_var.clone(),
            iter_var2: c.iter_var2.clone(),
            accu_var: c.accu_var.clone(),
            accu_init: go(&c.accu_init),
            loop_cond: go(&c.loop_cond),
            loop_step: go(&c.loop_step),
            result: go(&c.result),
        })),
        Expr::List(l) => Expr::List(ListExpr {
            elements: l.elements.iter().map(go).collect(),
            optional_indices: l.optional_indices.clone(),
        }),
        Expr::Map(m) => Expr::Map(MapExpr { entries: m.entries.iter().map(|x| entry(x, optional)).collect() }),
        Expr::Struct(s) => Expr::Struct(StructExpr {
            type_name: s.type_name.clone(),
            entries: s.entries.iter().map(|x| entry(x, optional)).collect(),
        }),
        other => other.clone(),
    };
    ided(expr)
}

fn entry(e: &IdedEntryExpr, optional: bool) -> IdedEntryExpr {
    let expr = match &e.expr {
        EntryExpr::StructField(f) => {
            let mut f = f.clone();
            f.value = substitute(&f.value, optional);
            EntryExpr::StructField(f)
        }
        EntryExpr::MapEntry(m) => {
            let mut m = m.clone();
            m.key = substitute(&m.key, optional);
            m.value = substitute(&m.value, optional);
            EntryExpr::MapEntry(m)
        }
    };
    IdedEntryExpr { id: 0, expr }
}

/// What is known on one side of a condition: field reads (`self.x`, as their
/// select expressions) known present, and known absent.
#[derive(Clone, Default)]
struct Facts {
    present: Vec<Expr>,
    absent: Vec<Expr>,
}

impl Facts {
    fn with(&self, more: Facts) -> Facts {
        let mut out = self.clone();
        out.present.extend(more.present);
        out.absent.extend(more.absent);
        out
    }
}

struct Proof<'a> {
    schema: &'a Node,
}

/// The two operands of a binary operator call.
fn binary<'e>(call: &'e CallExpr, op: &str) -> Option<(&'e IdedExpr, &'e IdedExpr)> {
    match (call.func_name == op, call.target.as_ref(), call.args.as_slice()) {
        (true, None, [a, b]) => Some((a, b)),
        _ => None,
    }
}

/// `e.f` as a field read (not a `has()` test) of `e`.
fn read(operand: &IdedExpr, field: &str) -> Expr {
    Expr::Select(SelectExpr { operand: Box::new(operand.clone()), field: field.into(), test: false })
}

impl Proof<'_> {
    /// The value `e` has in every state `facts` allow, when it provably evaluates
    /// without an error to a boolean it names; `None` when not known.
    fn truth(&self, e: &IdedExpr, facts: &Facts) -> Option<bool> {
        match &e.expr {
            Expr::Literal(LiteralValue::Boolean(b)) => Some(**b),
            Expr::Select(s) if s.test => {
                let field = read(&s.operand, &s.field);
                if self.present(&field, facts) {
                    Some(true)
                } else if facts.absent.contains(&field) && self.evaluable(&s.operand, facts) {
                    Some(false)
                } else {
                    None
                }
            }
            Expr::Call(call) => self.call(call, facts),
            _ => None,
        }
    }

    fn call(&self, call: &CallExpr, facts: &Facts) -> Option<bool> {
        if let (LOGICAL_NOT, None, [a]) = (call.func_name.as_str(), &call.target, call.args.as_slice()) {
            return self.truth(a, facts).map(|b| !b);
        }
        if let Some((a, b)) = binary(call, LOGICAL_OR) {
            // True when either side is true, whatever the other does (an error too).
            let (ta, tb) = (self.truth(a, facts), self.truth(b, facts));
            if ta == Some(true) || tb == Some(true) {
                return Some(true);
            }
            if ta == Some(false) && tb == Some(false) {
                return Some(false);
            }
            // Where one side is not true, what that says holds for the other.
            let proved = |x: &IdedExpr, y: &IdedExpr| self.truth(y, &facts.with(self.not_true(x, facts))) == Some(true);
            return (proved(a, b) || proved(b, a)).then_some(true);
        }
        if let Some((a, b)) = binary(call, LOGICAL_AND) {
            let (ta, tb) = (self.truth(a, facts), self.truth(b, facts));
            if ta == Some(false) || tb == Some(false) {
                return Some(false);
            }
            let proved = |x: &IdedExpr, y: &IdedExpr| {
                self.truth(x, facts) == Some(true) && self.truth(y, &facts.with(self.when(x, true))) == Some(true)
            };
            return (proved(a, b) || proved(b, a)).then_some(true);
        }
        if let (CONDITIONAL, None, [c, a, b]) = (call.func_name.as_str(), &call.target, call.args.as_slice()) {
            let on = |value: bool, branch: &IdedExpr| self.truth(branch, &facts.with(self.when(c, value)));
            return match self.truth(c, facts) {
                Some(value) => on(value, if value { a } else { b }),
                None if self.evaluable(c, facts) => {
                    let (ta, tb) = (on(true, a), on(false, b));
                    if ta == tb { ta } else { None }
                }
                None => None,
            };
        }
        // A value compared with itself, when reading it cannot fail. The values a rule
        // reads come from JSON, so no NaN: `x <= x` holds as `x == x` does.
        for (op, same) in [
            (EQUALS, true),
            (LESS_EQUALS, true),
            (GREATER_EQUALS, true),
            (NOT_EQUALS, false),
            (LESS, false),
            (GREATER, false),
        ] {
            if let Some((a, b)) = binary(call, op) {
                return (a == b && self.evaluable(a, facts)).then_some(same);
            }
        }
        None
    }

    /// Whether evaluating `e` cannot fail: `self`, a literal, a field read known present,
    /// a `has()` test of something that evaluates, and the logic, equality and `size()`
    /// of such.
    fn evaluable(&self, e: &IdedExpr, facts: &Facts) -> bool {
        match &e.expr {
            Expr::Ident(name) => name == "self",
            Expr::Literal(_) => true,
            Expr::Select(s) if s.test => self.evaluable(&s.operand, facts),
            Expr::Select(s) => self.evaluable(&s.operand, facts) && self.present(&e.expr, facts),
            // The size of a string, bytes, list or map read without failing.
            Expr::Call(CallExpr { func_name, target: Some(t), args }) if func_name == "size" && args.is_empty() => {
                self.evaluable(t, facts)
            }
            Expr::Call(call) => {
                let op = call.func_name.as_str();
                let total = [LOGICAL_NOT, LOGICAL_AND, LOGICAL_OR, EQUALS, NOT_EQUALS, "size"];
                call.target.is_none() && total.contains(&op) && call.args.iter().all(|a| self.evaluable(a, facts))
            }
            _ => false,
        }
    }

    /// Whether the field read `read` (`self.a.b`) is present: a `has()` above says so,
    /// or the schema requires it or gives it a default at each step from `self`.
    fn present(&self, read: &Expr, facts: &Facts) -> bool {
        facts.present.contains(read) || self.always_present(read).is_some()
    }

    /// The schema node of a field read that every value of `self` holds.
    fn always_present(&self, read: &Expr) -> Option<&Node> {
        let Expr::Select(s) = read else { return None };
        let parent = match &s.operand.expr {
            Expr::Ident(name) if name == "self" => self.schema,
            operand @ Expr::Select(_) => self.always_present(operand)?,
            _ => return None,
        };
        let (name, node) =
            parent.properties.iter().flatten().find(|(name, _)| names::identifiers(name).contains(&s.field))?;
        let required = parent.required.iter().flatten().any(|r| r == name);
        (required || node.default.is_some()).then_some(node)
    }

    /// What holds in every state where `e` is not true (false, or an error): neither
    /// side of an `||` is true, the second judged with what the first says; otherwise
    /// what follows from `e` being false, when it cannot fail.
    fn not_true(&self, e: &IdedExpr, facts: &Facts) -> Facts {
        if let Expr::Call(call) = &e.expr
            && let Some((a, b)) = binary(call, LOGICAL_OR)
        {
            let first = self.not_true(a, facts);
            let second = self.not_true(b, &facts.with(first.clone()));
            return first.with(second);
        }
        if self.evaluable(e, facts) { self.when(e, false) } else { Facts::default() }
    }

    /// What holds when `e` evaluated to `value` (without an error).
    fn when(&self, e: &IdedExpr, value: bool) -> Facts {
        match &e.expr {
            Expr::Select(s) if s.test => {
                let field = read(&s.operand, &s.field);
                match value {
                    // The test evaluated its operand: every read on the way is present.
                    true => {
                        let mut present = vec![field];
                        let mut at = &s.operand.expr;
                        while let Expr::Select(inner) = at {
                            present.push(at.clone());
                            at = &inner.operand.expr;
                        }
                        Facts { present, absent: Vec::new() }
                    }
                    false => Facts { present: Vec::new(), absent: vec![field] },
                }
            }
            Expr::Call(call) => {
                if let (LOGICAL_NOT, None, [a]) = (call.func_name.as_str(), &call.target, call.args.as_slice()) {
                    return self.when(a, !value);
                }
                // `a && b` true, or `a || b` false: both sides said so.
                let both = if value { LOGICAL_AND } else { LOGICAL_OR };
                match binary(call, both) {
                    Some((a, b)) => self.when(a, value).with(self.when(b, value)),
                    None => Facts::default(),
                }
            }
            _ => Facts::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::holds_when_unchanged;
    use kubegen_core::schema::node::Node;

    fn node(v: serde_json::Value) -> Node {
        Node::from_value(&v).expect("a schema node")
    }

    /// issue 28: found by a new user's trial — `oldSelf != 'legacy' || self != 'legacy'`
    /// was classed "breaks new writes only", but it refuses every update of an object
    /// storing `legacy`, a label change too.
    #[test]
    fn rules_that_hold_on_an_unchanged_value_are_told_from_those_that_may_not() {
        let string = node(serde_json::json!({"type": "string"}));
        let object = node(serde_json::json!({"type": "object",
            "required": ["name"],
            "properties": {
                "name": {"type": "string"}, "x": {"type": "string"}, "mode": {"type": "string", "default": "a"},
                "inner": {"type": "object", "properties": {"y": {"type": "integer"}}}}}));
        let holds = [
            "self == oldSelf",
            "oldSelf == self",
            "self >= oldSelf",
            "oldSelf <= self",
            "self <= oldSelf && self >= oldSelf",
            "self == oldSelf || self.size() > 3",
            "self.size() > 3 || self == oldSelf",
            "!(self != oldSelf)",
            "true",
            "self == oldSelf ? true : false",
            "self.size() == oldSelf.size()",
            "size(self) <= size(oldSelf)",
        ];
        let holds_on_objects = [
            "!has(oldSelf.x) || self.x == oldSelf.x",
            "!has(self.x) || self.x == oldSelf.x",
            "has(self.x) ? self.x == oldSelf.x : true",
            "self.x == oldSelf.x || !has(self.x)",
            "!has(oldSelf.x) || has(self.x)",
            "self.name == oldSelf.name",
            "self.mode == oldSelf.mode && self.name == oldSelf.name",
            "!has(self.inner) || !has(self.inner.y) || self.inner.y == oldSelf.inner.y",
        ];
        // Not proved: each fails on some unchanged value (`'legacy'`, `'x'`, any).
        let not_proved = [
            "oldSelf != 'legacy' || self != 'legacy'",
            "oldSelf != 'x'",
            "self != oldSelf",
            "self > oldSelf",
            "self == oldSelf && self != 'x'",
            "self.size() > oldSelf.size()",
        ];
        let not_proved_on_objects = [
            // `x` absent: reading it fails.
            "self.x == oldSelf.x",
            "has(self.x) && self.x == oldSelf.x",
            // `inner` absent: has(self.inner.y) fails, and so does the rule.
            "!has(self.inner.y) || self.inner.y == oldSelf.inner.y",
        ];
        for rule in holds {
            assert_eq!(holds_when_unchanged(rule, &string, false), Ok(true), "{rule}");
        }
        for rule in holds_on_objects {
            assert_eq!(holds_when_unchanged(rule, &object, false), Ok(true), "{rule}");
        }
        for rule in not_proved {
            assert_eq!(holds_when_unchanged(rule, &string, false), Ok(false), "{rule}");
        }
        for rule in not_proved_on_objects {
            assert_eq!(holds_when_unchanged(rule, &object, false), Ok(false), "{rule}");
        }
        // optionalOldSelf: oldSelf is an optional holding the old value on an update.
        for (rule, want) in [
            ("!oldSelf.hasValue() || self == oldSelf.value()", true),
            ("self == oldSelf.orValue('')", true),
            ("oldSelf.hasValue() && oldSelf.value() != 'legacy'", false),
        ] {
            assert_eq!(holds_when_unchanged(rule, &string, true), Ok(want), "{rule}");
        }
        assert!(holds_when_unchanged("self ==", &string, false).is_err());
    }
}
