//! `codegen-cli upgrade`: kubebuilder's `alpha update`, without git. The scaffold keeps a
//! record of what made the project (`PROJECT`: `init`'s settings and each `create` or
//! `edit` after it, in order) and, under `.kubegen/scaffold/`, each file as the scaffold
//! last wrote it. `upgrade` replays the record with this codegen-cli into
//! `target/kubegen/upgrade/new/` and merges, file by file, three ways: the scaffold as
//! last written (the base), the project's file (yours), the new scaffold's (theirs). Your
//! edits stay, the new scaffold's changes arrive; where both changed the same lines
//! differently, nothing at all is written and each conflict is listed (never left as
//! markers in a file `make` builds).
//!
//! Files `manifests` rewrites (config/rbac/role.yaml, the CRD and samples kustomizations,
//! the CRD bases) are not the scaffold's: the next `manifests` writes them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::Deserialize;

use crate::output::{self, Output};
use crate::scaffold::Source;

/// The record's file, at the workspace root (kubebuilder's name).
pub const RECORD: &str = "PROJECT";
/// The scaffold as last written, under the workspace root.
pub const BASE: &str = ".kubegen/scaffold";
/// Where `upgrade` replays the record, under the workspace root.
pub const NEW: &str = "target/kubegen/upgrade/new";
/// The record's layout.
const LAYOUT: &str = "kubegen/v1";

/// Files `init` writes that `manifests` rewrites: never merged, never in the base.
const MANIFESTS_OWNED: &[&str] =
    &["config/rbac/role.yaml", "config/crd/kustomization.yaml", "config/samples/kustomization.yaml"];

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
    pub scaffolded_by: String,
    /// Each `create` and `edit` after `init`, as its command line (without
    /// `--manifest-path`), in order.
    #[serde(default)]
    pub commands: Vec<String>,
}

/// Where the scaffold depends on kubegen from, as `init` was told.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RecordedSource {
    #[serde(default)]
    pub path: Option<PathBuf>,
    #[serde(default)]
    pub git: Option<String>,
    #[serde(default)]
    pub branch: Option<String>,
    #[serde(default)]
    pub rev: Option<String>,
    #[serde(default)]
    pub version: Option<String>,
}

impl RecordedSource {
    pub fn of(source: &Source) -> Self {
        let mut r = RecordedSource { path: None, git: None, branch: None, rev: None, version: None };
        match source {
            Source::Path(p) => r.path = Some(p.clone()),
            Source::Git { url, reference } => {
                r.git = Some(url.clone());
                match reference {
                    Some(("rev", v)) => r.rev = Some(v.clone()),
                    Some((_, v)) => r.branch = Some(v.clone()),
                    None => {}
                }
            }
            Source::Version(v) => r.version = Some(v.clone()),
        }
        r
    }

    /// The source a replay by this codegen-cli scaffolds: a crates.io version becomes this
    /// binary's own (the scaffold of a version is made for that version of kubegen).
    fn for_replay(&self) -> Result<Source> {
        Ok(match (&self.path, &self.git, &self.version) {
            (Some(p), None, None) => Source::Path(p.clone()),
            (None, Some(url), None) => Source::Git {
                url: url.clone(),
                reference: match (&self.rev, &self.branch) {
                    (Some(r), _) => Some(("rev", r.clone())),
                    (None, Some(b)) => Some(("branch", b.clone())),
                    (None, None) => None,
                },
            },
            (None, None, Some(_)) => Source::Version(env!("CARGO_PKG_VERSION").into()),
            _ => bail!("{RECORD}: `kubegen` names one of `path`, `git` (with `rev` or `branch`) or `version`"),
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

    pub fn read(root: &Path) -> Result<Option<Self>> {
        let path = root.join(RECORD);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        };
        let record: Record = serde_saphyr::from_str(&text).with_context(|| format!("reading {}", path.display()))?;
        if record.layout != LAYOUT {
            bail!(
                "{}: layout `{}` is not one this codegen-cli replays ({LAYOUT}): upgrade with the codegen-cli that wrote it first",
                path.display(),
                record.layout
            );
        }
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
                out.push_str(&format!("- {}\n", q(c)));
            }
        }
        out
    }
}

/// The files of the scaffold under `dir` (the base, or a replay), by path relative to it,
/// without those `manifests` owns.
fn scaffold_files(dir: &Path) -> Result<BTreeMap<String, String>> {
    let mut files = BTreeMap::new();
    if !dir.exists() {
        return Ok(files);
    }
    let mut paths = Vec::new();
    crate::fingerprint::walk_all(dir, &mut |p| paths.push(p.to_path_buf()))
        .with_context(|| format!("reading {}", dir.display()))?;
    for path in paths {
        let relative = path.strip_prefix(dir).unwrap_or(&path).to_string_lossy().replace('\\', "/");
        if MANIFESTS_OWNED.contains(&relative.as_str()) || relative == RECORD || relative.starts_with("target/") {
            continue;
        }
        let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
        files.insert(relative, text);
    }
    Ok(files)
}

/// A step of the scaffold (a `create` or `edit`), applied to a tree: the project's, the
/// base's or a replay's.
pub type Step<'a> = &'a dyn Fn(&Path) -> Result<()>;

/// After a `create` or `edit` ran on the project at `root` as `command`: the same step on
/// the base (so it holds the scaffold as it would be without your edits), and the command
/// added to the record. A project without a record (scaffolded before codegen-cli kept
/// one) is left as it is, with a note.
pub fn record(root: &Path, command: &str, step: Step) -> Result<()> {
    let Some(mut record) = Record::read(root)? else {
        eprintln!(
            "note: {} has no {RECORD} (it was scaffolded before codegen-cli recorded its scaffold), so `codegen-cli upgrade` cannot replay this command",
            root.display()
        );
        return Ok(());
    };
    let base = root.join(BASE);
    step(&base).with_context(|| format!("applying `{command}` to the scaffold as last written ({BASE})"))?;
    drop_manifests_owned(&base)?;
    record.commands.push(command.to_string());
    output::write(&[Output::generated(root.join(RECORD), record.text())])?;
    Ok(())
}

fn drop_manifests_owned(dir: &Path) -> Result<()> {
    for owned in MANIFESTS_OWNED {
        let path = dir.join(owned);
        if path.exists() {
            std::fs::remove_file(&path).with_context(|| format!("removing {}", path.display()))?;
        }
    }
    Ok(())
}

/// What `init` adds to its outputs: the record, and the same scaffold in the base.
pub fn init_outputs(outputs: &[Output], root: &Path, record: &Record) -> Vec<Output> {
    let mut more = vec![Output::scaffolded(root.join(RECORD), record.text())];
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

/// The replay of `record` by this codegen-cli in `dir` (emptied first; it must be one
/// this command owns): `init`, then each command.
pub fn replay(record: &Record, dir: &Path, run: &dyn Fn(&Path, &Record, &str) -> Result<()>) -> Result<()> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).with_context(|| format!("removing {}", dir.display()))?;
    }
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let source = record.kubegen.for_replay()?;
    crate::scaffold::init(dir, Some(&record.project_name), &record.domain, &source, record.namespaced)
        .context("replaying `init`")?;
    for command in &record.commands {
        run(dir, record, command).with_context(|| format!("replaying `{command}` from {RECORD}"))?;
    }
    drop_manifests_owned(dir)?;
    // The record and base the replay's own init wrote are not part of the scaffold.
    let _ = std::fs::remove_file(dir.join(RECORD));
    let _ = std::fs::remove_dir_all(dir.join(".kubegen"));
    Ok(())
}

/// The plan of an upgrade of the project at `root`: the record replayed by `run` (which
/// runs one recorded command in a tree), each file merged. `keep` and `take` settle
/// files by hand (paths relative to the root).
pub fn plan(
    root: &Path,
    run: &dyn Fn(&Path, &Record, &str) -> Result<()>,
    keep: &[String],
    take: &[String],
) -> Result<Plan> {
    let mut record = Record::read(root)?.with_context(|| {
        format!(
            "{} has no {RECORD}: `upgrade` replays the record `codegen-cli init` writes (since this version), and this project was scaffolded before it",
            root.display()
        )
    })?;
    let base_dir = root.join(BASE);
    if !base_dir.is_dir() {
        bail!(
            "{} is missing: it holds the scaffold as last written, the base of the merge; restore it from version control",
            base_dir.display()
        );
    }
    let base = scaffold_files(&base_dir)?;
    let new_dir = root.join(NEW);
    replay(&record, &new_dir, run)?;
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
            if let Some(n) = n {
                writes.insert(path.clone(), n.clone());
            }
            actions.insert(path.clone(), Action::Taken);
            continue;
        }
        let action = match (b, yours.as_ref(), n) {
            (None, None, Some(n)) => {
                writes.insert(path.clone(), n.clone());
                Action::Add
            }
            (Some(_), None, _) => Action::KeepRemoved,
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
    if record.kubegen.version.is_some() {
        record.kubegen.version = Some(env!("CARGO_PKG_VERSION").into());
    }
    Ok(Plan { record, actions, writes, new_base: new })
}

/// Applies a plan without conflicts: the files written or removed, the base replaced by
/// the new scaffold, the record updated.
pub fn apply_plan(root: &Path, plan: &Plan) -> Result<()> {
    if !plan.conflicts().is_empty() {
        bail!("the upgrade has conflicts: nothing was written");
    }
    let outputs: Vec<Output> =
        plan.writes.iter().map(|(p, text)| Output::generated(root.join(p), text.clone())).collect();
    output::write(&outputs)?;
    for (path, action) in &plan.actions {
        if *action == Action::Remove {
            let full = root.join(path);
            std::fs::remove_file(&full).with_context(|| format!("removing {}", full.display()))?;
        }
    }
    let base_dir = root.join(BASE);
    let mut base_outputs: Vec<Output> =
        plan.new_base.iter().map(|(p, text)| Output::generated(base_dir.join(p), text.clone())).collect();
    base_outputs.push(Output::generated(root.join(RECORD), plan.record.text()));
    output::write(&base_outputs)?;
    // Files of the old base the new scaffold no longer writes.
    for (path, _) in scaffold_files(&base_dir)? {
        if !plan.new_base.contains_key(&path) {
            let full = base_dir.join(&path);
            std::fs::remove_file(&full).with_context(|| format!("removing {}", full.display()))?;
        }
    }
    Ok(())
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
                    return "      (no lines: each side added its own here)\n".into();
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
        record.commands.push("create api --group cache --version v1 --kind Shop".into());
        let dir = std::env::temp_dir().join(format!("kubegen-record-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(RECORD), record.text()).unwrap();
        assert_eq!(Record::read(&dir).unwrap(), Some(record));
        std::fs::write(dir.join(RECORD), "layout: \"kubegen/v9\"\n").unwrap();
        let err = format!("{:#}", Record::read(&dir).unwrap_err());
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(err.contains("PROJECT"), "{err}");
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
        let plan = plan(&root, &crate::replay_command, &[], &[]).unwrap();
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
        let again = super::plan(&root, &crate::replay_command, &[], &[]).unwrap();
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
        let plan = plan(&root, &crate::replay_command, &[], &[]).unwrap();
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
        let plan = super::plan(&root, &crate::replay_command, &keep, &take).unwrap();
        assert!(plan.conflicts().is_empty(), "{}", describe(&plan));
        apply_plan(&root, &plan).unwrap();
        let new = root.join(NEW);
        let read = |dir: &Path, p: &str| std::fs::read_to_string(dir.join(p)).unwrap();
        assert_eq!(read(&root, "Makefile"), read(&new, "Makefile"));
        assert_eq!(read(&root, "config/manager/manager.yaml"), before["config/manager/manager.yaml"]);
        // Kept: the next upgrade sees your file as your edit of the new scaffold.
        assert_eq!(read(&root.join(BASE), "config/manager/manager.yaml"), read(&new, "config/manager/manager.yaml"));
        assert!(super::plan(&root, &crate::replay_command, &[], &[]).unwrap().actions.is_empty());
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn what_init_create_and_edit_record_replays_to_the_same_scaffold() {
        let root = scratch("record");
        let source = Source::Path(Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf());
        crate::scaffold::init(&root, Some("shop"), "example.com", &source, false).unwrap();
        let record = Record::read(&root).unwrap().unwrap();
        for command in [
            "create api --group cache --version v1 --kind Shop",
            "create api --group cache --version v2 --kind Shop",
            "create api --group infra --version v1 --kind Rack --cluster",
            "create webhook --group cache --version v1 --kind Shop --defaulting --programmatic-validation",
            "create webhook --group cache --version v1 --kind Shop --conversion --spoke v2",
            "create dashboards",
            "edit --namespaced=true",
        ] {
            crate::replay_command(&root, &record, command).unwrap();
            super::record(&root, command, &|tree| crate::replay_command(tree, &record, command)).unwrap();
        }
        let recorded = Record::read(&root).unwrap().unwrap();
        assert_eq!(recorded.commands.len(), 7);
        // The base holds every scaffolded file as in the tree.
        let tree = snapshot(&root);
        for (path, text) in scaffold_files(&root.join(BASE)).unwrap() {
            assert_eq!(tree.get(&path), Some(&text), "{path}");
        }
        let plan = plan(&root, &crate::replay_command, &[], &[]).unwrap();
        assert!(plan.actions.is_empty(), "{}", describe(&plan));
        std::fs::remove_dir_all(&root).unwrap();
    }
}
