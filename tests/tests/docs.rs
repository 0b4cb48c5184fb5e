//! The prose a user reads first holds together: every fenced block in the README and
//! docs/ opens and closes on a line of its own (a fence with text after it swallows the
//! next paragraph into the code block), and no page names a Kubernetes release older than
//! the oldest the project tests against.

use std::path::Path;

fn pages() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut pages = vec![root.join("README.md")];
    for entry in std::fs::read_dir(root.join("docs")).expect("docs/") {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|e| e == "md") {
            pages.push(path);
        }
    }
    pages.into_iter().map(|p| (p.display().to_string(), std::fs::read_to_string(&p).expect("a page"))).collect()
}

#[test]
fn every_fence_stands_on_its_own_line() {
    for (page, text) in pages() {
        let mut open = false;
        for (i, line) in text.lines().enumerate() {
            let trimmed = line.trim_start();
            if !trimmed.contains("```") {
                continue;
            }
            assert!(trimmed.starts_with("```"), "{page}:{}: a fence in the middle of a line: {line}", i + 1);
            let info = trimmed.trim_start_matches('`');
            if open {
                assert!(info.trim().is_empty(), "{page}:{}: text after a closing fence: {line}", i + 1);
            } else {
                assert!(!info.contains('`'), "{page}:{}: a fence with text after it: {line}", i + 1);
            }
            open = !open;
        }
        assert!(!open, "{page}: a fenced block is never closed");
    }
}

#[test]
fn no_page_names_a_release_older_than_the_floor() {
    // scripts/test.sh's floor: v1.35 (the CRD tier); k8s-openapi's oldest is 1.33.
    for (page, text) in pages() {
        for (i, line) in text.lines().enumerate() {
            for word in line.split(|c: char| !(c.is_ascii_digit() || c == '.')) {
                let minor =
                    word.strip_prefix("1.").and_then(|m| m.split('.').next()).and_then(|m| m.parse::<u32>().ok());
                let named =
                    line.contains("Kubernetes") || line.contains("kube-apiserver") || line.contains("API server");
                if let Some(minor) = minor.filter(|_| named) {
                    assert!(!(16..33).contains(&minor), "{page}:{}: names Kubernetes 1.{minor}: {line}", i + 1);
                }
            }
        }
    }
}

/// The API references `codegen-cli docs` writes (the examples' under docs/api, the zoo's
/// golden under tests/golden/docs): every relative link names a page that exists, and
/// every `#anchor` a heading or an `<a id>` of that page.
#[test]
fn every_link_of_the_api_reference_resolves() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut checked = 0;
    for dir in [root.join("docs/api"), root.join("tests/golden/docs")] {
        let mut pages = Vec::new();
        let mut pending = vec![dir.clone()];
        while let Some(d) = pending.pop() {
            for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
                let path = entry.expect("an entry").path();
                if path.is_dir() {
                    pending.push(path);
                } else if path.extension().is_some_and(|e| e == "md") {
                    pages.push(path);
                }
            }
        }
        assert!(pages.len() >= 2, "{}: no API reference pages", dir.display());
        checked += check_links(&pages);
    }
    assert!(checked > 50, "only {checked} links checked");
}

/// The README and the references under docs/ it points to: every relative link resolves,
/// so the shorter README's pointers lead somewhere.
#[test]
fn every_link_of_the_readme_and_docs_resolves() {
    let pages: Vec<std::path::PathBuf> = pages().into_iter().map(|(page, _)| page.into()).collect();
    let checked = check_links(&pages);
    assert!(checked > 20, "only {checked} links checked");
}

/// Checks every relative link of `pages` (outside code): the file exists, and an
/// `#anchor` is a heading's slug or an `<a id>` of the linked Markdown page. Returns how
/// many links it checked.
fn check_links(pages: &[std::path::PathBuf]) -> usize {
    let anchors = |page: &Path| -> Vec<String> {
        let text = std::fs::read_to_string(page).unwrap_or_else(|e| panic!("{}: {e}", page.display()));
        let mut found = Vec::new();
        for line in text.lines() {
            if let Some(heading) = line.trim_start_matches('#').strip_prefix(' ').filter(|_| line.starts_with('#')) {
                found.push(kubegen_cli::heading_anchor(heading));
            }
            if let Some(rest) = line.strip_prefix("<a id=\"") {
                found.push(rest.split('"').next().unwrap_or_default().to_string());
            }
        }
        found
    };
    let mut checked = 0;
    for page in pages {
        let text = std::fs::read_to_string(page).expect("a page");
        // Links outside code spans and fenced blocks (a pattern may hold `](`).
        let prose: String =
            text.split("```").step_by(2).flat_map(|part| part.split('`').step_by(2)).collect::<Vec<_>>().join(" ");
        for target in prose.split("](").skip(1).map(|rest| rest.split(')').next().unwrap_or_default()) {
            if target.starts_with("http") {
                continue;
            }
            let (file, anchor) = target.split_once('#').unwrap_or((target, ""));
            let linked = if file.is_empty() { page.clone() } else { page.parent().expect("a dir").join(file) };
            assert!(linked.exists(), "{}: a link to {target}, which does not exist", page.display());
            if !anchor.is_empty() && linked.extension().is_some_and(|e| e == "md") {
                assert!(
                    anchors(&linked).iter().any(|a| a == anchor),
                    "{}: a link to {target}, whose page has no such anchor",
                    page.display()
                );
            }
            checked += 1;
        }
    }
    checked
}

/// The zoo's golden API reference says every marker family in words (a family the
/// generator stops rendering, or a zoo that stops using one, fails here): each phrase is
/// what the page writes for it.
#[test]
fn the_zoo_reference_says_every_marker_family() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/golden/docs/zoo.kubegen.dev");
    let pages: String = ["v1.md", "v1beta1.md"]
        .iter()
        .map(|p| std::fs::read_to_string(root.join(p)).unwrap_or_else(|e| panic!("{p}: {e}")))
        .collect();
    for (family, phrase) in [
        ("minimum", "Minimum: "),
        ("exclusive maximum", "Less than "),
        ("exclusive minimum", "Greater than "),
        ("multipleOf", "A multiple of "),
        ("lengths", "Length: "),
        ("pattern", "Matches `"),
        ("enum", "One of: "),
        ("a field's enum over its type's", "(of Depth's "),
        ("format", "(date-time)"),
        ("item counts", "Items: "),
        ("property counts", "Entries: "),
        ("item bounds", "Each item: "),
        ("listType=set", "A set: "),
        ("listType=map with keys", "A map list keyed by "),
        ("mapType/structType=atomic", "Atomic: "),
        ("mapType=granular", "Granular: "),
        ("immutability (self == oldSelf)", "mmutable once set"),
        ("int-or-string", "integer or string"),
        ("preserve-unknown-fields", "Keeps fields the schema does not name"),
        ("embedded resource", "An embedded Kubernetes object"),
        ("schemaless", "any JSON value"),
        ("nullable", "May be null."),
        ("CEL rules", "- Rule: `"),
        ("CEL reason", "FieldValueRequired"),
        ("one-of groups (ExactlyOneOf, as their CEL rule)", "exactly one of the fields in ["),
        ("union variants (oneOf)", "Exactly one of: "),
        ("untagged union variants (anyOf)", "At least one of (the first that fits is read)"),
        ("required", "| required |"),
        ("printer columns", "Printer columns"),
        ("selectable fields", "Selectable fields"),
        ("status subresource", "status (`/status`"),
        ("scale subresource", "scale (`kubectl scale`: replicas "),
        ("deprecated version, with its warning", "deprecated: use zoo.kubegen.dev/v2 Pavilion"),
        ("deprecated field", "Deprecated in `"),
        ("added in", "Added in `"),
        ("removed in", "Removed in `"),
        ("changes between versions", "Changes from `"),
        ("example object", "Example"),
    ] {
        assert!(pages.contains(phrase), "the zoo's reference does not say {family} (`{phrase}`)");
    }
}
