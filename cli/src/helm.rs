//! `codegen-cli helm`: a Helm chart of the operator (kubebuilder's `helm/v2-alpha`).
//!
//! The chart is made from the objects `config/default` deploys, as `make build-installer`
//! renders them into `dist/install.yaml` (so an edit to `config/` reaches the chart):
//! each object is parsed, placed by its kind and role under `templates/`, and written
//! back with the parts a platform team sets per install turned into values — names and
//! namespace from the release, the manager's image, replicas, args, env, resources,
//! security contexts and ports, cert-manager, webhooks, metrics, the CRDs' keep policy.
//! Nothing is substituted in YAML text: values are placed in the parsed objects, and the
//! template expressions in the written documents only where those were.
//!
//! What is whose:
//! - `Chart.yaml`, `NOTES.txt` and `.helmignore` are written once, then yours.
//! - `values.yaml` is merged three ways: the defaults this command wrote last (kept in
//!   `.kubegen/values.yaml`, which `.helmignore` leaves out of the package), your file,
//!   and the defaults now. A value you changed stays; one you left follows the install.
//! - Every template this command writes starts with a mark holding the hash of the rest:
//!   it is rewritten while unchanged, kept (and named) once you edit it unless `--force`,
//!   and removed when the install no longer has its object. A file without the mark is
//!   yours and never touched.
//!
//! CRDs are templates (`templates/crd/`) with `helm.sh/resource-policy: keep` while
//! `crd.keep` is true, not files in `crds/`: Helm installs `crds/` once and never
//! upgrades it, so a new version of a kind would never reach the cluster; the keep
//! policy means `helm uninstall` leaves the CRDs, and so every stored object, in place.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use serde_json::{Map, Value, json};

use crate::output::Output;

/// The chart's directory, as kubebuilder writes it.
pub const CHART_DIR: &str = "dist/chart";

#[derive(clap::Args)]
pub struct HelmArgs {
    /// The rendered install (`make build-installer` writes it from config/default).
    #[arg(long, value_name = "FILE", default_value = "dist/install.yaml")]
    pub from: PathBuf,
    /// The chart's directory.
    #[arg(long, value_name = "DIR", default_value = CHART_DIR)]
    pub out: PathBuf,
    /// Rewrite the templates you edited too (a file without the mark stays yours, and
    /// values.yaml is merged either way).
    #[arg(long)]
    pub force: bool,
    /// Print what would be written, removed and kept; write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Instead of writing: check that FILE (`helm template <project> <chart> -n
    /// <project>-system` of a copy of the chart whose values.yaml is
    /// <chart>/.kubegen/values.yaml, the defaults this command wrote;
    /// `-` reads stdin) holds every object of the install and nothing else, object by
    /// object, besides Helm's own labels, the keep policy and the Namespace (`helm install
    /// --create-namespace` makes it); what your own templates (files without this
    /// command's mark, by helm's `# Source:` lines) add to the install is left aside.
    #[arg(long, value_name = "FILE")]
    pub verify: Option<PathBuf>,
    /// Path to the workspace's Cargo.toml.
    #[arg(long, value_name = "PATH")]
    pub manifest_path: Option<PathBuf>,
}

pub fn run(args: HelmArgs) -> Result<ExitCode> {
    let ws = crate::workspace::Workspace::load(args.manifest_path.as_deref(), &[])?;
    let project = ws.project()?;
    let from = ws.root.join(&args.from);
    let text = std::fs::read_to_string(&from).with_context(|| {
        format!("reading {}: run `make build-installer` first (it renders config/default there)", from.display())
    })?;
    let objects = parse_documents(&text).with_context(|| format!("reading {}", from.display()))?;
    if let Some(rendered) = &args.verify {
        let text = if rendered.as_os_str() == "-" {
            std::io::read_to_string(std::io::stdin()).context("reading the rendered chart from stdin")?
        } else {
            std::fs::read_to_string(rendered).with_context(|| format!("reading {}", rendered.display()))?
        };
        // Objects of your own templates (no mark of this command) are yours to add.
        let out = ws.root.join(&args.out);
        let (mut rendered_objects, yours) = rendered_documents(&text, &out)?;
        // An object of the install that a template of yours renders (one you took over by
        // removing its mark) is compared; the others your templates add are yours.
        let installed: BTreeSet<String> = objects.iter().map(object_key).collect();
        let mut adding = BTreeSet::new();
        for (source, object) in yours {
            if installed.contains(&object_key(&object)) {
                rendered_objects.push(object);
            } else {
                adding.insert(source);
            }
        }
        let differences = compare(&objects, &rendered_objects);
        let shown = args.from.display();
        for source in &adding {
            eprintln!("not compared: what your own template {source} adds to the install");
        }
        if differences.is_empty() {
            let n = objects.iter().filter(|o| kind_of(o) != "Namespace").count();
            eprintln!("the chart renders the {n} objects of {shown}, object by object");
            return Ok(ExitCode::SUCCESS);
        }
        for d in &differences {
            println!("{d}");
        }
        eprintln!("the chart does not render {shown}: {} differences", differences.len());
        return Ok(ExitCode::FAILURE);
    }
    let out = ws.root.join(&args.out);
    let chart = Chart::build(&project, &objects, &args.from.display().to_string())?;
    let plan = chart.plan(&out, args.force)?;
    let shown = |p: &Path| p.strip_prefix(&ws.root).unwrap_or(p).display().to_string();
    if args.dry_run {
        for o in &plan.write {
            let exists = o.path.exists();
            if !exists || (o.overwrite && std::fs::read_to_string(&o.path).ok().as_deref() != Some(&o.contents)) {
                println!("{} {}", if exists { "rewrite" } else { "write" }, shown(&o.path));
            }
        }
        for p in &plan.remove {
            println!("remove {}", shown(p));
        }
        for (p, why) in &plan.kept {
            println!("keep {}: {why}", shown(p));
        }
        return Ok(ExitCode::SUCCESS);
    }
    let written = crate::output::write(&plan.write)?;
    for p in &plan.remove {
        std::fs::remove_file(p).with_context(|| format!("removing {}", p.display()))?;
        eprintln!("  removed {} (the install no longer has its object)", shown(p));
    }
    for (p, why) in &plan.kept {
        eprintln!("kept {}: {why}", shown(p));
    }
    eprintln!(
        "{} chart files for {} objects of {} ({written} written) in {}",
        plan.write.len(),
        objects.len(),
        args.from.display(),
        shown(&out)
    );
    eprintln!(
        "next: `helm lint {0}`; `helm upgrade --install {project} {0} -n {project}-system --create-namespace`",
        shown(&out)
    );
    Ok(ExitCode::SUCCESS)
}

/// The YAML documents of `text` that hold an object.
fn parse_documents(text: &str) -> Result<Vec<Value>> {
    let docs: Vec<Value> = serde_saphyr::from_multiple(text).map_err(|e| anyhow::anyhow!("not YAML: {e}"))?;
    let objects: Vec<Value> = docs.into_iter().filter(|d| d.is_object()).collect();
    for (i, o) in objects.iter().enumerate() {
        if kind_of(o).is_empty() || o.pointer("/metadata/name").and_then(Value::as_str).is_none() {
            bail!("document {} is not a Kubernetes object (no kind or metadata.name)", i + 1);
        }
    }
    Ok(objects)
}

/// The objects of `helm template`'s output (each document after its `# Source:
/// <chart>/<path>` line) that templates of this command rendered, and the others with
/// their sources (files under `chart` without its mark, or not there).
/// A rendered document's objects from a template not written by this command, with its path.
type Yours = Vec<(String, Value)>;

fn rendered_documents(text: &str, chart: &Path) -> Result<(Vec<Value>, Yours)> {
    let mut ours = Vec::new();
    let mut yours = Vec::new();
    let mut documents = vec![String::new()];
    for line in text.lines() {
        if line == "---" {
            documents.push(String::new());
        } else if let Some(doc) = documents.last_mut() {
            doc.push_str(line);
            doc.push('\n');
        }
    }
    for doc in documents {
        let source = doc.lines().find_map(|l| l.strip_prefix("# Source: ")).map(|s| s.trim().to_string());
        let path = source.as_deref().and_then(|s| s.split_once('/')).map(|(_, path)| path);
        let objects = parse_documents(&doc).context("reading the rendered chart")?;
        // This command's only where the file is there with its mark (not a subchart's,
        // not one you own).
        match path {
            Some(path) if !std::fs::read_to_string(chart.join(path)).is_ok_and(|text| has_mark(&text)) => {
                yours.extend(objects.into_iter().map(|o| (path.to_string(), o)));
            }
            _ => ours.extend(objects),
        }
    }
    Ok((ours, yours))
}

fn kind_of(o: &Value) -> &str {
    o.get("kind").and_then(Value::as_str).unwrap_or_default()
}

fn name_of(o: &Value) -> &str {
    o.pointer("/metadata/name").and_then(Value::as_str).unwrap_or_default()
}

fn namespace_of(o: &Value) -> Option<&str> {
    o.pointer("/metadata/namespace").and_then(Value::as_str)
}

/// What a template's document holds in place of a value: inline expressions (a scalar, or
/// part of one) and blocks (whole lines: `{{- with }}` sections, conditional list items).
/// Both are placeholders in the parsed object, replaced after it is written as YAML.
#[derive(Default)]
struct Holes {
    inline: Vec<String>,
    blocks: Vec<Vec<String>>,
}

/// Replaced by the indentation of the line a block stands on (for `nindent`), and by two
/// more.
const INDENT: &str = "%INDENT%";
const INDENT2: &str = "%INDENT2%";

impl Holes {
    fn inline(&mut self, expression: String) -> String {
        if let Some(i) = self.inline.iter().position(|e| *e == expression) {
            return format!("__KUBEGEN_{i}__");
        }
        self.inline.push(expression);
        format!("__KUBEGEN_{}__", self.inline.len() - 1)
    }

    /// A key to put into a mapping whose line becomes `lines`, indented as the key was.
    /// (It sorts after the mapping's other keys, so it never stands on a list item's dash.)
    fn block(&mut self, lines: Vec<String>) -> String {
        self.blocks.push(lines);
        format!("zzkubegen{}", self.blocks.len() - 1)
    }

    /// `yaml` with every placeholder replaced.
    fn fill(&self, yaml: &str) -> String {
        let mut out = String::with_capacity(yaml.len() * 2);
        for line in yaml.lines() {
            let indent = line.len() - line.trim_start().len();
            let block = line
                .trim_start()
                .strip_prefix("zzkubegen")
                .and_then(|rest| rest.split_once(':'))
                .and_then(|(n, _)| n.parse::<usize>().ok())
                .and_then(|n| self.blocks.get(n));
            match block {
                Some(lines) => {
                    for l in lines {
                        let l = l.replace(INDENT2, &(indent + 2).to_string()).replace(INDENT, &indent.to_string());
                        out.push_str(&" ".repeat(indent));
                        out.push_str(&l);
                        out.push('\n');
                    }
                }
                None => {
                    out.push_str(line);
                    out.push('\n');
                }
            }
        }
        // Inline holes: a whole quoted scalar loses its quotes (the expression may be a
        // number); a hole within a longer scalar stays in it.
        for (i, expression) in self.inline.iter().enumerate().rev() {
            let token = format!("__KUBEGEN_{i}__");
            out = out
                .replace(&format!("'{token}'"), expression)
                .replace(&format!("\"{token}\""), expression)
                .replace(&token, expression);
        }
        out
    }
}

/// Whether a CRD's spec converts its versions through a webhook.
fn converts_by_webhook(spec: &Map<String, Value>) -> bool {
    spec.get("conversion").and_then(|c| c.get("strategy")).and_then(Value::as_str) == Some("Webhook")
}

/// Every `{{` in the strings of `value` as Helm prints it literally.
fn escape_actions(value: &mut Value) {
    match value {
        Value::String(s) if s.contains("{{") => *s = s.replace("{{", "{{ `{{` }}"),
        Value::Array(items) => items.iter_mut().for_each(escape_actions),
        Value::Object(map) => map.values_mut().for_each(escape_actions),
        _ => {}
    }
}

/// How the install names things: every object's name starts with `<project>-` (config/
/// default's namePrefix) and the namespaced ones live in `<project>-system`.
struct Naming {
    prefix: String,
    namespace: String,
    /// Every prefixed name in the install.
    names: BTreeSet<String>,
}

impl Naming {
    /// `text` with the namespace and each object's name, where they stand whole between
    /// `/`, `.` and `=` (a `namespace/name` annotation, a `service.namespace.svc` DNS name,
    /// a `--flag=name`), as `expression` writes them: `None` for the namespace, else the
    /// name's suffix after the prefix.
    fn rewrite_with(&self, text: &str, mut expression: impl FnMut(Option<&str>) -> String) -> Option<String> {
        const SEPARATORS: [char; 3] = ['/', '.', '='];
        let mut out = String::new();
        let mut changed = false;
        for part in text.split_inclusive(SEPARATORS) {
            let (word, sep) = match part.strip_suffix(SEPARATORS) {
                Some(word) => (word, &part[word.len()..]),
                None => (part, ""),
            };
            if word == self.namespace {
                out.push_str(&expression(None));
                changed = true;
            } else if let Some(suffix) = self.names.contains(word).then(|| word.strip_prefix(&self.prefix)).flatten() {
                out.push_str(&expression(Some(suffix)));
                changed = true;
            } else {
                out.push_str(word);
            }
            out.push_str(sep);
        }
        changed.then_some(out)
    }

    /// [`Naming::rewrite_with`] in a template's text: holes for the release's namespace
    /// and names, within a DNS label's 63 characters as Helm charts cut names (raw strings:
    /// the expression may stand inside a quoted scalar).
    fn rewrite(&self, text: &str, holes: &mut Holes) -> Option<String> {
        self.rewrite_with(text, |part| {
            holes.inline(match part {
                None => "{{ $.Release.Namespace }}".into(),
                Some(suffix) => format!("{{{{ print $fullname `-{suffix}` | trunc 63 | trimSuffix `-` }}}}"),
            })
        })
    }

    /// [`Naming::rewrite_with`] in a value that goes through `tpl` (the manager's args),
    /// where the template's `$fullname` is not in scope.
    fn rewrite_for_tpl(&self, text: &str, project: &str) -> Option<String> {
        self.rewrite_with(text, |part| match part {
            None => "{{ .Release.Namespace }}".into(),
            Some(suffix) => {
                format!("{{{{ print (include `{project}.fullname` .) `-{suffix}` | trunc 63 | trimSuffix `-` }}}}")
            }
        })
    }

    /// Every string in `value` rewritten (see [`Naming::rewrite`]).
    fn rewrite_all(&self, value: &mut Value, holes: &mut Holes) {
        match value {
            Value::String(s) => {
                if let Some(new) = self.rewrite(s, holes) {
                    *s = new;
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|v| self.rewrite_all(v, holes)),
            Value::Object(map) => map.values_mut().for_each(|v| self.rewrite_all(v, holes)),
            _ => {}
        }
    }
}

/// One template: where it goes, the condition it renders under, its document.
struct Template {
    path: String,
    condition: Option<String>,
    yaml: String,
}

/// The chart: its templates and the values they read, with the comments values.yaml
/// carries.
pub struct Chart {
    project: String,
    from: String,
    templates: Vec<Template>,
    values: Value,
    app_version: String,
    /// The webhooks' certificate can only come from cert-manager: the chart refuses
    /// `certManager.enabled=false` with the webhooks on.
    needs_cert_manager: bool,
}

/// The manager's ports the chart sets from values: the number in the install, and the
/// value that replaces it.
struct Ports(Vec<(u64, &'static str)>);

impl Ports {
    fn value_of(&self, port: u64) -> Option<&'static str> {
        self.0.iter().find(|(p, _)| *p == port).map(|(_, v)| *v)
    }

    /// Every `port`, `containerPort` and `targetPort` number in `value` that is one of
    /// the manager's, as its value.
    fn fill(&self, value: &mut Value, holes: &mut Holes) {
        match value {
            Value::Object(map) => {
                for (key, v) in map.iter_mut() {
                    let number = v.as_u64().filter(|_| matches!(key.as_str(), "port" | "containerPort" | "targetPort"));
                    match number.and_then(|n| self.value_of(n)) {
                        Some(path) => *v = Value::String(holes.inline(format!("{{{{ $.Values.{path} }}}}"))),
                        None => self.fill(v, holes),
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|v| self.fill(v, holes)),
            _ => {}
        }
    }
}

/// The bind-address flags of kubebuilder's manager and the values that set their port.
const PORT_FLAGS: [(&str, &str); 3] = [
    ("--health-probe-bind-address", "manager.healthProbe.port"),
    ("--metrics-bind-address", "metrics.port"),
    ("--webhook-bind-address", "webhook.port"),
];

fn set(values: &mut Value, path: &str, value: Value) {
    let (parents, last) = match path.rsplit_once('.') {
        Some((parents, last)) => (Some(parents), last),
        None => (None, path),
    };
    let mut at = values;
    for key in parents.into_iter().flat_map(|p| p.split('.')) {
        if !at.is_object() {
            *at = json!({});
        }
        at = &mut at[key];
    }
    if !at.is_object() {
        *at = json!({});
    }
    at[last] = value;
}

/// A `{{- with }}` block for `key` from the value at `path`: nothing when it is empty.
fn with_block(key: &str, path: &str, scalar: bool) -> Vec<String> {
    if scalar {
        vec![format!("{{{{- with $.Values.{path} }}}}"), format!("{key}: {{{{ . }}}}"), "{{- end }}".into()]
    } else {
        vec![
            format!("{{{{- with $.Values.{path} }}}}"),
            format!("{key}:"),
            format!("  {{{{- toYaml . | nindent {INDENT2} }}}}"),
            "{{- end }}".into(),
        ]
    }
}

/// Moves `key` of `map` into the values at `path` (or `default` when absent) and puts a
/// `with` block in its place.
fn lift(map: &mut Map<String, Value>, key: &str, values: &mut Value, path: &str, default: Value, holes: &mut Holes) {
    let value = map.remove(key).unwrap_or(default);
    let scalar = !(value.is_object() || value.is_array());
    set(values, path, value);
    map.insert(holes.block(with_block(key, path, scalar)), Value::Null);
}

/// A list whose items each render only under their condition (`None`: always), each
/// item's text as a template's (see [`escape_actions`], [`Naming::rewrite_all`]).
fn conditional_list(
    key: &str,
    items: Vec<(Option<&str>, Value)>,
    naming: &Naming,
    holes: &mut Holes,
) -> Result<Vec<String>> {
    let mut lines = vec![format!("{key}:")];
    for (condition, mut item) in items {
        escape_actions(&mut item);
        naming.rewrite_all(&mut item, holes);
        let body = yaml_body(&Value::Array(vec![item])).context("rendering a list item")?;
        if let Some(c) = condition {
            lines.push(format!("{{{{- if {c} }}}}"));
        }
        lines.extend(body.lines().map(String::from));
        if condition.is_some() {
            lines.push("{{- end }}".into());
        }
    }
    Ok(lines)
}

const WEBHOOKS_ON: &str = "$.Values.webhook.enabled";
/// The webhooks with cert-manager's certificate.
const CERT_MANAGER_WEBHOOKS: &str = "and $.Values.webhook.enabled $.Values.certManager.enabled";
/// The webhooks with certificates the manager keeps itself (`--webhook-cert-secret`).
const OWN_CERTS: &str = "and $.Values.webhook.enabled (not $.Values.certManager.enabled)";

/// What the manager needs to keep the webhooks' certificates itself, without
/// cert-manager: the Secret cert-manager would have filled, and the objects whose
/// `caBundle` it sets (each name but the CRDs' as a suffix of the release's prefix).
struct OwnCerts {
    service: String,
    account: String,
    mutating: Vec<String>,
    validating: Vec<String>,
    crds: Vec<String>,
}

/// The Secrets of the webhooks' certificates in the install, and what the manager needs
/// to keep them itself.
struct WebhookCerts<'a> {
    secrets: &'a BTreeSet<String>,
    own: Option<&'a OwnCerts>,
    /// rbac.namespaced exists: the manager's --namespace follows it.
    scoping: bool,
}

/// The Secret the manager keeps its own certificates in: the release's, never
/// cert-manager's (a Secret cert-manager leaves holds no CA key).
const OWN_SECRET: &str = "webhook-own-certs";

/// A name of the release in template text: `suffix` after its prefix.
fn release_name(suffix: &str) -> String {
    format!("(print $fullname `-{suffix}` | trunc 63 | trimSuffix `-`)")
}

impl OwnCerts {
    /// The manager's flags: where the certificate is kept, its names, where its CA goes.
    fn args(&self) -> Vec<String> {
        let mut lines = vec![
            format!("{{{{- if {OWN_CERTS} }}}}"),
            format!(
                "- {{{{ printf \"--webhook-cert-secret=%s/%s\" $.Release.Namespace {} | quote }}}}",
                release_name(OWN_SECRET)
            ),
            format!(
                "- {{{{ printf \"--webhook-cert-name=%s.%s.svc,%s.%s.svc.cluster.local\" {s} $.Release.Namespace {s} $.Release.Namespace | quote }}}}",
                s = release_name(&self.service)
            ),
        ];
        for (kind, names) in [("mutating", &self.mutating), ("validating", &self.validating)] {
            for n in names {
                lines.push(format!("- {{{{ printf \"--webhook-ca-inject={kind}=%s\" {} | quote }}}}", release_name(n)));
            }
        }
        // The CRDs' conversion only where they are the release's.
        if !self.crds.is_empty() {
            lines.push("{{- if $.Values.crd.enabled }}".into());
            for crd in &self.crds {
                lines.push(format!("- \"--webhook-ca-inject=crd={crd}\""));
            }
            lines.push("{{- end }}".into());
        }
        lines.push("{{- end }}".into());
        lines
    }

    /// The Role (the Secret) and ClusterRole (the `caBundle`s) that lets the manager's
    /// ServiceAccount keep the certificates, bound to it.
    fn rbac(&self, project: &str) -> String {
        let name = release_name("webhook-certs");
        let account = release_name(&self.account);
        let labels = format!("    {{{{- include \"{project}.labels\" $ | nindent 4 }}}}");
        let mut cluster_rules = String::new();
        for (resource, names) in
            [("mutatingwebhookconfigurations", &self.mutating), ("validatingwebhookconfigurations", &self.validating)]
        {
            if !names.is_empty() {
                let names: Vec<String> = names.iter().map(|n| format!("{{{{ {} }}}}", release_name(n))).collect();
                cluster_rules.push_str(&format!(
                    "- apiGroups: [admissionregistration.k8s.io]\n  resources: [{resource}]\n  resourceNames: [{}]\n  verbs: [get, update]\n",
                    names.join(", ")
                ));
            }
        }
        if !self.crds.is_empty() {
            cluster_rules.push_str(&format!(
                "{{{{- if $.Values.crd.enabled }}}}\n- apiGroups: [apiextensions.k8s.io]\n  resources: [customresourcedefinitions]\n  resourceNames: [{}]\n  verbs: [get, update]\n{{{{- end }}}}\n",
                self.crds.join(", ")
            ));
        }
        let binding = |kind: &str, role: &str, namespaced: bool| {
            let namespace = if namespaced { "  namespace: {{ $.Release.Namespace }}\n" } else { "" };
            format!(
                "apiVersion: rbac.authorization.k8s.io/v1\nkind: {kind}Binding\nmetadata:\n  name: {{{{ {name} }}}}\n{namespace}  labels:\n{labels}\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: {role}\n  name: {{{{ {name} }}}}\nsubjects:\n- kind: ServiceAccount\n  name: {{{{ {account} }}}}\n  namespace: {{{{ $.Release.Namespace }}}}\n"
            )
        };
        let mut out = format!(
            "# The manager keeps the webhooks' certificates itself (certManager.enabled=false): it\n\
             # creates and renews the Secret <release>-{OWN_SECRET}, and sets the CA as caBundle where the API\n\
             # server calls the webhooks.\n\
             apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: {{{{ {name} }}}}\n  namespace: {{{{ $.Release.Namespace }}}}\n  labels:\n{labels}\nrules:\n\
             - apiGroups: [\"\"]\n  resources: [secrets]\n  verbs: [create]\n\
             - apiGroups: [\"\"]\n  resources: [secrets]\n  resourceNames: [{{{{ {secret} }}}}]\n  verbs: [get, update]\n---\n",
            secret = release_name(OWN_SECRET)
        );
        out.push_str(&binding("Role", "Role", true));
        if !cluster_rules.is_empty() {
            out.push_str(&format!(
                "---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: {{{{ {name} }}}}\n  labels:\n{labels}\nrules:\n{cluster_rules}---\n"
            ));
            out.push_str(&binding("ClusterRole", "ClusterRole", false));
        }
        out
    }
}

impl Chart {
    /// The chart of `objects` (an install of `project`, read from `from`).
    pub fn build(project: &str, objects: &[Value], from: &str) -> Result<Chart> {
        if objects.iter().any(|o| o.to_string().contains("__KUBEGEN_") || o.to_string().contains("zzkubegen")) {
            bail!("{from} holds the text __KUBEGEN_ or zzkubegen, which the chart's templates use for their own");
        }
        let deployment = objects
            .iter()
            .find(|o| {
                kind_of(o) == "Deployment"
                    && o.pointer("/metadata/labels/control-plane").and_then(Value::as_str) == Some("controller-manager")
            })
            .or_else(|| objects.iter().find(|o| kind_of(o) == "Deployment"))
            .with_context(|| {
                format!("{from} has no Deployment of the manager (config/manager/manager.yaml makes it)")
            })?;
        let prefix = name_of(deployment)
            .strip_suffix("controller-manager")
            .filter(|p| p.ends_with('-'))
            .map(String::from)
            .unwrap_or_else(|| format!("{project}-"));
        let namespace = namespace_of(deployment).map(String::from).unwrap_or_else(|| format!("{project}-system"));
        let names = objects.iter().map(name_of).filter(|n| n.starts_with(&prefix)).map(String::from).collect();
        let naming = Naming { prefix, namespace, names };
        // The Secret the webhook server's certificate is in: a volume of it is the
        // webhooks' (cert-manager's Certificate names it).
        let cert_secrets: BTreeSet<String> = objects
            .iter()
            .filter(|o| kind_of(o) == "Certificate")
            .filter_map(|o| o.pointer("/spec/secretName").and_then(Value::as_str).map(String::from))
            .collect();
        // Those of them the manager mounts: the webhook server's.
        let webhook_secrets: BTreeSet<String> = deployment
            .pointer("/spec/template/spec/volumes")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|v| v.pointer("/secret/secretName").and_then(Value::as_str))
            .filter(|s| cert_secrets.contains(*s))
            .map(String::from)
            .collect();
        // The manager's ServiceAccount: serviceAccount.annotations are its.
        let manager_account = deployment.pointer("/spec/template/spec/serviceAccountName").and_then(Value::as_str);
        let has = |kind: &str| objects.iter().any(|o| kind_of(o) == kind);
        let webhooks = has("MutatingWebhookConfiguration") || has("ValidatingWebhookConfiguration");
        let cert_manager = objects.iter().any(|o| api_group(o) == "cert-manager.io");
        // Without cert-manager (certManager.enabled=false), the manager keeps the
        // webhooks' certificates itself in the Secret cert-manager would fill.
        let suffix = |o: &Value| name_of(o).strip_prefix(&naming.prefix).map(String::from);
        let own_certs = match (webhooks && cert_manager && !webhook_secrets.is_empty(), manager_account) {
            (true, Some(account)) => {
                let named = |kind: &str| -> Vec<String> {
                    objects.iter().filter(|o| kind_of(o) == kind).filter_map(suffix).collect()
                };
                let service = objects
                    .iter()
                    .filter(|o| kind_of(o) == "Service" && name_of(o).ends_with("webhook-service"))
                    .find_map(suffix);
                let crds = objects
                    .iter()
                    .filter(|o| kind_of(o) == "CustomResourceDefinition")
                    .filter(|o| o.get("spec").and_then(Value::as_object).is_some_and(converts_by_webhook))
                    .map(|o| name_of(o).to_string())
                    .collect();
                match (service, account.strip_prefix(&naming.prefix)) {
                    (Some(service), Some(account)) => Some(OwnCerts {
                        service,
                        account: account.to_string(),
                        mutating: named("MutatingWebhookConfiguration"),
                        validating: named("ValidatingWebhookConfiguration"),
                        crds,
                    }),
                    _ => None,
                }
            }
            _ => None,
        };

        // The manager's own role and its binding (not the leader election's): a Role in the
        // release's namespace or a ClusterRole, as rbac.namespaced says.
        let scoped = objects.iter().find_map(|b| {
            let bound = matches!(kind_of(b), "RoleBinding" | "ClusterRoleBinding")
                && b.pointer("/subjects").and_then(Value::as_array).is_some_and(|subjects| {
                    subjects.iter().any(|s| s.get("name").and_then(Value::as_str) == manager_account)
                });
            let role = b.pointer("/roleRef/name").and_then(Value::as_str)?;
            let role_kind = b.pointer("/roleRef/kind").and_then(Value::as_str)?;
            (bound && !role.ends_with("leader-election-role") && matches!(role_kind, "Role" | "ClusterRole"))
                .then(|| (role.to_string(), name_of(b).to_string(), role_kind == "Role"))
        });
        let scoped_namespace = scoped.as_ref().map(|(_, _, namespaced)| *namespaced);
        let mut values = json!({});
        let mut templates = Vec::new();
        let mut used_paths = BTreeSet::new();
        let mut app_version = "0.1.0".to_string();
        set(&mut values, "fullnameOverride", json!(""));
        set(&mut values, "crd.enabled", json!(true));
        set(&mut values, "crd.keep", json!(true));
        set(&mut values, "rbac.helpers.enabled", json!(true));
        if let Some(namespaced) = scoped_namespace {
            set(&mut values, "rbac.namespaced", json!(namespaced));
        }
        set(&mut values, "serviceAccount.annotations", json!({}));
        set(&mut values, "certManager.enabled", json!(cert_manager));
        set(&mut values, "webhook.enabled", json!(webhooks));
        set(&mut values, "metrics.enabled", json!(true));
        // The manager's ports: from its bind-address flags, and the webhook port from
        // its container port (the server listens on :9443 unless a flag says otherwise).
        let mut ports = Ports(Vec::new());
        let container = manager_container(deployment).context("the manager's Deployment has no container")?;
        for arg in container.get("args").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str) {
            for (flag, path) in PORT_FLAGS {
                let port = arg.strip_prefix(flag).and_then(|a| a.strip_prefix('=')).and_then(|a| a.rsplit_once(':'));
                if let Some(port) = port.and_then(|(_, p)| p.parse::<u64>().ok()) {
                    ports.0.push((port, path));
                }
            }
        }
        let webhook_port = container
            .get("ports")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .find(|p| p.get("name").and_then(Value::as_str) == Some("webhook-server"))
            .and_then(|p| p.get("containerPort").and_then(Value::as_u64));
        if let Some(p) = webhook_port.filter(|p| ports.value_of(*p).is_none()) {
            ports.0.push((p, "webhook.port"));
        }
        for (port, path) in &ports.0 {
            set(&mut values, path, json!(port));
        }
        if !ports.0.iter().any(|(_, p)| *p == "webhook.port") {
            set(&mut values, "webhook.port", json!(9443));
        }
        if !ports.0.iter().any(|(_, p)| *p == "metrics.port") {
            set(&mut values, "metrics.port", json!(8080));
        }

        for object in objects {
            let kind = kind_of(object);
            if kind == "Namespace" {
                // `helm install --create-namespace` makes it; a chart that holds its own
                // release namespace fails on a second install.
                continue;
            }
            let mut holes = Holes::default();
            let mut o = object.clone();
            let name = name_of(object).to_string();
            let suffix = name.strip_prefix(&naming.prefix).unwrap_or(&name).to_string();
            let (dir, condition) = match kind {
                "CustomResourceDefinition" => ("crd", Some("$.Values.crd.enabled".to_string())),
                "Deployment" if std::ptr::eq(object, deployment) => ("manager", None),
                "ServiceAccount" | "Role" | "ClusterRole" | "RoleBinding" | "ClusterRoleBinding" => {
                    let helper = kind == "ClusterRole"
                        && ["-editor-role", "-viewer-role", "-admin-role"].iter().any(|s| name.ends_with(s));
                    ("rbac", helper.then(|| "$.Values.rbac.helpers.enabled".to_string()))
                }
                "Service" if name.ends_with("metrics-service") => ("metrics", Some("$.Values.metrics.enabled".into())),
                "Service" if name.ends_with("webhook-service") => ("webhook", Some(WEBHOOKS_ON.into())),
                "MutatingWebhookConfiguration" | "ValidatingWebhookConfiguration" => {
                    ("webhook", Some(WEBHOOKS_ON.into()))
                }
                // The webhooks' certificate only with the webhooks.
                _ if api_group(object) == "cert-manager.io" => {
                    let secret = object.pointer("/spec/secretName").and_then(Value::as_str);
                    let webhooks = secret.is_some_and(|s| webhook_secrets.contains(s));
                    let condition = if webhooks {
                        format!("and $.Values.certManager.enabled {WEBHOOKS_ON}")
                    } else {
                        "$.Values.certManager.enabled".into()
                    };
                    ("cert-manager", Some(condition))
                }
                _ => ("extras", None),
            };
            // First what becomes values, as the install has it (values are data: never
            // rendered as template text, but for the args, which go through tpl).
            if kind == "ServiceAccount" && Some(name.as_str()) == manager_account {
                let meta = o["metadata"].as_object_mut().context("metadata")?;
                let annotations = meta.remove("annotations").unwrap_or_else(|| json!({}));
                set(&mut values, "serviceAccount.annotations", annotations);
                meta.insert(holes.block(with_block("annotations", "serviceAccount.annotations", false)), Value::Null);
            }
            if dir == "metrics" || dir == "webhook" && kind == "Service" {
                ports.fill(&mut o, &mut holes);
            }
            if dir == "manager" {
                app_version = manager_values(
                    &mut o,
                    &mut values,
                    &ports,
                    WebhookCerts { secrets: &cert_secrets, own: own_certs.as_ref(), scoping: scoped.is_some() },
                    &naming,
                    project,
                    &mut holes,
                )?;
            }
            if let Some((role, binding, _)) = &scoped {
                let scope = |o: &mut Value, holes: &mut Holes, namespaced: &str, cluster: &str| -> Result<()> {
                    o["kind"] = Value::String(holes.inline(format!(
                        "{{{{ if $.Values.rbac.namespaced }}}}{namespaced}{{{{ else }}}}{cluster}{{{{ end }}}}"
                    )));
                    let meta = o["metadata"].as_object_mut().context("metadata")?;
                    meta.remove("namespace");
                    let lines = vec![
                        "{{- if $.Values.rbac.namespaced }}".to_string(),
                        "namespace: {{ $.Release.Namespace }}".into(),
                        "{{- end }}".into(),
                    ];
                    meta.insert(holes.block(lines), Value::Null);
                    Ok(())
                };
                if name == *role && matches!(kind, "Role" | "ClusterRole") {
                    scope(&mut o, &mut holes, "Role", "ClusterRole")?;
                }
                if name == *binding && matches!(kind, "RoleBinding" | "ClusterRoleBinding") {
                    scope(&mut o, &mut holes, "RoleBinding", "ClusterRoleBinding")?;
                    o["roleRef"]["kind"] = Value::String(
                        holes.inline("{{ if $.Values.rbac.namespaced }}Role{{ else }}ClusterRole{{ end }}".into()),
                    );
                }
                if matches!(kind, "MutatingWebhookConfiguration" | "ValidatingWebhookConfiguration") {
                    // A namespace-scoped manager's webhooks see its namespace's objects only.
                    let install_namespace = naming.namespace.clone();
                    for hook in o.get_mut("webhooks").and_then(Value::as_array_mut).into_iter().flatten() {
                        let Some(hook) = hook.as_object_mut() else { continue };
                        let own = hook.get("namespaceSelector").is_some_and(|s| {
                            *s == json!({"matchLabels": {"kubernetes.io/metadata.name": install_namespace}})
                        });
                        if own {
                            hook.remove("namespaceSelector");
                        }
                        if !hook.contains_key("namespaceSelector") {
                            let lines = vec![
                                "{{- if $.Values.rbac.namespaced }}".to_string(),
                                "namespaceSelector:".into(),
                                "  matchLabels:".into(),
                                "    kubernetes.io/metadata.name: {{ $.Release.Namespace }}".into(),
                                "{{- end }}".into(),
                            ];
                            hook.insert(holes.block(lines), Value::Null);
                        }
                    }
                }
            }
            // Then the text left is the template's: a `{{` in it (a description, an
            // annotation) is written so that Helm prints it rather than runs it.
            escape_actions(&mut o);
            // Names and the namespace become the release's; a CRD's schema is left alone.
            {
                let map = o.as_object_mut().context("an object")?;
                let versions = match kind {
                    "CustomResourceDefinition" => {
                        map.get_mut("spec").and_then(|s| s.as_object_mut()?.remove("versions"))
                    }
                    _ => None,
                };
                // cert-manager's CA injection names the Certificate: only with cert-manager.
                let inject = map
                    .get_mut("metadata")
                    .and_then(|m| m.get_mut("annotations"))
                    .and_then(Value::as_object_mut)
                    .and_then(|a| a.remove("cert-manager.io/inject-ca-from"));
                naming.rewrite_all(&mut o, &mut holes);
                if let Some(versions) = versions {
                    o["spec"]["versions"] = versions;
                }
                // A conversion webhook calls the webhooks' Service: without the webhooks,
                // the versions convert as `None` does.
                let spec = o.get_mut("spec").and_then(Value::as_object_mut);
                if let Some(spec) = spec.filter(|s| kind == "CustomResourceDefinition" && converts_by_webhook(s)) {
                    let conversion = spec.remove("conversion").unwrap_or_default();
                    let yaml = yaml_body(&conversion).context("rendering a CRD's conversion")?;
                    let mut lines = vec![format!("{{{{- if {WEBHOOKS_ON} }}}}"), "conversion:".to_string()];
                    lines.extend(yaml.lines().map(|l| format!("  {l}")));
                    lines.extend(["{{- else }}", "conversion:", "  strategy: None", "{{- end }}"].map(String::from));
                    spec.insert(holes.block(lines), Value::Null);
                }
                let meta = o["metadata"].as_object_mut().context("metadata")?;
                let annotations = meta.entry("annotations").or_insert_with(|| json!({}));
                if let Some(mut inject) = inject {
                    naming.rewrite_all(&mut inject, &mut holes);
                    let inject = inject.as_str().unwrap_or_default().to_string();
                    // The Certificate it names is the webhooks' (and without them a CRD
                    // converts as None, where the API server takes no CA).
                    let lines = vec![
                        format!("{{{{- if and $.Values.certManager.enabled {WEBHOOKS_ON} }}}}"),
                        format!("cert-manager.io/inject-ca-from: {inject}"),
                        "{{- end }}".into(),
                    ];
                    annotations[holes.block(lines).as_str()] = Value::Null;
                }
                if kind == "CustomResourceDefinition" {
                    let lines = vec![
                        "{{- if $.Values.crd.keep }}".into(),
                        "helm.sh/resource-policy: keep".into(),
                        "{{- end }}".into(),
                    ];
                    annotations[holes.block(lines).as_str()] = Value::Null;
                }
                if annotations.as_object().is_some_and(Map::is_empty) {
                    meta.remove("annotations");
                }
                // Helm's labels; kustomize's managed-by would say otherwise.
                let labels = meta.entry("labels").or_insert_with(|| json!({}));
                let labels = labels.as_object_mut().context("metadata.labels")?;
                labels.remove("app.kubernetes.io/managed-by");
                let include = format!("{{{{- include \"{project}.labels\" $ | nindent {INDENT} }}}}");
                labels.insert(holes.block(vec![include]), Value::Null);
            }
            let yaml = kubegen::to_yaml(&o).with_context(|| format!("rendering {kind} {name}"))?;
            let mut path = format!("templates/{dir}/{suffix}.yaml");
            if !used_paths.insert(path.clone()) {
                path = format!("templates/{dir}/{}-{suffix}.yaml", kind.to_lowercase());
                if !used_paths.insert(path.clone()) {
                    bail!("{from}: two {kind} objects named {name}: each object of a kind needs its own name");
                }
            }
            templates.push(Template { path, condition, yaml: holes.fill(&yaml) });
        }
        if let Some(own) = &own_certs {
            templates.push(Template {
                path: "templates/webhook/own-certs-rbac.yaml".into(),
                condition: Some(OWN_CERTS.into()),
                yaml: own.rbac(project),
            });
        }
        let needs_cert_manager = webhooks && cert_manager && own_certs.is_none();
        Ok(Chart { project: project.into(), from: from.into(), templates, values, app_version, needs_cert_manager })
    }

    /// `_helpers.tpl`: the release's name prefix and Helm's labels.
    fn helpers(&self) -> String {
        let p = &self.project;
        format!(
            r#"{{{{/*
The prefix of every name: the release name when it holds the chart's name (so
`helm install {p}` names objects as dist/install.yaml does), else <release>-<chart>;
fullnameOverride replaces it.
*/}}}}
{{{{- define "{p}.fullname" -}}}}
{{{{- if .Values.fullnameOverride -}}}}
{{{{- .Values.fullnameOverride | trimSuffix "-" -}}}}
{{{{- else if contains .Chart.Name .Release.Name -}}}}
{{{{- .Release.Name | trimSuffix "-" -}}}}
{{{{- else -}}}}
{{{{- printf "%s-%s" .Release.Name .Chart.Name | trimSuffix "-" -}}}}
{{{{- end -}}}}
{{{{- end }}}}

{{{{/* The labels Helm's objects carry: who manages them, the release, the chart. */}}}}
{{{{- define "{p}.labels" -}}}}
app.kubernetes.io/managed-by: {{{{ .Release.Service }}}}
app.kubernetes.io/instance: {{{{ .Release.Name }}}}
helm.sh/chart: {{{{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}}}
{{{{- end }}}}
"#
        )
    }

    fn template_text(&self, t: &Template) -> String {
        let mut body = format!("{{{{- $fullname := include \"{}.fullname\" . }}}}\n", self.project);
        if t.path.starts_with("templates/manager/") && self.needs_cert_manager {
            // The manager cannot keep the certificate itself here (no webhook Service or
            // ServiceAccount of the release's to name): cert-manager issues it.
            body.push_str(
                "{{- if and $.Values.webhook.enabled (not $.Values.certManager.enabled) }}\n\
                 {{- fail \"webhook.enabled needs certManager.enabled: cert-manager issues the webhooks' serving certificate (set webhook.enabled=false to install without the webhooks)\" }}\n\
                 {{- end }}\n",
            );
        }
        if let Some(c) = &t.condition {
            body.push_str(&format!("{{{{- if {c} }}}}\n"));
        }
        body.push_str(&t.yaml);
        if t.condition.is_some() {
            body.push_str("{{- end }}\n");
        }
        body
    }

    /// What to write, remove and keep in `out` (the chart's directory).
    fn plan(&self, out: &Path, force: bool) -> Result<Plan> {
        let mut plan = Plan::default();
        let mut generated: BTreeMap<String, String> = BTreeMap::new();
        generated.insert("templates/_helpers.tpl".into(), self.helpers());
        for t in &self.templates {
            generated.insert(t.path.clone(), self.template_text(t));
        }
        for (path, body) in &generated {
            let file = out.join(path);
            let contents = marked(&self.from, path, body);
            match std::fs::read_to_string(&file) {
                // Without the mark it is yours, --force or not.
                Ok(on_disk) if on_disk != contents && !has_mark(&on_disk) => {
                    plan.kept.push((file, "yours (no mark of codegen-cli helm): remove it to have it written".into()));
                }
                Ok(on_disk) if on_disk != contents && !force && !ours_unedited(path, &on_disk) => {
                    let why =
                        "you edited it (--force rewrites it; set values instead, or remove the mark's line to own it)";
                    plan.kept.push((file, why.into()));
                }
                _ => plan.write.push(Output::generated(file, contents)),
            }
        }
        // Templates this command wrote that the install no longer has.
        let mut files = Vec::new();
        let templates = out.join("templates");
        crate::fingerprint::walk_all(&templates, &mut |p| files.push(p.to_path_buf()))
            .with_context(|| format!("reading {}", templates.display()))?;
        for file in files {
            let rel = file.strip_prefix(out).unwrap_or(&file).to_string_lossy().replace('\\', "/");
            if generated.contains_key(&rel) {
                continue;
            }
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            if ours_unedited(&rel, &text) {
                plan.remove.push(file);
            } else if has_mark(&text) {
                plan.kept
                    .push((file, "its object is gone from the install, but you edited it: remove it by hand".into()));
            }
        }
        let scaffolded = |path: &str, contents: String| Output::scaffolded(out.join(path), contents);
        plan.write.push(scaffolded("Chart.yaml", self.chart_yaml()));
        plan.write.push(scaffolded(".helmignore", HELMIGNORE.into()));
        plan.write.push(scaffolded("templates/NOTES.txt", self.notes()));
        // values.yaml: three ways (see the module's doc).
        let base_path = out.join(".kubegen/values.yaml");
        let values_path = out.join("values.yaml");
        let base = read_values(&base_path)?;
        let (values, conflicts) = match read_values(&values_path)? {
            None => (self.values.clone(), Vec::new()),
            Some(ours) => {
                let mut conflicts = Vec::new();
                if base.is_none() {
                    conflicts.push(format!(
                        "no record of the defaults last written ({}): each value that differs from the install's is kept as yours",
                        base_path.display()
                    ));
                }
                let merged = merge(base.as_ref(), Some(&ours), Some(&self.values), "", &mut conflicts);
                (merged.unwrap_or_else(|| json!({})), conflicts)
            }
        };
        for c in conflicts {
            plan.kept.push((values_path.clone(), c));
        }
        let text = render_values(&values);
        let unchanged = read_values(&values_path)?.as_ref() == Some(&values);
        if !unchanged {
            plan.write.push(Output::generated(values_path, text));
        }
        let base_text = format!(
            "# The defaults codegen-cli helm last wrote into values.yaml: what it merges your values.yaml against.\n{}",
            render_values(&self.values)
        );
        plan.write.push(Output::generated(base_path, base_text));
        Ok(plan)
    }

    fn chart_yaml(&self) -> String {
        let p = &self.project;
        format!(
            "# Written once by codegen-cli helm; yours from now on (bump version for each release of the chart).\n\
             apiVersion: v2\n\
             name: {p}\n\
             description: The {p} operator - its CRDs, RBAC and manager\n\
             type: application\n\
             version: 0.1.0\n\
             appVersion: \"{}\"\n",
            self.app_version
        )
    }

    fn notes(&self) -> String {
        format!(
            "{{{{ .Chart.Name }}}} is installed as {{{{ .Release.Name }}}} in {{{{ .Release.Namespace }}}}.\n\n\
             Its manager: kubectl -n {{{{ .Release.Namespace }}}} get deployment {{{{ include \"{p}.fullname\" . }}}}-controller-manager\n\
             {{{{- if .Values.crd.keep }}}}\n\
             helm uninstall leaves the CRDs and every object of their kinds (crd.keep); delete the CRDs to remove those.\n\
             {{{{- end }}}}\n",
            p = self.project
        )
    }
}

fn api_group(o: &Value) -> &str {
    o.get("apiVersion").and_then(Value::as_str).and_then(|v| v.split_once('/')).map(|(g, _)| g).unwrap_or_default()
}

fn manager_container(deployment: &Value) -> Option<&Value> {
    let containers = deployment.pointer("/spec/template/spec/containers")?.as_array()?;
    containers.iter().find(|c| c.get("name").and_then(Value::as_str) == Some("manager")).or_else(|| containers.first())
}

/// The manager's Deployment with its settings taken into `values`; returns the image's
/// tag (the chart's appVersion).
fn manager_values(
    o: &mut Value,
    values: &mut Value,
    ports: &Ports,
    certs: WebhookCerts,
    naming: &Naming,
    project: &str,
    holes: &mut Holes,
) -> Result<String> {
    let WebhookCerts { secrets: cert_secrets, own: own_certs, scoping } = certs;
    let spec = o["spec"].as_object_mut().context("the Deployment's spec")?;
    let replicas = spec.get("replicas").cloned().unwrap_or(json!(1));
    set(values, "manager.replicas", replicas);
    spec.insert("replicas".into(), Value::String(holes.inline("{{ $.Values.manager.replicas }}".into())));
    let template = spec.get_mut("template").and_then(Value::as_object_mut).context("the Deployment's pod template")?;
    let meta = template.entry("metadata").or_insert_with(|| json!({})).as_object_mut().context("pod metadata")?;
    let pod_annotations = meta.remove("annotations").unwrap_or_else(|| json!({}));
    set(values, "manager.pod.annotations", pod_annotations);
    meta.insert(holes.block(with_block("annotations", "manager.pod.annotations", false)), Value::Null);
    set(values, "manager.pod.labels", json!({}));
    let labels = meta.entry("labels").or_insert_with(|| json!({})).as_object_mut().context("pod labels")?;
    labels.insert(
        holes.block(vec![
            "{{- with $.Values.manager.pod.labels }}".into(),
            format!("{{{{- toYaml . | nindent {INDENT} }}}}"),
            "{{- end }}".into(),
        ]),
        Value::Null,
    );
    let pod = template.get_mut("spec").and_then(Value::as_object_mut).context("the pod spec")?;
    lift(pod, "securityContext", values, "manager.podSecurityContext", json!({}), holes);
    for (key, default) in [
        ("nodeSelector", json!({})),
        ("affinity", json!({})),
        ("tolerations", json!([])),
        ("imagePullSecrets", json!([])),
    ] {
        lift(pod, key, values, &format!("manager.{key}"), default, holes);
    }
    lift(pod, "priorityClassName", values, "manager.priorityClassName", json!(""), holes);
    if let Some(grace) = pod.get("terminationGracePeriodSeconds").cloned() {
        set(values, "manager.terminationGracePeriodSeconds", grace);
        pod.insert(
            "terminationGracePeriodSeconds".into(),
            Value::String(holes.inline("{{ $.Values.manager.terminationGracePeriodSeconds }}".into())),
        );
    }
    // The webhooks' certificate volume: only with the webhooks (and cert-manager, when
    // the manager can keep them itself).
    let cert_volumes: BTreeSet<String> = pod
        .get("volumes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|v| v.pointer("/secret/secretName").and_then(Value::as_str).is_some_and(|s| cert_secrets.contains(s)))
        .filter_map(|v| v.get("name").and_then(Value::as_str).map(String::from))
        .collect();
    // A volume and its mounts are the webhooks' when they are the certificate's.
    let of_webhooks = |items: Vec<Value>| -> Vec<(Option<&str>, Value)> {
        let webhooks = |v: &Value| v.get("name").and_then(Value::as_str).is_some_and(|n| cert_volumes.contains(n));
        let condition = if own_certs.is_some() { CERT_MANAGER_WEBHOOKS } else { WEBHOOKS_ON };
        items.into_iter().map(|v| (webhooks(&v).then_some(condition), v)).collect()
    };
    if let Some(Value::Array(volumes)) = pod.remove("volumes") {
        let block = conditional_list("volumes", of_webhooks(volumes), naming, holes)?;
        pod.insert(holes.block(block), Value::Null);
    }
    let containers = pod.get_mut("containers").and_then(Value::as_array_mut).context("the pod's containers")?;
    let at =
        containers.iter().position(|c| c.get("name").and_then(Value::as_str) == Some("manager")).unwrap_or_default();
    let container = containers.get_mut(at).and_then(Value::as_object_mut).context("the manager's container")?;
    let image = container.get("image").and_then(Value::as_str).unwrap_or("controller:latest").to_string();
    let (repository, tag, digest) = split_image(&image);
    set(values, "manager.image.repository", json!(repository));
    set(values, "manager.image.tag", json!(tag));
    set(values, "manager.image.digest", json!(digest));
    container.insert(
        "image".into(),
        Value::String(holes.inline(
            "{{ $.Values.manager.image.repository }}{{ with $.Values.manager.image.digest }}@{{ . }}{{ else }}:{{ $.Values.manager.image.tag | default $.Chart.AppVersion }}{{ end }}"
                .into(),
        )),
    );
    lift(container, "imagePullPolicy", values, "manager.image.pullPolicy", json!(""), holes);
    // Args: each through `tpl`, the bind addresses' ports from values.
    let args: Vec<Value> = container
        .remove("args")
        .and_then(|a| a.as_array().cloned())
        .unwrap_or_default()
        .into_iter()
        .map(|a| match a.as_str() {
            Some(s) => {
                let templated = PORT_FLAGS.iter().find_map(|(flag, path)| {
                    let rest = s.strip_prefix(flag)?.strip_prefix('=')?;
                    let (host, port) = rest.rsplit_once(':')?;
                    port.parse::<u64>().ok()?;
                    Some(format!("{flag}={host}:{{{{ .Values.{path} }}}}"))
                });
                // An arg goes through tpl: a `{{` of its own is printed, not run, and the
                // release's names and namespace stand for the install's.
                json!(templated.unwrap_or_else(|| {
                    let escaped = s.replace("{{", "{{ `{{` }}");
                    naming.rewrite_for_tpl(&escaped, project).unwrap_or(escaped)
                }))
            }
            None => a,
        })
        .collect();
    // Only a flag whose port the values set (`--webhook-bind-address=HOST:PORT`) counts.
    let webhook_flag = args
        .iter()
        .filter_map(Value::as_str)
        .any(|a| a.starts_with("--webhook-bind-address=") && a.contains("{{ .Values."));
    set(values, "manager.args", Value::Array(args));
    let mut block: Vec<String> = vec!["args:".into(), "{{- range $.Values.manager.args }}".into()];
    if scoping {
        // rbac.namespaced: the manager watches the release's namespace (its own
        // --namespace, or this one); cluster-wide, a --namespace of the install goes.
        block.extend([
            "{{- if or $.Values.rbac.namespaced (not (hasPrefix \"--namespace=\" .)) }}".into(),
            "- {{ tpl . $ | quote }}".into(),
            "{{- end }}".into(),
            "{{- end }}".into(),
            "{{- if $.Values.rbac.namespaced }}".into(),
            "{{- $scoped := false }}".into(),
            "{{- range $.Values.manager.args }}{{ if hasPrefix \"--namespace=\" . }}{{ $scoped = true }}{{ end }}{{ end }}".into(),
            "{{- if not $scoped }}".into(),
            "- {{ printf \"--namespace=%s\" $.Release.Namespace | quote }}".into(),
            "{{- end }}".into(),
            "{{- end }}".into(),
        ]);
    } else {
        block.extend(["- {{ tpl . $ | quote }}".into(), "{{- end }}".into()]);
    }
    // The webhook server listens on the install's port unless a flag says otherwise: a
    // webhook.port of another number passes one.
    let webhook_port = ports.0.iter().find(|(_, path)| *path == "webhook.port").map(|(port, _)| *port);
    if let (false, Some(port)) = (webhook_flag, webhook_port) {
        block.push(format!("{{{{- if and {WEBHOOKS_ON} (ne (int $.Values.webhook.port) {port}) }}}}"));
        block.push("- {{ printf \"--webhook-bind-address=:%v\" $.Values.webhook.port | quote }}".into());
        block.push("{{- end }}".into());
    }
    if let Some(own) = own_certs {
        block.extend(own.args());
    }
    container.insert(holes.block(block), Value::Null);
    // Env: the list, each name's value replaced by envOverrides, then the overrides no
    // entry names.
    let env = container.remove("env").unwrap_or_else(|| json!([]));
    set(values, "manager.env", env);
    set(values, "manager.envOverrides", json!({}));
    container.insert(
        holes.block(vec![
            "{{- if or $.Values.manager.env $.Values.manager.envOverrides }}".into(),
            "env:".into(),
            "{{- $names := list }}".into(),
            "{{- range $.Values.manager.env }}".into(),
            "{{- $names = append $names .name }}".into(),
            "{{- if hasKey $.Values.manager.envOverrides .name }}".into(),
            "- name: {{ .name }}".into(),
            "  value: {{ get $.Values.manager.envOverrides .name | toString | quote }}".into(),
            "{{- else }}".into(),
            format!("{{{{- toYaml (list .) | nindent {INDENT} }}}}"),
            "{{- end }}".into(),
            "{{- end }}".into(),
            "{{- range $name, $value := $.Values.manager.envOverrides }}".into(),
            "{{- if not (has $name $names) }}".into(),
            "- name: {{ $name }}".into(),
            "  value: {{ $value | toString | quote }}".into(),
            "{{- end }}".into(),
            "{{- end }}".into(),
            "{{- end }}".into(),
        ]),
        Value::Null,
    );
    lift(container, "resources", values, "manager.resources", json!({}), holes);
    lift(container, "securityContext", values, "manager.securityContext", json!({}), holes);
    if let Some(Value::Array(items)) = container.remove("ports") {
        let items = items
            .into_iter()
            .map(|p| {
                let webhook = p.get("name").and_then(Value::as_str) == Some("webhook-server");
                (webhook.then_some(WEBHOOKS_ON), p)
            })
            .collect::<Vec<_>>();
        let mut items = items;
        for (_, p) in &mut items {
            ports.fill(p, holes);
        }
        let block = conditional_list("ports", items, naming, holes)?;
        container.insert(holes.block(block), Value::Null);
    }
    if let Some(Value::Array(mounts)) = container.remove("volumeMounts") {
        let block = conditional_list("volumeMounts", of_webhooks(mounts), naming, holes)?;
        container.insert(holes.block(block), Value::Null);
    }
    for probe in ["livenessProbe", "readinessProbe", "startupProbe"] {
        if let Some(p) = container.get_mut(probe) {
            ports.fill(p, holes);
        }
    }
    Ok(if tag.is_empty() { "0.1.0".into() } else { tag })
}

/// `registry/name:tag` or `registry/name@sha256:...` as (repository, tag, digest).
fn split_image(image: &str) -> (String, String, String) {
    if let Some((repository, digest)) = image.split_once('@') {
        return (repository.into(), String::new(), digest.into());
    }
    match image.rsplit_once(':') {
        Some((repository, tag)) if !tag.contains('/') => (repository.into(), tag.into(), String::new()),
        _ => (image.into(), "latest".into(), String::new()),
    }
}

#[derive(Default)]
struct Plan {
    write: Vec<Output>,
    remove: Vec<PathBuf>,
    kept: Vec<(PathBuf, String)>,
}

const MARK: &str = "{{/* Written by codegen-cli helm from ";

/// `body` under the mark line that holds its hash (and its path's: a copy elsewhere is
/// not this command's).
fn marked(from: &str, path: &str, body: &str) -> String {
    format!(
        "{MARK}{from}; rewritten while it is unchanged (set values.yaml, or change config/ and run it again). sha256:{} */}}}}\n{body}",
        hash(path, body)
    )
}

fn hash(path: &str, body: &str) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::new().chain_update(path.as_bytes()).chain_update([0]).chain_update(body.as_bytes());
    digest.finalize().iter().take(8).map(|b| format!("{b:02x}")).collect()
}

fn has_mark(text: &str) -> bool {
    text.starts_with(MARK)
}

/// A file this command wrote at `path` (chart-relative), as it wrote it: its mark's hash
/// is its path's and its rest's.
fn ours_unedited(path: &str, text: &str) -> bool {
    text.split_once('\n').is_some_and(|(first, rest)| {
        first.starts_with(MARK)
            && first
                .rsplit_once("sha256:")
                .and_then(|(_, h)| h.strip_suffix(" */}}"))
                .is_some_and(|h| h == hash(path, rest))
    })
}

const HELMIGNORE: &str = "# Written once by codegen-cli helm; yours from now on. Left out of the packaged chart:\n\
.kubegen/\n\
.git/\n\
*.tmp\n\
*.orig\n\
*~\n";

fn read_values(path: &Path) -> Result<Option<Value>> {
    match std::fs::read_to_string(path) {
        Ok(text) => {
            let v: Value =
                serde_saphyr::from_str(&text).map_err(|e| anyhow::anyhow!("{}: not YAML: {e}", path.display()))?;
            match v {
                Value::Null => Ok(Some(json!({}))),
                Value::Object(_) => Ok(Some(v)),
                _ => bail!("{}: not a mapping of values (Helm's values.yaml is one)", path.display()),
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
    }
}

/// Three-way merge of values: `base` the defaults written last, `ours` the file as it is,
/// `theirs` the defaults now. Mappings merge key by key; anything else is one value: yours
/// where you changed it, else the new default. A value you changed whose default changed
/// too stays yours, and is named in `conflicts`.
fn merge(
    base: Option<&Value>,
    ours: Option<&Value>,
    theirs: Option<&Value>,
    path: &str,
    conflicts: &mut Vec<String>,
) -> Option<Value> {
    if let (Some(Value::Object(o)), Some(Value::Object(t))) = (ours, theirs) {
        let b = base.and_then(Value::as_object);
        let keys: BTreeSet<&String> = o.keys().chain(t.keys()).collect();
        let mut out = Map::new();
        for key in keys {
            let at = if path.is_empty() { key.clone() } else { format!("{path}.{key}") };
            if let Some(v) = merge(b.and_then(|b| b.get(key)), o.get(key), t.get(key), &at, conflicts) {
                out.insert(key.clone(), v);
            }
        }
        return Some(Value::Object(out));
    }
    let unchanged = match base {
        Some(b) => ours == Some(b),
        // Nothing written before: a value equal to the default is not an edit.
        None => ours == theirs || ours.is_none(),
    };
    if unchanged {
        return theirs.cloned();
    }
    if base.is_some() && theirs != base && ours != theirs {
        let show = |v: Option<&Value>| v.map_or("nothing".to_string(), |v| v.to_string());
        conflicts.push(format!("{path}: kept yours ({}); the install now gives {}", show(ours), show(theirs)));
    }
    ours.cloned()
}

/// What values.yaml says above each value.
const COMMENTS: &[(&str, &str)] = &[
    ("fullnameOverride", "Replaces the names' whole prefix (by default the release name, or <release>-<chart>)."),
    ("manager", "The manager's Deployment."),
    (
        "manager.replicas",
        "With --leader-elect one replica works and the others wait; --sharding makes every replica work.",
    ),
    ("manager.image", "The manager's image: repository:tag, or repository@digest when digest is set."),
    ("manager.image.tag", "Empty: the chart's appVersion."),
    ("manager.image.pullPolicy", "Always, IfNotPresent or Never; empty leaves it to the cluster."),
    ("manager.args", "The manager's flags, each rendered through tpl (so a flag can read values, as the ports do)."),
    ("manager.env", "The manager's environment."),
    ("manager.envOverrides", "name: value pairs that replace an env entry of that name, or are added."),
    ("manager.healthProbe", "The port of /healthz and /readyz (--health-probe-bind-address)."),
    ("manager.resources", "The manager container's resources."),
    ("manager.securityContext", "The manager container's security context."),
    ("manager.podSecurityContext", "The pod's security context."),
    ("manager.pod", "Labels and annotations added to the manager's pods."),
    ("rbac", "RBAC: the manager's role, and its helpers."),
    (
        "rbac.namespaced",
        "A namespace-scoped manager: a Role and RoleBinding in the release's namespace, --namespace to it, and webhooks for its objects only; else a ClusterRole (the default follows codegen-cli edit --namespaced).",
    ),
    ("rbac.helpers", "The editor and viewer ClusterRoles of each kind (create api scaffolds them)."),
    ("serviceAccount", "The manager's ServiceAccount."),
    (
        "crd",
        "The CRDs: installed and upgraded with the release; keep leaves them (and every object of their kinds) on uninstall.",
    ),
    ("metrics", "The metrics Service in front of the manager's /metrics (--metrics-bind-address)."),
    ("webhook", "The admission and conversion webhooks: their configurations, Service and port."),
    (
        "certManager",
        "cert-manager issues the webhooks' serving certificate and injects its CA; off, the manager keeps them itself (--webhook-cert-secret, a Role for its Secret and a ClusterRole for the caBundles).",
    ),
];

/// The top-level order of values.yaml.
const ORDER: &[&str] =
    &["fullnameOverride", "manager", "rbac", "serviceAccount", "crd", "metrics", "webhook", "certManager"];

/// values.yaml: each value under its comment, in a fixed order, the rest sorted.
fn render_values(values: &Value) -> String {
    let mut out = String::from(
        "# The chart's values (codegen-cli helm). Your changes stay when it runs again: each value you\n\
         # changed is kept, the others follow dist/install.yaml.\n",
    );
    render_map(values.as_object().cloned().unwrap_or_default(), "", 0, &mut out);
    out
}

fn render_map(map: Map<String, Value>, path: &str, indent: usize, out: &mut String) {
    let mut keys: Vec<&String> = map.keys().collect();
    keys.sort_by_key(|k| (ORDER.iter().position(|o| o == k).unwrap_or(usize::MAX), (*k).clone()));
    let pad = " ".repeat(indent);
    for key in keys {
        let at = if path.is_empty() { key.clone() } else { format!("{path}.{key}") };
        if let Some((_, comment)) = COMMENTS.iter().find(|(p, _)| *p == at) {
            if indent == 0 {
                out.push('\n');
            }
            out.push_str(&format!("{pad}# {comment}\n"));
        }
        let value = &map[key];
        match value {
            Value::Object(inner) if !inner.is_empty() => {
                out.push_str(&format!("{pad}{}:\n", yaml_key(key)));
                render_map(inner.clone(), &at, indent + 2, out);
            }
            Value::Array(items) if !items.is_empty() => {
                out.push_str(&format!("{pad}{}:\n", yaml_key(key)));
                for line in yaml_body(value).unwrap_or_default().lines() {
                    out.push_str(&format!("{pad}{line}\n"));
                }
            }
            _ => {
                let scalar = yaml_body(value).unwrap_or_default();
                out.push_str(&format!("{pad}{}: {}\n", yaml_key(key), scalar.trim_end()));
            }
        }
    }
}

fn yaml_key(key: &str) -> String {
    yaml_body(&Value::String(key.into())).unwrap_or_default().trim_end().to_string()
}

/// `value` as YAML (kubegen's form), without the document's leading `---`.
fn yaml_body(value: &Value) -> Result<String, kubegen::crd::YamlError> {
    let yaml = kubegen::to_yaml(value)?;
    Ok(yaml.strip_prefix("---\n").map(String::from).unwrap_or(yaml))
}

/// An object's identity: `Kind.group namespace/name`.
fn object_key(o: &Value) -> String {
    let group = api_group(o);
    let kind = if group.is_empty() { kind_of(o).to_string() } else { format!("{}.{group}", kind_of(o)) };
    format!("{kind} {}{}", namespace_of(o).map(|n| format!("{n}/")).unwrap_or_default(), name_of(o))
}

/// The labels and annotations Helm's objects carry that an install's do not.
const HELM_LABELS: [&str; 3] = ["app.kubernetes.io/managed-by", "app.kubernetes.io/instance", "helm.sh/chart"];

/// Every difference between the install's objects and the chart's rendering of them,
/// object by object (see `--verify`).
pub fn compare(install: &[Value], rendered: &[Value]) -> Vec<String> {
    let key = object_key;
    let normal = |o: &Value| {
        let mut o = o.clone();
        if let Some(meta) = o.get_mut("metadata").and_then(Value::as_object_mut) {
            if let Some(labels) = meta.get_mut("labels").and_then(Value::as_object_mut) {
                HELM_LABELS.iter().for_each(|l| {
                    labels.remove(*l);
                });
            }
            if let Some(annotations) = meta.get_mut("annotations").and_then(Value::as_object_mut) {
                annotations.remove("helm.sh/resource-policy");
            }
            for key in ["labels", "annotations"] {
                if meta.get(key).is_some_and(|v| v.is_null() || v.as_object().is_some_and(Map::is_empty)) {
                    meta.remove(key);
                }
            }
        }
        drop_nulls(&mut o);
        o
    };
    let ours: BTreeMap<String, Value> =
        install.iter().filter(|o| kind_of(o) != "Namespace").map(|o| (key(o), normal(o))).collect();
    let theirs: BTreeMap<String, Value> = rendered.iter().map(|o| (key(o), normal(o))).collect();
    let mut differences = Vec::new();
    for (k, o) in &ours {
        match theirs.get(k) {
            None => differences.push(format!("{k}: in the install, not rendered by the chart")),
            Some(r) => {
                let mut paths = Vec::new();
                diff_paths(o, r, String::new(), &mut paths);
                for p in paths.iter().take(8) {
                    differences.push(format!("{k}: {p}"));
                }
            }
        }
    }
    for k in theirs.keys().filter(|k| !ours.contains_key(*k)) {
        differences.push(format!("{k}: rendered by the chart, not in the install"));
    }
    differences
}

fn drop_nulls(v: &mut Value) {
    match v {
        Value::Object(map) => {
            map.retain(|_, v| !v.is_null());
            map.values_mut().for_each(drop_nulls);
        }
        Value::Array(items) => items.iter_mut().for_each(drop_nulls),
        _ => {}
    }
}

fn diff_paths(a: &Value, b: &Value, at: String, out: &mut Vec<String>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for k in keys {
                match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => diff_paths(p, q, format!("{at}.{k}"), out),
                    (Some(p), None) => out.push(format!("{at}.{k}: {p} in the install, absent in the chart")),
                    (None, Some(q)) => out.push(format!("{at}.{k}: absent in the install, {q} in the chart")),
                    (None, None) => {}
                }
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                diff_paths(p, q, format!("{at}[{i}]"), out);
            }
        }
        _ if a == b => {}
        _ => out.push(format!("{at}: {a} in the install, {b} in the chart")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_the_namespace_become_the_releases_where_they_stand_whole() {
        let naming = Naming {
            prefix: "op-".into(),
            namespace: "op-system".into(),
            names: ["op-serving-cert", "op-webhook-service"].map(String::from).into(),
        };
        let mut holes = Holes::default();
        let dns = naming.rewrite("op-webhook-service.op-system.svc", &mut holes).unwrap();
        let inject = naming.rewrite("op-system/op-serving-cert", &mut holes).unwrap();
        assert_eq!(naming.rewrite("op-systemd/op-serving-certs", &mut holes), None, "only whole words");
        let filled = holes.fill(&format!("a: {dns}\nb: {inject}\n"));
        assert_eq!(
            filled,
            "a: {{ print $fullname `-webhook-service` | trunc 63 | trimSuffix `-` }}.{{ $.Release.Namespace }}.svc\n\
             b: {{ $.Release.Namespace }}/{{ print $fullname `-serving-cert` | trunc 63 | trimSuffix `-` }}\n"
        );
    }

    #[test]
    fn a_block_takes_its_keys_indentation_and_an_inline_hole_its_quotes() {
        let mut holes = Holes::default();
        let n = holes.inline("{{ $.Values.manager.replicas }}".into());
        let b = holes.block(with_block("resources", "manager.resources", false));
        let yaml = format!("spec:\n  replicas: '{n}'\n  {b}: null\n");
        assert_eq!(
            holes.fill(&yaml),
            "spec:\n  replicas: {{ $.Values.manager.replicas }}\n  {{- with $.Values.manager.resources }}\n  resources:\n    {{- toYaml . | nindent 4 }}\n  {{- end }}\n"
        );
    }

    #[test]
    fn values_merge_three_ways_keeping_what_you_changed() {
        let base = json!({"manager": {"replicas": 1, "image": {"tag": "v1"}, "args": ["--a"]}, "old": true});
        let ours = json!({"manager": {"replicas": 3, "image": {"tag": "v1"}, "args": ["--a"]}, "old": true, "mine": 1});
        let theirs = json!({"manager": {"replicas": 2, "image": {"tag": "v2"}, "args": ["--a", "--b"]}});
        let mut conflicts = Vec::new();
        let merged = merge(Some(&base), Some(&ours), Some(&theirs), "", &mut conflicts).unwrap();
        assert_eq!(
            merged,
            json!({"manager": {"replicas": 3, "image": {"tag": "v2"}, "args": ["--a", "--b"]}, "mine": 1}),
            "your replicas and key stay, the tag and args follow the install, a dropped default goes"
        );
        assert_eq!(conflicts, ["manager.replicas: kept yours (3); the install now gives 2"]);
        // The first run over a values.yaml written by hand: only differences are edits.
        let mut conflicts = Vec::new();
        let first =
            merge(None, Some(&json!({"a": 1, "b": 5})), Some(&json!({"a": 1, "b": 2, "c": 3})), "", &mut conflicts);
        assert_eq!(first, Some(json!({"a": 1, "b": 5, "c": 3})));
        assert!(conflicts.is_empty());
    }

    #[test]
    fn a_template_is_ours_until_edited() {
        let text = marked("dist/install.yaml", "templates/x.yaml", "kind: X\n");
        assert!(ours_unedited("templates/x.yaml", &text) && has_mark(&text));
        assert!(!ours_unedited("templates/copy.yaml", &text), "a copy elsewhere is yours");
        let edited = text.replace("kind: X", "kind: Y");
        assert!(!ours_unedited("templates/x.yaml", &edited) && has_mark(&edited));
        assert!(!has_mark("kind: X\n"));
    }

    fn fixture() -> Vec<Value> {
        let text = include_str!("../testdata/helm/install.yaml");
        parse_documents(text).expect("the fixture is an install")
    }

    fn run_plan(chart: &Chart, out: &Path, force: bool) -> Plan {
        let plan = chart.plan(out, force).expect("a plan");
        crate::output::write(&plan.write).expect("written");
        for p in &plan.remove {
            std::fs::remove_file(p).expect("removed");
        }
        plan
    }

    fn read(path: PathBuf) -> String {
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    /// Issue 33: every object of the install has its template (the Namespace aside), the
    /// values hold the Deployment's settings, and a second run writes nothing.
    #[test]
    fn the_memcached_install_becomes_a_chart_and_a_second_run_changes_nothing() {
        let objects = fixture();
        let chart = Chart::build("memcached-operator", &objects, "dist/install.yaml").unwrap();
        let paths: Vec<&str> = chart.templates.iter().map(|t| t.path.as_str()).collect();
        // One template per object but the Namespace, and the RBAC of certificates the
        // manager keeps itself (without cert-manager).
        assert_eq!(paths.len(), objects.len(), "one template per object but the Namespace: {paths:?}");
        assert!(paths.contains(&"templates/webhook/own-certs-rbac.yaml"), "{paths:?}");
        for want in [
            "templates/crd/memcacheds.cache.example.com.yaml",
            "templates/manager/controller-manager.yaml",
            "templates/rbac/manager-role.yaml",
            "templates/rbac/memcached-editor-role.yaml",
            "templates/metrics/controller-manager-metrics-service.yaml",
            "templates/webhook/validating-webhook-configuration.yaml",
            "templates/cert-manager/serving-cert.yaml",
        ] {
            assert!(paths.contains(&want), "{want} in {paths:?}");
        }
        assert_eq!(chart.values["manager"]["image"]["repository"], "registry.example.com/memcached-operator");
        assert_eq!(chart.values["manager"]["image"]["tag"], "v0.1.0");
        assert_eq!(chart.values["manager"]["healthProbe"]["port"], 8081);
        assert_eq!(chart.values["metrics"]["port"], 8080);
        assert_eq!(chart.values["webhook"]["port"], 9443);
        // The manager's role, its binding, --namespace and the webhooks follow rbac.namespaced.
        assert_eq!(chart.values["rbac"]["namespaced"], false);
        let text = |path: &str| chart.templates.iter().find(|t| t.path == path).map(|t| t.yaml.clone()).unwrap();
        let scoped = "kind: {{ if $.Values.rbac.namespaced }}Role{{ else }}ClusterRole{{ end }}";
        assert!(text("templates/rbac/manager-role.yaml").contains(scoped));
        assert!(!text("templates/rbac/leader-election-role.yaml").contains(scoped));
        let binding = text("templates/rbac/manager-rolebinding.yaml");
        assert!(
            binding.contains("kind: {{ if $.Values.rbac.namespaced }}RoleBinding{{ else }}ClusterRoleBinding{{ end }}")
        );
        assert!(binding.contains("  namespace: {{ $.Release.Namespace }}"), "{binding}");
        assert!(
            text("templates/manager/controller-manager.yaml").contains("printf \"--namespace=%s\" $.Release.Namespace")
        );
        assert!(
            text("templates/webhook/validating-webhook-configuration.yaml")
                .contains("    kubernetes.io/metadata.name: {{ $.Release.Namespace }}")
        );
        assert_eq!(chart.values["certManager"]["enabled"], true);
        assert_eq!(chart.values["manager"]["resources"]["limits"]["memory"], "128Mi");
        for t in &chart.templates {
            assert!(!t.yaml.contains("__KUBEGEN_") && !t.yaml.contains("zzkubegen"), "a hole left in {}", t.path);
            assert!(!t.yaml.contains("memcached-operator-system"), "the namespace left in {}", t.path);
        }
        let crd = &chart.templates.iter().find(|t| t.path.starts_with("templates/crd/")).unwrap().yaml;
        assert!(crd.contains("helm.sh/resource-policy: keep") && crd.contains("openAPIV3Schema"));
        let out = std::env::temp_dir().join(format!("kubegen-helm-chart-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        run_plan(&chart, &out, false);
        let again = chart.plan(&out, false).unwrap();
        let rewritten: Vec<&Output> = again
            .write
            .iter()
            .filter(|o| std::fs::read_to_string(&o.path).ok().as_deref() != Some(o.contents.as_str()))
            .collect();
        assert!(
            rewritten.is_empty(),
            "a second run rewrites {:?}",
            rewritten.iter().map(|o| &o.path).collect::<Vec<_>>()
        );
        assert!(again.remove.is_empty() && again.kept.is_empty());
        std::fs::remove_dir_all(&out).unwrap();
    }

    /// Issue 33 (kubebuilder #5517): a run after your edits keeps your values and the
    /// templates you edited or own; values you left follow the install; a template whose
    /// object left the install goes, unless you edited it.
    #[test]
    fn regenerating_keeps_your_values_your_templates_and_your_edits() {
        let objects = fixture();
        let out = std::env::temp_dir().join(format!("kubegen-helm-edits-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        run_plan(&Chart::build("memcached-operator", &objects, "dist/install.yaml").unwrap(), &out, false);
        // Your edits: a value, a template, a template of your own.
        let values = read(out.join("values.yaml")).replace("  replicas: 1\n", "  replicas: 3\n");
        std::fs::write(out.join("values.yaml"), &values).unwrap();
        let role = out.join("templates/rbac/manager-role.yaml");
        std::fs::write(&role, read(role.clone()).replace("rules:", "# mine\nrules:")).unwrap();
        let viewer = out.join("templates/rbac/memcached-viewer-role.yaml");
        std::fs::write(&viewer, read(viewer.clone()).replace("rules:", "# mine too\nrules:")).unwrap();
        let own = out.join("templates/extras/mine.yaml");
        std::fs::create_dir_all(own.parent().unwrap()).unwrap();
        std::fs::write(&own, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: mine\n").unwrap();
        // The install changes: a new image, the editor role gone, the viewer role gone.
        let changed: Vec<Value> = objects
            .iter()
            .filter(|o| !name_of(o).ends_with("-editor-role") && !name_of(o).ends_with("-viewer-role"))
            .map(|o| {
                let text = o.to_string().replace("memcached-operator:v0.1.0", "memcached-operator:v0.2.0");
                serde_json::from_str(&text).unwrap()
            })
            .collect();
        let chart = Chart::build("memcached-operator", &changed, "dist/install.yaml").unwrap();
        let plan = run_plan(&chart, &out, false);
        let merged: Value = serde_saphyr::from_str(&read(out.join("values.yaml"))).unwrap();
        assert_eq!(merged["manager"]["replicas"], 3, "your value stays");
        assert_eq!(merged["manager"]["image"]["tag"], "v0.2.0", "a value you left follows the install");
        assert!(read(role.clone()).contains("# mine"), "your edit to a template stays");
        assert!(read(own.clone()).contains("name: mine"), "your own template is never touched");
        assert!(
            !out.join("templates/rbac/memcached-editor-role.yaml").exists(),
            "a template whose object is gone goes"
        );
        assert!(viewer.exists(), "unless you edited it");
        let kept: Vec<String> = plan.kept.iter().map(|(p, why)| format!("{}: {why}", p.display())).collect();
        assert!(kept.iter().any(|k| k.contains("manager-role.yaml: you edited it")), "{kept:?}");
        assert!(kept.iter().any(|k| k.contains("memcached-viewer-role.yaml: its object is gone")), "{kept:?}");
        assert!(!kept.iter().any(|k| k.contains("mine.yaml")), "{kept:?}");
        // The image changes again while you had set the tag yourself: yours stays, and the
        // run says so.
        let values = read(out.join("values.yaml")).replace("tag: v0.2.0", "tag: mine");
        std::fs::write(out.join("values.yaml"), &values).unwrap();
        let newer: Vec<Value> = changed
            .iter()
            .map(|o| serde_json::from_str(&o.to_string().replace(":v0.2.0", ":v0.3.0")).unwrap())
            .collect();
        let plan = run_plan(&Chart::build("memcached-operator", &newer, "dist/install.yaml").unwrap(), &out, false);
        let merged: Value = serde_saphyr::from_str(&read(out.join("values.yaml"))).unwrap();
        assert_eq!(merged["manager"]["image"]["tag"], "mine");
        assert!(
            plan.kept
                .iter()
                .any(|(_, why)| why == "manager.image.tag: kept yours (\"mine\"); the install now gives \"v0.3.0\""),
            "{:?}",
            plan.kept
        );
        // --force takes the edited template back.
        run_plan(&Chart::build("memcached-operator", &newer, "dist/install.yaml").unwrap(), &out, true);
        assert!(!read(role).contains("# mine"));
        std::fs::remove_dir_all(&out).unwrap();
    }

    /// A review found lists of the manager's pod (volumes, mounts, ports) written before
    /// names were made the release's, and args that kept the install's namespace.
    #[test]
    fn the_managers_volumes_and_args_name_the_releases_objects() {
        let objects: Vec<Value> = fixture()
            .iter()
            .map(|o| {
                if kind_of(o) != "Deployment" {
                    return o.clone();
                }
                let text = o
                    .to_string()
                    .replace(
                        r#""secretName":"webhook-server-cert"}}"#,
                        r#""secretName":"webhook-server-cert"}},{"name":"extra","configMap":{"name":"memcached-operator-webhook-service"}}"#,
                    )
                    .replace(r#""--leader-elect","#, r#""--leader-elect","--leader-election-namespace=memcached-operator-system","#);
                serde_json::from_str(&text).unwrap()
            })
            .collect();
        let chart = Chart::build("memcached-operator", &objects, "dist/install.yaml").unwrap();
        let manager =
            &chart.templates.iter().find(|t| t.path == "templates/manager/controller-manager.yaml").unwrap().yaml;
        assert!(
            manager.contains("name: {{ print $fullname `-webhook-service` | trunc 63 | trimSuffix `-` }}"),
            "{manager}"
        );
        assert!(!manager.contains("memcached-operator-"), "{manager}");
        assert!(
            chart.values["manager"]["args"]
                .as_array()
                .unwrap()
                .contains(&json!("--leader-election-namespace={{ .Release.Namespace }}"))
        );
    }

    #[test]
    fn text_that_looks_like_a_template_is_printed_not_run() {
        let mut v = json!({"a": "{{ .Name }} and }}", "b": ["x{{y"], "c": 1});
        escape_actions(&mut v);
        assert_eq!(v, json!({"a": "{{ `{{` }} .Name }} and }}", "b": ["x{{ `{{` }}y"], "c": 1}));
    }

    #[test]
    fn images_split_into_repository_tag_and_digest() {
        assert_eq!(split_image("r.io:5000/op:v1"), ("r.io:5000/op".into(), "v1".into(), String::new()));
        assert_eq!(split_image("r.io:5000/op"), ("r.io:5000/op".into(), "latest".into(), String::new()));
        assert_eq!(split_image("op@sha256:ab"), ("op".into(), String::new(), "sha256:ab".into()));
    }
}
