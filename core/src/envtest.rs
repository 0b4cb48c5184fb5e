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
    // Go's names, which envtest's archives and setup-envtest's store use.
    let os = match std::env::consts::OS {
        "macos" => "darwin",
        other => other,
    };
    format!("{os}-{arch}")
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

/// What a control plane started by [`launch`] writes in its directory: its data, keys,
/// certificates, logs and kubeconfig. A directory holding anything else was not ours.
pub const PLANE_ENTRIES: &[&str] = &["etcd", "certs", "pki", "etcd.log", "kube-apiserver.log", "kubeconfig"];

/// etcd and kube-apiserver started by [`launch`], and what a client needs of them.
pub struct Plane {
    pub etcd: std::process::Child,
    pub apiserver: std::process::Child,
    /// The API server's port on 127.0.0.1.
    pub port: u16,
    /// A bearer token in `system:masters`.
    pub token: String,
    /// The serving certificate the API server writes at start (the client's CA).
    pub cert: PathBuf,
}

/// Why [`launch`] failed.
#[derive(Debug, thiserror::Error)]
pub enum LaunchError {
    #[error("{what}: {source}")]
    Io { what: String, source: std::io::Error },
    #[error("`openssl` failed to make the service-account key: {0}")]
    Openssl(String),
}

fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> LaunchError {
    let what = what.into();
    move |source| LaunchError::Io { what, source }
}

/// A free port on 127.0.0.1.
pub fn free_port() -> std::io::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// Starts etcd and kube-apiserver in `dir` (their data, keys, certificates and logs go
/// there, [`PLANE_ENTRIES`]) on free loopback ports: RBAC on, a token in
/// `system:masters`, service-account keys made with `openssl`. `detached`: in a process
/// group of their own, so they outlive the caller and its terminal's signals (a local
/// cluster); else they are the caller's children to kill. Returns once both are
/// spawned; the API server is ready when [`Plane::cert`] exists and it answers.
pub fn launch(etcd_bin: &Path, apiserver_bin: &Path, dir: &Path, detached: bool) -> Result<Plane, LaunchError> {
    use std::process::{Command, Stdio};
    for sub in ["etcd", "certs", "pki"] {
        std::fs::create_dir_all(dir.join(sub)).map_err(io(format!("creating {}", dir.join(sub).display())))?;
    }
    // A `system:masters` token: random, in files only their owner reads.
    let mut random = [0u8; 16];
    std::io::Read::read_exact(
        &mut std::fs::File::open("/dev/urandom").map_err(io("reading /dev/urandom"))?,
        &mut random,
    )
    .map_err(io("reading /dev/urandom"))?;
    let token: String = random.iter().map(|b| format!("{b:02x}")).collect();
    private_write(&dir.join("pki/tokens.csv"), &format!("{token},admin,admin,\"system:masters\"\n"))
        .map_err(io("writing the token file"))?;
    let key = dir.join("pki/sa.key");
    let openssl = |args: &[&std::ffi::OsStr]| -> Result<(), LaunchError> {
        let out = Command::new("openssl").args(args).output().map_err(io("running openssl"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(LaunchError::Openssl(String::from_utf8_lossy(&out.stderr).into()))
        }
    };
    let os = std::ffi::OsStr::new;
    openssl(&[
        os("genpkey"),
        os("-algorithm"),
        os("RSA"),
        os("-pkeyopt"),
        os("rsa_keygen_bits:2048"),
        os("-out"),
        key.as_os_str(),
    ])?;
    let public = dir.join("pki/sa.pub");
    openssl(&[os("pkey"), os("-pubout"), os("-in"), key.as_os_str(), os("-out"), public.as_os_str()])?;

    let port = |what: &str| free_port().map_err(io(format!("finding a free port for {what}")));
    let (etcd_port, peer_port, api_port) = (port("etcd")?, port("etcd's peers")?, port("kube-apiserver")?);
    let log = |name: &str| std::fs::File::create(dir.join(name)).map_err(io(format!("creating {name}")));
    let group = |command: &mut Command| {
        if detached {
            use std::os::unix::process::CommandExt;
            command.process_group(0);
        }
    };
    let mut etcd = Command::new(etcd_bin);
    etcd.arg("--name=testenv")
        .arg(format!("--data-dir={}", dir.join("etcd").display()))
        .arg(format!("--listen-client-urls=http://127.0.0.1:{etcd_port}"))
        .arg(format!("--advertise-client-urls=http://127.0.0.1:{etcd_port}"))
        .arg(format!("--listen-peer-urls=http://127.0.0.1:{peer_port}"))
        .arg(format!("--initial-advertise-peer-urls=http://127.0.0.1:{peer_port}"))
        .arg(format!("--initial-cluster=testenv=http://127.0.0.1:{peer_port}"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log("etcd.log")?);
    group(&mut etcd);
    let etcd = etcd.spawn().map_err(io(format!("starting {}", etcd_bin.display())))?;
    let mut apiserver = Command::new(apiserver_bin);
    apiserver
        .arg(format!("--etcd-servers=http://127.0.0.1:{etcd_port}"))
        .args(["--bind-address=127.0.0.1", "--advertise-address=127.0.0.1"])
        .arg(format!("--secure-port={api_port}"))
        .arg(format!("--cert-dir={}", dir.join("certs").display()))
        .arg(format!("--token-auth-file={}", dir.join("pki/tokens.csv").display()))
        .arg("--authorization-mode=RBAC")
        .arg("--service-account-issuer=https://kubernetes.default.svc")
        .arg(format!("--service-account-key-file={}", public.display()))
        .arg(format!("--service-account-signing-key-file={}", key.display()))
        // The `kubernetes` Service's endpoint would be 127.0.0.1, which validation refuses.
        .args(["--service-cluster-ip-range=10.0.0.0/24", "--endpoint-reconciler-type=none"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log("kube-apiserver.log")?);
    group(&mut apiserver);
    let apiserver = match apiserver.spawn() {
        Ok(child) => child,
        Err(e) => {
            let mut etcd = etcd;
            let _ = etcd.kill();
            let _ = etcd.wait();
            return Err(io(format!("starting {}", apiserver_bin.display()))(e));
        }
    };
    Ok(Plane { etcd, apiserver, port: api_port, token, cert: dir.join("certs/apiserver.crt") })
}

/// Writes `text` to `path`, readable by its owner alone (a token, a kubeconfig holding one).
pub fn private_write(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new().write(true).create(true).truncate(true).mode(0o600).open(path)?;
    file.write_all(text.as_bytes())
}

/// A kubeconfig for [`Plane`]'s API server and token (context `envtest`, namespace
/// `default`).
pub fn kubeconfig(port: u16, cert: &Path, token: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: envtest\n  cluster:\n    server: https://127.0.0.1:{port}\n    certificate-authority: {}\ncontexts:\n- name: envtest\n  context: {{cluster: envtest, user: admin, namespace: default}}\ncurrent-context: envtest\nusers:\n- name: admin\n  user: {{token: {token}}}\n",
        cert.display()
    )
}

/// The last lines of a log, for an error.
pub fn log_tail(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(20)..].join("\n")
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
