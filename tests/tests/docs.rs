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
