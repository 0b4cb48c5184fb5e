//! A CEL validation rule (`x-kubernetes-validations`): the first line is the rule, the
//! rest its `messageExpression`. Parsed with the API server's grammar, compiled and
//! cost-estimated against a schema of every CEL type as the checker does for each
//! supported release, and, when the checker accepts it, evaluated on an update as
//! `Validate` and the webhook's schema validator evaluate it.

#![no_main]

use std::sync::OnceLock;

use kubegen_cel::check::{Site, check_rule, parse};
use kubegen_core::schema::markers::Rule;
use kubegen_core::schema::node::Node;
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

fn spec_schema() -> Value {
    json!({"type": "object", "properties": {
        "name": {"type": "string", "maxLength": 63},
        "replicas": {"type": "integer", "format": "int32", "minimum": 0, "maximum": 10},
        "ratio": {"type": "number"},
        "enabled": {"type": "boolean"},
        "created": {"type": "string", "format": "date-time"},
        "timeout": {"type": "string", "format": "duration"},
        "data": {"type": "string", "format": "byte", "maxLength": 64},
        "size": {"x-kubernetes-int-or-string": true},
        "hosts": {"type": "array", "maxItems": 8, "items": {"type": "string", "maxLength": 253}},
        "ports": {"type": "array", "maxItems": 4, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                  "items": {"type": "object", "required": ["name"], "properties": {
                      "name": {"type": "string", "maxLength": 15}, "port": {"type": "integer"}}}},
        "labels": {"type": "object", "maxProperties": 8, "additionalProperties": {"type": "string", "maxLength": 63}},
        "extra": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}
    }})
}

fn objects() -> &'static (Node, Value, Value) {
    static OBJECTS: OnceLock<(Node, Value, Value)> = OnceLock::new();
    OBJECTS.get_or_init(|| {
        let node = Node::from_value(&spec_schema()).expect("a schema");
        let spec = json!({"name": "web", "replicas": 3, "ratio": 0.5, "enabled": true,
            "created": "2024-01-02T03:04:05Z", "timeout": "1m30s", "data": "aGVsbG8=", "size": "50%",
            "hosts": ["a.example.com", "b"], "ports": [{"name": "http", "port": 80}],
            "labels": {"app": "web"}, "extra": {"k": [1, "two"]}});
        let old = json!({"name": "web", "replicas": 2, "ratio": 1, "enabled": false,
            "created": "2024-01-02T03:04:05Z", "timeout": "30s", "size": 3,
            "hosts": [], "ports": [{"name": "http", "port": 8080}, {"name": "x"}], "labels": {}});
        (node, spec, old)
    })
}

fuzz_target!(|text: &str| {
    let (rule, message_expression) = match text.split_once('\n') {
        Some((rule, message)) => (rule, Some(message.to_string())),
        None => (text, None),
    };
    let _ = parse(rule);
    let (node, spec, old) = objects();
    let rule = Rule { rule: rule.to_string(), message_expression, ..Rule::default() };
    let site = Site { schema: node, path: "spec", cardinality: Some(1), correlatable: true };
    if check_rule(&rule, &site).is_err() {
        return;
    }
    let mut schema = spec_schema();
    schema["x-kubernetes-validations"] = json!([rule]);
    let Some(schema) = Node::from_value(&schema) else { return };
    let _ = kubegen_cel::eval::validate_node(&schema, spec, Some(old));
    let _ = kubegen_cel::eval::validate_node(&schema, spec, None);
});
