//! The paths a rule reads from `self` and `oldSelf`, and what it does with each value:
//! `self.endpoint.tls.cert.startsWith('a')` reads `endpoint`, `endpoint.tls` and
//! `endpoint.tls.cert`, the last as a string. Comprehension variables stand for the
//! items of what they range over (`self.ports.all(p, p.port > 0)` reads `ports[*].port`
//! as a number).
//!
//! The derive checks a rule against the one type it sees; what a rule reads through
//! another type it turns into obligations on that type's fields (`kubegen::__private::cel`).

use cel::common::ast::{Expr, IdedExpr, LiteralValue};

/// One step of a path.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Seg {
    /// A field, by its CEL identifier.
    Field(String),
    /// A list's item or a map's value (an index, or a macro's second variable).
    Each,
    /// A macro's only variable: a list's item, or a map's key.
    Item,
}

/// What the rule does with the value at the end of a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Use {
    Read,
    /// Calls a function that takes a string.
    Str,
    /// `size()`.
    Sized,
    /// Ranges over it in a macro.
    Iterate,
    /// Compares it with (or does arithmetic with) a number literal.
    Number,
    /// Compares it with a bool literal.
    Bool,
}

/// A path read from `self` (or `oldSelf`, which has the same type) and its use.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Read {
    pub path: Vec<Seg>,
    pub usage: Use,
}

/// Methods and functions that take a string (their receiver, or their only argument).
const STRING_METHODS: &[&str] = &[
    "startsWith",
    "endsWith",
    "matches",
    "contains",
    "lowerAscii",
    "upperAscii",
    "trim",
    "split",
    "replace",
    "indexOf",
    "lastIndexOf",
    "find",
    "findAll",
    "substring",
    "charAt",
];
const STRING_FUNCTIONS: &[&str] =
    &["isURL", "url", "isQuantity", "quantity", "isIP", "ip", "isCIDR", "cidr", "isSemver", "semver"];
const COMPARISONS: &[&str] = &["_==_", "_!=_", "_<_", "_<=_", "_>_", "_>=_", "_+_", "_-_", "_*_", "_/_", "_%_"];

/// Every path `source` reads from `self` or `oldSelf`, with its prefixes, sorted and
/// without repeats; `None` when the rule does not parse (its parse error is reported
/// elsewhere).
pub fn reads(source: &str) -> Option<Vec<Read>> {
    let expr = crate::check::ast(source).ok()?;
    let mut r = Reader { vars: Vec::new(), out: Vec::new() };
    r.expr(&expr);
    let mut out = r.out;
    out.sort();
    out.dedup();
    // A path also used some other way needs no plain read of its own.
    let used: Vec<Vec<Seg>> = out.iter().filter(|r| r.usage != Use::Read).map(|r| r.path.clone()).collect();
    out.retain(|r| r.usage != Use::Read || !used.contains(&r.path));
    Some(out)
}

struct Reader {
    /// Comprehension variables and the path they stand for (`None`: not from self).
    vars: Vec<(String, Option<Vec<Seg>>)>,
    out: Vec<Read>,
}

impl Reader {
    /// The path `e` reads from `self`, if it is one.
    fn path(&self, e: &IdedExpr) -> Option<Vec<Seg>> {
        match &e.expr {
            Expr::Ident(name) => match self.vars.iter().rev().find(|(n, _)| n == name) {
                Some((_, p)) => p.clone(),
                None if name == "self" || name == "oldSelf" => Some(Vec::new()),
                None => None,
            },
            Expr::Select(s) if !s.test => {
                let mut p = self.path(&s.operand)?;
                p.push(Seg::Field(s.field.clone()));
                Some(p)
            }
            Expr::Call(c) => match (c.func_name.as_str(), c.target.as_deref(), c.args.as_slice()) {
                ("_?._", None, [operand, field]) => {
                    let Expr::Literal(LiteralValue::String(f)) = &field.expr else { return None };
                    let mut p = self.path(operand)?;
                    p.push(Seg::Field(f.inner().to_string()));
                    Some(p)
                }
                ("_[_]" | "_[?_]", None, [operand, _]) => {
                    let mut p = self.path(operand)?;
                    p.push(Seg::Each);
                    Some(p)
                }
                // An optional's value is the value the chain read.
                ("value" | "orValue", Some(target), _) => self.path(target),
                _ => None,
            },
            _ => None,
        }
    }

    fn record(&mut self, path: Vec<Seg>, usage: Use) {
        for n in 1..path.len() {
            self.out.push(Read { path: path[..n].to_vec(), usage: Use::Read });
        }
        if !path.is_empty() {
            self.out.push(Read { path, usage });
        }
    }

    /// Records the path `e` reads with `usage` and walks what it does not read as a path.
    fn used(&mut self, e: &IdedExpr, usage: Use) {
        match self.path(e) {
            Some(p) => {
                self.record(p, usage);
                self.inner(e);
            }
            None => self.expr(e),
        }
    }

    /// The parts of a path expression that are expressions of their own (an index).
    fn inner(&mut self, e: &IdedExpr) {
        match &e.expr {
            Expr::Select(s) => self.inner(&s.operand),
            Expr::Call(c) => {
                if let Some(t) = &c.target {
                    self.inner(t);
                }
                if let Some((first, rest)) = c.args.split_first() {
                    self.inner(first);
                    for a in rest {
                        self.expr(a);
                    }
                }
            }
            _ => {}
        }
    }

    /// The two-variable macros the parser leaves as calls (`all(k, v, e)`,
    /// `transformMap(k, v, [f,] e)`, `sortBy(x, key)`): the first variable an index or
    /// key, the second the item or value; with one (`sortBy`), the item.
    fn two_variable(&mut self, c: &cel::common::ast::CallExpr) -> bool {
        let Some(target) = c.target.as_deref() else { return false };
        let ident = |i: usize| match c.args.get(i).map(|a| &a.expr) {
            Some(Expr::Ident(n)) => Some(n.clone()),
            _ => None,
        };
        let (vars, body) = match (c.func_name.as_str(), c.args.len()) {
            ("all" | "exists" | "existsOne" | "exists_one", 3)
            | ("transformList" | "transformMap" | "transformMapEntry", 3 | 4) => match (ident(0), ident(1)) {
                (Some(a), Some(b)) => (vec![a, b], &c.args[2..]),
                _ => return false,
            },
            ("sortBy", 2) => match ident(0) {
                Some(a) => (vec![a], &c.args[1..]),
                None => return false,
            },
            _ => return false,
        };
        let range = self.path(target);
        match &range {
            Some(p) => self.record(p.clone(), Use::Iterate),
            None => self.expr(target),
        }
        let depth = self.vars.len();
        let at = |seg: Seg| {
            range.clone().map(|mut p| {
                p.push(seg);
                p
            })
        };
        if vars.len() == 2 {
            self.vars.push((vars[0].clone(), None));
            self.vars.push((vars[1].clone(), at(Seg::Each)));
        } else {
            self.vars.push((vars[0].clone(), at(Seg::Item)));
        }
        for b in body {
            self.expr(b);
        }
        self.vars.truncate(depth);
        true
    }

    fn expr(&mut self, e: &IdedExpr) {
        if self.path(e).is_some() {
            return self.used(e, Use::Read);
        }
        match &e.expr {
            Expr::Select(s) => {
                // `has(self.a.b)`: the server resolves the field at compile time.
                match self.path(&s.operand) {
                    Some(mut p) => {
                        p.push(Seg::Field(s.field.clone()));
                        self.record(p, Use::Read);
                        self.inner(&s.operand);
                    }
                    None => self.expr(&s.operand),
                }
            }
            Expr::Call(c) if self.two_variable(c) => {}
            Expr::Call(c) => {
                let name = c.func_name.as_str();
                if let Some(t) = &c.target {
                    let usage = match name {
                        n if STRING_METHODS.contains(&n) => Use::Str,
                        "size" => Use::Sized,
                        _ => Use::Read,
                    };
                    self.used(t, usage);
                }
                let literal = |a: &IdedExpr| match &a.expr {
                    Expr::Literal(LiteralValue::Int(_) | LiteralValue::UInt(_) | LiteralValue::Double(_)) => {
                        Some(Use::Number)
                    }
                    Expr::Literal(LiteralValue::Boolean(_)) => Some(Use::Bool),
                    Expr::Literal(LiteralValue::String(_)) => Some(Use::Str),
                    _ => None,
                };
                match (name, c.target.is_none(), c.args.as_slice()) {
                    (n, true, [a]) if STRING_FUNCTIONS.contains(&n) => self.used(a, Use::Str),
                    ("size", true, [a]) => self.used(a, Use::Sized),
                    (n, true, [a, b]) if COMPARISONS.contains(&n) => {
                        // A string on one side and a number on the other is refused, and
                        // so is `+` of a string and a number.
                        match (literal(a), literal(b)) {
                            (None, Some(u)) => {
                                self.used(a, u);
                                self.expr(b);
                            }
                            (Some(u), None) => {
                                self.expr(a);
                                self.used(b, u);
                            }
                            _ => {
                                self.expr(a);
                                self.expr(b);
                            }
                        }
                    }
                    _ => {
                        for a in &c.args {
                            self.expr(a);
                        }
                    }
                }
            }
            Expr::List(l) => l.elements.iter().for_each(|x| self.expr(x)),
            Expr::Map(m) => {
                for entry in &m.entries {
                    if let cel::common::ast::EntryExpr::MapEntry(me) = &entry.expr {
                        self.expr(&me.key);
                        self.expr(&me.value);
                    }
                }
            }
            Expr::Struct(s) => {
                for entry in &s.entries {
                    if let cel::common::ast::EntryExpr::StructField(f) = &entry.expr {
                        self.expr(&f.value);
                    }
                }
            }
            Expr::Comprehension(c) => {
                let range = self.path(&c.iter_range);
                match &range {
                    Some(p) => self.record(p.clone(), Use::Iterate),
                    None => self.expr(&c.iter_range),
                }
                self.expr(&c.accu_init);
                let depth = self.vars.len();
                let each = range.map(|mut p| {
                    p.push(Seg::Each);
                    p
                });
                self.vars.push((c.accu_var.clone(), None));
                match &c.iter_var2 {
                    // Two variables: an index or key, then the item or value.
                    Some(v2) => {
                        self.vars.push((c.iter_var.clone(), None));
                        self.vars.push((v2.clone(), each));
                    }
                    // One: a list's item, or a map's key.
                    None => {
                        let item = each.map(|mut p| {
                            p.pop();
                            p.push(Seg::Item);
                            p
                        });
                        self.vars.push((c.iter_var.clone(), item));
                    }
                }
                self.expr(&c.loop_cond);
                self.expr(&c.loop_step);
                self.expr(&c.result);
                self.vars.truncate(depth);
            }
            Expr::Ident(_) | Expr::Literal(_) | Expr::Unspecified => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(s: &str) -> Seg {
        Seg::Field(s.into())
    }

    fn read(path: Vec<Seg>, usage: Use) -> Read {
        Read { path, usage }
    }

    #[test]
    fn paths_through_selects_optionals_and_macros() {
        assert_eq!(
            reads("self.endpoint.port.startsWith('8')").unwrap(),
            vec![read(vec![f("endpoint")], Use::Read), read(vec![f("endpoint"), f("port")], Use::Str)]
        );
        assert_eq!(
            reads("has(self.endpoint.hostname)").unwrap(),
            vec![read(vec![f("endpoint")], Use::Read), read(vec![f("endpoint"), f("hostname")], Use::Read)]
        );
        assert_eq!(
            reads("self.?endpoint.?tls.cert.orValue('') == ''").unwrap(),
            vec![
                read(vec![f("endpoint")], Use::Read),
                read(vec![f("endpoint"), f("tls")], Use::Read),
                read(vec![f("endpoint"), f("tls"), f("cert")], Use::Str),
            ]
        );
        assert_eq!(
            reads("self.ports.all(p, p.port > 0)").unwrap(),
            vec![
                read(vec![f("ports")], Use::Iterate),
                read(vec![f("ports"), Seg::Item], Use::Read),
                read(vec![f("ports"), Seg::Item, f("port")], Use::Number),
            ]
        );
        assert_eq!(
            reads("self.labels.all(k, v, v.size() < 3 && k.startsWith('a'))").unwrap(),
            vec![read(vec![f("labels")], Use::Iterate), read(vec![f("labels"), Seg::Each], Use::Sized),]
        );
        assert_eq!(reads("self.x == oldSelf.x").unwrap(), vec![read(vec![f("x")], Use::Read)]);
        assert_eq!(
            reads("self.backends['a'].weight > 1").unwrap().last(),
            Some(&read(vec![f("backends"), Seg::Each, f("weight")], Use::Number))
        );
        assert_eq!(reads("self.a +"), None);
    }
}
