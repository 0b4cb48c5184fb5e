//! The CEL corpus (`tests/cel/corpus.yaml`): rules with the verdict real API servers
//! gave, and objects they admit and refuse. Read by the offline agreement test (kubegen's
//! checker against the recorded verdicts) and by the e2e tier (against the live server,
//! and `Validate` against the server's decisions on objects).

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{Value, json};

/// The release the corpus's `verdict` was taken from; others differ only where an
/// entry's `releases` says so.
pub const NEWEST: &str = "v1.37.2";

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Entry {
    pub name: String,
    pub source: String,
    pub schema: Value,
    pub rule: String,
    pub message: Option<String>,
    pub message_expression: Option<String>,
    pub field_path: Option<String>,
    pub reason: Option<String>,
    pub optional_old_self: Option<bool>,
    pub verdict: Verdict,
    /// A piece of the server's message, for refused rules.
    pub refusal: Option<String>,
    /// Releases whose verdict differs from `verdict`, by release (`v1.35.4`).
    #[serde(default)]
    pub releases: BTreeMap<String, Verdict>,
    pub note: Option<String>,
    pub valid: Option<Value>,
    pub invalid: Option<Value>,
    /// For transition rules: the stored spec; `valid` and `invalid` are updates of it.
    pub old: Option<Value>,
}

#[derive(Debug, Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Accept,
    Refuse,
}

/// Every entry of the corpus.
pub fn load() -> Vec<Entry> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/cel/corpus.yaml");
    let text = std::fs::read_to_string(path).expect("tests/cel/corpus.yaml");
    // YAML 1.2 booleans: `y` and `n` are strings.
    let mut options = serde_saphyr::Options::default();
    options.strict_booleans = true;
    serde_saphyr::from_str_with_options(&text, options).unwrap_or_else(|e| panic!("tests/cel/corpus.yaml: {e}"))
}

impl Entry {
    /// What the server of `release` (`v1.35.4`) says of the rule.
    pub fn expected(&self, release: &str) -> Verdict {
        self.releases.get(release).copied().unwrap_or(self.verdict)
    }

    /// The rule as a CRD writes it.
    pub fn rule_json(&self) -> Value {
        let mut r = json!({"rule": self.rule});
        let mut set = |k: &str, v: Option<Value>| {
            if let Some(v) = v {
                r[k] = v;
            }
        };
        set("message", self.message.clone().map(Value::from));
        set("messageExpression", self.message_expression.clone().map(Value::from));
        set("fieldPath", self.field_path.clone().map(Value::from));
        set("reason", self.reason.clone().map(Value::from));
        set("optionalOldSelf", self.optional_old_self.map(Value::from));
        r
    }

    /// The entry's schema with its rule on top.
    pub fn node_schema(&self) -> Value {
        let mut s = self.schema.clone();
        s["x-kubernetes-validations"] = json!([self.rule_json()]);
        s
    }

    /// kubegen's verdict for Kubernetes `release` (`v1.35.4`): the checker `codegen-cli
    /// manifests` runs, on the CRD's schema, in that release's environment.
    pub fn kubegen(&self, release: &str) -> Result<(), String> {
        let minor = release.split('.').nth(1).and_then(|m| m.parse().ok()).unwrap_or(0);
        let schema = root_schema(json!({"spec": self.node_schema()}));
        let refusals = kubegen_cel::schema::check_for(&typed(&schema), minor).refusals;
        if refusals.is_empty() {
            return Ok(());
        }
        Err(refusals.iter().map(|r| r.problem.message.clone()).collect::<Vec<_>>().join("; "))
    }
}

/// An object of the CRD [`crd`] writes for `kind`, with `spec`.
pub fn object(kind: &str, name: &str, spec: &Value) -> Value {
    json!({"apiVersion": "cel.kubegen.dev/v1", "kind": kind, "metadata": {"name": name}, "spec": spec})
}

/// A CRD root schema with the given properties.
pub fn root_schema(properties: Value) -> Value {
    json!({"type": "object", "properties": properties})
}

/// A schema written as JSON, in the typed IR the checker reads.
pub fn typed(schema: &Value) -> kubegen_core::schema::node::Node {
    kubegen_core::schema::node::Node::from_value(schema).unwrap_or_default()
}

/// A namespaced CRD `<plural>.cel.kubegen.dev` of kind `kind`, served at v1.
pub fn crd(kind: &str, schema: Value) -> Value {
    let plural = format!("{}s", kind.to_lowercase());
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": format!("{plural}.cel.kubegen.dev")},
        "spec": {
            "group": "cel.kubegen.dev",
            "names": {"kind": kind, "plural": plural, "singular": kind.to_lowercase(), "listKind": format!("{kind}List")},
            "scope": "Namespaced",
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": schema}}],
        },
    })
}
