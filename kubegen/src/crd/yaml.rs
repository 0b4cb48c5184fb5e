use serde::Serialize;
use serde_json::{Map, Value};

/// Why an object could not be rendered.
#[derive(Debug, thiserror::Error)]
pub enum YamlError {
    #[error("the object does not serialize to JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("the object does not serialize to YAML: {0}")]
    Yaml(#[from] serde_saphyr::SerializeError),
}

/// Renders an object (a CRD, a Role, ...) as the YAML document `kubectl apply -f` takes,
/// in controller-gen's form: a leading `---`, keys sorted at every level
/// (sigs.k8s.io/yaml sorts them), and integral numbers without a fraction
/// (`maximum: 10`, not `10.0`). The same object always renders to the same bytes,
/// whatever serde_json features the build enables.
pub fn to_yaml<T: Serialize + ?Sized>(object: &T) -> Result<String, YamlError> {
    let value = canonical(serde_json::to_value(object)?);
    let body = serde_saphyr::to_string(&value)?;
    Ok(format!("---\n{body}"))
}

fn canonical(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(String, Value)> = map.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(entries.into_iter().map(|(k, v)| (k, canonical(v))).collect::<Map<_, _>>())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(canonical).collect()),
        Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() && f.fract() == 0.0 && f.abs() < 9.0e15 => Value::from(f as i64),
            _ => Value::Number(n),
        },
        other => other,
    }
}
