//! Every output agrees with every other: for each marker family and each shape a client
//! can get wrong (the `Accord` kind), what the CRD holds, what `Validate` says of a value
//! inside and one outside the constraint, and what the Go, TypeScript and Python clients
//! make of it (their goldens in tests/golden/clients). The Python model's verdict on the
//! same values runs under Python (`python_agrees_with_validate`, run by
//! scripts/clients-e2e.sh in the virtualenv it makes). Where a language cannot express a
//! constraint, the row says so, and the test holds the language to accepting the value
//! (so the row changes when the language learns it).
//!
//! Two rules hold in every row, for every value inside: a client never refuses what the
//! API server accepts, and never drops or changes what the server keeps.

use std::path::{Path, PathBuf};

use kubegen::CustomResourceExt;
use kubegen::validate::Validator;
use kubegen_tests::accord::Accord;
use serde_json::{Value, json};

/// What the Python model does with the value outside the constraint.
#[derive(Clone, Copy)]
enum Python {
    /// Refuses it, as `Validate` and the server do.
    Refuses,
    /// Cannot express the constraint (the reason), so it accepts the value.
    Cannot(&'static str),
}

struct Row {
    /// The field of `AccordSpec`, by its wire name.
    field: &'static str,
    family: &'static str,
    /// Keys the field's CRD node holds, with their values.
    crd: Value,
    /// Values the server accepts: every output must take them, unchanged.
    inside: Vec<Value>,
    /// Values the server refuses.
    outside: Vec<Value>,
    /// Lines of the Go field's comment (its markers), or of the named Go type's when
    /// prefixed with `type:`.
    go: &'static [&'static str],
    /// Text of the TypeScript field's JSDoc and declaration.
    ts: &'static [&'static str],
    /// Text of the Python field's declaration (or `class:` the named model's source).
    py: &'static [&'static str],
    python: Python,
}

fn rows() -> Vec<Row> {
    use Python::*;
    vec![
        Row {
            field: "bounded",
            family: "bounds, exclusive maximum",
            crd: json!({"type": "integer", "minimum": 1, "maximum": 10, "exclusiveMaximum": true}),
            inside: vec![json!(1), json!(9)],
            outside: vec![json!(0), json!(10), json!("5"), json!(true)],
            go: &[
                "+kubebuilder:validation:Minimum=1",
                "+kubebuilder:validation:Maximum=10",
                "+kubebuilder:validation:ExclusiveMaximum=true",
            ],
            ts: &["Minimum: 1. Maximum: 10 (exclusive).", "bounded?: number;"],
            py: &["_Int32, _pd.Field(ge=1, lt=10)"],
            python: Refuses,
        },
        // issue 28, found by the generated kinds tier: the server does not check a format's
        // range, so the CRD carries an int32's as bounds; Go's and Rust's int32 hold it.
        Row {
            field: "replicas",
            family: "integer format's range (int32)",
            crd: json!({"type": "integer", "format": "int32", "minimum": -2147483648, "maximum": 2147483647}),
            inside: vec![json!(-2147483648), json!(2147483647)],
            outside: vec![json!(2147483648u32), json!(-2147483649i64), json!(1099511627776u64)],
            go: &[],
            ts: &["Format: int32.", "replicas?: number;"],
            py: &["_t.Optional[_Int32]"],
            python: Refuses,
        },
        Row {
            field: "ratio",
            family: "bounds, exclusive minimum",
            crd: json!({"type": "number", "minimum": 0, "exclusiveMinimum": true, "maximum": 1}),
            inside: vec![json!(0.5), json!(1)],
            outside: vec![json!(0), json!(1.5), json!("0.5")],
            go: &[
                "+kubebuilder:validation:Minimum=0",
                "+kubebuilder:validation:Maximum=1",
                "+kubebuilder:validation:ExclusiveMinimum=true",
            ],
            ts: &["Minimum: 0 (exclusive). Maximum: 1.", "ratio?: number;"],
            py: &["_pd.StrictFloat, _pd.Field(gt=0, le=1)"],
            python: Refuses,
        },
        Row {
            field: "step",
            family: "multipleOf",
            crd: json!({"type": "integer", "multipleOf": 5}),
            inside: vec![json!(15), json!(0)],
            outside: vec![json!(7)],
            go: &["+kubebuilder:validation:MultipleOf=5"],
            ts: &["Multiple of: 5.", "step?: number;"],
            py: &["_pd.StrictInt, _pd.Field(multiple_of=5)"],
            python: Refuses,
        },
        Row {
            field: "title",
            family: "string lengths",
            crd: json!({"type": "string", "minLength": 3, "maxLength": 8}),
            inside: vec![json!("abc"), json!("abcdefgh")],
            outside: vec![json!("ab"), json!("abcdefghi"), json!(123)],
            go: &["+kubebuilder:validation:MinLength=3", "+kubebuilder:validation:MaxLength=8"],
            ts: &["Min length: 3. Max length: 8.", "title?: string;"],
            py: &["_pd.StrictStr, _pd.Field(min_length=3, max_length=8)"],
            python: Refuses,
        },
        Row {
            field: "host",
            family: "a second pattern (the field's beside its type's, in allOf)",
            crd: json!({"type": "string", "maxLength": 63, "pattern": "^[a-z0-9-]+$", "allOf": [{"pattern": "^web-"}]}),
            inside: vec![json!("web-1")],
            // The field's pattern, then the type's.
            outside: vec![json!("api-1"), json!("web_1"), json!(format!("web-{}", "a".repeat(60)))],
            go: &[
                "+kubebuilder:validation:Pattern=`^web-`",
                "type:+kubebuilder:validation:Pattern=`^[a-z0-9-]+$`",
                "type:+kubebuilder:validation:MaxLength=63",
            ],
            ts: &["Pattern: `^web-`.", "host?: AccordLabel;"],
            py: &[
                "_t.Annotated[AccordLabel, _pd.AfterValidator(_also(pattern=\"^web-\"))]",
                "class:AccordLabel = _t.Annotated[_pd.StrictStr, _pd.Field(max_length=63, pattern=\"^[a-z0-9-]+$\")]",
            ],
            python: Refuses,
        },
        Row {
            field: "mode",
            family: "enum",
            crd: json!({"type": "string", "enum": ["fast", "safe"]}),
            inside: vec![json!("fast"), json!("safe")],
            outside: vec![json!("slow")],
            go: &["+kubebuilder:validation:Enum=\"fast\";\"safe\""],
            ts: &["mode?: \"fast\" | \"safe\";"],
            py: &["_t.Literal[\"fast\", \"safe\"]"],
            python: Refuses,
        },
        Row {
            field: "due",
            family: "format",
            crd: json!({"type": "string", "format": "date-time"}),
            inside: vec![json!("2024-01-01T10:00:00Z")],
            // pydantic alone takes a number, or a string of digits, as Unix time.
            outside: vec![json!("yesterday"), json!("2024-01-01T25:00:00Z"), json!(1700000000), json!("1700000000")],
            go: &["+kubebuilder:validation:Format=date-time"],
            ts: &["Format: date-time.", "due?: string;"],
            py: &["_DateTime"],
            python: Refuses,
        },
        Row {
            field: "sizes",
            family: "item counts",
            crd: json!({"type": "array", "minItems": 1, "maxItems": 2, "items": {"type": "integer"}}),
            inside: vec![json!([1]), json!([1, 2])],
            outside: vec![json!([]), json!([1, 2, 3])],
            go: &["+kubebuilder:validation:MinItems=1", "+kubebuilder:validation:MaxItems=2"],
            ts: &["Min items: 1. Max items: 2.", "sizes?: Array<number>;"],
            py: &["_t.Annotated[list[_Int32], _pd.Field(min_length=1, max_length=2)]"],
            python: Refuses,
        },
        Row {
            field: "tags",
            family: "unique items (listType=set)",
            crd: json!({"type": "array", "x-kubernetes-list-type": "set"}),
            inside: vec![json!(["a", "b"])],
            outside: vec![json!(["a", "a"])],
            go: &["+listType=set"],
            ts: &["tags?: Array<string>;"],
            py: &["list[_pd.StrictStr]"],
            python: Cannot("pydantic v2 has no unique-items constraint; the server and Validate refuse duplicates"),
        },
        Row {
            field: "members",
            family: "list map keys",
            crd: json!({"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"]}),
            inside: vec![json!([{"name": "a"}, {"name": "b", "role": "x"}])],
            outside: vec![json!([{"name": "a"}, {"name": "a"}])],
            go: &["+listType=map", "+listMapKey=name"],
            ts: &["members?: Array<Member>;"],
            py: &["list[Member]"],
            python: Cannot("a list map's keys are unique per the server; pydantic checks only each item"),
        },
        Row {
            field: "labels",
            family: "property counts",
            crd: json!({"type": "object", "minProperties": 1, "maxProperties": 2}),
            inside: vec![json!({"a": "1"}), json!({"a": "1", "b": "2"})],
            outside: vec![json!({}), json!({"a": "1", "b": "2", "c": "3"})],
            go: &["+kubebuilder:validation:MinProperties=1", "+kubebuilder:validation:MaxProperties=2"],
            ts: &["Min properties: 1. Max properties: 2.", "labels?: Record<string, string>;"],
            py: &["_t.Annotated[dict[str, _pd.StrictStr], _pd.Field(min_length=1, max_length=2)]"],
            python: Refuses,
        },
        Row {
            field: "replicas",
            family: "default",
            crd: json!({"type": "integer", "default": 3}),
            inside: vec![json!(3), json!(4)],
            outside: vec![json!("3")],
            go: &["+default=3"],
            ts: &["Default: `3`.", "replicas?: number;"],
            py: &["_t.Optional[_Int32] = _pd.Field(default=3, alias=\"replicas\")"],
            python: Refuses,
        },
        Row {
            field: "lead",
            family: "an object default on a field of a named type",
            crd: json!({"type": "object", "default": {"name": "owner"}}),
            inside: vec![json!({"name": "x"}), json!({"name": "y", "role": "r"})],
            outside: vec![json!({"role": "r"})],
            go: &["+default={\"name\":\"owner\"}"],
            ts: &["Default: `{\"name\":\"owner\"}`.", "lead?: Member;"],
            py: &["_t.Optional[Member] = _pd.Field(default=_t.cast(_t.Any, {\"name\": \"owner\"}), alias=\"lead\")"],
            python: Refuses,
        },
        Row {
            field: "note",
            family: "nullable",
            crd: json!({"type": "string", "nullable": true}),
            inside: vec![Value::Null, json!("n")],
            outside: vec![json!(5)],
            go: &["+nullable"],
            ts: &["note?: string | null;"],
            py: &["_t.Optional[_pd.StrictStr]"],
            python: Refuses,
        },
        Row {
            field: "surge",
            family: "int-or-string with a pattern",
            crd: json!({"x-kubernetes-int-or-string": true, "pattern": "^[0-9]+%$", "minimum": -2147483648, "maximum": 2147483647}),
            inside: vec![json!(3), json!("25%"), json!(2147483647)],
            // An IntOrString's integer is an int32 (Go's and k8s-openapi's): issue 28's
            // objects tier found the server storing 2^52 in one, which neither can read.
            outside: vec![json!("x"), json!(true), json!(2.5), json!(2147483648u32)],
            // controller-gen takes no string marker on an int-or-string: the bound is
            // in words (tests/oracle/allowed-generated.txt).
            go: &["String values have the pattern `^[0-9]+%$`."],
            ts: &["Pattern: `^[0-9]+%$`.", "surge?: number | string;"],
            py: &["_Int32 | _t.Annotated[str, _pd.StringConstraints(strict=True, pattern=\"^[0-9]+%$\")]"],
            python: Refuses,
        },
        Row {
            field: "quota",
            family: "a map of Quantity",
            crd: json!({"type": "object", "additionalProperties": {"x-kubernetes-int-or-string": true}}),
            inside: vec![json!({"pods": 10, "cpu": "500m", "memory": "1Gi"})],
            outside: vec![json!({"cpu": "lots"}), json!({"cpu": true})],
            go: &["map[string]Quantity"],
            ts: &["quota?: Record<string, number | string>;"],
            py: &["dict[str, _Quantity]"],
            python: Refuses,
        },
        Row {
            field: "limits",
            family: "a map of int-or-string",
            crd: json!({"type": "object", "additionalProperties": {"x-kubernetes-int-or-string": true}}),
            inside: vec![json!({"a": 1, "b": "50%"})],
            outside: vec![json!({"a": true}), json!({"a": 1.5})],
            go: &["map[string]intstr.IntOrString"],
            ts: &["limits?: Record<string, number | string>;"],
            py: &["dict[str, _Int32 | _pd.StrictStr]"],
            python: Refuses,
        },
        Row {
            field: "span",
            family: "CEL rule",
            crd: json!({"type": "object", "x-kubernetes-validations": [{"rule": "self.low <= self.high", "message": "low must not exceed high"}]}),
            inside: vec![json!({"low": 1, "high": 2})],
            outside: vec![json!({"low": 3, "high": 2})],
            go: &[
                "type:+kubebuilder:validation:XValidation:rule=\"self.low <= self.high\",message=\"low must not exceed high\"",
            ],
            ts: &["span?: Span;"],
            py: &["_t.Optional[Span]"],
            python: Cannot("CEL rules are the server's and Validate's to check"),
        },
        Row {
            field: "open",
            family: "preserve-unknown-fields",
            crd: json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}),
            inside: vec![json!({"known": "a", "other": 1, "deep": {"x": [1, 2]}})],
            outside: vec![json!({"known": 5})],
            // The keys Open does not name, kept by its JSON methods (go test checks it).
            go: &["type:Unknown map[string]runtime.RawExtension `json:\"-\"`"],
            ts: &["open?: Open;", "class:[key: string]: unknown;"],
            py: &["_t.Optional[Open]", "class:extra=\"allow\""],
            python: Refuses,
        },
        Row {
            field: "subject",
            family: "embedded resource",
            crd: json!({"type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true}),
            inside: vec![
                json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"a": "b"}}),
            ],
            outside: vec![json!({"kind": "ConfigMap", "metadata": {"name": "c"}})],
            go: &["+kubebuilder:validation:EmbeddedResource"],
            ts: &["subject?: Record<string, unknown>;"],
            py: &["dict[str, _t.Any]"],
            python: Cannot("an embedded object's apiVersion and kind are the server's and Validate's to require"),
        },
        Row {
            field: "enclosure",
            family: "an enum with data",
            crd: json!({"type": "object"}),
            inside: vec![json!({"open": {"area_m2": 5}}), json!({"closed": {"bars": 3}}), json!({"empty": {}})],
            outside: vec![json!({"open": {"area_m2": "wide"}})],
            go: &[],
            ts: &["enclosure?: Enclosure;"],
            py: &["_t.Optional[Enclosure]"],
            python: Refuses,
        },
    ]
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn object(field: &str, value: &Value) -> Value {
    json!({
        "apiVersion": "zoo.kubegen.dev/v1",
        "kind": "Accord",
        "metadata": {"name": "a"},
        "spec": {field: value},
    })
}

/// `actual` holds `expected`: every key of an expected object, recursively, with the
/// same value; numbers compare as numbers (the CRD writes `10.0` for a bound of 10).
fn holds(actual: &Value, expected: &Value) -> bool {
    match (actual, expected) {
        (Value::Object(a), Value::Object(e)) => e.iter().all(|(k, v)| a.get(k).is_some_and(|a| holds(a, v))),
        (Value::Array(a), Value::Array(e)) => a.len() == e.len() && a.iter().zip(e).all(|(a, e)| holds(a, e)),
        (Value::Number(a), Value::Number(e)) => a.as_f64() == e.as_f64(),
        _ => actual == expected,
    }
}

/// The block of `text` that `find` says is the field's: the comment lines above the
/// line that declares it, and that line.
fn block<'a>(
    text: &'a str,
    start: &str,
    declares: impl Fn(&str) -> bool,
    comment: impl Fn(&str) -> bool,
) -> Vec<&'a str> {
    let lines: Vec<&str> = text.lines().collect();
    let from = lines.iter().position(|l| l.starts_with(start)).unwrap_or_else(|| panic!("no `{start}`"));
    let at =
        from + lines[from..].iter().position(|l| declares(l)).unwrap_or_else(|| panic!("no field after `{start}`"));
    let mut first = at;
    while first > from + 1 && comment(lines[first - 1].trim()) {
        first -= 1;
    }
    lines[first..=at].to_vec()
}

#[test]
fn every_output_agrees_on_every_family() {
    let crd = Accord::crd();
    let validator = Validator::for_crd(&crd);
    let crd = serde_json::to_value(&crd).expect("json");
    let spec = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"];
    let go = read("tests/golden/clients/go/api/v1/accord_types.go");
    let ts = read("tests/golden/clients/typescript/src/zoo.kubegen.dev/v1/models.ts");
    let py = read("tests/golden/clients/python/kubegen_api/zoo_v1/models.py");
    let mut failures = Vec::new();
    let mut matrix = vec![format!("{:<10} {:<58} {:<7} {:<8} python", "field", "family", "inside", "outside")];
    for row in rows() {
        let mut fail = |what: String| failures.push(format!("{} ({}): {what}", row.field, row.family));
        let node = &spec[row.field];
        if !holds(node, &row.crd) {
            fail(format!("the CRD node {node} lacks {}", row.crd));
        }
        for value in &row.inside {
            if let Err(v) = validator.validate(&object(row.field, value), None) {
                fail(format!("Validate refuses {value}: {v}"));
            }
        }
        for value in &row.outside {
            if validator.validate(&object(row.field, value), None).is_ok() {
                fail(format!("Validate accepts {value}"));
            }
        }
        let go_field = block(
            &go,
            "type AccordSpec struct",
            |l| l.contains(&format!("`json:\"{},", row.field)) || l.contains(&format!("`json:\"{}\"", row.field)),
            |l| l.starts_with("//"),
        )
        .join("\n");
        for want in row.go {
            let (text, whole) = match want.strip_prefix("type:") {
                Some(t) => (t, go.as_str()),
                None => (*want, go_field.as_str()),
            };
            if !whole.contains(text) {
                fail(format!("Go: no `{text}` in\n{}", if want.starts_with("type:") { "the file" } else { whole }));
            }
        }
        let ts_field = block(
            &ts,
            "export interface AccordSpec",
            |l| {
                l.trim_start().starts_with(&format!("{}?:", row.field))
                    || l.trim_start().starts_with(&format!("{}:", row.field))
            },
            |l| l.starts_with("/**") || l.starts_with('*'),
        )
        .join("\n");
        for want in row.ts {
            let (text, whole) = match want.strip_prefix("class:") {
                Some(t) => (t, ts.as_str()),
                None => (*want, ts_field.as_str()),
            };
            if !whole.contains(text) {
                fail(format!("TypeScript: no `{text}` in\n{whole}"));
            }
        }
        let py_field =
            block(&py, "class AccordSpec(", |l| l.contains(&format!("alias=\"{}\")", row.field)), |_| false).join("\n");
        for want in row.py {
            let (text, whole) = match want.strip_prefix("class:") {
                Some(t) => (t, py.as_str()),
                None => (*want, py_field.as_str()),
            };
            if !whole.contains(text) {
                fail(format!("Python: no `{text}` in\n{whole}"));
            }
        }
        let python = match row.python {
            Python::Refuses => "refuses".to_string(),
            Python::Cannot(why) => format!("cannot: {why}"),
        };
        matrix.push(format!(
            "{:<10} {:<58} {:<7} {:<8} {python}",
            row.field,
            row.family,
            row.inside.len(),
            row.outside.len()
        ));
    }
    println!("{}", matrix.join("\n"));
    assert!(failures.is_empty(), "{} disagreements:\n\n{}", failures.len(), failures.join("\n\n"));
}

/// The Python model's verdict on every value of every row, under Python with pydantic
/// and the kubernetes client (`KUBEGEN_PYTHON`, else `python3`): each value inside is
/// accepted and written back unchanged; each value outside is refused where the row
/// says Python refuses, and accepted where it says Python cannot express the family.
#[test]
#[ignore = "needs pydantic and the kubernetes client: scripts/clients-e2e.sh runs it in its virtualenv"]
fn python_agrees_with_validate() {
    let cases: Vec<Value> = rows()
        .iter()
        .flat_map(|row| {
            let refuses = matches!(row.python, Python::Refuses);
            let inside = row.inside.iter().map(move |v| json!({"field": row.field, "value": v, "expect": "keep"}));
            let outside = row.outside.iter().map(
                move |v| json!({"field": row.field, "value": v, "expect": if refuses { "refuse" } else { "accept" }}),
            );
            inside.chain(outside).collect::<Vec<_>>()
        })
        .collect();
    let script = r#"
import json, sys
sys.path.insert(0, sys.argv[1])
import pydantic
from kubegen_api._runtime import wire
from kubegen_api.zoo_v1 import AccordSpec
def norm(v):
    """A JSON value as the API server compares it: 1.0 is 1, and True is not 1."""
    if isinstance(v, bool):
        return ("bool", v)
    if isinstance(v, float) and v.is_integer():
        return int(v)
    if isinstance(v, list):
        return [norm(x) for x in v]
    if isinstance(v, dict):
        return {k: norm(x) for k, x in v.items()}
    return v
failures = []
for case in json.load(sys.stdin):
    field, value, expect = case["field"], case["value"], case["expect"]
    try:
        model = AccordSpec.model_validate({field: value})
    except pydantic.ValidationError as e:
        if expect != "refuse":
            failures.append(f"{field}: refuses {json.dumps(value)}: {e.errors()[0]['msg']}")
        continue
    if expect == "refuse":
        failures.append(f"{field}: accepts {json.dumps(value)}")
    elif expect == "keep":
        back = wire(model).get(field)
        if norm(back) != norm(value):
            failures.append(f"{field}: {json.dumps(value)} comes back as {json.dumps(back)}")
print(json.dumps(failures))
"#;
    let python = std::env::var("KUBEGEN_PYTHON").unwrap_or_else(|_| "python3".into());
    let mut child = std::process::Command::new(&python)
        .arg("-c")
        .arg(script)
        .arg(root().join("tests/golden/clients/python"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{python}: {e}"));
    use std::io::Write;
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(serde_json::to_string(&cases).expect("json").as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("python");
    assert!(out.status.success(), "{python} failed");
    let failures: Vec<String> = serde_json::from_slice(&out.stdout).expect("the script's JSON");
    println!("{} values checked under {python}", cases.len());
    assert!(failures.is_empty(), "Python disagrees with Validate:\n{}", failures.join("\n"));
}

/// Every value inside, typed as `AccordSpec`: a TypeScript module written into the
/// zoo's generated package (`KUBEGEN_TS_SRC`), which scripts/clients-e2e.sh then
/// compiles with `tsc --strict` — a client type that refused a value the server accepts
/// fails that build.
#[test]
#[ignore = "writes into the generated TypeScript package: scripts/clients-e2e.sh runs it before tsc"]
fn typescript_takes_every_value_inside() {
    let dir = PathBuf::from(std::env::var("KUBEGEN_TS_SRC").expect("KUBEGEN_TS_SRC names the package's src/"));
    let mut values = Vec::new();
    for row in rows() {
        for value in &row.inside {
            values.push(format!("  // {}\n  {},", row.family, json!({ row.field: value })));
        }
    }
    let module = format!(
        "// Written by tests/tests/agreement.rs: every value the API server accepts, typed.\nimport type {{ AccordSpec }} from \"./zoo.kubegen.dev/v1/index.js\";\n\nexport const inside: AccordSpec[] = [\n{}\n];\n",
        values.join("\n")
    );
    std::fs::write(dir.join("agreement.ts"), module).expect("agreement.ts");
}

/// The API server's verdict on the same values, on a real server (kubegen::testenv):
/// each value inside is accepted and kept as sent, each value outside refused — so the
/// matrix above stands on the server's word, not on `Validate`'s alone.
#[tokio::test]
#[ignore = "needs etcd and kube-apiserver in $KUBEBUILDER_ASSETS; run by scripts/e2e.sh"]
async fn the_server_agrees() {
    use kube::api::{Api, ApiResource, DynamicObject, PostParams};
    let env = kubegen::testenv::TestEnv::start().await.expect("the test environment starts");
    env.install_crds(vec![Accord::crd()]).await.expect("the CRD is installed");
    let api: Api<DynamicObject> = Api::namespaced_with(env.client(), "default", &ApiResource::erase::<Accord>(&()));
    let dry_run = PostParams { dry_run: true, ..PostParams::default() };
    let mut failures = Vec::new();
    let mut checked = 0;
    for row in rows() {
        for (value, inside) in row.inside.iter().map(|v| (v, true)).chain(row.outside.iter().map(|v| (v, false))) {
            checked += 1;
            let object: DynamicObject = serde_json::from_value(object(row.field, value)).expect("an object");
            match api.create(&dry_run, &object).await {
                Ok(kept) if inside => {
                    let back = &kept.data["spec"][row.field];
                    if back != value && !(back.is_number() && back.as_f64() == value.as_f64()) {
                        failures.push(format!("{}: the server keeps {value} as {back}", row.field));
                    }
                }
                Ok(_) => {
                    failures.push(format!("{}: the server accepts {value}, which the row says is outside", row.field))
                }
                Err(e) if inside => failures.push(format!("{}: the server refuses {value}: {e}", row.field)),
                Err(_) => {}
            }
        }
    }
    println!("{checked} values checked against the API server");
    assert!(failures.is_empty(), "the server disagrees with the matrix:\n{}", failures.join("\n"));
}

/// Every value inside, through the generated Go type and back: a Go test written into
/// the zoo's generated Go package (`KUBEGEN_GO_PKG`, its api/v1 directory), which
/// scripts/oracle.sh runs with `go test`. Each value must unmarshal (the Go type takes
/// what the server takes) and come back equal: a Quantity too (`10` stays a number), as
/// the package's own `Quantity` writes back what it read.
#[test]
#[ignore = "writes into the generated Go package: scripts/oracle.sh runs it before go test"]
fn go_round_trips_every_value_inside() {
    let dir = PathBuf::from(std::env::var("KUBEGEN_GO_PKG").expect("KUBEGEN_GO_PKG names the package's directory"));
    let go_string = |v: &Value| serde_json::to_string(&v.to_string()).expect("json");
    let mut cases = Vec::new();
    for row in rows() {
        for value in &row.inside {
            cases.push(format!("\t\t{{{}, {}}},", serde_json::to_string(row.field).expect("json"), go_string(value)));
        }
    }
    let test = format!(
        r#"// Written by tests/tests/agreement.rs: every value the API server accepts, through
// the Go types and back.
package v1

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestAgreement(t *testing.T) {{
	cases := []struct {{
		field, value string
	}}{{
{}
	}}
	for _, c := range cases {{
		in := []byte(`{{"` + c.field + `":` + c.value + `}}`)
		var spec AccordSpec
		if err := json.Unmarshal(in, &spec); err != nil {{
			t.Errorf("%s: the Go type refuses %s: %v", c.field, c.value, err)
			continue
		}}
		out, err := json.Marshal(spec)
		if err != nil {{
			t.Errorf("%s: %v", c.field, err)
			continue
		}}
		var before, after map[string]interface{{}}
		_ = json.Unmarshal(in, &before)
		_ = json.Unmarshal(out, &after)
		if !reflect.DeepEqual(before[c.field], after[c.field]) {{
			t.Errorf("%s: %s comes back as %s", c.field, c.value, out)
		}}
	}}
}}
"#,
        cases.join("\n")
    );
    std::fs::write(dir.join("agreement_test.go"), test).expect("agreement_test.go");
}
