//! A Python package over the official `kubernetes` client: pydantic v2 models (wire
//! names as aliases, the schema's bounds as field constraints, defaults as in the
//! schema) and a client class per kind with client-go's verbs in snake_case.

use std::collections::{BTreeMap, BTreeSet};

use askama::Template;
use serde_json::Value;

use kubegen_core::kind::Style;
use kubegen_core::schema::node::Node;

use super::shape::{Bounds, Shape, WireForm, is, shape};
use super::{KindModel, ModelError, Package, number, render, upper_first};

#[derive(Template)]
#[template(path = "clients/python/pyproject.toml", escape = "none")]
struct PyProject<'a> {
    header: &'a str,
    name: &'a str,
    version: &'a str,
    package: &'a str,
}

#[derive(Template)]
#[template(path = "clients/python/gitignore", escape = "none")]
struct GitIgnore;

#[derive(Template)]
#[template(path = "clients/python/runtime.py", escape = "none")]
struct Runtime<'a> {
    header: &'a str,
    /// Kubernetes' Quantity notation, a Python string literal.
    quantity_pattern: String,
}

#[derive(Template)]
#[template(path = "clients/python/init.py", escape = "none")]
struct Init<'a> {
    header: &'a str,
    name: &'a str,
}

#[derive(Template)]
#[template(path = "clients/python/gv_init.py", escape = "none")]
struct GvInit<'a> {
    header: &'a str,
    group: &'a str,
    version: &'a str,
    clients: Vec<String>,
    models: Vec<String>,
    all: Vec<String>,
}

#[derive(Template)]
#[template(path = "clients/python/models.py", escape = "none")]
struct Models<'a> {
    header: &'a str,
    group: &'a str,
    version: &'a str,
    classes: Vec<Class>,
    aliases: Vec<String>,
}

struct Class {
    name: String,
    doc: String,
    fields: Vec<PyField>,
    /// The schema keeps unknown fields (`x-kubernetes-preserve-unknown-fields`): so does
    /// the model (`extra="allow"`), or a read-modify-write would drop them.
    extra: bool,
}

struct PyField {
    decl: String,
    doc: String,
}

#[derive(Template)]
#[template(path = "clients/python/client.py", escape = "none")]
struct Clients<'a> {
    header: &'a str,
    group: &'a str,
    version: &'a str,
    kinds: Vec<String>,
    clients: Vec<ClientView>,
}

struct ClientView {
    kind: String,
    group: String,
    version: String,
    plural: String,
    scope_word: &'static str,
    ns_param: &'static str,
    ns_arg: &'static str,
    status: bool,
    scale: bool,
}

fn py_header(header: &str) -> String {
    let mut out = String::new();
    for line in header.lines() {
        if line == "---" {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// The Python package over the kubernetes client, with pydantic models.
pub struct Python;

impl super::Language for Python {
    fn files(&self, packages: &[Package], o: &super::Options) -> Result<Vec<(String, String)>, ModelError> {
        let package =
            o.settings.python_package.clone().unwrap_or_else(|| format!("{}_api", o.project.replace('-', "_")));
        files(packages, &package, &o.version, o.header)
    }
}

/// Every file of the package, paths relative to its root.
pub fn files(
    packages: &[Package],
    name: &str,
    version: &str,
    header: &str,
) -> Result<Vec<(String, String)>, ModelError> {
    let header = py_header(header);
    let package = name.replace('-', "_");
    let mut files = vec![
        (
            "pyproject.toml".to_string(),
            render(&PyProject { header: &header, name, version, package: &package }, "pyproject.toml")?,
        ),
        (format!("{package}/__init__.py"), render(&Init { header: &header, name }, "__init__.py")?),
        (
            format!("{package}/_runtime.py"),
            render(
                &Runtime { header: &header, quantity_pattern: py_string(kubegen::schema::QUANTITY_PATTERN) },
                "_runtime.py",
            )?,
        ),
        (format!("{package}/py.typed"), String::new()),
        (".gitignore".to_string(), render(&GitIgnore, ".gitignore")?),
    ];
    for pkg in packages {
        let module = format!("{}_{}", snake(&pkg.short), pkg.version);
        let (classes, aliases) = models(pkg)?;
        let kinds: Vec<String> = pkg.kinds.iter().map(|k| k.kind.clone()).collect();
        let clients: Vec<String> = kinds.iter().map(|k| format!("{k}Client")).collect();
        let mut model_names: Vec<String> = classes.iter().map(|c| c.name.clone()).collect();
        model_names.extend(aliases.iter().filter_map(|a| a.split(" = ").next().map(String::from)));
        model_names.sort();
        let mut all = clients.clone();
        all.extend(model_names.iter().cloned());
        all.sort();
        files.push((
            format!("{package}/{module}/__init__.py"),
            render(
                &GvInit {
                    header: &header,
                    group: &pkg.group,
                    version: &pkg.version,
                    clients: clients.clone(),
                    models: model_names,
                    all,
                },
                "__init__.py",
            )?,
        ));
        files.push((
            format!("{package}/{module}/models.py"),
            render(
                &Models { header: &header, group: &pkg.group, version: &pkg.version, classes, aliases },
                "models.py",
            )?,
        ));
        let views = pkg.kinds.iter().map(|k| client_view(pkg, k)).collect();
        files.push((
            format!("{package}/{module}/client.py"),
            render(
                &Clients { header: &header, group: &pkg.group, version: &pkg.version, kinds, clients: views },
                "client.py",
            )?,
        ));
    }
    Ok(files)
}

fn client_view(pkg: &Package, k: &KindModel) -> ClientView {
    ClientView {
        kind: k.kind.clone(),
        group: pkg.group.clone(),
        version: pkg.version.clone(),
        plural: k.plural.clone(),
        scope_word: if k.namespaced { "namespaced" } else { "cluster-scoped" },
        ns_param: if k.namespaced { "namespace: str, " } else { "" },
        ns_arg: if k.namespaced { "namespace" } else { "None" },
        status: k.status_subresource,
        scale: k.scale_subresource,
    }
}

/// `deploymentName` → `deployment_name`, `hostIP` → `host_ip`, `habitat-name` → `habitat_name`.
fn snake(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() {
            let prev_lower = i > 0 && (chars[i - 1].is_ascii_lowercase() || chars[i - 1].is_ascii_digit());
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
            let prev_upper = i > 0 && chars[i - 1].is_ascii_uppercase();
            if !out.is_empty() && !out.ends_with('_') && (prev_lower || (prev_upper && next_lower)) {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

/// A Python attribute name for a wire name: snake_case, away from keywords and from
/// pydantic's own attributes.
fn attribute(name: &str) -> String {
    let s = snake(name);
    const RESERVED: &[&str] = &[
        "False",
        "None",
        "True",
        "and",
        "as",
        "assert",
        "async",
        "await",
        "break",
        "class",
        "continue",
        "def",
        "del",
        "elif",
        "else",
        "except",
        "finally",
        "for",
        "from",
        "global",
        "if",
        "import",
        "in",
        "is",
        "lambda",
        "nonlocal",
        "not",
        "or",
        "pass",
        "raise",
        "return",
        "try",
        "while",
        "with",
        "yield",
        "json",
        "dict",
        "copy",
        "schema",
        "fields",
        "construct",
        "validate",
        "model_config",
        "model_fields",
        "type",
    ];
    if RESERVED.contains(&s.as_str()) || s.starts_with("model_") { format!("{s}_") } else { s }
}

fn literal(v: &Value) -> String {
    match v {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => serde_json::to_string(s).unwrap_or_default(),
        Value::Array(items) => format!("[{}]", items.iter().map(literal).collect::<Vec<_>>().join(", ")),
        Value::Object(map) => format!(
            "{{{}}}",
            map.iter()
                .map(|(k, v)| format!("{}: {}", serde_json::to_string(k).unwrap_or_default(), literal(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The value is, or holds, a JSON object.
fn holds_object(value: &Value) -> bool {
    match value {
        Value::Object(_) => true,
        Value::Array(items) => items.iter().any(holds_object),
        _ => false,
    }
}

fn py_string(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_default()
}

/// `_also(...)` checks for the bounds a node holds in `allOf` beside its own (a second
/// pattern or multiple).
fn all_of(bounds: &Bounds) -> Vec<String> {
    bounds
        .all_of
        .iter()
        .map(constraints)
        .filter(|c| !c.is_empty())
        .map(|c| format!("_pd.AfterValidator(_also({}))", c.join(", ")))
        .collect()
}

/// An int-or-string: a strict int (in its bounds: `_Int32` for Kubernetes' IntOrString,
/// `int32`), or a strict string with the node's string constraints (its pattern, lengths)
/// — pydantic cannot put them on the union.
fn int_or_string(node: &Node, int32: bool) -> String {
    let bounds = Bounds::all(node);
    let int = if int32 || bounds.is_int32() {
        "_Int32".to_string()
    } else {
        let limits = Bounds { minimum: bounds.minimum.clone(), maximum: bounds.maximum.clone(), ..Bounds::default() };
        match constraints(&limits) {
            c if c.is_empty() => "_pd.StrictInt".to_string(),
            c => format!("_t.Annotated[_pd.StrictInt, _pd.Field({})]", c.join(", ")),
        }
    };
    let mut string = vec!["strict=True".to_string()];
    for (arg, v) in [("min_length", &bounds.min_length), ("max_length", &bounds.max_length)] {
        if let Some(v) = v {
            string.push(format!("{arg}={}", number(v)));
        }
    }
    if let Some(p) = bounds.pattern {
        string.push(format!("pattern={}", py_string(p)));
    }
    if string.len() == 1 {
        return format!("{int} | _pd.StrictStr");
    }
    format!("{int} | _t.Annotated[str, _pd.StringConstraints({})]", string.join(", "))
}

/// The pydantic constraints of a node's own bounds, as `Field(...)` arguments.
fn constraints(bounds: &Bounds) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(min) = &bounds.minimum {
        out.push(format!("{}={}", if min.exclusive { "gt" } else { "ge" }, number(&min.value)));
    }
    if let Some(max) = &bounds.maximum {
        out.push(format!("{}={}", if max.exclusive { "lt" } else { "le" }, number(&max.value)));
    }
    if let Some(v) = &bounds.multiple_of {
        out.push(format!("multiple_of={}", number(v)));
    }
    // One pair of arguments for the lengths of strings, lists and maps alike.
    for (key, v) in bounds.counts() {
        if let Some(v) = v {
            out.push(format!("{}={}", if key.starts_with("min") { "min_length" } else { "max_length" }, number(v)));
        }
    }
    if let Some(p) = bounds.pattern {
        out.push(format!("pattern={}", py_string(p)));
    }
    out
}

struct Writer<'a> {
    pkg: &'a Package,
    classes: Vec<Class>,
    emitted: BTreeSet<String>,
    /// The Kubernetes types the package declares: definition name → class name.
    generated: BTreeMap<String, String>,
}

impl Writer<'_> {
    /// The Python type of a node, its constraints included (`Annotated[...]`).
    fn py_type(&mut self, node: &Node, owner: &str, field: &str) -> String {
        let shape = shape(node);
        let base = match shape {
            Shape::Named(name) => name.to_string(),
            Shape::Kubernetes { wire: Some(WireForm::Quantity), .. } => "_Quantity".into(),
            // Its string constraints apply to the string branch alone.
            // Kubernetes' IntOrString holds an int32 (its schema's bounds), an inline one
            // what its node bounds.
            Shape::Kubernetes { wire: Some(WireForm::IntOrString), .. } => return int_or_string(node, true),
            Shape::IntOrString => return int_or_string(node, false),
            Shape::Kubernetes { wire: Some(WireForm::Time), .. } => "_DateTime".into(),
            Shape::Kubernetes { wire: Some(WireForm::Raw), .. } => "dict[str, _t.Any]".into(),
            // The package's own class where it declares the type (`models`), else the
            // kubernetes client's.
            Shape::Kubernetes { name, wire: None } => match self.generated.get(name) {
                Some(local) => local.clone(),
                None => format!("_k8s.{}", super::kubernetes_name(name)),
            },
            Shape::String { values: Some(values), .. }
            | Shape::Integer { values: Some(values), .. }
            | Shape::Number { values: Some(values) } => {
                format!("_t.Literal[{}]", values.iter().map(literal).collect::<Vec<_>>().join(", "))
            }
            Shape::String { format: Some("date-time"), .. } => "_DateTime".into(),
            // Strict scalars: pydantic's lax mode would turn `"5"` into 5 or `1` into
            // True, sending what the API server refuses for the value written.
            Shape::String { .. } => "_pd.StrictStr".into(),
            // Python's int holds any integer; `_Int32` the format's range (the CRD's bounds).
            Shape::Integer { format: Some("int32"), .. } => "_Int32".into(),
            Shape::Integer { .. } => "_pd.StrictInt".into(),
            Shape::Number { .. } => "_pd.StrictFloat".into(),
            Shape::Boolean => "_pd.StrictBool".into(),
            Shape::List(items) => format!("list[{}]", self.py_type(items, owner, &format!("{field}Item"))),
            Shape::Struct => {
                let name =
                    format!("{owner}{}", upper_first(&snake(field).split('_').map(upper_first).collect::<String>()));
                self.class(&name, node, is(node.preserve_unknown_fields));
                name
            }
            Shape::Map(values) => format!("dict[str, {}]", self.py_type(values, owner, &format!("{field}Value"))),
            Shape::Open | Shape::Empty => "dict[str, _t.Any]".into(),
            Shape::Any => "_t.Any".into(),
        };
        let bounds = Bounds::of(node);
        let c = constraints(&bounds);
        let mut annotations = Vec::new();
        match shape {
            // A model class or a Kubernetes type: pydantic bounds neither.
            Shape::Kubernetes { .. } => {}
            Shape::Named(name) if self.is_class(name) => {}
            // A field's own bounds on a named type hold beside the type's own (a
            // `Field(...)` here would replace them).
            Shape::Named(_) if !c.is_empty() => {
                annotations.push(format!("_pd.AfterValidator(_also({}))", c.join(", ")))
            }
            _ if !c.is_empty() => annotations.push(format!("_pd.Field({})", c.join(", "))),
            _ => {}
        }
        annotations.extend(all_of(&bounds));
        if annotations.is_empty() { base } else { format!("_t.Annotated[{base}, {}]", annotations.join(", ")) }
    }

    /// The named type becomes a pydantic class (an object with properties).
    fn is_class(&self, name: &str) -> bool {
        self.pkg.types.get(name).is_some_and(|def| matches!(shape(def), Shape::Struct))
    }

    /// A model class; `extra` when the server keeps keys its schema does not name.
    fn class(&mut self, name: &str, node: &Node, extra: bool) {
        if !self.emitted.insert(name.to_string()) {
            return;
        }
        let fields = self.fields(name, node, &[]);
        self.classes.push(Class { name: name.to_string(), doc: docstring(node, "    "), fields, extra });
    }

    fn fields(&mut self, owner: &str, node: &Node, skip: &[&str]) -> Vec<PyField> {
        let required: BTreeSet<&str> = node.required.iter().flatten().map(String::as_str).collect();
        let mut out = Vec::new();
        let mut names = BTreeSet::new();
        for (wire, prop) in node.properties.iter().flatten() {
            if skip.contains(&wire.as_str()) {
                continue;
            }
            let mut name = attribute(wire);
            while !names.insert(name.clone()) {
                name.push('_');
            }
            let ty = self.py_type(prop, owner, wire);
            let alias = serde_json::to_string(wire).unwrap_or_default();
            let nullable = is(prop.nullable);
            let decl = if required.contains(wire.as_str()) {
                let ty = if nullable { format!("_t.Optional[{ty}]") } else { ty };
                format!("{name}: {ty} = _pd.Field(alias={alias})")
            } else {
                let default = match &prop.default {
                    // The wire form of a model (or a list or map of them), which pydantic
                    // validates into one (validate_default); typed Any, as mypy cannot
                    // see a dict literal as the model it becomes.
                    Some(d) if holds_object(d) => format!("_t.cast(_t.Any, {})", literal(d)),
                    Some(d) => literal(d),
                    None => "None".into(),
                };
                format!("{name}: _t.Optional[{ty}] = _pd.Field(default={default}, alias={alias})")
            };
            out.push(PyField { decl, doc: docstring(prop, "    ") });
        }
        out
    }
}

/// A docstring for a node's description (empty when it has none).
fn docstring(node: &Node, indent: &str) -> String {
    let Some(text) = node.description.as_deref().filter(|d| !d.trim().is_empty()) else {
        return String::new();
    };
    let text = text.replace('\\', "\\\\").replace("\"\"\"", "\\\"\\\"\\\"");
    let lines: Vec<&str> = text.lines().collect();
    let body = lines.join(&format!("\n{indent}"));
    let body = body.trim_end();
    if body.ends_with('"') { format!("\"\"\"{body} \"\"\"") } else { format!("\"\"\"{body}\"\"\"") }
}

/// The classes and aliases of one group/version: each kind's root, then every named type,
/// then the Kubernetes types the package declares.
fn models(pkg: &Package) -> Result<(Vec<Class>, Vec<String>), ModelError> {
    let declared = pkg.generated_kubernetes()?;
    let generated = declared.iter().map(|(d, (n, _))| (d.to_string(), n.clone())).collect();
    let mut w = Writer { pkg, classes: Vec::new(), emitted: BTreeSet::new(), generated };
    let mut aliases = Vec::new();
    let mut flat_roots = BTreeSet::new();
    for kind in &pkg.kinds {
        let api_version = serde_json::to_string(&format!("{}/{}", pkg.group, pkg.version)).unwrap_or_default();
        let kind_name = serde_json::to_string(&kind.kind).unwrap_or_default();
        let mut fields = vec![
            PyField {
                decl: format!(
                    "api_version: _t.Literal[{api_version}] = _pd.Field(default={api_version}, alias=\"apiVersion\")"
                ),
                doc: String::new(),
            },
            PyField { decl: format!("kind: _t.Literal[{kind_name}] = {kind_name}"), doc: String::new() },
            PyField {
                decl: "metadata: _k8s.V1ObjectMeta = _pd.Field(default_factory=_k8s.V1ObjectMeta)".into(),
                doc: String::new(),
            },
        ];
        let data = kind.data.root.reference.clone().unwrap_or_default();
        // A flat root keeps unknown fields where its type does (the CRD's root says so).
        let mut extra = false;
        match kind.style {
            Style::Spec => fields.push(PyField { decl: format!("spec: {data}"), doc: String::new() }),
            _ => {
                flat_roots.insert(data.clone());
                let root = w.pkg.types.get(&data).cloned().unwrap_or_default();
                extra = w.pkg.keeps_unknown(&data);
                let own = w.fields(&kind.kind, &root, &["metadata", "apiVersion", "kind"]);
                fields.extend(own);
            }
        }
        if let Some(status) = kind.status.as_ref().and_then(|s| s.root.reference.as_deref()) {
            fields.push(PyField { decl: format!("status: _t.Optional[{status}] = None"), doc: String::new() });
        }
        let doc = Node { description: Some(kind.root_description.clone()), ..Node::default() };
        w.emitted.insert(kind.kind.clone());
        let mut doc = docstring(&doc, "    ");
        if doc.is_empty() {
            doc = format!("\"\"\"The {} kind ({}/{}).\"\"\"", kind.kind, pkg.group, pkg.version);
        }
        w.classes.push(Class { name: kind.kind.clone(), doc, fields, extra });
    }
    for (name, def) in &pkg.types {
        if flat_roots.contains(name) {
            continue;
        }
        // One class serves every use: it keeps unknown keys where any use does (a field's
        // preserve_unknown_fields over the type).
        if matches!(shape(def), Shape::Struct) {
            w.class(name, def, pkg.keeps_unknown(name));
        } else {
            let ty = w.py_type(def, name, "");
            aliases.push(format!("{name} = {ty}"));
        }
    }
    // Kubernetes' types as the server of this release takes them (a Quantity an integer or
    // a string, every field of the release), not the kubernetes client's: classes here,
    // under its names.
    for (name, def) in declared.values() {
        if matches!(shape(def), Shape::Struct) {
            w.class(name, def, is(def.preserve_unknown_fields));
        } else {
            let ty = w.py_type(def, name, "");
            aliases.push(format!("{name} = {ty}"));
        }
    }
    for class in &mut w.classes {
        if class.doc.is_empty() {
            class.doc = format!("\"\"\"{}.\"\"\"", class.name);
        }
    }
    Ok((w.classes, aliases))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_names_become_python_attributes() {
        assert_eq!(attribute("deploymentName"), "deployment_name");
        assert_eq!(attribute("hostIP"), "host_ip");
        assert_eq!(attribute("habitat-name"), "habitat_name");
        assert_eq!(attribute("area_m2"), "area_m2");
        assert_eq!(attribute("from"), "from_");
        assert_eq!(attribute("schema"), "schema_");
        assert_eq!(attribute("APIVersion"), "api_version");
    }

    #[test]
    fn types_named_like_our_imports_and_keyword_fields_still_generate() {
        use std::collections::BTreeMap;
        let types: BTreeMap<String, Value> = [
            (
                "Field".to_string(),
                serde_json::json!({"type": "object", "properties": {
                    "class": {"type": "string"}, "from": {"type": "string"}, "any": {"x-kubegen-ref": "Any"},
                    "open": {"x-kubegen-ref": "Open"}
                }, "required": ["class"]}),
            ),
            (
                "Open".to_string(),
                serde_json::json!({"type": "object", "properties": {"a": {"type": "string"}},
                    "x-kubernetes-preserve-unknown-fields": true}),
            ),
            ("Any".to_string(), serde_json::json!({"type": "string", "enum": ["a", "b"]})),
        ]
        .into();
        let pkg = Package {
            group: "a.example.com".into(),
            short: "a".into(),
            version: "v1".into(),
            dir: String::new(),
            kinds: vec![KindModel {
                kind: "Widget".into(),
                type_path: "zoo::Widget".into(),
                style: Style::Spec,
                data: kubegen_core::kind::Model { root: Node::named("Field"), ..Default::default() },
                status: None,
                root_description: String::new(),
                plural: "widgets".into(),
                namespaced: true,
                status_subresource: false,
                scale_subresource: false,
                resource_markers: Vec::new(),
            }],
            types: types.iter().map(|(k, v)| (k.clone(), Node::from_value(v).expect("a schema"))).collect(),
            external: BTreeMap::new(),
            kubernetes: BTreeMap::new(),
            open: Default::default(),
        };
        let files: BTreeMap<String, String> = files(&[pkg], "api", "0.1.0", "").unwrap().into_iter().collect();
        let models = &files["api/a_v1/models.py"];
        assert!(models.contains("class Field(_pd.BaseModel):"), "{models}");
        assert!(models.contains("class_: _pd.StrictStr = _pd.Field(alias=\"class\")"), "{models}");
        assert!(
            models.contains("from_: _t.Optional[_pd.StrictStr] = _pd.Field(default=None, alias=\"from\")"),
            "{models}"
        );
        assert!(models.contains("any: _t.Optional[Any] = _pd.Field(default=None, alias=\"any\")"), "{models}");
        assert!(models.contains("Any = _t.Literal[\"a\", \"b\"]"), "{models}");
        // The server keeps Open's unknown fields; the model keeps them too.
        let open = &models[models.find("class Open(").expect("Open")..];
        assert!(
            open.contains(
                "model_config = _pd.ConfigDict(populate_by_name=True, validate_default=True, extra=\"allow\")"
            ),
            "{open}"
        );
        let field =
            &models[models.find("class Field(").expect("Field")..models.find("class Open(").unwrap_or(models.len())];
        assert!(!field.contains("extra="), "{field}");
    }

    /// Issue 28: found by a new user's trial, preserve_unknown_fields on a named-struct
    /// field: the model for the named type ignored the keys the server keeps there, and a
    /// read-modify-write dropped them.
    #[test]
    fn a_named_type_under_a_field_s_preserve_unknown_fields_allows_extra_keys() {
        let pkg = [crate::clients::tests::issue28_package()];
        let files: std::collections::BTreeMap<String, String> =
            files(&pkg, "api", "0.1.0", "").unwrap().into_iter().collect();
        let models = &files["api/issue28_v1/models.py"];
        let config = |name: &str| {
            let start =
                models.find(&format!("class {name}(_pd.BaseModel):")).unwrap_or_else(|| panic!("{name}: {models}"));
            let line = start + models[start..].find("model_config = ").expect("model_config");
            &models[line..line + models[line..].find('\n').expect("a line")]
        };
        for open in ["Part", "Shared", "Target"] {
            assert!(config(open).ends_with(", extra=\"allow\")"), "{open}: {}", config(open));
        }
        for closed in ["Closed", "GadgetSpec", "Gadget"] {
            assert!(!config(closed).contains("extra="), "{closed}: {}", config(closed));
        }
    }

    #[test]
    fn constraints_are_pydantic_field_arguments() {
        let node = serde_json::json!({"type": "integer", "minimum": 0, "exclusiveMinimum": true, "maximum": 10, "multipleOf": 5});
        assert_eq!(constraints(&Bounds::of(&Node::from_value(&node).unwrap())), ["gt=0", "le=10", "multiple_of=5"]);
        let node = serde_json::json!({"type": "string", "minLength": 3, "pattern": "^[a-z]$"});
        assert_eq!(
            constraints(&Bounds::of(&Node::from_value(&node).unwrap())),
            ["min_length=3", "pattern=\"^[a-z]$\""]
        );
    }
}
