//! Parse, type-check and cost-estimate a rule as the API server does when it reads a
//! CRD (apiextensions-apiserver `pkg/apiserver/schema/cel/compilation.go`): the whole
//! CEL grammar with optional types, `self`/`oldSelf` typed from the schema, the
//! functions of [`crate::library`], and the costs of [`crate::cost`]. Every message
//! reads as the server's, `ERROR: <input>:line:col: ...`, so a user who has seen one
//! knows the other.

use std::collections::BTreeMap;

use cel::common::ast::{CallExpr, ComprehensionExpr, EntryExpr, Expr, IdedExpr, LiteralValue, SourceInfo};
use kubegen_core::schema::node::Node;

use crate::cost::{self, CREATE_LIST, CREATE_MAP, Cost, PER_RULE_LIMIT, Unbounded};
use crate::library::{self, Overload};
use crate::types::{self, Size, Ty};

/// The variables a rule sees.
#[derive(Clone, Debug)]
pub struct Scope {
    /// The type of `self`: the node the rule stands on.
    pub self_ty: Ty,
    /// Whether `oldSelf` may be used here: false under a list the server cannot
    /// correlate with its old value (anything but `x-kubernetes-list-type: map`).
    pub correlatable: bool,
    /// `optionalOldSelf: true`: `oldSelf` is an `optional` that is empty on create.
    pub optional_old_self: bool,
    /// The type of `self` holds values the checker cannot see (see [`types::UNKNOWN`]).
    pub partial: bool,
    /// The Kubernetes minor release whose environment the rule is compiled in.
    pub release: u32,
}

/// What a compiled expression is.
#[derive(Debug)]
pub struct Compiled {
    pub ty: Ty,
    /// The estimated cost of one evaluation.
    pub cost: Cost,
    pub reads_old_self: bool,
    /// The schema nodes without a bound whose size the cost estimate relied on.
    pub unbounded: Vec<String>,
    /// The cost went through a value of unknown size: not a verdict.
    pub uncertain_cost: bool,
}

/// Parses `source` with the API server's grammar (optional types included), expanding
/// the standard macros; the error is the parser's, `ERROR: <input>:line:col: ...`.
pub fn parse(source: &str) -> Result<(), String> {
    parsed(source).map(|_| ())
}

/// The parsed rule, macros expanded, for a reader of its structure ([`crate::reads`]).
pub fn ast(source: &str) -> Result<IdedExpr, String> {
    parsed(source).map(|p| p.0.clone())
}

/// A parse, with the source positions the checker's messages need.
type Parsed = std::rc::Rc<(IdedExpr, cel::common::ast::SourceInfo)>;

/// `source` parsed once per thread: a rule is parsed, its reads found, then compiled for
/// every release kubegen supports, and the derive (a debug build in a user's build)
/// spends most of its time in the parser. A parse is a pure function of the text; at
/// most 4,096 are kept.
fn parsed(source: &str) -> Result<Parsed, String> {
    thread_local! {
        static PARSED: std::cell::RefCell<std::collections::HashMap<String, Result<Parsed, String>>> =
            std::cell::RefCell::default();
    }
    if let Some(hit) = PARSED.with(|p| p.borrow().get(source).cloned()) {
        return hit;
    }
    let result =
        parser(source).and_then(|p| p.parse_with_source_info(source).map_err(|e| e.to_string())).map(std::rc::Rc::new);
    PARSED.with(|p| {
        let mut p = p.borrow_mut();
        // A bound for callers that parse without end (a fuzzer, a long-lived process).
        if p.len() >= 4096 {
            p.clear();
        }
        p.insert(source.to_string(), result.clone());
    });
    result
}

/// The API server's parser limit: expressions nest at most this deep.
const MAX_RECURSION: usize = 250;

/// The parser, with the server's recursion limit, once the source's bracket nesting is
/// known to be within it (the parser's own recursion would otherwise exhaust the stack
/// before it can report the limit).
fn parser(source: &str) -> Result<cel::parser::Parser, String> {
    let (mut depth, mut deepest, mut quote) = (0usize, 0usize, None::<char>);
    let mut chars = source.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(_), '\\') => {
                chars.next();
            }
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '(' | '[' | '{') => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            (None, ')' | ']' | '}') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    if deepest > MAX_RECURSION {
        return Err(format!("ERROR: <input>:1:1: expression recursion limit exceeded: {MAX_RECURSION}"));
    }
    thread_local! {
        // Building the standard environment registers every function: once per thread.
        static STDLIB: cel::Env = cel::Env::stdlib();
    }
    Ok(STDLIB.with(|env| env.parser()).max_recursion_depth(MAX_RECURSION as u16))
}

/// Compiles `source` in `scope`: parse, type-check, estimate cost.
pub fn compile(source: &str, scope: &Scope) -> Result<Compiled, String> {
    let parsed = parsed(source)?;
    let (expr, info) = (&parsed.0, &parsed.1);
    if let Some(at) = two_argument_exists_one(source) {
        let col = source[..at].chars().count() + 1;
        return Err(format!("ERROR: <input>:1:{col}: undeclared reference to 'existsOne' (in container '')"));
    }
    let mut c = Checker {
        release: scope.release,
        info,
        vars: Vec::new(),
        schema_vars: Vec::new(),
        errors: Vec::new(),
        reads_old_self: false,
        sizes: Unbounded { partial: scope.partial, ..Unbounded::default() },
        in_format: 0,
    };
    c.vars.push(("self".into(), scope.self_ty.clone()));
    let old =
        if scope.optional_old_self { Ty::Optional(Box::new(scope.self_ty.clone())) } else { scope.self_ty.clone() };
    c.vars.push(("oldSelf".into(), old));
    let (ty, cost) = c.check(expr);
    if !c.errors.is_empty() {
        return Err(c.errors.join("\n"));
    }
    Ok(Compiled {
        ty,
        cost,
        reads_old_self: c.reads_old_self,
        unbounded: c.sizes.paths.into_iter().collect(),
        uncertain_cost: c.sizes.uncertain,
    })
}

struct Checker<'a> {
    release: u32,
    info: &'a SourceInfo,
    vars: Vec<(String, Ty)>,
    /// Comprehension variables bound to a schema node's items, values, keys or indices:
    /// like `self.x`, the server's estimator sizes what they read from the schema.
    schema_vars: Vec<(String, bool)>,
    errors: Vec<String>,
    reads_old_self: bool,
    sizes: Unbounded,
    /// How many `'...'.format(...)` calls enclose the expression being checked.
    in_format: usize,
}

/// A bound of type parameters while an overload is matched.
type Bindings = BTreeMap<char, Ty>;

impl Checker<'_> {
    fn error(&mut self, id: u64, msg: impl AsRef<str>) {
        let (line, col) = self.position(id);
        let msg = format!("ERROR: <input>:{line}:{col}: {}", msg.as_ref());
        if !self.errors.contains(&msg) {
            self.errors.push(msg);
        }
    }

    fn position(&self, id: u64) -> (usize, usize) {
        let Some((start, _)) = self.info.offset_for(id) else { return (1, 1) };
        let before = &self.info.source.as_bytes()[..(start as usize).min(self.info.source.len())];
        let before = String::from_utf8_lossy(before);
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, col)
    }

    /// Whether `e` reads a node of the schema: `self`, `oldSelf`, a field of one, an
    /// index into one, or a comprehension variable over one.
    fn schema_path(&self, e: &IdedExpr) -> bool {
        match &e.expr {
            Expr::Ident(name) => match self.schema_vars.iter().rev().find(|(n, _)| n == name) {
                Some((_, from_schema)) => *from_schema,
                None => (name == "self" || name == "oldSelf") && self.vars.iter().take(2).any(|(n, _)| n == name),
            },
            Expr::Select(s) if !s.test => self.schema_path(&s.operand),
            Expr::Call(c) if matches!(c.func_name.as_str(), "_[_]") && c.target.is_none() => {
                c.args.first().is_some_and(|a| self.schema_path(a))
            }
            _ => false,
        }
    }

    fn var(&self, name: &str) -> Option<&Ty> {
        self.vars.iter().rev().find(|(n, _)| n == name).map(|(_, t)| t)
    }

    fn check(&mut self, e: &IdedExpr) -> (Ty, Cost) {
        match &e.expr {
            Expr::Literal(l) => (literal(l), Cost::default()),
            Expr::Ident(name) => (self.ident(e.id, name), Cost::fixed(1)),
            Expr::Select(s) => {
                if let Some(name) = qualified(e).filter(|n| self.var(n.split('.').next().unwrap_or("")).is_none())
                    && let Some(t) = type_value(&name)
                {
                    return (t, Cost::fixed(1));
                }
                let (operand, cost) = self.check(&s.operand);
                let ty = self.select(e.id, &operand, &s.field);
                // The API servers kubegen supports estimate presence tests at no cost of
                // their own (cel-go's PresenceTestHasCost(false)); found by the generated
                // CEL tier: five has() on an unbounded list's items are accepted.
                let extra = match (&operand, s.test) {
                    (_, true) => Cost::default(),
                    (Ty::Object(_) | Ty::Map(..) | Ty::Dyn | Ty::IntOrString(_), false) => Cost::fixed(1),
                    _ => Cost::default(),
                };
                (if s.test { Ty::Bool } else { ty }, cost.plus(extra))
            }
            Expr::Call(call) => self.call(e, call),
            Expr::List(l) => {
                let mut cost = Cost::fixed(CREATE_LIST);
                let mut item: Option<Ty> = None;
                for (i, el) in l.elements.iter().enumerate() {
                    let (mut t, c) = self.check(el);
                    cost = cost.plus(c);
                    if l.optional_indices.contains(&i) {
                        t = match t {
                            Ty::Optional(inner) => *inner,
                            t if t.is_dyn() => Ty::Dyn,
                            other => {
                                self.error(
                                    el.id,
                                    format!("found no matching overload for 'optional element' applied to '({other})'"),
                                );
                                Ty::Dyn
                            }
                        };
                    }
                    item = Some(match item {
                        None => t,
                        Some(prev) => self.same(el.id, &prev, &t),
                    });
                }
                let n = l.elements.len() as u64;
                (Ty::List(Box::new(item.unwrap_or(Ty::Dyn)), Size::known(n)), cost)
            }
            Expr::Map(m) => {
                let mut cost = Cost::fixed(CREATE_MAP);
                let (mut key, mut value): (Option<Ty>, Option<Ty>) = (None, None);
                for entry in &m.entries {
                    let EntryExpr::MapEntry(me) = &entry.expr else { continue };
                    let (k, kc) = self.check(&me.key);
                    let (mut v, vc) = self.check(&me.value);
                    cost = cost.plus(kc).plus(vc);
                    if me.optional {
                        v = match v {
                            Ty::Optional(inner) => *inner,
                            other => other,
                        };
                    }
                    if !(matches!(k, Ty::Int | Ty::Uint | Ty::Bool | Ty::String(_)) || k.is_dyn()) {
                        self.error(me.key.id, format!("unsupported map key type: {k}"));
                    }
                    key = Some(match key {
                        None => k,
                        Some(p) => self.same(me.key.id, &p, &k),
                    });
                    value = Some(match value {
                        None => v,
                        Some(p) => self.same(me.value.id, &p, &v),
                    });
                }
                let n = m.entries.len() as u64;
                (Ty::Map(Box::new(key.unwrap_or(Ty::Dyn)), Box::new(value.unwrap_or(Ty::Dyn)), Size::known(n)), cost)
            }
            Expr::Struct(s) => {
                self.error(e.id, format!("undeclared reference to '{}' (in container '')", s.type_name));
                (Ty::Dyn, Cost::default())
            }
            Expr::Comprehension(c) => self.comprehension(c),
            Expr::Unspecified => (Ty::Dyn, Cost::default()),
        }
    }

    /// The elements of a literal list or map share one type (or are `dyn`).
    /// Within a string `format` call, whose argument mixes types by design, they need not.
    fn same(&mut self, id: u64, prev: &Ty, t: &Ty) -> Ty {
        join(prev, t).unwrap_or_else(|| {
            if self.in_format > 0 {
                return Ty::Dyn;
            }
            self.error(id, format!("expected type '{prev}' but found '{t}'"));
            Ty::Dyn
        })
    }

    fn ident(&mut self, id: u64, name: &str) -> Ty {
        if name == "oldSelf" {
            self.reads_old_self = true;
        }
        if let Some(t) = self.var(name) {
            return t.clone();
        }
        if let Some(t) = type_value(name) {
            return t;
        }
        self.error(id, format!("undeclared reference to '{name}' (in container '')"));
        Ty::Dyn
    }

    /// The type of `operand.field`: a declared property, a map's value, or an error.
    fn select(&mut self, id: u64, operand: &Ty, field: &str) -> Ty {
        match operand {
            Ty::Object(o) => match o.fields.get(field) {
                Some(t) => t.clone(),
                None => {
                    self.error(id, format!("undefined field '{field}'"));
                    Ty::Dyn
                }
            },
            Ty::Map(k, v, _) if matches!(**k, Ty::String(_) | Ty::Dyn) => (**v).clone(),
            t if t.is_dyn() => Ty::Dyn,
            Ty::Optional(inner) => {
                let t = self.select(id, inner, field);
                Ty::Optional(Box::new(unwrap_optional(t)))
            }
            other => {
                self.error(id, format!("type '{other}' does not support field selection"));
                Ty::Dyn
            }
        }
    }

    fn comprehension(&mut self, c: &ComprehensionExpr) -> (Ty, Cost) {
        let (range, range_cost) = self.check(&c.iter_range);
        let (iter, iter2) = match &range {
            Ty::List(item, _) => (if c.iter_var2.is_some() { Ty::Int } else { (**item).clone() }, (**item).clone()),
            // Map keys are declared strings without a bound of their own.
            Ty::Map(k, v, _) => (key_type(k), (**v).clone()),
            t if t.is_dyn() => (Ty::Dyn, Ty::Dyn),
            other => {
                self.error(
                    c.iter_range.id,
                    format!("expression of type '{other}' cannot be range of a comprehension (must be list, map, or dynamic)"),
                );
                (Ty::Dyn, Ty::Dyn)
            }
        };
        let (init, init_cost) = self.check(&c.accu_init);
        let depth = self.vars.len();
        let from_schema = self.schema_path(&c.iter_range);
        let schema_depth = self.schema_vars.len();
        self.schema_vars.push((c.iter_var.clone(), from_schema));
        if let Some(v2) = &c.iter_var2 {
            self.schema_vars.push((v2.clone(), from_schema));
        }
        self.vars.push((c.accu_var.clone(), init.clone()));
        self.vars.push((c.iter_var.clone(), iter));
        if let Some(v2) = &c.iter_var2 {
            self.vars.push((v2.clone(), iter2));
        }
        let (_, loop_cost) = self.check(&c.loop_cond);
        let (step, step_cost) = self.check(&c.loop_step);
        // `map` and `filter` start from `[]`: the accumulator takes the step's type,
        // as large as the range.
        let accu = match (&init, &step) {
            (Ty::List(i, _), Ty::List(s, _)) if i.is_dyn() => {
                let size = range.size().cloned().unwrap_or_default();
                Ty::List(Box::new(s.without_sizes()), size)
            }
            _ => init,
        };
        self.vars.truncate(depth);
        self.schema_vars.truncate(schema_depth);
        self.vars.push((c.accu_var.clone(), accu));
        let (result, result_cost) = self.check(&c.result);
        self.vars.truncate(depth);
        let iterations = self.sizes.size(&range);
        let cost = range_cost.plus(init_cost).plus(result_cost).plus(step_cost.plus(loop_cost).times(iterations));
        (result, cost)
    }

    fn call(&mut self, e: &IdedExpr, call: &CallExpr) -> (Ty, Cost) {
        if let Some(target) = call.target.as_deref()
            && let Some(result) = self.two_variable(target, call)
        {
            return result;
        }
        // `optional.of(x)`, `sets.contains(a, b)`: a qualified function, not a method.
        let mut name = call.func_name.clone();
        let mut target = call.target.as_deref();
        if let Some(t) = target
            && let Some(ns) = qualified(t)
            && self.var(ns.split('.').next().unwrap_or("")).is_none()
            && library::is_function(&format!("{ns}.{name}"))
        {
            name = format!("{ns}.{name}");
            target = None;
        }
        let Some(overloads) = library::overloads().get(&name) else {
            let mut args_cost = Cost::default();
            if let Some(t) = target {
                args_cost = args_cost.plus(self.check(t).1);
            }
            for a in &call.args {
                args_cost = args_cost.plus(self.check(a).1);
            }
            self.error(e.id, format!("undeclared reference to '{name}' (in container '')"));
            return (Ty::Dyn, args_cost);
        };
        let (recv, target_cost) = match target {
            Some(t) => {
                let (ty, c) = self.check(t);
                (Some(ty), c)
            }
            None => (None, Cost::default()),
        };
        let mut arg_types = Vec::with_capacity(call.args.len());
        let mut arg_costs = Vec::with_capacity(call.args.len());
        let format = name == "format" && recv.is_some();
        self.in_format += usize::from(format);
        for a in &call.args {
            let (t, c) = self.check(a);
            arg_types.push(t);
            arg_costs.push(c);
        }
        self.in_format -= usize::from(format);
        let args_cost = arg_costs.iter().fold(target_cost, |sum, c| sum.plus(*c));
        self.regex_constant(&name, call);
        self.constant_argument(&name, call);
        self.format_constant(&name, call);
        if name == "_?._" {
            let field = match call.args.get(1).map(|a| &a.expr) {
                Some(Expr::Literal(LiteralValue::String(s))) => s.inner().to_string(),
                _ => String::new(),
            };
            let operand = arg_types.first().cloned().unwrap_or(Ty::Dyn);
            let t = self.select(e.id, &operand, &field);
            return (Ty::Optional(Box::new(unwrap_optional(t))), args_cost.plus(Cost::fixed(1)));
        }
        let release = self.release;
        let overloads: Vec<&Overload> = overloads.iter().filter(|o| o.declared_in(release)).collect();
        let candidates: Vec<&Overload> = overloads
            .iter()
            .copied()
            .filter(|o| o.receiver.is_some() == recv.is_some() && o.params.len() == arg_types.len())
            .collect();
        for o in &candidates {
            let mut b = Bindings::new();
            let receiver_fits = match (&o.receiver, &recv) {
                (Some(p), Some(r)) => unify(p, r, &mut b),
                _ => true,
            };
            if receiver_fits && o.params.iter().zip(&arg_types).all(|(p, a)| unify(p, a, &mut b)) {
                let int_literals: Vec<Option<i64>> = call.args.iter().map(int_literal).collect();
                let (mut cost, size) =
                    cost::call(o, recv.as_ref(), &arg_types, &int_literals, target_cost, &arg_costs, &mut self.sizes);
                // Equality of scalars costs by the smaller operand's size, and the server's
                // estimator gives a scalar read from the schema none: `self.port == 1` costs
                // its operands alone, `size(self.name) == 3` one more (found by the
                // generated CEL tier, locating the budget's edge on the server).
                if matches!(name.as_str(), "_==_" | "_!=_")
                    && arg_types
                        .iter()
                        .all(|t| matches!(t, Ty::Bool | Ty::Int | Ty::Uint | Ty::Double | Ty::Duration | Ty::Timestamp))
                    && call.args.iter().any(|a| self.schema_path(a))
                {
                    cost = Cost { min: cost.min.saturating_sub(1), max: cost.max.saturating_sub(1) };
                }
                let mut ty = substitute(&o.result, &b);
                // Indexing and the conditional keep their operands' sizes; other results are
                // unsized.
                match name.as_str() {
                    "_[_]" | "_[?_]" | "dyn" => {}
                    "_?_:_" => {
                        // As large as the larger branch.
                        let larger = |t: &Ty, f: &Ty| match (t.size(), f.size()) {
                            (Some(a), Some(b)) => Some(Size {
                                max: a.max.zip(b.max).map(|(x, y)| x.max(y)),
                                unbounded: a.unbounded.clone().or(b.unbounded.clone()),
                            }),
                            _ => None,
                        };
                        if let (Some(size), Some(slot)) = (larger(&arg_types[1], &arg_types[2]), size_slot(&mut ty)) {
                            *slot = size;
                        }
                    }
                    _ => ty = ty.without_sizes(),
                }
                if let (Some(size), Some(slot)) = (size, size_slot(&mut ty)) {
                    *slot = size;
                }
                return (ty, cost);
            }
        }
        let shown = arg_types.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
        let applied = match &recv {
            Some(r) => format!("{r}.({shown})"),
            None => format!("({shown})"),
        };
        let display = call.func_name.as_str();
        if overloads.is_empty()
            || (candidates.is_empty() && overloads.iter().all(|o| o.receiver.is_some() != recv.is_some()))
        {
            self.error(e.id, format!("undeclared reference to '{display}' (in container '')"));
        } else {
            self.error(e.id, format!("found no matching overload for '{display}' applied to '{applied}'"));
        }
        (Ty::Dyn, args_cost.plus(Cost::fixed(1)))
    }

    /// The comprehensions CEL's extensions add and the parser leaves as calls:
    /// `all(i, v, p)`, `exists(k, v, p)`, `existsOne(i, v, p)`, `transformList(i, v, [f,] e)`,
    /// `transformMap(k, v, [f,] e)`, `transformMapEntry(k, v, [f,] e)`, and `sortBy(x, key)`.
    fn two_variable(&mut self, target: &IdedExpr, call: &CallExpr) -> Option<(Ty, Cost)> {
        let name = call.func_name.as_str();
        let ident = |i: usize| match call.args.get(i).map(|a| &a.expr) {
            Some(Expr::Ident(n)) => Some(n.clone()),
            _ => None,
        };
        let (vars, body) = match (name, call.args.len()) {
            ("all" | "exists" | "existsOne" | "exists_one", 3)
            | ("transformList" | "transformMap" | "transformMapEntry", 3 | 4) => {
                (vec![ident(0)?, ident(1)?], &call.args[2..])
            }
            ("sortBy", 2) => (vec![ident(0)?], &call.args[1..]),
            _ => return None,
        };
        let (range, range_cost) = self.check(target);
        let (first, second) = match &range {
            Ty::List(item, _) if vars.len() == 2 => (Ty::Int, (**item).clone()),
            Ty::List(item, _) => ((**item).clone(), Ty::Dyn),
            Ty::Map(k, v, _) => (key_type(k), (**v).clone()),
            t if t.is_dyn() => (Ty::Dyn, Ty::Dyn),
            other => {
                self.error(
                    target.id,
                    format!("expression of type '{other}' cannot be range of a comprehension (must be list, map, or dynamic)"),
                );
                (Ty::Dyn, Ty::Dyn)
            }
        };
        let depth = self.vars.len();
        let from_schema = self.schema_path(target);
        let schema_depth = self.schema_vars.len();
        for v in &vars {
            self.schema_vars.push((v.clone(), from_schema));
        }
        self.vars.push((vars[0].clone(), first.clone()));
        if let Some(v) = vars.get(1) {
            self.vars.push((v.clone(), second));
        }
        // What the expansion adds per iteration around the body (cel-go's two-variable
        // macros): `all` tests `@not_strictly_false(@result)` and steps `@result && p`,
        // `exists` negates the result too, `existsOne` steps `p ? @result + 1 : @result`,
        // `transformList` appends `[e]`. Found by the generated CEL tier: an `all` over an
        // unbounded list was estimated under the server's budget by one per item.
        let mut body_cost = Cost::fixed(match name {
            "all" => 3,
            "exists" => 4,
            "transformList" => 12,
            _ => 2,
        });
        let mut last = Ty::Dyn;
        for (i, b) in body.iter().enumerate() {
            let (t, c) = self.check(b);
            body_cost = body_cost.plus(c);
            let is_filter = body.len() == 2 && i == 0;
            let needs_bool = is_filter || matches!(name, "all" | "exists" | "existsOne" | "exists_one");
            if needs_bool && !(t == Ty::Bool || t.is_dyn()) {
                self.error(b.id, format!("expected type 'bool' but found '{t}'"));
            }
            last = t;
        }
        self.schema_vars.truncate(schema_depth);
        self.vars.truncate(depth);
        let size = range.size().cloned().unwrap_or_default();
        let result = match name {
            "transformList" => Ty::List(Box::new(last), size),
            "transformMap" => Ty::Map(Box::new(first), Box::new(last), size),
            "transformMapEntry" => match last {
                t @ Ty::Map(..) => t,
                t if t.is_dyn() => types::map(Ty::Dyn, Ty::Dyn),
                other => {
                    self.error(body[body.len() - 1].id, format!("expected type 'map' but found '{other}'"));
                    types::map(Ty::Dyn, Ty::Dyn)
                }
            },
            "sortBy" => range.clone(),
            _ => Ty::Bool,
        };
        let iterations = self.sizes.size(&range);
        Some((result, range_cost.plus(body_cost.times(iterations))))
    }

    /// A constant argument the server evaluates when it compiles the rule: a
    /// `duration(...)` or `timestamp(...)` of a literal must parse.
    fn constant_argument(&mut self, name: &str, call: &CallExpr) {
        let Some(arg) = call.args.first() else { return };
        let Expr::Literal(LiteralValue::String(s)) = &arg.expr else { return };
        let ok = match (name, call.target.is_some(), call.args.len()) {
            ("duration", false, 1) => crate::go_duration::parse(s.inner()).is_ok(),
            ("timestamp", false, 1) => is_timestamp(s.inner()),
            _ => return,
        };
        if !ok {
            self.error(arg.id, format!("invalid {name} argument"));
        }
    }

    /// A literal format string is parsed when the server compiles the rule, and its
    /// clauses counted against a literal argument list.
    fn format_constant(&mut self, name: &str, call: &CallExpr) {
        if name != "format" {
            return;
        }
        let Some(Expr::Literal(LiteralValue::String(f))) = call.target.as_deref().map(|t| &t.expr) else { return };
        let Some(arg) = call.args.first() else { return };
        match format_clauses(f.inner()) {
            Err(why) => self.error(arg.id, format!("could not parse formatting clause: {why}")),
            Ok(clauses) => {
                if let Expr::List(l) = &arg.expr
                    && clauses > l.elements.len()
                {
                    self.error(arg.id, format!("index {} out of range", l.elements.len()));
                }
            }
        }
    }

    /// A pattern written as a literal is compiled when the server compiles the rule.
    fn regex_constant(&mut self, name: &str, call: &CallExpr) {
        let pattern = match (name, call.target.is_some()) {
            ("matches" | "find" | "findAll", true) => call.args.first(),
            ("matches", false) => call.args.get(1),
            _ => None,
        };
        if let Some(p) = pattern
            && let Expr::Literal(LiteralValue::String(s)) = &p.expr
            // RE2's `\Q...\E` is the one syntax Rust's parser lacks; the size of the
            // compiled program is RE2's own business.
            && !s.inner().contains("\\Q")
            && let Err(err) = regex_syntax::Parser::new().parse(s.inner())
        {
            let why = err.to_string();
            let why = why.lines().last().unwrap_or_default().trim().trim_start_matches("error: ");
            self.error(p.id, format!("invalid matches argument `{}`: {why}", s.inner()));
        }
    }
}

/// How many arguments a `format` string takes; an error for a clause the strings
/// extension does not know (`%s %d %f %e %b %o %x %X`, precision as `%.2f`, `%%`).
fn format_clauses(f: &str) -> Result<usize, String> {
    let mut n = 0;
    let mut chars = f.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            continue;
        }
        if chars.peek() == Some(&'%') {
            chars.next();
            continue;
        }
        if chars.peek() == Some(&'.') {
            chars.next();
            while chars.peek().is_some_and(char::is_ascii_digit) {
                chars.next();
            }
        }
        match chars.next() {
            Some('s' | 'd' | 'f' | 'e' | 'b' | 'o' | 'x' | 'X') => n += 1,
            Some(other) => return Err(format!("unrecognized formatting clause \"{other}\"")),
            None => return Err("unexpected end of string".into()),
        }
    }
    Ok(n)
}

/// Where `existsOne` is called with two arguments: the API server's environment has
/// only the three-argument form (and `exists_one`), though the parser expands both.
fn two_argument_exists_one(source: &str) -> Option<usize> {
    let bytes = source.as_bytes();
    let mut i = 0;
    let mut quote: Option<u8> = None;
    while i < bytes.len() {
        let c = bytes[i];
        if let Some(q) = quote {
            if c == b'\\' {
                i += 1;
            } else if c == q {
                quote = None;
            }
            i += 1;
            continue;
        }
        if c == b'\'' || c == b'"' {
            quote = Some(c);
        } else if source.is_char_boundary(i) && source[i..].starts_with(".existsOne(") {
            let open = i + ".existsOne(".len();
            let (mut depth, mut commas, mut j, mut q) = (0usize, 0usize, open, None::<u8>);
            while j < bytes.len() {
                let d = bytes[j];
                match (q, d) {
                    (Some(qq), x) if x == qq => q = None,
                    (Some(_), _) => {}
                    (None, b'\'' | b'"') => q = Some(d),
                    (None, b'(' | b'[' | b'{') => depth += 1,
                    (None, b')' | b']' | b'}') if depth == 0 => break,
                    (None, b')' | b']' | b'}') => depth -= 1,
                    (None, b',') if depth == 0 => commas += 1,
                    _ => {}
                }
                j += 1;
            }
            if commas == 1 {
                return Some(i + 1);
            }
        }
        i += 1;
    }
    None
}

/// RFC 3339, as CEL's `timestamp()` reads it.
fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| b.get(r).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
    if b.len() < 20 || !(digits(0..4) && b[4] == b'-' && digits(5..7) && b[7] == b'-' && digits(8..10)) {
        return false;
    }
    if !(matches!(b[10], b'T' | b't')
        && digits(11..13)
        && b[13] == b':'
        && digits(14..16)
        && b[16] == b':'
        && digits(17..19))
    {
        return false;
    }
    let mut rest = &s[19..];
    if let Some(r) = rest.strip_prefix('.') {
        let n = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
        if n == 0 {
            return false;
        }
        rest = &r[n..];
    }
    let zone = rest.as_bytes();
    matches!(rest, "Z" | "z")
        || (zone.len() == 6
            && matches!(zone[0], b'+' | b'-')
            && zone[1..3].iter().all(u8::is_ascii_digit)
            && zone[3] == b':'
            && zone[4..6].iter().all(u8::is_ascii_digit))
}

fn literal(l: &LiteralValue) -> Ty {
    match l {
        LiteralValue::Boolean(_) => Ty::Bool,
        LiteralValue::Bytes(b) => Ty::Bytes(Size::known(b.inner().len() as u64)),
        LiteralValue::Double(_) => Ty::Double,
        LiteralValue::Int(_) => Ty::Int,
        LiteralValue::Null => Ty::Null,
        LiteralValue::String(s) => Ty::String(Size::known(s.inner().len() as u64)),
        LiteralValue::UInt(_) => Ty::Uint,
    }
}

fn int_literal(e: &IdedExpr) -> Option<i64> {
    match &e.expr {
        Expr::Literal(LiteralValue::Int(i)) => Some(*i.inner()),
        _ => None,
    }
}

/// `a.b.c` as a dotted name, where the expression is only identifiers and selections.
fn qualified(e: &IdedExpr) -> Option<String> {
    match &e.expr {
        Expr::Ident(n) => Some(n.clone()),
        Expr::Select(s) if !s.test => qualified(&s.operand).map(|q| format!("{q}.{}", s.field)),
        _ => None,
    }
}

/// Type names are values: `type(self.x) == int`.
fn type_value(name: &str) -> Option<Ty> {
    let t = match name {
        "int" => Ty::Int,
        "uint" => Ty::Uint,
        "double" => Ty::Double,
        "bool" => Ty::Bool,
        "string" => types::string(),
        "bytes" => Ty::Bytes(Size::default()),
        "list" => types::list(Ty::Dyn),
        "map" => types::map(Ty::Dyn, Ty::Dyn),
        "null_type" => Ty::Null,
        "dyn" => Ty::Dyn,
        "type" => Ty::Type(Box::new(Ty::Dyn)),
        "google.protobuf.Duration" => Ty::Duration,
        "google.protobuf.Timestamp" => Ty::Timestamp,
        _ => return None,
    };
    Some(Ty::Type(Box::new(t)))
}

fn key_type(k: &Ty) -> Ty {
    match k {
        Ty::String(_) => Ty::String(Size::known(0)),
        other => other.clone(),
    }
}

fn unwrap_optional(t: Ty) -> Ty {
    match t {
        Ty::Optional(inner) => *inner,
        other => other,
    }
}

fn size_slot(t: &mut Ty) -> Option<&mut Size> {
    match t {
        Ty::String(s) | Ty::Bytes(s) | Ty::List(_, s) | Ty::Map(_, _, s) | Ty::Opaque(_, s) => Some(s),
        _ => None,
    }
}

/// The more specific of two types that agree, `None` when they disagree.
fn join(a: &Ty, b: &Ty) -> Option<Ty> {
    Some(match (a, b) {
        (d, x) | (x, d) if d.is_dyn() => x.clone(),
        (Ty::Null, x @ (Ty::Object(_) | Ty::Null | Ty::Optional(_)))
        | (x @ (Ty::Object(_) | Ty::Optional(_)), Ty::Null) => x.clone(),
        (Ty::List(x, s), Ty::List(y, _)) => Ty::List(Box::new(join(x, y)?), s.clone()),
        (Ty::Map(xk, xv, s), Ty::Map(yk, yv, _)) => {
            Ty::Map(Box::new(join(xk, yk)?), Box::new(join(xv, yv)?), s.clone())
        }
        (Ty::Optional(x), Ty::Optional(y)) => Ty::Optional(Box::new(join(x, y)?)),
        (Ty::Type(x), Ty::Type(y)) => Ty::Type(Box::new(join(x, y).unwrap_or(Ty::Dyn))),
        (x, y) if x == y => x.clone(),
        _ => return None,
    })
}

/// Whether `arg` fits `param`, binding `param`'s type parameters.
fn unify(param: &Ty, arg: &Ty, b: &mut Bindings) -> bool {
    match (param, arg) {
        (Ty::Param(c), a) => match b.get(c).cloned() {
            None => {
                b.insert(*c, a.clone());
                true
            }
            // A parameter bound to dyn stays dyn, as cel-go binds it: `optional(dyn)
            // .orValue('x')` is dyn, not a string (found by the generated CEL tier).
            Some(Ty::Dyn) => true,
            Some(bound) => match join(&bound, a) {
                Some(j) => {
                    b.insert(*c, j);
                    true
                }
                None => false,
            },
        },
        (p, a) if p.is_dyn() || a.is_dyn() => true,
        (Ty::List(p, _), Ty::List(a, _)) => unify(p, a, b),
        (Ty::Map(pk, pv, _), Ty::Map(ak, av, _)) => unify(pk, ak, b) && unify(pv, av, b),
        (Ty::Optional(p), Ty::Optional(a)) | (Ty::Type(p), Ty::Type(a)) => unify(p, a, b),
        (p, a) => p == a,
    }
}

fn substitute(t: &Ty, b: &Bindings) -> Ty {
    match t {
        Ty::Param(c) => b.get(c).cloned().unwrap_or(Ty::Dyn),
        Ty::List(i, s) => Ty::List(Box::new(substitute(i, b)), s.clone()),
        Ty::Map(k, v, s) => Ty::Map(Box::new(substitute(k, b)), Box::new(substitute(v, b)), s.clone()),
        Ty::Optional(i) => Ty::Optional(Box::new(substitute(i, b))),
        Ty::Type(i) => Ty::Type(Box::new(substitute(i, b))),
        other => other.clone(),
    }
}

/// A rule as a CRD writes it (`x-kubernetes-validations[i]`): kubegen-core's, the type
/// the derive writes rules with.
pub use kubegen_core::schema::markers::Rule;

/// Which part of a rule a problem is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Rule,
    Message,
    MessageExpression,
    Reason,
    FieldPath,
    OptionalOldSelf,
    /// Over the cost budget (of the rule or of its message expression).
    Cost,
}

impl Part {
    pub fn key(self) -> &'static str {
        match self {
            Part::Rule => "rule",
            Part::Message => "message",
            Part::Reason => "reason",
            Part::MessageExpression => "messageExpression",
            Part::FieldPath => "fieldPath",
            Part::OptionalOldSelf => "optionalOldSelf",
            Part::Cost => "rule",
        }
    }
}

/// Why the API server refuses a rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub part: Part,
    pub message: String,
}

/// A rule that compiles: its cost per evaluation, times its cardinality.
#[derive(Debug, Default)]
pub struct Verdict {
    /// A cost went through a size the estimator cannot bound: not counted in `total`.
    pub uncertain_cost: bool,
    /// One evaluation's estimate of the rule and of its message expression.
    pub rule_cost: u64,
    pub message_cost: u64,
    /// Times the node's cardinality: what the budgets hold.
    pub total: u64,
    pub transition: bool,
}

/// Where a rule stands: the node's schema and how often the node can occur.
pub struct Site<'a> {
    pub schema: &'a Node,
    /// The node's path, for messages (`spec`, `spec.hosts[*]`).
    pub path: &'a str,
    /// The product of `maxItems`/`maxProperties` above the node; `None` under an
    /// unbounded list or map.
    pub cardinality: Option<u64>,
    pub correlatable: bool,
}

/// Checks one rule as the API servers of every release kubegen supports
/// ([`library::RELEASES`]) do when they read the CRD: refused if any refuses, with the
/// releases named where they differ.
pub fn check_rule(rule: &Rule, site: &Site<'_>) -> Result<Verdict, Vec<Problem>> {
    let verdicts: Vec<(u32, Result<Verdict, Vec<Problem>>)> =
        library::RELEASES.iter().map(|&r| (r, check_rule_for(rule, site, r))).collect();
    let mut problems: Vec<(Problem, Vec<u32>)> = Vec::new();
    for (release, v) in &verdicts {
        for p in v.as_ref().err().into_iter().flatten() {
            match problems.iter_mut().find(|(q, _)| q == p) {
                Some((_, rs)) => rs.push(*release),
                None => problems.push((p.clone(), vec![*release])),
            }
        }
    }
    if problems.is_empty() {
        return verdicts.into_iter().rev().find_map(|(_, v)| v.ok()).ok_or_else(Vec::new);
    }
    Err(problems
        .into_iter()
        .map(|(mut p, rs)| {
            if rs.len() < library::RELEASES.len() {
                let names: Vec<String> = rs.iter().map(|r| format!("1.{r}")).collect();
                p.message = format!("{} (Kubernetes {})", p.message, names.join(", "));
            }
            p
        })
        .collect())
}

/// Checks one rule as the API server of Kubernetes 1.`release` does.
pub fn check_rule_for(rule: &Rule, site: &Site<'_>, release: u32) -> Result<Verdict, Vec<Problem>> {
    let mut problems = Vec::new();
    let Some(decl) = types::of_schema(site.schema, site.path) else {
        return Err(vec![Problem { part: Part::Rule, message: "the node has no type CEL can see".into() }]);
    };
    let cardinality = site.cardinality.unwrap_or_else(|| cost::unbounded_cardinality(decl.min_size));
    problems.extend(wording(rule));
    let optional_old_self = rule.optional_old_self == Some(true);
    let scope = Scope {
        self_ty: decl.ty.clone(),
        correlatable: site.correlatable,
        optional_old_self,
        partial: decl.partial,
        release,
    };
    let mut verdict = Verdict::default();
    match compile(&rule.rule, &scope) {
        Err(e) => problems.push(Problem { part: Part::Rule, message: format!("compilation failed: {e}") }),
        Ok(c) => {
            if c.ty != Ty::Bool {
                problems.push(Problem {
                    part: Part::Rule,
                    message: format!("cel expression must evaluate to a bool, not {}", c.ty),
                });
            }
            if c.reads_old_self && !site.correlatable {
                problems.push(Problem {
                    part: Part::Rule,
                    message: format!(
                        "oldSelf cannot be used on the uncorrelatable portion of the schema within {}",
                        site.path
                    ),
                });
            }
            if rule.optional_old_self.is_some() && !c.reads_old_self {
                problems.push(Problem {
                    part: Part::OptionalOldSelf,
                    message: "may not be set if oldSelf is not used in rule".into(),
                });
            }
            verdict.transition = c.reads_old_self;
            verdict.rule_cost = c.cost.max;
            verdict.uncertain_cost |= c.uncertain_cost;
            let total = if c.uncertain_cost { 0 } else { c.cost.max.saturating_mul(cardinality) };
            if total > PER_RULE_LIMIT && !c.uncertain_cost {
                problems.push(Problem { part: Part::Cost, message: over_budget("rule", total, &c.unbounded, site) });
            }
            verdict.total = total;
        }
    }
    if let Some(m) = rule.message_expression.as_ref().filter(|m| !m.trim().is_empty()) {
        let scope = Scope { optional_old_self, ..scope };
        match compile(m, &scope) {
            Err(e) => problems.push(Problem {
                part: Part::MessageExpression,
                message: format!("messageExpression compilation failed: {e}"),
            }),
            Ok(c) => {
                if !matches!(c.ty, Ty::String(_)) {
                    problems.push(Problem {
                        part: Part::MessageExpression,
                        message: format!("must evaluate to a string, not {}", c.ty),
                    });
                }
                verdict.message_cost = c.cost.max;
                verdict.uncertain_cost |= c.uncertain_cost;
                let total = if c.uncertain_cost { 0 } else { c.cost.max.saturating_mul(cardinality) };
                if total > PER_RULE_LIMIT && !c.uncertain_cost {
                    problems.push(Problem {
                        part: Part::Cost,
                        message: over_budget("messageExpression", total, &c.unbounded, site),
                    });
                }
                verdict.total = verdict.total.saturating_add(total);
            }
        }
    }
    if let Some(fp) = &rule.field_path
        && let Err(why) = field_path(site.schema, fp)
    {
        problems.push(Problem { part: Part::FieldPath, message: why });
    }
    if problems.is_empty() { Ok(verdict) } else { Err(problems) }
}

/// The rule's text fields as the API server validates them.
fn wording(rule: &Rule) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut refuse = |part, message: &str| out.push(Problem { part, message: message.to_string() });
    if rule.rule.trim().is_empty() {
        refuse(Part::Rule, "rule is not specified");
    }
    if let Some(m) = &rule.message {
        if m.trim().is_empty() {
            refuse(Part::Message, "message must be non-empty if specified");
        } else if m.contains(['\n', '\r']) {
            refuse(Part::Message, "message must not contain line breaks");
        }
    } else if rule.rule.contains(['\n', '\r']) && rule.message_expression.is_none() {
        refuse(Part::Message, "message must be specified if rule contains line breaks");
    }
    if rule.message_expression.as_deref().is_some_and(|m| m.trim().is_empty()) {
        refuse(Part::MessageExpression, "messageExpression must be non-empty if specified");
    }
    if let Some(r) = &rule.reason
        && !REASONS.contains(&r.as_str())
    {
        refuse(Part::Reason, &format!("Unsupported value: \"{r}\": supported values: {}", REASONS.join(", ")));
    }
    out
}

/// The reasons a rule may give (`reason`).
pub const REASONS: &[&str] = &["FieldValueInvalid", "FieldValueForbidden", "FieldValueRequired", "FieldValueDuplicate"];

fn over_budget(what: &str, cost: u64, unbounded: &[String], site: &Site<'_>) -> String {
    let mut msg = if cost == u64::MAX {
        // A size the server cannot estimate (an optional compared whole, `string()` of a
        // number): its estimate is the largest it has.
        format!(
            "the estimated {what} cost has no bound the API server can see (it goes through a value it cannot size), which exceeds its budget of {PER_RULE_LIMIT} per rule by a factor of {}",
            cost::over_by(cost, PER_RULE_LIMIT)
        )
    } else {
        format!(
            "estimated {what} cost {cost} exceeds the API server's budget of {PER_RULE_LIMIT} per rule by a factor of {}",
            cost::over_by(cost, PER_RULE_LIMIT)
        )
    };
    let schema_at = |path: &str| lookup(site.schema, site.path, path);
    let bounds: Vec<String> = unbounded
        .iter()
        .filter_map(|p| {
            let marker = match schema_at(p)?.type_.as_deref()? {
                "array" => "MaxItems",
                "object" => "MaxProperties",
                _ => "MaxLength",
            };
            // An item's bound is written on its list: `+kubebuilder:validation:items:MaxLength`.
            Some(match p.strip_suffix("[*]") {
                Some(list) if schema_at(list).is_some_and(|l| l.items.is_some()) => {
                    format!("`+kubebuilder:validation:items:{marker}` to `{list}`")
                }
                _ => format!("`+kubebuilder:validation:{marker}` to `{p}`"),
            })
        })
        .collect();
    if site.cardinality.is_none() && site.path.contains("[*]") {
        msg.push_str(&format!("; the rule runs once per item of an unbounded list or map above `{}`", site.path));
    }
    if bounds.is_empty() {
        msg.push_str("; simplify the rule");
    } else {
        msg.push_str(&format!("; add {}", bounds.join(", ")));
    }
    msg
}

/// The schema of `path` (`spec.hosts[*]`), a node under `root` (at `root_path`).
fn lookup<'a>(root: &'a Node, root_path: &str, path: &str) -> Option<&'a Node> {
    let rest = path.strip_prefix(root_path)?;
    let mut node = root;
    let mut rest = rest;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("[*]") {
            node = node.items.as_deref().or_else(|| node.map_values())?;
            rest = r;
        } else if let Some(r) = rest.strip_prefix('.') {
            let end = r.find(['.', '[']).unwrap_or(r.len());
            node = node.properties.as_ref()?.get(&r[..end])?;
            rest = &r[end..];
        } else {
            return None;
        }
    }
    Some(node)
}

/// A rule's `fieldPath` must name a field of the node's schema: `.a.b`, `['a.b']`,
/// `.list[0]`, `.map['key']`.
pub fn field_path(schema: &Node, path: &str) -> Result<(), String> {
    let mut node = schema;
    let mut rest = path;
    if rest.is_empty() {
        return Ok(());
    }
    while !rest.is_empty() {
        // A named type the check cannot see (the derive's view of another struct).
        if node.reference.is_some() {
            return Ok(());
        }
        let (name, r) = if let Some(r) = rest.strip_prefix('.') {
            let end = r.find(['.', '[']).unwrap_or(r.len());
            if end == 0 {
                return Err(format!("fieldPath `{path}` has an empty segment"));
            }
            (r[..end].to_string(), &r[end..])
        } else if let Some(r) = rest.strip_prefix("['") {
            // A quoted key, with `\'` and `\\` escaped; it may hold `.`, `[` and `]`.
            let mut key = String::new();
            let mut chars = r.char_indices();
            let mut after = None;
            while let Some((i, c)) = chars.next() {
                match c {
                    '\\' => key.extend(chars.next().map(|(_, c)| c)),
                    '\'' => {
                        after = r[i + 1..].strip_prefix(']');
                        break;
                    }
                    c => key.push(c),
                }
            }
            // The server takes no list index in a fieldPath, only quoted keys.
            let Some(after) = after else { return Err(format!("fieldPath `{path}` must be a valid path")) };
            (key, after)
        } else if rest.starts_with('[') {
            // A list index (`.ports[0].port`): the server takes none (found by issue 28's
            // trial, which had the message below for it).
            return Err(format!(
                "fieldPath `{path}` must be a valid path: only quoted keys (`['key']`) may follow a field, not a list index"
            ));
        } else {
            return Err(format!("fieldPath `{path}` must start with `.` or `[`"));
        };
        node = if let Some(p) = node.properties.as_ref().and_then(|p| p.get(&name)) {
            p
        } else if let Some(p) = node.map_values() {
            p
        } else {
            return Err(format!("fieldPath `{path}` does not exist in the schema: there is no field `{name}`"));
        };
        rest = r;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
