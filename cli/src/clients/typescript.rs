//! A TypeScript npm package over @kubernetes/client-node: an interface per type (JSDoc
//! from the Rust docs, with the schema's constraints and defaults), and a client class
//! per kind with client-go's verbs.

use std::collections::BTreeSet;

use askama::Template;
use serde_json::Value;

use kubegen_core::kind::Style;
use kubegen_core::schema::node::Node;

use super::shape::{Bounds, Shape, is, shape};
use super::{KindModel, ModelError, Package, number, render, upper_first};

#[derive(Template)]
#[template(path = "clients/typescript/package.json", escape = "none")]
struct PackageJson<'a> {
    name: &'a str,
    version: &'a str,
    description: &'a str,
}

#[derive(Template)]
#[template(path = "clients/typescript/tsconfig.json", escape = "none")]
struct TsConfig;

#[derive(Template)]
#[template(path = "clients/typescript/gitignore", escape = "none")]
struct GitIgnore;

#[derive(Template)]
#[template(path = "clients/typescript/runtime.ts", escape = "none")]
struct Runtime<'a> {
    header: &'a str,
}

#[derive(Template)]
#[template(path = "clients/typescript/index.ts", escape = "none")]
struct Index<'a> {
    header: &'a str,
    modules: Vec<Module>,
}

struct Module {
    alias: String,
    path: String,
}

#[derive(Template)]
#[template(path = "clients/typescript/gv_index.ts", escape = "none")]
struct GvIndex<'a> {
    header: &'a str,
}

#[derive(Template)]
#[template(path = "clients/typescript/models.ts", escape = "none")]
struct Models<'a> {
    header: &'a str,
    imports: Vec<String>,
    types: Vec<Decl>,
}

struct Decl {
    doc: String,
    /// `interface X { ... }` or `type X = ...;`
    decl: String,
}

#[derive(Template)]
#[template(path = "clients/typescript/client.ts", escape = "none")]
struct Clients<'a> {
    header: &'a str,
    runtime: &'a str,
    kinds: Vec<String>,
    clients: Vec<ClientView>,
}

struct ClientView {
    kind: String,
    group: String,
    version: String,
    plural: String,
    namespaced: bool,
    scope: &'static str,
    scope_word: &'static str,
    ns_param: &'static str,
    ns_arg: &'static str,
    ns_watch: &'static str,
    status: bool,
    scale: bool,
}

/// The TypeScript package over @kubernetes/client-node.
pub struct TypeScript;

impl super::Language for TypeScript {
    fn files(&self, packages: &[Package], o: &super::Options) -> Result<Vec<(String, String)>, ModelError> {
        let package = o.settings.typescript_package.clone().unwrap_or_else(|| format!("{}-api", o.project));
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
    let header = super::slash_comment_header(header);
    let mut files = vec![
        ("package.json".to_string(), render(&PackageJson { name, version, description: name }, "package.json")?),
        ("tsconfig.json".to_string(), render(&TsConfig, "tsconfig.json")?),
        (".gitignore".to_string(), render(&GitIgnore, ".gitignore")?),
        ("src/runtime.ts".to_string(), render(&Runtime { header: &header }, "runtime.ts")?),
    ];
    let mut modules = Vec::new();
    for pkg in packages {
        let path = format!("{}/{}", pkg.group, pkg.version);
        let alias = format!("{}{}", camel(&pkg.short), upper_first(&pkg.version));
        let mut alias = lower_first(&alias);
        while modules.iter().any(|m: &Module| m.alias == alias) {
            alias.push('_');
        }
        modules.push(Module { alias, path: path.clone() });
        let (imports, types) = models(pkg)?;
        files
            .push((format!("src/{path}/models.ts"), render(&Models { header: &header, imports, types }, "models.ts")?));
        let clients: Vec<ClientView> = pkg.kinds.iter().map(|k| client_view(pkg, k)).collect();
        files.push((
            format!("src/{path}/client.ts"),
            render(
                &Clients {
                    header: &header,
                    runtime: "../../runtime.js",
                    kinds: pkg.kinds.iter().map(|k| k.kind.clone()).collect(),
                    clients,
                },
                "client.ts",
            )?,
        ));
        files.push((format!("src/{path}/index.ts"), render(&GvIndex { header: &header }, "index.ts")?));
    }
    files.push(("src/index.ts".to_string(), render(&Index { header: &header, modules }, "index.ts")?));
    Ok(files)
}

fn client_view(pkg: &Package, k: &KindModel) -> ClientView {
    let namespaced = k.namespaced;
    ClientView {
        kind: k.kind.clone(),
        group: pkg.group.clone(),
        version: pkg.version.clone(),
        plural: k.plural.clone(),
        namespaced,
        scope: if namespaced { "Namespaced" } else { "Cluster" },
        scope_word: if namespaced { "namespaced" } else { "cluster-scoped" },
        ns_param: if namespaced { "namespace: string, " } else { "" },
        ns_arg: if namespaced { "namespace, " } else { "" },
        ns_watch: if namespaced { "namespace" } else { "undefined" },
        status: k.status_subresource,
        scale: k.scale_subresource,
    }
}

fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_lowercase().chain(c).collect()).unwrap_or_default()
}

fn camel(s: &str) -> String {
    s.split(|c: char| !c.is_ascii_alphanumeric()).map(upper_first).collect()
}

/// The type of a Kubernetes definition by client-node's name (`V1PodTemplateSpec`), or the
/// TypeScript type it is written as.
fn k8s_type(definition: &str, imports: &mut BTreeSet<String>) -> String {
    match definition {
        // An integer or a string in Quantity's notation, as the API server takes it.
        "io.k8s.apimachinery.pkg.api.resource.Quantity" => return "number | string".into(),
        "io.k8s.apimachinery.pkg.util.intstr.IntOrString" => return "number | string".into(),
        // RFC 3339, as the server sends it and as a read gives it back (the client parses
        // no dates): `new Date().toISOString()` writes one.
        "io.k8s.apimachinery.pkg.apis.meta.v1.Time" | "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime" => {
            return "string".into();
        }
        "io.k8s.apimachinery.pkg.runtime.RawExtension" => return "Record<string, unknown>".into(),
        _ => {}
    }
    // Imported from client-node, unless the package declares it (`models` drops the
    // import then).
    let ty = super::kubernetes_name(definition);
    imports.insert(ty.clone());
    ty
}

fn is_identifier(name: &str) -> bool {
    name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

fn property_name(name: &str) -> String {
    if is_identifier(name) { name.to_string() } else { serde_json::to_string(name).unwrap_or_default() }
}

/// The TypeScript type of a schema node.
fn ts_type(node: &Node, imports: &mut BTreeSet<String>, indent: &str) -> String {
    let literals = |values: &[Value]| values.iter().map(Value::to_string).collect::<Vec<_>>().join(" | ");
    let base = match shape(node) {
        Shape::Named(name) => name.to_string(),
        Shape::Kubernetes { name, .. } => k8s_type(name, imports),
        Shape::IntOrString => "number | string".into(),
        Shape::String { values: Some(values), .. }
        | Shape::Integer { values: Some(values), .. }
        | Shape::Number { values: Some(values) } => literals(values),
        Shape::String { .. } => "string".into(),
        Shape::Integer { .. } | Shape::Number { .. } => "number".into(),
        Shape::Boolean => "boolean".into(),
        Shape::List(items) => format!("Array<{}>", ts_type(items, imports, indent)),
        Shape::Struct => object_literal(node, imports, indent),
        Shape::Map(values) => format!("Record<string, {}>", ts_type(values, imports, indent)),
        Shape::Open | Shape::Empty => "Record<string, unknown>".into(),
        Shape::Any => "unknown".into(),
    };
    if is(node.nullable) { format!("{base} | null") } else { base }
}

fn object_literal(node: &Node, imports: &mut BTreeSet<String>, indent: &str) -> String {
    let inner = format!("{indent}  ");
    let mut out = String::from("{\n");
    out.push_str(&fields(node, is(node.preserve_unknown_fields), imports, &inner));
    out.push_str(indent);
    out.push('}');
    out
}

/// An interface's or object literal's fields, each with its JSDoc; `open` when the server
/// keeps fields the schema does not name there.
fn fields(node: &Node, open: bool, imports: &mut BTreeSet<String>, indent: &str) -> String {
    let required: BTreeSet<&str> = node.required.iter().flatten().map(String::as_str).collect();
    let mut out = String::new();
    for (name, prop) in node.properties.iter().flatten() {
        out.push_str(&jsdoc(prop, indent));
        let optional = if required.contains(name.as_str()) { "" } else { "?" };
        out.push_str(&format!("{indent}{}{optional}: {};\n", property_name(name), ts_type(prop, imports, indent)));
    }
    // The server keeps fields the schema does not name; the type admits them too.
    if open {
        out.push_str(&format!("{indent}[key: string]: unknown;\n"));
    }
    out
}

/// `minItems` → `Min items`.
fn count_label(key: &str) -> String {
    let (bound, what) = key.split_at(3);
    format!("{} {}", upper_first(bound), what.to_lowercase())
}

/// JSDoc for a node: its description, then its constraints and default in one paragraph.
fn jsdoc(node: &Node, indent: &str) -> String {
    let mut lines: Vec<String> =
        node.description.as_deref().map(|d| d.lines().map(String::from).collect()).unwrap_or_default();
    let mut facts = Vec::new();
    let bounds = Bounds::of(node);
    for (label, limit) in [("Minimum", &bounds.minimum), ("Maximum", &bounds.maximum)] {
        if let Some(limit) = limit {
            let exclusive = if limit.exclusive { " (exclusive)" } else { "" };
            facts.push(format!("{label}: {}{exclusive}.", number(&limit.value)));
        }
    }
    if let Some(v) = &bounds.multiple_of {
        facts.push(format!("Multiple of: {}.", number(v)));
    }
    for (key, v) in bounds.counts() {
        if let Some(v) = v {
            facts.push(format!("{}: {}.", count_label(key), number(v)));
        }
    }
    // A second pattern (a field's beside its type's) sits in `allOf`: both must match.
    for p in bounds.patterns() {
        facts.push(format!("Pattern: `{p}`."));
    }
    if let Some(f) = &node.format {
        facts.push(format!("Format: {f}."));
    }
    if let Some(d) = &node.default {
        facts.push(format!("Default: `{d}`."));
    }
    for rule in node.validations.iter().flatten() {
        let message = rule.message.as_deref().map(|m| format!(" ({m})")).unwrap_or_default();
        facts.push(format!("Rule: `{}`{message}.", rule.rule));
    }
    if !facts.is_empty() {
        if !lines.is_empty() {
            lines.push(String::new());
        }
        lines.push(facts.join(" "));
    }
    if lines.is_empty() {
        return String::new();
    }
    let mut out = format!("{indent}/**\n");
    for line in lines {
        let line = line.replace("*/", "*\\/");
        if line.is_empty() {
            out.push_str(&format!("{indent} *\n"))
        } else {
            out.push_str(&format!("{indent} * {line}\n"))
        }
    }
    out.push_str(&format!("{indent} */\n"));
    out
}

/// Names the generated TypeScript uses itself, which no type of the API may take.
const TAKEN: &[&str] = &[
    "Array",
    "Record",
    "Date",
    "Promise",
    "Object",
    "String",
    "Number",
    "Boolean",
    "Map",
    "Set",
    "Error",
    "Symbol",
    "Function",
    "Partial",
    "Pick",
    "KubeConfig",
    "V1Scale",
    "ResourceClient",
    "KubeApiError",
    "DeepPartial",
    "Applied",
    "ListOptions",
    "ApplyOptions",
    "ObjectList",
    "WatchEvent",
];

/// TypeScript's reserved words (a type renamed to one of them could not be declared).
const RESERVED: &[&str] = &[
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "if",
    "import",
    "in",
    "instanceof",
    "new",
    "null",
    "return",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "var",
    "void",
    "while",
    "with",
    "any",
    "boolean",
    "number",
    "string",
    "symbol",
    "unknown",
    "never",
    "object",
    "type",
    "interface",
    "let",
    "yield",
];

/// A type or kind name the package cannot declare: a clear error naming it.
fn check_names(pkg: &Package, imports: &BTreeSet<String>) -> Result<(), ModelError> {
    let kinds = pkg.kinds.iter().map(|k| (k.kind.clone(), k.type_path.clone()));
    let clients: BTreeSet<String> = pkg.kinds.iter().map(|k| format!("{}Client", k.kind)).collect();
    for (name, place) in
        kinds.chain(pkg.types.keys().map(|n| (n.clone(), format!("a type used by {}/{}", pkg.group, pkg.version))))
    {
        let why = if TAKEN.contains(&name.as_str()) || imports.contains(&name) {
            "is a name the generated TypeScript already uses"
        } else if RESERVED.contains(&name.as_str()) {
            "is a reserved word in TypeScript"
        } else if clients.contains(&name) {
            "is the name of a generated client class"
        } else if !is_identifier(&name) {
            "is not a TypeScript identifier"
        } else {
            continue;
        };
        return Err(ModelError(format!(
            "{place}: the type name `{name}` {why}; give the Rust type another schema name (#[schemars(rename = \"...\")]) or rename it"
        )));
    }
    Ok(())
}

/// The declarations of one group/version: each kind's root, then every named type.
fn models(pkg: &Package) -> Result<(Vec<String>, Vec<Decl>), ModelError> {
    let mut imports = BTreeSet::new();
    let mut decls = Vec::new();
    let mut flat_roots = BTreeSet::new();
    for kind in &pkg.kinds {
        imports.insert("V1ObjectMeta".to_string());
        let mut body = format!(
            "  apiVersion: \"{}/{}\";\n  kind: \"{}\";\n  metadata: V1ObjectMeta;\n",
            pkg.group, pkg.version, kind.kind
        );
        let data = kind.data.root.reference.as_deref().unwrap_or_default();
        match kind.style {
            Style::Spec => body.push_str(&format!("  spec: {data};\n")),
            _ => {
                flat_roots.insert(data.to_string());
                let mut root = pkg.types.get(data).cloned().unwrap_or_default();
                if let Some(props) = &mut root.properties {
                    props.remove("metadata");
                    props.remove("apiVersion");
                    props.remove("kind");
                }
                body.push_str(&fields(&root, pkg.keeps_unknown(data), &mut imports, "  "));
            }
        }
        if let Some(status) = kind.status.as_ref().and_then(|s| s.root.reference.as_deref()) {
            body.push_str(&format!("  status?: {status};\n"));
        }
        let doc = Node { description: Some(kind.root_description.clone()), ..Node::default() };
        decls.push(Decl { doc: jsdoc(&doc, ""), decl: format!("interface {} {{\n{body}}}", kind.kind) });
    }
    for (name, def) in &pkg.types {
        if flat_roots.contains(name) {
            continue;
        }
        // Open wherever a use of it is (a field's preserve_unknown_fields), as the one
        // interface serves every use.
        let decl = if matches!(shape(def), Shape::Struct) {
            format!("interface {name} {{\n{}}}", fields(def, pkg.keeps_unknown(name), &mut imports, "  "))
        } else {
            format!("type {name} = {};", ts_type(def, &mut imports, ""))
        };
        decls.push(Decl { doc: jsdoc(def, ""), decl });
    }
    // Kubernetes' types as the server of this release takes them (a Quantity an integer or
    // a string, every field of the release), not client-node's: declared here, under
    // client-node's names, in place of its import.
    let generated = pkg.generated_kubernetes()?;
    for (name, def) in generated.values() {
        let decl = if matches!(shape(def), Shape::Struct) {
            format!("interface {name} {{\n{}}}", fields(def, is(def.preserve_unknown_fields), &mut imports, "  "))
        } else {
            format!("type {name} = {};", ts_type(def, &mut imports, ""))
        };
        decls.push(Decl { doc: jsdoc(def, ""), decl });
    }
    let local: BTreeSet<&String> = generated.values().map(|(name, _)| name).collect();
    imports.retain(|name| !local.contains(name));
    check_names(pkg, &imports)?;
    Ok((imports.into_iter().collect(), decls))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde_json::json;

    use super::*;

    fn kind(name: &str, spec: &str) -> KindModel {
        KindModel {
            kind: name.into(),
            type_path: format!("zoo::{name}"),
            style: Style::Spec,
            data: kubegen_core::kind::Model { root: Node::named(spec), ..Default::default() },
            status: None,
            root_description: String::new(),
            plural: format!("{}s", name.to_lowercase()),
            namespaced: true,
            status_subresource: false,
            scale_subresource: false,
            resource_markers: Vec::new(),
        }
    }

    fn package(group: &str, kinds: Vec<KindModel>, types: BTreeMap<String, Value>) -> Package {
        Package {
            group: group.into(),
            short: group.split('.').next().unwrap_or(group).into(),
            version: "v1".into(),
            dir: String::new(),
            kinds,
            types: types.iter().map(|(k, v)| (k.clone(), Node::from_value(v).expect("a schema"))).collect(),
            external: BTreeMap::new(),
            kubernetes: BTreeMap::new(),
            open: Default::default(),
        }
    }

    /// issue 28, found by the generated kinds tier: client-node types a Quantity inside
    /// `V1ResourceRequirements` as a string (the server takes `cpu: 1` too) and lags the
    /// server's fields; the package declares Kubernetes' types from the schema instead,
    /// under client-node's names, and keeps `ObjectMeta` upstream. A type of the API with
    /// the name of one it declares is refused by name.
    #[test]
    fn kubernetes_types_are_declared_from_the_schema_the_server_has() {
        let quantity = json!({"x-kubegen-ref": "io.k8s.apimachinery.pkg.api.resource.Quantity"});
        let mut pkg = package(
            "a.example.com",
            vec![kind("Widget", "WidgetSpec")],
            [(
                "WidgetSpec".to_string(),
                json!({"type": "object", "properties": {
                    "resources": {"x-kubegen-ref": "io.k8s.api.core.v1.ResourceRequirements"},
                    "meta": {"x-kubegen-ref": "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}}}),
            )]
            .into(),
        );
        pkg.kubernetes = [
            (
                "io.k8s.api.core.v1.ResourceRequirements".to_string(),
                json!({"type": "object", "properties": {
                    "limits": {"type": "object", "additionalProperties": quantity},
                    "evictionResponders": {"type": "array", "items": {"type": "string"}}}}),
            ),
            ("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta".to_string(), json!({"type": "object"})),
            ("io.k8s.apimachinery.pkg.api.resource.Quantity".to_string(), json!({"x-kubernetes-int-or-string": true})),
        ]
        .into_iter()
        .map(|(k, v)| (k, Node::from_value(&v).expect("a schema")))
        .collect();
        let (imports, decls) = models(&pkg).expect("models");
        assert_eq!(imports, ["V1ObjectMeta"]);
        let text: Vec<&str> = decls.iter().map(|d| d.decl.as_str()).collect();
        let own = text.iter().find(|d| d.starts_with("interface V1ResourceRequirements")).expect("declared");
        assert!(own.contains("limits?: Record<string, number | string>;"), "{own}");
        assert!(own.contains("evictionResponders?: Array<string>;"), "{own}");
        assert!(!text.iter().any(|d| d.contains("interface V1ObjectMeta")), "{text:?}");
        pkg.types.insert("V1ResourceRequirements".into(), Node::from_value(&json!({"type": "string"})).expect("node"));
        let err = models(&pkg).err().expect("a clash").0;
        assert!(
            err.contains("`V1ResourceRequirements`") && err.contains("io.k8s.api.core.v1.ResourceRequirements"),
            "{err}"
        );
    }

    #[test]
    fn keyword_fields_are_quoted_or_kept_and_same_kinds_in_two_groups_get_two_modules() {
        let spec = json!({"type": "object", "properties": {
            "class": {"type": "string"}, "from": {"type": "string"}, "type": {"type": "string"}, "habitat-name": {"type": "string"}
        }, "required": ["class"]});
        let types: BTreeMap<String, Value> = [("WidgetSpec".to_string(), spec)].into();
        let a = package("a.example.com", vec![kind("Widget", "WidgetSpec")], types.clone());
        let b = package("b.example.com", vec![kind("Widget", "WidgetSpec")], types);
        let files: BTreeMap<String, String> = files(&[a, b], "api", "0.1.0", "").unwrap().into_iter().collect();
        let models = &files["src/a.example.com/v1/models.ts"];
        assert!(
            models.contains("  class: string;\n  from?: string;\n  \"habitat-name\"?: string;\n  type?: string;"),
            "{models}"
        );
        let index = &files["src/index.ts"];
        assert!(index.contains("export * as aV1 from \"./a.example.com/v1/index.js\""), "{index}");
        assert!(index.contains("export * as bV1 from \"./b.example.com/v1/index.js\""), "{index}");
    }

    /// Issue 28: found by a new user's trial, preserve_unknown_fields on a named-struct
    /// field: the interface had no index signature, so an object with a key the server
    /// keeps there did not compile under `tsc --strict`.
    #[test]
    fn a_named_type_under_a_field_s_preserve_unknown_fields_has_an_index_signature() {
        let pkg = [crate::clients::tests::issue28_package()];
        let files: BTreeMap<String, String> = files(&pkg, "api", "0.1.0", "").unwrap().into_iter().collect();
        let models = &files["src/issue28.kubegen.dev/v1/models.ts"];
        let interface = |name: &str| {
            let start =
                models.find(&format!("export interface {name} {{")).unwrap_or_else(|| panic!("{name}: {models}"));
            let end = start + models[start..].find("\n}").expect("the interface's end");
            &models[start..end]
        };
        for open in ["Part", "Shared", "Target"] {
            assert!(interface(open).ends_with("  [key: string]: unknown;"), "{}", interface(open));
        }
        for closed in ["Closed", "GadgetSpec"] {
            assert!(!interface(closed).contains("[key: string]"), "{}", interface(closed));
        }
    }

    #[test]
    fn a_type_named_like_a_builtin_is_a_clear_error() {
        let types: BTreeMap<String, Value> = [
            ("WidgetSpec".to_string(), json!({"type": "object", "properties": {"at": {"x-kubegen-ref": "Date"}}})),
            ("Date".to_string(), json!({"type": "string"})),
        ]
        .into();
        let err = files(&[package("a.example.com", vec![kind("Widget", "WidgetSpec")], types)], "api", "0.1.0", "")
            .unwrap_err()
            .to_string();
        assert!(err.contains("the type name `Date` is a name the generated TypeScript already uses"), "{err}");
        assert!(err.contains("#[schemars(rename"), "{err}");
    }
}
