//! Finding a workspace's kinds: every package that depends on kubegen and has a library
//! is linked into a small generated program, whose derives registered themselves with
//! `kubegen::kinds`; running it prints every kind's CRD. No source is parsed and
//! nothing is listed by hand.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};
use kubegen_core::kind::Options;
use serde::Deserialize;

use crate::settings::{PackageSettings, Settings};

#[derive(Deserialize)]
struct Metadata {
    packages: Vec<Package>,
    #[serde(default)]
    metadata: Option<serde_json::Value>,
    workspace_root: PathBuf,
    target_directory: PathBuf,
    workspace_members: Vec<String>,
}

#[derive(Deserialize)]
struct Package {
    name: String,
    id: String,
    manifest_path: PathBuf,
    dependencies: Vec<Dependency>,
    targets: Vec<Target>,
    #[serde(default)]
    metadata: Option<serde_json::Value>,
}

#[derive(Deserialize)]
struct Dependency {
    name: String,
    req: String,
    path: Option<PathBuf>,
    kind: Option<String>,
    /// `registry+<index>` or `git+<url>[?branch=|tag=|rev=]`; absent for a path.
    source: Option<String>,
}

/// The package the library is published as; its crate is `kubegen`.
pub const LIBRARY_PACKAGE: &str = "kubegen-rs";

#[derive(Deserialize)]
struct Target {
    kind: Vec<String>,
    name: String,
}

pub struct Workspace {
    pub root: PathBuf,
    /// `[workspace.metadata.kubegen]` as cargo reports it; [`Workspace::settings`] types it.
    kubegen_metadata: Option<serde_json::Value>,
    /// The library crate of the package at the workspace root (where `init` puts the
    /// operator), for `create api`.
    pub root_crate: Option<String>,
    /// Source directories of every member that depends on kubegen (binaries too), for
    /// RBAC markers.
    pub source_dirs: Vec<PathBuf>,
    /// Where the helper is built; `diff --build-ref` builds another generation here too.
    pub target_dir: PathBuf,
    /// (package name, library crate name, manifest dir)
    packages: Vec<(String, String, PathBuf)>,
    /// How the packages depend on kubegen, as a dependency table's keys
    /// (`path = "..."`, `git = "...", branch = "..."`, `version = "..."`).
    kubegen: String,
    /// Where kubegen is, when the packages depend on it by path.
    kubegen_dir: Option<PathBuf>,
    /// The workspace's `[profile.*]` tables, as TOML: the helper builds with them, so
    /// it reuses what `cargo build` compiled (another profile compiles everything again).
    profiles: String,
    /// The directories of every package the helper builds from source: the packages read
    /// and all they depend on by path (the fingerprint's inputs); `None` when one could
    /// not be followed.
    pub package_dirs: Option<Vec<PathBuf>>,
    /// Every member's manifest (one that starts to depend on kubegen, or stops opting
    /// out, adds kinds), and the directories a `members` glob lists (a new member there
    /// changes the workspace): the fingerprint's view of the workspace's shape.
    pub member_manifests: Vec<PathBuf>,
    pub member_glob_dirs: Vec<PathBuf>,
    /// The helper's dep-info file (`<target>/debug/<helper>.d`), once it was built.
    helper_dep_info: std::cell::OnceCell<PathBuf>,
    /// Whether the helper can be built in a mirror of the workspace ([`mirrorable`]).
    /// Never for another tree sharing this target directory (`diff`'s extracted commit):
    /// its packages would get the workspace's own artifacts' names, and cargo, finding
    /// those newer than the extracted sources, would reuse them.
    pub(crate) mirrorable: bool,
    /// The mirror the helper was built in.
    mirror_dir: std::cell::OnceCell<PathBuf>,
}

/// One derived kind, as the helper program reports it.
pub use kubegen_core::kind::KindRecord as Kind;

impl Workspace {
    /// Reads `cargo metadata` for the workspace of `manifest_path` (or the current
    /// directory). `only` restricts to the named packages.
    pub fn load(manifest_path: Option<&Path>, only: &[String]) -> Result<Self> {
        let mut cmd = Command::new(cargo());
        cmd.args(["metadata", "--format-version", "1", "--no-deps"]);
        if let Some(p) = manifest_path {
            cmd.arg("--manifest-path").arg(p);
        }
        let out = cmd.output().context("running `cargo metadata`")?;
        if !out.status.success() {
            bail!("`cargo metadata` failed:\n{}", String::from_utf8_lossy(&out.stderr));
        }
        let meta: Metadata = serde_json::from_slice(&out.stdout).context("reading `cargo metadata` output")?;
        let mut packages = Vec::new();
        let mut kubegen = None;
        let mut source_dirs = Vec::new();
        for p in &meta.packages {
            if !meta.workspace_members.contains(&p.id) || p.name == LIBRARY_PACKAGE {
                continue;
            }
            let Some(dep) = p.dependencies.iter().find(|d| d.name == LIBRARY_PACKAGE && d.kind.is_none()) else {
                continue;
            };
            let dir = p.manifest_path.parent().map(Path::to_path_buf).unwrap_or_default();
            let settings = PackageSettings::from_metadata(p.metadata.as_ref().and_then(|m| m.get("kubegen")), &p.name)?;
            let opted_out = settings.manifests == Some(false);
            // Opted out of the default run; `-p` still names it.
            let named = only.contains(&p.name);
            if !named && (opted_out || !only.is_empty()) {
                continue;
            }
            source_dirs.push(dir.clone());
            let Some(lib) = p.targets.iter().find(|t| t.kind.iter().any(|k| k == "lib" || k == "rlib")) else {
                continue;
            };
            kubegen.get_or_insert_with(|| (dependency_spec(dep), dep.path.clone()));
            packages.push((p.name.clone(), lib.name.replace('-', "_"), dir));
        }
        for name in only {
            if !packages.iter().any(|(p, _, _)| p == name) && !source_dirs.iter().any(|d| d.ends_with(name)) {
                let members = meta.packages.iter().filter(|p| meta.workspace_members.contains(&p.id));
                // A member without kubegen: saying "did you mean" its own name helps nobody.
                if members.clone().any(|p| p.name == *name) {
                    bail!(
                        "package `{name}` is a workspace member but does not depend on {LIBRARY_PACKAGE}, so it declares no kinds, RBAC or webhooks; name a member that does"
                    );
                }
                let hint = suggest_package(name, members.map(|p| p.name.as_str()))
                    .map(|s| format!("; did you mean `-p {s}`?"))
                    .unwrap_or_default();
                bail!("package `{name}` is not a workspace member that depends on kubegen{hint}");
            }
        }
        packages.sort();
        source_dirs.sort();
        let root_manifest = meta.workspace_root.join("Cargo.toml");
        let root_crate = meta
            .packages
            .iter()
            .filter(|p| meta.workspace_members.contains(&p.id) && p.manifest_path == root_manifest)
            .find_map(|p| p.targets.iter().find(|t| t.kind.iter().any(|k| k == "lib")))
            .map(|t| t.name.replace('-', "_"));
        let package_dirs = path_closure(&meta, &source_dirs);
        let profiles = profiles(&root_manifest)?;
        let member_manifests: Vec<PathBuf> = meta
            .packages
            .iter()
            .filter(|p| meta.workspace_members.contains(&p.id))
            .map(|p| p.manifest_path.clone())
            .collect();
        let member_glob_dirs = member_glob_dirs(&root_manifest, &meta.workspace_root);
        // Every member is loaded by cargo in the mirror, and all they depend on by path.
        let member_dirs: Vec<PathBuf> =
            member_manifests.iter().filter_map(|m: &PathBuf| m.parent().map(Path::to_path_buf)).collect();
        let mirrorable = package_dirs.is_some()
            && path_closure(&meta, &member_dirs).is_some_and(|dirs| mirrorable(&meta.workspace_root, &dirs));
        Ok(Workspace {
            mirrorable,
            mirror_dir: std::cell::OnceCell::new(),
            member_manifests,
            member_glob_dirs,
            package_dirs,
            helper_dep_info: std::cell::OnceCell::new(),
            profiles,
            kubegen_metadata: meta.metadata.as_ref().and_then(|m| m.get("kubegen")).cloned(),
            root_crate,
            source_dirs,
            root: meta.workspace_root,
            target_dir: meta.target_directory,
            packages,
            kubegen: kubegen.as_ref().map_or_else(|| "version = \"*\"".into(), |(spec, _)| spec.clone()),
            kubegen_dir: kubegen.and_then(|(_, dir)| dir),
        })
    }

    /// `[workspace.metadata.kubegen]`, typed; an unknown key is an error.
    pub fn settings(&self) -> Result<Settings> {
        Settings::from_metadata(self.kubegen_metadata.as_ref())
    }

    /// The project's name (`project` in `[workspace.metadata.kubegen]`, else the root
    /// package's): config/default's `<project>-system` and `<project>-` prefix.
    pub fn project(&self) -> Result<String> {
        self.settings()?.project.or_else(|| self.root_crate.clone()).with_context(|| {
            format!(
                "{}: no project name: set `project` in [workspace.metadata.kubegen] (`codegen-cli init` writes it)",
                self.root.join("Cargo.toml").display()
            )
        })
    }

    /// Builds and runs the helper program; returns every kind, ordered by type path.
    pub fn kinds(&self, options: Options) -> Result<Vec<Kind>> {
        if self.packages.is_empty() {
            return Ok(Vec::new());
        }
        // One helper per set of packages, named after it: two runs over different
        // packages (`-p`, or two workspaces sharing a target dir) never build over
        // each other's helper.
        let id = {
            use std::hash::{Hash, Hasher};
            let mut h = std::hash::DefaultHasher::new();
            (&self.root, &self.packages, &self.kubegen).hash(&mut h);
            format!("{:016x}", h.finish())
        };
        // Built as a member of a mirror of the workspace, the packages keep the paths (relative
        // to the workspace root) that cargo hashes into their artifacts' names: the helper
        // links what `cargo build` compiled instead of compiling every package again.
        let manifest = match self.mirror(&id)? {
            Some(manifest) => manifest,
            None => self.standalone_helper(&id)?,
        };
        let names: Vec<&str> = self.packages.iter().map(|(name, _, _)| name.as_str()).collect();
        eprintln!("Building the kinds of {} with cargo", names.join(", "));
        // cargo's progress and errors go straight to the terminal: a first run compiles
        // every dependency, which takes minutes.
        let failed = "building the workspace's kinds failed; cargo's output above names the package and the error";
        if self.mirror_dir.get().is_some() {
            // The packages are compiled in the workspace itself, so what the mirror shares
            // with `cargo build` was made there (its CARGO_MANIFEST_DIR, its build
            // scripts' view); in the mirror only the helper is compiled and linked.
            let mut build = self.cargo();
            build.args(["build", "--lib", "--manifest-path"]).arg(self.root.join("Cargo.toml"));
            for name in &names {
                build.args(["-p", name]);
            }
            if !build.status().context("building the workspace's kinds with `cargo build`")?.success() {
                bail!("{failed}");
            }
        }
        let mut cmd = self.cargo();
        cmd.args(["run", "--manifest-path"]).arg(&manifest).arg("--").args(options.to_args());
        let out = cmd
            .stderr(std::process::Stdio::inherit())
            .output()
            .context("running the manifests helper with `cargo run`")?;
        if !out.status.success() {
            bail!("{failed}");
        }
        let kinds: Vec<Kind> = serde_json::from_slice(&out.stdout).context("reading the helper's output")?;
        let _ = self.helper_dep_info.set(self.target_dir.join("debug").join(format!("kubegen-manifests-{id}.d")));
        Ok(kinds)
    }

    /// cargo, run as a plain `cargo` in the workspace would be: what `cargo run -p
    /// codegen-cli` sets for its own package must not reach the build scripts (ring's
    /// reruns when CARGO_MANIFEST_DIR changes, and everything above it recompiles).
    fn cargo(&self) -> Command {
        let mut cmd = Command::new(cargo());
        for (key, _) in std::env::vars_os() {
            if key.to_str().is_some_and(is_package_env) {
                cmd.env_remove(&key);
            }
        }
        cmd.env("CARGO_TARGET_DIR", &self.target_dir);
        cmd
    }

    /// The files the helper's build read, as cargo's dep-info lists them (every source of
    /// every package built from a path, files they include, build scripts' inputs), but
    /// for what is generated under the target directory; `None` before it was built, or
    /// when cargo wrote none where expected.
    pub fn built_files(&self) -> Option<Vec<PathBuf>> {
        let files = crate::fingerprint::dep_info(self.helper_dep_info.get()?)?;
        // The mirror's paths name the workspace's own files (but the helper's, generated).
        let mirror = self.mirror_dir.get();
        let files = files.into_iter().map(|f| match mirror.and_then(|m| f.strip_prefix(m).ok()) {
            Some(rel) if !rel.starts_with(self.helper_dep_info.get()?.file_stem()?) => Some(self.root.join(rel)),
            _ => Some(f),
        });
        let files: Vec<PathBuf> = files.collect::<Option<_>>()?;
        Some(files.into_iter().filter(|f| !f.starts_with(&self.target_dir)).collect())
    }

    /// The helper in a workspace of its own (when no mirror can be made), with the
    /// workspace's profiles and lock file; returns its manifest.
    fn standalone_helper(&self, id: &str) -> Result<PathBuf> {
        let dir = self.target_dir.join("kubegen").join(format!("manifests-{id}"));
        std::fs::create_dir_all(dir.join("src")).with_context(|| format!("creating {}", dir.display()))?;
        let deps = self.helper_dependencies(|dir| dir.to_path_buf());
        write_if_changed(
            &dir.join("Cargo.toml"),
            &format!("{}\n[workspace]\n{}", helper_package(id, &self.kubegen, &deps), self.profiles),
        )?;
        write_if_changed(&dir.join("src/main.rs"), &self.helper_main())?;
        // The workspace's lock file pins the same versions the workspace builds with.
        if let Ok(lock) = std::fs::read_to_string(self.root.join("Cargo.lock")) {
            write_if_changed(&dir.join("Cargo.lock"), &lock)?;
        }
        Ok(dir.join("Cargo.toml"))
    }

    /// The helper as a member of a mirror of the workspace: `<target>/kubegen/ws-<id>/`
    /// holds the root manifest with the helper added to its members, a copy of the lock
    /// file, and a symbolic link to each other entry of the workspace root. Every package
    /// keeps its path relative to the root, so cargo gives it the same metadata hash as in
    /// the workspace and `cargo build`'s artifacts are fresh for the helper. `None` where
    /// a mirror would not build the same packages: a manifest names a path outside the
    /// workspace relative to itself (from the mirror it would name another directory), or
    /// the platform has no symbolic links. Returns the helper's manifest.
    fn mirror(&self, id: &str) -> Result<Option<PathBuf>> {
        if !cfg!(unix) || !self.mirrorable {
            return Ok(None);
        }
        let Ok(root_manifest) = std::fs::read_to_string(self.root.join("Cargo.toml")) else { return Ok(None) };
        let Ok(mut manifest) = root_manifest.parse::<toml::Table>() else { return Ok(None) };
        let helper = format!("kubegen-manifests-{id}");
        let dir = self.target_dir.join("kubegen").join(format!("ws-{id}"));
        let member = dir.join(&helper);
        std::fs::create_dir_all(member.join("src")).with_context(|| format!("creating {}", member.display()))?;
        let workspace = manifest.entry("workspace").or_insert_with(|| toml::Value::Table(Default::default()));
        let Some(workspace) = workspace.as_table_mut() else { return Ok(None) };
        let members = workspace.entry("members").or_insert_with(|| toml::Value::Array(Vec::new()));
        let Some(members) = members.as_array_mut() else { return Ok(None) };
        members.push(toml::Value::String(helper.clone()));
        let text = toml::to_string(&manifest).context("writing the mirror's manifest")?;
        write_if_changed(
            &dir.join("Cargo.toml"),
            &format!(
                "# Generated by codegen-cli manifests: {}, with the helper as a member.\n{text}",
                self.root.join("Cargo.toml").display()
            ),
        )?;
        // Copied when the workspace's changed: cargo adds the helper to the copy.
        if let Ok(lock) = std::fs::read_to_string(self.root.join("Cargo.lock"))
            && (std::fs::read_to_string(dir.join(".workspace.lock")).ok().as_deref() != Some(lock.as_str())
                || !dir.join("Cargo.lock").exists())
        {
            write_atomically(&dir.join("Cargo.lock"), &lock)?;
            write_atomically(&dir.join(".workspace.lock"), &lock)?;
        }
        self.link_root_entries(&dir, &helper)?;
        // A package under the root is reached through the mirror, by a relative path.
        let in_mirror = |package: &Path| match package.strip_prefix(&self.root) {
            Ok(rel) => Path::new("..").join(rel),
            Err(_) => package.to_path_buf(),
        };
        let deps = self.helper_dependencies(in_mirror);
        let kubegen = match &self.kubegen_dir {
            Some(dir) => format!("path = {:?}", in_mirror(dir).display().to_string()),
            None => self.kubegen.clone(),
        };
        write_if_changed(&member.join("Cargo.toml"), &helper_package(id, &kubegen, &deps))?;
        write_if_changed(&member.join("src/main.rs"), &self.helper_main())?;
        let _ = self.mirror_dir.set(dir);
        Ok(Some(member.join("Cargo.toml")))
    }

    /// In the mirror `dir`, a symbolic link to each entry of the workspace root but its
    /// manifest, lock file, `.git` and the target directory; links to entries gone are
    /// removed (only links: nothing else there is the workspace's).
    fn link_root_entries(&self, dir: &Path, helper: &str) -> Result<()> {
        let target_entry = self.target_dir.strip_prefix(&self.root).ok().and_then(|rel| rel.components().next());
        let mut wanted = std::collections::BTreeSet::new();
        for entry in std::fs::read_dir(&self.root).with_context(|| format!("reading {}", self.root.display()))? {
            let name = entry?.file_name();
            let skip = ["Cargo.toml", "Cargo.lock", ".git", helper].iter().any(|s| name == *s)
                || target_entry.is_some_and(|t| t.as_os_str() == name);
            if !skip {
                wanted.insert(name);
            }
        }
        for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
            let entry = entry?;
            if entry.file_type()?.is_symlink() && !wanted.contains(&entry.file_name()) {
                remove_link(&entry.path())?;
            }
        }
        for name in wanted {
            let (link, to) = (dir.join(&name), self.root.join(&name));
            if std::fs::read_link(&link).ok().as_deref() == Some(to.as_path()) {
                continue;
            }
            if link.is_symlink() {
                remove_link(&link)?;
            }
            // Another run (`make -j`) may have made the same link a moment ago.
            #[cfg(unix)]
            if let Err(e) = std::os::unix::fs::symlink(&to, &link)
                && std::fs::read_link(&link).ok().as_deref() != Some(to.as_path())
            {
                return Err(e).with_context(|| format!("linking {}", link.display()));
            }
        }
        Ok(())
    }

    /// The helper's `[dependencies]` entries for the packages read, each directory as
    /// `path` gives it.
    fn helper_dependencies(&self, path: impl Fn(&Path) -> PathBuf) -> String {
        self.packages
            .iter()
            .enumerate()
            .map(|(i, (name, _, dir))| {
                format!("kubegen_pkg_{i} = {{ package = {name:?}, path = {:?} }}\n", path(dir).display().to_string())
            })
            .collect()
    }

    fn helper_main(&self) -> String {
        let externs: String = (0..self.packages.len()).map(|i| format!("extern crate kubegen_pkg_{i};\n")).collect();
        format!(
            "// Generated by codegen-cli manifests. Linking each package runs its derives' registrations.\n{externs}\nfn main() {{\n    kubegen::kinds::helper_main();\n}}\n"
        )
    }
}

/// The helper's `[package]` and `[dependencies]`.
fn helper_package(id: &str, kubegen: &str, deps: &str) -> String {
    format!(
        "# Generated by codegen-cli manifests; rewritten on every run.\n[package]\nname = \"kubegen-manifests-{id}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n[dependencies]\nkubegen = {{ package = {LIBRARY_PACKAGE:?}, {kubegen}, default-features = false }}\n{deps}"
    )
}

/// Whether a mirror of the workspace at `root` builds the same packages, reading the
/// root's manifest and those of `dirs` (every member and all they depend on by path)
/// under the root. Not when:
/// - a manifest names a path that leaves the root relative to itself (from the mirror it
///   would name another directory), or one under the root absolutely (the package would
///   have two sources);
/// - the root manifest has no `[workspace]` (adding one would make its path dependencies
///   members, built with other settings);
/// - a package under the root has a build script (it would run again in the mirror,
///   where the package's directory and files differ).
fn mirrorable(root: &Path, dirs: &[PathBuf]) -> bool {
    fn escapes(value: &toml::Value, from: &Path, root: &Path) -> bool {
        match value {
            toml::Value::Table(table) => table.iter().any(|(key, value)| match value {
                toml::Value::String(path) if matches!(key.as_str(), "path" | "workspace" | "build") => {
                    let path = Path::new(path);
                    if path.is_absolute() {
                        path.starts_with(root)
                    } else {
                        !normalized(&from.join(path)).is_some_and(|p| p.starts_with(root))
                    }
                }
                other => escapes(other, from, root),
            }),
            toml::Value::Array(items) => items.iter().any(|v| escapes(v, from, root)),
            _ => false,
        }
    }
    let read =
        |dir: &Path| -> Option<toml::Table> { std::fs::read_to_string(dir.join("Cargo.toml")).ok()?.parse().ok() };
    if !read(root).is_some_and(|manifest| manifest.contains_key("workspace")) {
        return false;
    }
    std::iter::once(root).chain(dirs.iter().map(PathBuf::as_path).filter(|d| d.starts_with(root))).all(|dir| {
        read(dir).is_some_and(|manifest| {
            let package = manifest.get("package");
            let build_script = match package.and_then(|p| p.get("build")) {
                Some(toml::Value::Boolean(build)) => *build,
                Some(_) => true,
                None => package.is_some() && dir.join("build.rs").exists(),
            };
            !build_script && !escapes(&toml::Value::Table(manifest), dir, root)
        })
    })
}

/// `dirs` and every package they depend on by path (not as dev-dependencies), from
/// `cargo metadata` for members and from the manifests for others; `None` when one
/// cannot be followed.
fn path_closure(meta: &Metadata, dirs: &[PathBuf]) -> Option<Vec<PathBuf>> {
    let members: Vec<&Package> = meta.packages.iter().filter(|p| meta.workspace_members.contains(&p.id)).collect();
    let mut seen = std::collections::BTreeSet::new();
    let mut stack: Vec<PathBuf> = dirs.to_vec();
    while let Some(dir) = stack.pop() {
        let dir = normalized(&dir)?;
        if !seen.insert(dir.clone()) {
            continue;
        }
        match members.iter().find(|p| p.manifest_path.parent() == Some(dir.as_path())) {
            Some(p) => stack.extend(
                p.dependencies.iter().filter(|d| d.kind.as_deref() != Some("dev")).filter_map(|d| d.path.clone()),
            ),
            None => stack.extend(manifest_path_deps(&dir)?),
        }
    }
    Some(seen.into_iter().collect())
}

/// The directories whose entries the workspace's `members` globs match (`crates/*` lists
/// `crates/`).
fn member_glob_dirs(root_manifest: &Path, root: &Path) -> Vec<PathBuf> {
    let Some(manifest) = std::fs::read_to_string(root_manifest).ok().and_then(|t| t.parse::<toml::Table>().ok()) else {
        return Vec::new();
    };
    let members = manifest.get("workspace").and_then(|w| w.get("members")).and_then(toml::Value::as_array);
    let mut dirs: Vec<PathBuf> = members
        .into_iter()
        .flatten()
        .filter_map(toml::Value::as_str)
        .filter(|m| m.contains(['*', '?', '[']))
        .map(|m| {
            let fixed: PathBuf = Path::new(m)
                .components()
                .take_while(|c| !c.as_os_str().to_string_lossy().contains(['*', '?', '[']))
                .collect();
            root.join(fixed)
        })
        .collect();
    dirs.sort();
    dirs.dedup();
    dirs
}

/// `path` made absolute, `.` and `..` folded (as cargo names package directories).
fn normalized(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for part in std::path::absolute(path).ok()?.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    Some(out)
}

/// The path dependencies a package's own manifest names (its dependencies, build
/// dependencies and target-specific ones; one inherited with `workspace = true` as its
/// workspace declares it); `None` when a manifest cannot be read.
fn manifest_path_deps(dir: &Path) -> Option<Vec<PathBuf>> {
    let read =
        |dir: &Path| -> Option<toml::Table> { std::fs::read_to_string(dir.join("Cargo.toml")).ok()?.parse().ok() };
    let manifest = read(dir)?;
    let mut tables: Vec<&toml::Table> = Vec::new();
    for key in ["dependencies", "build-dependencies"] {
        tables.extend(manifest.get(key).and_then(toml::Value::as_table));
    }
    for target in manifest.get("target").and_then(toml::Value::as_table).into_iter().flat_map(|t| t.values()) {
        for key in ["dependencies", "build-dependencies"] {
            tables.extend(target.get(key).and_then(toml::Value::as_table));
        }
    }
    // The workspace a package inherits from: the nearest manifest above with `[workspace]`.
    let mut workspace: Option<Option<(PathBuf, toml::Table)>> = None;
    let mut out = Vec::new();
    for (name, dep) in tables.into_iter().flat_map(|t| t.iter()) {
        if let Some(path) = dep.get("path").and_then(toml::Value::as_str) {
            out.push(dir.join(path));
        } else if dep.get("workspace").and_then(toml::Value::as_bool) == Some(true) {
            let found = workspace.get_or_insert_with(|| {
                dir.ancestors()
                    .skip(1)
                    .find_map(|d| read(d).filter(|t| t.contains_key("workspace")).map(|t| (d.to_path_buf(), t)))
            });
            let (root, table) = found.as_ref()?;
            let declared = table.get("workspace")?.get("dependencies")?.get(name)?;
            if let Some(path) = declared.get("path").and_then(toml::Value::as_str) {
                out.push(root.join(path));
            }
        }
    }
    Some(out)
}

/// The `[profile.*]` tables of the workspace's root manifest, as TOML (empty when it
/// has none).
fn profiles(root_manifest: &Path) -> Result<String> {
    let text =
        std::fs::read_to_string(root_manifest).with_context(|| format!("reading {}", root_manifest.display()))?;
    let mut manifest: toml::Table = text.parse().with_context(|| format!("reading {}", root_manifest.display()))?;
    let Some(profile) = manifest.remove("profile") else { return Ok(String::new()) };
    let tables = toml::Table::from_iter([("profile".to_string(), profile)]);
    Ok(format!("\n{}", toml::to_string(&tables).context("writing the workspace's profiles")?))
}

/// The keys of a dependency table that name the same source as `dep` does: the helper
/// must build the very kubegen the workspace builds (its Cargo.lock is copied too).
fn dependency_spec(dep: &Dependency) -> String {
    if let Some(path) = &dep.path {
        return format!("path = {:?}", path.display().to_string());
    }
    if let Some(git) = dep.source.as_deref().and_then(|s| s.strip_prefix("git+")) {
        let (url, query) = git.split_once('?').unwrap_or((git, ""));
        let mut spec = format!("git = {url:?}");
        for (key, value) in query.split('&').filter_map(|kv| kv.split_once('=')) {
            if matches!(key, "branch" | "tag" | "rev") {
                spec += &format!(", {key} = {value:?}");
            }
        }
        return spec;
    }
    format!("version = {:?}", dep.req)
}

/// The member `name` most likely means: the same name with `-` and `_` swapped (a crate
/// name for its package's), or the closest spelling.
fn suggest_package<'a>(name: &str, members: impl Iterator<Item = &'a str> + Clone) -> Option<&'a str> {
    let same = |m: &str| m.replace('_', "-") == name.replace('_', "-");
    members.clone().find(|m| same(m)).or_else(|| kubegen_core::markers::registry::suggest(name, members))
}

/// The variables cargo sets for the package it runs (`cargo run -p codegen-cli`), as
/// opposed to its configuration (`CARGO_HOME`, `CARGO_TARGET_DIR`, `CARGO_BUILD_*`, ...).
pub(crate) fn is_package_env(key: &str) -> bool {
    key.starts_with("CARGO_PKG_")
        || matches!(
            key,
            "CARGO_MANIFEST_DIR"
                | "CARGO_MANIFEST_PATH"
                | "CARGO_MANIFEST_LINKS"
                | "CARGO_CRATE_NAME"
                | "CARGO_BIN_NAME"
                | "CARGO_PRIMARY_PACKAGE"
                | "CARGO_RUSTC_CURRENT_DIR"
        )
}

fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

/// Removes the link `path`; one another run removed first is no error.
fn remove_link(path: &Path) -> Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(e).with_context(|| format!("removing {}", path.display()))
        }
        _ => Ok(()),
    }
}

/// Writes `path` through a temporary file renamed over it: a cargo reading it meanwhile
/// sees the old text or the new, never half of one.
fn write_atomically(path: &Path, contents: &str) -> Result<()> {
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, contents).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))
}

fn write_if_changed(path: &Path, contents: &str) -> Result<()> {
    if std::fs::read_to_string(path).ok().as_deref() == Some(contents) {
        return Ok(());
    }
    std::fs::write(path, contents).with_context(|| format!("writing {}", path.display()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_helper_builds_with_the_workspace_s_profiles() {
        let dir = std::env::temp_dir().join(format!("kubegen-profiles-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let manifest = dir.join("Cargo.toml");
        std::fs::write(
            &manifest,
            "[package]\nname = \"op\"\n\n[profile.dev.package.\"*\"]\ndebug = false\n\n[profile.release]\nlto = \"thin\"\n",
        )
        .unwrap();
        let profiles = super::profiles(&manifest).unwrap();
        std::fs::write(&manifest, "[package]\nname = \"op\"\n").unwrap();
        let none = super::profiles(&manifest).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        let parsed: toml::Table = profiles.parse().unwrap();
        assert_eq!(parsed["profile"]["dev"]["package"]["*"]["debug"], toml::Value::Boolean(false), "{profiles}");
        assert_eq!(parsed["profile"]["release"]["lto"], toml::Value::String("thin".into()), "{profiles}");
        assert!(!profiles.contains("[package]\nname"), "{profiles}");
        assert_eq!(none, "");
    }

    #[test]
    fn a_mirror_is_made_only_where_every_path_stays_in_the_workspace() {
        let root = std::env::temp_dir().join(format!("kubegen-mirrorable-{}", std::process::id()));
        let member = root.join("api");
        std::fs::create_dir_all(&member).unwrap();
        let write = |dir: &std::path::Path, text: &str| std::fs::write(dir.join("Cargo.toml"), text).unwrap();
        write(&root, "[workspace]\nmembers = [\"api\"]\n[workspace.dependencies]\ncommon = { path = \"common\" }\n");
        write(
            &member,
            "[package]\nname = \"api\"\n[dependencies]\nkubegen = { path = \"/opt/kubegen\" }\nc = { path = \"../common\" }\n",
        );
        let inside = super::mirrorable(&root, std::slice::from_ref(&member));
        // `../../kubegen` leaves the workspace: from the mirror it would name another directory.
        write(
            &member,
            "[package]\nname = \"api\"\n[target.'cfg(unix)'.dependencies]\nk = { path = \"../../kubegen\" }\n",
        );
        let leaves = super::mirrorable(&root, std::slice::from_ref(&member));
        write(&member, "[package]\nname = \"api\"\n");
        write(&root, "[workspace]\n[patch.crates-io]\nx = { path = \"../x\" }\n");
        let patch_leaves = super::mirrorable(&root, std::slice::from_ref(&member));
        write(
            &root,
            &format!("[workspace]\n[workspace.dependencies]\nc = {{ path = {:?} }}\n", member.display().to_string()),
        );
        let absolute_inside = super::mirrorable(&root, std::slice::from_ref(&member));
        write(&root, "[package]\nname = \"op\"\n");
        let no_workspace = super::mirrorable(&root, &[]);
        write(&root, "[workspace]\n");
        std::fs::write(member.join("build.rs"), "fn main() {}\n").unwrap();
        let build_script = super::mirrorable(&root, std::slice::from_ref(&member));
        std::fs::remove_dir_all(&root).unwrap();
        assert!(inside, "absolute paths and paths inside the workspace mirror");
        assert!(!leaves);
        assert!(!patch_leaves);
        assert!(!absolute_inside, "a package under the root named absolutely would have two sources");
        assert!(!no_workspace);
        assert!(!build_script);
    }

    #[test]
    fn a_crate_name_suggests_its_package() {
        let members = ["memcached-operator", "codegen-cli"];
        assert_eq!(super::suggest_package("memcached_operator", members.iter().copied()), Some("memcached-operator"));
        assert_eq!(super::suggest_package("codegen-clj", members.iter().copied()), Some("codegen-cli"));
        assert_eq!(super::suggest_package("zzz", members.iter().copied()), None);
    }
}
