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
                (Verdict::Accept, Err(why)) => disagreements
                    .push(format!("{release} {}: the server accepts `{}`; kubegen refuses: {why}", e.name, e.rule)),
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
    println!(
        "kubegen agrees with the recorded API server verdicts on {}/{checked} rules",
        checked - disagreements.len()
    );
    assert!(disagreements.is_empty(), "{} disagreements:\n{}", disagreements.len(), disagreements.join("\n"));
}

/// `Validate` decides every object of the corpus as the server did when the corpus was
/// recorded (the e2e tier asks the live servers again): the valid one admitted, the
/// invalid one refused, transition rules as an update of the stored object.
#[test]
fn validate_decides_every_corpus_object_as_the_server_did() {
    use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
    let corpus = cel_corpus::load();
    let (mut decided, mut wrong) = (0, Vec::new());
    for e in corpus.iter().filter(|e| e.verdict == Verdict::Accept) {
        let crd = cel_corpus::crd("Rule", cel_corpus::root_schema(serde_json::json!({"spec": e.node_schema()})));
        let crd: CustomResourceDefinition = serde_json::from_value(crd).expect("a CRD");
        let old = e.old.as_ref().map(|o| cel_corpus::object("Rule", "x", o));
        for (value, admitted) in [(e.valid.as_ref(), true), (e.invalid.as_ref(), false)] {
            let Some(value) = value else { continue };
            decided += 1;
            let ours = kubegen::validate::validate_value(&crd, &cel_corpus::object("Rule", "x", value), old.as_ref());
            if ours.is_ok() != admitted {
                let said = ours.err().map(|v| v.to_string()).unwrap_or_else(|| "admitted".into());
                wrong.push(format!(
                    "{}: {value} should be {}; Validate: {said}",
                    e.name,
                    if admitted { "admitted" } else { "refused" }
                ));
            }
        }
    }
    println!("Validate decides {}/{decided} corpus objects as the server did", decided - wrong.len());
    assert!(wrong.is_empty(), "{} objects decided differently:\n{}", wrong.len(), wrong.join("\n"));
}
