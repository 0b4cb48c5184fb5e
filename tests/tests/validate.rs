//! `Validate`: the schema's constraints and CEL rules, in-process.

use foo_controller::{Foo, FooSpec};
use kubegen::Validate;
use kubegen_tests::markers::{Ledger, LedgerSpec};

fn ledger() -> LedgerSpec {
    LedgerSpec {
        account: "acc-1".into(),
        opened: None,
        cash: Some(10),
        card: None,
        credit: None,
        owner: Some("ann".into()),
        team: None,
        entries: vec!["a".into()],
    }
}

fn messages(r: Result<(), kubegen::Violations>) -> Vec<String> {
    r.err().map(|v| v.0.into_iter().map(|v| v.message).collect()).unwrap_or_default()
}

#[test]
fn foo_bounds_and_lengths() {
    assert_eq!(Foo::new("a", FooSpec { deployment_name: "web".into(), replicas: Some(3) }).validate(), Ok(()));
    // The server's default (1) applies before validation, as on the server.
    assert_eq!(Foo::new("a", FooSpec { deployment_name: "web".into(), replicas: None }).validate(), Ok(()));
    assert_eq!(
        messages(Foo::new("a", FooSpec { deployment_name: String::new(), replicas: Some(11) }).validate()),
        [
            "spec.deploymentName in body should be at least 1 chars long",
            "spec.replicas in body should be less than or equal to 10",
        ]
    );
}

#[test]
fn ledger_cel_rules() {
    assert_eq!(Ledger::new("l", ledger()).validate(), Ok(()));

    let mut both = ledger();
    both.card = Some(5);
    both.team = Some("x".into());
    let got = messages(Ledger::new("l", both).validate());
    assert!(got.iter().any(|m| m.contains("at most one of the fields in [cash card] may be set")), "{got:?}");
    assert!(got.iter().any(|m| m.contains("exactly one of the fields in [owner team] must be set")), "{got:?}");

    let mut rich = ledger();
    rich.credit = Some(5000);
    let got = messages(Ledger::new("l", rich).validate());
    assert!(got.iter().any(|m| m.contains("credit is capped at 1000")), "{got:?}");

    let mut empty_entry = ledger();
    empty_entry.entries.push(String::new());
    let got = messages(Ledger::new("l", empty_entry).validate());
    assert!(got.iter().any(|m| m.contains("entries are not empty")), "{got:?}");
}

#[test]
fn ledger_transition_rules_see_the_old_object() {
    let old = Ledger::new("l", LedgerSpec { opened: Some("2026-01-01".into()), ..ledger() });
    let mut renamed = old.clone();
    renamed.spec.account = "acc-2".into();
    let got = messages(renamed.validate_update(&old));
    assert!(got.iter().any(|m| m.contains("field is immutable")), "{got:?}");
    let mut unset = old.clone();
    unset.spec.opened = None;
    let got = messages(unset.validate_update(&old));
    assert!(got.iter().any(|m| m.contains("field opened is immutable once set")), "{got:?}");
    assert_eq!(old.validate_update(&old), Ok(()));
}

/// Issue 28, found by the generated objects tier (tests/tests/e2e/generated_objects.rs,
/// seed 1): with the scale subresource, the server holds the integer at the spec replicas
/// path to 0..=2^31-1 whatever the schema says; Validate did not.
#[test]
fn scale_replicas_are_non_negative() {
    use kubegen::CustomResourceExt;
    let crd = kubegen_tests::pavilion::v1::Pavilion::crd();
    let object = |n: i64| serde_json::json!({"apiVersion": "zoo.kubegen.dev/v1", "kind": "Pavilion", "metadata": {"name": "p"}, "spec": {"replicas": n}});
    let refused = kubegen::validate::validate_value(&crd, &object(-1), None).expect_err("negative replicas");
    assert_eq!(refused.0[0].message, ".spec.replicas: Invalid value: -1: should be a non-negative integer");
    assert_eq!(refused.0[0].path, "spec.replicas");
    assert!(kubegen::validate::validate_value(&crd, &object(3), None).is_ok());
}
