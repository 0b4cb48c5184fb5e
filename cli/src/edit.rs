//! `codegen-cli edit`: change a choice `init` made, in the project's record
//! (`[workspace.metadata.kubegen]` of the root Cargo.toml) and in the scaffolded files that
//! follow from it (kubebuilder's `edit`). `--namespaced`: a namespace-scoped manager.
//!
//! A scaffolded file is the user's once written: it is rewritten only while it is exactly
//! what the other choice scaffolds; one the user changed is left alone and named, with
//! what to change in it by hand.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::layout;
use crate::output::Output;

/// What `edit --namespaced` did.
pub struct Edited {
    pub written: Vec<PathBuf>,
    /// Files the user changed, each with what to change by hand.
    pub by_hand: Vec<(PathBuf, &'static str)>,
    /// Whether the record already said so (nothing to do).
    pub unchanged: bool,
}

/// The line of the record, in `[workspace.metadata.kubegen]`.
const KEY: &str = "namespaced";

/// `manifest` (the root Cargo.toml's text) saying `namespaced = <value>` in its
/// `[workspace.metadata.kubegen]` table: the line replaced, or added at the table's end.
fn with_namespaced(manifest: &str, value: bool) -> Result<String> {
    let mut lines: Vec<String> = manifest.lines().map(str::to_string).collect();
    let header = lines
        .iter()
        .position(|l| l.trim() == "[workspace.metadata.kubegen]")
        .context("it has no [workspace.metadata.kubegen] table (`codegen-cli init` writes one): add it with `project` and `domain`")?;
    let end = lines[header + 1..]
        .iter()
        .position(|l| l.trim_start().starts_with('['))
        .map_or(lines.len(), |i| header + 1 + i);
    let line = format!("{KEY} = {value}");
    match (header + 1..end).find(|&i| lines[i].split('=').next().is_some_and(|k| k.trim() == KEY)) {
        Some(i) => lines[i] = line,
        None => {
            // After the table's last key, before the blank lines and comments that lead the next table.
            let last = (header + 1..end)
                .rev()
                .find(|&i| !lines[i].trim().is_empty() && !lines[i].trim_start().starts_with('#'));
            lines.insert(last.unwrap_or(header) + 1, line);
        }
    }
    let mut text = lines.join("\n");
    if manifest.ends_with('\n') {
        text.push('\n');
    }
    let parsed: toml::Table = toml::from_str(&text).context("the edited Cargo.toml does not parse")?;
    let said = parsed
        .get("workspace")
        .and_then(|w| w.get("metadata"))
        .and_then(|m| m.get("kubegen"))
        .and_then(|k| k.get(KEY))
        .and_then(toml::Value::as_bool);
    if said != Some(value) {
        bail!("could not set {KEY} = {value} in [workspace.metadata.kubegen]; set it by hand");
    }
    Ok(text)
}

/// What to change by hand in a scaffolded file the user edited.
fn by_hand(file: &str, namespaced: bool) -> &'static str {
    match (file, namespaced) {
        ("rbac/role_binding.yaml", true) => {
            "make it a RoleBinding (namespace: system) whose roleRef is the Role manager-role"
        }
        ("rbac/role_binding.yaml", false) => {
            "make it a ClusterRoleBinding (no namespace) whose roleRef is the ClusterRole manager-role"
        }
        (_, true) => "add `- --namespace=$(POD_NAMESPACE)` to the manager container's args",
        (_, false) => "remove `--namespace=$(POD_NAMESPACE)` from the manager container's args",
    }
}

/// Makes the project at `root` namespace-scoped (`namespaced`) or cluster-scoped.
pub fn namespaced(root: &Path, config: &Path, namespaced: bool) -> Result<Edited> {
    let manifest_path = root.join("Cargo.toml");
    let manifest =
        std::fs::read_to_string(&manifest_path).with_context(|| format!("reading {}", manifest_path.display()))?;
    let edited = with_namespaced(&manifest, namespaced).with_context(|| manifest_path.display().to_string())?;
    let mut outputs = Vec::new();
    let mut by_hands = Vec::new();
    let now = layout::scope_files("manager-role", namespaced)?;
    let before = layout::scope_files("manager-role", !namespaced)?;
    for ((file, text), (_, earlier)) in now.into_iter().zip(before) {
        let path = config.join(file);
        match std::fs::read_to_string(&path) {
            Ok(on_disk) if on_disk == text => {}
            Ok(on_disk) if on_disk == earlier => outputs.push(Output::generated(path, text)),
            // Absent: the next `manifests` scaffolds it as the record says.
            Err(_) => {}
            Ok(_) => by_hands.push((path, by_hand(file, namespaced))),
        }
    }
    let unchanged = edited == manifest && outputs.is_empty();
    if edited != manifest {
        outputs.push(Output::generated(manifest_path, edited));
    }
    crate::output::write(&outputs)?;
    Ok(Edited { written: outputs.into_iter().map(|o| o.path).collect(), by_hand: by_hands, unchanged })
}

#[cfg(test)]
mod tests {
    use super::*;

    const MANIFEST: &str = "[workspace]\nmembers = [\".\"]\n\n[workspace.metadata.kubegen]\nproject = \"shop\"\ndomain = \"example.com\"\n\n# clients\n[workspace.metadata.kubegen.clients]\nlanguages = [\"go\"]\n";

    #[test]
    fn the_record_gains_replaces_and_keeps_its_line() {
        let on = with_namespaced(MANIFEST, true).unwrap();
        assert!(on.contains("domain = \"example.com\"\nnamespaced = true\n\n# clients\n"), "{on}");
        let off = with_namespaced(&on, false).unwrap();
        assert_eq!(
            off,
            MANIFEST.replace("domain = \"example.com\"\n", "domain = \"example.com\"\nnamespaced = false\n")
        );
        assert_eq!(with_namespaced(&on, true).unwrap(), on);
        let err = with_namespaced("[package]\nname = \"x\"\n", true).unwrap_err().to_string();
        assert!(err.contains("[workspace.metadata.kubegen]"), "{err}");
    }

    #[test]
    fn scaffolded_files_follow_unless_edited() {
        let dir = std::env::temp_dir().join(format!("kubegen-edit-{}", std::process::id()));
        let config = dir.join("config");
        std::fs::create_dir_all(config.join("rbac")).unwrap();
        std::fs::create_dir_all(config.join("manager")).unwrap();
        std::fs::write(dir.join("Cargo.toml"), MANIFEST).unwrap();
        let [(binding, cluster_binding), (manager, _)] = layout::scope_files("manager-role", false).unwrap();
        std::fs::write(config.join(binding), &cluster_binding).unwrap();
        std::fs::write(config.join(manager), "# mine\n").unwrap();
        let edited = namespaced(&dir, &config, true).unwrap();
        let binding_text = std::fs::read_to_string(config.join(binding)).unwrap();
        assert!(binding_text.contains("kind: RoleBinding") && binding_text.contains("kind: Role\n"), "{binding_text}");
        assert_eq!(std::fs::read_to_string(config.join(manager)).unwrap(), "# mine\n");
        assert_eq!(edited.by_hand.len(), 1);
        assert!(edited.by_hand[0].1.contains("--namespace=$(POD_NAMESPACE)"));
        assert!(std::fs::read_to_string(dir.join("Cargo.toml")).unwrap().contains("namespaced = true"));
        assert!(!edited.unchanged);
        assert!(namespaced(&dir, &config, true).unwrap().unchanged);
        let back = namespaced(&dir, &config, false).unwrap();
        assert_eq!(std::fs::read_to_string(config.join(binding)).unwrap(), cluster_binding);
        assert!(!back.unchanged);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
