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
    pub by_hand: Vec<(PathBuf, String)>,
}

/// The line of the record, in `[workspace.metadata.kubegen]`.
const KEY: &str = "namespaced";

/// Whether `line` is the header of `[workspace.metadata.kubegen]`, however spaced, quoted
/// or followed by a comment.
fn is_header(line: &str) -> bool {
    let code = line.split('#').next().unwrap_or_default().trim();
    let Some(inner) = code.strip_prefix('[').and_then(|c| c.strip_suffix(']')) else { return false };
    !inner.starts_with('[')
        && inner.split('.').map(|p| p.trim().trim_matches('"')).eq(["workspace", "metadata", "kubegen"])
}

/// The comment `init --namespaced` writes above the key.
const INIT_COMMENT: [&str; 2] = [
    "# A namespace-scoped manager: it watches its own namespace, and the RBAC markers' rules",
    "# become a Role and a RoleBinding there (`codegen-cli edit --namespaced=false` undoes it).",
];

/// `manifest` (the root Cargo.toml's text) saying `namespaced = <value>` in its
/// `[workspace.metadata.kubegen]` table: the line replaced (its comment kept), or added
/// after the table's last key; line endings as they were. The result is parsed back.
fn with_namespaced(manifest: &str, value: bool) -> Result<String> {
    let parsed: toml::Table = toml::from_str(manifest).context("it does not parse as TOML")?;
    let declared = parsed.get("workspace").and_then(|w| w.get("metadata")).and_then(|m| m.get("kubegen")).is_some();
    let mut lines: Vec<String> = manifest.lines().map(str::to_string).collect();
    let Some(header) = lines.iter().position(|l| is_header(l)) else {
        if declared {
            bail!(
                "its [workspace.metadata.kubegen] is not written as a table header this command edits: add `{KEY} = {value}` to it by hand"
            );
        }
        bail!(
            "it has no [workspace.metadata.kubegen] table (`codegen-cli init` writes one): add one with `{KEY} = {value}`"
        );
    };
    let end = lines[header + 1..]
        .iter()
        .position(|l| l.trim_start().starts_with('['))
        .map_or(lines.len(), |i| header + 1 + i);
    let is_key = |l: &str| l.split('=').next().is_some_and(|k| k.trim().trim_matches('"') == KEY) && l.contains('=');
    match (header + 1..end).find(|&i| is_key(&lines[i])) {
        Some(i) => {
            let comment = lines[i].split_once('#').map(|(_, c)| format!(" #{c}")).unwrap_or_default();
            lines[i] = format!("{KEY} = {value}{comment}");
            // `init --namespaced`'s comment says what `true` does: gone with it.
            if !value && i >= 2 && lines[i - 2] == INIT_COMMENT[0] && lines[i - 1] == INIT_COMMENT[1] {
                lines.drain(i - 2..i);
            }
        }
        None => {
            // After the table's last key, before the blank lines and comments that lead the next table.
            let last = (header + 1..end)
                .rev()
                .find(|&i| !lines[i].trim().is_empty() && !lines[i].trim_start().starts_with('#'));
            lines.insert(last.unwrap_or(header) + 1, format!("{KEY} = {value}"));
        }
    }
    let mut text = lines.join(if manifest.contains("\r\n") { "\r\n" } else { "\n" });
    if manifest.ends_with('\n') {
        text.push_str(if manifest.ends_with("\r\n") { "\r\n" } else { "\n" });
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
fn by_hand(file: &str, namespaced: bool, role_name: &str) -> String {
    match (file, namespaced) {
        ("rbac/role_binding.yaml", true) => {
            format!("make it a RoleBinding (namespace: system) whose roleRef is the Role {role_name}")
        }
        ("rbac/role_binding.yaml", false) => {
            format!("make it a ClusterRoleBinding (no namespace) whose roleRef is the ClusterRole {role_name}")
        }
        (_, true) => "add `- --namespace=$(POD_NAMESPACE)` to the manager container's args".into(),
        (_, false) => "remove `--namespace=$(POD_NAMESPACE)` from the manager container's args".into(),
    }
}

/// Makes the project at `root` namespace-scoped (`namespaced`) or cluster-scoped; `config`
/// and `role_name` as `manifests` takes them (`--out`, `--role-name`). The record is
/// written first: a failure after it leaves files `manifests` and a second `edit` mend.
pub fn namespaced(root: &Path, config: &Path, role_name: &str, namespaced: bool) -> Result<Edited> {
    let manifest_path = root.join("Cargo.toml");
    let manifest =
        std::fs::read_to_string(&manifest_path).with_context(|| format!("reading {}", manifest_path.display()))?;
    let edited = with_namespaced(&manifest, namespaced).with_context(|| manifest_path.display().to_string())?;
    let mut outputs = Vec::new();
    if edited != manifest {
        outputs.push(Output::generated(manifest_path, edited));
    }
    let mut by_hands = Vec::new();
    let now = layout::scope_files(role_name, namespaced)?;
    let before = layout::scope_files(role_name, !namespaced)?;
    for ((file, text), (_, earlier)) in now.into_iter().zip(before) {
        let path = config.join(file);
        match std::fs::read_to_string(&path) {
            Ok(on_disk) if on_disk == text => {}
            Ok(on_disk) if on_disk == earlier => outputs.push(Output::generated(path, text)),
            // Absent: the next `manifests` scaffolds it as the record says.
            Err(_) => {}
            Ok(_) => by_hands.push((path, by_hand(file, namespaced, role_name))),
        }
    }
    crate::output::write(&outputs)?;
    Ok(Edited { written: outputs.into_iter().map(|o| o.path).collect(), by_hand: by_hands })
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
        // CRLF kept, a spaced header with a comment found, a key's comment kept.
        let crlf = "[ workspace.metadata.kubegen ] # ours\r\nproject = \"shop\"\r\nnamespaced = false # was\r\n";
        assert_eq!(
            with_namespaced(crlf, true).unwrap(),
            "[ workspace.metadata.kubegen ] # ours\r\nproject = \"shop\"\r\nnamespaced = true # was\r\n"
        );
        // Declared inline: said so, nothing guessed.
        let inline = "[workspace]\nmetadata = { kubegen = { project = \"shop\" } }\n";
        assert!(with_namespaced(inline, true).unwrap_err().to_string().contains("by hand"));
        // init --namespaced's comment goes with `true`.
        let init = format!(
            "[workspace.metadata.kubegen]\nproject = \"shop\"\n{}\n{}\nnamespaced = true\n",
            INIT_COMMENT[0], INIT_COMMENT[1]
        );
        assert_eq!(
            with_namespaced(&init, false).unwrap(),
            "[workspace.metadata.kubegen]\nproject = \"shop\"\nnamespaced = false\n"
        );
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
        let edited = namespaced(&dir, &config, "manager-role", true).unwrap();
        let binding_text = std::fs::read_to_string(config.join(binding)).unwrap();
        assert!(binding_text.contains("kind: RoleBinding") && binding_text.contains("kind: Role\n"), "{binding_text}");
        assert_eq!(std::fs::read_to_string(config.join(manager)).unwrap(), "# mine\n");
        assert_eq!(edited.by_hand.len(), 1);
        assert!(edited.by_hand[0].1.contains("--namespace=$(POD_NAMESPACE)"));
        assert!(std::fs::read_to_string(dir.join("Cargo.toml")).unwrap().contains("namespaced = true"));
        assert!(!edited.written.is_empty());
        assert!(namespaced(&dir, &config, "manager-role", true).unwrap().written.is_empty());
        let back = namespaced(&dir, &config, "manager-role", false).unwrap();
        assert_eq!(std::fs::read_to_string(config.join(binding)).unwrap(), cluster_binding);
        assert!(!back.written.is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
