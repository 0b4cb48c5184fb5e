//! What the typed markers of a node ([`NodeMarkers`], [`Fact`]) do to a structural
//! schema node: the one place of their meaning.

use serde_json::{Number, Value};

use super::markers::{Fact, NodeMarkers};
use super::node::Node;

impl NodeMarkers {
    /// Applies the markers to a structural `node`; returns the `required` marker for the
    /// parent object.
    pub fn apply(&self, node: &mut Node) -> Option<bool> {
        if self.schemaless {
            *node =
                Node { description: node.description.take(), preserve_unknown_fields: Some(true), ..Node::default() };
        }
        for fact in &self.set {
            fact.apply(node);
        }
        if !self.rules.is_empty() {
            node.validations.get_or_insert_with(Vec::new).extend(self.rules.iter().cloned());
        }
        if let Some(items) = &self.items
            && let Some(item_node) = node.items.as_deref_mut()
        {
            items.apply(item_node);
        }
        if self.skip_description {
            node.walk_mut(&mut |n: &mut Node| n.description = None);
        }
        self.required
    }
}

impl Fact {
    /// What the fact does to a node that may already hold other facts (the type's own
    /// markers, or what the Rust type implies).
    pub fn apply(&self, node: &mut Node) {
        // A bound already there still holds, as controller-gen keeps both: the stricter
        // one is the pair's meaning.
        fn stricter(slot: &mut Option<u64>, new: u64, upper: bool) {
            if slot.is_none_or(|old| if upper { new < old } else { new > old }) {
                *slot = Some(new);
            }
        }
        fn stricter_number(slot: &mut Option<Number>, new: &Number, upper: bool) {
            let looser = match (slot.as_ref().and_then(Number::as_f64), new.as_f64()) {
                (Some(old), Some(new)) => {
                    if upper {
                        old < new
                    } else {
                        old > new
                    }
                }
                _ => false,
            };
            if !looser {
                *slot = Some(new.clone());
            }
        }
        // Two patterns (or multiples) must both match: the second joins `allOf`.
        fn second<T: PartialEq + Clone>(node: &mut Node, new: &T, slot: fn(&mut Node) -> &mut Option<T>) {
            match slot(node) {
                Some(old) if old != new => {
                    let mut part = Node::default();
                    *slot(&mut part) = Some(new.clone());
                    node.all_of.get_or_insert_with(Vec::new).push(part);
                }
                other => *other = Some(new.clone()),
            }
        }
        match self {
            Fact::Type(t) => {
                node.int_or_string = None;
                node.any_of = None;
                if t == "object" || t == "array" {
                    node.enum_ = None;
                } else {
                    node.properties = None;
                    node.required = None;
                    node.additional_properties = None;
                }
                if t != "array" {
                    node.items = None;
                }
                node.type_ = Some(t.clone());
            }
            Fact::IntOrString => {
                node.type_ = None;
                node.format = None;
                node.int_or_string = Some(true);
                node.any_of = Some(vec![Node::of_type("integer"), Node::of_type("string")]);
            }
            Fact::NonEmpty => match node.type_.as_deref() {
                Some("string") => _ = node.min_length.get_or_insert(1),
                Some("array") => _ = node.min_items.get_or_insert(1),
                Some("object") => _ = node.min_properties.get_or_insert(1),
                _ => {}
            },
            // An embedded object is an object to the API server, whatever the Rust type.
            Fact::EmbeddedResource(b) => {
                node.type_.get_or_insert_with(|| "object".into());
                node.embedded_resource = Some(*b);
            }
            Fact::Minimum(n) => stricter_number(&mut node.minimum, n, false),
            Fact::Maximum(n) => stricter_number(&mut node.maximum, n, true),
            Fact::MinLength(n) => stricter(&mut node.min_length, *n, false),
            Fact::MaxLength(n) => stricter(&mut node.max_length, *n, true),
            Fact::MinItems(n) => stricter(&mut node.min_items, *n, false),
            Fact::MaxItems(n) => stricter(&mut node.max_items, *n, true),
            Fact::MinProperties(n) => stricter(&mut node.min_properties, *n, false),
            Fact::MaxProperties(n) => stricter(&mut node.max_properties, *n, true),
            Fact::Pattern(p) => second(node, p, |n| &mut n.pattern),
            Fact::MultipleOf(m) => second(node, m, |n| &mut n.multiple_of),
            Fact::ExclusiveMinimum(b) => node.exclusive_minimum = Some(*b),
            Fact::ExclusiveMaximum(b) => node.exclusive_maximum = Some(*b),
            Fact::Format(f) => node.format = Some(f.clone()),
            Fact::Enum(values) => node.enum_ = Some(values.clone()),
            Fact::Title(t) => node.title = Some(t.clone()),
            Fact::Description(d) => node.description = Some(d.clone()),
            Fact::Nullable(b) => node.nullable = Some(*b),
            Fact::ListType(t) => node.list_type = Some(t.as_str().into()),
            Fact::ListMapKeys(keys) => node.list_map_keys = Some(keys.clone()),
            Fact::MapType(t) => node.map_type = Some(t.as_str().into()),
            Fact::PreserveUnknownFields(b) => node.preserve_unknown_fields = Some(*b),
            Fact::Default(v) => node.default = Some(v.clone()),
            Fact::Example(v) => node.example = Some(v.clone()),
            Fact::ExternalDocs(docs) => node.external_docs = Some(Value::Object(docs.clone())),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_stricter_bound_and_both_patterns_hold() {
        let mut node = Node::default();
        Fact::Maximum(10.into()).apply(&mut node);
        Fact::Maximum(20.into()).apply(&mut node);
        Fact::Pattern("^a".into()).apply(&mut node);
        Fact::Pattern("b$".into()).apply(&mut node);
        assert_eq!(node.to_value(), json!({"maximum": 10, "pattern": "^a", "allOf": [{"pattern": "b$"}]}));
    }
}
