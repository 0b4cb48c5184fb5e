//! What every command writes goes through here: the files a generator produced, written
//! atomically or compared for `--check`, and the one message that says what happened
//! and, when stale, the command that fixes it.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};

/// A file a generator produces.
pub struct Output {
    pub path: PathBuf,
    pub contents: String,
    /// Generated files are rewritten; scaffolded ones are written only when missing.
    pub overwrite: bool,
}

impl Output {
    pub fn generated(path: PathBuf, contents: String) -> Self {
        Output { path, contents, overwrite: true }
    }

    pub fn scaffolded(path: PathBuf, contents: String) -> Self {
        Output { path, contents, overwrite: false }
    }
}

/// Writes or checks `outputs` and reports: `what` names them in messages ("manifest",
/// "client"), `summary` says what they were made from ("2 kinds, 6 RBAC rules").
pub fn finish(outputs: &[Output], root: &Path, check: bool, what: &str, summary: &str) -> Result<ExitCode> {
    if check {
        let stale = self::check(outputs, root);
        if stale.is_empty() {
            eprintln!("{}", said(true, what, outputs.len(), summary, 0));
            return Ok(ExitCode::SUCCESS);
        }
        for diff in &stale {
            print!("{diff}");
        }
        eprintln!(
            "{} of {} {what} files are stale; run `{}` and commit the result",
            stale.len(),
            outputs.len(),
            rerun_without("--check")
        );
        return Ok(ExitCode::FAILURE);
    }
    let written = write(outputs)?;
    eprintln!("{}", said(false, what, outputs.len(), summary, written));
    Ok(ExitCode::SUCCESS)
}

/// The last line of a run that ended well: the files are up to date (`check`), or were
/// written.
pub fn said(check: bool, what: &str, count: usize, summary: &str, written: usize) -> String {
    if check {
        format!("{what}s are up to date ({count} files, {summary})")
    } else {
        format!("{count} {what} files for {summary} ({written} written)")
    }
}

/// What this run said besides its last line: warnings and notes, kept so that a run the
/// fingerprint skips says them again.
static SAID: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// Says `line` on stderr (a warning or a note about the project) and keeps it.
pub fn warn(line: String) {
    eprintln!("{line}");
    SAID.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(line);
}

/// Everything [`warn`] said so far.
pub fn warnings() -> Vec<String> {
    SAID.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
}

/// Writes each file whose contents changed, through a temporary file and a rename, so
/// a file on disk is always either the old or the new version.
pub fn write(outputs: &[Output]) -> Result<usize> {
    let mut written = 0;
    for o in outputs {
        if !o.overwrite && o.path.exists() {
            continue;
        }
        if std::fs::read_to_string(&o.path).ok().as_deref() == Some(o.contents.as_str()) {
            continue;
        }
        let dir = o.path.parent().context("output path has no directory")?;
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let tmp = dir.join(format!(".{}.tmp", o.path.file_name().and_then(|n| n.to_str()).unwrap_or("out")));
        std::fs::write(&tmp, &o.contents).with_context(|| format!("writing {}", tmp.display()))?;
        std::fs::rename(&tmp, &o.path)
            .with_context(|| format!("renaming {} to {}", tmp.display(), o.path.display()))?;
        written += 1;
    }
    Ok(written)
}

/// Compares with the files on disk; returns a unified diff per stale file.
pub fn check(outputs: &[Output], root: &Path) -> Vec<String> {
    let mut stale = Vec::new();
    for o in outputs {
        if !o.overwrite && o.path.exists() {
            continue;
        }
        let on_disk = std::fs::read_to_string(&o.path).unwrap_or_default();
        if on_disk == o.contents {
            continue;
        }
        let shown = o.path.strip_prefix(root).unwrap_or(&o.path).display().to_string();
        let diff = similar::TextDiff::from_lines(&on_disk, &o.contents)
            .unified_diff()
            .context_radius(3)
            .header(&format!("a/{shown}"), &format!("b/{shown}"))
            .to_string();
        let diff = if on_disk.is_empty() && !o.path.exists() { format!("{shown} is missing\n{diff}") } else { diff };
        stale.push(diff);
    }
    stale
}

/// Renders a template for a generated file, which ends with one newline.
pub fn render(t: &dyn askama::DynTemplate, what: &str) -> Result<String> {
    let mut text = t.dyn_render().with_context(|| format!("rendering {what}"))?;
    if !text.ends_with('\n') {
        text.push('\n');
    }
    Ok(text)
}

/// `--header FILE`'s text as YAML comments, for the top of every generated file (empty
/// without the flag).
pub fn header(file: Option<&Path>) -> Result<String> {
    match file {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).with_context(|| format!("reading header file {}", path.display()))?;
            yaml_comments(&text)
        }
        None => Ok(String::new()),
    }
}

/// A header file's text as YAML comments, for the top of every generated file.
fn yaml_comments(text: &str) -> Result<String> {
    let lines = text.lines().map(|l| l.trim_start_matches('#').trim_start_matches(' ').trim_end()).collect();
    Ok(askama::Template::render(&Header { lines })?)
}

#[derive(askama::Template)]
#[template(path = "header.yaml")]
struct Header<'a> {
    lines: Vec<&'a str>,
}

/// This very command line without `flag`, spelled the way it was started: through
/// `cargo run -p <package>` (cargo sets `CARGO_PKG_NAME` for what it runs) or as an
/// installed binary.
pub(crate) fn rerun_without(flag: &str) -> String {
    let quoted = |a: String| {
        if a.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:,@".contains(c)) {
            a
        } else {
            format!("'{}'", a.replace('\'', r"'\''"))
        }
    };
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != flag).map(quoted).collect();
    let args = args.join(" ");
    match std::env::var("CARGO_PKG_NAME") {
        Ok(package) if std::env::var_os("CARGO").is_some() => format!("cargo run -p {package} -- {args}"),
        _ => format!("codegen-cli {args}"),
    }
}

/// `n` and the noun, in the plural unless one: "1 kind", "2 kinds".
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_read_as_english() {
        assert_eq!(count(1, "kind"), "1 kind");
        assert_eq!(count(0, "kind"), "0 kinds");
        assert_eq!(count(6, "RBAC rule"), "6 RBAC rules");
    }
}
