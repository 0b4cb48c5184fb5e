//! RBAC markers from a workspace's sources, read as text — no user code runs.
//! `// +kubebuilder:rbac:...` in any comment (`//`, `///`, `//!`, as a Go file has them)
//! and the typed `#[kubegen::rbac(...)]` attribute.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use kubegen::rbac::RbacRule;

const MARKER: &str = "+kubebuilder:rbac:";

/// Every `.rs` file under `dir/src`, sorted.
pub fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.join("src")];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Every rule in `files`; a bad marker is an error naming its file and line.
pub fn scan(files: &[PathBuf], root: &Path) -> Result<Vec<RbacRule>> {
    let mut found = Vec::new();
    let mut errors = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
        let shown = file.strip_prefix(root).unwrap_or(file).display().to_string();
        for (i, line) in text.lines().enumerate() {
            let trimmed = line.trim_start();
            if let Some(comment) = trimmed.strip_prefix("//") {
                let comment = comment.trim_start_matches(['/', '!']).trim_start();
                if let Some(args) = comment.strip_prefix(MARKER) {
                    match RbacRule::parse_marker(args.trim_end()) {
                        Ok(rule) => found.push(rule),
                        Err(e) => errors.push(format!("{shown}:{}: {e}", i + 1)),
                    }
                }
            }
        }
        match syn::parse_file(&text) {
            Ok(parsed) => {
                let mut visitor = TypedRbac { found: &mut found, errors: &mut errors, file: &shown };
                syn::visit::visit_file(&mut visitor, &parsed);
            }
            // The package's own build reports the syntax error better than we could.
            Err(_) => continue,
        }
    }
    if !errors.is_empty() {
        bail!("bad RBAC markers:\n  {}", errors.join("\n  "));
    }
    Ok(found)
}

/// Finds `#[kubegen::rbac(...)]` (or `#[rbac(...)]` after `use kubegen::rbac`) on any
/// item, however deeply nested.
struct TypedRbac<'a> {
    found: &'a mut Vec<RbacRule>,
    errors: &'a mut Vec<String>,
    file: &'a str,
}

impl<'ast> syn::visit::Visit<'ast> for TypedRbac<'_> {
    fn visit_attribute(&mut self, attr: &'ast syn::Attribute) {
        let path = attr.path();
        let is_rbac = path.segments.last().is_some_and(|s| s.ident == "rbac")
            && (path.segments.len() == 1 || (path.segments.len() == 2 && path.segments[0].ident == "kubegen"));
        if !is_rbac {
            return;
        }
        let line = attr.pound_token.span.start().line;
        match typed_rule(&attr.meta) {
            Ok(rule) => self.found.push(rule),
            Err(e) => self.errors.push(format!("{}:{line}: {e}", self.file)),
        }
    }
}

/// `kubegen::rbac(groups = ["apps"], ...)` into a rule; the attribute macro has already
/// checked it at compile time, this only reads it.
fn typed_rule(meta: &syn::Meta) -> Result<RbacRule> {
    let syn::Meta::List(list) = meta else { bail!("write #[kubegen::rbac(verbs = [...], ...)]") };
    let mut rule = RbacRule::default();
    list.parse_nested_meta(|m| {
        let key = m.path.get_ident().map(|i| i.to_string()).unwrap_or_default();
        let expr: syn::Expr = m.value()?.parse()?;
        let values: Vec<String> = match &expr {
            syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => vec![s.value()],
            syn::Expr::Array(a) => a
                .elems
                .iter()
                .filter_map(|e| match e {
                    syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => Some(s.value()),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        match key.as_str() {
            "groups" => rule.groups = values,
            "resources" => rule.resources = values,
            "resource_names" => rule.resource_names = values,
            "verbs" => rule.verbs = values,
            "urls" => rule.urls = values,
            "namespace" => rule.namespace = values.concat(),
            "role_name" => rule.role_name = values.concat(),
            _ => return Err(m.error(format!("`{key}` is not an argument of #[kubegen::rbac]"))),
        }
        Ok(())
    })?;
    rule.check()?;
    Ok(rule)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// `KUBEGEN_BLESS=1` rewrites the golden; read the diff before committing.
    #[test]
    fn rbac_golden() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/rbac");
        let rules = super::scan(&[dir.join("controller.rs")], &dir).expect("markers parse");
        assert_eq!(rules.len(), 19, "17 comment markers and 2 typed attributes");
        let mut rendered = String::new();
        for role in kubegen::rbac::generate_roles(&rules, "manager-role") {
            rendered += &match role {
                kubegen::rbac::RoleObject::Cluster(c) => kubegen::to_yaml(&c),
                kubegen::rbac::RoleObject::Namespaced(r) => kubegen::to_yaml(&r),
            }
            .expect("renders");
        }
        let golden = dir.join("role.yaml");
        if std::env::var_os("KUBEGEN_BLESS").is_some() {
            std::fs::write(&golden, &rendered).expect("write golden");
        }
        assert_eq!(std::fs::read_to_string(&golden).expect("golden exists; bless with KUBEGEN_BLESS=1"), rendered);
    }

    #[test]
    fn bad_markers_name_file_and_line() {
        let dir = std::env::temp_dir().join(format!("kubegen-rbac-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("tmp dir");
        let file = dir.join("bad.rs");
        std::fs::write(&file, "// fine\n// +kubebuilder:rbac:groups=apps,resources=pods,verbs=fetch\n").expect("write");
        let err = super::scan(&[file], &dir).unwrap_err().to_string();
        assert!(err.contains("bad.rs:2: `fetch` is not a verb the API server knows"), "{err}");
    }
}
