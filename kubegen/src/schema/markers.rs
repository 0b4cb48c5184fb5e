//! A node's markers reach the structural pass as `kubegen_core`'s typed
//! [`NodeMarkers`], serialized under [`MARKERS_KEY`] by the derive (and by the
//! Kubernetes marker tables); what each marker does is `NodeMarkers::apply`'s.

pub use kubegen_core::schema::MARKERS_KEY;
use kubegen_core::schema::markers::NodeMarkers;
use kubegen_core::schema::node::Node;
use serde_json::Value;

/// Applies a node's serialized markers to `node`, in order: Kubernetes' table first, then
/// the type's, then the field's, so the field's facts win. Returns the `required`
/// (`Some(true)`) or `optional` (`Some(false)`) marker for the parent object. The derive
/// and the tables write them from the same type, so they read back unless kubegen-derive
/// and kubegen are of different versions, which is an error ([`take_unread`]).
///
/// CEL rules come out as controller-gen writes them, the field's before its type's: a
/// type folded into this node (`Option<T>`) brought its rules already, and they go after
/// this node's; [`apply_field`] puts a field's over its named type's node the same way.
pub fn apply(node: &mut Node, all: Vec<Value>) -> Option<bool> {
    let inner_rules = node.validations.take();
    let mut required = None;
    for doc in all {
        if let Some(doc) = read_back(doc) {
            beside_references(&doc, node);
            required = doc.apply(node).or(required);
        }
    }
    if let Some(inner) = inner_rules {
        node.validations.get_or_insert_with(Vec::new).extend(inner);
    }
    required
}

/// What `doc` says below `node` that lands on a reference to a named type (an item of a
/// `Vec<Named>`, at any depth of `items(...)`; a description `skip_description` clears
/// below) joins that reference's field markers, so it goes over the named type's node
/// where the reference is inlined (the CRD), as the field's own markers do. Applied to
/// the reference node alone it would reach the client model and not the CRD (issue 28:
/// found while fixing the clients for preserve_unknown_fields).
fn beside_references(doc: &NodeMarkers, node: &mut Node) {
    if let Some(items) = &doc.items
        && let Some(item_node) = node.items.as_deref_mut()
    {
        match item_node.field.as_mut() {
            // The reference takes all of it, its own `items(...)` and `skip_description`
            // included, for the named type's node.
            Some(field) => field.markers.push((**items).clone()),
            None => beside_references(items, item_node),
        }
    }
    // A reference node holds `doc` already (the field's markers), and nothing below.
    if doc.skip_description && node.field.is_none() {
        let skip = NodeMarkers { skip_description: true, ..NodeMarkers::default() };
        node.walk_mut(&mut |n: &mut Node| {
            if let Some(field) = n.field.as_mut()
                && !field.markers.contains(&skip)
            {
                field.markers.push(skip.clone());
            }
        });
    }
}

/// A node's serialized markers, typed, in order.
pub fn parse(all: &[Value]) -> Vec<NodeMarkers> {
    all.iter().cloned().filter_map(read_back).collect()
}

std::thread_local! {
    /// The markers that did not read back on this thread since [`take_unread`].
    static UNREAD: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// One serialized marker, typed; never dropped in silence: one that does not read back
/// is said on stderr and kept for [`take_unread`], which `checked_crd`, the test
/// environment and `codegen-cli manifests` (through its helper) turn into an error.
fn read_back(doc: Value) -> Option<NodeMarkers> {
    match serde_json::from_value::<NodeMarkers>(doc.clone()) {
        Ok(markers) => Some(markers),
        Err(e) => {
            let problem = format!(
                "a marker the derive wrote does not read back and is not applied ({e}): {doc}; kubegen-derive and kubegen must be of the same version (cargo update -p kubegen-derive)"
            );
            eprintln!("kubegen: {problem}");
            UNREAD.with(|u| u.borrow_mut().push(problem));
            None
        }
    }
}

/// Whether a marker failed to read back on this thread since [`take_unread`] (a CRD built
/// meanwhile lacks it, and is not kept for reuse).
pub fn any_unread() -> bool {
    UNREAD.with(|u| !u.borrow().is_empty())
}

/// The markers that did not read back on this thread since the last call: each an
/// error for whoever checks the CRDs built meanwhile.
pub fn take_unread() -> Vec<String> {
    UNREAD.with(|u| std::mem::take(&mut *u.borrow_mut()))
}

/// Applies a field's markers over the named type's node its reference was inlined into:
/// after the type's, with the field's CEL rules before the type's (as controller-gen
/// writes them).
pub fn apply_field(node: &mut Node, field: &[NodeMarkers]) {
    let type_rules = node.validations.take();
    for doc in field {
        doc.apply(node);
    }
    if let Some(rules) = type_rules {
        node.validations.get_or_insert_with(Vec::new).extend(rules);
    }
}

/// A field's markers joining its type's on one node (`types` then `fields`), where a
/// union's variant is expanded in place: the field's CEL rules move to the front, its
/// other facts stay last, as [`apply_field`] orders them over an inlined type.
pub fn field_rules_first(types: &mut Vec<Value>, fields: Vec<Value>) {
    let mut rules = Vec::new();
    for doc in fields {
        let Ok(mut parsed) = serde_json::from_value::<NodeMarkers>(doc.clone()) else {
            types.push(doc);
            continue;
        };
        rules.append(&mut parsed.rules);
        types.extend(serde_json::to_value(parsed).ok());
    }
    if !rules.is_empty() {
        let first = NodeMarkers { rules, ..NodeMarkers::default() };
        types.extend(serde_json::to_value(first).ok());
        types.rotate_right(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_marker_that_does_not_read_back_is_an_error_for_the_check() {
        // What a kubegen-derive of another version might write: a fact this one lacks.
        let unknown = serde_json::json!({"set": [{"maximumOfTheWorld": 3}]});
        let mut node = Node::default();
        apply(&mut node, vec![unknown]);
        let crd = serde_json::from_value(serde_json::json!({
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "metadata": {"name": "things.example.com"},
            "spec": {"group": "example.com", "scope": "Namespaced",
                "names": {"kind": "Thing", "plural": "things", "singular": "thing", "listKind": "ThingList"},
                "versions": [{"name": "v1", "served": true, "storage": true,
                    "schema": {"openAPIV3Schema": {"type": "object"}}}]}
        }))
        .expect("a CRD");
        let refused = crate::crd::checked(crd).expect_err("a marker was lost");
        assert_eq!(refused.problems.len(), 1, "{refused}");
        assert!(refused.problems[0].contains("does not read back"), "{refused}");
        // Taken: the next CRD checked on this thread is not blamed for it.
        assert!(take_unread().is_empty());
    }
}
