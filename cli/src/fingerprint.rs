//! Skipping the helper when nothing it reads has changed. `manifests`, `clients` and
//! `docs` build and run a helper program over the workspace's kinds; on a workspace that
//! did not change since the last run that ended well (outputs written, or found up to
//! date), that costs a `cargo metadata`, a `cargo build` that does nothing and the
//! helper's run. A stamp records what that run read and what it left: the tool itself
//! (its version and the binary's size and time), the command line and working directory,
//! the environment (but for a shell's own bookkeeping), every file of every package the
//! helper builds (the packages with kinds and all they depend on by path — `Cargo.lock`
//! pins the rest), every file cargo's dep-info says the build read (an `include_str!`
//! outside the packages, a build script's `rerun-if-changed`), the workspace manifest,
//! lock file, toolchain and cargo configuration, the `--header` file and the command's
//! output directories. The next run compares that with the disk — a file whose size and
//! time are the same is the same, unless its time was too close to its reading to prove
//! anything; otherwise it is read and compared by its SHA-256 — and when all of it is
//! unchanged says what the last run said, without cargo. Anything it cannot vouch for (a
//! file it cannot read, a package it cannot follow, an input that changed while the run
//! read it) means no stamp, and so a full run: never a stale result.
//!
//! `KUBEGEN_NO_SKIP=1` turns it off.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Bumped when the stamp's meaning changes.
const FORMAT: u32 = 2;

/// One file as the stamp knows it.
#[derive(Serialize, Deserialize, Clone, PartialEq, Debug)]
struct Seen {
    len: u64,
    /// Modification time, nanoseconds since the epoch.
    mtime: u128,
    /// Change time (Unix), which no tool sets back: `cp -p` and `tar` restore a file's
    /// modification time, not this.
    ctime: i128,
    sha256: String,
    /// Modified within [`RACY`] of when it was read: a later edit may keep the same time
    /// (file times are coarser than nanoseconds), so only its contents can vouch for it.
    racy: bool,
}

/// How close to its reading a file's time must be for the time to prove nothing.
const RACY: std::time::Duration = std::time::Duration::from_secs(2);

/// What a run that ended well read and left.
#[derive(Serialize, Deserialize, Debug)]
struct Record {
    format: u32,
    /// The tool, the command line, the directory and the environment.
    key: String,
    /// Directories walked (each file below them, but for skipped ones).
    dirs: Vec<PathBuf>,
    /// Directories below `dirs` that were not walked (this command's outputs, walked as
    /// outputs).
    skipped: Vec<PathBuf>,
    /// The files the walk found, in its order.
    walked: Vec<PathBuf>,
    /// Every file read, walked or named (a named one may be recorded as absent), and what
    /// it held.
    files: BTreeMap<PathBuf, Seen>,
    /// Directories whose entries matter (a workspace `members` glob's): their names.
    listings: BTreeMap<PathBuf, Vec<String>>,
    /// What the run said besides its last line (warnings), said again when skipped.
    said: Vec<String>,
    /// How many files it wrote or checked, and what they were made from.
    count: usize,
    summary: String,
}

/// The stamp of one command line, looked up before the workspace is loaded.
pub struct Probe {
    path: Option<PathBuf>,
    key: String,
    /// When the command started: an input modified since (or just before) was perhaps
    /// read before it changed, by `cargo metadata` or the settings, and is not vouched for.
    started: std::time::SystemTime,
}

/// The files of the inputs, read before the run (so an edit made while it runs is never
/// taken as seen).
pub struct Before {
    dirs: Vec<PathBuf>,
    skipped: Vec<PathBuf>,
    walked: Vec<PathBuf>,
    files: BTreeMap<PathBuf, Seen>,
    listings: BTreeMap<PathBuf, Vec<String>>,
    complete: bool,
}

/// What [`Probe::before`] reads: directories walked (but for `skipped` below them), files
/// named (one that does not exist is recorded as absent) and directories listed.
/// `complete` is false when the caller could not follow everything the run reads.
pub struct Inputs {
    pub dirs: Vec<PathBuf>,
    pub skipped: Vec<PathBuf>,
    pub files: Vec<PathBuf>,
    pub listed: Vec<PathBuf>,
    pub complete: bool,
}

impl Probe {
    /// The stamp for this process's command line (`--check` aside: a run that wrote the
    /// outputs vouches for a check, and the other way round).
    pub fn new(command: &str, manifest_path: Option<&Path>) -> Probe {
        let disabled = std::env::var_os("KUBEGEN_NO_SKIP").is_some_and(|v| v != "0" && !v.is_empty());
        let key = key(command);
        let path = (!disabled).then(|| stamp_path(command, manifest_path)).flatten();
        Probe { path, key, started: std::time::SystemTime::now() }
    }

    /// When nothing the last good run read or left has changed: says again what it said,
    /// and what this run would (`check`: up to date; else nothing to write), and returns
    /// true. The command is then done.
    pub fn replayed(&self, check: bool, what: &str) -> bool {
        self.fresh().map(|record| record.replay(check, what)).is_some()
    }

    fn fresh(&self) -> Option<Record> {
        let path = self.path.as_ref()?;
        let record: Record = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
        if record.format != FORMAT || record.key != self.key {
            return None;
        }
        let mut walked = Vec::new();
        for dir in &record.dirs {
            walk(dir, &record.skipped, &mut |file| walked.push(file.to_path_buf())).ok()?;
        }
        if walked != record.walked || record.listings.iter().any(|(dir, names)| listing(dir) != *names) {
            return None;
        }
        record.files.iter().all(|(file, seen)| unchanged(file, seen)).then_some(record)
    }

    /// Reads the inputs of a run, each file hashed; when they are not `complete`, no
    /// stamp is written.
    pub fn before(&self, inputs: Inputs) -> Before {
        let Inputs { dirs, skipped, files, listed, complete } = inputs;
        let complete = complete && self.path.is_some();
        let listings = listed.into_iter().map(|d| (d.clone(), listing(&d))).collect();
        let mut before = Before { dirs, skipped, walked: Vec::new(), files: BTreeMap::new(), listings, complete };
        if !before.complete {
            return before;
        }
        let mut walked = Vec::new();
        for dir in &before.dirs {
            if walk(dir, &before.skipped, &mut |f| walked.push(f.to_path_buf())).is_err() {
                before.complete = false;
            }
        }
        before.walked = walked.clone();
        for file in walked.into_iter().chain(files) {
            match seen(&file) {
                Some(s) => {
                    before.files.insert(file, s);
                }
                // A named file that does not exist is recorded as absent.
                None if !file.exists() => {
                    before.files.insert(file, absent());
                }
                None => before.complete = false,
            }
        }
        before
    }

    /// After a run that ended well: the files the build read (`built`, from cargo's
    /// dep-info: sources outside the packages' directories, `include_str!`ed files, a
    /// build script's `rerun-if-changed` file or directory; `None` when unknown) recorded,
    /// the outputs' directories read as they are now — each file this run generated
    /// (`generated`: path and SHA-256 of its contents) found as generated — and the stamp
    /// written (through a temporary file and a rename), unless an input changed since the
    /// command started or just before (file times are coarse) that was read before
    /// [`Probe::before`] (manifests and the lock file by `cargo metadata`, the named files
    /// by the settings) or that only the build read. A source the walk found is read by
    /// the build after `before`, which compares it. Failing to write it is not the
    /// command's failure.
    pub fn after(&self, mut before: Before, built: Option<Vec<PathBuf>>, outputs: &Outputs, said: Vec<String>) {
        let Some(path) = &self.path else { return };
        let Some(built) = built else { return };
        let recent = |s: &Seen| s.sha256 != "absent" && s.mtime + RACY.as_nanos() > nanos(self.started);
        let walked: std::collections::HashSet<&PathBuf> = before.walked.iter().collect();
        let read_early =
            |f: &PathBuf| !walked.contains(f) || f.file_name().is_some_and(|n| n == "Cargo.toml" || n == "Cargo.lock");
        let vouched = |(f, s): (&PathBuf, &Seen)| !(read_early(f) && recent(s)) && unchanged(f, s);
        if !before.complete || !before.files.iter().all(vouched) {
            return;
        }
        let mut built_files = Vec::new();
        for file in built {
            if file.is_dir() {
                if walk_all(&file, &mut |f| built_files.push(f.to_path_buf())).is_err() {
                    return;
                }
            } else {
                built_files.push(file);
            }
        }
        for file in built_files {
            if before.files.contains_key(&file) {
                continue;
            }
            let Some(s) = seen(&file) else { return };
            if recent(&s) {
                return;
            }
            before.files.insert(file, s);
        }
        for (file, sha) in &outputs.generated {
            if std::fs::read(file).map(|b| sha256(&b)).ok().as_ref() != Some(sha) {
                return;
            }
        }
        for dir in &outputs.dirs {
            let mut found = Vec::new();
            if walk(dir, &before.skipped, &mut |f| found.push(f.to_path_buf())).is_err() {
                return;
            }
            for file in found {
                let Some(s) = seen(&file) else { return };
                before.files.insert(file.clone(), s);
                before.walked.push(file);
            }
            before.dirs.push(dir.clone());
        }
        let record = Record {
            format: FORMAT,
            key: self.key.clone(),
            dirs: before.dirs,
            skipped: before.skipped,
            walked: before.walked,
            files: before.files,
            listings: before.listings,
            said,
            count: outputs.count,
            summary: outputs.summary.clone(),
        };
        let Ok(json) = serde_json::to_vec(&record) else { return };
        let Some(dir) = path.parent() else { return };
        prune(dir);
        let tmp = path.with_extension(format!("{}.tmp", std::process::id()));
        if std::fs::create_dir_all(dir).is_ok() && std::fs::write(&tmp, json).is_ok() {
            let _ = std::fs::rename(&tmp, path);
        }
    }
}

/// What a run that ended well left: the directories it writes into, each file it
/// generated (path and SHA-256 of the contents it wrote or found), and what it says of
/// them (how many files, made from what).
pub struct Outputs {
    pub dirs: Vec<PathBuf>,
    pub generated: Vec<(PathBuf, String)>,
    pub count: usize,
    pub summary: String,
}

/// The SHA-256 of `text`, as [`Outputs::generated`] holds it.
pub fn digest(text: &str) -> String {
    sha256(text.as_bytes())
}

/// Stamps nobody read for 30 days (another terminal's environment, an old tool) go.
fn prune(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let month = std::time::Duration::from_secs(30 * 24 * 3600);
    for entry in entries.flatten() {
        let old = entry.metadata().and_then(|m| m.modified()).is_ok_and(|t| t.elapsed().is_ok_and(|age| age > month));
        if old {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// The names in `dir`, sorted (empty when it does not exist).
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn nanos(t: std::time::SystemTime) -> u128 {
    t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos())
}

impl Record {
    /// Says again what the recorded run said, then what a run would say now: the files
    /// are up to date, or none needed writing.
    fn replay(&self, check: bool, what: &str) {
        for line in &self.said {
            eprintln!("{line}");
        }
        let last = crate::output::said(check, what, self.count, &self.summary, 0);
        eprintln!("{last} [nothing read has changed since the last run; KUBEGEN_NO_SKIP=1 builds anyway]");
    }
}

fn absent() -> Seen {
    Seen { len: 0, mtime: 0, ctime: 0, sha256: "absent".into(), racy: false }
}

/// The file as it is now, hashed; `None` when it cannot be read.
fn seen(file: &Path) -> Option<Seen> {
    let read = std::time::SystemTime::now();
    let meta = std::fs::metadata(file).ok()?;
    let bytes = std::fs::read(file).ok()?;
    let racy = meta.modified().ok().is_none_or(|m| m + RACY > read);
    Some(Seen { len: meta.len(), mtime: mtime(&meta), ctime: ctime(&meta), sha256: sha256(&bytes), racy })
}

fn unchanged(file: &Path, seen: &Seen) -> bool {
    let Ok(meta) = std::fs::metadata(file) else { return seen.sha256 == "absent" };
    if seen.sha256 == "absent" || meta.len() != seen.len {
        return false;
    }
    if mtime(&meta) == seen.mtime && ctime(&meta) == seen.ctime && !seen.racy {
        return true;
    }
    // Touched, or rewritten with the same length: the contents say.
    std::fs::read(file).is_ok_and(|bytes| sha256(&bytes) == seen.sha256)
}

fn mtime(meta: &std::fs::Metadata) -> u128 {
    meta.modified().map_or(0, nanos)
}

#[cfg(unix)]
fn ctime(meta: &std::fs::Metadata) -> i128 {
    use std::os::unix::fs::MetadataExt;
    i128::from(meta.ctime()) * 1_000_000_000 + i128::from(meta.ctime_nsec())
}

#[cfg(not(unix))]
fn ctime(_: &std::fs::Metadata) -> i128 {
    0
}

fn sha256(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Every file below `dir`, in order, but for `skipped`, `.git`, `node_modules`, cargo's
/// target directories (they hold `CACHEDIR.TAG`), and — right below `dir`, where a
/// package keeps them — `target` and hidden directories (`.github`, `.vscode`). Below a
/// package's `src/`, every directory counts.
fn walk(dir: &Path, skipped: &[PathBuf], found: &mut dyn FnMut(&Path)) -> std::io::Result<()> {
    walk_from(dir, skipped, true, found)
}

/// Every file below `dir` but for `.git`, `node_modules` and target directories.
pub(crate) fn walk_all(dir: &Path, found: &mut dyn FnMut(&Path)) -> std::io::Result<()> {
    walk_from(dir, &[], false, found)
}

fn walk_from(dir: &Path, skipped: &[PathBuf], top: bool, found: &mut dyn FnMut(&Path)) -> std::io::Result<()> {
    let mut entries: Vec<std::fs::DirEntry> = match std::fs::read_dir(dir) {
        Ok(entries) => entries.collect::<std::io::Result<_>>()?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let kind = entry.file_type()?;
        if kind.is_dir() {
            let cargo_target = path.join("CACHEDIR.TAG").exists();
            let package_own = top && (name.starts_with('.') || name == "target");
            if name == ".git" || name == "node_modules" || cargo_target || package_own || skipped.contains(&path) {
                continue;
            }
            walk_from(&path, skipped, false, found)?;
        } else {
            found(&path);
        }
    }
    Ok(())
}

/// The tool (its version, the binary's size and time) and [`invocation`].
fn key(command: &str) -> String {
    let mut h = Sha256::new();
    h.update(format!("{FORMAT} {}\0", env!("CARGO_PKG_VERSION")));
    if let Some(meta) = std::env::current_exe().ok().and_then(|e| std::fs::metadata(e).ok()) {
        h.update(format!("exe {} {}\0", meta.len(), mtime(&meta)));
    }
    h.update(invocation(command));
    hex(&h.finalize())
}

/// The command, the working directory, the command line without `--check`, and the
/// environment (a build script may read any of it), but for what changes from one shell
/// to the next without meaning anything to a build.
fn invocation(command: &str) -> String {
    let mut out =
        format!("{command}\0{}\0", std::env::current_dir().map(|d| d.display().to_string()).unwrap_or_default());
    for arg in std::env::args_os().skip(1).filter(|a| a != "--check") {
        out += &format!("{}\0", arg.to_string_lossy());
    }
    let mut env: Vec<(String, String)> = std::env::vars_os()
        .filter_map(|(k, v)| Some((k.into_string().ok()?, v.to_string_lossy().into_owned())))
        .filter(|(k, _)| read_by_the_build(k))
        .collect();
    env.sort();
    for (k, v) in env {
        out += &format!("{k}={v}\0");
    }
    out
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether a variable may mean something to the build: all but what cargo sets for the
/// package it runs (`cargo run -p codegen-cli`), job servers, and a shell's or terminal's
/// own bookkeeping.
fn read_by_the_build(key: &str) -> bool {
    const VOLATILE: &[&str] = &[
        "_",
        "PWD",
        "OLDPWD",
        "SHLVL",
        "COLUMNS",
        "LINES",
        "CARGO_MAKEFLAGS",
        "MAKEFLAGS",
        "MFLAGS",
        "MAKELEVEL",
        "WINDOWID",
        "TMUX",
        "TMUX_PANE",
        "STY",
        "GPG_TTY",
        "INVOCATION_ID",
        "JOURNAL_STREAM",
        "DISPLAY",
        "WAYLAND_DISPLAY",
        "DBUS_SESSION_BUS_ADDRESS",
        "KUBEGEN_NO_SKIP",
    ];
    // A terminal's or an editor's own per-window variables.
    const VOLATILE_PREFIXES: &[&str] =
        &["SSH_", "TERM_", "VSCODE_", "GNOME_TERMINAL_", "KITTY_", "WT_", "ITERM_", "KONSOLE_", "XDG_SESSION_"];
    !VOLATILE.contains(&key)
        && !VOLATILE_PREFIXES.iter().any(|p| key.starts_with(p))
        && !crate::workspace::is_package_env(key)
}

/// The files a make-style dep-info file (`target/debug/<bin>.d`, as cargo writes it)
/// says its target depends on; `None` when it cannot be read.
pub fn dep_info(path: &Path) -> Option<Vec<PathBuf>> {
    let text = std::fs::read_to_string(path).ok()?;
    let first = text.lines().next()?;
    let (_, deps) = first.split_once(": ")?;
    let mut files = Vec::new();
    let mut current = String::new();
    let mut chars = deps.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => current.extend(chars.next()),
            ' ' => {
                if !current.is_empty() {
                    files.push(PathBuf::from(std::mem::take(&mut current)));
                }
            }
            c => current.push(c),
        }
    }
    if !current.is_empty() {
        files.push(PathBuf::from(current));
    }
    Some(files)
}

/// Where the stamp of this command line lives: the target directory cargo would use
/// (`CARGO_TARGET_DIR`, or `target/` at the workspace root found as cargo finds it).
fn stamp_path(command: &str, manifest_path: Option<&Path>) -> Option<PathBuf> {
    let target = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => std::path::absolute(dir).ok()?,
        None => workspace_root(manifest_path)?.join("target"),
    };
    // One stamp per invocation (`cargo run -p codegen-cli` and the binary alone see
    // different environments); a new build of the tool replaces it, the key inside says.
    let place = hex(&Sha256::digest(invocation(command))[..8]);
    Some(target.join("kubegen").join("stamps").join(format!("{command}-{place}.json")))
}

/// The workspace root as cargo finds it: the nearest `Cargo.toml` at or above the start,
/// then the nearest at or above it with a `[workspace]` table (the package itself when none).
pub fn workspace_root(manifest_path: Option<&Path>) -> Option<PathBuf> {
    let start = match manifest_path {
        Some(p) => std::path::absolute(p).ok()?.parent()?.to_path_buf(),
        None => std::env::current_dir().ok()?,
    };
    let package = start.ancestors().find(|d| d.join("Cargo.toml").is_file())?;
    let root = package
        .ancestors()
        .find(|d| {
            std::fs::read_to_string(d.join("Cargo.toml"))
                .ok()
                .and_then(|t| t.parse::<toml::Table>().ok())
                .is_some_and(|t| t.contains_key("workspace"))
        })
        .unwrap_or(package);
    Some(root.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch tree: a package directory, an output directory, a named file.
    struct Scratch {
        root: PathBuf,
    }

    impl Scratch {
        fn new(name: &str) -> Scratch {
            let root = std::env::temp_dir().join(format!("kubegen-fingerprint-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&root);
            for (file, text) in [
                ("pkg/Cargo.toml", "[package]\nname = \"pkg\"\n"),
                ("pkg/src/lib.rs", "/// +kubebuilder:validation:Minimum=1\npub struct A;\n"),
                ("pkg/target/debug/junk", "built"),
                ("pkg/config/crd.yaml", "minimum: 1\n"),
                ("Cargo.lock", "version = 4\n"),
                ("shared/types.json", "{}"),
                ("proto/api.proto", "message A {}\n"),
                ("crates/one/Cargo.toml", "[package]\nname = \"one\"\n"),
                ("pkg/src/target/mod.rs", "pub struct InATargetModule;\n"),
            ] {
                let path = root.join(file);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, text).unwrap();
                // Written an hour ago: their times alone vouch for them.
                let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
                std::fs::File::options().write(true).open(&path).unwrap().set_modified(hour_ago).unwrap();
            }
            Scratch { root }
        }

        fn probe(&self, key: &str) -> Probe {
            let started = std::time::SystemTime::now();
            Probe { path: Some(self.root.join("stamps/manifests.json")), key: key.into(), started }
        }

        fn inputs(&self, complete: bool) -> Inputs {
            Inputs {
                dirs: vec![self.root.join("pkg")],
                skipped: vec![self.root.join("pkg/config")],
                files: vec![self.root.join("Cargo.lock"), self.root.join("rust-toolchain.toml")],
                listed: vec![self.root.join("crates")],
                complete,
            }
        }

        fn outputs(&self, generated: Vec<(PathBuf, String)>) -> Outputs {
            Outputs { dirs: vec![self.root.join("pkg/config")], generated, count: 1, summary: "1 kind".into() }
        }

        /// A run that ended well: inputs read before, outputs after.
        fn run(&self) {
            let probe = self.probe("k");
            let before = probe.before(self.inputs(true));
            let built = vec![self.root.join("shared/types.json"), self.root.join("proto")];
            let generated = vec![(self.root.join("pkg/config/crd.yaml"), digest("minimum: 1\n"))];
            probe.after(before, Some(built), &self.outputs(generated), vec!["warning: said".into()]);
        }

        fn stamped(&self) -> bool {
            self.root.join("stamps/manifests.json").exists()
        }

        fn fresh(&self) -> bool {
            self.probe("k").fresh().is_some()
        }

        fn write(&self, file: &str, text: &str) {
            std::fs::write(self.root.join(file), text).unwrap();
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.root);
        }
    }

    #[test]
    fn a_run_that_ended_well_vouches_for_the_same_tree_only() {
        let s = Scratch::new("vouch");
        assert!(!s.fresh(), "no stamp yet");
        s.run();
        assert!(s.fresh());
        let record = s.probe("k").fresh().unwrap();
        assert_eq!(record.said, ["warning: said"]);
        assert!(!record.walked.contains(&s.root.join("pkg/target/debug/junk")), "{:?}", record.walked);
        assert!(record.walked.contains(&s.root.join("pkg/src/target/mod.rs")), "{:?}", record.walked);
        // Another tool, command line or environment: another key.
        assert!(s.probe("other").fresh().is_none());

        // The same bytes written again (a new time): the contents say it is the same.
        s.write("pkg/src/lib.rs", "/// +kubebuilder:validation:Minimum=1\npub struct A;\n");
        assert!(s.fresh(), "rewritten with the same text");
        // A build artifact is not an input.
        s.write("pkg/target/debug/junk", "rebuilt");
        assert!(s.fresh(), "target/ is not read");

        for (what, file, text) in [
            ("a marker, same length", "pkg/src/lib.rs", "/// +kubebuilder:validation:Minimum=2\npub struct A;\n"),
            ("a doc comment", "pkg/src/lib.rs", "/// A thing.\n/// +kubebuilder:validation:Minimum=1\npub struct A;\n"),
            ("a dependency version", "pkg/Cargo.toml", "[package]\nname = \"pkg\"\n[dependencies]\nx = \"2\"\n"),
            ("a feature", "pkg/Cargo.toml", "[package]\nname = \"pkg\"\n[features]\ndefault = [\"x\"]\n"),
            ("the lock file", "Cargo.lock", "version = 4\n[[package]]\n"),
            ("a new source file", "pkg/src/more.rs", "pub struct B;\n"),
            ("a named file that was absent", "rust-toolchain.toml", "[toolchain]\n"),
            ("an output edited", "pkg/config/crd.yaml", "minimum: 7\n"),
            ("an output added", "pkg/config/extra.yaml", "{}\n"),
            ("a file the build read outside the packages", "shared/types.json", "{\"a\": 1}"),
            ("a file in a directory a build script watches", "proto/api.proto", "message B {}\n"),
            ("a source in a module directory named target", "pkg/src/target/mod.rs", "pub struct Changed;\n"),
            ("a new member where a members glob looks", "crates/two", ""),
        ] {
            let s = Scratch::new("change");
            s.run();
            assert!(s.fresh());
            if text.is_empty() {
                std::fs::create_dir_all(s.root.join(file)).unwrap();
            } else {
                s.write(file, text);
            }
            assert!(!s.fresh(), "{what}: the stamp still vouched");
        }

        // New contents of the same length, the old modification time put back (`cp -p`,
        // `tar`): the change time says.
        let s = Scratch::new("restored-time");
        s.run();
        let file = s.root.join("pkg/src/lib.rs");
        let modified = std::fs::metadata(&file).unwrap().modified().unwrap();
        s.write("pkg/src/lib.rs", "/// +kubebuilder:validation:Minimum=9\npub struct A;\n");
        std::fs::File::options().write(true).open(&file).unwrap().set_modified(modified).unwrap();
        assert!(!s.fresh(), "a same-length edit with its old time put back");

        let s = Scratch::new("removed");
        s.run();
        std::fs::remove_file(s.root.join("pkg/src/lib.rs")).unwrap();
        assert!(!s.fresh(), "a source file removed");
    }

    #[test]
    fn dep_info_lists_the_files_with_escaped_spaces() {
        let dir = std::env::temp_dir().join(format!("kubegen-depinfo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let d = dir.join("bin.d");
        std::fs::write(&d, "/t/bin: /a/src/lib.rs /b/my\\ dir/x.rs /c/README.md\n\n/a/src/lib.rs:\n").unwrap();
        let files = dep_info(&d).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(files, [PathBuf::from("/a/src/lib.rs"), "/b/my dir/x.rs".into(), "/c/README.md".into()]);
    }

    #[test]
    fn a_run_leaves_no_stamp_unless_it_can_vouch_for_all_it_read() {
        // An input changed while the run read it.
        let s = Scratch::new("during");
        let probe = s.probe("k");
        let before = probe.before(s.inputs(true));
        s.write("pkg/src/lib.rs", "/// edited while the helper ran, longer\npub struct A;\n");
        probe.after(before, Some(Vec::new()), &s.outputs(Vec::new()), Vec::new());
        assert!(!s.stamped(), "an input changed during the run");
        // Inputs it could not all follow, or a build whose files are not known.
        for (complete, built) in [(false, Some(Vec::new())), (true, None)] {
            let s = Scratch::new("unknown");
            let probe = s.probe("k");
            let before = probe.before(s.inputs(complete));
            probe.after(before, built, &s.outputs(Vec::new()), Vec::new());
            assert!(!s.stamped(), "complete: {complete}");
        }
        // A file the build read (outside the packages) changed meanwhile.
        let s = Scratch::new("built");
        let probe = s.probe("k");
        let before = probe.before(s.inputs(true));
        s.write("shared/types.json", "{\"changed\": true}");
        probe.after(before, Some(vec![s.root.join("shared/types.json")]), &s.outputs(Vec::new()), Vec::new());
        assert!(!s.stamped(), "a file the build read changed");
        // A manifest modified just before the command started (`cargo metadata` may have
        // read it before the edit).
        let s = Scratch::new("just-before");
        s.write("pkg/Cargo.toml", "[package]\nname = \"pkg\"\nversion = \"0.2.0\"\n");
        let probe = s.probe("k");
        let before = probe.before(s.inputs(true));
        probe.after(before, Some(Vec::new()), &s.outputs(Vec::new()), Vec::new());
        assert!(!s.stamped(), "a manifest edited just before");
        // A source edited just before is read by the build after `before` read it: vouched.
        let s = Scratch::new("source-just-before");
        s.write("pkg/src/lib.rs", "/// edited a moment ago\npub struct A;\n");
        let probe = s.probe("k");
        let before = probe.before(s.inputs(true));
        let generated = vec![(s.root.join("pkg/config/crd.yaml"), digest("minimum: 1\n"))];
        probe.after(before, Some(Vec::new()), &s.outputs(generated), Vec::new());
        assert!(s.stamped() && s.fresh(), "a source edited just before the run");
        // An output not as this run generated it (another run wrote it meanwhile).
        let s = Scratch::new("output");
        let probe = s.probe("k");
        let before = probe.before(s.inputs(true));
        let generated = vec![(s.root.join("pkg/config/crd.yaml"), digest("minimum: 2\n"))];
        probe.after(before, Some(Vec::new()), &s.outputs(generated), Vec::new());
        assert!(!s.stamped(), "an output another run wrote");
        // And the same run, as it should be: a stamp.
        let s = Scratch::new("well");
        s.run();
        assert!(s.stamped() && s.fresh());
    }
}
