//! Go API types in kubebuilder's layout, from the client model: a package per
//! group/version with `groupversion_info.go`, `<kind>_types.go` (json tags as serde
//! writes them, doc comments from the Rust docs, every schema fact re-emitted as a
//! kubebuilder marker, so controller-gen regenerates the same CRD) and
//! `zz_generated.deepcopy.go`, written here, without Go.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::{Result, bail};
use askama::Template;
use serde_json::{Map, Value};

use kubegen_core::kind::Style;
use kubegen_core::schema::node::Node;

use super::shape::{Bounds, Shape, WireForm, is, shape};
use super::{KindModel, ModelError, Package, number, render, upper_first};
use crate::settings::GoKubernetesTypes;

#[derive(Template)]
#[template(path = "clients/go/go.mod", escape = "none")]
struct GoMod<'a> {
    header: &'a str,
    module: &'a str,
    k8s_version: &'a str,
}

#[derive(Template)]
#[template(path = "clients/go/groupversion_info.go", escape = "none")]
struct GroupVersionInfo<'a> {
    header: &'a str,
    package: &'a str,
    group: &'a str,
    version: &'a str,
    kinds: Vec<&'a str>,
}

#[derive(Template)]
#[template(path = "clients/go/types.go", escape = "none")]
struct TypesFile<'a> {
    header: &'a str,
    package: &'a str,
    imports: Vec<String>,
    types: Vec<GoDecl>,
}

#[derive(Template)]
#[template(path = "clients/go/quantity.go", escape = "none")]
struct QuantityFile<'a> {
    header: &'a str,
    package: &'a str,
    pattern: &'a str,
}

#[derive(Template)]
#[template(path = "clients/go/int64_or_string.go", escape = "none")]
struct Int64OrStringFile<'a> {
    header: &'a str,
    package: &'a str,
}

#[derive(Template)]
#[template(path = "clients/go/zz_generated.deepcopy.go", escape = "none")]
struct DeepCopyFile<'a> {
    header: &'a str,
    package: &'a str,
    imports: Vec<String>,
    funcs: Vec<DeepCopyFunc>,
}

/// One `type` declaration.
struct GoDecl {
    name: String,
    /// Markers in their own comment block above the doc comment: gofmt rewrites doc
    /// comments (`''` in a CEL rule becomes `”`), and controller-gen reads both blocks.
    markers: Vec<String>,
    doc: Vec<String>,
    /// A struct's fields, or `None` for `type X <underlying>`.
    fields: Option<Vec<GoField>>,
    underlying: String,
    /// Go code after the type: the JSON methods of a struct that keeps unknown keys.
    methods: String,
}

struct GoField {
    doc: Vec<String>,
    /// `Name Type \`json:"..."\`` (or an embedded type).
    decl: String,
    ty: GoTy,
    /// The Go field name, or the embedded type's name.
    name: String,
}

struct DeepCopyFunc {
    name: String,
    body: Vec<String>,
    object: bool,
}

/// A Go type, as deepcopy needs to know it.
#[derive(Clone, Debug)]
enum GoTy {
    /// `string`, `int32`, `bool`, a named string type: copied by assignment.
    Value(String),
    /// A struct type (ours or Kubernetes'); `deep` when it holds pointers, slices or maps.
    Struct {
        name: String,
        deep: bool,
    },
    Slice(Box<GoTy>),
    Map(Box<GoTy>),
    Pointer(Box<GoTy>),
}

impl GoTy {
    fn text(&self) -> String {
        match self {
            GoTy::Value(t) | GoTy::Struct { name: t, .. } => t.clone(),
            GoTy::Slice(t) => format!("[]{}", t.text()),
            GoTy::Map(t) => format!("map[string]{}", t.text()),
            GoTy::Pointer(t) => format!("*{}", t.text()),
        }
    }
}

/// Kubernetes' Go package and the import alias kubebuilder projects use for it.
fn k8s_import(definition: &str) -> Option<(String, String, String)> {
    let rest = definition.strip_prefix("io.k8s.")?;
    let (path, name) = rest.rsplit_once('.')?;
    let (module, inner) = path.split_once('.')?;
    let import = format!("k8s.io/{module}/{}", inner.replace('.', "/"));
    let alias = match import.as_str() {
        "k8s.io/apimachinery/pkg/apis/meta/v1" => "metav1".to_string(),
        "k8s.io/apimachinery/pkg/api/resource" => "resource".to_string(),
        "k8s.io/apimachinery/pkg/util/intstr" => "intstr".to_string(),
        "k8s.io/apimachinery/pkg/runtime" => "runtime".to_string(),
        _ if module == "api" => inner.replace('.', ""),
        _ => format!("{module}{}", inner.replace('.', "")).replace('-', ""),
    };
    Some((import, alias, name.to_string()))
}

/// An import line; the alias only where it differs from the package's name.
fn import_line(alias: &str, path: &str) -> String {
    if path.rsplit('/').next() == Some(alias) { format!("{path:?}") } else { format!("{alias} {path:?}") }
}

/// Import lines in gofmt's order: by path.
fn sorted_imports(imports: BTreeSet<String>) -> Vec<String> {
    let mut imports: Vec<String> = imports.into_iter().collect();
    imports.sort_by_key(|i| i.rsplit(' ').next().unwrap_or_default().to_string());
    imports
}

/// The name an import line binds.
fn import_alias(line: &str) -> &str {
    match line.split_once(' ') {
        Some((alias, _)) => alias,
        None => line.trim_matches('"').rsplit('/').next().unwrap_or_default(),
    }
}

/// `UnmarshalJSON` and `MarshalJSON` for a struct that keeps unknown keys in `field`:
/// the named fields as `encoding/json` reads them, every other key kept as sent.
fn unknown_keys_methods(name: &str, field: &str, known: &[&String]) -> String {
    let known: Vec<String> = known.iter().map(|k| serde_json::to_string(k).unwrap_or_default()).collect();
    format!(
        r#"
// UnmarshalJSON reads the fields {name} names and keeps every other key in {field}.
func (in *{name}) UnmarshalJSON(data []byte) error {{
	type named {name}
	if err := json.Unmarshal(data, (*named)(in)); err != nil {{
		return err
	}}
	var all map[string]runtime.RawExtension
	if err := json.Unmarshal(data, &all); err != nil {{
		return err
	}}
	for _, key := range []string{{{known}}} {{
		delete(all, key)
	}}
	in.{field} = nil
	if len(all) > 0 {{
		in.{field} = all
	}}
	return nil
}}

// MarshalJSON writes the fields {name} names and the keys kept in {field}.
func (in {name}) MarshalJSON() ([]byte, error) {{
	type named {name}
	data, err := json.Marshal(named(in))
	if err != nil || len(in.{field}) == 0 {{
		return data, err
	}}
	all := map[string]json.RawMessage{{}}
	if err := json.Unmarshal(data, &all); err != nil {{
		return nil, err
	}}
	for key, value := range in.{field} {{
		if _, taken := all[key]; !taken {{
			all[key] = value.Raw
		}}
	}}
	return json.Marshal(all)
}}"#,
        known = known.join(", ")
    )
}

/// Kubernetes' types that are plain values in Go (no deepcopy needed).
fn k8s_shallow(name: &str) -> bool {
    matches!(name, "intstr.IntOrString" | "metav1.TypeMeta" | "metav1.Duration")
}

/// The JSON name as a Go field name: `deploymentName` → `DeploymentName`,
/// `habitat-name` → `HabitatName`, `area_m2` → `AreaM2`.
fn go_name(json: &str) -> String {
    let mut out = String::new();
    let mut upper = true;
    for c in json.chars() {
        if !c.is_ascii_alphanumeric() {
            upper = true;
            continue;
        }
        if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) || out.is_empty() {
        out.insert(0, 'X');
    }
    out
}

/// A description as doc comment lines.
fn doc_lines(node: &Node) -> Vec<String> {
    node.description.as_deref().map(|d| d.lines().map(|l| l.trim_end().to_string()).collect()).unwrap_or_default()
}

/// A string argument of a marker: Go's backquotes when they fit, else quoted.
fn marker_string(s: &str) -> String {
    if !s.contains('`') { format!("`{s}`") } else { serde_json::to_string(s).unwrap_or_default() }
}

/// The kubebuilder markers that make controller-gen write `node`'s validations
/// (`prefix` is `items:` for an array's items).
fn validation_markers(node: &Node, prefix: &str, out: &mut Vec<String>) {
    let v = |name: &str| format!("+kubebuilder:validation:{prefix}{name}");
    let bounds = Bounds::of(node);
    // controller-gen refuses string bounds on an int-or-string (its schema has no type):
    // they are said in the description instead, and the CRD kubegen writes keeps them.
    let int_or_string =
        matches!(shape(node), Shape::IntOrString | Shape::Kubernetes { wire: Some(WireForm::IntOrString), .. });
    let mut string_bounds = Vec::new();
    for (name, limit) in [("Minimum", &bounds.minimum), ("Maximum", &bounds.maximum)] {
        if let Some(limit) = limit {
            out.push(format!("{}={}", v(name), number(&limit.value)));
        }
    }
    if let Some(n) = &bounds.multiple_of {
        out.push(format!("{}={}", v("MultipleOf"), number(n)));
    }
    for (key, n) in bounds.counts() {
        let Some(n) = n else { continue };
        if int_or_string && key.ends_with("Length") {
            let bound = if key == "minLength" { "at least" } else { "at most" };
            string_bounds.push(format!("{bound} {} characters", number(n)));
            continue;
        }
        out.push(format!("{}={}", v(&upper_first(key)), number(n)));
    }
    for (name, limit) in [("ExclusiveMinimum", &bounds.minimum), ("ExclusiveMaximum", &bounds.maximum)] {
        if limit.as_ref().is_some_and(|l| l.exclusive) {
            out.push(format!("{}=true", v(name)));
        }
    }
    if let Some(p) = bounds.pattern {
        if int_or_string {
            string_bounds.push(format!("the pattern `{p}`"));
        } else {
            out.push(format!("{}={}", v("Pattern"), marker_string(p)));
        }
    }
    if !string_bounds.is_empty() {
        out.push(format!("String values have {}.", string_bounds.join(", ")));
    }
    // A second pattern (a field's beside its type's) sits in `allOf`; one Pattern marker
    // holds one, so the others are said in words.
    for p in bounds.all_of.iter().filter_map(|b| b.pattern) {
        out.push(format!("String values also match `{p}`."));
    }
    if let Some(values) = &node.enum_ {
        let values: Vec<String> = values.iter().map(|e| e.to_string()).collect();
        out.push(format!("{}={}", v("Enum"), values.join(";")));
    }
    if let Some(f) = &node.format
        && !matches!(f.as_str(), "int32" | "int64" | "byte")
        && prefix.is_empty()
    {
        out.push(format!("{}={f}", v("Format")));
    }
}

/// Every marker for a node in a field's or a type's position, beyond its Go type.
fn node_markers(node: &Node, out: &mut Vec<String>) {
    validation_markers(node, "", out);
    if let Some(items) = &node.items
        && items.reference.is_none()
        && items.type_.as_deref() != Some("object")
    {
        validation_markers(items, "items:", out);
    }
    if let Some(d) = &node.default {
        out.push(format!("+default={d}"));
    }
    if let Some(e) = &node.example {
        out.push(format!("+kubebuilder:example={e}"));
    }
    if let Some(Value::Object(docs)) = &node.external_docs {
        let mut args = Vec::new();
        for key in ["url", "description"] {
            if let Some(Value::String(v)) = docs.get(key) {
                args.push(format!("{key}={}", serde_json::to_string(v).unwrap_or_default()));
            }
        }
        out.push(format!("+kubebuilder:externalDocs:{}", args.join(",")));
    }
    if let Some(t) = &node.title {
        out.push(format!("+kubebuilder:title={}", serde_json::to_string(t).unwrap_or_default()));
    }
    if is(node.nullable) {
        out.push("+nullable".into());
    }
    if let Some(t) = &node.list_type {
        out.push(format!("+listType={t}"));
    }
    for k in node.list_map_keys.iter().flatten() {
        out.push(format!("+listMapKey={k}"));
    }
    if let Some(t) = &node.map_type {
        out.push(format!("+mapType={t}"));
    }
    if is(node.embedded_resource) {
        out.push("+kubebuilder:validation:EmbeddedResource".into());
    }
    out.extend(rule_markers(node));
}

/// The XValidation markers of a node's CEL rules.
fn rule_markers(node: &Node) -> impl Iterator<Item = String> + '_ {
    node.validations.iter().flatten().map(|rule| xvalidation(&serde_json::to_value(rule).unwrap_or_default()))
}

pub(super) fn xvalidation(rule: &Value) -> String {
    let mut args = Vec::new();
    for key in ["rule", "message", "messageExpression", "reason", "fieldPath"] {
        if let Some(Value::String(s)) = rule.get(key) {
            let quoted = if key == "reason" { s.clone() } else { serde_json::to_string(s).unwrap_or_default() };
            args.push(format!("{key}={quoted}"));
        }
    }
    if let Some(Value::Bool(b)) = rule.get("optionalOldSelf") {
        args.push(format!("optionalOldSelf={b}"));
    }
    format!("+kubebuilder:validation:XValidation:{}", args.join(","))
}

/// Writes one package's types.
struct Writer<'a> {
    types: &'a BTreeMap<String, Node>,
    /// Named types a use keeps unknown keys in ([`Package::open`]).
    open: &'a BTreeSet<String>,
    external: &'a BTreeMap<String, kubegen_core::kind::External>,
    /// Kubernetes' types the package declares (`go-kubernetes-types = "declared"`): their
    /// Go names by definition, and their nodes by Go name.
    kubernetes: &'a BTreeMap<&'a str, String>,
    kubernetes_nodes: &'a BTreeMap<String, &'a Node>,
    imports: BTreeSet<String>,
    decls: Vec<GoDecl>,
    /// Struct names and whether they need a deep copy, filled as they are declared.
    emitted: BTreeSet<String>,
    pending: Vec<String>,
    /// A field holds a Quantity: the package gets quantity.go.
    quantity: bool,
    /// A field holds an int-or-string wider than int32: the package gets int64_or_string.go.
    int64_or_string: bool,
}

/// The package's own int-or-string of an int64 (int64_or_string.go).
const INT64_OR_STRING: &str = "Int64OrString";

/// Whether the schema holds `node`'s numbers inside int32 (both bounds, each inside its
/// range): what intstr.IntOrString reads.
fn within_int32(node: &Node) -> bool {
    let bounds = Bounds::all(node);
    let inside = |l: &Option<super::shape::Limit>| {
        l.as_ref()
            .and_then(|l| l.value.as_f64())
            .is_some_and(|v| (f64::from(i32::MIN)..=f64::from(i32::MAX)).contains(&v))
    };
    inside(&bounds.minimum) && inside(&bounds.maximum)
}

/// One of the package's own Go types (`Quantity`, `Int64OrString`): its file, and its struct
/// among the package's for the deep copies; a type of the API of the same name is refused.
#[allow(clippy::too_many_arguments)]
fn own_type(
    dir: &str,
    name: &str,
    what: &str,
    file: &str,
    contents: String,
    fields: Vec<(&str, GoTy)>,
    files: &mut Vec<(String, String)>,
    all_structs: &mut Vec<(String, Vec<GoField>, bool)>,
) -> Result<(), ModelError> {
    if all_structs.iter().any(|(n, _, _)| n == name) {
        return Err(ModelError(format!(
            "{dir}: a type named {name} would clash with the package's own {what}: rename it"
        )));
    }
    files.push((format!("{dir}/{file}"), contents));
    let fields = fields
        .into_iter()
        .map(|(field, ty)| GoField { doc: Vec::new(), decl: String::new(), ty, name: field.into() })
        .collect();
    all_structs.push((name.into(), fields, false));
    Ok(())
}

/// The package's own quantity type (quantity.go).
const QUANTITY: &str = "Quantity";

impl<'a> Writer<'a> {
    fn object(&self, name: &str) -> Option<&'a Node> {
        self.types.get(name).or_else(|| self.kubernetes_nodes.get(name).copied())
    }

    /// The Go type of `node` in a field of `owner`.
    fn go_type(&mut self, node: &Node, owner: &str, field: &str) -> Result<GoTy> {
        Ok(match shape(node) {
            // The package's own Quantity: a resource.Quantity that writes back what it read.
            Shape::Kubernetes { wire: Some(WireForm::Quantity), .. } => {
                self.quantity = true;
                GoTy::Struct { name: QUANTITY.into(), deep: true }
            }
            // A Kubernetes type the package declares: a struct of its own.
            Shape::Kubernetes { name, .. } if self.kubernetes.contains_key(name) => {
                let name = self.kubernetes[name].clone();
                self.queue(&name);
                GoTy::Struct { name, deep: true }
            }
            Shape::Kubernetes { name, .. } => {
                let Some((import, alias, ty)) = k8s_import(name) else {
                    bail!("{owner}.{field}: no Go package is known for the Kubernetes type {name}");
                };
                self.imports.insert(import_line(&alias, &import));
                let qualified = format!("{alias}.{ty}");
                let shallow = self.external.get(name).is_some_and(|e| e.shallow);
                let deep = !shallow && !k8s_shallow(&qualified);
                GoTy::Struct { name: qualified, deep }
            }
            Shape::Named(name) => {
                let Some(def) = self.object(name) else {
                    bail!("{owner}.{field}: the type {name} is not in the model");
                };
                match shape(def) {
                    // A struct of its own, or an object without fields that drops what
                    // it is sent: a named Go struct.
                    Shape::Struct | Shape::Empty => {
                        self.queue(name);
                        GoTy::Struct { name: name.to_string(), deep: true }
                    }
                    // A list, a map, a raw object, an int-or-string or another type's
                    // name: no named Go type, the field holds it.
                    Shape::List(_)
                    | Shape::Map(_)
                    | Shape::Open
                    | Shape::Any
                    | Shape::IntOrString
                    | Shape::Named(_)
                    | Shape::Kubernetes { .. } => self.go_type(def, owner, field)?,
                    _ => {
                        self.queue(name);
                        GoTy::Value(name.to_string())
                    }
                }
            }
            // intstr.IntOrString holds an int32: an int-or-string whose numbers the schema
            // bounds to that (an `i32` variant's, Kubernetes' own) is one; a wider one (an
            // `i64` variant's) is the package's own Int64OrString.
            Shape::IntOrString if !within_int32(node) => {
                self.int64_or_string = true;
                GoTy::Struct { name: INT64_OR_STRING.into(), deep: false }
            }
            Shape::IntOrString => {
                self.imports.insert(import_line("intstr", "k8s.io/apimachinery/pkg/util/intstr"));
                GoTy::Struct { name: "intstr.IntOrString".into(), deep: false }
            }
            Shape::String { format: Some("byte"), .. } => GoTy::Slice(Box::new(GoTy::Value("byte".into()))),
            Shape::String { .. } => GoTy::Value("string".into()),
            Shape::Integer { format: Some("int32"), .. } => GoTy::Value("int32".into()),
            Shape::Integer { format: Some("int64"), .. } => GoTy::Value("int64".into()),
            // No format (an unsigned or arbitrary Rust integer): Go's `int`, which
            // controller-gen writes without one too.
            Shape::Integer { .. } => GoTy::Value("int".into()),
            Shape::Number { .. } => GoTy::Value("float64".into()),
            Shape::Boolean => GoTy::Value("bool".into()),
            Shape::List(items) => GoTy::Slice(Box::new(self.go_type(items, owner, &format!("{field}Item"))?)),
            Shape::Struct => {
                let name = format!("{owner}{}", go_name(field));
                self.declare_struct(&name, node, false)?;
                GoTy::Struct { name, deep: true }
            }
            Shape::Map(values) => GoTy::Map(Box::new(self.go_type(values, owner, &format!("{field}Value"))?)),
            Shape::Empty => {
                // A struct with no fields.
                let name = format!("{owner}{}", go_name(field));
                self.declare_struct(&name, node, false)?;
                GoTy::Struct { name, deep: false }
            }
            Shape::Open | Shape::Any => {
                self.imports.insert(import_line("runtime", "k8s.io/apimachinery/pkg/runtime"));
                GoTy::Struct { name: "runtime.RawExtension".into(), deep: true }
            }
        })
    }

    /// Markers that the Go type itself implies for a node (the schema-less any value).
    fn type_markers(&self, node: &Node, ty: &GoTy, out: &mut Vec<String>) {
        let raw = matches!(ty, GoTy::Struct { name, .. } if name == "runtime.RawExtension")
            || matches!(ty, GoTy::Pointer(inner) if matches!(&**inner, GoTy::Struct { name, .. } if name == "runtime.RawExtension"));
        if raw && node.type_.is_none() {
            out.push("+kubebuilder:validation:Schemaless".into());
            out.push("+kubebuilder:pruning:PreserveUnknownFields".into());
        } else if is(node.preserve_unknown_fields) && !raw {
            out.push("+kubebuilder:pruning:PreserveUnknownFields".into());
        }
    }

    fn queue(&mut self, name: &str) {
        if !self.emitted.contains(name) && !self.pending.iter().any(|p| p == name) {
            self.pending.push(name.to_string());
        }
    }

    /// Declares every queued named type.
    fn drain(&mut self) -> Result<()> {
        while let Some(name) = self.pending.pop() {
            if self.emitted.contains(&name) {
                continue;
            }
            let Some(def) = self.object(&name) else { continue };
            match def.type_.as_deref() {
                // A field's preserve_unknown_fields keeps unknown keys in the one Go type
                // that serves every use; the type's schema (and controller-gen's CRD for its
                // other uses) stays its own: the marker is on the field.
                Some("object") => self.declare_struct(&name, def, self.open.contains(&name))?,
                _ => {
                    self.emitted.insert(name.clone());
                    let ty = self.go_type(&without_validations(def), &name, "")?;
                    let doc = doc_lines(def);
                    let mut markers = Vec::new();
                    node_markers(def, &mut markers);
                    self.decls.push(GoDecl {
                        name: name.clone(),
                        markers,
                        doc,
                        fields: None,
                        underlying: ty.text(),
                        methods: String::new(),
                    });
                }
            }
        }
        Ok(())
    }

    /// A struct type; `open` when a use of it keeps unknown keys that its own schema
    /// does not.
    fn declare_struct(&mut self, name: &str, node: &Node, open: bool) -> Result<()> {
        if !self.emitted.insert(name.to_string()) {
            return Ok(());
        }
        let mut fields = self.fields(name, node)?;
        let doc = doc_lines(node);
        let mut markers = Vec::new();
        type_level_markers(node, &mut markers);
        let mut methods = String::new();
        // Named fields and unknown keys both kept, as the API server keeps them: a Go
        // struct holds only the first, so the others go to a map its JSON methods fill.
        if open || is(node.preserve_unknown_fields) {
            self.imports.insert(import_line("runtime", "k8s.io/apimachinery/pkg/runtime"));
            self.imports.insert(import_line("json", "encoding/json"));
            let mut field = "Unknown".to_string();
            while fields.iter().any(|f| f.name == field) {
                field.push('_');
            }
            let known: Vec<&String> = node.properties.iter().flatten().map(|(k, _)| k).collect();
            methods = unknown_keys_methods(name, &field, &known);
            let doc = if is(node.preserve_unknown_fields) {
                "The keys the schema does not name, kept as sent (the API server keeps them too)."
            } else {
                "The keys the schema does not name, kept as sent (the API server keeps them where a field preserves unknown fields)."
            };
            fields.push(GoField {
                doc: vec![doc.into()],
                decl: format!("{field} map[string]runtime.RawExtension `json:\"-\"`"),
                ty: GoTy::Map(Box::new(GoTy::Struct { name: "runtime.RawExtension".into(), deep: true })),
                name: field,
            });
        }
        self.decls.push(GoDecl {
            name: name.to_string(),
            markers,
            doc,
            fields: Some(fields),
            underlying: String::new(),
            methods,
        });
        Ok(())
    }

    fn fields(&mut self, owner: &str, node: &Node) -> Result<Vec<GoField>> {
        let required: BTreeSet<&str> = node.required.iter().flatten().map(String::as_str).collect();
        let mut fields = Vec::new();
        let mut names = BTreeSet::new();
        for (json, prop) in node.properties.iter().flatten() {
            let mut name = go_name(json);
            while !names.insert(name.clone()) {
                name.push('_');
            }
            fields.push(self.field(owner, &name, json, prop, required.contains(json.as_str()))?);
        }
        Ok(fields)
    }

    fn field(&mut self, owner: &str, name: &str, json: &str, prop: &Node, required: bool) -> Result<GoField> {
        // A named Rust type that will be no named Go type (a map, a list, an
        // int-or-string): its documentation and validations move onto the field.
        let inlined = prop
            .reference
            .as_deref()
            .filter(|n| !n.starts_with("io.k8s.") && !self.emitted.contains(*n) && !self.pending.iter().any(|p| p == n))
            .and_then(|n| self.object(n));
        let mut ty = self.go_type(prop, owner, name)?;
        let named = matches!(&ty, GoTy::Struct { .. } | GoTy::Value(_))
            && prop.reference.as_deref().is_some_and(|n| ty.text() == n);
        let merged;
        let prop = match inlined {
            Some(def) if !named => {
                merged = overlay(def, prop);
                &merged
            }
            _ => prop,
        };
        let nullable = is(prop.nullable);
        // Optional structs and scalars are pointers, as Kubernetes' own types write them:
        // unset stays apart from the zero value (and from a default).
        // A raw object too: a RawExtension value marshals as `null` when unset, which
        // a round trip would add where the object had no key.
        if (!required || nullable) && matches!(ty, GoTy::Value(_) | GoTy::Struct { .. }) {
            ty = GoTy::Pointer(Box::new(ty));
        }
        let mut doc = doc_lines(prop);
        let mut markers = Vec::new();
        markers.push(if required { "+required".to_string() } else { "+optional".to_string() });
        self.type_markers(prop, &ty, &mut markers);
        node_markers(prop, &mut markers);
        // On a struct-typed field the map type is controller-gen's structType.
        let is_struct = |t: &GoTy| matches!(t, GoTy::Struct { .. });
        if is_struct(&ty) || matches!(&ty, GoTy::Pointer(inner) if is_struct(inner)) {
            for m in &mut markers {
                if let Some(rest) = m.strip_prefix("+mapType=") {
                    *m = format!("+structType={rest}");
                }
            }
        }
        push_markers(&mut doc, markers);
        // An optional list or map keeps an empty value the server stores (`[]`, `{}`):
        // `omitzero` (Go 1.24, the module's floor) omits only an unset (nil) one, where
        // `omitempty` would drop an empty one too and change the object on a round trip.
        let omit = match (&ty, required) {
            (_, true) => "",
            (GoTy::Slice(_) | GoTy::Map(_), false) => ",omitzero",
            _ => ",omitempty",
        };
        Ok(GoField { doc, decl: format!("{name} {} `json:\"{json}{omit}\"`", ty.text()), ty, name: name.to_string() })
    }
}

/// A named type's node without its own validations (they are markers on the type).
fn without_validations(def: &Node) -> Node {
    Node {
        type_: def.type_.clone(),
        format: def.format.clone(),
        items: def.items.clone(),
        additional_properties: def.additional_properties.clone(),
        int_or_string: def.int_or_string,
        ..Node::default()
    }
}

/// A field's node on the named type it refers to, for a type that is no Go type of its
/// own: the type's keys but its fields, with the field's own keys (but the reference)
/// over them.
fn overlay(def: &Node, field: &Node) -> Node {
    let mut merged = match def.to_value() {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    merged.remove("properties");
    merged.remove("required");
    if let Value::Object(own) = field.to_value() {
        for (k, v) in own {
            if k != super::REF_KEY {
                merged.insert(k, v);
            }
        }
    }
    Node::from_value(&Value::Object(merged)).unwrap_or_default()
}

/// A struct type's own markers (rules and map type; its fields carry the rest).
fn type_level_markers(node: &Node, out: &mut Vec<String>) {
    if let Some(t) = &node.map_type {
        out.push(format!("+structType={t}"));
    }
    for (name, n) in [("MinProperties", node.min_properties), ("MaxProperties", node.max_properties)] {
        if let Some(n) = n {
            out.push(format!("+kubebuilder:validation:{name}={n}"));
        }
    }
    out.extend(rule_markers(node));
    if is(node.preserve_unknown_fields) && node.properties.is_some() {
        out.push("+kubebuilder:pruning:PreserveUnknownFields".into());
    }
}

fn push_markers(doc: &mut Vec<String>, markers: Vec<String>) {
    if markers.is_empty() {
        return;
    }
    doc.extend(markers);
}

/// Which types need more than an assignment to copy: pointers, slices and maps, and
/// the structs that hold one (ours, found by a fixpoint over the package's structs).
struct Depth<'a> {
    ours: &'a BTreeMap<String, bool>,
}

impl Depth<'_> {
    fn deep(&self, ty: &GoTy) -> bool {
        match ty {
            GoTy::Value(_) => false,
            GoTy::Struct { name, deep } => self.ours.get(name).copied().unwrap_or(*deep),
            _ => true,
        }
    }
}

/// A Kubernetes type whose `DeepCopy` controller-gen calls instead of `DeepCopyInto`
/// (`Quantity`'s returns a value, `Time`'s a pointer).
enum Special {
    ValueDeepCopy,
    PointerDeepCopy,
}

fn special(ty: &GoTy) -> Option<Special> {
    match ty {
        GoTy::Struct { name, .. } if name == "resource.Quantity" => Some(Special::ValueDeepCopy),
        GoTy::Struct { name, .. } if name == "metav1.Time" || name == "metav1.MicroTime" => {
            Some(Special::PointerDeepCopy)
        }
        _ => None,
    }
}

/// The DeepCopyInto lines for one field, as controller-gen writes them.
fn copy_field(field: &GoField, depth: &Depth, out: &mut Vec<String>) {
    let f = &field.name;
    match &field.ty {
        GoTy::Value(_) => {}
        ty @ GoTy::Struct { .. } if !depth.deep(ty) => out.push(format!("out.{f} = in.{f}")),
        ty @ GoTy::Struct { .. } => match special(ty) {
            Some(Special::ValueDeepCopy) => out.push(format!("out.{f} = in.{f}.DeepCopy()")),
            _ => out.push(format!("in.{f}.DeepCopyInto(&out.{f})")),
        },
        GoTy::Pointer(inner) => {
            out.push(format!("if in.{f} != nil {{"));
            out.push(format!("\tin, out := &in.{f}, &out.{f}"));
            match special(inner) {
                Some(Special::ValueDeepCopy) => {
                    out.push("\tx := (*in).DeepCopy()".into());
                    out.push("\t*out = &x".into());
                }
                Some(Special::PointerDeepCopy) => out.push("\t*out = (*in).DeepCopy()".into()),
                None => {
                    out.push(format!("\t*out = new({})", inner.text()));
                    if depth.deep(inner) {
                        out.push("\t(*in).DeepCopyInto(*out)".into());
                    } else {
                        out.push("\t**out = **in".into());
                    }
                }
            }
            out.push("}".into());
        }
        GoTy::Slice(inner) => {
            out.push(format!("if in.{f} != nil {{"));
            out.push(format!("\tin, out := &in.{f}, &out.{f}"));
            out.push(format!("\t*out = make({}, len(*in))", field.ty.text()));
            if depth.deep(inner) {
                out.push("\tfor i := range *in {".into());
                copy_element("(*in)[i]", "(*out)[i]", inner, depth, "\t\t", out);
                out.push("\t}".into());
            } else {
                out.push("\tcopy(*out, *in)".into());
            }
            out.push("}".into());
        }
        GoTy::Map(inner) => {
            out.push(format!("if in.{f} != nil {{"));
            out.push(format!("\tin, out := &in.{f}, &out.{f}"));
            out.push(format!("\t*out = make({}, len(*in))", field.ty.text()));
            out.push("\tfor key, val := range *in {".into());
            match &**inner {
                ty if !depth.deep(ty) => out.push("\t\t(*out)[key] = val".into()),
                ty @ GoTy::Struct { .. } => match special(ty) {
                    Some(Special::ValueDeepCopy) => out.push("\t\t(*out)[key] = val.DeepCopy()".into()),
                    _ => out.push("\t\t(*out)[key] = *val.DeepCopy()".into()),
                },
                other => {
                    out.push(format!("\t\tvar outVal {}", other.text()));
                    out.push("\t\tif val == nil {".into());
                    out.push("\t\t\t(*out)[key] = nil".into());
                    out.push("\t\t} else {".into());
                    out.push("\t\t\tinVal := (*in)[key]".into());
                    out.push("\t\t\tin, out := &inVal, &outVal".into());
                    copy_nested(other, depth, "\t\t\t", out);
                    out.push("\t\t}".into());
                    out.push("\t\t(*out)[key] = outVal".into());
                }
            }
            out.push("\t}".into());
            out.push("}".into());
        }
    }
}

/// Copies `*in` into `*out` for a slice or map held in a map.
fn copy_nested(ty: &GoTy, depth: &Depth, indent: &str, out: &mut Vec<String>) {
    out.push(format!("{indent}*out = make({}, len(*in))", ty.text()));
    match ty {
        GoTy::Slice(inner) if !depth.deep(inner) => out.push(format!("{indent}copy(*out, *in)")),
        GoTy::Slice(inner) => {
            out.push(format!("{indent}for i := range *in {{"));
            copy_element("(*in)[i]", "(*out)[i]", inner, depth, &format!("{indent}\t"), out);
            out.push(format!("{indent}}}"));
        }
        _ => {
            out.push(format!("{indent}for k, v := range *in {{"));
            out.push(format!("{indent}\t(*out)[k] = v"));
            out.push(format!("{indent}}}"));
        }
    }
}

/// Copies one element of a slice that needs a deep copy.
fn copy_element(src: &str, dst: &str, ty: &GoTy, depth: &Depth, indent: &str, out: &mut Vec<String>) {
    match ty {
        GoTy::Struct { .. } => out.push(format!("{indent}{src}.DeepCopyInto(&{dst})")),
        GoTy::Pointer(inner) => {
            out.push(format!("{indent}if {src} != nil {{"));
            out.push(format!("{indent}\tin, out := &{src}, &{dst}"));
            out.push(format!("{indent}\t*out = new({})", inner.text()));
            if depth.deep(inner) {
                out.push(format!("{indent}\t(*in).DeepCopyInto(*out)"));
            } else {
                out.push(format!("{indent}\t**out = **in"));
            }
            out.push(format!("{indent}}}"));
        }
        other => {
            out.push(format!("{indent}if {src} != nil {{"));
            out.push(format!("{indent}\tin, out := &{src}, &{dst}"));
            copy_nested(other, depth, &format!("{indent}\t"), out);
            out.push(format!("{indent}}}"));
        }
    }
}

/// The Go module of API types in kubebuilder's layout, with deepcopy.
pub struct Go;

impl super::Language for Go {
    fn files(&self, packages: &[Package], o: &super::Options) -> Result<Vec<(String, String)>, ModelError> {
        let module = o.settings.go_module.clone().unwrap_or_else(|| format!("example.com/{}/api", o.project));
        let mut files = vec![("go.mod".to_string(), go_mod(&module, o.header)?)];
        for pkg in packages {
            files.extend(package_files(pkg, o.header, o.go_kubernetes_types)?);
        }
        Ok(files)
    }
}

/// The Go files of one group/version package, paths relative to the module root.
pub fn package_files(
    pkg: &Package,
    header: &str,
    kubernetes: GoKubernetesTypes,
) -> Result<Vec<(String, String)>, ModelError> {
    let header = super::slash_comment_header(header);
    let dir = &pkg.dir;
    let package = pkg.version.as_str();
    let mut files = Vec::new();
    let kinds: Vec<&str> = pkg.kinds.iter().map(|k| k.kind.as_str()).collect();
    files.push((
        format!("{dir}/groupversion_info.go"),
        render(
            &GroupVersionInfo { header: &header, package, group: &pkg.group, version: &pkg.version, kinds },
            "groupversion_info.go",
        )?,
    ));
    let mut all_structs: Vec<(String, Vec<GoField>, bool)> = Vec::new();
    let mut emitted = BTreeSet::new();
    let mut all_imports = BTreeSet::new();
    let mut uses_quantity = false;
    let mut uses_int64_or_string = false;
    // Kubernetes' types the package declares, each under the upstream clients' name.
    let declared = match kubernetes {
        GoKubernetesTypes::Upstream => BTreeMap::new(),
        GoKubernetesTypes::Declared => pkg.generated_kubernetes()?,
    };
    let kubernetes_names: BTreeMap<&str, String> = declared.iter().map(|(d, (n, _))| (*d, n.clone())).collect();
    let kubernetes_nodes: BTreeMap<String, &Node> = declared.values().map(|(n, node)| (n.clone(), *node)).collect();
    for kind in &pkg.kinds {
        let mut w = Writer {
            types: &pkg.types,
            open: &pkg.open,
            external: &pkg.external,
            kubernetes: &kubernetes_names,
            kubernetes_nodes: &kubernetes_nodes,
            imports: BTreeSet::new(),
            decls: Vec::new(),
            emitted: emitted.clone(),
            pending: Vec::new(),
            quantity: false,
            int64_or_string: false,
        };
        w.imports.insert("metav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"".into());
        let roots = root_decls(&mut w, kind).map_err(|e| ModelError(format!("{}: {e}", kind.type_path)))?;
        w.drain().map_err(|e| ModelError(format!("{}: {e}", kind.type_path)))?;
        emitted = w.emitted.clone();
        // The kind's own types first, in a stable order: root, list, then by name.
        let mut decls = roots;
        let mut rest: Vec<GoDecl> = w.decls;
        rest.sort_by(|a, b| a.name.cmp(&b.name));
        decls.extend(rest);
        for d in &decls {
            if let Some(fields) = &d.fields {
                let object = d.name == kind.kind || d.name == format!("{}List", kind.kind);
                all_structs.push((
                    d.name.clone(),
                    fields
                        .iter()
                        .map(|f| GoField {
                            doc: Vec::new(),
                            decl: String::new(),
                            ty: f.ty.clone(),
                            name: f.name.clone(),
                        })
                        .collect(),
                    object,
                ));
            }
        }
        all_imports.extend(w.imports.iter().cloned());
        uses_quantity |= w.quantity;
        uses_int64_or_string |= w.int64_or_string;
        let imports = sorted_imports(w.imports);
        files.push((
            format!("{dir}/{}_types.go", kind.kind.to_lowercase()),
            render(&TypesFile { header: &header, package, imports, types: decls }, "types")?,
        ));
    }
    if uses_quantity {
        let contents = render(
            &QuantityFile { header: &header, package, pattern: kubegen::schema::QUANTITY_PATTERN },
            "quantity.go",
        )?;
        let resource = GoTy::Struct { name: "resource.Quantity".into(), deep: true };
        let raw = GoTy::Slice(Box::new(GoTy::Value("byte".into())));
        let fields = vec![("Quantity", resource), ("raw", raw)];
        own_type(dir, QUANTITY, "quantity type", "quantity.go", contents, fields, &mut files, &mut all_structs)?;
        all_imports.insert(import_line("resource", "k8s.io/apimachinery/pkg/api/resource"));
    }
    if uses_int64_or_string {
        let contents = render(&Int64OrStringFile { header: &header, package }, "int64_or_string.go")?;
        let value = |ty: &str| GoTy::Value(ty.into());
        let fields = vec![("Type", value("intstr.Type")), ("IntVal", value("int64")), ("StrVal", value("string"))];
        let what = "int-or-string of an int64";
        own_type(dir, INT64_OR_STRING, what, "int64_or_string.go", contents, fields, &mut files, &mut all_structs)?;
    }
    all_structs.sort_by(|a, b| a.0.cmp(&b.0));
    // Which of our structs need a deep copy: those holding anything that does.
    let mut ours: BTreeMap<String, bool> = all_structs.iter().map(|(n, _, _)| (n.clone(), false)).collect();
    loop {
        let mut changed = false;
        for (name, fields, _) in &all_structs {
            let deep = fields.iter().any(|f| Depth { ours: &ours }.deep(&f.ty));
            if deep && !ours[name] {
                ours.insert(name.clone(), true);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let depth = Depth { ours: &ours };
    let funcs: Vec<DeepCopyFunc> = all_structs
        .iter()
        .map(|(name, fields, object)| {
            let mut body = vec!["*out = *in".to_string()];
            for f in fields {
                copy_field(f, &depth, &mut body);
            }
            DeepCopyFunc { name: name.clone(), body, object: *object }
        })
        .collect();
    // The packages the copies name (`new(corev1.PodSpec)`), and runtime for DeepCopyObject.
    let text: String = funcs.iter().flat_map(|f| f.body.iter()).cloned().collect::<Vec<_>>().join("\n");
    let mut imports: BTreeSet<String> =
        all_imports.into_iter().filter(|i| text.contains(&format!("{}.", import_alias(i)))).collect();
    imports.insert(import_line("runtime", "k8s.io/apimachinery/pkg/runtime"));
    let imports = sorted_imports(imports);
    files.push((
        format!("{dir}/zz_generated.deepcopy.go"),
        render(&DeepCopyFile { header: &header, package, imports, funcs }, "deepcopy")?,
    ));
    Ok(files)
}

/// `go.mod` of the module.
pub fn go_mod(module: &str, header: &str) -> Result<String, ModelError> {
    render(
        &GoMod {
            header: &super::slash_comment_header(header),
            module,
            k8s_version: kubegen::schema::K8S_MODULE_VERSION,
        },
        "go.mod",
    )
}

/// A node that refers to the named type of a kind's model (`root`).
/// The root type and its list, with the resource's markers from the kind's CRD.
fn root_decls(w: &mut Writer, kind: &KindModel) -> Result<Vec<GoDecl>> {
    let name = kind.kind.clone();
    let mut fields = vec![GoField {
        doc: Vec::new(),
        decl: "metav1.TypeMeta `json:\",inline\"`".into(),
        ty: GoTy::Struct { name: "metav1.TypeMeta".into(), deep: false },
        name: "TypeMeta".into(),
    }];
    let doc: Vec<String> = kind.root_description.lines().map(String::from).collect();
    match kind.style {
        Style::Spec => {
            fields.push(GoField {
                doc: Vec::new(),
                decl: "metav1.ObjectMeta `json:\"metadata,omitempty\"`".into(),
                ty: GoTy::Struct { name: "metav1.ObjectMeta".into(), deep: true },
                name: "ObjectMeta".into(),
            });
            fields.push(w.field(&name, "Spec", "spec", &kind.data.root, true)?);
        }
        _ => {
            // The root's own fields, beside TypeMeta; `metadata` is ObjectMeta, embedded.
            let root_name = kind.data.root.reference.clone().unwrap_or_default();
            let root = w.object(&root_name).cloned().unwrap_or_default();
            w.emitted.insert(root_name);
            // A spec-less kube-rs kind: the derive's root holds the metadata.
            if !root.properties.as_ref().is_some_and(|p| p.contains_key("metadata")) {
                fields.push(GoField {
                    doc: Vec::new(),
                    decl: "metav1.ObjectMeta `json:\"metadata,omitempty\"`".into(),
                    ty: GoTy::Struct { name: "metav1.ObjectMeta".into(), deep: true },
                    name: "ObjectMeta".into(),
                });
            }
            for field in w.fields(&name, &root)? {
                if field.name == "Metadata" {
                    fields.push(GoField {
                        doc: Vec::new(),
                        decl: "metav1.ObjectMeta `json:\"metadata,omitempty\"`".into(),
                        ty: GoTy::Struct { name: "metav1.ObjectMeta".into(), deep: true },
                        name: "ObjectMeta".into(),
                    });
                } else {
                    fields.push(field);
                }
            }
        }
    }
    if let Some(status) = &kind.status {
        fields.push(w.field(&name, "Status", "status", &status.root, false)?);
    }
    for field in &mut fields {
        field.doc.retain(|l| l != "+required" && l != "+optional" || !matches!(field.name.as_str(), "Spec" | "Status"));
    }
    let mut markers = vec!["+kubebuilder:object:root=true".to_string()];
    markers.extend(kind.resource_markers.iter().cloned());
    let list = GoDecl {
        name: format!("{name}List"),
        markers: vec!["+kubebuilder:object:root=true".into()],
        doc: vec![format!("{name}List contains a list of {name}.")],
        fields: Some(vec![
            GoField {
                doc: Vec::new(),
                decl: "metav1.TypeMeta `json:\",inline\"`".into(),
                ty: GoTy::Struct { name: "metav1.TypeMeta".into(), deep: false },
                name: "TypeMeta".into(),
            },
            GoField {
                doc: Vec::new(),
                decl: "metav1.ListMeta `json:\"metadata,omitempty\"`".into(),
                ty: GoTy::Struct { name: "metav1.ListMeta".into(), deep: true },
                name: "ListMeta".into(),
            },
            GoField {
                doc: Vec::new(),
                decl: format!("Items []{name} `json:\"items\"`"),
                ty: GoTy::Slice(Box::new(GoTy::Struct { name: name.clone(), deep: true })),
                name: "Items".into(),
            },
        ]),
        underlying: String::new(),
        methods: String::new(),
    };
    w.emitted.insert(name.clone());
    Ok(vec![
        GoDecl { name, markers, doc, fields: Some(fields), underlying: String::new(), methods: String::new() },
        list,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_names_become_go_field_names() {
        assert_eq!(go_name("deploymentName"), "DeploymentName");
        assert_eq!(go_name("habitat-name"), "HabitatName");
        assert_eq!(go_name("area_m2"), "AreaM2");
        assert_eq!(go_name("2d"), "X2d");
    }

    #[test]
    fn kubernetes_definitions_map_to_their_go_packages() {
        assert_eq!(
            k8s_import("io.k8s.api.core.v1.PodTemplateSpec"),
            Some(("k8s.io/api/core/v1".into(), "corev1".into(), "PodTemplateSpec".into()))
        );
        assert_eq!(
            k8s_import("io.k8s.apimachinery.pkg.apis.meta.v1.Condition"),
            Some(("k8s.io/apimachinery/pkg/apis/meta/v1".into(), "metav1".into(), "Condition".into()))
        );
        assert_eq!(
            import_line("intstr", "k8s.io/apimachinery/pkg/util/intstr"),
            "\"k8s.io/apimachinery/pkg/util/intstr\""
        );
        assert_eq!(import_alias("corev1 \"k8s.io/api/core/v1\""), "corev1");
    }

    /// Issue 28: found by a new user's trial, preserve_unknown_fields on a named-struct
    /// field: the Go struct of the named type dropped the keys the server keeps there on
    /// unmarshal. It keeps them now as a type that keeps them of its own does, and the
    /// marker stays on the field, so controller-gen still writes the type's other uses
    /// closed.
    #[test]
    fn a_named_type_under_a_field_s_preserve_unknown_fields_keeps_unknown_keys() {
        let pkg = crate::clients::tests::issue28_package();
        let files: BTreeMap<String, String> =
            package_files(&pkg, "", Default::default()).unwrap().into_iter().collect();
        let types = &files["api/v1/gadget_types.go"];
        let decl = |name: &str| {
            let start = types.find(&format!("\ntype {name} struct {{")).unwrap_or_else(|| panic!("{name}: {types}"));
            // The markers and doc comment above it (after the declaration before), the
            // struct, and its methods.
            let before = types[..start].rfind("\n}\n").unwrap_or(0);
            let end = start + 1 + types[start + 1..].find("\ntype ").unwrap_or(types.len() - start - 1);
            &types[before..end]
        };
        for open in ["Part", "Shared", "Target"] {
            let d = decl(open);
            assert!(d.contains("\tUnknown map[string]runtime.RawExtension `json:\"-\"`"), "{d}");
            assert!(d.contains(&format!("func (in *{open}) UnmarshalJSON(")), "{d}");
            assert!(d.contains(&format!("func (in {open}) MarshalJSON(")), "{d}");
            assert!(!d.contains("+kubebuilder:pruning:PreserveUnknownFields"), "{d}");
        }
        assert!(!decl("Closed").contains("Unknown"), "{}", decl("Closed"));
        let spec = decl("GadgetSpec");
        for field in ["Part Part `json:\"part\"`", "Shared *Shared `json:\"shared,omitempty\"`"] {
            let at = spec.find(field).unwrap_or_else(|| panic!("{field}: {spec}"));
            let comment = &spec[spec[..at].rfind("\t// +").expect("the field's markers")..at];
            assert!(comment.contains("+kubebuilder:pruning:PreserveUnknownFields"), "{field}: {comment}");
        }
        let closed = spec.find("ClosedShared *Shared").expect("closedShared");
        assert!(!spec[spec[..closed].rfind("\t// +").expect("markers")..closed].contains("PreserveUnknownFields"));
        // The deep copy copies the kept keys too.
        let deepcopy = &files["api/v1/zz_generated.deepcopy.go"];
        assert!(deepcopy.contains("func (in *Part) DeepCopyInto(out *Part) {"), "{deepcopy}");
        let part = &deepcopy[deepcopy.find("func (in *Part) DeepCopyInto").unwrap()..];
        assert!(part[..part.find("\n}").unwrap()].contains("in.Unknown"), "{part}");
    }

    /// Issue 28's client tiers: k8s.io/api's types drop an empty string or list the API
    /// server keeps in a custom resource, and resource.Quantity rewrites a quantity. By
    /// default the package declares them itself, as TypeScript and Python do; k8s.io/api's
    /// are an opt-in; the tiers run both forms (scripts/generated-clients.sh,
    /// scripts/objects-clients.sh).
    #[test]
    fn kubernetes_types_are_upstream_or_declared() {
        assert_eq!(GoKubernetesTypes::default(), GoKubernetesTypes::Declared);
        let pkg = crate::clients::tests::kubernetes_types_package();
        let files = |from| -> BTreeMap<String, String> { package_files(&pkg, "", from).unwrap().into_iter().collect() };
        let upstream = files(GoKubernetesTypes::Upstream);
        let types = &upstream["api/v1/runner_types.go"];
        assert!(types.contains("corev1 \"k8s.io/api/core/v1\""), "{types}");
        assert!(types.contains("Resources *corev1.ResourceRequirements `json:\"resources,omitempty\"`"), "{types}");
        assert!(!types.contains("type V1"), "{types}");

        let declared = files(GoKubernetesTypes::Declared);
        let types = &declared["api/v1/runner_types.go"];
        assert!(!types.contains("k8s.io/api/"), "{types}");
        assert!(types.contains("Resources *V1ResourceRequirements `json:\"resources,omitempty\"`"), "{types}");
        assert!(types.contains("Env []V1EnvVar `json:\"env,omitzero\"`"), "{types}");
        assert!(types.contains("\ntype V1ResourceRequirements struct {"), "{types}");
        assert!(types.contains("Limits map[string]Quantity `json:\"limits,omitzero\"`"), "{types}");
        // An optional string is a pointer and a list `omitzero`: `""` and `[]` are kept apart
        // from unset, as the server keeps them.
        assert!(types.contains("Value *string `json:\"value,omitempty\"`"), "{types}");
        assert!(declared.contains_key("api/v1/quantity.go"));
        let deepcopy = &declared["api/v1/zz_generated.deepcopy.go"];
        assert!(deepcopy.contains("func (in *V1EnvVar) DeepCopyInto(out *V1EnvVar) {"), "{deepcopy}");
        assert!(!deepcopy.contains("k8s.io/api/"), "{deepcopy}");
    }

    #[test]
    fn a_cel_rule_becomes_an_xvalidation_marker() {
        let rule = serde_json::json!({"rule": "self.a != ''", "message": "a is set", "reason": "FieldValueRequired"});
        assert_eq!(
            xvalidation(&rule),
            "+kubebuilder:validation:XValidation:rule=\"self.a != ''\",message=\"a is set\",reason=FieldValueRequired"
        );
    }
}
