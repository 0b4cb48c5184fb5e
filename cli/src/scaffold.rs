//! `init` and `create api`: kubebuilder's scaffolding, in Rust. `init` starts a workspace
//! whose root package is the operator (API types, controllers, a manager binary with
//! controller-runtime's flags) beside a `codegen-cli` member that pins this tool's
//! version; `create api` adds a kind and its controller and wires it into `main.rs`.
//! Every file comes from a template under `templates/scaffold/`; none is overwritten.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use askama::Template;

use crate::layout;
use crate::output::{self, Output};

/// The line in `src/main.rs` above which `create api` adds controllers.
const CONTROLLERS_MARKER: &str = "// +kubegen:scaffold:controllers";

#[derive(Template)]
#[template(path = "scaffold/root_Cargo.toml", escape = "none")]
struct WorkspaceManifest<'a> {
    project: &'a str,
    domain: &'a str,
    kubegen_source: &'a str,
    namespaced: bool,
}

#[derive(Template)]
#[template(path = "scaffold/codegen_cli_Cargo.toml", escape = "none")]
struct CliManifest<'a> {
    cli_source: &'a str,
}

#[derive(Template)]
#[template(path = "scaffold/codegen_cli_main.rs", escape = "none")]
struct CliMain;

#[derive(Template)]
#[template(path = "scaffold/lib.rs", escape = "none")]
struct Lib<'a> {
    project: &'a str,
}

#[derive(Template)]
#[template(path = "scaffold/api_mod.rs", escape = "none")]
struct ApiMod;

#[derive(Template)]
#[template(path = "scaffold/controller_mod.rs", escape = "none")]
struct ControllerMod;

#[derive(Template)]
#[template(path = "scaffold/main.rs", escape = "none")]
struct Main<'a> {
    project: &'a str,
}

#[derive(Template)]
#[template(path = "scaffold/Dockerfile", escape = "none")]
struct Dockerfile<'a> {
    project: &'a str,
}

#[derive(Template)]
#[template(path = "scaffold/Makefile", escape = "none")]
struct Makefile<'a> {
    /// `1.37`: the Kubernetes release this codegen-cli was built for.
    k8s_version: String,
    /// The Helm release's default name (and `<project>-system` its namespace).
    project: &'a str,
}

#[derive(Template)]
#[template(path = "scaffold/gitignore", escape = "none")]
struct GitIgnore;

#[derive(Template)]
#[template(path = "scaffold/dockerignore", escape = "none")]
struct DockerIgnore;

#[derive(Template)]
#[template(path = "scaffold/github_workflow_test.yml", escape = "none")]
struct TestWorkflow;

/// The names one kind's files are made of.
struct KindNames {
    kind_lower: String,
    /// The module of the kind and of its controller.
    module: String,
    group: String,
    group_module: String,
    plural: String,
    namespaced: bool,
}

impl KindNames {
    /// The kind's names from the command line's, each checked: a kind in UpperCamelCase,
    /// a Kubernetes version, a group that is a DNS label, and modules that are no keyword.
    fn new(domain: Option<&str>, group: &str, version: &str, kind: &str, namespaced: bool) -> Result<Self> {
        check_kind(kind)?;
        check_version(version)?;
        if !is_dns_label(group) || !group.starts_with(|c: char| c.is_ascii_lowercase()) {
            bail!("--group `{group}` is not a DNS label: write lowercase letters, digits and `-`, e.g. `cache`");
        }
        let module = snake(kind);
        let group_module = group.replace('-', "_");
        for name in [&module, &group_module] {
            if KEYWORDS.contains(&name.as_str()) {
                bail!("`{name}` is a Rust keyword and cannot name a module: pick another --kind or --group");
            }
        }
        Ok(KindNames {
            kind_lower: kind.to_lowercase(),
            module,
            group: match domain {
                Some(d) if !d.is_empty() => format!("{group}.{d}"),
                _ => group.to_string(),
            },
            group_module,
            plural: kubegen_core::plural::pluralize(&kind.to_lowercase()),
            namespaced,
        })
    }
}

#[derive(Template)]
#[template(path = "scaffold/types.rs", escape = "none")]
struct Types<'a> {
    kind: &'a str,
    kind_lower: &'a str,
    plural: &'a str,
    group: &'a str,
    version: &'a str,
    scope: &'a str,
}

#[derive(Template)]
#[template(path = "scaffold/controller.rs", escape = "none")]
struct KindController<'a> {
    kind: &'a str,
    kind_lower: &'a str,
    group: &'a str,
    group_module: &'a str,
    version: &'a str,
    plural: &'a str,
    namespaced: bool,
}

#[derive(Template)]
#[template(path = "scaffold/controller_test.rs", escape = "none")]
struct ControllerTest<'a> {
    crate_name: &'a str,
    kind: &'a str,
    module: &'a str,
    group_module: &'a str,
    version: &'a str,
    namespaced: bool,
}

#[derive(Template)]
#[template(path = "scaffold/role_editor.yaml", escape = "none")]
struct EditorRole<'a> {
    kind_lower: &'a str,
    group: &'a str,
    plural: &'a str,
}

#[derive(Template)]
#[template(path = "scaffold/role_viewer.yaml", escape = "none")]
struct ViewerRole<'a> {
    kind_lower: &'a str,
    group: &'a str,
    plural: &'a str,
}

#[derive(Template)]
#[template(path = "scaffold/webhook.rs", escape = "none")]
struct KindWebhook<'a> {
    kind: &'a str,
    kind_lower: &'a str,
    group: &'a str,
    /// The group as kubebuilder's webhook paths write it: dots as dashes.
    group_path: &'a str,
    group_module: &'a str,
    version: &'a str,
    plural: &'a str,
    defaulting: bool,
    validation: bool,
}

#[derive(Template)]
#[template(path = "scaffold/conversion.rs", escape = "none")]
struct KindConversion<'a> {
    kind: &'a str,
    module: &'a str,
    group_module: &'a str,
    hub: &'a str,
}

#[derive(Template)]
#[template(path = "scaffold/conversion_spoke.rs", escape = "none")]
struct SpokeConversion<'a> {
    kind: &'a str,
    group_module: &'a str,
    hub: &'a str,
    spoke: &'a str,
}

#[derive(Template)]
#[template(path = "scaffold/webhook_test.rs", escape = "none")]
struct WebhookTest<'a> {
    kind: &'a str,
    module: &'a str,
    crate_name: &'a str,
    group_module: &'a str,
    version: &'a str,
    namespaced: bool,
}

#[derive(Template)]
#[template(path = "scaffold/conversion_test.rs", escape = "none")]
struct ConversionTest<'a> {
    kind: &'a str,
    module: &'a str,
    crate_name: &'a str,
}

#[derive(Template)]
#[template(path = "scaffold/crd_webhook_patch.yaml", escape = "none")]
struct CrdWebhookPatch<'a> {
    plural: &'a str,
    group: &'a str,
}

#[derive(Template)]
#[template(path = "scaffold/crd_kustomizeconfig.yaml", escape = "none")]
struct CrdKustomizeConfig;

#[derive(Template)]
#[template(path = "scaffold/webhook_service.yaml", escape = "none")]
struct WebhookService;

#[derive(Template)]
#[template(path = "scaffold/webhook_kustomization.yaml", escape = "none")]
struct WebhookKustomization;

#[derive(Template)]
#[template(path = "scaffold/webhook_kustomizeconfig.yaml", escape = "none")]
struct WebhookKustomizeConfig;

#[derive(Template)]
#[template(path = "scaffold/certmanager_issuer.yaml", escape = "none")]
struct CertManagerIssuer;

#[derive(Template)]
#[template(path = "scaffold/certmanager_certificate.yaml", escape = "none")]
struct CertManagerCertificate;

#[derive(Template)]
#[template(path = "scaffold/certmanager_kustomization.yaml", escape = "none")]
struct CertManagerKustomization;

#[derive(Template)]
#[template(path = "scaffold/certmanager_kustomizeconfig.yaml", escape = "none")]
struct CertManagerKustomizeConfig;

#[derive(Template)]
#[template(path = "scaffold/default_manager_webhook_patch.yaml", escape = "none")]
struct ManagerWebhookPatch;

#[derive(Template)]
#[template(path = "scaffold/default_webhook_wiring.yaml", escape = "none")]
struct WebhookWiring;

/// Where the scaffolded workspace gets kubegen from.
pub enum Source {
    /// A checkout of kubegen's repository.
    Path(PathBuf),
    /// kubegen's git repository, at a branch, tag or revision (`None`: the default branch).
    Git { url: String, reference: Option<(&'static str, String)> },
    /// A version on crates.io.
    Version(String),
}

impl Source {
    /// The keys of a dependency table for the package in `dir` of the repository.
    fn keys(&self, dir: &str) -> String {
        match self {
            Source::Path(root) => format!("path = {:?}", root.join(dir).display().to_string()),
            Source::Git { url, reference } => {
                let reference = reference.as_ref().map(|(k, v)| format!(", {k} = {v:?}")).unwrap_or_default();
                format!("git = {url:?}{reference}")
            }
            Source::Version(v) => format!("version = {v:?}"),
        }
    }
}

/// An RFC 1123 label: lowercase letters, digits and `-`, at most 63, no `-` at either end.
fn is_dns_label(l: &str) -> bool {
    !l.is_empty()
        && l.len() <= 63
        && l.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !l.starts_with('-')
        && !l.ends_with('-')
}

/// An RFC 1123 label that is also a cargo package name: the project names the
/// `<project>-system` namespace and the operator's crate.
pub fn check_project_name(name: &str) -> Result<()> {
    if !is_dns_label(name) || !name.starts_with(|c: char| c.is_ascii_lowercase()) {
        bail!(
            "project name `{name}` is not an RFC 1123 label starting with a letter (it becomes the namespace `{name}-system` and the crate's name): use lowercase letters, digits and `-`, at most 63 characters, e.g. `memcached-operator`; pass it with --project-name"
        );
    }
    if name.len() + "-system".len() > 63 {
        bail!("project name `{name}` is too long: `{name}-system` must fit in 63 characters");
    }
    Ok(())
}

fn check_domain(domain: &str) -> Result<()> {
    if !domain.split('.').all(is_dns_label) || domain.len() > 253 {
        bail!("--domain `{domain}` is not a DNS subdomain: write lowercase labels joined by dots, e.g. `example.com`");
    }
    Ok(())
}

fn render(t: &impl Template, what: &str) -> Result<String> {
    output::render(t, what)
}

/// Formats the Rust files among `outputs` with the toolchain's rustfmt (when there is
/// one), then writes them, so the scaffold passes `cargo fmt --check` as written. Each
/// file is formatted as text on rustfmt's stdin: given a path, rustfmt would also format
/// every module file it declares (`mod controller;`), files this command did not write
/// (issue 29: `create webhook` reformatted a controller it does not list).
fn write_formatted(outputs: &[Output]) -> Result<()> {
    let rustfmt = std::env::var("RUSTFMT").unwrap_or_else(|_| "rustfmt".into());
    let formatted: Vec<Output> = outputs
        .iter()
        .map(|o| {
            let rust = o.path.extension().is_some_and(|e| e == "rs");
            let contents = match rust.then(|| format_rust(&rustfmt, &o.contents, &o.path)) {
                Some(Ok(Some(text))) => text,
                // Not Rust, or no rustfmt (a toolchain without the component): as rendered.
                None | Some(Ok(None)) => o.contents.clone(),
                Some(Err(why)) => {
                    eprintln!("warning: rustfmt failed on {}: {why}", o.path.display());
                    o.contents.clone()
                }
            };
            Output { path: o.path.clone(), contents, overwrite: o.overwrite }
        })
        .collect();
    output::write(&formatted)?;
    Ok(())
}

/// `text` as rustfmt (edition 2024) writes it at `path`: with the rustfmt.toml that
/// applies there (rustfmt looks for it from its working directory up, for stdin); `None`
/// when there is no rustfmt to run.
fn format_rust(rustfmt: &str, text: &str, path: &Path) -> Result<Option<String>, String> {
    use std::io::Write;
    let dir = path.ancestors().skip(1).find(|d| d.is_dir()).unwrap_or(Path::new("."));
    let child = std::process::Command::new(rustfmt)
        .args(["--edition", "2024", "--emit", "stdout"])
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e.to_string()),
    };
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let input = text.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    let _ = writer.join();
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).trim().to_string());
    }
    String::from_utf8(out.stdout).map(Some).map_err(|e| e.to_string())
}

/// `codegen-cli init`: a new workspace in `dir`.
pub fn init(
    dir: &Path,
    project: Option<&str>,
    domain: &str,
    source: &Source,
    namespaced: bool,
) -> Result<Vec<PathBuf>> {
    let project = match project {
        Some(p) => p.to_string(),
        None => dir
            .canonicalize()
            .ok()
            .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
            .context("cannot name the project after the directory: pass --project-name")?,
    };
    check_project_name(&project)?;
    check_domain(domain)?;
    if dir.join("Cargo.toml").exists() {
        bail!(
            "{} already holds a Cargo.toml: `init` starts a new workspace; run it in an empty directory (or add the `codegen-cli` member by hand, see the README)",
            dir.display()
        );
    }
    if dir.join(crate::upgrade::RECORD).exists() {
        bail!(
            "{} already holds a PROJECT file (kubebuilder's?): `init` writes its own record there, which `codegen-cli upgrade` replays; move that one aside first",
            dir.display()
        );
    }
    let kubegen_source = source.keys("kubegen");
    let cli_source = source.keys("cli");
    let p = project.as_str();
    let file = |path: &str, contents: String| Output { path: dir.join(path), contents, overwrite: false };
    let mut outputs = vec![
        file(
            "Cargo.toml",
            render(
                &WorkspaceManifest { project: p, domain, kubegen_source: &kubegen_source, namespaced },
                "Cargo.toml",
            )?,
        ),
        file("codegen-cli/Cargo.toml", render(&CliManifest { cli_source: &cli_source }, "codegen-cli/Cargo.toml")?),
        file("codegen-cli/src/main.rs", render(&CliMain, "codegen-cli/src/main.rs")?),
        file("src/lib.rs", render(&Lib { project: p }, "src/lib.rs")?),
        file("src/api/mod.rs", render(&ApiMod, "src/api/mod.rs")?),
        file("src/controller/mod.rs", render(&ControllerMod, "src/controller/mod.rs")?),
        file("src/main.rs", render(&Main { project: p }, "src/main.rs")?),
        file("Dockerfile", render(&Dockerfile { project: p }, "Dockerfile")?),
        file("Makefile", render(&Makefile { k8s_version: k8s_minor()?, project: p }, "Makefile")?),
        file(".dockerignore", render(&DockerIgnore, ".dockerignore")?),
        file(".gitignore", render(&GitIgnore, ".gitignore")?),
        file(".github/workflows/test.yml", render(&TestWorkflow, ".github/workflows/test.yml")?),
    ];
    // config/ as `manifests` scaffolds it, before there is any kind.
    let config = dir.join("config");
    outputs.extend(layout::outputs(&layout::Inputs {
        out: &config,
        crd_files: &[],
        samples: &[],
        role_name: "manager-role",
        project: p,
        partial: false,
        namespaced,
    })?);
    outputs.push(Output::generated(
        config.join("rbac/role.yaml"),
        layout::role_yaml(&[], "manager-role", "", namespaced)?,
    ));
    // The record `upgrade` replays, and the scaffold as written: the base of its merge.
    let record = crate::upgrade::Record::new(p, domain, namespaced, source);
    let written: Vec<PathBuf> = outputs.iter().map(|o| o.path.clone()).collect();
    outputs.extend(crate::upgrade::init_outputs(&outputs, dir, &record));
    write_formatted(&outputs)?;
    Ok(written)
}

/// `1.37` from the Kubernetes API modules' `v0.37.2` this binary was built against.
fn k8s_minor() -> Result<String> {
    let (minor, _) = crate::envtest::built_for()?;
    Ok(format!("1.{minor}"))
}

/// `UpperCamelCase`, as Kubernetes kinds are spelled.
fn check_kind(kind: &str) -> Result<()> {
    let ok = kind.starts_with(|c: char| c.is_ascii_uppercase()) && kind.chars().all(|c| c.is_ascii_alphanumeric());
    if !ok || kind.len() > 63 {
        bail!("--kind `{kind}` is not a kind: write it in UpperCamelCase, letters and digits only, e.g. `Memcached`");
    }
    Ok(())
}

/// `v1`, `v1alpha1`, `v2beta3`: the versions Kubernetes orders.
fn check_version(version: &str) -> Result<()> {
    let rest = version.strip_prefix('v').unwrap_or("");
    let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
    let (major, tail) = rest.split_at(digits);
    let tail_ok = tail.is_empty()
        || ["alpha", "beta"].iter().any(|stage| {
            tail.strip_prefix(stage).is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        });
    if major.is_empty() || major.starts_with('0') || !tail_ok {
        bail!("--version `{version}` is not a Kubernetes API version: write `v1`, `v1alpha1`, `v2beta1`, ...");
    }
    Ok(())
}

fn snake(kind: &str) -> String {
    let mut out = String::new();
    for (i, c) in kind.chars().enumerate() {
        let next_lower = kind.chars().nth(i + 1).is_some_and(|n| n.is_ascii_lowercase());
        let prev_lower = i > 0 && kind.chars().nth(i - 1).is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit());
        if c.is_ascii_uppercase() && i > 0 && (prev_lower || next_lower) {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// Rust keywords a module cannot be named (`r#` would do, but reads badly).
const KEYWORDS: &[&str] = &[
    "as", "async", "await", "box", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern", "false",
    "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "priv", "pub", "ref",
    "return", "self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where", "while", "yield",
];

/// `codegen-cli create api`: the kind's types, its controller, its editor and viewer
/// roles, wired into the modules and `src/main.rs`.
pub fn create_api(
    root: &Path,
    crate_name: &str,
    domain: Option<&str>,
    group: &str,
    version: &str,
    kind: &str,
    namespaced: bool,
) -> Result<Vec<PathBuf>> {
    let names = KindNames::new(domain, group, version, kind, namespaced)?;
    let types_path = root.join(format!("src/api/{}/{}/{}.rs", names.group_module, version, names.module));
    if types_path.exists() {
        bail!("{} exists: {kind} {version} is already scaffolded", types_path.display());
    }
    let main_path = root.join("src/main.rs");
    let main = std::fs::read_to_string(&main_path).with_context(|| format!("reading {}", main_path.display()))?;
    let controller_path = root.join(format!("src/controller/{}.rs", names.module));
    let wire = format!(
        "    let manager = {crate_name}::controller::{}::add(manager, args.manager.namespace.as_deref());\n",
        names.module
    );
    let main = if controller_path.exists() {
        // Another version of a kind already controlled: its controller stays as it is.
        None
    } else {
        let at = main.find(CONTROLLERS_MARKER).with_context(|| {
            format!(
                "{} has no `{CONTROLLERS_MARKER}` line: add it where controllers are added to the manager, or add `{}` there yourself",
                main_path.display(),
                wire.trim()
            )
        })?;
        let line_start = main[..at].rfind('\n').map(|i| i + 1).unwrap_or(0);
        Some(format!("{}{wire}{}", &main[..line_start], &main[line_start..]))
    };

    let n = &names;
    let scope = if namespaced { "namespaced" } else { "namespaced = false" };
    let mut outputs = vec![Output {
        path: types_path,
        contents: render(
            &Types { kind, kind_lower: &n.kind_lower, plural: &n.plural, group: &n.group, version, scope },
            "the kind's types",
        )?,
        overwrite: false,
    }];
    if let Some(main) = main {
        let controller = KindController {
            kind,
            kind_lower: &n.kind_lower,
            group: &n.group,
            group_module: &n.group_module,
            version,
            plural: &n.plural,
            namespaced: n.namespaced,
        };
        outputs.push(Output {
            path: controller_path,
            contents: render(&controller, "the controller")?,
            overwrite: false,
        });
        let test = ControllerTest {
            crate_name,
            kind,
            module: &n.module,
            group_module: &n.group_module,
            version,
            namespaced: n.namespaced,
        };
        outputs.push(Output {
            path: root.join(format!("tests/{}_controller.rs", n.module)),
            contents: render(&test, "the controller's test")?,
            overwrite: false,
        });
        outputs.push(Output { path: main_path, contents: main, overwrite: true });
        outputs.push(module_line(root, "src/controller/mod.rs", &format!("pub mod {};", n.module))?);
    }
    outputs.push(module_line(root, "src/api/mod.rs", &format!("pub mod {};", n.group_module))?);
    outputs.push(module_line(root, &format!("src/api/{}/mod.rs", n.group_module), &format!("pub mod {version};"))?);
    outputs.push(module_line(
        root,
        &format!("src/api/{}/{version}/mod.rs", n.group_module),
        &format!("mod {m};\npub use {m}::*;", m = n.module),
    )?);
    let roles = [
        (
            format!("{}_editor_role.yaml", n.kind_lower),
            render(&EditorRole { kind_lower: &n.kind_lower, group: &n.group, plural: &n.plural }, "the editor role")?,
        ),
        (
            format!("{}_viewer_role.yaml", n.kind_lower),
            render(&ViewerRole { kind_lower: &n.kind_lower, group: &n.group, plural: &n.plural }, "the viewer role")?,
        ),
    ];
    let rbac_kustomization = root.join("config/rbac/kustomization.yaml");
    let mut listed = std::fs::read_to_string(&rbac_kustomization).unwrap_or_default();
    for (file, contents) in roles {
        outputs.push(Output { path: root.join("config/rbac").join(&file), contents, overwrite: false });
        // The resources list is the file's last key, as scaffolded.
        if listed.contains("resources:") && !listed.lines().any(|l| l.trim() == format!("- {file}")) {
            if !listed.ends_with('\n') {
                listed.push('\n');
            }
            listed.push_str(&format!("- {file}\n"));
        }
    }
    if rbac_kustomization.exists() {
        outputs.push(Output { path: rbac_kustomization, contents: listed, overwrite: true });
    }
    write_formatted(&outputs)?;
    Ok(outputs.into_iter().map(|o| o.path).collect())
}

/// Which webhooks `create webhook` scaffolds for a kind.
#[derive(Debug, Clone, Default)]
pub struct Hooks {
    pub defaulting: bool,
    pub validation: bool,
    /// `--conversion`: the kind's version named by `--version` is the hub, and these
    /// versions (`--spoke`) convert through it.
    pub conversion: bool,
    pub spokes: Vec<String>,
}

/// `create webhook`: a kind's admission webhooks (`src/webhook/<kind>.rs`) and/or its
/// conversion webhook (`src/webhook/<kind>_conversion.rs` with a round-trip test), served
/// from `src/main.rs`, with config/webhook, config/certmanager, config/default's wiring
/// and, for conversion, config/crd's patch, as kubebuilder's `create webhook` leaves them.
pub fn create_webhook(
    root: &Path,
    crate_name: &str,
    domain: Option<&str>,
    group: &str,
    version: &str,
    kind: &str,
    hooks: &Hooks,
) -> Result<Vec<PathBuf>> {
    if !hooks.defaulting && !hooks.validation && !hooks.conversion {
        bail!(
            "say which webhooks: --defaulting, --programmatic-validation, --conversion --spoke <version>, or several"
        );
    }
    if hooks.conversion && hooks.spokes.is_empty() {
        bail!(
            "--conversion needs the versions that convert through {version} (the hub): --spoke v2 (or --spoke v2,v3)"
        );
    }
    if !hooks.conversion && !hooks.spokes.is_empty() {
        bail!("--spoke names the versions of a conversion webhook: add --conversion");
    }
    let names = KindNames::new(domain, group, version, kind, true)?;
    let types = |version: &str| root.join(format!("src/api/{}/{version}/{}.rs", names.group_module, names.module));
    for version in std::iter::once(version).chain(hooks.spokes.iter().map(String::as_str)) {
        check_version(version)?;
        if !types(version).exists() {
            bail!(
                "{} does not exist: scaffold the kind first, `codegen-cli create api --group {group} --version {version} --kind {kind}`",
                types(version).display()
            );
        }
    }
    if hooks.spokes.iter().any(|s| s == version) {
        bail!("--spoke {version} is the hub (--version): a spoke is another version of {kind}");
    }

    let mut outputs = Vec::new();
    let mut served = Vec::new();
    let mut modules = Vec::new();
    if hooks.defaulting || hooks.validation {
        let (mut written, add) = admission(root, crate_name, &names, version, kind, hooks)?;
        outputs.append(&mut written);
        served.push(add);
        modules.push(format!("pub mod {};", names.module));
    }
    if hooks.conversion {
        let (mut written, add) = conversion(root, crate_name, &names, version, kind, &hooks.spokes)?;
        outputs.append(&mut written);
        served.extend(add);
        modules.push(format!("pub mod {}_conversion;", names.module));
    }
    outputs.push(module_lines(root, "src/webhook/mod.rs", &modules)?);
    outputs.push(module_line(root, "src/lib.rs", "pub mod webhook;")?);
    outputs.push(serve_in_main(root, &served)?);

    // kubegen's `webhook` feature on the operator's dependency; `webhook-testing` on the
    // test one, for the conversion's round trips.
    let manifest_path = root.join("Cargo.toml");
    let manifest =
        std::fs::read_to_string(&manifest_path).with_context(|| format!("reading {}", manifest_path.display()))?;
    let mut changed = with_kubegen_feature(&manifest, "[dependencies]", "webhook");
    if hooks.conversion {
        let current = changed.clone().unwrap_or_else(|| manifest.clone());
        changed = with_kubegen_feature(&current, "[dev-dependencies]", "webhook-testing").or(changed);
    }
    if let Some(manifest) = changed {
        outputs.push(Output { path: manifest_path, contents: manifest, overwrite: true });
    }

    let config = root.join("config/webhook");
    outputs.push(Output {
        path: config.join("service.yaml"),
        contents: render(&WebhookService, "the webhook Service")?,
        overwrite: false,
    });
    outputs.push(Output {
        path: config.join("kustomization.yaml"),
        contents: render(&WebhookKustomization, "the webhook kustomization")?,
        overwrite: false,
    });
    outputs.push(Output {
        path: config.join("kustomizeconfig.yaml"),
        contents: render(&WebhookKustomizeConfig, "the webhook kustomizeconfig")?,
        overwrite: false,
    });
    outputs.extend(webhook_wiring(&root.join("config"))?);
    write_formatted(&outputs)?;
    Ok(outputs.into_iter().map(|o| o.path).collect())
}

/// `src/webhook/<kind>.rs`: the defaulter and/or validator with their markers; and the
/// line that adds them to the server.
fn admission(
    root: &Path,
    crate_name: &str,
    names: &KindNames,
    version: &str,
    kind: &str,
    hooks: &Hooks,
) -> Result<(Vec<Output>, String)> {
    let path = root.join(format!("src/webhook/{}.rs", names.module));
    if path.exists() {
        bail!("{} exists: {kind}'s admission webhooks are already scaffolded", path.display());
    }
    let webhook = KindWebhook {
        kind,
        kind_lower: &names.kind_lower,
        group: &names.group,
        group_path: &names.group.replace('.', "-"),
        group_module: &names.group_module,
        version,
        plural: &names.plural,
        defaulting: hooks.defaulting,
        validation: hooks.validation,
    };
    let add = format!("    let webhooks = {crate_name}::webhook::{}::add(webhooks);\n", names.module);
    // The kind's scope, as its types declare it (`create api --cluster` writes
    // `namespaced = false`).
    let types = root.join(format!("src/api/{}/{version}/{}.rs", names.group_module, names.module));
    let text = std::fs::read_to_string(&types).with_context(|| format!("reading {}", types.display()))?;
    let attributes: Vec<&str> = text
        .match_indices("#[kube(")
        .map(|(at, _)| &text[at..at + text[at..].find(")]").unwrap_or(text.len() - at)])
        .collect();
    let namespaced = attributes.iter().any(|a| a.contains("namespaced") && !a.contains("namespaced = false"));
    let test =
        WebhookTest { kind, module: &names.module, crate_name, group_module: &names.group_module, version, namespaced };
    Ok((
        vec![
            Output { path, contents: render(&webhook, "the kind's webhooks")?, overwrite: false },
            Output {
                path: root.join(format!("tests/{}_webhook.rs", names.module)),
                contents: render(&test, "the webhooks' test")?,
                overwrite: false,
            },
        ],
        add,
    ))
}

/// `src/webhook/<kind>_conversion.rs` (the conversion, each spoke's `TryFrom`s) and its
/// round-trip test, or the new spokes added to them; the hub marked as the storage
/// version when no version of the kind is; config/crd's conversion patch. The line that
/// serves the conversion, the first time.
fn conversion(
    root: &Path,
    crate_name: &str,
    names: &KindNames,
    hub: &str,
    kind: &str,
    spokes: &[String],
) -> Result<(Vec<Output>, Option<String>)> {
    let module = format!("{}_conversion", names.module);
    let path = root.join(format!("src/webhook/{module}.rs"));
    let existing = std::fs::read_to_string(&path).ok();
    let mut text = match &existing {
        Some(text) => {
            let declared = format!("Conversion<{hub}::{kind}>");
            if !text.contains(&declared) {
                bail!(
                    "{} converts {kind} through another hub than {hub}: name that hub with --version",
                    path.display()
                );
            }
            text.clone()
        }
        None => render(
            &KindConversion { kind, module: &names.module, group_module: &names.group_module, hub },
            "the kind's conversion",
        )?,
    };
    for spoke in spokes {
        let spoke_type = format!("crate::api::{}::{spoke}::{kind}", names.group_module);
        if text.contains(&format!(".spoke::<{spoke_type}>()")) {
            bail!("{} already converts {spoke}", path.display());
        }
        let at = text.find(SPOKES_MARKER).with_context(|| {
            format!(
                "{} has no `{SPOKES_MARKER}` line: add `.spoke::<{spoke_type}>()` to its Conversion yourself",
                path.display()
            )
        })?;
        let line_start = text[..at].rfind('\n').map(|i| i + 1).unwrap_or(0);
        text.insert_str(line_start, &format!("        .spoke::<{spoke_type}>()\n"));
        text.push_str(&render(
            &SpokeConversion { kind, group_module: &names.group_module, hub, spoke },
            "a spoke's conversions",
        )?);
    }
    let mut outputs = vec![Output { path, contents: text, overwrite: true }];
    outputs.push(Output {
        path: root.join(format!("tests/{module}.rs")),
        contents: render(&ConversionTest { kind, module: &names.module, crate_name }, "the conversion's test")?,
        overwrite: false,
    });
    outputs.extend(storage_version(root, names, hub, kind)?);
    let plural = &names.plural;
    outputs.push(Output {
        path: root.join(format!("config/crd/patches/webhook_in_{plural}.yaml")),
        contents: render(&CrdWebhookPatch { plural, group: &names.group }, "the CRD's conversion patch")?,
        overwrite: false,
    });
    outputs.push(Output {
        path: root.join("config/crd/kustomizeconfig.yaml"),
        contents: render(&CrdKustomizeConfig, "the CRD kustomizeconfig")?,
        overwrite: false,
    });
    let add = existing
        .is_none()
        .then(|| format!("    let webhooks = webhooks.convert({crate_name}::webhook::{module}::conversion());\n"));
    Ok((outputs, add))
}

/// The hub's types with `+kubebuilder:storageversion`, when no version of the kind is
/// marked: a kind in several versions needs one, and `manifests` says so otherwise.
fn storage_version(root: &Path, names: &KindNames, hub: &str, kind: &str) -> Result<Option<Output>> {
    let dir = root.join(format!("src/api/{}", names.group_module));
    let file = format!("{}.rs", names.module);
    for entry in std::fs::read_dir(&dir).with_context(|| format!("reading {}", dir.display()))? {
        let types = entry.with_context(|| format!("reading {}", dir.display()))?.path().join(&file);
        let text = std::fs::read_to_string(&types).unwrap_or_default();
        if text.contains("+kubebuilder:storageversion") || text.contains("#[kube(storage") {
            return Ok(None);
        }
    }
    let path = dir.join(hub).join(&file);
    let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let Some(at) = text.find("#[derive(CustomResource") else {
        bail!(
            "{} has no `#[derive(CustomResource` for {kind}: mark the hub as the storage version with `/// +kubebuilder:storageversion` yourself",
            path.display()
        );
    };
    // An attribute after the derive, not a doc comment before it: a sentence there would
    // join the type's doc comment, and with it the CRD's description, `kubectl explain`,
    // the API reference and the clients' docs (issue 29).
    let after = text[at..].find('\n').map_or(text.len(), |n| at + n + 1);
    let marked = format!(
        "{}#[kube(storage)] // the hub of the conversions: the version the API server stores\n{}",
        &text[..after],
        &text[after..]
    );
    Ok(Some(Output { path, contents: marked, overwrite: true }))
}

/// `src/main.rs` serving `adds` (lines that add to `webhooks`): before the scaffold's
/// marker, or, the first time, in a new block before `manager.run()` that serves them
/// with the webhook flags (`kubegen::webhook::WebhookArgs`) added to `Args`.
fn serve_in_main(root: &Path, adds: &[String]) -> Result<Output> {
    let main_path = root.join("src/main.rs");
    let main = std::fs::read_to_string(&main_path).with_context(|| format!("reading {}", main_path.display()))?;
    let add = adds.concat();
    if let Some(at) = main.find(WEBHOOKS_MARKER) {
        let line_start = main[..at].rfind('\n').map(|i| i + 1).unwrap_or(0);
        let main = format!("{}{add}{}", &main[..line_start], &main[line_start..]);
        return Ok(Output { path: main_path, contents: main, overwrite: true });
    }
    let by_hand = "add the webhooks to a `kubegen::webhook::Webhooks` and serve it yourself (`kubegen::webhook::WebhookArgs::serve`)";
    let flags = "    manager: ManagerArgs,\n";
    let Some(at) = main.find(flags) else {
        bail!("{} has no `manager: ManagerArgs,` field in its Args: {by_hand}", main_path.display());
    };
    let at = at + flags.len();
    let main =
        format!("{}    #[command(flatten)]\n    webhook: kubegen::webhook::WebhookArgs,\n{}", &main[..at], &main[at..]);
    let Some(at) = main.find("manager.run()") else {
        bail!("{} has no `manager.run()`: {by_hand}", main_path.display());
    };
    let line_start = main[..at].rfind('\n').map(|i| i + 1).unwrap_or(0);
    let block = format!(
        "    // The webhooks, on --webhook-bind-address (:9443) with the serving certificate in\n    // --webhook-cert-path, where kubebuilder's deployment mounts cert-manager's; without\n    // one (a local `make run`) they are not served; `make run-webhooks` serves them to a\n    // local API server.\n    let webhooks = kubegen::webhook::Webhooks::new();\n{add}    {WEBHOOKS_MARKER} (`codegen-cli create webhook` adds each kind above)\n    let _webhook_server = args.webhook.serve_with(Some(manager.client()), webhooks).await?;\n"
    );
    let main = format!("{}{block}{}", &main[..line_start], &main[line_start..]);
    Ok(Output { path: main_path, contents: main, overwrite: true })
}

const WEBHOOKS_MARKER: &str = "// +kubegen:scaffold:webhooks";
const SPOKES_MARKER: &str = "// +kubegen:scaffold:spokes";

/// config/certmanager (the Issuer and the serving Certificate), the manager's webhook
/// patch, and config/default wired to both: as kubebuilder's `create webhook` leaves
/// them. config/default/kustomization.yaml gains the wiring here when `manifests` has
/// scaffolded it already, and is scaffolded with it otherwise.
fn webhook_wiring(config: &Path) -> Result<Vec<Output>> {
    let scaffolded = |path: &str, contents: String| Output { path: config.join(path), contents, overwrite: false };
    let mut outputs = vec![
        scaffolded("certmanager/issuer.yaml", render(&CertManagerIssuer, "the cert-manager Issuer")?),
        scaffolded("certmanager/certificate.yaml", render(&CertManagerCertificate, "the serving Certificate")?),
        scaffolded(
            "certmanager/kustomization.yaml",
            render(&CertManagerKustomization, "the certmanager kustomization")?,
        ),
        scaffolded(
            "certmanager/kustomizeconfig.yaml",
            render(&CertManagerKustomizeConfig, "the certmanager kustomizeconfig")?,
        ),
        scaffolded("default/manager_webhook_patch.yaml", render(&ManagerWebhookPatch, "the manager's webhook patch")?),
    ];
    let default = config.join("default/kustomization.yaml");
    if let Ok(text) = std::fs::read_to_string(&default)
        && let Some(wired) = with_webhook_wiring(&text, &render(&WebhookWiring, "the webhook wiring")?)
            .with_context(|| format!("wiring the webhooks into {}", default.display()))?
    {
        outputs.push(Output { path: default, contents: wired, overwrite: true });
    }
    Ok(outputs)
}

/// config/default/kustomization.yaml with ../webhook and ../certmanager among its
/// resources and `wiring` (the patches and replacements) after them; `None` when it
/// lists ../webhook already. An edited file this cannot extend safely is an error that
/// says what to add.
fn with_webhook_wiring(text: &str, wiring: &str) -> Result<Option<String>> {
    if text.lines().any(|l| l.trim() == "- ../webhook") {
        return Ok(None);
    }
    let by_hand = "add `- ../webhook` and `- ../certmanager` to its resources, and the patches and replacements of kubegen's cli/templates/scaffold/default_webhook_wiring.yaml, yourself";
    if let Some(key) = text.lines().find(|l| l.starts_with("patches:") || l.starts_with("replacements:")) {
        bail!("it has a `{key}` list of its own: {by_hand}");
    }
    let Some(at) = text.find("\n- ../manager\n") else {
        bail!("it lists no `- ../manager` resource: {by_hand}");
    };
    let at = at + "\n- ../manager\n".len();
    let mut out = format!("{}- ../webhook\n- ../certmanager\n{}", &text[..at], &text[at..]);
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(wiring);
    Ok(Some(out))
}

/// The workspace manifest with `feature` on the `kubegen = { ... }` entry of `section`
/// (`[dependencies]`, `[dev-dependencies]`); `None` when it is there already or the entry
/// is not the one `init` writes.
fn with_kubegen_feature(manifest: &str, section: &str, feature: &str) -> Option<String> {
    let quoted = format!("\"{feature}\"");
    let mut current = "";
    let mut out = String::new();
    let mut changed = false;
    for line in manifest.split_inclusive('\n') {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            current = if trimmed == section { "wanted" } else { "other" };
        }
        if current == "wanted" && !changed && trimmed.starts_with("kubegen = {") && trimmed.ends_with('}') {
            if trimmed.contains(&quoted) {
                return None;
            }
            let entry = match trimmed.find("features = [") {
                Some(at) => {
                    let at = at + "features = [".len();
                    format!("{}{quoted}, {}", &trimmed[..at], &trimmed[at..])
                }
                None => format!("{}, features = [{quoted}] }}", trimmed.trim_end_matches('}').trim_end()),
            };
            out.push_str(&entry);
            out.push('\n');
            changed = true;
            continue;
        }
        out.push_str(line);
    }
    changed.then_some(out)
}

/// `path` (relative to `root`) with `line` appended when missing; the file is created
/// with a doc line when it does not exist.
fn module_line(root: &Path, path: &str, line: &str) -> Result<Output> {
    module_lines(root, path, &[line.to_string()])
}

/// [`module_line`] for several lines, in order.
fn module_lines(root: &Path, path: &str, lines: &[String]) -> Result<Output> {
    let full = root.join(path);
    let mut text = match std::fs::read_to_string(&full) {
        Ok(text) => text,
        Err(_) => "//! One module per version (or kind); `codegen-cli create` adds them.\n\n".to_string(),
    };
    for line in lines {
        if !text.contains(line.as_str()) {
            if !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str(line);
            text.push('\n');
        }
    }
    Ok(Output { path: full, contents: text, overwrite: true })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scaffolded CI workflow is YAML GitHub Actions reads: the full history (for the
    /// merge base `make diff` compares with), then `make diff` and `make test`.
    #[test]
    fn the_ci_workflow_runs_diff_against_the_full_history_then_the_tests() {
        let text = render(&TestWorkflow, ".github/workflows/test.yml").expect("renders");
        let workflow: serde_json::Value = serde_saphyr::from_str(&text).expect("the workflow is YAML");
        let steps = workflow["jobs"]["test"]["steps"].as_array().expect("steps");
        assert_eq!(steps[0]["uses"], "actions/checkout@v4");
        assert_eq!(steps[0]["with"]["fetch-depth"], 0);
        let runs: Vec<&str> = steps.iter().filter_map(|s| s["run"].as_str()).collect();
        assert_eq!(runs, ["make diff", "make test"]);
    }

    #[test]
    fn names() {
        assert_eq!(snake("Memcached"), "memcached");
        assert_eq!(snake("CronJob"), "cron_job");
        assert_eq!(snake("HTTPRoute"), "http_route");
        assert!(check_version("v1alpha1").is_ok() && check_version("v2").is_ok());
        assert!(check_version("1").is_err() && check_version("v1gamma1").is_err() && check_version("v01").is_err());
        assert!(check_kind("Memcached").is_ok() && check_kind("memcached").is_err());
    }

    #[test]
    fn project_names_are_rfc_1123_labels() {
        assert!(check_project_name("memcached-operator").is_ok());
        for bad in ["Memcached", "memcached_operator", "-x", "x-", "1x", ""] {
            let err = check_project_name(bad).unwrap_err().to_string();
            assert!(err.contains("RFC 1123 label") && err.contains("--project-name"), "{bad}: {err}");
        }
    }

    fn admission(defaulting: bool, validation: bool) -> Hooks {
        Hooks { defaulting, validation, ..Hooks::default() }
    }

    #[test]
    fn init_namespaced_records_it_and_scaffolds_a_role_binding_and_a_manager_in_its_namespace() {
        let dir = std::env::temp_dir().join(format!("kubegen-init-namespaced-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("tmp dir");
        init(&dir, Some("shop"), "example.com", &Source::Path(PathBuf::from("/kubegen")), true).expect("init");
        let read = |path: &str| std::fs::read_to_string(dir.join(path)).expect(path);
        let manifest: toml::Table = toml::from_str(&read("Cargo.toml")).expect("Cargo.toml parses");
        assert_eq!(manifest["workspace"]["metadata"]["kubegen"]["namespaced"].as_bool(), Some(true));
        let role = read("config/rbac/role.yaml");
        assert!(role.contains("kind: Role\n") && role.contains("namespace: system"), "{role}");
        let binding = read("config/rbac/role_binding.yaml");
        assert!(binding.contains("kind: RoleBinding") && binding.contains("  kind: Role\n"), "{binding}");
        assert!(read("config/manager/manager.yaml").contains("- --namespace=$(POD_NAMESPACE)"));
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }

    #[test]
    fn create_webhook_conversion_adds_spokes_the_test_the_storage_version_and_the_crd_patch() {
        let dir = std::env::temp_dir().join(format!("kubegen-create-conversion-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("tmp dir");
        init(&dir, Some("shop"), "example.com", &Source::Path(PathBuf::from("/kubegen")), false).expect("init");
        for version in ["v1", "v2", "v3"] {
            create_api(&dir, "shop", Some("example.com"), "sales", version, "Cart", true).expect("create api");
        }
        let conversion = |spokes: &[&str]| Hooks {
            conversion: true,
            spokes: spokes.iter().map(|s| s.to_string()).collect(),
            ..Hooks::default()
        };
        let create =
            |hub: &str, hooks: &Hooks| create_webhook(&dir, "shop", Some("example.com"), "sales", hub, "Cart", hooks);
        let err = create("v1", &conversion(&[])).unwrap_err().to_string();
        assert!(err.contains("--spoke v2"), "{err}");
        let err = create("v1", &conversion(&["v1"])).unwrap_err().to_string();
        assert!(err.contains("is the hub"), "{err}");
        let err = create("v1", &conversion(&["v4"])).unwrap_err().to_string();
        assert!(err.contains("create api --group sales --version v4 --kind Cart"), "{err}");

        // A file the command does not write keeps its formatting (issue 29: rustfmt, given
        // main.rs, followed its `mod` declarations into the controller).
        let controller = dir.join("src/controller/cart.rs");
        let untidy = format!("{}\nfn  untidy( ) {{}}\n", std::fs::read_to_string(&controller).expect("the controller"));
        std::fs::write(&controller, &untidy).expect("write");
        create("v1", &conversion(&["v2"])).expect("create webhook --conversion");
        assert_eq!(std::fs::read_to_string(&controller).expect("the controller"), untidy);
        let read = |p: &str| std::fs::read_to_string(dir.join(p)).expect(p);
        let cart = read("src/webhook/cart_conversion.rs");
        assert!(
            cart.contains("Conversion<v1::Cart>") && cart.contains(".spoke::<crate::api::sales::v2::Cart>()"),
            "{cart}"
        );
        assert_eq!(cart.matches("kubegen::webhook::by_fields").count(), 2, "{cart}");
        assert!(read("src/main.rs").contains("webhooks.convert(shop::webhook::cart_conversion::conversion())"));
        assert!(read("tests/cart_conversion.rs").contains("check_round_trips(256)"));
        assert!(read("Cargo.toml").contains(r#"features = ["webhook-testing", "testenv"]"#), "{}", read("Cargo.toml"));
        let hub = read("src/api/sales/v1/cart.rs");
        assert!(hub.contains(")]\n#[kube(storage)] // the hub of the conversions"), "{hub}");
        assert!(!hub.contains("/// The hub"), "the doc comment (the CRD's description) is left alone: {hub}");
        let patch = read("config/crd/patches/webhook_in_carts.yaml");
        assert!(patch.contains("name: carts.sales.example.com") && patch.contains("path: /convert"), "{patch}");
        assert!(read("config/crd/kustomizeconfig.yaml").contains("spec/conversion/webhook/clientConfig/service/name"));

        // A later spoke joins the same conversion; the storage version and server stay.
        create("v1", &conversion(&["v3"])).expect("a second spoke");
        let cart = read("src/webhook/cart_conversion.rs");
        assert!(
            cart.contains(".spoke::<crate::api::sales::v2::Cart>()\n        .spoke::<crate::api::sales::v3::Cart>()\n"),
            "{cart}"
        );
        assert_eq!(read("src/api/sales/v1/cart.rs").matches("#[kube(storage)]").count(), 1);
        assert_eq!(read("src/main.rs").matches("webhooks.convert(").count(), 1);
        assert_eq!(read("src/webhook/mod.rs").matches("pub mod cart_conversion;").count(), 1);
        let err = create("v1", &conversion(&["v3"])).unwrap_err().to_string();
        assert!(err.contains("already converts v3"), "{err}");
        let err = create("v2", &conversion(&["v3"])).unwrap_err().to_string();
        assert!(err.contains("through another hub than v2"), "{err}");
        // Admission webhooks for the same kind join the same server.
        create("v1", &admission(false, true)).expect("and a validator");
        let modules = read("src/webhook/mod.rs");
        assert!(modules.contains("pub mod cart;\n") && modules.contains("pub mod cart_conversion;\n"), "{modules}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn create_webhook_adds_the_kinds_webhooks_the_server_and_the_feature() {
        let dir = std::env::temp_dir().join(format!("kubegen-create-webhook-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("tmp dir");
        init(&dir, Some("shop"), "example.com", &Source::Path(PathBuf::from("/kubegen")), false).expect("init");
        for kind in ["Cart", "Order"] {
            create_api(&dir, "shop", Some("example.com"), "sales", "v1", kind, true).expect("create api");
        }
        let err =
            create_webhook(&dir, "shop", Some("example.com"), "sales", "v1", "Cart", &Hooks::default()).unwrap_err();
        assert!(err.to_string().contains("--defaulting, --programmatic-validation, --conversion"), "{err}");
        create_webhook(&dir, "shop", Some("example.com"), "sales", "v1", "Cart", &admission(true, true))
            .expect("create webhook");
        create_webhook(&dir, "shop", Some("example.com"), "sales", "v1", "Order", &admission(false, true))
            .expect("a second kind");
        let read = |p: &str| std::fs::read_to_string(dir.join(p)).expect(p);
        let cart = read("src/webhook/cart.rs");
        assert!(cart.contains("+kubebuilder:webhook:path=/mutate-sales-example-com-v1-cart,mutating=true"), "{cart}");
        assert!(
            cart.contains("+kubebuilder:webhook:path=/validate-sales-example-com-v1-cart,mutating=false"),
            "{cart}"
        );
        for marker in cart.lines().filter_map(|l| l.trim().strip_prefix("/// +kubebuilder:webhook:")) {
            assert!(kubegen_core::webhook::WebhookMarker::parse_marker(marker).is_ok(), "{marker}");
        }
        let order = read("src/webhook/order.rs");
        assert!(!order.contains("Defaulter") && order.contains("OrderValidator"), "{order}");
        // Each kind's webhooks have a test on a real API server, as namespaced as the kind.
        let test = read("tests/cart_webhook.rs");
        assert!(
            test.contains(".serve_webhooks(webhooks, concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/config\"))"),
            "{test}"
        );
        assert!(test.contains("shop::webhook::cart::add(Webhooks::new())"), "{test}");
        assert!(test.contains("Api::namespaced(env.client(), \"default\")"), "{test}");
        assert!(read("tests/order_webhook.rs").contains("async fn order_webhooks_are_called_by_the_api_server()"));
        let main = read("src/main.rs");
        assert_eq!(main.matches("Webhooks::new()").count(), 1, "{main}");
        assert!(
            main.contains("shop::webhook::cart::add(webhooks)") && main.contains("shop::webhook::order::add(webhooks)")
        );
        assert!(
            main.find(".serve_with(Some(manager.client()), webhooks)").expect("served")
                < main.find("manager.run()").expect("the manager")
        );
        assert!(main.contains("    #[command(flatten)]\n    webhook: kubegen::webhook::WebhookArgs,\n"), "{main}");
        assert!(read("Cargo.toml").contains(r#"features = ["webhook"] }"#), "{}", read("Cargo.toml"));
        assert_eq!(read("Cargo.toml").matches("\"webhook\"").count(), 1);
        assert!(read("src/lib.rs").contains("pub mod webhook;"));
        assert!(read("src/webhook/mod.rs").contains("pub mod cart;\npub mod order;"));
        assert!(read("config/webhook/kustomization.yaml").contains("- manifests.yaml"));
        assert!(read("config/webhook/service.yaml").contains("targetPort: 9443"));
        assert!(read("config/certmanager/kustomization.yaml").contains("- certificate.yaml"));
        assert!(read("config/certmanager/certificate.yaml").contains("secretName: webhook-server-cert"));
        assert!(read("config/default/manager_webhook_patch.yaml").contains("secretName: webhook-server-cert"));
        let default = read("config/default/kustomization.yaml");
        assert_eq!(default.matches("- ../webhook\n").count(), 1, "{default}");
        assert_eq!(default.matches("replacements:").count(), 1, "{default}");
        let again = create_webhook(&dir, "shop", Some("example.com"), "sales", "v1", "Cart", &admission(true, false))
            .unwrap_err();
        assert!(again.to_string().contains("already scaffolded"), "{again}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The wiring `create webhook` adds to an existing config/default/kustomization.yaml
    /// is what `manifests` scaffolds when config/webhook exists already: either order of
    /// the two commands leaves the same file.
    #[test]
    fn config_default_is_wired_to_the_webhooks_in_either_order() {
        let config = std::env::temp_dir().join(format!("kubegen-webhook-wiring-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&config);
        let inputs = |out| layout::Inputs {
            out,
            crd_files: &[],
            samples: &[],
            role_name: "manager-role",
            project: "shop",
            partial: false,
            namespaced: false,
        };
        let default = |outputs: Vec<Output>| {
            outputs.into_iter().find(|o| o.path.ends_with("default/kustomization.yaml")).expect("scaffolded").contents
        };
        let plain = default(layout::outputs(&inputs(&config)).expect("layout"));
        assert!(!plain.contains("webhook"), "{plain}");

        let wiring = render(&WebhookWiring, "wiring").expect("wiring");
        let added = with_webhook_wiring(&plain, &wiring).expect("wired").expect("changed");
        assert_eq!(with_webhook_wiring(&added, &wiring).expect("again"), None, "a second kind adds nothing");
        std::fs::create_dir_all(config.join("webhook")).expect("dir");
        std::fs::write(config.join("webhook/kustomization.yaml"), "").expect("write");
        let scaffolded = default(layout::outputs(&inputs(&config)).expect("layout"));
        assert_eq!(added, scaffolded);
        for line in [
            "- ../manager\n- ../webhook\n- ../certmanager\n",
            "- path: manager_webhook_patch.yaml",
            "cert-manager.io/inject-ca-from",
        ] {
            assert!(added.contains(line), "{line} in {added}");
        }

        let edited = plain.replace("- ../manager\n", "- ../manager-custom\n");
        let err = with_webhook_wiring(&edited, &wiring).unwrap_err().to_string();
        assert!(err.contains("no `- ../manager` resource") && err.contains("- ../certmanager"), "{err}");
        let err =
            with_webhook_wiring(&format!("{plain}patches:\n- path: mine.yaml\n"), &wiring).unwrap_err().to_string();
        assert!(err.contains("a `patches:` list of its own"), "{err}");
        let _ = std::fs::remove_dir_all(&config);
    }
}
