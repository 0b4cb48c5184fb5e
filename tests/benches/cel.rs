//! What the CEL check costs: time to check every rule of the corpus as `codegen-cli
//! manifests` does (every supported release), per rule; the time to evaluate the
//! corpus's objects (as `Validate` does) with each rule compiled once and kept, against
//! compiling it on every evaluation; and the cost estimates of the corpus's list-walking
//! rules beside the server's verdict. Prints figures;
//! `cargo bench -p kubegen-tests --bench cel`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use kubegen_tests::cel_corpus::{self, NEWEST, Verdict};
use serde_json::json;

fn main() {
    let corpus = cel_corpus::load();
    let schemas: Vec<_> =
        corpus.iter().map(|e| cel_corpus::typed(&cel_corpus::root_schema(json!({"spec": e.node_schema()})))).collect();
    let start = Instant::now();
    let mut rounds = 0u32;
    while start.elapsed() < Duration::from_secs(2) {
        for s in &schemas {
            black_box(kubegen_cel::schema::check(s));
        }
        rounds += 1;
    }
    let per_rule = start.elapsed() / (rounds * schemas.len() as u32);
    println!("{} rules checked {rounds} times: {per_rule:.2?} per rule (all supported releases)", schemas.len());

    let objects: Vec<_> = corpus
        .iter()
        .zip(&schemas)
        .flat_map(|(e, s)| {
            let old = e.old.as_ref().map(|old| cel_corpus::object("Rule", "a", old));
            [&e.valid, &e.invalid]
                .into_iter()
                .flatten()
                .map(move |spec| (s, cel_corpus::object("Rule", "a", spec), old.clone()))
        })
        .collect();
    let evaluate = |programs: Option<&kubegen_cel::eval::Programs>| {
        let start = Instant::now();
        let mut rounds = 0u32;
        while start.elapsed() < Duration::from_secs(1) {
            for (s, object, old) in &objects {
                black_box(match programs {
                    Some(p) => kubegen_cel::eval::validate_with(p, s, object, old.as_ref()),
                    None => kubegen_cel::eval::validate(s, object, old.as_ref()),
                });
            }
            rounds += 1;
        }
        start.elapsed() / (rounds * objects.len() as u32)
    };
    let kept = kubegen_cel::eval::Programs::default();
    let (compiled_once, compiling) = (evaluate(Some(&kept)), evaluate(None));
    println!(
        "{} objects evaluated: {compiled_once:.2?} per object with the rules compiled once (a kind's validator), {compiling:.2?} compiling them on every evaluation",
        objects.len()
    );

    println!(
        "\nlist-walking rules: kubegen's estimate (per rule, times cardinality) and the server's verdict ({NEWEST})"
    );
    for (e, s) in corpus.iter().zip(&schemas) {
        if !e.name.starts_with("cost-") {
            continue;
        }
        let report = kubegen_cel::schema::check_for(s, 37);
        let ours = match report.refusals.first() {
            None => format!("{:>14} (accepted)", report.total_cost),
            Some(r) => {
                r.problem
                    .message
                    .split(" exceeds")
                    .next()
                    .unwrap_or_default()
                    .replace("estimated rule cost ", "")
                    .to_string()
                    + " (refused)"
            }
        };
        let server = match e.expected(NEWEST) {
            Verdict::Accept => "accepts",
            Verdict::Refuse => "refuses",
        };
        println!("  {:<44} {ours:<32} server {server}", e.name);
    }
}
