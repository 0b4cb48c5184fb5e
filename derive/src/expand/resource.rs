//! `#[derive(CustomResource)]`: the resource model (parsed, then checked), then the root
//! type, `kube::Resource`, `CustomResourceExt` and the registration for `codegen-cli`.

use crate::markers::registry::{Key, Sub};
use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields};

use crate::errors::Errors;
use crate::markers::registry::Target;
use crate::markers::{Marker, MarkerValue, Parsed};
use crate::serde_attrs;
use kubegen_core::plural::pluralize;

/// Where the object's data sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    /// kube-rs style: the derive is on the spec; the root is generated.
    Spec,
    /// Go style: the derive is on the root, which has `metadata`.
    Root,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SchemaMode {
    Derived,
    Manual,
    Disabled,
}

struct PrinterColumn {
    name: String,
    type_: String,
    json_path: String,
    description: Option<String>,
    format: Option<String>,
    priority: Option<i64>,
}

struct Scale {
    spec: String,
    status: String,
    selector: Option<String>,
}

/// The resource as its markers describe it, before any code is generated.
struct Resource {
    group: String,
    version: String,
    kind: String,
    plural: String,
    singular: String,
    short_names: Vec<String>,
    categories: Vec<String>,
    namespaced: bool,
    root_name: syn::Ident,
    status: Option<syn::Path>,
    status_subresource: bool,
    scale: Option<Scale>,
    printer_columns: Vec<PrinterColumn>,
    selectable: Vec<String>,
    served: bool,
    storage: bool,
    storage_marked: Option<bool>,
    deprecated: bool,
    deprecation_warning: Option<String>,
    annotations: Vec<(String, String)>,
    labels: Vec<(String, String)>,
    doc: Option<String>,
    schema: SchemaMode,
    no_spec: bool,
    derives: Vec<syn::Path>,
    attrs: Vec<TokenStream>,
    root_rules: Vec<kubegen_core::schema::markers::Rule>,
    root_rule_exprs: Vec<syn::Expr>,
    skip_version: bool,
}

fn s(m: &Marker) -> String {
    m.str().unwrap_or_default().to_string()
}

fn field_str(m: &Marker, key: Sub) -> Option<String> {
    m.named().and_then(|n| n.str(key)).map(String::from)
}

fn field_strs(m: &Marker, key: Sub) -> Vec<String> {
    m.named().map(|n| n.strs(key).to_vec()).unwrap_or_default()
}

/// The wire names of a struct's fields, or `None` when a flattened field hides some.
fn wire_fields(input: &DeriveInput) -> Option<Vec<String>> {
    let Data::Struct(s) = &input.data else { return None };
    let Fields::Named(named) = &s.fields else { return None };
    let rename_all = serde_attrs::value(&input.attrs, "rename_all");
    let mut out = Vec::new();
    for f in &named.named {
        if serde_attrs::has(&f.attrs, "flatten") {
            return None;
        }
        if serde_attrs::has(&f.attrs, "skip") || serde_attrs::has(&f.attrs, "skip_deserializing") {
            continue;
        }
        let ident = f.ident.as_ref()?;
        out.push(serde_attrs::field_name(ident, &f.attrs, rename_all.as_deref()));
    }
    Some(out)
}

fn has_field(input: &DeriveInput, name: &str) -> bool {
    match &input.data {
        Data::Struct(s) => s.fields.iter().any(|f| f.ident.as_ref().is_some_and(|i| i == name)),
        _ => false,
    }
}

const COLUMN_TYPES: &[&str] = &["integer", "number", "string", "boolean", "date"];
const COLUMN_FORMATS: &[&str] = &["int32", "int64", "float", "double", "byte", "date", "date-time", "password"];

/// The resource its markers describe, checked: each part read by its own function below.
fn build(input: &DeriveInput, parsed: &Parsed, style: Style, errors: &mut Errors) -> Option<Resource> {
    let (group, version, kind) = gvk(input, parsed, style, errors)?;
    if style == Style::Root {
        root_keys_refused(input, parsed, &kind, errors);
    }
    let whole = input.ident.span();
    let (plural, singular, short_names, categories, namespaced) = kind_names(parsed, &kind, whole, errors);
    let (root_name, status, status_subresource) = root_and_status(input, parsed, style, &kind, errors);
    let fields = wire_fields(input);
    // With `no_spec` the spec's fields sit at the top level, as in a root.
    let layout = if parsed.get(Key::NoSpec).is_some_and(Marker::flag) { Style::Root } else { style };
    let at = Paths { layout, fields: &fields };
    let printer_columns = printer_columns(parsed, &at, errors);
    let scale = scale(input, parsed, &at, &kind, errors);
    let selectable = selectable(parsed, &at, errors);
    let (served, storage, storage_marked, deprecated, deprecation_warning) = versions(parsed);
    let (annotations, labels) = metadata(parsed, &group, whole, errors);
    let schema = schema_mode(parsed, whole, errors);
    let (derives, attrs) = root_extras(parsed, errors);
    let (root_rules, root_rule_exprs) = root_rules(parsed, errors);
    Some(Resource {
        group,
        version,
        kind,
        plural,
        singular,
        short_names,
        categories,
        namespaced,
        root_name,
        status,
        status_subresource,
        scale,
        printer_columns,
        selectable,
        served,
        storage,
        storage_marked,
        deprecated,
        deprecation_warning,
        annotations,
        labels,
        doc: parsed.get(Key::Doc).map(s),
        schema,
        no_spec: parsed.get(Key::NoSpec).is_some_and(Marker::flag),
        derives,
        attrs,
        root_rules,
        root_rule_exprs,
        skip_version: parsed.get(Key::SkipVersion).is_some_and(Marker::flag),
    })
}

/// Where a marker's JSON path is checked against: the object's layout and the fields the
/// derive sees.
struct Paths<'a> {
    layout: Style,
    fields: &'a Option<Vec<String>>,
}

impl Paths<'_> {
    /// Checks a JSON path's first segments against what the derive can see: the root's own
    /// fields and, for the generated root, the spec's fields.
    fn check(&self, path: &str, what: &str, span: Span, errors: &mut Errors) {
        let (style, fields) = (self.layout, self.fields);
        let Some(rest) = path.strip_prefix('.') else {
            errors.push(span, format!("{what} `{path}` must start with `.`, like `.spec.replicas`"));
            return;
        };
        if let Err(problem) = crate::json_path::syntax(path) {
            errors.push(
                span,
                format!("{what} `{path}` is not a JSONPath kubectl can read ({problem}); write it like `.spec.replicas` or `.status.conditions[0].type`"),
            );
            return;
        }
        let mut segments = rest.split(['.', '[']);
        let first = segments.next().unwrap_or_default();
        match style {
            Style::Spec => match first {
                "metadata" | "apiVersion" | "kind" | "status" => {}
                "spec" => {
                    if let (Some(fields), Some(second)) = (fields, segments.next())
                        && !second.is_empty() && !fields.iter().any(|f| f == second) {
                            errors.push(span, format!("{what} `{path}` names no field of the spec: it has {}", fields.join(", ")));
                        }
                }
                other => errors.push(
                    span,
                    format!("{what} `{path}` names `.{other}`, which the object does not have; paths start with `.spec`, `.status` or `.metadata`"),
                ),
            },
            Style::Root => {
                if let Some(fields) = fields
                    && !matches!(first, "metadata" | "apiVersion" | "kind") && !fields.iter().any(|f| f == first) {
                        errors.push(span, format!("{what} `{path}` names no field of the object: it has {}", fields.join(", ")));
                    }
            }
        }
    }
}

/// Group, version and kind: each from its marker, the package's `//!` doc or (a root's
/// kind) the type's name; those missing reported together.
fn gvk(input: &DeriveInput, parsed: &Parsed, style: Style, errors: &mut Errors) -> Option<(String, String, String)> {
    let whole = input.ident.span();
    let mut missing = Vec::new();
    let mut required = |key: Key| match parsed.get(key) {
        Some(m) => Some(s(m)),
        None => {
            if !parsed.failed.contains(&key) {
                missing.push(key.to_string());
            }
            None
        }
    };
    // controller-gen reads `+groupName=` (and `+versionName=`) from the package's doc;
    // here, from the `//!` doc of the type's file or of the `mod.rs` beside it.
    let package = crate::package::package_markers(&input.ident);
    let mut from_package = |key: Key, marker: Option<String>| match (parsed.get(key), marker) {
        (None, Some(value)) if !parsed.failed.contains(&key) => Some(value),
        _ => required(key),
    };
    let group = from_package(Key::Group, package.group);
    let version = from_package(Key::Version, package.version);
    // A root struct (style 2) is the kind, as controller-gen names a Go root type.
    let kind = match style {
        Style::Root if parsed.get(Key::Kind).is_none() && !parsed.failed.contains(&Key::Kind) => {
            Some(input.ident.to_string())
        }
        _ => required(Key::Kind),
    };
    if !missing.is_empty() {
        // (A key whose value did not parse is reported there, not as missing.)
        errors.push(
            whole,
            format!(
                "#[derive(CustomResource)] needs {}: write #[kube(group = \"example.com\", version = \"v1\", kind = \"{}\")] (group and version may also come from `//! +groupName=example.com` and `//! +versionName=v1` in the module's doc, and the version from a module path such as `api/v1/`)",
                missing.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", "),
                input.ident.to_string().trim_end_matches("Spec")
            ),
        );
    }
    Some((group?, version?, kind?))
}

/// The keys that only apply when the derive generates a root around a spec, refused on a
/// root type.
fn root_keys_refused(input: &DeriveInput, parsed: &Parsed, kind: &str, errors: &mut Errors) {
    for key in [Key::Status, Key::Root, Key::NoSpec, Key::Derive, Key::Attr] {
        if let Some(m) = parsed.get(key) {
            errors.push(
                m.span,
                format!(
                    "`{}` has a `metadata` field, so it is the root object itself; `{key}` only applies when the derive generates a root around a spec. Either drop `metadata` (the derive then generates `{kind}` with `spec`), or declare the root's fields yourself{}",
                    input.ident,
                    if key == Key::Status { " (`pub status: Option<...>` with `+kubebuilder:subresource:status`)" } else { "" }
                ),
            );
        }
    }
}

/// Plural, singular, short names, categories and scope.
fn kind_names(
    parsed: &Parsed,
    kind: &str,
    whole: Span,
    errors: &mut Errors,
) -> (String, String, Vec<String>, Vec<String>, bool) {
    let resource = parsed.get(Key::Resource);
    let plural = parsed
        .get(Key::Plural)
        .map(s)
        .or_else(|| resource.and_then(|r| field_str(r, Sub::Path)))
        .unwrap_or_else(|| pluralize(&kind.to_lowercase()));
    let singular = parsed
        .get(Key::Singular)
        .map(s)
        .or_else(|| resource.and_then(|r| field_str(r, Sub::Singular)))
        .unwrap_or_else(|| kind.to_lowercase());
    let mut short_names: Vec<String> = parsed.all(Key::Shortname).map(s).collect();
    short_names.extend(resource.map(|r| field_strs(r, Sub::ShortName)).unwrap_or_default());
    let mut categories: Vec<String> = parsed.all(Key::Category).map(s).collect();
    categories.extend(resource.map(|r| field_strs(r, Sub::Categories)).unwrap_or_default());

    let mut namespaced = true;
    if let Some(scope) = resource.and_then(|r| field_str(r, Sub::Scope)) {
        match scope.as_str() {
            "Namespaced" => namespaced = true,
            "Cluster" => namespaced = false,
            other => errors
                .push(resource.map_or(whole, |r| r.span), format!("scope is `Namespaced` or `Cluster`, not `{other}`")),
        }
    }
    if let Some(m) = parsed.get(Key::Namespaced) {
        namespaced = m.flag();
    }

    (plural, singular, short_names, categories, namespaced)
}

/// The generated root's name and the status type, with whether the status subresource is on.
fn root_and_status(
    input: &DeriveInput,
    parsed: &Parsed,
    style: Style,
    kind: &str,
    errors: &mut Errors,
) -> (syn::Ident, Option<syn::Path>, bool) {
    let whole = input.ident.span();
    let root_name = match parsed.get(Key::Root) {
        Some(m) => syn::Ident::new(&s(m), m.span),
        None => syn::Ident::new(kind, Span::call_site()),
    };
    if style == Style::Spec && root_name == input.ident {
        errors.push(
            whole,
            format!("the derive generates a root type named `{kind}`, the name of this struct; name the spec `{kind}Spec`, or add a `metadata: ObjectMeta` field to make this struct the root"),
        );
    }

    let status = match parsed.get(Key::Status) {
        Some(m) => match syn::parse_str::<syn::Path>(&s(m)) {
            Ok(p) => Some(p),
            Err(_) => {
                errors.push(m.span, format!("status = \"{}\" is not a type path; write status = \"FooStatus\"", s(m)));
                None
            }
        },
        None => None,
    };
    let status_subresource = status.is_some() || parsed.get(Key::StatusSubresource).is_some_and(Marker::flag);
    // `+kubebuilder:subresource:status` on a root without a `status` field is what older
    // Go APIs do; controller-gen writes `subresources: {status: {}}` for it, and so do we.

    (root_name, status, status_subresource)
}

/// `printcolumn`s, their types, formats, paths and priorities checked.
fn printer_columns(parsed: &Parsed, at: &Paths, errors: &mut Errors) -> Vec<PrinterColumn> {
    let mut printer_columns = Vec::new();
    for m in parsed.all(Key::Printcolumn) {
        let type_ = field_str(m, Sub::Type).unwrap_or_default();
        if !COLUMN_TYPES.contains(&type_.as_str()) {
            errors.push(
                m.span,
                format!(
                    "printer column type `{type_}` is not one the API server knows; use one of {}",
                    COLUMN_TYPES.join(", ")
                ),
            );
        }
        let format = field_str(m, Sub::Format);
        if let Some(f) = &format
            && !COLUMN_FORMATS.contains(&f.as_str())
        {
            errors.push(
                m.span,
                format!(
                    "printer column format `{f}` is not one the API server knows; use one of {}",
                    COLUMN_FORMATS.join(", ")
                ),
            );
        }
        let json_path = field_str(m, Sub::JsonPath).unwrap_or_default();
        at.check(&json_path, "printer column path", m.span, errors);
        let priority = m.named().and_then(|n| n.int(Sub::Priority));
        if priority.is_some_and(|p| p < 0 || p > i64::from(i32::MAX)) {
            errors.push(
                m.span,
                "printer column priority is 0 (shown by default) or a positive number (shown with `-o wide`)",
            );
        }
        printer_columns.push(PrinterColumn {
            name: field_str(m, Sub::Name).unwrap_or_default(),
            type_,
            json_path,
            description: field_str(m, Sub::Description),
            format,
            priority,
        });
    }

    printer_columns
}

/// The scale subresource, its paths checked against the spec and the status.
fn scale(input: &DeriveInput, parsed: &Parsed, at: &Paths, kind: &str, errors: &mut Errors) -> Option<Scale> {
    let layout = at.layout;
    parsed.get(Key::Scale).map(|m| {
        let spec = field_str(m, Sub::SpecReplicasPath).unwrap_or_default();
        let status = field_str(m, Sub::StatusReplicasPath).unwrap_or_default();
        let selector = field_str(m, Sub::LabelSelectorPath);
        if !spec.starts_with(".spec.") {
            errors.push(m.span, format!("the scale subresource's spec replicas path `{spec}` must lie under `.spec`, like `.spec.replicas`"));
        }
        if !status.starts_with(".status.") {
            errors.push(m.span, format!("the scale subresource's status replicas path `{status}` must lie under `.status`, like `.status.replicas`"));
        } else if (layout == Style::Spec && parsed.get(Key::Status).is_none())
            || (layout == Style::Root && !has_field(input, "status"))
        {
            let fix = match layout {
                Style::Spec => format!("give the kind a status: `#[kube(status = \"{}Status\")]`", kind),
                Style::Root => "add a `pub status: Option<...>` field".to_string(),
            };
            errors.push(m.span, format!("the scale subresource's status replicas path `{status}` reads the status, and `{kind}` has none: {fix}"));
        } else {
            at.check(&status, "scale status replicas path", m.span, errors);
        }
        if let Some(sel) = &selector
            && !sel.starts_with(".status.") && !sel.starts_with(".spec.") {
                errors.push(m.span, format!("the scale subresource's label selector path `{sel}` must lie under `.spec` or `.status`"));
            }
        if spec.starts_with(".spec.") {
            at.check(&spec, "scale spec replicas path", m.span, errors);
        }
        Scale { spec, status, selector }
    })
}

/// Selectable fields' paths.
fn selectable(parsed: &Parsed, at: &Paths, errors: &mut Errors) -> Vec<String> {
    let mut selectable = Vec::new();
    for m in parsed.all(Key::Selectable) {
        let path = field_str(m, Sub::JsonPath).unwrap_or_default();
        at.check(&path, "selectable field", m.span, errors);
        selectable.push(path);
    }

    selectable
}

/// Served, storage (and whether it was marked), deprecated and its warning.
fn versions(parsed: &Parsed) -> (bool, bool, Option<bool>, bool, Option<String>) {
    // Unset means "storage" for a kind with one version (kube-derive's default); among
    // several versions `codegen-cli` needs one marked.
    let storage_marked = parsed.get(Key::Storage).map(Marker::flag);
    let storage = storage_marked.unwrap_or(true);
    let mut served = parsed.get(Key::Served).is_none_or(Marker::flag);
    if parsed.get(Key::Unserved).is_some_and(Marker::flag) {
        served = false;
    }
    let (deprecated, deprecation_warning) = match parsed.get(Key::Deprecated) {
        Some(Marker { value: MarkerValue::Flag(b), .. }) => (*b, None),
        Some(m) => (true, m.str().map(String::from)),
        None => (false, None),
    };

    (served, storage, storage_marked, deprecated, deprecation_warning)
}

/// Keys and values, in the order written.
type Pairs = Vec<(String, String)>;

/// The CRD's annotations and labels; a protected group needs its approval annotation.
fn metadata(parsed: &Parsed, group: &str, whole: Span, errors: &mut Errors) -> (Pairs, Pairs) {
    let pair = |m: &Marker| match &m.value {
        MarkerValue::Pair(k, v) => (k.clone(), v.clone()),
        _ => Default::default(),
    };
    let mut annotations: Vec<(String, String)> = parsed.all(Key::Annotation).map(pair).collect();
    let mut labels: Vec<(String, String)> = parsed.all(Key::Label).map(pair).collect();
    for m in parsed.all(Key::Metadata) {
        for (sub, into) in [(Sub::Annotations, &mut annotations), (Sub::Labels, &mut labels)] {
            let key = sub.as_str();
            for kv in field_strs(m, sub) {
                match kv.split_once('=') {
                    Some((k, v)) => into.push((k.to_string(), v.to_string())),
                    None => errors.push(m.span, format!("`{key}=\"{kv}\"` needs the form `{key}=\"key=value\"`")),
                }
            }
        }
    }

    // KEP-1111: the API server refuses CRDs in *.k8s.io and *.kubernetes.io without this.
    let protected = ["k8s.io", "kubernetes.io"].iter().any(|g| group == *g || group.ends_with(&format!(".{g}")));
    if protected && !annotations.iter().any(|(k, _)| k == "api-approved.kubernetes.io") {
        let span = parsed.get(Key::Group).map_or(whole, |m| m.span);
        errors.push(
            span,
            format!("group `{group}` is protected: the API server refuses its CRDs without an approval annotation. Add `annotation(\"api-approved.kubernetes.io\", \"https://github.com/kubernetes/kubernetes/pull/NNN\")` (or `\"unapproved, experimental-only\"` for experiments), or use a group you own"),
        );
    }

    (annotations, labels)
}

/// `schema = "derived" | "manual" | "disabled"`.
fn schema_mode(parsed: &Parsed, whole: Span, errors: &mut Errors) -> SchemaMode {
    match parsed.get(Key::Schema).map(s).as_deref() {
        None | Some("derived") => SchemaMode::Derived,
        Some("manual") => SchemaMode::Manual,
        Some("disabled") => SchemaMode::Disabled,
        Some(other) => {
            let span = parsed.get(Key::Schema).map_or(whole, |m| m.span);
            errors.push(span, format!("schema = \"{other}\" is not a mode; use \"derived\" (the default), \"manual\" (your own JsonSchema impl) or \"disabled\""));
            SchemaMode::Derived
        }
    }
}

/// The generated root's extra derives and attributes; kube-derive's keys kubegen refuses.
fn root_extras(parsed: &Parsed, errors: &mut Errors) -> (Vec<syn::Path>, Vec<TokenStream>) {
    let mut derives = Vec::new();
    for m in parsed.all(Key::Derive) {
        match syn::parse_str::<syn::Path>(&s(m)) {
            Ok(p) => derives.push(p),
            Err(_) => errors.push(m.span, format!("derive = \"{}\" is not a trait path", s(m))),
        }
    }
    let mut attrs = Vec::new();
    for m in parsed.all(Key::Attr) {
        match syn::parse_str::<syn::Meta>(&s(m)) {
            Ok(meta) if ["derive", "serde", "schemars"].iter().any(|k| meta.path().is_ident(k)) => errors.push(
                m.span,
                "attr = \"...\" may not set derive, serde or schemars attributes on the generated root; use `derive = \"Trait\"`",
            ),
            Ok(meta) => attrs.push(quote!(#[#meta])),
            Err(_) => errors.push(m.span, format!("attr = \"{}\" is not an attribute; write attr = \"allow(deprecated)\"", s(m))),
        }
    }

    if let Some(m) = parsed.get(Key::Cel) {
        errors.push(
            m.span,
            "`cel` (kube-derive's client-side CEL validation) is not available in kubegen yet; the API server evaluates the `validation` rules",
        );
    }
    if let Some(m) = parsed.get(Key::Crates)
        && m.named().is_some_and(|n| n.has(Sub::Kubegen))
    {
        errors.push(m.span, "`crates(kubegen = ...)` is not supported yet: depend on kubegen under its own name");
    }

    (derives, attrs)
}

/// CEL rules on the root: checked ones, and Rust expressions built at run time.
fn root_rules(parsed: &Parsed, errors: &mut Errors) -> (Vec<kubegen_core::schema::markers::Rule>, Vec<syn::Expr>) {
    let mut root_rules = Vec::new();
    let mut root_rule_exprs = Vec::new();
    for m in parsed.all(Key::Validation).filter(|m| !m.from_doc) {
        match &m.value {
            MarkerValue::Rule(rule) => root_rules.push(crate::model::rule(m, rule, errors)),
            MarkerValue::Expr(e) => root_rule_exprs.push((**e).clone()),
            _ => {}
        }
    }

    (root_rules, root_rule_exprs)
}

fn opt_str(v: &Option<String>) -> TokenStream {
    match v {
        Some(s) => quote!(::core::option::Option::Some(#s)),
        None => quote!(::core::option::Option::None),
    }
}

fn resource_def(r: &Resource) -> TokenStream {
    let Resource { group, version, kind, plural, singular, short_names, categories, namespaced, .. } = r;
    let status_subresource = r.status_subresource;
    let (served, storage, deprecated) = (r.served, r.storage, r.deprecated);
    let warning = opt_str(&r.deprecation_warning);
    let description = opt_str(&r.doc);
    let columns = r.printer_columns.iter().map(|c| {
        let (name, type_, json_path) = (&c.name, &c.type_, &c.json_path);
        let description = opt_str(&c.description);
        let format = opt_str(&c.format);
        let priority = match c.priority {
            Some(p) => {
                let p = p as i32;
                quote!(::core::option::Option::Some(#p))
            }
            None => quote!(::core::option::Option::None),
        };
        quote!(::kubegen::__private::PrinterColumnDef { name: #name, type_: #type_, json_path: #json_path, description: #description, format: #format, priority: #priority })
    });
    let scale = match &r.scale {
        Some(Scale { spec, status, selector }) => {
            let selector = opt_str(selector);
            quote!(::core::option::Option::Some(::kubegen::__private::ScaleDef { spec_replicas_path: #spec, status_replicas_path: #status, label_selector_path: #selector }))
        }
        None => quote!(::core::option::Option::None),
    };
    let selectable = &r.selectable;
    let ann = r.annotations.iter().map(|(k, v)| quote!((#k, #v)));
    let lab = r.labels.iter().map(|(k, v)| quote!((#k, #v)));
    quote! {
        ::kubegen::__private::ResourceDef {
            group: #group,
            version: #version,
            kind: #kind,
            plural: #plural,
            singular: #singular,
            short_names: &[#(#short_names),*],
            categories: &[#(#categories),*],
            namespaced: #namespaced,
            status_subresource: #status_subresource,
            scale: #scale,
            printer_columns: &[#(#columns),*],
            selectable_fields: &[#(#selectable),*],
            served: #served,
            storage: #storage,
            deprecated: #deprecated,
            deprecation_warning: #warning,
            annotations: &[#(#ann),*],
            labels: &[#(#lab),*],
            description: #description,
        }
    }
}

pub fn expand(input: &DeriveInput) -> TokenStream {
    let mut errors = Errors::default();
    let Data::Struct(data) = &input.data else {
        return syn::Error::new(input.ident.span(), "#[derive(CustomResource)] goes on a struct: the spec (kube-rs style) or the root with a `metadata` field (kubebuilder style)")
            .to_compile_error();
    };
    if !matches!(data.fields, Fields::Named(_)) {
        return syn::Error::new(input.ident.span(), "#[derive(CustomResource)] needs a struct with named fields")
            .to_compile_error();
    }
    if !input.generics.params.is_empty() {
        return syn::Error::new(
            input.generics.span(),
            "#[derive(CustomResource)] does not take generic parameters: a CRD describes one concrete type",
        )
        .to_compile_error();
    }
    let style = if has_field(input, "metadata") { Style::Root } else { Style::Spec };
    let mut ast = crate::ast::Container::parse(
        input,
        &[Target::Resource, Target::Type, Target::Schema],
        "on the resource type",
        &mut errors,
    );
    let parsed = std::mem::take(&mut ast.markers);
    let resource = build(input, &parsed, style, &mut errors);

    // Type-level schema markers shape the spec or root schema. `#[kube(validation = ..)]`
    // is kube-derive's rule on the root object; `+kubebuilder:validation:XValidation` in
    // the doc comment is controller-gen's rule on the type it documents.
    let mut type_markers = parsed.clone();
    type_markers.markers.retain(|m| m.def.target != Target::Resource && (m.def.key != Key::Validation || m.from_doc));
    if style == Style::Spec {
        type_markers.description = parsed.description.clone();
    }
    let schema_impl = match resource.as_ref().map(|r| r.schema) {
        Some(SchemaMode::Derived) | None => crate::expand::schema::expand(&mut ast, &type_markers, &mut errors),
        _ => quote!(),
    };
    let stand_in = || match resource.as_ref().map(|r| r.schema) {
        Some(SchemaMode::Derived) | None => crate::expand::schema::stand_in(input),
        _ => quote!(),
    };
    let Some(resource) = resource.as_ref() else {
        let (errors, stand_in) = (errors.into_compile_errors(), stand_in());
        return quote!(#errors #stand_in);
    };
    if !errors.is_empty() {
        // The root and its impls still exist, so code using them reports nothing more.
        let (errors, stand_in, generated) =
            (errors.into_compile_errors(), stand_in(), generate(input, resource, style));
        return quote!(#errors #stand_in #generated);
    }
    let generated = generate(input, resource, style);
    let apply = if parsed.get(Key::ApplyConfig).is_some_and(|m| m.flag()) {
        apply_configs(input, resource, style)
    } else {
        quote!()
    };
    quote!(#schema_impl #generated #apply)
}

/// `#[kube(apply_config)]` on a kind: the apply configuration of the struct the derive
/// stands on (kube-rs style) and of the root.
fn apply_configs(input: &DeriveInput, r: &Resource, style: Style) -> TokenStream {
    use crate::expand::apply::{RootData, expand, expand_root};
    let api_version = if r.group.is_empty() { r.version.clone() } else { format!("{}/{}", r.group, r.version) };
    match style {
        Style::Spec => {
            let data = if r.no_spec { RootData::Flattened(&input.ident) } else { RootData::Spec(&input.ident) };
            let spec = expand(input);
            let root = expand_root(&input.vis, &r.root_name, &api_version, &r.kind, data, r.status.as_ref());
            quote!(#spec #root)
        }
        Style::Root => expand_root(&input.vis, &input.ident, &api_version, &r.kind, RootData::Fields(input), None),
    }
}

fn generate(input: &DeriveInput, r: &Resource, style: Style) -> TokenStream {
    let source = &input.ident;
    let (group, version) = (&r.group, &r.version);
    let api_version = if group.is_empty() { version.clone() } else { format!("{group}/{version}") };
    let root = match style {
        Style::Spec => r.root_name.clone(),
        Style::Root => source.clone(),
    };
    let root_struct = match style {
        Style::Root => quote!(),
        Style::Spec => generate_root(source, &input.vis, r, &api_version),
    };
    let resource = resource_impl(&root, r, &api_version);
    let crd = crd_impls(&root, r, root_typed(source, r, style));
    let validate_and_register = validate_and_register(&root, r);
    quote! {
        #root_struct
        #resource
        #crd
        #validate_and_register
    }
}

/// What the kind's schema is made of (`RootTyped`): the source type's schema, as its
/// spec beside a status, as the flat root, or none.
fn root_typed(source: &syn::Ident, r: &Resource, style: Style) -> TokenStream {
    let typed = |t: &dyn quote::ToTokens| quote!(::kubegen::__private::typed_for::<#t>(options));
    let status = match r.status.as_ref() {
        Some(t) => {
            let t = typed(t);
            quote!(::core::option::Option::Some(#t))
        }
        None => quote!(::core::option::Option::None),
    };
    let source_typed = typed(&source);
    match (r.schema, style) {
        (SchemaMode::Disabled, _) => quote!(::kubegen::__private::RootTyped::Disabled),
        (_, Style::Root) => quote!(::kubegen::__private::RootTyped::Flat {
            fields: #source_typed,
            status: ::core::option::Option::None,
        }),
        (_, Style::Spec) if r.no_spec => {
            quote!(::kubegen::__private::RootTyped::Flat { fields: #source_typed, status: #status })
        }
        (_, Style::Spec) => quote!(::kubegen::__private::RootTyped::Spec { spec: #source_typed, status: #status }),
    }
}

/// `kube_core::Resource` for the root type.
fn resource_impl(root: &syn::Ident, r: &Resource, api_version: &str) -> TokenStream {
    let (group, version, kind, plural) = (&r.group, &r.version, &r.kind, &r.plural);
    let private = quote!(::kubegen::__private);
    let scope = if r.namespaced {
        quote!(#private::k8s_openapi::NamespaceResourceScope)
    } else {
        quote!(#private::k8s_openapi::ClusterResourceScope)
    };
    quote! {
        #[automatically_derived]
        impl #private::kube_core::Resource for #root {
            type DynamicType = ();
            type Scope = #scope;
            fn kind(_: &()) -> ::std::borrow::Cow<'_, str> { ::std::borrow::Cow::Borrowed(#kind) }
            fn group(_: &()) -> ::std::borrow::Cow<'_, str> { ::std::borrow::Cow::Borrowed(#group) }
            fn version(_: &()) -> ::std::borrow::Cow<'_, str> { ::std::borrow::Cow::Borrowed(#version) }
            fn api_version(_: &()) -> ::std::borrow::Cow<'_, str> { ::std::borrow::Cow::Borrowed(#api_version) }
            fn plural(_: &()) -> ::std::borrow::Cow<'_, str> { ::std::borrow::Cow::Borrowed(#plural) }
            fn meta(&self) -> &#private::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta { &self.metadata }
            fn meta_mut(&mut self) -> &mut #private::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta { &mut self.metadata }
        }
    }
}

/// `CrdWithOptions` and `CustomResourceExt` for the root type: the CRD built from the
/// resource's facts, its root rules and `root_typed`.
fn crd_impls(root: &syn::Ident, r: &Resource, root_typed: TokenStream) -> TokenStream {
    let private = quote!(::kubegen::__private);
    let def = resource_def(r);
    let crd_name = format!("{}.{}", r.plural, r.group);
    let short_names = &r.short_names;
    let rules = r.root_rules.iter().map(rule_tokens);
    let rule_exprs = &r.root_rule_exprs;
    let crd =
        quote!(#private::k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition);
    quote! {
        #[automatically_derived]
        impl ::kubegen::CrdWithOptions for #root {
            fn crd_with(options: &::kubegen::schema::Options) -> #crd {
                Self::crd_and_types(options).0
            }

            fn crd_and_types(options: &::kubegen::schema::Options) -> (#crd, #private::KindTypes) {
                const DEF: #private::ResourceDef = #def;
                let rules: ::std::vec::Vec<#private::CelRule> = ::std::vec![
                    #(#rules,)*
                    #(#private::cel_rule(::kubegen::Rule::from(#rule_exprs)),)*
                ];
                #private::build_kind(&DEF, #root_typed, rules)
            }
        }

        #[automatically_derived]
        impl #private::kube_core::CustomResourceExt for #root {
            fn crd() -> #crd {
                static CRD: ::std::sync::OnceLock<#crd> = ::std::sync::OnceLock::new();
                #private::cached_crd(&CRD, || {
                    <Self as ::kubegen::CrdWithOptions>::crd_with(&::core::default::Default::default())
                })
            }
            fn crd_name() -> &'static str { #crd_name }
            fn api_resource() -> #private::kube_core::ApiResource {
                #private::kube_core::ApiResource::erase::<Self>(&())
            }
            fn shortnames() -> &'static [&'static str] { &[#(#short_names),*] }
        }
    }
}

/// `Validate` for the root type (its validator built once), and its registration for
/// `codegen-cli manifests`.
fn validate_and_register(root: &syn::Ident, r: &Resource) -> TokenStream {
    let private = quote!(::kubegen::__private);
    let skip_version = r.skip_version;
    let storage_marked = match r.storage_marked {
        Some(b) => quote!(::core::option::Option::Some(#b)),
        None => quote!(::core::option::Option::None),
    };
    quote! {
        #[automatically_derived]
        impl ::kubegen::Validate for #root {
            fn validator() -> &'static ::kubegen::validate::Validator {
                static VALIDATOR: ::std::sync::OnceLock<::kubegen::validate::Validator> = ::std::sync::OnceLock::new();
                VALIDATOR.get_or_init(|| {
                    ::kubegen::validate::Validator::for_crd(&<Self as #private::kube_core::CustomResourceExt>::crd())
                })
            }
        }

        #private::inventory::submit! {
            #private::Registration {
                parts: <#root as ::kubegen::CrdWithOptions>::crd_and_types,
                type_path: ::core::concat!(::core::module_path!(), "::", ::core::stringify!(#root)),
                source: ::core::concat!(::core::file!(), ":", ::core::line!()),
                skip_version: #skip_version,
                storage_marked: #storage_marked,
            }
        }
    }
}

/// The kube-rs style root: `metadata`, `spec`, optional `status`; serialized with
/// `apiVersion` and `kind` first, as the API server expects them.
fn generate_root(spec: &syn::Ident, vis: &syn::Visibility, r: &Resource, api_version: &str) -> TokenStream {
    let root = &r.root_name;
    let kind = &r.kind;
    let private = quote!(::kubegen::__private);
    let derives = &r.derives;
    let attrs = &r.attrs;
    let doc = r.doc.clone().unwrap_or_else(|| {
        format!("The `{kind}` resource, generated by `#[derive(CustomResource)]` around [`{spec}`].")
    });
    let (status_field, status_init, status_ty, status_ref) = match &r.status {
        Some(status) => (
            quote!(
                /// The observed state, written by the controller through the status subresource.
                pub status: ::core::option::Option<#status>,
            ),
            quote!(status: ::core::option::Option::None,),
            quote!(#status),
            quote!(self.status.as_ref()),
        ),
        None => (
            quote!(),
            quote!(),
            quote!(#private::NoStatus),
            quote!(::core::option::Option::None::<&#private::NoStatus>),
        ),
    };
    let serde = root_serde(spec, r, api_version, &status_ty, &status_ref);
    let has_status_impl = r.status.as_ref().map(|status| {
        quote! {
            #[automatically_derived]
            impl #private::kube_core::object::HasStatus for #root {
                type Status = #status;
                fn status(&self) -> ::core::option::Option<&#status> { self.status.as_ref() }
                fn status_mut(&mut self) -> &mut ::core::option::Option<#status> { &mut self.status }
            }
        }
    });
    quote! {
        #[doc = #doc]
        #[derive(::core::clone::Clone, ::core::fmt::Debug #(, #derives)*)]
        #(#attrs)*
        #vis struct #root {
            /// Standard object metadata.
            pub metadata: #private::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
            /// The desired state.
            pub spec: #spec,
            #status_field
        }

        impl #root {
            /// A new object named `name` with `spec` and no status.
            pub fn new(name: &str, spec: #spec) -> Self {
                Self {
                    metadata: #private::k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta {
                        name: ::core::option::Option::Some(::std::string::ToString::to_string(name)),
                        ..::core::default::Default::default()
                    },
                    spec,
                    #status_init
                }
            }
        }

        #serde

        #[automatically_derived]
        impl #private::kube_core::object::HasSpec for #root {
            type Spec = #spec;
            fn spec(&self) -> &#spec { &self.spec }
            fn spec_mut(&mut self) -> &mut #spec { &mut self.spec }
        }

        #has_status_impl
    }
}

/// `Serialize` and `Deserialize` of the root: `apiVersion` and `kind` first, then
/// `metadata`, `spec` (or its fields, flat) and `status`.
fn root_serde(
    spec: &syn::Ident,
    r: &Resource,
    api_version: &str,
    status_ty: &TokenStream,
    status_ref: &TokenStream,
) -> TokenStream {
    let (root, kind, flat) = (&r.root_name, &r.kind, r.no_spec);
    let private = quote!(::kubegen::__private);
    let status_read = r.status.as_ref().map(|_| quote!(status: parts.status,));
    quote! {
        #[automatically_derived]
        impl #private::serde::Serialize for #root {
            fn serialize<S: #private::serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                #private::serialize_root(serializer, #api_version, #kind, &self.metadata, &self.spec, #status_ref, #flat)
            }
        }

        #[automatically_derived]
        impl<'de> #private::serde::Deserialize<'de> for #root {
            fn deserialize<D: #private::serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                let parts = #private::RootParts::<#spec, #status_ty>::read(deserializer, #flat)?;
                ::core::result::Result::Ok(Self { metadata: parts.metadata, spec: parts.spec, #status_read })
            }
        }
    }
}

/// A CEL rule the derive checked, as the expression that builds it.
pub(super) fn rule_tokens(rule: &kubegen_core::schema::markers::Rule) -> TokenStream {
    let text = |s: &Option<String>| match s {
        Some(s) => quote!(::core::option::Option::Some(::std::string::String::from(#s))),
        None => quote!(::core::option::Option::None),
    };
    let source = &rule.rule;
    let (message, message_expression, reason, field_path) =
        (text(&rule.message), text(&rule.message_expression), text(&rule.reason), text(&rule.field_path));
    let optional_old_self = match rule.optional_old_self {
        Some(b) => quote!(::core::option::Option::Some(#b)),
        None => quote!(::core::option::Option::None),
    };
    quote!(::kubegen::__private::CelRule {
        rule: ::std::string::String::from(#source),
        message: #message,
        message_expression: #message_expression,
        reason: #reason,
        field_path: #field_path,
        optional_old_self: #optional_old_self,
    })
}
