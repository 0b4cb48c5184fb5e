//! Findings as text for a person, or as JSON or YAML for a program (one document:
//! what was compared, the notes on what was not, the findings, the counts).

use anyhow::{Context, Result};
use serde::Serialize;

use super::cluster::{self, ClusterReport};
use super::{Finding, Format};
use crate::settings::DiffLevel as Level;

#[derive(Serialize)]
struct Document<'a> {
    against: &'a str,
    /// `diff OLD NEW`: NEW (otherwise what the workspace generates now).
    #[serde(skip_serializing_if = "Option::is_none")]
    new: Option<&'a str>,
    notes: &'a [String],
    findings: &'a [Finding],
    errors: usize,
    warnings: usize,
    /// `--cluster`: the stored objects the new schema refuses.
    #[serde(skip_serializing_if = "Option::is_none")]
    cluster: Option<&'a ClusterReport>,
}

/// The report of findings between `against` and `new` (`None`: the workspace).
pub fn render(
    format: Format,
    against: &str,
    new: Option<&str>,
    notes: &[String],
    findings: &[Finding],
    cluster: Option<&ClusterReport>,
) -> Result<String> {
    let count = |level| findings.iter().filter(|f| f.level == level).count();
    let doc =
        Document { against, new, notes, findings, errors: count(Level::Error), warnings: count(Level::Warn), cluster };
    match format {
        Format::Json => Ok(serde_json::to_string_pretty(&doc).context("rendering the findings as JSON")? + "\n"),
        Format::Yaml => kubegen::to_yaml(&doc).context("rendering the findings as YAML"),
        Format::Text => Ok(text(&doc)),
    }
}

fn text(doc: &Document<'_>) -> String {
    let mut out = String::new();
    for f in doc.findings {
        let level = match f.level {
            Level::Error => "error",
            Level::Warn => "warning",
            Level::Off => continue,
        };
        let mut place = f.kind.clone();
        if let Some(v) = &f.version {
            place += &format!(" {v}");
        }
        if let Some(p) = f.path.as_deref().filter(|p| !p.is_empty()) {
            place += &format!(" {p}");
        }
        out += &format!("{level}[{}]: {place}: {}\n", f.check, f.message);
    }
    for note in doc.notes {
        out += &format!("note: {note}\n");
    }
    if let Some(report) = doc.cluster {
        out += &cluster::text(report);
    }
    let compared = match doc.new {
        Some(new) => format!("compared {new} with {}", doc.against),
        None => format!("compared with {}", doc.against),
    };
    out += &format!(
        "{compared}: {} error{}, {} warning{}\n",
        doc.errors,
        if doc.errors == 1 { "" } else { "s" },
        doc.warnings,
        if doc.warnings == 1 { "" } else { "s" }
    );
    out
}
