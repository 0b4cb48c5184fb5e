//! One version's schema against its next generation, node by node in the typed IR.
//! Each fact of a node is either compared by a check or listed as not affecting
//! compatibility (descriptions, examples); whatever else differs is `unhandled`, so a
//! new key in the IR cannot slip through unread. Relaxations (a bound loosened, an enum
//! dropped) are safe for stored objects and clients reading them, and are not reported.

use serde_json::{Number, Value};

use kubegen_core::schema::node::{Additional, Node};

use super::cel::{self, Stand};
use super::{At, Finding};

/// Compares the root schemas of one version.
pub fn compare(at: &At, old: &Node, new: &Node, out: &mut Vec<Finding>) {
    let mut walk = Walk { at: at.clone(), out };
    walk.node("", old, new, Stand::ROOT);
}

struct Walk<'a> {
    at: At,
    out: &'a mut Vec<Finding>,
}

/// `spec` + `replicas` → `spec.replicas`.
fn child(path: &str, name: &str) -> String {
    if path.is_empty() { name.to_string() } else { format!("{path}.{name}") }
}

fn shown(path: &str) -> &str {
    if path.is_empty() { "(root)" } else { path }
}

impl Walk<'_> {
    fn push(&mut self, check: &'static str, path: &str, message: String) {
        let at = At { path: Some(path.to_string()), ..self.at.clone() };
        self.out.push(at.finding(check, message));
    }

    /// `stand`: whether the API server can pair this node with its old value, which
    /// ratcheting needs, and how often a rule on it can run per object.
    fn node(&mut self, path: &str, old: &Node, new: &Node, stand: Stand) {
        if old.type_ != new.type_ || old.int_or_string != new.int_or_string {
            let ty = |n: &Node| match (&n.type_, n.int_or_string) {
                (_, Some(true)) => "int-or-string".to_string(),
                (Some(t), _) => t.clone(),
                (None, _) => "any type".to_string(),
            };
            self.push(
                "type-changed",
                path,
                format!("{} changed type from {} to {}: stored values no longer decode", shown(path), ty(old), ty(new)),
            );
            return;
        }
        self.enums(path, old, new);
        self.bounds(path, old, new);
        if old.pattern != new.pattern && new.pattern.is_some() {
            let was = old.pattern.as_deref().map(|p| format!("{p:?}")).unwrap_or_else(|| "none".into());
            let now = new.pattern.as_deref().unwrap_or_default();
            self.push(
                "pattern-changed",
                path,
                format!(
                    "the pattern of {} changed from {was} to {now:?}: values stored under the old one may not match",
                    shown(path)
                ),
            );
        }
        if old.format != new.format && new.format.is_some() {
            let was = old.format.as_deref().unwrap_or("none");
            let now = new.format.as_deref().unwrap_or_default();
            self.push("format-changed", path, format!("the format of {} changed from {was} to {now}", shown(path)));
        }
        if old.default != new.default {
            let words = match (&old.default, &new.default) {
                (None, Some(b)) => format!("a default {b} was added: objects read back gain it"),
                (Some(a), None) => format!("the default {a} was removed: new objects no longer get it"),
                (Some(a), Some(b)) => {
                    format!("the default changed from {a} to {b}: objects created or read back get another value")
                }
                (None, None) => String::new(),
            };
            self.push("default-changed", path, format!("{}: {words}", shown(path)));
        }
        if old.nullable == Some(true) && new.nullable != Some(true) {
            self.push(
                "nullable-removed",
                path,
                format!(
                    "{} no longer takes null: the server drops a null sent for it (the field is then absent, or takes its default)",
                    shown(path)
                ),
            );
        }
        if old.list_type != new.list_type || old.list_map_keys != new.list_map_keys {
            let said = |n: &Node| {
                let t = n.list_type.as_deref().unwrap_or("atomic");
                let a = if t == "atomic" { "an" } else { "a" };
                match &n.list_map_keys {
                    Some(keys) => format!("{a} {t} list keyed by {}", keys.join(", ")),
                    None => format!("{a} {t} list"),
                }
            };
            self.push(
                "list-type-changed",
                path,
                format!(
                    "{} changed from {} to {}: server-side apply merges it differently, and managed fields no longer match",
                    shown(path),
                    said(old),
                    said(new)
                ),
            );
        }
        if old.map_type != new.map_type {
            let said = |n: &Node| n.map_type.clone().unwrap_or_else(|| "granular".into());
            self.push(
                "map-type-changed",
                path,
                format!(
                    "x-kubernetes-map-type of {} changed from {} to {}: server-side apply merges it differently",
                    shown(path),
                    said(old),
                    said(new)
                ),
            );
        }
        if old.preserve_unknown_fields == Some(true) && new.preserve_unknown_fields != Some(true) {
            self.push(
                "preserve-unknown-removed",
                path,
                format!("{} no longer preserves unknown fields: the server prunes them from stored objects on their next write", shown(path)),
            );
        }
        let mut cel_findings = Vec::new();
        let mut report = |check: &'static str, path: &str, message: String, class: Option<cel::CelClass>| {
            let at = At { path: Some(path.to_string()), ..self.at.clone() };
            let mut f = at.finding(check, message);
            f.cel = class;
            cel_findings.push(f);
        };
        cel::compare(&mut report, path, old, new, stand);
        self.out.extend(cel_findings);
        self.residue(path, old, new);
        self.children(path, old, new, stand);
    }

    fn enums(&mut self, path: &str, old: &Node, new: &Node) {
        let Some(now) = &new.enum_ else { return };
        let Some(was) = &old.enum_ else {
            self.push(
                "enum-value-removed",
                path,
                format!("{} now takes only {}, where it took any value", shown(path), values(now)),
            );
            return;
        };
        let removed: Vec<Value> = was.iter().filter(|v| !now.contains(v)).cloned().collect();
        if !removed.is_empty() {
            self.push(
                "enum-value-removed",
                path,
                format!(
                    "{} no longer takes {}: stored objects holding it are refused on an update that changes it (validation ratcheting, on every release kubegen supports, passes updates that leave the value; --cluster lists them)",
                    shown(path),
                    values(&removed)
                ),
            );
        }
        let added: Vec<Value> = now.iter().filter(|v| !was.contains(v)).cloned().collect();
        if !added.is_empty() {
            self.push(
                "enum-value-added",
                path,
                format!(
                    "{} takes {} too: clients that switch over its values may not know them",
                    shown(path),
                    values(&added)
                ),
            );
        }
    }

    fn bounds(&mut self, path: &str, old: &Node, new: &Node) {
        // A bound the old node lacks where the new one takes up the range the old type
        // already implied is no tightening (`taken_up`).
        let (old_min, old_max) = taken_up(old, new);
        let (new_min, new_max) = (new.minimum.clone(), new.maximum.clone());
        let mut tightened = Vec::new();
        let lower = |a: &Option<Number>, ax: Option<bool>, b: &Option<Number>, bx: Option<bool>| -> bool {
            match (a.as_ref().and_then(Number::as_f64), b.as_ref().and_then(Number::as_f64)) {
                (_, None) => false,
                (None, Some(_)) => true,
                (Some(a), Some(b)) => b > a || (b == a && bx == Some(true) && ax != Some(true)),
            }
        };
        if lower(&old_min, old.exclusive_minimum, &new_min, new.exclusive_minimum) {
            tightened.push(format!("minimum {} → {}", num(&old_min), num(&new_min)));
        }
        let neg = |n: &Option<Number>| n.as_ref().and_then(Number::as_f64).and_then(|f| Number::from_f64(-f));
        if lower(&neg(&old_max), old.exclusive_maximum, &neg(&new_max), new.exclusive_maximum) {
            tightened.push(format!("maximum {} → {}", num(&old_max), num(&new_max)));
        }
        let counts = [
            ("minLength", old.min_length, new.min_length, true),
            ("maxLength", old.max_length, new.max_length, false),
            ("minItems", old.min_items, new.min_items, true),
            ("maxItems", old.max_items, new.max_items, false),
            ("minProperties", old.min_properties, new.min_properties, true),
            ("maxProperties", old.max_properties, new.max_properties, false),
        ];
        for (key, a, b, is_min) in counts {
            let tighter = match (a, b) {
                (_, None) => false,
                (None, Some(_)) => true,
                (Some(a), Some(b)) => {
                    if is_min {
                        b > a
                    } else {
                        b < a
                    }
                }
            };
            if tighter {
                let was = a.map(|a| a.to_string()).unwrap_or_else(|| "none".into());
                tightened.push(format!("{key} {was} → {}", b.unwrap_or_default()));
            }
        }
        // A new multipleOf that divides the old one accepts every value the old accepted.
        let divides = match (
            old.multiple_of.as_ref().and_then(Number::as_f64),
            new.multiple_of.as_ref().and_then(Number::as_f64),
        ) {
            (Some(a), Some(b)) if b != 0.0 => (a / b).fract() == 0.0,
            (_, None) => true,
            (None, Some(_)) => false,
            (Some(_), Some(_)) => false,
        };
        if !divides {
            tightened.push(format!("multipleOf {} → {}", num(&old.multiple_of), num(&new.multiple_of)));
        }
        if new.unique_items == Some(true) && old.unique_items != Some(true) {
            tightened.push("uniqueItems added".into());
        }
        if !tightened.is_empty() {
            self.push(
                "bounds-tightened",
                path,
                format!(
                    "{} is checked more tightly ({}): stored values outside are refused on an update that changes them (validation ratcheting, on every release kubegen supports, passes updates that leave the value; --cluster lists them)",
                    shown(path),
                    tightened.join(", ")
                ),
            );
        }
    }

    fn children(&mut self, path: &str, old: &Node, new: &Node, stand: Stand) {
        let map = |n: &Node| matches!(n.additional_properties, Some(Additional::Schema(_)));
        let strukt = |n: &Node| n.properties.as_ref().is_some_and(|p| !p.is_empty());
        if (map(old) && strukt(new) && !strukt(old)) || (strukt(old) && map(new) && !map(old)) {
            let said = |n: &Node| if map(n) { "a map" } else { "a struct" };
            self.push("map-type-changed", path, format!("{} changed from {} to {}", shown(path), said(old), said(new)));
            return;
        }
        let empty = Default::default();
        let (old_props, new_props) =
            (old.properties.as_ref().unwrap_or(&empty), new.properties.as_ref().unwrap_or(&empty));
        for (name, o) in old_props {
            let p = child(path, name);
            match new_props.get(name) {
                Some(n) => self.node(&p, o, n, stand),
                None if new.preserve_unknown_fields == Some(true) => {}
                None => {
                    // A field added beside it with the same schema: most likely a rename,
                    // which stored objects and clients see as this removal.
                    let same = |a: &Node, b: &Node| {
                        Node { description: None, ..a.clone() } == Node { description: None, ..b.clone() }
                    };
                    // Named only when the pair is one to one: one added field with this
                    // schema, and no other removed field with it.
                    let added: Vec<&String> = new_props
                        .iter()
                        .filter(|(k, n)| !old_props.contains_key(*k) && same(o, n))
                        .map(|(k, _)| k)
                        .collect();
                    let removed_alike =
                        old_props.iter().filter(|(k, r)| !new_props.contains_key(*k) && same(o, r)).count();
                    let renamed = match added.as_slice() {
                        [added] if removed_alike == 1 => format!(
                            " (renamed to `{added}`? A rename is this removal for stored objects and clients: keep the old name with #[serde(rename)], or convert between versions)"
                        ),
                        _ => String::new(),
                    };
                    self.push(
                        "field-removed",
                        &p,
                        format!("{p} is gone: the server prunes it from stored objects on their next write, and clients setting it lose it{renamed}"),
                    )
                }
            }
        }
        let required = |n: &Node| n.required.clone().unwrap_or_default();
        let was = required(old);
        for name in required(new) {
            if was.contains(&name) {
                continue;
            }
            let defaulted = new_props.get(&name).is_some_and(|p| p.default.is_some());
            if !defaulted {
                let p = child(path, &name);
                let existed = old_props.contains_key(&name);
                let why = if existed { "it was optional" } else { "it is new" };
                self.push(
                    "required-added",
                    &p,
                    format!("{p} is required and has no default ({why}): stored objects without it are refused on an update that changes the object holding it (validation ratcheting, on every release kubegen supports, passes updates that leave that object; --cluster lists them), and clients that omit it are refused"),
                );
            }
        }
        if let (Some(a), Some(b)) = (&old.items, &new.items) {
            let stand = Stand {
                old: stand.old.items(old.max_items, old.list_type.as_deref()),
                new: stand.new.items(new.max_items, new.list_type.as_deref()),
            };
            self.node(&format!("{path}[*]"), a, b, stand);
        }
        if let (Some(Additional::Schema(a)), Some(Additional::Schema(b))) =
            (&old.additional_properties, &new.additional_properties)
        {
            let stand = Stand { old: stand.old.values(old.max_properties), new: stand.new.values(new.max_properties) };
            self.node(&format!("{path}[*]"), a, b, stand);
        }
    }

    /// What the checks above do not read; when it differs, `unhandled` names the keys.
    fn residue(&mut self, path: &str, old: &Node, new: &Node) {
        let (a, b) = (residue(old).to_value(), residue(new).to_value());
        if a == b {
            return;
        }
        let keys = |v: &Value| v.as_object().map(|m| m.keys().cloned().collect::<Vec<_>>()).unwrap_or_default();
        let mut changed: Vec<String> = keys(&a).into_iter().chain(keys(&b)).filter(|k| a.get(k) != b.get(k)).collect();
        changed.sort();
        changed.dedup();
        self.push(
            "unhandled",
            path,
            format!("{}: {} changed, which diff does not compare; review it by hand", shown(path), changed.join(", ")),
        );
    }
}

/// The node without every fact a check reads or that does not affect compatibility.
fn residue(node: &Node) -> Node {
    let mut rest = node.clone();
    let Node {
        type_,
        format,
        title,
        description,
        nullable,
        default,
        example,
        enum_,
        minimum,
        maximum,
        exclusive_minimum,
        exclusive_maximum,
        multiple_of,
        min_length,
        max_length,
        pattern,
        min_items,
        max_items,
        unique_items,
        min_properties,
        max_properties,
        required,
        properties,
        additional_properties,
        items,
        all_of: _,
        any_of: _,
        one_of: _,
        not: _,
        external_docs,
        preserve_unknown_fields,
        int_or_string,
        embedded_resource: _,
        list_type,
        list_map_keys,
        map_type,
        validations,
        reference: _,
        field: _,
    } = &mut rest;
    *type_ = None;
    *format = None;
    *title = None;
    *description = None;
    *nullable = None;
    *default = None;
    *example = None;
    *enum_ = None;
    *minimum = None;
    *maximum = None;
    *exclusive_minimum = None;
    *exclusive_maximum = None;
    *multiple_of = None;
    *min_length = None;
    *max_length = None;
    *pattern = None;
    *min_items = None;
    *max_items = None;
    *unique_items = None;
    *min_properties = None;
    *max_properties = None;
    *required = None;
    *properties = None;
    // A map's value schema is compared below; `false`/`true` (closed or open) is not.
    if matches!(additional_properties, Some(Additional::Schema(_))) {
        *additional_properties = None;
    }
    *items = None;
    *external_docs = None;
    *preserve_unknown_fields = None;
    *int_or_string = None;
    *list_type = None;
    *list_map_keys = None;
    *map_type = None;
    *validations = None;
    rest
}

fn values(values: &[Value]) -> String {
    values.iter().map(Value::to_string).collect::<Vec<_>>().join(", ")
}

/// `old`'s minimum and maximum, each it lacks taken as `new`'s where `new`'s is the edge of
/// the range `old`'s type already implied: its format's or an int-or-string's int32
/// (`formats::implied_range`), or a `u32`'s maximum beside the `minimum: 0` an older
/// kubegen wrote alone (the `uint32` format is none the server knows, and goes; a `u64`
/// never gets this bound). The API server checks no format, so kubegen writes these
/// ranges; a CRD that takes one up refuses only what no typed client of the field holds.
fn taken_up(old: &Node, new: &Node) -> (Option<Number>, Option<Number>) {
    let f = |n: &Option<Number>| n.as_ref().and_then(Number::as_f64);
    let range = kubegen_core::schema::formats::implied_range(old.format.as_deref(), old.int_or_string == Some(true));
    let u32_max = (old.format.is_none() && f(&old.minimum) == Some(0.0)).then_some(u32::MAX as f64);
    let edge = |bound: &Option<Number>, new_bound: &Option<Number>, implied: Option<f64>| match bound {
        None if implied.is_some() && f(new_bound) == implied => new_bound.clone(),
        _ => bound.clone(),
    };
    (
        edge(&old.minimum, &new.minimum, range.map(|(min, _)| min as f64)),
        edge(&old.maximum, &new.maximum, range.map(|(_, max)| max as f64).or(u32_max)),
    )
}

/// A bound as written: `5`, not the `5.0` a CRD's float64 field reads back as.
fn num(n: &Option<Number>) -> String {
    match n.as_ref().map(|n| (n, n.as_f64())) {
        None => "none".into(),
        Some((_, Some(f))) if f.fract() == 0.0 && f.abs() < 9.0e15 => format!("{}", f as i64),
        Some((n, _)) => n.to_string(),
    }
}
