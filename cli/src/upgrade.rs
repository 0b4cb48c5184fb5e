//! `codegen-cli upgrade`: kubebuilder's `alpha update`, without git. The scaffold keeps a
//! record of what made the project (`PROJECT`: `init`'s settings and each `create` or
//! `edit` after it, in order) and, under `.kubegen/scaffold/`, each file as the scaffold
//! last wrote it (with a copy of the record, so the two are known to agree). `upgrade`
//! replays the record with this codegen-cli into `target/kubegen/upgrade/new/` and
//! merges, file by file, three ways: the scaffold as last written (the base), the
//! project's file (yours), the new scaffold's (theirs). Your edits stay, the new
//! scaffold's changes arrive; where both changed the same lines differently, nothing at
//! all is written and each conflict is listed (never left as markers in a file `make`
//! builds).
//!
//! Files `manifests` rewrites (config/rbac/role.yaml, the CRD and samples kustomizations,
//! the CRD bases) are not the scaffold's: the next `manifests` writes them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::Deserialize;

use crate::output::{self, Output};
use crate::scaffold::Source;

/// The record's file, at the workspace root (kubebuilder's name).
pub const RECORD: &str = "PROJECT";
/// The scaffold as last written, under the workspace root.
pub const BASE: &str = ".kubegen/scaffold";
/// The next base while a step, an adoption or an upgrade builds it, under the root.
const NEXT: &str = ".kubegen/scaffold.next";
/// Where `upgrade` replays the record, under the workspace root.
pub const NEW: &str = "target/kubegen/upgrade/new";
/// The record's layout.
const LAYOUT: &str = "kubegen/v1";

/// Files `init` writes that `manifests` rewrites: never merged, never in the base.
const MANIFESTS_OWNED: &[&str] =
    &["config/rbac/role.yaml", "config/crd/kustomization.yaml", "config/samples/kustomization.yaml"];

/// What to do for a project with no record.
const ADOPT: &str = "write PROJECT by hand (README, \"Upgrading the scaffold\": init's settings and the create and edit commands you ran), then `codegen-cli upgrade --adopt` records this codegen-cli's scaffold of it as the base";

/// `PROJECT`: how the project was scaffolded.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Record {
    pub layout: String,
    pub project_name: String,
    /// The root package's library, as Rust paths name it.
    pub crate_name: String,
    pub domain: String,
    /// `init --namespaced`.
    pub namespaced: bool,
    pub kubegen: RecordedSource,
    /// The codegen-cli that last wrote the scaffold: `kubegen-cli 0.1.0`.
    #[serde(default)]
    pub scaffolded_by: String,
    /// Each `create` and `edit` after `init`, in order.
    #[serde(default)]
    pub commands: Vec<Command>,
}

/// One recorded command.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Command {
    /// Its command line after `codegen-cli` (without `--manifest-path`).
    pub args: Vec<String>,
    /// The names it scaffolded with where they were not the record's (a domain set in
    /// Cargo.toml after `init`, say; `""` for none).
    #[serde(default)]
    pub domain: Option<String>,
    #[serde(default)]
    pub crate_name: Option<String>,
    #[serde(default)]
    pub project_name: Option<String>,
}

/// The names a scaffold step uses: the root crate, the API's domain, the project.
#[derive(Clone, Copy)]
pub struct Names<'a> {
    pub crate_name: &'a str,
    pub domain: Option<&'a str>,
    pub project_name: &'a str,
}

impl Command {
    /// The command `args` that ran with `names`, recorded against `record`.
    pub fn new(record: &Record, args: &[&str], names: Names) -> Self {
        let domain = names.domain.unwrap_or("");
        let differs = |now: &str, recorded: &str| (now != recorded).then(|| now.to_string());
        Command {
            args: args.iter().map(|a| a.to_string()).collect(),
            domain: differs(domain, &record.domain),
            crate_name: differs(names.crate_name, &record.crate_name),
            project_name: differs(names.project_name, &record.project_name),
        }
    }

    /// The names it ran with.
    pub fn names<'a>(&'a self, record: &'a Record) -> Names<'a> {
        let domain = self.domain.as_deref().unwrap_or(&record.domain);
        Names {
            crate_name: self.crate_name.as_deref().unwrap_or(&record.crate_name),
            domain: (!domain.is_empty()).then_some(domain),
            project_name: self.project_name.as_deref().unwrap_or(&record.project_name),
        }
    }

    pub fn shown(&self) -> String {
        self.args.join(" ")
    }
}

/// Where the scaffold depends on kubegen from, as `init` was told.
#[derive(Debug, Clone, Deserialize, PartialEq, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RecordedSource {
    #[serde(default)]
    pub path: Option<PathBuf>,
    #[serde(default)]
    pub git: Option<String>,
    #[serde(default)]
    pub branch: Option<String>,
    #[serde(default)]
    pub tag: Option<String>,
    #[serde(default)]
    pub rev: Option<String>,
    #[serde(default)]
    pub version: Option<String>,
}

impl RecordedSource {
    pub fn of(source: &Source) -> Self {
        let mut r = RecordedSource::default();
        match source {
            Source::Path(p) => r.path = Some(p.clone()),
            Source::Git { url, reference } => {
                r.git = Some(url.clone());
                match reference {
                    Some(("rev", v)) => r.rev = Some(v.clone()),
                    Some(("tag", v)) => r.tag = Some(v.clone()),
                    Some((_, v)) => r.branch = Some(v.clone()),
                    None => {}
                }
            }
            Source::Version(v) => r.version = Some(v.clone()),
        }
        r
    }

    /// The source a replay by this codegen-cli scaffolds: a crates.io version becomes this
    /// binary's own (the scaffold of a version is made for that version of kubegen), and
    /// a git source the reference this binary was installed from (`now`) when it names
    /// the same repository; otherwise as recorded.
    fn for_replay(&self, now: Option<&Source>) -> Result<Source> {
        let same_repository = |a: &str, b: &str| {
            let plain = |u: &str| u.trim_end_matches('/').trim_end_matches(".git").to_string();
            plain(a) == plain(b)
        };
        Ok(match (&self.path, &self.git, &self.version) {
            (Some(p), None, None) => Source::Path(p.clone()),
            (None, Some(url), None) => match now {
                Some(Source::Git { url: now_url, reference: Some(r) }) if same_repository(url, now_url) => {
                    Source::Git { url: url.clone(), reference: Some(r.clone()) }
                }
                _ => Source::Git {
                    url: url.clone(),
                    reference: match (&self.rev, &self.tag, &self.branch) {
                        (Some(r), _, _) => Some(("rev", r.clone())),
                        (None, Some(t), _) => Some(("tag", t.clone())),
                        (None, None, Some(b)) => Some(("branch", b.clone())),
                        (None, None, None) => None,
                    },
                },
            },
            (None, None, Some(_)) => Source::Version(env!("CARGO_PKG_VERSION").into()),
            _ => bail!("{RECORD}: `kubegen` names one of `path`, `git` (with `rev`, `tag` or `branch`) or `version`"),
        })
    }
}

/// This binary, as the record names the scaffold's writer.
fn this_version() -> String {
    format!("kubegen-cli {}", env!("CARGO_PKG_VERSION"))
}

impl Record {
    pub fn new(project_name: &str, domain: &str, namespaced: bool, source: &Source) -> Self {
        Record {
            layout: LAYOUT.into(),
            project_name: project_name.into(),
            crate_name: project_name.replace('-', "_"),
            domain: domain.into(),
            namespaced,
            kubegen: RecordedSource::of(source),
            scaffolded_by: this_version(),
            commands: Vec::new(),
        }
    }

    /// The record in `dir` (the root, or the base), `None` when there is none.
    pub fn read(dir: &Path) -> Result<Option<Self>> {
        let path = dir.join(RECORD);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        };
        // The layout first: a newer one may have other fields.
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Named {
            One(String),
            /// kubebuilder's PROJECT lists its plugins' layouts.
            Many(Vec<String>),
        }
        #[derive(Deserialize)]
        struct Layout {
            layout: Option<Named>,
        }
        let fix = "restore it from version control, or write it as the README's \"Upgrading the scaffold\" shows";
        let layout: Layout = serde_saphyr::from_str(&text)
            .with_context(|| format!("{} is not the record codegen-cli init writes: {fix}", path.display()))?;
        match layout.layout {
            Some(Named::One(l)) if l == LAYOUT => {}
            Some(Named::Many(l)) => bail!(
                "{}: layout {l:?} is kubebuilder's PROJECT, not the record codegen-cli init writes: move it aside, then write kubegen's (README, \"Upgrading the scaffold\") and run `codegen-cli upgrade --adopt`",
                path.display()
            ),
            l => bail!(
                "{}: layout {:?} is not one this codegen-cli replays ({LAYOUT}): a newer codegen-cli's record? run the codegen-cli that wrote it",
                path.display(),
                match l {
                    Some(Named::One(l)) => l,
                    _ => String::new(),
                }
            ),
        }
        let record: Record =
            serde_saphyr::from_str(&text).with_context(|| format!("reading {}: {fix}", path.display()))?;
        Ok(Some(record))
    }

    /// The record as written: YAML, every string quoted.
    pub fn text(&self) -> String {
        let q = |s: &str| serde_json::to_string(s).unwrap_or_default();
        let mut out = String::from(
            "# Written by codegen-cli: how this project was scaffolded, `init` and each `create` and\n\
             # `edit` after it. `codegen-cli upgrade` replays it with a newer codegen-cli and merges the\n\
             # new scaffold into your files three ways, against the scaffold as last written in\n\
             # .kubegen/scaffold/. Commit both; change neither by hand.\n",
        );
        out.push_str(&format!("layout: {}\n", q(&self.layout)));
        out.push_str(&format!("projectName: {}\n", q(&self.project_name)));
        out.push_str(&format!("crateName: {}\n", q(&self.crate_name)));
        out.push_str(&format!("domain: {}\n", q(&self.domain)));
        out.push_str(&format!("namespaced: {}\n", self.namespaced));
        out.push_str("kubegen:\n");
        let s = &self.kubegen;
        for (key, value) in [
            ("path", s.path.as_ref().map(|p| p.display().to_string())),
            ("git", s.git.clone()),
            ("branch", s.branch.clone()),
            ("tag", s.tag.clone()),
            ("rev", s.rev.clone()),
            ("version", s.version.clone()),
        ] {
            if let Some(v) = value {
                out.push_str(&format!("  {key}: {}\n", q(&v)));
            }
        }
        out.push_str(&format!("scaffoldedBy: {}\n", q(&self.scaffolded_by)));
        if self.commands.is_empty() {
            out.push_str("commands: []\n");
        } else {
            out.push_str("commands:\n");
            for c in &self.commands {
                let args: Vec<String> = c.args.iter().map(|a| q(a)).collect();
                out.push_str(&format!("- args: [{}]\n", args.join(", ")));
                for (key, value) in
                    [("domain", &c.domain), ("crateName", &c.crate_name), ("projectName", &c.project_name)]
                {
                    if let Some(v) = value {
                        out.push_str(&format!("  {key}: {}\n", q(v)));
                    }
                }
            }
        }
        out
    }
}

/// Every file below `dir` (see `fingerprint::walk_all`), in order.
fn files_under(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut paths = Vec::new();
    crate::fingerprint::walk_all(dir, &mut |p| paths.push(p.to_path_buf()))
        .with_context(|| format!("reading {}", dir.display()))?;
    Ok(paths)
}

/// The files of the scaffold under `dir` (the base, or a replay), by path relative to it,
/// without those `manifests` owns and the record.
fn scaffold_files(dir: &Path) -> Result<BTreeMap<String, String>> {
    let mut files = BTreeMap::new();
    if !dir.exists() {
        return Ok(files);
    }
    for path in files_under(dir)? {
        let relative = path.strip_prefix(dir).unwrap_or(&path).to_string_lossy().replace('\\', "/");
        if MANIFESTS_OWNED.contains(&relative.as_str()) || relative == RECORD || relative.starts_with("target/") {
            continue;
        }
        let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
        files.insert(relative, text);
    }
    Ok(files)
}

/// `from`'s files copied into `to` (made empty first).
fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    if to.exists() {
        std::fs::remove_dir_all(to).with_context(|| format!("removing {}", to.display()))?;
    }
    std::fs::create_dir_all(to).with_context(|| format!("creating {}", to.display()))?;
    for path in files_under(from)? {
        let target = to.join(path.strip_prefix(from).unwrap_or(&path));
        if let Some(dir) = target.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        std::fs::copy(&path, &target).with_context(|| format!("copying {}", path.display()))?;
    }
    Ok(())
}

/// `dir` swapped in for `base`, the old one removed (put back if the swap fails; a
/// failure to remove it afterwards is only a warning).
fn swap_in(dir: &Path, base: &Path) -> Result<()> {
    let previous = base.with_extension("previous");
    if previous.exists() {
        std::fs::remove_dir_all(&previous).with_context(|| format!("removing {}", previous.display()))?;
    }
    if base.exists() {
        std::fs::rename(base, &previous).with_context(|| format!("moving {} aside", base.display()))?;
    }
    if let Err(e) = std::fs::rename(dir, base) {
        if previous.exists() {
            let _ = std::fs::rename(&previous, base);
        }
        return Err(e).with_context(|| format!("moving {} to {}", dir.display(), base.display()));
    }
    if previous.exists()
        && let Err(e) = std::fs::remove_dir_all(&previous)
    {
        eprintln!("warning: could not remove {}: {e}", previous.display());
    }
    Ok(())
}

/// A `--out` a recorded command may name: a directory inside the workspace.
pub fn check_inside(out: &Path) -> Result<()> {
    if out.is_absolute() || out.components().any(|c| matches!(c, Component::ParentDir)) {
        bail!(
            "--out {}: a recorded command names a directory inside the workspace, relative to its root (e.g. config)",
            out.display()
        );
    }
    Ok(())
}

/// Runs a scaffold step (a `create` or `edit`, `args` as run with `names`) on the
/// project at `root` and, with a record, on the base too — first on a copy of it, so a
/// step the base refuses changes nothing — then swaps the base and adds the command to
/// the record. `step` gets the tree and whether it is the base. A project without a
/// record (scaffolded before codegen-cli kept one) just runs the step, with a note.
pub fn recorded<T>(root: &Path, args: &[&str], names: Names, step: impl Fn(&Path, bool) -> Result<T>) -> Result<T> {
    let Some(mut record) = Record::read(root)? else {
        let done = step(root, false)?;
        eprintln!(
            "note: {} has no {RECORD} (it was scaffolded before codegen-cli kept one), so `codegen-cli upgrade` cannot replay this command: {ADOPT}",
            root.display()
        );
        return Ok(done);
    };
    let base = root.join(BASE);
    let Some(base_record) = Record::read(&base)? else {
        bail!(
            "{} is missing (or has no {RECORD}): it holds the scaffold as last written, which this command adds to; restore it from version control, or run `codegen-cli upgrade --adopt` first. Nothing was written",
            base.display()
        );
    };
    if base_record.commands != record.commands {
        bail!("{MISMATCH}. Nothing was written");
    }
    let next = root.join(NEXT);
    let shown = args.join(" ");
    let staged = (|| -> Result<()> {
        copy_tree(&base, &next)?;
        step(&next, true).map(|_| ()).with_context(|| {
            format!(
                "`{shown}` does not apply to the scaffold as last written ({BASE}), so nothing was written: it holds what the scaffold made before (a kind you removed by hand is still there; remove it there and its command from {RECORD} too)"
            )
        })
    })();
    if let Err(e) = staged {
        let _ = std::fs::remove_dir_all(&next);
        return Err(e);
    }
    let done = match step(root, false) {
        Ok(done) => done,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&next);
            return Err(e);
        }
    };
    record.commands.push(Command::new(&record, args, names));
    let finished = (|| -> Result<()> {
        drop_manifests_owned(&next)?;
        std::fs::write(next.join(RECORD), record.text()).with_context(|| format!("writing {}", next.display()))?;
        swap_in(&next, &base)?;
        output::write(&[Output::generated(root.join(RECORD), record.text())])?;
        Ok(())
    })();
    if let Err(e) = finished {
        let _ = std::fs::remove_dir_all(&next);
        return Err(e.context(format!(
            "`{shown}` wrote your files, but its record did not follow ({RECORD}, {BASE}): restore both from version control and run it again"
        )));
    }
    Ok(done)
}

/// Why a record and its base's copy disagree.
const MISMATCH: &str = "PROJECT and .kubegen/scaffold/PROJECT list different commands (a merge took one side of one and the other side of the other?): make them the same, both as one branch had them";

fn drop_manifests_owned(dir: &Path) -> Result<()> {
    for owned in MANIFESTS_OWNED {
        let path = dir.join(owned);
        if path.exists() {
            std::fs::remove_file(&path).with_context(|| format!("removing {}", path.display()))?;
        }
    }
    Ok(())
}

/// What `init` adds to its outputs: the record, and the same scaffold (and record) in
/// the base.
pub fn init_outputs(outputs: &[Output], root: &Path, record: &Record) -> Vec<Output> {
    let mut more = vec![
        Output::scaffolded(root.join(RECORD), record.text()),
        Output::scaffolded(root.join(BASE).join(RECORD), record.text()),
    ];
    for o in outputs {
        let Ok(relative) = o.path.strip_prefix(root) else { continue };
        let relative = relative.to_string_lossy().replace('\\', "/");
        if !MANIFESTS_OWNED.contains(&relative.as_str()) {
            more.push(Output::scaffolded(root.join(BASE).join(&relative), o.contents.clone()));
        }
    }
    more
}

/// One file's fate in an upgrade.
#[derive(Debug, PartialEq)]
pub enum Action {
    /// New in the scaffold, absent here: written.
    Add,
    /// Unchanged by you: the new scaffold's taken.
    Update,
    /// Changed by you and by the scaffold, in different places: merged.
    Merge,
    /// No longer scaffolded and unchanged by you: removed.
    Remove,
    /// No longer scaffolded, changed by you: kept.
    KeepChanged,
    /// You removed it; the scaffold changed it: left removed.
    KeepRemoved,
    /// Your file, kept as it is (`--keep`): the base moves to the new scaffold.
    Kept,
    /// The new scaffold's, over yours (`--take`).
    Taken,
    /// Both changed the same lines differently.
    Conflict(Vec<Conflict>),
}

/// Lines both sides changed differently, as line ranges (1-based, inclusive start,
/// exclusive end) and texts.
#[derive(Debug, PartialEq, Clone)]
pub struct Conflict {
    /// Where in your file (its first line; the number of lines).
    pub yours_at: usize,
    pub base: Vec<String>,
    pub yours: Vec<String>,
    pub theirs: Vec<String>,
}

/// The outcome of a three-way merge.
pub struct Merged {
    pub text: String,
    pub conflicts: Vec<Conflict>,
}

/// A change of one side against the base: base lines `lo..hi` become `lines`.
#[derive(Debug, Clone)]
struct Hunk {
    lo: usize,
    hi: usize,
    lines: Vec<String>,
}

fn lines(text: &str) -> Vec<String> {
    text.split_inclusive('\n').map(str::to_string).collect()
}

/// The changes from `base` to `side`, in base coordinates.
fn hunks(base: &[String], side: &[String]) -> Vec<Hunk> {
    use similar::{Algorithm, DiffOp, capture_diff_slices};
    let mut out: Vec<Hunk> = Vec::new();
    for op in capture_diff_slices(Algorithm::Myers, base, side) {
        let (lo, hi, new) = match op {
            DiffOp::Equal { .. } => continue,
            DiffOp::Delete { old_index, old_len, .. } => (old_index, old_index + old_len, Vec::new()),
            DiffOp::Insert { old_index, new_index, new_len } => {
                (old_index, old_index, side[new_index..new_index + new_len].to_vec())
            }
            DiffOp::Replace { old_index, old_len, new_index, new_len } => {
                (old_index, old_index + old_len, side[new_index..new_index + new_len].to_vec())
            }
        };
        // Adjacent operations (a delete then an insert) are one change.
        match out.last_mut() {
            Some(last) if last.hi == lo => {
                last.hi = hi;
                last.lines.extend(new);
            }
            _ => out.push(Hunk { lo, hi, lines: new }),
        }
    }
    out
}

/// `base[lo..hi]` with `side`'s hunks (all within it) applied.
fn apply(base: &[String], lo: usize, hi: usize, side: &[&Hunk]) -> Vec<String> {
    let mut out = Vec::new();
    let mut at = lo;
    for h in side {
        out.extend_from_slice(&base[at..h.lo]);
        out.extend(h.lines.iter().cloned());
        at = h.hi;
    }
    out.extend_from_slice(&base[at..hi]);
    out
}

/// Merges `yours` and `theirs`, both changed from `base`, line by line. Changes of the
/// two sides that overlap or touch form one region: the same result on both sides is
/// taken once; different ones are a conflict (and `text` holds yours there).
pub fn merge3(base: &str, yours: &str, theirs: &str) -> Merged {
    let base = lines(base);
    let ours = hunks(&base, &lines(yours));
    let others = hunks(&base, &lines(theirs));
    // Both sides' hunks in base order, tagged (0 yours, 1 theirs).
    let mut all: Vec<(usize, &Hunk)> = ours.iter().map(|h| (0, h)).chain(others.iter().map(|h| (1, h))).collect();
    all.sort_by_key(|(side, h)| (h.lo, h.hi, *side));
    let mut text = Vec::new();
    let mut conflicts = Vec::new();
    let mut at = 0;
    // Lines your changes before `at` added (or, negative, removed).
    let mut shift: isize = 0;
    let mut i = 0;
    while i < all.len() {
        // The region: every hunk overlapping or touching the ones taken so far.
        let (lo, mut hi) = (all[i].1.lo, all[i].1.hi);
        let mut j = i + 1;
        while j < all.len() && all[j].1.lo <= hi {
            hi = hi.max(all[j].1.hi);
            j += 1;
        }
        let region = &all[i..j];
        text.extend_from_slice(&base[at..lo]);
        let side = |s: usize| -> Vec<&Hunk> { region.iter().filter(|(t, _)| *t == s).map(|(_, h)| *h).collect() };
        let (mine, other) = (side(0), side(1));
        let mine_text = apply(&base, lo, hi, &mine);
        let other_text = apply(&base, lo, hi, &other);
        let mine_len = mine_text.len();
        if other.is_empty() || mine_text == other_text {
            text.extend(mine_text);
        } else if mine.is_empty() {
            text.extend(other_text);
        } else {
            conflicts.push(Conflict {
                yours_at: (lo as isize + shift + 1) as usize,
                base: base[lo..hi].to_vec(),
                yours: mine_text.clone(),
                theirs: other_text,
            });
            text.extend(mine_text);
        }
        shift += mine_len as isize - (hi - lo) as isize;
        at = hi;
        i = j;
    }
    text.extend_from_slice(&base[at..]);
    Merged { text: text.concat(), conflicts }
}

/// What an upgrade does to each file, by path relative to the root.
pub struct Plan {
    pub record: Record,
    pub actions: BTreeMap<String, Action>,
    /// Each file's new text (for Add, Update, Merge, Taken).
    pub writes: BTreeMap<String, String>,
    /// The new scaffold, by path: the next base.
    pub new_base: BTreeMap<String, String>,
}

impl Plan {
    pub fn conflicts(&self) -> Vec<(&str, &[Conflict])> {
        self.actions
            .iter()
            .filter_map(|(p, a)| match a {
                Action::Conflict(c) => Some((p.as_str(), c.as_slice())),
                _ => None,
            })
            .collect()
    }
}

/// Runs one recorded command in a tree, with the names it ran with.
pub type Run<'a> = &'a dyn Fn(&Path, Names, &[String]) -> Result<()>;

/// The replay of `record` by this codegen-cli in `dir` (emptied first; it must be one
/// this command owns): `init`, then each command. `now` is where this codegen-cli was
/// installed from (for a git source).
pub fn replay(record: &Record, dir: &Path, run: Run, now: Option<&Source>) -> Result<()> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).with_context(|| format!("removing {}", dir.display()))?;
    }
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let source = record.kubegen.for_replay(now)?;
    crate::scaffold::init(dir, Some(&record.project_name), &record.domain, &source, record.namespaced)
        .context("replaying `init`")?;
    for command in &record.commands {
        run(dir, command.names(record), &command.args)
            .with_context(|| format!("replaying `{}` from {RECORD}", command.shown()))?;
    }
    drop_manifests_owned(dir)?;
    // The record and base the replay's own init wrote are not part of the scaffold.
    let _ = std::fs::remove_file(dir.join(RECORD));
    let _ = std::fs::remove_dir_all(dir.join(".kubegen"));
    Ok(())
}

/// `upgrade --adopt`: the base made from a PROJECT written by hand (a project scaffolded
/// before codegen-cli kept a record), as this codegen-cli scaffolds it. Your files are
/// not touched: where they differ from it, the next upgrade takes them as your edits.
pub fn adopt(root: &Path, run: Run, now: Option<&Source>) -> Result<usize> {
    let record = Record::read(root)?.with_context(|| format!("{} has no {RECORD}: {ADOPT}", root.display()))?;
    let base = root.join(BASE);
    if base.join(RECORD).exists() {
        bail!("{} exists: the project has its base already; `upgrade` merges against it", base.display());
    }
    let next = root.join(NEXT);
    let adopted = (|| -> Result<usize> {
        replay(&record, &next, run, now)?;
        std::fs::write(next.join(RECORD), record.text()).with_context(|| format!("writing {}", next.display()))?;
        let count = scaffold_files(&next)?.len();
        // A base without its record is no base: replaced.
        swap_in(&next, &base)?;
        Ok(count)
    })();
    if adopted.is_err() {
        let _ = std::fs::remove_dir_all(&next);
    }
    adopted
}

/// The plan of an upgrade of the project at `root`: the record replayed by `run`, each
/// file merged. `keep` and `take` settle files by hand (paths relative to the root).
pub fn plan(root: &Path, run: Run, now: Option<&Source>, keep: &[String], take: &[String]) -> Result<Plan> {
    let mut record = Record::read(root)?.with_context(|| format!("{} has no {RECORD}: {ADOPT}", root.display()))?;
    let base_dir = root.join(BASE);
    let Some(base_record) = Record::read(&base_dir)? else {
        bail!(
            "{} is missing (or has no {RECORD}): it holds the scaffold as last written, the base of the merge; restore it from version control, or run `codegen-cli upgrade --adopt`",
            base_dir.display()
        );
    };
    if base_record.commands != record.commands {
        bail!("{MISMATCH}, then run `upgrade` again");
    }
    let base = scaffold_files(&base_dir)?;
    let new_dir = root.join(NEW);
    replay(&record, &new_dir, run, now)?;
    let new = scaffold_files(&new_dir)?;
    for settled in keep.iter().chain(take) {
        if !base.contains_key(settled) && !new.contains_key(settled) {
            bail!("--keep/--take {settled}: not a file of the scaffold (paths are relative to the workspace root)");
        }
    }

    let mut actions = BTreeMap::new();
    let mut writes = BTreeMap::new();
    let paths: BTreeSet<&String> = base.keys().chain(new.keys()).collect();
    for path in paths {
        let yours = match std::fs::read_to_string(root.join(path)) {
            Ok(text) => Some(text),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(e).with_context(|| format!("reading {}", root.join(path).display())),
        };
        let (b, n) = (base.get(path), new.get(path));
        if b == n || yours.as_ref() == n {
            continue;
        }
        if keep.contains(path) {
            actions.insert(path.clone(), Action::Kept);
            continue;
        }
        if take.contains(path) {
            match n {
                Some(n) => {
                    writes.insert(path.clone(), n.clone());
                }
                None if yours.is_some() => {
                    actions.insert(path.clone(), Action::Remove);
                    continue;
                }
                None => continue,
            }
            actions.insert(path.clone(), Action::Taken);
            continue;
        }
        let action = match (b, yours.as_ref(), n) {
            (None, None, Some(n)) => {
                writes.insert(path.clone(), n.clone());
                Action::Add
            }
            // Gone on both sides.
            (Some(_), None, None) => continue,
            (Some(_), None, Some(_)) => Action::KeepRemoved,
            (Some(b), Some(y), None) if y == b => Action::Remove,
            (Some(_), Some(_), None) => Action::KeepChanged,
            (Some(b), Some(y), Some(n)) if y == b => {
                writes.insert(path.clone(), n.clone());
                Action::Update
            }
            (b, Some(y), Some(n)) => {
                // A file you wrote where the scaffold now writes one merges against nothing.
                let merged = merge3(b.map(String::as_str).unwrap_or(""), y, n);
                if merged.conflicts.is_empty() {
                    writes.insert(path.clone(), merged.text);
                    Action::Merge
                } else {
                    Action::Conflict(merged.conflicts)
                }
            }
            (None, _, None) => continue,
        };
        actions.insert(path.clone(), action);
    }
    record.scaffolded_by = this_version();
    // The source the new scaffold names: a version or git reference moves with it.
    record.kubegen = RecordedSource::of(&record.kubegen.for_replay(now)?);
    Ok(Plan { record, actions, writes, new_base: new })
}

/// Applies a plan without conflicts: every file written first (each through a temporary
/// file and a rename), then removals, then the base replaced by the new scaffold and
/// the record updated. A failure midway names what was written; `upgrade` run again
/// finishes the rest.
pub fn apply_plan(root: &Path, plan: &Plan) -> Result<()> {
    if !plan.conflicts().is_empty() {
        bail!("the upgrade has conflicts: nothing was written");
    }
    let outputs: Vec<Output> =
        plan.writes.iter().map(|(p, text)| Output::generated(root.join(p), text.clone())).collect();
    let removals: Vec<&String> = plan.actions.iter().filter(|(_, a)| **a == Action::Remove).map(|(p, _)| p).collect();
    let base_dir = root.join(BASE);
    let next = root.join(NEXT);
    // The next base first: it is the part that can fail on space or permissions without
    // touching your files.
    let mut staged = Vec::new();
    for (p, text) in &plan.new_base {
        staged.push(Output::generated(next.join(p), text.clone()));
    }
    staged.push(Output::generated(next.join(RECORD), plan.record.text()));
    if next.exists() {
        std::fs::remove_dir_all(&next).with_context(|| format!("removing {}", next.display()))?;
    }
    output::write(&staged)?;
    let applied = (|| -> Result<()> {
        output::write(&outputs)?;
        for path in &removals {
            let full = root.join(path);
            std::fs::remove_file(&full).with_context(|| format!("removing {}", full.display()))?;
        }
        swap_in(&next, &base_dir)?;
        output::write(&[Output::generated(root.join(RECORD), plan.record.text())])?;
        Ok(())
    })();
    if applied.is_err() {
        let _ = std::fs::remove_dir_all(&next);
    }
    applied.context(
        "the upgrade stopped midway (files it wrote are the new ones; the record still names the old scaffold): fix the cause and run `upgrade` again, which finishes it",
    )
}

/// The plan as `upgrade` prints it: one line per file, then each conflict's lines.
pub fn describe(plan: &Plan) -> String {
    let mut out = String::new();
    if plan.actions.is_empty() {
        return "the project's scaffold is the one this codegen-cli writes: nothing to upgrade\n".into();
    }
    for (path, action) in &plan.actions {
        let what = match action {
            Action::Add => "add      ",
            Action::Update => "update   ",
            Action::Merge => "merge    ",
            Action::Remove => "remove   ",
            Action::KeepChanged => "keep     ",
            Action::KeepRemoved => "keep gone",
            Action::Kept => "kept     ",
            Action::Taken => "take     ",
            Action::Conflict(_) => "CONFLICT ",
        };
        let why = match action {
            Action::Add => "new in the scaffold",
            Action::Update => "you had not changed it: the new scaffold's",
            Action::Merge => "your changes and the new scaffold's, merged",
            Action::Remove => "no longer scaffolded, and you had not changed it",
            Action::KeepChanged => "no longer scaffolded; yours, changed, stays",
            Action::KeepRemoved => "you removed it; the scaffold changed it, it stays removed",
            Action::Kept => "yours as it is (--keep)",
            Action::Taken => "the new scaffold's over yours (--take)",
            Action::Conflict(c) => {
                out.push_str(&format!(
                    "  {what} {path}: {} place(s) you and the new scaffold changed differently\n",
                    c.len()
                ));
                continue;
            }
        };
        out.push_str(&format!("  {what} {path}: {why}\n"));
    }
    for (path, conflicts) in plan.conflicts() {
        for c in conflicts {
            let show = |lines: &[String]| -> String {
                if lines.is_empty() {
                    return "      (no lines)\n".into();
                }
                lines.iter().map(|l| format!("      | {}\n", l.trim_end_matches('\n'))).collect()
            };
            out.push_str(&format!(
                "\nconflict in {path} at your line {}:\n    the scaffold as last written:\n{}    yours:\n{}    the new scaffold:\n{}",
                c.yours_at,
                show(&c.base),
                show(&c.yours),
                show(&c.theirs)
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_apart_merge_and_the_same_change_is_taken_once() {
        let base = "a\nb\nc\nd\ne\n";
        let merged = merge3(base, "A\nb\nc\nd\ne\n", "a\nb\nc\nd\nE\nf\n");
        assert!(merged.conflicts.is_empty());
        assert_eq!(merged.text, "A\nb\nc\nd\nE\nf\n");
        let same = merge3(base, "a\nb\nX\nd\ne\n", "a\nb\nX\nd\ne\n");
        assert!(same.conflicts.is_empty());
        assert_eq!(same.text, "a\nb\nX\nd\ne\n");
        // Only one side changed.
        assert_eq!(merge3(base, base, "z\n").text, "z\n");
        assert_eq!(merge3(base, "y\n", base).text, "y\n");
    }

    #[test]
    fn the_same_lines_changed_differently_conflict_and_yours_stay_in_the_text() {
        let base = "a\nb\nc\n";
        let merged = merge3(base, "a\nB\nc\n", "a\nbee\nc\n");
        assert_eq!(
            merged.conflicts,
            vec![Conflict {
                yours_at: 2,
                base: vec!["b\n".into()],
                yours: vec!["B\n".into()],
                theirs: vec!["bee\n".into()]
            }]
        );
        assert_eq!(merged.text, "a\nB\nc\n");
        // Two insertions at the same place conflict: their order is not ours to choose.
        let inserted = merge3(base, "a\nmine\nb\nc\n", "a\ntheirs\nb\nc\n");
        assert_eq!(inserted.conflicts.len(), 1);
        assert_eq!(inserted.conflicts[0].base, Vec::<String>::new());
        // Adjacent changes touch: one region, a conflict.
        assert_eq!(merge3(base, "A\nb\nc\n", "a\nB\nc\n").conflicts.len(), 1);
        // Changes a line apart merge.
        assert!(merge3("a\nb\nc\nd\n", "A\nb\nc\nd\n", "a\nb\nC\nd\n").conflicts.is_empty());
    }

    #[test]
    fn the_record_reads_back_as_written() {
        let mut record = Record::new(
            "shop",
            "example.com",
            true,
            &Source::Git { url: "https://example.com/k.git".into(), reference: Some(("rev", "abc1234".into())) },
        );
        let names = Names { crate_name: "shop", domain: Some("example.org"), project_name: "shop" };
        record.commands.push(Command::new(&record, &["create", "api", "--group", "cache", "--kind", "A Kind"], names));
        assert_eq!(record.commands[0].domain.as_deref(), Some("example.org"));
        assert_eq!(record.commands[0].crate_name, None);
        let dir = std::env::temp_dir().join(format!("kubegen-record-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(RECORD), record.text()).unwrap();
        assert_eq!(Record::read(&dir).unwrap(), Some(record));
        std::fs::write(dir.join(RECORD), "layout: \"kubegen/v9\"\nmore: 1\n").unwrap();
        let err = format!("{:#}", Record::read(&dir).unwrap_err());
        assert!(err.contains("layout \"kubegen/v9\" is not one this codegen-cli replays"), "{err}");
        // kubebuilder's own PROJECT.
        std::fs::write(dir.join(RECORD), "domain: example.com\nlayout:\n- go.kubebuilder.io/v4\n").unwrap();
        let err = format!("{:#}", Record::read(&dir).unwrap_err());
        assert!(err.contains("is kubebuilder's PROJECT"), "{err}");
        std::fs::write(dir.join(RECORD), "- not a map\n").unwrap();
        let err = format!("{:#}", Record::read(&dir).unwrap_err());
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(err.contains("PROJECT is not the record codegen-cli init writes"), "{err}");
    }

    /// A fresh directory under the system's temp dir, removed first if it exists.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("kubegen-upgrade-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Every file under `dir` (the replay under target/ aside) with its text.
    fn snapshot(dir: &Path) -> BTreeMap<String, String> {
        let mut files = BTreeMap::new();
        crate::fingerprint::walk_all(dir, &mut |p| {
            let relative = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
            if !relative.starts_with("target/") {
                files.insert(relative, std::fs::read_to_string(p).unwrap());
            }
        })
        .unwrap();
        files
    }

    /// The Memcached operator as kubegen's scaffold at 9286da8 wrote it
    /// (scripts/upgrade-fixture.sh), pointed at this checkout.
    fn fixture(name: &str) -> PathBuf {
        let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/upgrade/9286da8");
        let checkout = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().display().to_string();
        let dir = scratch(name);
        crate::fingerprint::walk_all(&from, &mut |p| {
            let to = dir.join(p.strip_prefix(&from).unwrap());
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::write(&to, std::fs::read_to_string(p).unwrap().replace("@KUBEGEN@", &checkout)).unwrap();
        })
        .unwrap();
        dir
    }

    /// `old` replaced by `new` in `root/path`, which must hold it.
    fn edit(root: &Path, path: &str, old: &str, new: &str) {
        let text = std::fs::read_to_string(root.join(path)).unwrap();
        assert!(text.contains(old), "{path} has no {old:?}");
        std::fs::write(root.join(path), text.replacen(old, new, 1)).unwrap();
    }

    const OWN_TARGET: &str =
        "\n.PHONY: coverage\ncoverage: ## Our own: test coverage.\n\t$(CARGO) llvm-cov --workspace\n";
    const REQUEUE: &str = "Ok(Action::requeue(std::time::Duration::from_secs(600)))";

    /// The edits a user makes: controller logic, a target of their own, a manager flag.
    fn user_edits(root: &Path) {
        edit(root, "src/controller/memcached.rs", "Ok(Action::await_change())", REQUEUE);
        let makefile = std::fs::read_to_string(root.join("Makefile")).unwrap();
        std::fs::write(root.join("Makefile"), makefile + OWN_TARGET).unwrap();
        edit(root, "config/manager/manager.yaml", "--metrics-bind-address=:8080", "--metrics-bind-address=:8443");
    }

    #[test]
    fn an_older_scaffold_upgrades_with_your_edits_kept_and_the_new_parts_in() {
        let root = fixture("clean");
        user_edits(&root);
        let plan = plan(&root, &crate::replay_command, None, &[], &[]).unwrap();
        let shown = describe(&plan);
        assert_eq!(plan.actions.get("Makefile"), Some(&Action::Merge), "{shown}");
        assert_eq!(plan.actions.get("config/manager/manager.yaml"), Some(&Action::Merge), "{shown}");
        assert_eq!(plan.actions.get("Cargo.toml"), Some(&Action::Update), "{shown}");
        assert!(plan.conflicts().is_empty(), "{shown}");
        apply_plan(&root, &plan).unwrap();

        let read = |p: &str| std::fs::read_to_string(root.join(p)).unwrap();
        let makefile = read("Makefile");
        assert!(makefile.ends_with(OWN_TARGET), "your target stays");
        assert!(makefile.contains("\nhelm-lint: helm ##") && makefile.contains("\nHELM ?= helm\n"), "helm arrived");
        let manager = read("config/manager/manager.yaml");
        assert!(manager.contains("--metrics-bind-address=:8443") && manager.contains("--sharding instead"));
        assert!(read("src/controller/memcached.rs").contains(REQUEUE), "your logic stays");
        assert!(read("Cargo.toml").contains("/kubegen\", features = [\"webhook\"]"), "kubegen's crate moved");
        for (path, text) in snapshot(&root) {
            assert!(!text.contains("<<<<<<<") && !text.contains(">>>>>>>"), "{path} has a conflict marker");
        }
        // The base is the new scaffold, the record names this version: nothing more to do.
        let record = Record::read(&root).unwrap().unwrap();
        assert_eq!(record.scaffolded_by, this_version());
        let again = super::plan(&root, &crate::replay_command, None, &[], &[]).unwrap();
        assert!(again.actions.is_empty(), "{}", describe(&again));
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_conflict_is_listed_and_nothing_is_written_until_each_file_is_settled() {
        let root = fixture("conflict");
        user_edits(&root);
        // Lines of your own where the new scaffold adds Helm's, and the flag below the
        // comment the new scaffold adds.
        edit(&root, "Makefile", "DIFF_ARGS ?=\n", "DIFF_ARGS ?=\n# Ours.\nREGISTRY ?= ghcr.io/example\n");
        edit(&root, "config/manager/manager.yaml", "- --leader-elect\n", "- --leader-elect=false\n");
        let before = snapshot(&root);
        let plan = plan(&root, &crate::replay_command, None, &[], &[]).unwrap();
        let conflicts = plan.conflicts();
        let files: Vec<&str> = conflicts.iter().map(|(p, _)| *p).collect();
        assert_eq!(files, ["Makefile", "config/manager/manager.yaml"]);
        let makefile = &conflicts[0].1[0];
        assert_eq!(makefile.yours, ["# Ours.\n", "REGISTRY ?= ghcr.io/example\n"]);
        assert!(makefile.theirs.contains(&"HELM ?= helm\n".to_string()), "{makefile:?}");
        let line = before["Makefile"].lines().position(|l| l == "# Ours.").unwrap() + 1;
        assert_eq!(makefile.yours_at, line);
        let shown = describe(&plan);
        assert!(shown.contains("conflict in Makefile at your line") && shown.contains("| REGISTRY ?= ghcr.io/example"));
        assert!(apply_plan(&root, &plan).is_err());
        assert_eq!(snapshot(&root), before, "nothing was written");

        // Settled: the Makefile as the new scaffold writes it, the manager's as it is.
        let keep = ["config/manager/manager.yaml".to_string()];
        let take = ["Makefile".to_string()];
        let plan = super::plan(&root, &crate::replay_command, None, &keep, &take).unwrap();
        assert!(plan.conflicts().is_empty(), "{}", describe(&plan));
        apply_plan(&root, &plan).unwrap();
        let new = root.join(NEW);
        let read = |dir: &Path, p: &str| std::fs::read_to_string(dir.join(p)).unwrap();
        assert_eq!(read(&root, "Makefile"), read(&new, "Makefile"));
        assert_eq!(read(&root, "config/manager/manager.yaml"), before["config/manager/manager.yaml"]);
        // Kept: the next upgrade sees your file as your edit of the new scaffold.
        assert_eq!(read(&root.join(BASE), "config/manager/manager.yaml"), read(&new, "config/manager/manager.yaml"));
        assert!(super::plan(&root, &crate::replay_command, None, &[], &[]).unwrap().actions.is_empty());
        std::fs::remove_dir_all(&root).unwrap();
    }

    /// A scaffolded project (`shop`, domain example.com) in a fresh directory.
    fn scaffolded(name: &str) -> PathBuf {
        let root = scratch(name);
        let source = Source::Path(Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf());
        crate::scaffold::init(&root, Some("shop"), "example.com", &source, false).unwrap();
        root
    }

    /// `line` run as its handler does: the record's form of it, on the tree and the base.
    fn run(root: &Path, line: &[&str], names: Names) {
        let args = crate::recorded_of(line);
        let words: Vec<&str> = args.iter().map(String::as_str).collect();
        recorded(root, &words, names, |tree, _| crate::replay_command(tree, names, &args)).unwrap();
    }

    #[test]
    fn what_init_create_and_edit_record_replays_to_the_same_scaffold() {
        let root = scaffolded("record");
        let names = Names { crate_name: "shop", domain: Some("example.com"), project_name: "shop" };
        // The domain set in Cargo.toml after init: later kinds are in its groups.
        let later = Names { domain: Some("example.org"), ..names };
        for (line, names) in [
            (&["create", "api", "--group", "cache", "--version", "v1", "--kind", "Shop", "--namespaced"][..], names),
            (&["create", "api", "--group", "cache", "--version", "v2", "--kind", "Shop"], names),
            (&["create", "api", "--group", "infra", "--version", "v1", "--kind", "Rack", "--cluster"], later),
            (
                &[
                    "create",
                    "webhook",
                    "--group",
                    "cache",
                    "--version",
                    "v1",
                    "--kind",
                    "Shop",
                    "--defaulting",
                    "--programmatic-validation",
                ],
                names,
            ),
            (
                &[
                    "create",
                    "webhook",
                    "--group",
                    "cache",
                    "--version",
                    "v1",
                    "--kind",
                    "Shop",
                    "--conversion",
                    "--spoke=v2",
                ],
                names,
            ),
            (&["create", "dashboards", "--force"], names),
            (&["edit", "--namespaced"], names),
        ] {
            run(&root, line, names);
        }
        let recorded = Record::read(&root).unwrap().unwrap();
        assert_eq!(recorded.commands.len(), 7);
        assert_eq!(recorded.commands[2].args.last().map(String::as_str), Some("--cluster"));
        assert_eq!(recorded.commands[2].domain.as_deref(), Some("example.org"));
        assert_eq!(recorded.commands[4].args[8..], ["--conversion", "--spoke", "v2"]);
        assert_eq!(recorded.commands[6].args, ["edit", "--namespaced=true"]);
        assert_eq!(Record::read(&root.join(BASE)).unwrap().unwrap(), recorded, "the base's copy of the record");
        assert!(std::fs::read_to_string(root.join("src/api/infra/v1/rack.rs")).unwrap().contains("infra.example.org"));
        // The base holds every scaffolded file as in the tree.
        let tree = snapshot(&root);
        for (path, text) in scaffold_files(&root.join(BASE)).unwrap() {
            assert_eq!(tree.get(&path), Some(&text), "{path}");
        }
        let plan = plan(&root, &crate::replay_command, None, &[], &[]).unwrap();
        assert!(plan.actions.is_empty(), "{}", describe(&plan));

        // A record the base does not share is refused: a merge took sides differently.
        let mut other = recorded.clone();
        other.commands.pop();
        std::fs::write(root.join(RECORD), other.text()).unwrap();
        let err = format!("{:#}", super::plan(&root, &crate::replay_command, None, &[], &[]).err().unwrap());
        assert!(err.contains("list different commands"), "{err}");
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_step_the_base_cannot_take_writes_nothing() {
        let root = scaffolded("refused");
        let names = Names { crate_name: "shop", domain: Some("example.com"), project_name: "shop" };
        run(&root, &["create", "api", "--group", "cache", "--version", "v1", "--kind", "Shop"], names);
        // The kind removed by hand; the base still has it.
        std::fs::remove_file(root.join("src/api/cache/v1/shop.rs")).unwrap();
        let before = snapshot(&root);
        let args = crate::recorded_of(&["create", "api", "--group", "cache", "--version", "v1", "--kind", "Shop"]);
        let words: Vec<&str> = args.iter().map(String::as_str).collect();
        let err = recorded(&root, &words, names, |tree, _| crate::replay_command(tree, names, &args)).unwrap_err();
        assert!(format!("{err:#}").contains("nothing was written"), "{err:#}");
        assert_eq!(snapshot(&root), before);
        // Without the base, nothing is written either.
        std::fs::remove_dir_all(root.join(BASE)).unwrap();
        let before = snapshot(&root);
        let args = crate::recorded_of(&["create", "dashboards"]);
        let words: Vec<&str> = args.iter().map(String::as_str).collect();
        let err = recorded(&root, &words, names, |tree, _| crate::replay_command(tree, names, &args)).unwrap_err();
        assert!(format!("{err:#}").contains("upgrade --adopt"), "{err:#}");
        assert_eq!(snapshot(&root), before);
        // Adopted: the base is this codegen-cli's scaffold of the record.
        let count = adopt(&root, &crate::replay_command, None).unwrap();
        assert_eq!(count, scaffold_files(&root.join(BASE)).unwrap().len());
        assert!(count > 20, "{count}");
        assert!(adopt(&root, &crate::replay_command, None).is_err(), "adopted twice");
        let plan = super::plan(&root, &crate::replay_command, None, &[], &[]).unwrap();
        assert!(plan.actions.is_empty(), "{}", describe(&plan));
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn edits_name_a_directory_inside_the_workspace() {
        assert!(check_inside(Path::new("config")).is_ok());
        assert!(check_inside(Path::new("deploy/config")).is_ok());
        assert!(check_inside(Path::new("/abs/config")).is_err());
        assert!(check_inside(Path::new("../config")).is_err());
    }

    #[test]
    fn lines_without_a_newline_deletions_and_files_you_wrote_merge_or_conflict() {
        // The last line without its newline, changed on one side.
        assert_eq!(merge3("a\nb", "a\nb", "a\nc").text, "a\nc");
        assert_eq!(merge3("a\nx\nb", "A\nx\nb", "a\nx\nb\nc\n").text, "A\nx\nb\nc\n");
        // A deletion on one side, a change elsewhere on the other.
        assert_eq!(merge3("a\nb\nc\nd\n", "a\nc\nd\n", "a\nb\nc\nD\n").text, "a\nc\nD\n");
        // A deletion against a change of the same line.
        let deleted = merge3("a\nb\nc\n", "a\nc\n", "a\nB\nc\n");
        assert_eq!(deleted.conflicts.len(), 1);
        assert!(deleted.conflicts[0].yours.is_empty());
        // A file you wrote where the scaffold now writes one: the same text, or a conflict.
        assert!(merge3("", "x\n", "x\n").conflicts.is_empty());
        assert_eq!(merge3("", "x\n", "y\n").conflicts.len(), 1);
    }
}
