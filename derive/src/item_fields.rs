//! The JSON fields of a list's item type, where the derive can know them: a struct in the
//! same file (its serde names), or a Kubernetes type the file imports from k8s-openapi
//! (kubegen-core's table of their fields). Elsewhere `None`, and `codegen-cli manifests`
//! checks the finished schema instead.

use syn::{Item, Type, UseTree};

use crate::serde_attrs;

/// The wire names of the fields of `ty` (the last segment of its path), read from `file`.
pub fn fields(ty: &Type, file: &std::path::Path) -> Option<Vec<String>> {
    let Type::Path(path) = ty else { return None };
    let ident = &path.path.segments.last()?.ident;
    let named_k8s = path.path.segments.iter().any(|s| s.ident == "k8s_openapi");
    let text = std::fs::read_to_string(file).ok()?;
    let parsed = syn::parse_file(&text).ok()?;
    if !named_k8s {
        if let Some(fields) = parsed.items.iter().find_map(|item| local_struct(item, ident)) {
            return fields;
        }
        if !parsed.items.iter().any(|item| imports_from_k8s_openapi(item, ident)) {
            return None;
        }
    }
    let name = ident.to_string();
    kubegen_core::k8s::K8S_FIELDS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, fields)| fields.iter().map(|f| f.to_string()).collect())
}

/// `Some(fields)` for the struct named `ident` in the file; `Some(None)` when its fields
/// are not all known (a flattened field, a tuple struct).
fn local_struct(item: &Item, ident: &syn::Ident) -> Option<Option<Vec<String>>> {
    let Item::Struct(s) = item else { return None };
    if &s.ident != ident {
        return None;
    }
    let syn::Fields::Named(named) = &s.fields else { return Some(None) };
    let rename_all = serde_attrs::value(&s.attrs, "rename_all");
    let mut out = Vec::new();
    for f in &named.named {
        if serde_attrs::has(&f.attrs, "flatten") {
            return Some(None);
        }
        if serde_attrs::has(&f.attrs, "skip") {
            continue;
        }
        let Some(ident) = &f.ident else { return Some(None) };
        out.push(serde_attrs::field_name(ident, &f.attrs, rename_all.as_deref()));
    }
    Some(Some(out))
}

/// `use k8s_openapi::...::Ident;` (grouped or not) at the file's top level.
fn imports_from_k8s_openapi(item: &Item, ident: &syn::Ident) -> bool {
    fn walk(tree: &UseTree, under_k8s: bool, ident: &syn::Ident) -> bool {
        match tree {
            UseTree::Path(p) => walk(&p.tree, under_k8s || p.ident == "k8s_openapi", ident),
            UseTree::Name(n) => under_k8s && &n.ident == ident,
            UseTree::Rename(r) => under_k8s && &r.rename == ident,
            UseTree::Group(g) => g.items.iter().any(|t| walk(t, under_k8s, ident)),
            UseTree::Glob(_) => false,
        }
    }
    matches!(item, Item::Use(u) if walk(&u.tree, false, ident))
}
