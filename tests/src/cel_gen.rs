//! CEL rules written by a machine: a grammar over a schema of nested named types, lists
//! of every list type, maps, optional fields, Kubernetes' formats and int-or-string,
//! drawing rules (with `messageExpression`, `fieldPath`, `reason`, `optionalOldSelf`)
//! that stand on the nodes a derive puts them on — the spec, a nested struct, a list
//! item, a map value. Some rules are right and some carry a mistake a person makes (a
//! misspelled field, a string method on an integer, `oldSelf` where the server cannot
//! pair old and new, a rule too costly for its bounds); the real API server is the
//! oracle, and kubegen's checker must give its verdict on every one.
//!
//! Cases are proptest value trees, so a disagreement shrinks to a small rule; a run is
//! reproducible from its seed.

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{Value, json};

/// A schema node as the grammar sees it.
#[derive(Clone, Debug)]
pub enum T {
    /// A string; `Some(n)` its maxLength.
    Str(Option<u64>),
    /// A string of a format CEL types (`duration`, `date-time`).
    Formatted(&'static str),
    Enum(&'static [&'static str]),
    Int,
    Num,
    Bool,
    IntOrString,
    Obj(Vec<(&'static str, T)>),
    /// A list: items, `maxItems`, list type (and for `map`, its key).
    List(Box<T>, Option<u64>, ListType),
    /// A map of string keys: values, `maxProperties`.
    Map(Box<T>, Option<u64>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListType {
    Atomic,
    Set,
    /// `x-kubernetes-list-type: map` keyed by the items' `name`.
    Map,
}

fn endpoint() -> T {
    T::Obj(vec![
        ("host", T::Str(Some(253))),
        ("port", T::Int),
        ("tls", T::Obj(vec![("cert", T::Str(Some(4096))), ("insecure", T::Bool), ("serverName", T::Str(None))])),
    ])
}

fn port() -> T {
    T::Obj(vec![("name", T::Str(Some(15))), ("port", T::Int), ("protocol", T::Enum(&["TCP", "UDP"]))])
}

/// The spec every generated rule is written against: the shapes issue 28 found the
/// derive's check blind to, and their neighbours.
pub fn spec() -> T {
    T::Obj(vec![
        ("name", T::Str(Some(63))),
        ("description", T::Str(None)),
        ("replicas", T::Int),
        ("ratio", T::Num),
        ("enabled", T::Bool),
        ("timeout", T::Formatted("duration")),
        ("notBefore", T::Formatted("date-time")),
        ("size", T::IntOrString),
        ("mode", T::Enum(&["Fast", "Safe"])),
        ("endpoint", endpoint()),
        ("ports", T::List(Box::new(port()), Some(16), ListType::Map)),
        ("hosts", T::List(Box::new(T::Str(Some(253))), Some(8), ListType::Atomic)),
        ("zones", T::List(Box::new(T::Str(Some(32))), Some(4), ListType::Set)),
        ("tags", T::List(Box::new(T::Str(None)), None, ListType::Atomic)),
        ("labels", T::Map(Box::new(T::Str(Some(63))), Some(16))),
        ("backends", T::Map(Box::new(T::Obj(vec![("weight", T::Int), ("endpoint", endpoint())])), None)),
        (
            "routes",
            T::List(
                Box::new(T::Obj(vec![("path", T::Str(Some(256))), ("backend", endpoint())])),
                None,
                ListType::Atomic,
            ),
        ),
    ])
}

/// The node's structural schema (no rules).
pub fn schema(t: &T) -> Value {
    match t {
        T::Str(None) => json!({"type": "string"}),
        T::Str(Some(n)) => json!({"type": "string", "maxLength": n}),
        T::Formatted(f) => json!({"type": "string", "format": f}),
        T::Enum(values) => json!({"type": "string", "enum": values}),
        T::Int => json!({"type": "integer"}),
        T::Num => json!({"type": "number"}),
        T::Bool => json!({"type": "boolean"}),
        T::IntOrString => json!({"x-kubernetes-int-or-string": true}),
        T::Obj(fields) => {
            let props: serde_json::Map<String, Value> =
                fields.iter().map(|(n, t)| (n.to_string(), schema(t))).collect();
            json!({"type": "object", "properties": props})
        }
        T::List(items, max, list_type) => {
            let mut s = json!({"type": "array", "items": schema(items)});
            if let Some(n) = max {
                s["maxItems"] = json!(n);
            }
            match list_type {
                ListType::Atomic => {}
                ListType::Set => s["x-kubernetes-list-type"] = json!("set"),
                ListType::Map => {
                    s["x-kubernetes-list-type"] = json!("map");
                    s["x-kubernetes-list-map-keys"] = json!(["name"]);
                    s["items"]["required"] = json!(["name"]);
                }
            }
            s
        }
        T::Map(values, max) => {
            let mut s = json!({"type": "object", "additionalProperties": schema(values)});
            if let Some(n) = max {
                s["maxProperties"] = json!(n);
            }
            s
        }
    }
}

/// Where a rule stands: a path of steps from the spec (`endpoint`, `ports[*]`,
/// `backends[*].endpoint`), and the node there.
#[derive(Clone, Debug)]
pub struct Placement {
    pub path: Vec<Step>,
    pub node: T,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Field(&'static str),
    /// A list's items or a map's values.
    Each,
}

impl Placement {
    pub fn describe(&self) -> String {
        let mut s = String::from("spec");
        for step in &self.path {
            match step {
                Step::Field(f) => {
                    s.push('.');
                    s.push_str(f);
                }
                Step::Each => s.push_str("[*]"),
            }
        }
        s
    }
}

/// Every node of `t` a rule can stand on (objects, lists, maps and a few scalars), with
/// its path.
pub fn placements(t: &T) -> Vec<Placement> {
    let mut out = Vec::new();
    walk(t, &mut Vec::new(), &mut out);
    out
}

fn walk(t: &T, path: &mut Vec<Step>, out: &mut Vec<Placement>) {
    out.push(Placement { path: path.clone(), node: t.clone() });
    match t {
        T::Obj(fields) => {
            for (name, f) in fields {
                // Scalars of the spec are places too; deeper, the objects and containers.
                if path.is_empty() || matches!(f, T::Obj(_) | T::List(..) | T::Map(..)) {
                    path.push(Step::Field(name));
                    walk(f, path, out);
                    path.pop();
                }
            }
        }
        T::List(items, ..) | T::Map(items, _) => {
            path.push(Step::Each);
            walk(items, path, out);
            path.pop();
        }
        _ => {}
    }
}

/// A generated rule and where it stands.
#[derive(Clone, Debug)]
pub struct Case {
    pub at: Placement,
    pub rule: String,
    pub message_expression: Option<String>,
    pub field_path: Option<String>,
    pub reason: Option<String>,
    pub optional_old_self: Option<bool>,
}

impl Case {
    /// The rule as a CRD's `x-kubernetes-validations` writes it.
    pub fn rule_json(&self) -> Value {
        let mut r = json!({"rule": self.rule});
        if let Some(m) = &self.message_expression {
            r["messageExpression"] = json!(m);
        } else {
            r["message"] = json!("generated rule");
        }
        if let Some(f) = &self.field_path {
            r["fieldPath"] = json!(f);
        }
        if let Some(x) = &self.reason {
            r["reason"] = json!(x);
        }
        if let Some(o) = self.optional_old_self {
            r["optionalOldSelf"] = json!(o);
        }
        r
    }

    /// The spec's schema with this rule on its node.
    pub fn spec_schema(&self, spec: &T) -> Value {
        let mut s = schema(spec);
        let mut node = &mut s;
        for step in &self.at.path {
            node = match step {
                Step::Field(f) => &mut node["properties"][*f],
                Step::Each if node.get("items").is_some() => &mut node["items"],
                Step::Each => &mut node["additionalProperties"],
            };
        }
        node["x-kubernetes-validations"] = json!([self.rule_json()]);
        s
    }

    /// A reader's line: where, the rule and its parts.
    pub fn describe(&self) -> String {
        let mut s = format!("on {}: {}", self.at.describe(), self.rule);
        for (k, v) in
            [("messageExpression", &self.message_expression), ("fieldPath", &self.field_path), ("reason", &self.reason)]
        {
            if let Some(v) = v {
                s.push_str(&format!(" [{k}: {v}]"));
            }
        }
        if let Some(o) = self.optional_old_self {
            s.push_str(&format!(" [optionalOldSelf: {o}]"));
        }
        s
    }
}

/// A name a comprehension binds, unique by depth.
fn var(depth: u32) -> String {
    ["x", "y", "z", "w", "v"].get(depth as usize).map_or_else(|| format!("v{depth}"), |s| s.to_string())
}

/// A field name as a person misspells it.
fn misspelled(name: &str) -> String {
    match name {
        "host" => "hostname".into(),
        "port" => "portNumber".into(),
        "name" => "nmae".into(),
        n => format!("{n}s"),
    }
}

/// Expressions of `t` reached by `at` (an expression text), a bool each.
fn bool_of(t: &T, at: String, old: Option<String>, depth: u32) -> BoxedStrategy<String> {
    let leaf = |v: Vec<String>| proptest::sample::select(v).boxed();
    let transition =
        |at: &str, old: &Option<String>| old.as_ref().map(|o| vec![format!("{at} == {o}")]).unwrap_or_default();
    match t {
        T::Str(_) | T::Enum(_) => {
            let mut v = vec![
                format!("{at}.size() <= 10"),
                format!("{at}.startsWith('a')"),
                format!("{at}.matches('^[a-z0-9-]+$')"),
                format!("{at} == 'x'"),
                format!("{at} in ['a', 'b']"),
                format!("{at}.lowerAscii() == {at}"),
                format!("{at}.indexOf('-') < 0"),
                format!("{at}.split('.').size() <= 4"),
                format!("isURL({at})"),
                format!("{at}.contains('..') == false"),
                format!("!format.dns1123Label().validate({at}).hasValue()"),
                format!("{at}.find('[0-9]+') == ''"),
                format!("{at}.trim() == {at}"),
                format!("{at} > 1"),
                format!("{at}.size() + {at}.size() < 100"),
                format!("{at}.replace('a', 'bb').size() < 20"),
                format!("isQuantity({at})"),
                format!("{at}.matches({at})"),
            ];
            v.extend(transition(&at, &old));
            if let Some(o) = &old {
                v.push(format!("{o} != 'legacy' || {at} != 'legacy'"));
                v.push(format!("{at}.size() >= {o}.size()"));
            }
            leaf(v)
        }
        T::Formatted("duration") => {
            let mut v = vec![
                format!("{at} > duration('1s')"),
                format!("{at}.getSeconds() < 3600"),
                format!("{at} == '1s'"),
                format!("{at}.startsWith('1')"),
            ];
            v.extend(transition(&at, &old));
            leaf(v)
        }
        T::Formatted(_) => {
            let mut v = vec![
                format!("{at} > timestamp('2020-01-01T00:00:00Z')"),
                format!("{at}.getFullYear() >= 2020"),
                format!("{at} + duration('1h') > {at}"),
                format!("{at}.size() > 0"),
            ];
            v.extend(transition(&at, &old));
            leaf(v)
        }
        T::Int => {
            let mut v = vec![
                format!("{at} > 0"),
                format!("{at} % 2 == 0"),
                format!("{at} <= 65535"),
                format!("string({at}).size() < 6"),
                format!("double({at}) < 1.5"),
                format!("{at}.startsWith('8')"),
                format!("{at} == 'x'"),
                format!("{at} + 1 > {at}"),
                format!("{at} in [80, 443]"),
                format!("{at}.size() > 0"),
            ];
            if let Some(o) = &old {
                v.push(format!("{at} >= {o}"));
                v.push(format!("{o} < 10 || {at} < 10"));
                v.push(format!("{at} == {o}"));
            }
            leaf(v)
        }
        T::Num => {
            leaf(vec![format!("{at} > 0.5"), format!("{at} < 1"), format!("int({at}) < 3"), format!("{at} == 'x'")])
        }
        T::Bool => leaf(vec![
            at.clone(),
            format!("!{at}"),
            format!("{at} == true"),
            format!("{at} > 0"),
            format!("{at} || true"),
        ]),
        T::IntOrString => leaf(vec![
            format!("type({at}) == int"),
            format!("type({at}) == string && {at}.endsWith('%')"),
            format!("{at} == 1"),
            format!("isQuantity(string({at}))"),
            format!("{at} > 1"),
        ]),
        T::Obj(fields) => {
            let fields = fields.clone();
            let names: Vec<&'static str> = fields.iter().map(|(n, _)| *n).collect();
            let at2 = at.clone();
            let old2 = old.clone();
            let field = proptest::sample::select(fields.clone()).prop_flat_map(move |(name, ft)| {
                // Fields are optional: reach them through has() or an optional chain, or
                // directly (which the server allows, and errors on at run time).
                let direct = format!("{at2}.{name}");
                let old_field = old2.as_ref().map(|o| format!("{o}.{name}"));
                let guarded_at = at2.clone();
                prop_oneof![
                    3 => bool_of(&ft, direct.clone(), old_field.clone(), depth + 1),
                    2 => bool_of(&ft, direct, old_field, depth + 1).prop_map(move |b| format!("!has({guarded_at}.{name}) || ({b})")),
                ]
            });
            let mut v: Vec<String> = names.iter().map(|n| format!("has({at}.{n})")).collect();
            v.extend(names.iter().map(|n| format!("has({at}.{})", misspelled(n))));
            v.extend(names.iter().map(|n| format!("{at}.?{n}.hasValue()")));
            v.extend(names.iter().map(|n| format!("{at}.?{n} == optional.none()")));
            v.extend(names.iter().map(|n| format!("{at}.{} == {at}.{n}", misspelled(n))));
            v.extend(transition(&at, &old));
            // Optional chains through two levels.
            for (name, ft) in &fields {
                if let T::Obj(inner) = ft {
                    for (inner_name, it) in inner {
                        let default = match it {
                            T::Int => "0",
                            T::Bool => "false",
                            T::Obj(_) => continue,
                            _ => "''",
                        };
                        v.push(format!("{at}.?{name}.?{inner_name}.orValue({default}) == {default}"));
                        v.push(format!("{at}.?{name}.{inner_name}.hasValue()"));
                        v.push(format!("{at}.?{name}.?{}.hasValue()", misspelled(inner_name)));
                        v.push(format!("has({at}.{name}.{inner_name})"));
                        v.push(format!("has({at}.{name}.{})", misspelled(inner_name)));
                    }
                }
            }
            if depth > 4 {
                return leaf(v);
            }
            prop_oneof![2 => leaf(v), 5 => field].boxed()
        }
        T::List(items, _, list_type) => {
            let x = var(depth);
            let mut v = vec![format!("{at}.size() <= 3"), format!("size({at}) > 0")];
            if matches!(**items, T::Str(_)) {
                v.push(format!("'a' in {at}"));
                v.push(format!("{at}.isSorted()"));
                v.push(format!("{at}.join(',').size() < 100"));
                v.push(format!("sets.contains({at}, ['a'])"));
                v.push(format!("{at}.all({x}, {at}.exists(y, {x}.startsWith(y)))"));
            }
            if *list_type == ListType::Map {
                v.push(format!("{at}.all({x}, {at}.exists_one(y, y.name == {x}.name))"));
            }
            v.extend(transition(&at, &old));
            if let Some(o) = &old {
                v.push(format!("{at}.size() >= {o}.size()"));
            }
            if depth > 4 {
                return leaf(v);
            }
            let at2 = at.clone();
            let body = bool_of(items, x.clone(), None, depth + 1);
            let macros = body.prop_flat_map(move |b| {
                let x = x.clone();
                let at = at2.clone();
                proptest::sample::select(vec![
                    format!("{at}.all({x}, {b})"),
                    format!("{at}.exists({x}, {b})"),
                    format!("{at}.exists_one({x}, {b})"),
                    format!("{at}.filter({x}, {b}).size() <= 2"),
                    format!("{at}.map({x}, {b}).size() >= 0"),
                    format!("{at}.all(i, {x}, i < 100 && ({b}))"),
                    format!("{at}.exists(i, {x}, i == 0 && ({b}))"),
                ])
            });
            prop_oneof![2 => leaf(v), 5 => macros].boxed()
        }
        T::Map(values, _) => {
            let k = var(depth);
            let mut v = vec![
                format!("'a' in {at}"),
                format!("{at}.size() <= 3"),
                format!("{at}.all({k}, {k}.startsWith('a'))"),
                format!("!('a' in {at}) || {at}['a'] == {at}['a']"),
                format!("{at}.?a.hasValue()"),
            ];
            v.extend(transition(&at, &old));
            if depth > 4 {
                return leaf(v);
            }
            let at2 = at.clone();
            let body = bool_of(values, "val".to_string(), None, depth + 1);
            let macros = body.prop_flat_map(move |b| {
                let k = k.clone();
                let at = at2.clone();
                proptest::sample::select(vec![
                    format!("{at}.all({k}, val, {b})"),
                    format!("{at}.exists({k}, val, {b})"),
                    format!("{at}.transformMap({k}, val, {b}).size() >= 0"),
                ])
            });
            let at3 = at.clone();
            let direct = bool_of(values, format!("{at}['a']"), None, depth + 1)
                .prop_map(move |b| format!("!('a' in {at3}) || ({b})"));
            prop_oneof![2 => leaf(v), 3 => macros, 2 => direct].boxed()
        }
    }
}

/// A `fieldPath` for a rule on `t`: right ones and the mistakes people make.
fn field_paths(t: &T) -> Vec<String> {
    let mut v = Vec::new();
    if let T::Obj(fields) = t {
        for (name, ft) in fields {
            v.push(format!(".{name}"));
            v.push(format!(".{}", misspelled(name)));
            match ft {
                T::Obj(inner) => {
                    for (n, _) in inner {
                        v.push(format!(".{name}.{n}"));
                        v.push(format!(".{name}.{}", misspelled(n)));
                    }
                }
                T::List(items, ..) => {
                    v.push(format!(".{name}[0]"));
                    if let T::Obj(inner) = &**items {
                        v.push(format!(".{name}[0].{}", inner[0].0));
                    }
                }
                T::Map(..) => {
                    v.push(format!(".{name}['a']"));
                    v.push(format!(".{name}['a.b']"));
                }
                _ => {}
            }
        }
    }
    v
}

/// Whether the server can pair a node at `path` under `spec` with its old value: every
/// list above it is a list-map.
fn correlatable(spec: &T, path: &[Step]) -> bool {
    let mut t = spec;
    for step in path {
        t = match (t, step) {
            (T::Obj(fields), Step::Field(f)) => match fields.iter().find(|(n, _)| n == f) {
                Some((_, t)) => t,
                None => return false,
            },
            (T::List(items, _, lt), Step::Each) => {
                if *lt != ListType::Map {
                    return false;
                }
                items
            }
            (T::Map(values, _), Step::Each) => values,
            _ => return false,
        };
    }
    true
}

/// One generated case: a placement of `spec`, a rule over it, and its other parts.
pub fn case(spec: T) -> BoxedStrategy<Case> {
    let places = placements(&spec);
    proptest::sample::select(places)
        .prop_flat_map(move |at| {
            // Transition rules everywhere, also where the server refuses them; mostly where
            // it takes them.
            let transition = if correlatable(&spec, &at.path) { 0.35 } else { 0.1 };
            let node = at.node.clone();
            let rule = prop_oneof![
                1 => Just(None::<String>),
                1 => Just(Some("oldSelf".to_string())),
            ]
            .prop_flat_map(move |old| {
                let _ = &old;
                bool_of(&node, "self".to_string(), old, 0)
            });
            let rule = (rule, proptest::bool::weighted(transition)).prop_map(|(r, keep_old)| {
                if keep_old || !r.contains("oldSelf") { r } else { r.replace("oldSelf", "self") }
            });
            let rule = (rule.clone(), rule, 0..8u8).prop_map(|(a, b, join)| match join {
                0 => format!("{a} && {b}"),
                1 => format!("{a} || {b}"),
                2 => format!("!({a})"),
                _ => a,
            });
            let messages = prop_oneof![
                6 => Just(None),
                1 => Just(Some("'bad value'".to_string())),
                1 => Just(Some("'got ' + string(self)".to_string())),
                1 => Just(Some("string(oldSelf) + ' became ' + string(self)".to_string())),
                1 => Just(Some("self".to_string())),
                1 => Just(Some("'size ' + string(size(self))".to_string())),
                1 => Just(Some("self.?description.orValue('none')".to_string())),
            ];
            let paths = field_paths(&at.node);
            let field_path = if paths.is_empty() {
                Just(None).boxed()
            } else {
                prop_oneof![6 => Just(None), 1 => proptest::sample::select(paths).prop_map(Some)].boxed()
            };
            let reason = prop_oneof![
                16 => Just(None),
                2 => proptest::sample::select(vec!["FieldValueInvalid", "FieldValueForbidden", "FieldValueRequired", "FieldValueDuplicate"]).prop_map(|r| Some(r.to_string())),
                1 => Just(Some("Invalid".to_string())),
            ];
            let optional_old_self = prop_oneof![4 => Just(None), 1 => Just(Some(true)), 1 => Just(Some(false))];
            (Just(at), rule, messages, field_path, reason, optional_old_self).prop_map(
                |(at, rule, message_expression, field_path, reason, optional_old_self)| {
                    // `optionalOldSelf` without `oldSelf` is one mistake the corpus holds;
                    // here it would hide what else the rule gets wrong.
                    let optional_old_self = optional_old_self.filter(|_| rule.contains("oldSelf"));
                    Case { at, rule, message_expression, field_path, reason, optional_old_self }
                },
            )
        })
        .boxed()
}

/// The seed of a run: `KUBEGEN_SEED` if set, else one from the clock (printed, so a run
/// can be repeated).
pub fn seed() -> u64 {
    match std::env::var("KUBEGEN_SEED") {
        Ok(s) => s.trim().parse().unwrap_or_else(|_| panic!("KUBEGEN_SEED={s} is not a number")),
        Err(_) => std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_secs()),
    }
}

/// How many cases a tier draws: `var` if set, else `default`.
pub fn count(var: &str, default: usize) -> usize {
    std::env::var(var).ok().and_then(|v| v.trim().parse().ok()).unwrap_or(default)
}

/// A runner whose draws depend on `seed` alone.
pub fn runner(seed: u64) -> TestRunner {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, &bytes))
}

/// `n` value trees of `strategy`, drawn from `seed`.
pub fn draw<S: Strategy>(strategy: &S, seed: u64, n: usize) -> Vec<S::Tree> {
    let mut runner = runner(seed);
    (0..n).map(|i| strategy.new_tree(&mut runner).unwrap_or_else(|e| panic!("case {i} of seed {seed}: {e}"))).collect()
}

/// Shrinks `tree` while `still_fails` holds of its value, at most `budget` steps; the
/// smallest failing value.
pub async fn shrink<V, F, Fut>(tree: &mut V, budget: usize, mut still_fails: F) -> V::Value
where
    V: ValueTree,
    V::Value: Clone,
    F: FnMut(V::Value) -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let mut steps = 0;
    let mut smallest = tree.current();
    if !tree.simplify() {
        return smallest;
    }
    loop {
        steps += 1;
        if steps > budget {
            break;
        }
        let candidate = tree.current();
        let fails = still_fails(candidate.clone()).await;
        let more = if fails {
            smallest = candidate;
            tree.simplify()
        } else {
            tree.complicate()
        };
        if !more {
            break;
        }
    }
    smallest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_draws_the_same_rules() {
        let a: Vec<String> = draw(&case(spec()), 7, 50).iter().map(|t| t.current().describe()).collect();
        let b: Vec<String> = draw(&case(spec()), 7, 50).iter().map(|t| t.current().describe()).collect();
        assert_eq!(a, b);
        let c: Vec<String> = draw(&case(spec()), 8, 50).iter().map(|t| t.current().describe()).collect();
        assert_ne!(a, c);
    }
}
