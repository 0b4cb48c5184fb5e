//! RBAC and webhook markers from a workspace's sources, read as text — no user code
//! runs. `// +kubebuilder:rbac:...` and `// +kubebuilder:webhook:...` in any comment
//! (`//`, `///`, `//!`, as a Go file has them) and the typed `#[kubegen::rbac(...)]` and
//! `#[kubegen::webhook(...)]` attributes.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use kubegen::rbac::RbacRule;
use kubegen_core::markers::comment::{CommentMarker, comment_marker};
use kubegen_core::webhook::WebhookMarker;

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

/// Markers a Go type carries in `//` comments that, in Rust, only a doc comment
/// (`///`) hands to the derive.
const TYPE_MARKERS: &[&str] = &[
    "+kubebuilder:",
    "+optional",
    "+required",
    "+nullable",
    "+listType",
    "+listMapKey",
    "+mapType",
    "+structType",
    "+default",
    "+k8s:",
    "+groupName",
    "+versionName",
];

/// `+kubebuilder:` markers that mean something in a plain `//` comment.
const COMMENT_MARKERS: &[&str] = &["rbac", "scaffold", "webhook", "webhookconfiguration"];

/// What the sources say: RBAC rules, webhooks, and findings about markers nothing reads.
#[derive(Default)]
pub struct Scan {
    pub rules: Vec<RbacRule>,
    pub webhooks: Vec<WebhookMarker>,
    /// `+kubebuilder:webhookconfiguration` names: (mutating, validating).
    pub webhook_configurations: (Option<String>, Option<String>),
    pub findings: Vec<Finding>,
}

/// A marker that is written and does nothing, or a rule that is missing: an error of
/// `manifests` (and `--check`) unless its class is listed as a warning (`--warn CLASS`,
/// `warn = ["CLASS"]` in `[workspace.metadata.kubegen]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub class: Lost,
    /// `file:line: what, and what to write instead`.
    pub message: String,
}

/// The classes of [`Finding`], by the name `--warn` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, clap::ValueEnum, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Lost {
    /// A kubebuilder marker in a plain `//` comment, which the derive never sees.
    PlainComment,
    /// `+kubebuilder:` followed by a near miss of `rbac`.
    MisspelledMarker,
    /// An RBAC rule naming a kind's singular, which grants nothing.
    SingularResource,
    /// `kubegen::host::Events` in use with no RBAC rule allowing events.
    EventsRbac,
}

impl Lost {
    pub fn name(self) -> &'static str {
        match self {
            Lost::PlainComment => "plain-comment",
            Lost::MisspelledMarker => "misspelled-marker",
            Lost::SingularResource => "singular-resource",
            Lost::EventsRbac => "events-rbac",
        }
    }
}

impl Scan {
    /// kubegen's event recorder writes `events.k8s.io/v1` Events; a controller that
    /// records them without a rule allowing it is refused at its first event.
    fn check_events(&mut self, recorder_at: Option<String>) {
        let Some(at) = recorder_at else { return };
        let granted = self.rules.iter().any(|r| {
            r.groups.iter().any(|g| g == "events.k8s.io" || g == "*")
                && r.resources.iter().any(|x| x == "events" || x == "*")
                && r.verbs.iter().any(|v| v == "create" || v == "*")
        });
        if !granted {
            self.findings.push(Finding {
                class: Lost::EventsRbac,
                message: format!(
                    "{at}: kubegen::host::Events records events.k8s.io/v1 Events, and no RBAC marker allows it: add `// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch`"
                ),
            });
        }
    }
}

/// Whether a comment's first word is the marker `known` (a prefix when it ends in `:`):
/// `+optional`, `+default=1` and `+k8s:listType=map` are; the prose `+versionName, so`
/// and `+optionally` are not.
fn names_marker(word: &str, known: &str) -> bool {
    if word.ends_with([',', '.', ';', ')']) {
        return false;
    }
    if known.ends_with(':') {
        return word.starts_with(known);
    }
    word.strip_prefix(known).is_some_and(|rest| rest.is_empty() || rest.starts_with(['=', ':']))
}

/// RBAC names resources by their plural; a rule for `deployment` grants nothing. Warns
/// about each resource that is the singular of a Kubernetes kind or of one of `kinds`
/// (`(singular, plural)` pairs).
pub fn singular_resources<'a>(rules: &[RbacRule], kinds: impl Iterator<Item = (&'a str, &'a str)>) -> Vec<Finding> {
    let kinds: Vec<(String, String)> = kinds
        .map(|(s, p)| (s.to_string(), p.to_string()))
        .chain(kubegen_core::k8s::K8S_TYPES.iter().map(|k| {
            let singular = k.to_lowercase();
            let plural = kubegen_core::plural::pluralize(&singular);
            (singular, plural)
        }))
        .filter(|(s, p)| s != p)
        .collect();
    let mut warnings = Vec::new();
    for rule in rules {
        for resource in &rule.resources {
            let (name, sub) = resource.split_once('/').map_or((resource.as_str(), None), |(n, s)| (n, Some(s)));
            if let Some((_, plural)) = kinds.iter().find(|(s, _)| s == name) {
                let fixed = sub.map_or(plural.clone(), |sub| format!("{plural}/{sub}"));
                warnings.push(format!(
                    "RBAC resource `{resource}` is a kind's singular and grants nothing: resources are plural, write `{fixed}`"
                ));
            }
        }
    }
    warnings.sort();
    warnings.dedup();
    warnings.into_iter().map(|message| Finding { class: Lost::SingularResource, message }).collect()
}

/// A `//` comment's marker that nothing will read, and what to write instead.
fn ignored_marker(comment: &str) -> Option<(Lost, String)> {
    let marker = comment.split_whitespace().next().unwrap_or_default();
    if let Some(rest) = marker.strip_prefix("+kubebuilder:") {
        let name = rest.split([':', '=']).next().unwrap_or_default();
        if COMMENT_MARKERS.contains(&name) {
            return None;
        }
        if strsim::levenshtein(name, "rbac") <= 2 {
            return Some((
                Lost::MisspelledMarker,
                format!(
                    "`+kubebuilder:{name}:` is not a marker; did you mean `+kubebuilder:rbac:`? This rule is ignored"
                ),
            ));
        }
    } else if !TYPE_MARKERS.iter().any(|m| names_marker(marker, m)) {
        return None;
    }
    Some((
        Lost::PlainComment,
        format!(
            "`{marker}` is in a plain `//` comment, which the derive never sees: write it as a doc comment, `/// {marker}`, on the field or type"
        ),
    ))
}

/// Every rule in `files`; a bad marker is an error naming its file and line.
pub fn scan(files: &[PathBuf], root: &Path) -> Result<Scan> {
    let mut found = Vec::new();
    let mut webhooks = Vec::new();
    let mut configurations = (None, None);
    let mut errors = Vec::new();
    let mut findings = Vec::new();
    let mut recorder_at = None;
    let mut aliases = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
        let shown = file.strip_prefix(root).unwrap_or(file).display().to_string();
        for (i, line) in text.lines().enumerate() {
            if recorder_at.is_none() && line.contains("Events::new(") && !line.trim_start().starts_with("//") {
                recorder_at = Some(format!("{shown}:{}", i + 1));
            }
            let trimmed = line.trim_start();
            if let Some(comment) = trimmed.strip_prefix("//") {
                let doc = (comment.starts_with('/') && !comment.starts_with("//")) || comment.starts_with('!');
                let comment = comment.trim_start_matches(['/', '!']).trim_start();
                if !doc && let Some((class, warning)) = ignored_marker(comment) {
                    findings.push(Finding { class, message: format!("{shown}:{}: {warning}", i + 1) });
                }
                match comment.strip_prefix('+').and_then(comment_marker) {
                    Some(Ok(CommentMarker::Rbac(rule))) => found.push(rule),
                    Some(Ok(CommentMarker::Webhook(webhook))) => webhooks.push(*webhook),
                    Some(Ok(CommentMarker::Configuration(true, name))) => configurations.0 = Some(name),
                    Some(Ok(CommentMarker::Configuration(false, name))) => configurations.1 = Some(name),
                    Some(Err(e)) => errors.push(format!("{shown}:{}: {e}", i + 1)),
                    None => {}
                }
            }
        }
        match syn::parse_file(&text) {
            Ok(parsed) => {
                let mut visitor = TypedRbac {
                    found: &mut found,
                    webhooks: &mut webhooks,
                    errors: &mut errors,
                    aliases: &mut aliases,
                    file: &shown,
                };
                syn::visit::visit_file(&mut visitor, &parsed);
            }
            // The package's own build reports the syntax error better than we could.
            Err(_) => continue,
        }
    }
    if !errors.is_empty() {
        bail!("bad RBAC or webhook markers:\n  {}", errors.join("\n  "));
    }
    if !aliases.is_empty() {
        bail!("markers on a type alias are never applied:\n  {}", aliases.join("\n  "));
    }
    let mut scan = Scan { rules: found, webhooks, webhook_configurations: configurations, findings };
    scan.check_events(recorder_at);
    Ok(scan)
}

/// Finds `#[kubegen::rbac(...)]` and `#[kubegen::webhook(...)]` (or `#[rbac(...)]`,
/// `#[webhook(...)]` after a `use`) on any item, however deeply nested.
struct TypedRbac<'a> {
    found: &'a mut Vec<RbacRule>,
    webhooks: &'a mut Vec<WebhookMarker>,
    errors: &'a mut Vec<String>,
    /// Schema markers in a `type` alias's doc comment: a Go type alias carries them, a
    /// Rust alias has no derive to read them.
    aliases: &'a mut Vec<String>,
    file: &'a str,
}

impl<'ast> syn::visit::Visit<'ast> for TypedRbac<'_> {
    fn visit_item_type(&mut self, item: &'ast syn::ItemType) {
        for attr in item.attrs.iter().filter(|a| a.path().is_ident("doc")) {
            let syn::Meta::NameValue(syn::MetaNameValue {
                value: syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(text), .. }),
                ..
            }) = &attr.meta
            else {
                continue;
            };
            let text = text.value();
            let word = text.split_whitespace().next().unwrap_or_default();
            if TYPE_MARKERS.iter().any(|m| names_marker(word, m)) {
                let alias = &item.ident;
                let line = attr.pound_token.span.start().line;
                self.aliases.push(format!(
                    "{}:{line}: `{word}` on `type {alias} = ...`: an alias has no derive to apply it. Make `{alias}` a newtype that carries the marker: `#[derive(KubeSchema, Serialize, Deserialize)] #[serde(transparent)] pub struct {alias}(...);`",
                    self.file
                ));
            }
        }
        syn::visit::visit_item_type(self, item);
    }

    fn visit_attribute(&mut self, attr: &'ast syn::Attribute) {
        let path = attr.path();
        let ours = |name: &str| {
            path.segments.last().is_some_and(|s| s.ident == name)
                && (path.segments.len() == 1 || (path.segments.len() == 2 && path.segments[0].ident == "kubegen"))
        };
        if ours("webhook") {
            let line = attr.pound_token.span.start().line;
            match typed_webhook(&attr.meta) {
                Ok(webhook) => self.webhooks.push(webhook),
                Err(e) => self.errors.push(format!("{}:{line}: {e}", self.file)),
            }
            return;
        }
        if !ours("rbac") {
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
/// checked it at compile time, with the same reading and check (`RbacRule::from_typed`).
fn typed_rule(meta: &syn::Meta) -> Result<RbacRule> {
    let syn::Meta::List(list) = meta else { bail!("write #[kubegen::rbac(verbs = [...], ...)]") };
    let mut pairs = Vec::new();
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
        pairs.push((key, values));
        Ok(())
    })?;
    Ok(RbacRule::from_typed(pairs)?)
}

/// `kubegen::webhook(path = "...", verbs = ["create"], ...)` into a webhook; the
/// attribute macro has already checked it at compile time, with the same parser.
fn typed_webhook(meta: &syn::Meta) -> Result<WebhookMarker> {
    use kubegen_core::webhook::Typed;
    let syn::Meta::List(list) = meta else { bail!("write #[kubegen::webhook(name = \"...\", ...)]") };
    let mut pairs = Vec::new();
    list.parse_nested_meta(|m| {
        let key = m.path.get_ident().map(|i| i.to_string()).unwrap_or_default();
        let expr: syn::Expr = m.value()?.parse()?;
        let string = |e: &syn::Expr| match e {
            syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => Some(s.value()),
            _ => None,
        };
        let value = match &expr {
            syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Bool(b), .. }) => Typed::Bool(b.value),
            syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(n), .. }) => Typed::Int(n.base10_parse()?),
            syn::Expr::Array(a) => Typed::List(a.elems.iter().filter_map(string).collect()),
            e => Typed::Str(string(e).unwrap_or_default()),
        };
        pairs.push((key, value));
        Ok(())
    })?;
    Ok(kubegen_core::webhook::from_typed(pairs)?)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// `KUBEGEN_BLESS=1` rewrites the golden; read the diff before committing.
    #[test]
    fn rbac_golden() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/rbac");
        let rules = super::scan(&[dir.join("controller.rs")], &dir).expect("markers parse").rules;
        assert_eq!(rules.len(), 19, "17 comment markers and 2 typed attributes");
        let mut rendered = String::new();
        for role in crate::roles::generate_roles(&rules, "manager-role", None) {
            rendered += &match role {
                crate::roles::RoleObject::Cluster(c) => kubegen::to_yaml(&c),
                crate::roles::RoleObject::Namespaced(r) => kubegen::to_yaml(&r),
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
        let err = super::scan(&[file], &dir).err().expect("an error").to_string();
        assert!(err.contains("bad.rs:2: `fetch` is not a verb the API server knows"), "{err}");
    }

    #[test]
    fn webhooks_are_read_in_both_spellings_and_a_bad_one_names_its_line() {
        let dir = std::env::temp_dir().join(format!("kubegen-webhooks-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("tmp dir");
        let file = dir.join("hooks.rs");
        let text = "//! +kubebuilder:webhook:path=/v,mutating=false,failurePolicy=fail,sideEffects=None,groups=a.io,resources=bs,verbs=create,versions=v1,name=vb.a.io,admissionReviewVersions=v1\n// +kubebuilder:webhookconfiguration:mutating=true,name=my-mutating\n#[kubegen::webhook(path = \"/m\", mutating = true, failure_policy = \"ignore\", side_effects = \"NoneOnDryRun\", groups = [\"a.io\"], resources = [\"bs\"], verbs = [\"create\", \"update\"], versions = [\"v1\"], name = \"mb.a.io\", admission_review_versions = [\"v1\"], timeout_seconds = 5)]\npub struct Hooks;\n";
        std::fs::write(&file, text).expect("write");
        let scan = super::scan(std::slice::from_ref(&file), &dir).expect("markers parse");
        let names: Vec<(&str, bool)> = scan.webhooks.iter().map(|w| (w.name.as_str(), w.mutating)).collect();
        assert_eq!(names, [("vb.a.io", false), ("mb.a.io", true)]);
        assert_eq!(scan.webhooks[1].failure_policy, "Ignore");
        assert_eq!(scan.webhooks[1].timeout_seconds, Some(5));
        assert_eq!(scan.webhook_configurations.0.as_deref(), Some("my-mutating"));

        std::fs::write(&file, "// +kubebuilder:webhook:path=/v,mutating=false,failurePolicy=fail,sideEffects=None,groups=a.io,resources=bs,verbs=create,versions=v1,name=vb,admissionReviewVersions=v1\n").expect("write");
        let err = super::scan(&[file], &dir).err().expect("an error").to_string();
        assert!(err.contains("hooks.rs:1: `name=vb` must be a lowercase DNS name of at least three segments"), "{err}");
    }

    #[test]
    fn a_singular_resource_is_warned_about() {
        let rule = |r: &str| super::RbacRule { resources: vec![r.into()], ..Default::default() };
        let rules = [rule("deployment"), rule("memcached/status"), rule("deployments"), rule("pods")];
        let w = super::singular_resources(&rules, [("memcached", "memcacheds")].into_iter());
        assert!(w.iter().all(|f| f.class == super::Lost::SingularResource));
        let w: Vec<&str> = w.iter().map(|f| f.message.as_str()).collect();
        assert_eq!(
            w,
            [
                "RBAC resource `deployment` is a kind's singular and grants nothing: resources are plural, write `deployments`",
                "RBAC resource `memcached/status` is a kind's singular and grants nothing: resources are plural, write `memcacheds/status`",
            ]
        );
    }

    #[test]
    fn markers_on_a_type_alias_are_refused() {
        let dir = std::env::temp_dir().join(format!("kubegen-alias-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("tmp dir");
        let file = dir.join("types.rs");
        let text = "/// A port.\n/// +kubebuilder:validation:Minimum=1\npub type Port = i32;\n/// Plain.\npub type Name = String;\n";
        std::fs::write(&file, text).expect("write");
        let err = super::scan(&[file], &dir).err().expect("an error").to_string();
        assert!(
            err.contains("types.rs:2: `+kubebuilder:validation:Minimum=1` on `type Port = ...`: an alias has no derive to apply it. Make `Port` a newtype"),
            "{err}"
        );
        assert!(!err.contains("Name"), "{err}");
    }

    #[test]
    fn markers_nothing_reads_are_found_by_class() {
        let dir = std::env::temp_dir().join(format!("kubegen-ignored-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("tmp dir");
        let file = dir.join("types.rs");
        let text = "pub struct S {\n    // +kubebuilder:validation:Minimum=1\n    /// +kubebuilder:validation:Maximum=3\n    pub a: i32,\n    // +optional\n    pub b: Option<i32>,\n}\n// +kubebuilder:rbca:groups=apps,resources=pods,verbs=get\n// +kubebuilder:rbac:groups=apps,resources=pods,verbs=get\n//// +optional is a plain comment too\n// +versionName, so the prose is not a marker\n// +optionally neither\n";
        std::fs::write(&file, text).expect("write");
        let scan = super::scan(&[file], &dir).expect("scans");
        assert_eq!(scan.rules.len(), 1);
        let w =
            scan.findings.iter().map(|f| format!("{}: {}", f.class.name(), f.message)).collect::<Vec<_>>().join("\n");
        assert_eq!(scan.findings.len(), 4, "{w}");
        assert!(
            w.contains("plain-comment: types.rs:2: `+kubebuilder:validation:Minimum=1` is in a plain `//` comment"),
            "{w}"
        );
        assert!(w.contains("write it as a doc comment, `/// +optional`"), "{w}");
        assert!(
            w.contains("misspelled-marker: types.rs:8: `+kubebuilder:rbca:` is not a marker; did you mean `+kubebuilder:rbac:`?"),
            "{w}"
        );
        assert!(w.contains("types.rs:10:"), "{w}");

        std::fs::write(dir.join("c.rs"), "fn f(c: Client) { let e = Events::new(c, \"x\"); }\n").expect("write");
        let scan = super::scan(&[dir.join("c.rs")], &dir).expect("scans");
        assert_eq!(scan.findings[0].class, super::Lost::EventsRbac);
        assert!(scan.findings[0].message.starts_with("c.rs:1: kubegen::host::Events records"), "{:?}", scan.findings);
    }
}
