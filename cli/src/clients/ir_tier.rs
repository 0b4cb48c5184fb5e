//! The IR-level generated tier (issue 28): thousands of universes of named types a run,
//! drawn by `kubegen_tests::ir_gen` and written as schemars writes them, through what runs
//! after schemars — the structural pass, markers, inlining, the CRD, `Validate` and the
//! Go, TypeScript and Python models — without compiling. Per case:
//!
//! - the CRD is structural (a type everywhere outside junctors unless int-or-string or
//!   open), holds no `$ref` and no kubegen key, and passes the offline checks `manifests`
//!   makes (`kubegen::crd::lint`: every default fits its own schema, list-map keys, CEL);
//! - the outputs are deterministic (a second run writes the same bytes);
//! - `Validate` accepts the kind's sample object (`config/samples/`' object);
//! - every client agrees with the CRD node by node: for every named struct, at every place
//!   the CRD inlines it, each language declares the same wire names, the same required
//!   ones, and keeps unknown keys where the CRD does.
//!
//! `KUBEGEN_SEED` picks the seed (7 when unset; printed), `KUBEGEN_IR_CASES` the number of
//! universes (2,000). A failure prints the universe shrunk to its smallest.

use std::collections::{BTreeMap, BTreeSet};

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kubegen::__private::{ResourceDef, RootTyped, build_kind};
use kubegen_core::kind::{KindRecord, Options};
use kubegen_core::schema::node::{Additional, Node, Step};
use kubegen_tests::cel_gen;
use kubegen_tests::ir_gen::{self, KIND, Universe};
use proptest::strategy::ValueTree;

use super::{Package, go, packages, python, typescript};

const DEF: ResourceDef = ResourceDef {
    group: "gen.kubegen.dev",
    version: "v1",
    kind: KIND,
    plural: "widgets",
    singular: "widget",
    short_names: &[],
    categories: &[],
    namespaced: true,
    status_subresource: false,
    scale: None,
    printer_columns: &[],
    selectable_fields: &[],
    served: true,
    storage: true,
    deprecated: false,
    deprecation_warning: None,
    annotations: &[],
    labels: &[],
    description: None,
};

/// The outputs judged.
const OUTPUTS: [&str; 6] = ["crd", "deterministic", "validate", "go", "typescript", "python"];

/// Everything one universe makes.
struct Made {
    crd: CustomResourceDefinition,
    model: BTreeMap<String, Node>,
    spec_root: Node,
    files: BTreeMap<&'static str, Vec<(String, String)>>,
}

fn make(u: &Universe) -> Result<Made, String> {
    let (root, defs) = u.schemars();
    let typed = kubegen::schema::typed_from(root, defs, &Options::default());
    let (crd, types) = build_kind(&DEF, RootTyped::Spec { spec: typed, status: None }, Vec::new());
    let data = types.data.clone().ok_or("no data model")?;
    let record = KindRecord {
        type_path: "gen::Widget".into(),
        source: "gen.rs:1".into(),
        skip_version: false,
        storage_marked: None,
        crd: crd.clone(),
        types,
    };
    let pkgs: Vec<Package> = packages(vec![record]).map_err(|e| format!("packages: {e:#}"))?;
    let mut files = BTreeMap::new();
    let mut go_files = Vec::new();
    for pkg in &pkgs {
        go_files.extend(go::package_files(pkg, "", Default::default()).map_err(|e| format!("go: {e}"))?);
    }
    files.insert("go", go_files);
    files.insert(
        "typescript",
        typescript::files(&pkgs, "gen-api", "0.1.0", "").map_err(|e| format!("typescript: {e}"))?,
    );
    files.insert("python", python::files(&pkgs, "gen_api", "0.1.0", "").map_err(|e| format!("python: {e}"))?);
    Ok(Made { crd, model: data.types, spec_root: data.root, files })
}

/// What went wrong with one universe, by output.
type Findings = BTreeMap<&'static str, Vec<String>>;

fn judge(u: &Universe) -> Findings {
    let mut out: Findings = BTreeMap::new();
    let made = match make(u) {
        Ok(made) => made,
        Err(e) => {
            out.entry("crd").or_default().push(e);
            return out;
        }
    };
    let crd_json = serde_json::to_string(&made.crd).unwrap_or_default();
    for key in ["\"$ref\"", "\"x-kubegen-", "\"$defs\""] {
        if crd_json.contains(key) {
            out.entry("crd").or_default().push(format!("the CRD holds {key}"));
        }
    }
    let schema = kubegen::crd::version_schema(&made.crd.spec.versions[0]).unwrap_or_default();
    schema.walk(&mut |path: &[Step<'_>], n: &Node| {
        if matches!(path.last(), Some(Step::AllOf(_) | Step::AnyOf(_) | Step::OneOf(_) | Step::Not)) {
            return false;
        }
        if n.type_.is_none() && n.int_or_string != Some(true) && n.preserve_unknown_fields != Some(true) {
            out.entry("crd").or_default().push(format!("{}: no type (not structural)", shown(path)));
        }
        true
    });
    out.entry("crd").or_default().extend(kubegen::crd::lint(&made.crd));

    match make(u) {
        Ok(again) => {
            let same = serde_json::to_string(&again.crd).unwrap_or_default() == crd_json
                && again.files == made.files
                && again.model == made.model;
            if !same {
                out.entry("deterministic").or_default().push("a second run wrote other bytes".into());
            }
        }
        Err(e) => out.entry("deterministic").or_default().push(e),
    }

    let sample = kubegen::crd::sample_object(&made.crd);
    if let Err(violations) = kubegen::validate::Validator::for_crd(&made.crd).validate(&sample, None) {
        out.entry("validate").or_default().push(format!("the sample {sample} is refused: {violations}"));
    }

    // Where the CRD inlines each named struct of the model.
    let spec = schema.properties.as_ref().and_then(|p| p.get("spec")).cloned().unwrap_or_default();
    let mut uses: Vec<(String, Node)> = Vec::new();
    let mut shape = Vec::new();
    pair(&spec, &made.spec_root, &made.model, "spec", &mut uses, &mut shape);
    if !shape.is_empty() {
        out.entry("crd").or_default().extend(shape.into_iter().map(|p| format!("model and CRD differ: {p}")));
    }
    for (lang, files) in &made.files {
        let text: String = files.iter().map(|(_, t)| t.as_str()).collect::<Vec<_>>().join("\n");
        // Per named struct: whether some use in the CRD keeps unknown keys, and whether the
        // client's type does.
        let mut open_somewhere: BTreeMap<String, (bool, bool)> = BTreeMap::new();
        // The model's named structs where the CRD inlines them, then the structs a
        // language declares for an object without a name of its own (a variant's fields).
        let mut pending: Vec<(String, Node, bool)> =
            uses.iter().map(|(n, node)| (n.clone(), node.clone(), true)).collect();
        let mut seen = BTreeSet::new();
        while let Some((name, node, named)) = pending.pop() {
            if !seen.insert((name.clone(), serde_json::to_string(&node).unwrap_or_default())) {
                continue;
            }
            let Some(decl) = declaration(lang, &text, &name) else {
                out.entry(lang).or_default().push(format!("{name}: not declared"));
                continue;
            };
            let wire: BTreeSet<String> = node.properties.iter().flatten().map(|(k, _)| k.clone()).collect();
            let required: BTreeSet<String> = node.required.iter().flatten().cloned().collect();
            if decl.fields != wire {
                out.entry(lang).or_default().push(format!("{name}: fields {:?}, the CRD's {wire:?}", decl.fields));
            }
            if decl.required != required {
                out.entry(lang)
                    .or_default()
                    .push(format!("{name}: required {:?}, the CRD's {required:?}", decl.required));
            }
            for (wire, prop) in node.properties.iter().flatten() {
                let mut inline = Vec::new();
                if let Some(ty) = decl.types.get(wire)
                    && let Err(why) = fits(lang, prop, ty, &made.model, &text, &mut inline)
                {
                    out.entry(lang).or_default().push(format!("{name}.{wire}: `{ty}` for {}: {why}", brief(prop)));
                }
                pending.extend(inline.into_iter().map(|(n, node)| (n, node, false)));
            }
            let open = node.preserve_unknown_fields == Some(true);
            if open && !decl.open {
                out.entry(lang).or_default().push(format!("{name}: the CRD keeps unknown keys, the client drops them"));
            }
            if named {
                let (crd, client) = open_somewhere.entry(name).or_default();
                (*crd, *client) = (*crd || open, decl.open);
            }
        }
        for (name, (open, client_open)) in open_somewhere {
            if !open && client_open {
                out.entry(lang).or_default().push(format!("{name}: keeps unknown keys though no use in the CRD does"));
            }
        }
    }
    out.retain(|_, v| !v.is_empty());
    out
}

/// Walks the CRD's node and the model's together, recording where each named struct is
/// inlined and every place the two disagree.
fn pair(
    crd: &Node,
    model: &Node,
    types: &BTreeMap<String, Node>,
    path: &str,
    uses: &mut Vec<(String, Node)>,
    problems: &mut Vec<String>,
) {
    if let Some(name) = &model.reference {
        if let Some(def) = types.get(name) {
            if def.properties.is_some() {
                uses.push((name.clone(), crd.clone()));
            }
            pair(crd, def, types, path, uses, problems);
        }
        return;
    }
    if let Some(props) = &model.properties {
        let theirs = crd.properties.clone().unwrap_or_default();
        for (k, m) in props {
            match theirs.get(k) {
                Some(c) => pair(c, m, types, &format!("{path}.{k}"), uses, problems),
                None => problems.push(format!("{path}.{k}: in the model, not in the CRD")),
            }
        }
        for k in theirs.keys().filter(|k| !props.contains_key(*k)) {
            problems.push(format!("{path}.{k}: in the CRD, not in the model"));
        }
    }
    match (&model.items, &crd.items) {
        (Some(m), Some(c)) => pair(c, m, types, &format!("{path}[]"), uses, problems),
        (Some(_), None) | (None, Some(_)) => problems.push(format!("{path}: items in one only")),
        _ => {}
    }
    if let (Some(Additional::Schema(m)), Some(Additional::Schema(c))) =
        (&model.additional_properties, &crd.additional_properties)
    {
        pair(c, m, types, &format!("{path}.*"), uses, problems);
    }
}

fn shown(path: &[Step<'_>]) -> String {
    path.iter()
        .map(|s| match s {
            Step::Property(p) => format!(".{p}"),
            Step::Items => "[]".into(),
            Step::AdditionalProperties => ".*".into(),
            other => format!("{other:?}"),
        })
        .collect()
}

/// A named struct as one language declares it.
#[derive(Debug, Default)]
struct Decl {
    fields: BTreeSet<String>,
    /// Each field's type as written.
    types: BTreeMap<String, String>,
    required: BTreeSet<String>,
    open: bool,
}

fn declaration(lang: &str, text: &str, name: &str) -> Option<Decl> {
    match lang {
        "go" => go_decl(text, name),
        "typescript" => ts_decl(text, name),
        _ => py_decl(text, name),
    }
}

/// `type Name struct { ... }`: wire names from the json tags, required without `omit*`;
/// open with the JSON methods that keep unknown keys.
fn go_decl(text: &str, name: &str) -> Option<Decl> {
    let start = text.find(&format!("\ntype {name} struct {{\n"))?;
    let body = &text[start..];
    let body = &body[..body.find("\n}\n")?];
    let mut decl = Decl::default();
    for line in body.lines() {
        let Some(tag) = line.split("`json:\"").nth(1) else { continue };
        let tag = &tag[..tag.find('"')?];
        let mut parts = tag.split(',');
        let wire = parts.next().unwrap_or_default();
        if wire == "-" || wire.is_empty() {
            continue;
        }
        let omits = parts.any(|p| p == "omitempty" || p == "omitzero");
        let ty = line.trim_start().split_once(' ').map_or("", |(_, rest)| rest);
        decl.types.insert(wire.to_string(), ty[..ty.find(" `json:").unwrap_or(ty.len())].to_string());
        decl.fields.insert(wire.to_string());
        if !omits {
            decl.required.insert(wire.to_string());
        }
    }
    decl.open = text.contains(&format!("func (in *{name}) UnmarshalJSON("));
    Some(decl)
}

/// `interface Name { ... }`: members at the first indent, `?:` optional, an index
/// signature open.
fn ts_decl(text: &str, name: &str) -> Option<Decl> {
    let start = text.find(&format!("interface {name} {{\n"))?;
    let body = &text[start..];
    let body = &body[..body.find("\n}")?];
    let mut decl = Decl::default();
    for line in body.lines().skip(1) {
        let Some(member) = line.strip_prefix("  ").filter(|m| !m.starts_with(' ')) else { continue };
        if member.starts_with("/**") || member.starts_with('*') {
            continue;
        }
        if member.starts_with("[key: string]") {
            decl.open = true;
            continue;
        }
        let Some(colon) = member.find(':') else { continue };
        let (key, optional) = match member[..colon].strip_suffix('?') {
            Some(k) => (k, true),
            None => (&member[..colon], false),
        };
        let key = key.trim_matches('"').to_string();
        decl.types.insert(key.clone(), member[colon + 1..].trim().trim_end_matches(';').to_string());
        if !optional {
            decl.required.insert(key.clone());
        }
        decl.fields.insert(key);
    }
    Some(decl)
}

/// `class Name(_pd.BaseModel):`: fields by alias, required without a default; open with
/// `extra="allow"`.
fn py_decl(text: &str, name: &str) -> Option<Decl> {
    let start = text.find(&format!("\nclass {name}(_pd.BaseModel):\n"))?;
    let body = &text[start + 1..];
    let end = body[1..].find("\nclass ").map(|e| e + 1).unwrap_or(body.len());
    let mut decl = Decl::default();
    for line in body[..end].lines().skip(1) {
        let Some(member) = line.strip_prefix("    ").filter(|m| !m.starts_with(' ')) else { continue };
        if member.starts_with("model_config") {
            decl.open = member.contains("extra=\"allow\"");
            continue;
        }
        let Some(field) = member.rfind(" = _pd.Field(") else { continue };
        let args = &member[field..];
        let Some(alias) = args.split("alias=\"").nth(1) else { continue };
        let wire = alias[..alias.find('"')?].to_string();
        let ty = member[..field].split_once(": ").map_or("", |(_, ty)| ty);
        decl.types.insert(wire.clone(), ty.to_string());
        if !args.contains("default=") && !args.contains("default_factory=") {
            decl.required.insert(wire.clone());
        }
        decl.fields.insert(wire);
    }
    Some(decl)
}

/// A CRD node in a few words, for a finding.
fn brief(node: &Node) -> String {
    let mut v = node.clone();
    v.description = None;
    v.properties = None;
    v.validations = None;
    serde_json::to_string(&v).unwrap_or_default()
}

/// `text` without its outer `open`…`close` wrapper, if it has it.
fn inside<'t>(text: &'t str, open: &str, close: &str) -> Option<&'t str> {
    text.strip_prefix(open)?.strip_suffix(close)
}

/// The first argument of a bracketed list (`X` of `X, _pd.Field(...)`), brackets counted.
fn first_argument(text: &str) -> &str {
    let mut depth = 0i32;
    for (i, c) in text.char_indices() {
        match c {
            '[' | '(' | '<' | '{' => depth += 1,
            ']' | ')' | '>' | '}' => depth -= 1,
            ',' if depth == 0 => return &text[..i],
            _ => {}
        }
    }
    text
}

/// Whether a language's type `text` holds the values of the CRD's `node`, the null of a
/// nullable node included: the same shape level by level (lists, maps, named structs,
/// scalars), a named type judged by its model.
fn fits(
    lang: &str,
    node: &Node,
    text: &str,
    types: &BTreeMap<String, Node>,
    files: &str,
    inline: &mut Vec<(String, Node)>,
) -> Result<(), String> {
    let mut text = text.trim();
    let mut null = false;
    match lang {
        "go" => {
            if let Some(t) = text.strip_prefix('*') {
                (text, null) = (t, true);
            }
            null |= text.starts_with("[]") || text.starts_with("map[") || text == "runtime.RawExtension";
        }
        "typescript" => {
            if let Some(t) = text.strip_suffix(" | null") {
                (text, null) = (t, true);
            }
            null |= text == "unknown";
        }
        _ => {
            if let Some(t) = inside(text, "_t.Optional[", "]") {
                (text, null) = (t, true);
            }
            if let Some(t) = inside(text, "_t.Annotated[", "]") {
                text = first_argument(t).trim();
            }
            null |= text == "_t.Any";
        }
    }
    if node.nullable == Some(true) && !null {
        return Err(format!("the CRD takes null there, `{text}` does not"));
    }
    // A named type of the model: its own node's shape.
    if let Some(def) = types.get(text) {
        return match (kubegen_shape(def), kubegen_shape(node)) {
            (a, b) if a == b => Ok(()),
            (a, b) => Err(format!("the named type is {a}, the CRD node {b}")),
        };
    }
    let expected = kubegen_shape(node);
    if expected == "struct" {
        // A struct the language declares for this object (judged like the model's), a
        // Kubernetes type (qualified or imported), or TypeScript's inline object literal.
        if declaration(lang, files, text).is_some() {
            inline.push((text.to_string(), node.clone()));
            return Ok(());
        }
        let external = text.contains('.') || (lang == "typescript" && text.starts_with("V1"));
        return if external || (lang == "typescript" && text == "{") {
            Ok(())
        } else {
            Err(format!("`{text}` is no struct the client declares"))
        };
    }
    // A list's or map's type: the language's wrapper around its items' or values' type.
    let wrapper = match (expected, lang) {
        ("list", "go") => Some(("[]", "")),
        ("list", "typescript") => Some(("Array<", ">")),
        ("list", _) => Some(("list[", "]")),
        ("map", "go") => Some(("map[string]", "")),
        ("map", "typescript") => Some(("Record<string, ", ">")),
        ("map", _) => Some(("dict[str, ", "]")),
        _ => None,
    };
    if let Some((open, close)) = wrapper {
        let inner = if expected == "list" { node.items.as_deref() } else { node.map_values() };
        return match inside(text, open, close) {
            Some(t) => fits(lang, inner.unwrap_or(&Node::default()), t, types, files, inline),
            None => Err(format!("not a {expected} (`{open}...{close}`)")),
        };
    }
    let ok = match (expected, lang) {
        ("string", "go") => matches!(text, "string" | "[]byte" | "metav1.Time"),
        ("string", "typescript") => text == "string" || text.starts_with('"'),
        ("string", _) => matches!(text, "_pd.StrictStr" | "_DateTime") || text.starts_with("_t.Literal["),
        ("integer", "go") => matches!(text, "int" | "int32" | "int64"),
        ("integer" | "number", "typescript") => {
            text == "number" || text.chars().next().is_some_and(|c| c == '-' || c.is_ascii_digit())
        }
        ("integer", _) => {
            // `_Int32` holds what the CRD's bounds for the format hold (formats::range).
            let int32 = node.format.as_deref() == Some("int32");
            text == "_pd.StrictInt" || (int32 && text == "_Int32") || text.starts_with("_t.Literal[")
        }
        ("number", "go") => text == "float64",
        ("number", _) => text == "_pd.StrictFloat" || text.starts_with("_t.Literal["),
        ("boolean", "go") => text == "bool",
        ("boolean", "typescript") => text == "boolean",
        ("boolean", _) => text == "_pd.StrictBool",
        ("int-or-string", "go") => {
            matches!(text, "intstr.IntOrString" | "Int64OrString" | "Quantity" | "resource.Quantity")
        }
        ("int-or-string", "typescript") => text == "number | string",
        ("int-or-string", _) => {
            text == "_Quantity"
                || ((text.contains("StrictInt") || text.contains("_Int32")) && text.contains("StrictStr"))
        }
        ("any" | "open object", "go") => text == "runtime.RawExtension",
        ("any", "typescript") => text == "unknown",
        ("open object", "typescript") => text == "Record<string, unknown>",
        ("any", _) => text == "_t.Any",
        ("open object", _) => text == "dict[str, _t.Any]",
        _ => false,
    };
    if ok { Ok(()) } else { Err(format!("not a {expected}")) }
}

/// The shape of a CRD node (or a model's named type) in words.
fn kubegen_shape(node: &Node) -> &'static str {
    use super::shape::{Shape, shape};
    match shape(node) {
        Shape::Named(_) | Shape::Struct | Shape::Empty => "struct",
        Shape::Kubernetes { .. } => "kubernetes type",
        Shape::IntOrString => "int-or-string",
        Shape::String { .. } => "string",
        Shape::Integer { .. } => "integer",
        Shape::Number { .. } => "number",
        Shape::Boolean => "boolean",
        Shape::List(_) => "list",
        Shape::Map(_) => "map",
        Shape::Open => "open object",
        Shape::Any => "any",
    }
}

fn seed() -> u64 {
    std::env::var("KUBEGEN_SEED").ok().and_then(|s| s.trim().parse().ok()).unwrap_or(7)
}

fn cases() -> usize {
    std::env::var("KUBEGEN_IR_CASES").ok().and_then(|s| s.trim().parse().ok()).unwrap_or(2000)
}

/// Shrinks a failing universe while `output` still fails on it.
fn shrink(tree: &mut impl ValueTree<Value = Universe>, output: &str) -> Universe {
    let fails = |u: &Universe| judge(u).contains_key(output);
    let mut smallest = tree.current();
    let mut steps = 0;
    if !tree.simplify() {
        return smallest;
    }
    while steps < 2000 {
        steps += 1;
        let candidate = tree.current();
        if fails(&candidate) {
            smallest = candidate;
            if !tree.simplify() {
                break;
            }
        } else if !tree.complicate() {
            break;
        }
    }
    smallest
}

#[test]
fn generated_universes_agree_across_every_output() {
    let (seed, n) = (seed(), cases());
    println!("IR tier: seed {seed} (KUBEGEN_SEED), {n} universes (KUBEGEN_IR_CASES)");
    let strategy = ir_gen::universe();
    let mut trees = cel_gen::draw(&strategy, seed, n);
    let mut failed: BTreeMap<&'static str, Vec<usize>> = BTreeMap::new();
    let (mut types, mut fields) = (0, 0);
    for (i, tree) in trees.iter().enumerate() {
        let u = tree.current();
        types += u.types.len();
        fields += u.types.iter().map(|t| t.fields.len()).sum::<usize>();
        for output in judge(&u).into_keys() {
            failed.entry(output).or_default().push(i);
        }
    }
    println!("  {n} universes, {types} named types, {fields} fields");
    // `KUBEGEN_IR_DUMP=<case>` writes that case's CRD and clients to target/ir-tier/<case>.
    if let Some(case) = std::env::var("KUBEGEN_IR_DUMP").ok().and_then(|c| c.parse::<usize>().ok())
        && let Ok(made) = make(&trees[case].current())
    {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../target/ir-tier/{case}"));
        let yaml = kubegen::to_yaml(&made.crd).unwrap_or_default();
        let universe = format!("{:#?}\n", trees[case].current());
        let extra = [("crd.yaml".to_string(), yaml), ("universe.txt".to_string(), universe)];
        for (path, text) in made.files.values().flatten().chain(&extra) {
            let path = dir.join(path);
            std::fs::create_dir_all(path.parent().unwrap_or(&dir)).expect("a dump directory");
            std::fs::write(&path, text).expect("a dump file");
        }
        println!("  case {case} written to {}", dir.display());
    }
    for output in OUTPUTS {
        let bad = failed.get(output).map_or(0, Vec::len);
        println!("  {output}: {}/{n} agree", n - bad);
    }
    // Each output's first finding, before the shrink of the first.
    for (output, cases) in &failed {
        let findings = judge(&trees[cases[0]].current());
        println!("  {output}, case {}: {:?}", cases[0], findings.get(output));
    }
    if let Some((output, cases)) = failed.iter().next() {
        let first = cases[0];
        let smallest = shrink(&mut trees[first], output);
        let findings = judge(&smallest);
        let (root, defs) = smallest.schemars();
        panic!(
            "seed {seed}: {output} fails on {} of {n} universes (first: case {first}); shrunk to\n{smallest:#?}\nschemars input: {}\n{}\nfindings: {findings:#?}",
            cases.len(),
            root,
            serde_json::to_string_pretty(&defs).unwrap_or_default()
        );
    }
}
