//! The store of test-environment binaries: `codegen-cli envtest` writes it and
//! `kubegen::testenv` reads it. One directory per Kubernetes release,
//! `<root>/k8s/<version>-<os>-<arch>/`, holding `etcd` and `kube-apiserver` — the layout
//! setup-envtest gives its own store, so either directory works as `KUBEBUILDER_ASSETS`.

use std::fmt;
use std::path::{Path, PathBuf};

/// The variable that moves the store (default `$XDG_DATA_HOME/kubegen/envtest`, else
/// `~/.local/share/kubegen/envtest`).
pub const ROOT_VAR: &str = "KUBEGEN_ENVTEST_DIR";

/// What a release's directory holds: what the test environment starts.
pub const BINARIES: [&str; 2] = ["etcd", "kube-apiserver"];

/// The store's root: `$KUBEGEN_ENVTEST_DIR`, else under the XDG data directory; `None`
/// when neither that nor `$HOME` is set.
pub fn root() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    var(ROOT_VAR)
        .or_else(|| var("XDG_DATA_HOME").map(|d| d.join("kubegen/envtest")))
        .or_else(|| var("HOME").map(|h| h.join(".local/share/kubegen/envtest")))
}

/// A Kubernetes release, `1.MINOR.PATCH`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Release {
    pub minor: u32,
    pub patch: u32,
}

impl fmt::Display for Release {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "1.{}.{}", self.minor, self.patch)
    }
}

/// A release as a user asks for it: `1.37`, `1.37.2`, `v1.37.2`; the patch is `None`
/// when left out (then the newest patch release is meant).
pub fn parse_release(text: &str) -> Option<(u32, Option<u32>)> {
    let text = text.strip_prefix('v').unwrap_or(text);
    let mut parts = text.split('.');
    let number = |p: Option<&str>| {
        p.filter(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())).and_then(|p| p.parse().ok())
    };
    if parts.next() != Some("1") {
        return None;
    }
    let minor = number(parts.next())?;
    let patch = match parts.next() {
        None => None,
        some => Some(number(some)?),
    };
    parts.next().is_none().then_some((minor, patch))
}

/// This machine's platform in Go's spelling (`linux-amd64`, `darwin-arm64`), the suffix
/// of a release's directory.
pub fn platform() -> String {
    let arch = match std::env::consts::ARCH {
        "x86_64" => "amd64",
        "aarch64" => "arm64",
        "x86" => "386",
        "powerpc64" => "ppc64le",
        other => other,
    };
    format!("{}-{arch}", std::env::consts::OS)
}

/// The directory of `release` in the store at `root`.
pub fn release_dir(root: &Path, release: Release) -> PathBuf {
    root.join("k8s").join(format!("{release}-{}", platform()))
}

/// The complete releases in the store at `root` for this platform (every binary
/// present), oldest first.
pub fn installed(root: &Path) -> Vec<(Release, PathBuf)> {
    let suffix = format!("-{}", platform());
    let Ok(entries) = std::fs::read_dir(root.join("k8s")) else { return Vec::new() };
    let mut found: Vec<(Release, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            let (minor, Some(patch)) = parse_release(name.strip_suffix(&suffix)?)? else { return None };
            let dir = entry.path();
            BINARIES.iter().all(|b| dir.join(b).is_file()).then_some((Release { minor, patch }, dir))
        })
        .collect();
    found.sort();
    found
}

/// What the store at `root` holds, for a message: its releases (`1.35.4, 1.37.2`), or
/// `nothing`.
pub fn contents(root: &Path) -> String {
    let releases: Vec<String> = installed(root).iter().map(|(r, _)| r.to_string()).collect();
    if releases.is_empty() { "nothing".to_string() } else { releases.join(", ") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn releases_parse_as_users_write_them() {
        assert_eq!(parse_release("1.37"), Some((37, None)));
        assert_eq!(parse_release("1.37.2"), Some((37, Some(2))));
        assert_eq!(parse_release("v1.35.4"), Some((35, Some(4))));
        for bad in ["", "1", "2.1", "1.x", "1.37.", "1.37.2.1", "1.-3"] {
            assert_eq!(parse_release(bad), None, "{bad}");
        }
    }

    #[test]
    fn installed_lists_complete_releases_of_this_platform_oldest_first() {
        let root = std::env::temp_dir().join(format!("kubegen-envtest-store-{}", std::process::id()));
        let complete = |r: Release| {
            let dir = release_dir(&root, r);
            std::fs::create_dir_all(&dir).unwrap();
            for b in BINARIES {
                std::fs::write(dir.join(b), "").unwrap();
            }
            dir
        };
        let new = complete(Release { minor: 37, patch: 2 });
        let old = complete(Release { minor: 35, patch: 4 });
        std::fs::create_dir_all(release_dir(&root, Release { minor: 36, patch: 0 })).unwrap(); // no binaries
        std::fs::create_dir_all(root.join("k8s/1.38.0-plan9-mips")).unwrap();
        let found = installed(&root);
        std::fs::remove_dir_all(&root).unwrap();
        assert_eq!(found, vec![(Release { minor: 35, patch: 4 }, old), (Release { minor: 37, patch: 2 }, new)]);
    }
}
