//! Where the running `codegen-cli` was installed from, as cargo recorded it: `cargo
//! install` writes each package's source into `.crates2.json` at the install root (the
//! directory above `bin/`). `init` depends on kubegen the same way, so a CLI installed
//! from a fork's git repository scaffolds workspaces on that fork, at that revision.

use std::path::Path;

use serde::Deserialize;

use crate::scaffold::Source;

#[derive(Deserialize)]
struct Installs {
    installs: std::collections::BTreeMap<String, Install>,
}

#[derive(Deserialize)]
struct Install {
    #[serde(default)]
    bins: Vec<String>,
}

/// The source cargo recorded for the binary at `exe`, if cargo installed it.
pub fn of_binary(exe: &Path) -> Option<Source> {
    let name = exe.file_name()?.to_str()?;
    let root = exe.parent()?.parent()?;
    let text = std::fs::read_to_string(root.join(".crates2.json")).ok()?;
    let installs: Installs = serde_json::from_str(&text).ok()?;
    let (key, _) = installs.installs.iter().find(|(_, i)| i.bins.iter().any(|b| b == name))?;
    parse_key(key)
}

/// A `.crates2.json` key: `codegen-cli 0.1.0 (git+https://host/repo?branch=main#0123abc)`,
/// `(path+file:///checkout/codegen-cli)` or `(registry+https://...)`.
fn parse_key(key: &str) -> Option<Source> {
    let mut words = key.splitn(3, ' ');
    let (_package, version, source) = (words.next()?, words.next()?, words.next()?);
    let source = source.strip_prefix('(')?.strip_suffix(')')?;
    if let Some(git) = source.strip_prefix("git+") {
        let (url, rev) = git.split_once('#').unwrap_or((git, ""));
        let (url, query) = url.split_once('?').unwrap_or((url, ""));
        let named = query.split('&').filter_map(|kv| kv.split_once('=')).find_map(|(k, v)| match k {
            "branch" => Some(("branch", v.to_string())),
            "tag" => Some(("tag", v.to_string())),
            "rev" => Some(("rev", v.to_string())),
            _ => None,
        });
        // A branch moves; the commit cargo built is what this CLI is.
        let reference = match named {
            Some(("tag", tag)) => Some(("tag", tag)),
            _ if !rev.is_empty() => Some(("rev", rev.to_string())),
            other => other,
        };
        return Some(Source::Git { url: url.to_string(), reference });
    }
    if let Some(path) = source.strip_prefix("path+file://") {
        // The package is `codegen-cli/` in the checkout.
        let dir = Path::new(path);
        let root = dir.parent().filter(|r| r.join("kubegen/Cargo.toml").exists()).unwrap_or(dir);
        return Some(Source::Path(root.to_path_buf()));
    }
    if source.starts_with("registry+") || source.starts_with("sparse+") {
        return Some(Source::Version(version.to_string()));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(s: Option<Source>) -> String {
        match s {
            Some(Source::Git { url, reference }) => format!("git {url} {reference:?}"),
            Some(Source::Path(p)) => format!("path {}", p.display()),
            Some(Source::Version(v)) => format!("version {v}"),
            None => "none".into(),
        }
    }

    #[test]
    fn cargo_install_sources_are_read_as_init_writes_them() {
        assert_eq!(
            shown(parse_key("codegen-cli 0.1.0 (git+https://example.com/fork/kubegen#0123abcd)")),
            r#"git https://example.com/fork/kubegen Some(("rev", "0123abcd"))"#
        );
        assert_eq!(
            shown(parse_key("codegen-cli 0.1.0 (git+https://example.com/fork/kubegen?branch=dev#0123abcd)")),
            r#"git https://example.com/fork/kubegen Some(("rev", "0123abcd"))"#
        );
        assert_eq!(
            shown(parse_key("codegen-cli 0.1.0 (git+https://example.com/fork/kubegen?tag=v0.1.0#0123abcd)")),
            r#"git https://example.com/fork/kubegen Some(("tag", "v0.1.0"))"#
        );
        assert_eq!(
            shown(parse_key("codegen-cli 0.2.0 (registry+https://github.com/rust-lang/crates.io-index)")),
            "version 0.2.0"
        );
        assert_eq!(
            shown(parse_key("codegen-cli 0.1.0 (path+file:///no/such/codegen-cli)")),
            "path /no/such/codegen-cli"
        );
    }

    #[test]
    fn the_install_root_is_read_beside_bin() {
        let root = std::env::temp_dir().join(format!("kubegen-install-{}", std::process::id()));
        std::fs::create_dir_all(root.join("bin")).expect("bin/");
        std::fs::write(
            root.join(".crates2.json"),
            r#"{"installs": {"codegen-cli 0.1.0 (git+file:///srv/kubegen#feedbeef)": {"bins": ["codegen-cli"]}}}"#,
        )
        .expect(".crates2.json");
        assert_eq!(
            shown(of_binary(&root.join("bin/codegen-cli"))),
            r#"git file:///srv/kubegen Some(("rev", "feedbeef"))"#
        );
        assert_eq!(shown(of_binary(&root.join("bin/other"))), "none");
        std::fs::remove_dir_all(&root).expect("cleanup");
    }
}
