use serde_json::{Value, json};

use super::*;

fn spec() -> Value {
    json!({"type": "object", "properties": {
        "replicas": {"type": "integer"},
        "name": {"type": "string", "maxLength": 63},
        "namespace": {"type": "string", "maxLength": 63},
        "hosts": {"type": "array", "items": {"type": "string"}},
        "ports": {"type": "array", "maxItems": 10, "items": {"type": "integer"}},
        "labels": {"type": "object", "additionalProperties": {"type": "string", "maxLength": 63}, "maxProperties": 10},
        "limit": {"type": "string", "maxLength": 20},
        "created": {"type": "string", "format": "date-time"},
    }})
}

fn verdict(rule: Rule) -> Result<Verdict, Vec<Problem>> {
    let schema = Node::from_value(&spec()).expect("a schema");
    check_rule(&rule, &Site { schema: &schema, path: "spec", cardinality: Some(1), correlatable: true })
}

fn rule(r: &str) -> Rule {
    Rule { rule: r.into(), ..Rule::default() }
}

fn refusal(r: Rule) -> String {
    match verdict(r) {
        Ok(v) => panic!("accepted: {v:?}"),
        Err(p) => p.into_iter().map(|p| p.message).collect::<Vec<_>>().join("\n"),
    }
}

#[test]
fn accepts_what_the_server_accepts() {
    for r in [
        "self.replicas > 0",
        "self.name.startsWith('a') && size(self.name) < 10",
        "self.__namespace__ != ''",
        "self.?replicas.orValue(1) > 0",
        "self.labels[?'app'].hasValue()",
        "optional.of(self.replicas).value() == self.replicas",
        "self.ports.all(p, p > 0 && p < 65536)",
        "self.ports.map(p, p * 2).all(d, d > 0)",
        "self.ports.isSorted() && self.ports.sum() < 100",
        "quantity(self.limit).isGreaterThan(quantity('1Gi'))",
        "isQuantity(self.limit)",
        "self.labels.all(k, k.size() < 10)",
        "'app' in self.labels",
        "sets.contains(self.ports, [1])",
        "url(self.name).getScheme() == 'https'",
        "ip(self.name).family() == 4",
        "cidr(self.name).containsIP('10.0.0.1')",
        "!format.dns1123Label().validate(self.name).hasValue()",
        "semver(self.name).major() >= 1",
        "self.name.lowerAscii().split('-').size() < 5",
        "self.created < timestamp('2030-01-01T00:00:00Z')",
        "type(self.replicas) == int",
        "self.name.matches('^[a-z]+$')",
        "self.name.findAll('[0-9]').size() < 3",
        "self.replicas >= 1.5",
        "self == oldSelf",
        "self.?ports[?0].orValue(0) >= 0 && self.?labels[?'app'].hasValue() == has(self.labels.app)",
        "self.name > 'a' // größer",
    ] {
        assert!(verdict(rule(r)).is_ok(), "{r}: {:?}", verdict(rule(r)).err());
    }
}

#[test]
fn refuses_what_the_server_refuses() {
    assert!(
        refusal(rule("self.replicas.startsWith('a')"))
            .contains("found no matching overload for 'startsWith' applied to 'int.(string)'")
    );
    assert!(refusal(rule("self.nope > 0")).contains("undefined field 'nope'"));
    assert!(
        refusal(rule("self.name.reverse() == 'a'"))
            .contains("found no matching overload for 'reverse' applied to 'string.()'")
    );
    assert!(refusal(rule("self.name.toUpper() == 'a'")).contains("undeclared reference to 'toUpper'"));
    assert!(refusal(rule("self.replicas")).contains("must evaluate to a bool"));
    assert!(refusal(rule("self.name.matches('[')")).contains("invalid matches argument"));
    assert!(refusal(rule("self.replicas == 'x'")).contains("found no matching overload for '_==_'"));
    assert!(refusal(rule("self.size( > 1")).contains("Syntax error"));
    let r = Rule { optional_old_self: Some(true), ..rule("self.replicas > 0") };
    assert!(refusal(r).contains("oldSelf is not used"));
    let r = Rule { message_expression: Some("self.replicas".into()), ..rule("self.replicas > 0") };
    assert!(refusal(r).contains("must evaluate to a string"));
    let r = Rule { field_path: Some(".nope".into()), ..rule("self.replicas > 0") };
    assert!(refusal(r).contains("no field `nope`"));
}

#[test]
fn optional_old_self_reads_through_the_optional() {
    for r in
        ["!has(oldSelf.replicas) || self.replicas >= oldSelf.replicas.value()", "oldSelf.ports[?0].orValue(0) >= 0"]
    {
        let r = Rule { optional_old_self: Some(true), ..rule(r) };
        assert!(verdict(r.clone()).is_ok(), "{}: {:?}", r.rule, verdict(r.clone()).err());
    }
}

#[test]
fn cost_names_the_bound_to_add() {
    let why = refusal(rule("self.hosts.all(x, self.hosts.exists(y, x != y && x.startsWith(y)))"));
    assert!(why.contains("exceeds the API server's budget"), "{why}");
    assert!(why.contains("`+kubebuilder:validation:MaxItems` to `spec.hosts`"), "{why}");
    assert!(verdict(rule("self.ports.all(x, self.ports.exists(y, x != y))")).is_ok());
}

#[test]
fn field_paths_take_quoted_keys_with_any_character() {
    let schema = json!({"type": "object", "properties": {
        "a.b]c": {"type": "object", "properties": {"x": {"type": "integer"}}},
        "m": {"type": "object", "additionalProperties": {"type": "string"}},
    }});
    let schema = Node::from_value(&schema).expect("a schema");
    assert_eq!(field_path(&schema, "['a.b]c'].x"), Ok(()));
    assert_eq!(field_path(&schema, ".m['it\\'s']"), Ok(()));
    assert!(field_path(&schema, ".m[0]").is_err());
    assert!(field_path(&schema, "['a.b]c'].y").is_err());
}

#[test]
fn escaped_names_and_positions() {
    let why = refusal(rule("self.replicas > 0 &&\n self.nope"));
    assert!(why.contains("<input>:2:6: undefined field 'nope'"), "{why}");
}
