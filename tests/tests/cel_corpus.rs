//! kubegen's CEL checker against the verdicts real API servers gave on the corpus
//! (`tests/cel/corpus.yaml`), for every release the corpus records. The e2e tier asks
//! the live servers again (`tests/tests/e2e/cel_corpus.rs`); this test keeps the checker
//! honest in a plain `cargo test`.

use kubegen_tests::cel_corpus::{self, NEWEST, Verdict};

/// The releases CI runs the e2e tier on.
const RELEASES: &[&str] = &[NEWEST, "v1.35.4"];

#[test]
fn kubegen_agrees_with_the_api_servers_on_every_rule() {
    let corpus = cel_corpus::load();
    assert!(corpus.len() >= 150, "the corpus has {} rules; it needs at least 150", corpus.len());
    let mut names = std::collections::BTreeSet::new();
    for e in &corpus {
        assert!(names.insert(&e.name), "`{}` is in the corpus twice", e.name);
        if !e.releases.is_empty() {
            assert!(e.note.is_some(), "`{}` differs between releases but has no note saying why", e.name);
        }
        if e.verdict == Verdict::Accept {
            assert!(e.valid.is_some(), "`{}` is accepted but has no valid object", e.name);
        }
    }
    let mut disagreements = Vec::new();
    let mut checked = 0;
    for release in RELEASES {
        for e in &corpus {
            checked += 1;
            let ours = e.kubegen(release);
            let server = e.expected(release);
            match (server, &ours) {
                (Verdict::Accept, Err(why)) => {
                    disagreements.push(format!("{release} {}: the server accepts `{}`; kubegen refuses: {why}", e.name, e.rule))
                }
                (Verdict::Refuse, Ok(())) => disagreements.push(format!(
                    "{release} {}: the server refuses `{}` ({}); kubegen accepts it",
                    e.name,
                    e.rule,
                    e.refusal.as_deref().unwrap_or("no message recorded")
                )),
                _ => {}
            }
        }
    }
    println!("kubegen agrees with the recorded API server verdicts on {}/{checked} rules", checked - disagreements.len());
    assert!(disagreements.is_empty(), "{} disagreements:\n{}", disagreements.len(), disagreements.join("\n"));
}
