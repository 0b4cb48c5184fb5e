//! Entry points for the fuzz targets in `fuzz/` (cargo-fuzz): the CLI's readers of text a
//! user wrote, reached without a workspace on disk. Behind the `fuzzing` feature; not API.

use std::path::Path;

use anyhow::Result;
use serde_json::Value;

use crate::settings::{PackageSettings, Settings};

/// `[workspace.metadata.kubegen]` and `[package.metadata.kubegen]` as `cargo metadata`
/// hands them over (the TOML as JSON), read as a project load reads them, with the diff
/// levels checked as `diff` checks them.
pub fn settings(kubegen: &Value) -> Result<()> {
    let settings = Settings::from_metadata(Some(kubegen))?;
    crate::diff::Options::new(settings.diff, false)?;
    PackageSettings::from_metadata(Some(kubegen), "fuzz")?;
    Ok(())
}

/// The RBAC and webhook markers of one source file (comment markers and the typed
/// `#[kubegen::rbac(...)]`, `#[kubegen::webhook(...)]` attributes), as `manifests` scans
/// a package: the rules and webhooks found.
pub fn source_markers(file: &Path) -> Result<(usize, usize)> {
    let root = file.parent().unwrap_or(file);
    let scan = crate::source_markers::scan(&[file.to_path_buf()], root)?;
    Ok((scan.rules.len(), scan.webhooks.len()))
}

/// A description (or any text the reference renders inline) as the HTML reference
/// renders it: a field's cell, and a kind's or type's paragraphs.
pub fn description_html(text: &str) -> (String, String) {
    crate::docs::description_html(text)
}
