//! `codegen-cli envtest`: kubegen's setup-envtest. Puts etcd and kube-apiserver of one
//! Kubernetes release into the store `kubegen::testenv` reads (kubegen-core's
//! `envtest`), and prints the directory for `KUBEBUILDER_ASSETS`.
//!
//! kube-apiserver is built from the `k8s.io/kubernetes` Go module through a wrapper
//! module, as `scripts/kube-apiserver.sh` does: the kubernetes module replaces its
//! staging modules (`k8s.io/api`, ...) with directories a requiring module cannot see,
//! so the wrapper pins each to its published `v0.MINOR.PATCH`. etcd is copied from the
//! PATH when there is one, else built from the `go.etcd.io/etcd/server/v3` module at the
//! version Kubernetes requires. A release is built in a directory of its own beside the
//! store's and renamed into place when complete: the store never holds half a release.
//! The build uses Go's own module and build caches (`go env GOMODCACHE GOCACHE`), as
//! `scripts/kube-apiserver.sh` does: modules already downloaded are not fetched again, and
//! a release built once (by either) compiles nothing the second time. `go clean -cache
//! -modcache` gives their space back.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use kubegen_core::envtest::{self, Release};

#[derive(Args)]
#[command(args_conflicts_with_subcommands = false)]
pub struct EnvtestArgs {
    #[command(subcommand)]
    action: Option<Action>,
    /// The Kubernetes release: `1.37` (its newest patch release) or `1.37.2`. Default: the
    /// release this codegen-cli was built for.
    #[arg(long, value_name = "VERSION", global = true)]
    version: Option<String>,
    /// The store's directory. Default: $KUBEGEN_ENVTEST_DIR, else
    /// $XDG_DATA_HOME/kubegen/envtest, else ~/.local/share/kubegen/envtest.
    #[arg(long, value_name = "DIR", global = true)]
    bin_dir: Option<PathBuf>,
    /// What to print: the release's directory, or a shell line that exports it as
    /// KUBEBUILDER_ASSETS.
    #[arg(short, long, value_enum, default_value_t = Print::Path)]
    print: Print,
    /// Use only what the store holds; never build.
    #[arg(short, long)]
    installed_only: bool,
    /// The index of prebuilt envtest archives to try before building (setup-envtest's:
    /// controller-tools' envtest-releases.yaml); `none` always builds. Default:
    /// $KUBEGEN_ENVTEST_INDEX, else controller-tools' index on GitHub.
    #[arg(long, value_name = "URL", global = true)]
    index: Option<String>,
}

/// controller-tools' index of envtest archives, which setup-envtest reads.
const DEFAULT_INDEX: &str =
    "https://raw.githubusercontent.com/kubernetes-sigs/controller-tools/HEAD/envtest-releases.yaml";

/// The variable that moves the index (`none`: always build).
const INDEX_VAR: &str = "KUBEGEN_ENVTEST_INDEX";

#[derive(Clone, Copy, ValueEnum)]
enum Print {
    Path,
    Env,
}

/// A local cluster for the daily loop (`make install run` against it).
#[derive(clap::Subcommand)]
enum Action {
    /// Start etcd and kube-apiserver of the release (built or found as without a
    /// subcommand) in DIR, running on after this command; print `export KUBECONFIG=...`.
    /// Running already: print it again.
    Start(ClusterArgs),
    /// Stop the cluster `start` left in DIR and remove what it wrote there (nothing else).
    Stop(ClusterArgs),
}

#[derive(Args)]
struct ClusterArgs {
    /// The cluster's directory: its data, logs, certificates and kubeconfig.
    #[arg(long, value_name = "DIR", default_value = "target/kubegen/cluster")]
    dir: PathBuf,
}

/// What `start` writes into its directory beside the control plane's own entries: the
/// processes to stop, and the proof that the directory is a cluster of ours.
const CLUSTER_FILE: &str = "kubegen-cluster.json";

#[derive(serde::Serialize, serde::Deserialize)]
struct Cluster {
    etcd: u32,
    apiserver: u32,
    port: u16,
    release: String,
}

fn log(message: impl std::fmt::Display) {
    eprintln!("[envtest] {message}");
}

pub fn run(args: EnvtestArgs) -> Result<ExitCode> {
    if let Some(Action::Stop(cluster)) = &args.action {
        return stop(&cluster.dir);
    }
    let root = match args.bin_dir {
        Some(dir) => dir,
        None => envtest::root().with_context(|| {
            format!("no place for the store: set ${} or HOME, or pass --bin-dir", envtest::ROOT_VAR)
        })?,
    };
    let wanted = wanted(args.version.as_deref())?;
    let dir = match in_store(&root, wanted) {
        Some(dir) => dir,
        None if args.installed_only => {
            bail!(
                "{} is not in the store at {} (it holds {}); run without --installed-only to build it",
                shown(wanted),
                root.display(),
                envtest::contents(&root)
            );
        }
        None => {
            let index = args.index.or_else(|| std::env::var(INDEX_VAR).ok()).unwrap_or_else(|| DEFAULT_INDEX.into());
            match download(&root, wanted, &index)? {
                Some(dir) => dir,
                None => install(&root, wanted)?,
            }
        }
    };
    if let Some(Action::Start(cluster)) = &args.action {
        return start(&dir, &cluster.dir);
    }
    match args.print {
        Print::Path => println!("{}", dir.display()),
        Print::Env => println!("export KUBEBUILDER_ASSETS='{}'", dir.display()),
    }
    Ok(ExitCode::SUCCESS)
}

/// Whether process `pid` runs (not a zombie) and is one `start` made in `dir`: its command
/// line names the directory (etcd's data, the API server's certificates), so a process
/// that took the number since (after a reboot) is left alone. Without /proc, whether a
/// process of that number runs.
fn ours(pid: u32, dir: &Path) -> bool {
    if !Path::new("/proc").is_dir() {
        return Command::new("kill").args(["-0", &pid.to_string()]).status().is_ok_and(|s| s.success());
    }
    let running = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|stat| stat.rsplit(')').next().is_some_and(|rest| !rest.trim_start().starts_with('Z')));
    let command = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    running && String::from_utf8_lossy(&command).contains(&*dir.to_string_lossy())
}

fn read_cluster(dir: &Path) -> Option<Cluster> {
    serde_json::from_slice(&std::fs::read(dir.join(CLUSTER_FILE)).ok()?).ok()
}

fn export_line(dir: &Path) -> Result<String> {
    let kubeconfig = std::path::absolute(dir.join("kubeconfig")).context("the kubeconfig's path")?;
    Ok(format!("export KUBECONFIG='{}'", kubeconfig.display()))
}

/// `envtest start`: etcd and kube-apiserver from `assets` in `dir`, detached.
fn start(assets: &Path, dir: &Path) -> Result<ExitCode> {
    // Absolute: the kubeconfig names the CA by path, which kubectl reads relative to the
    // kubeconfig's own directory.
    let dir = &std::path::absolute(dir).with_context(|| format!("the path of {}", dir.display()))?;
    let recorded = read_cluster(dir);
    if let Some(running) = recorded.as_ref().filter(|c| ours(c.etcd, dir) && ours(c.apiserver, dir)) {
        log(format_args!("{} runs already in {} (port {})", running.release, dir.display(), running.port));
        println!("{}", export_line(dir)?);
        return Ok(ExitCode::SUCCESS);
    }
    if recorded.is_some() {
        // Ours, stopped or half running (a reboot, a kill): whatever still runs stops, what
        // it wrote goes, then it starts afresh.
        stop(dir)?;
    }
    let foreign = entries(dir);
    if !foreign.is_empty() {
        bail!(
            "{} holds files `envtest start` did not write ({}); pass another --dir, or empty it",
            dir.display(),
            foreign.join(", ")
        );
    }
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    // `1.37.2` of the store's `1.37.2-linux-amd64`.
    let release = assets.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let release = release.split('-').next().unwrap_or_default().to_string();
    log(format_args!("starting etcd and kube-apiserver {release} in {}", dir.display()));
    let mut plane = match envtest::launch(&assets.join("etcd"), &assets.join("kube-apiserver"), dir, true) {
        Ok(plane) => plane,
        Err(e) => {
            // What `launch` made before it failed is ours to take back.
            let _ = remove_cluster_entries(dir);
            return Err(e.into());
        }
    };
    let cluster =
        Cluster { etcd: plane.etcd.id(), apiserver: plane.apiserver.id(), port: plane.port, release: release.clone() };
    if let Err(e) = std::fs::write(dir.join(CLUSTER_FILE), serde_json::to_vec_pretty(&cluster)?) {
        // Without the record nothing could stop them later: stop them now.
        let _ = plane.apiserver.kill();
        let _ = plane.etcd.kill();
        let _ = (plane.apiserver.wait(), plane.etcd.wait());
        let _ = remove_cluster_entries(dir);
        return Err(e).with_context(|| format!("writing {}", dir.join(CLUSTER_FILE).display()));
    }
    let ready = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting an async runtime")?
        .block_on(kubegen::testenv::ready(&mut plane.apiserver, dir, plane.port, &plane.cert, &plane.token));
    if let Err(e) = ready {
        let _ = stop(dir);
        return Err(e.into());
    }
    log(format_args!(
        "kube-apiserver {release} serves https://127.0.0.1:{} (logs in {}); `codegen-cli envtest stop --dir {}` stops it",
        plane.port,
        dir.display(),
        dir.display()
    ));
    println!("{}", export_line(dir)?);
    Ok(ExitCode::SUCCESS)
}

/// The names in `dir` (none when it does not exist): what a command that owns a
/// directory checks before it writes there.
pub(crate) fn entries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect()
}

/// `envtest stop`: the processes `start` recorded in `dir`, then what it wrote there.
fn stop(dir: &Path) -> Result<ExitCode> {
    let dir = &std::path::absolute(dir).with_context(|| format!("the path of {}", dir.display()))?;
    let Some(cluster) = read_cluster(dir) else {
        log(format_args!("no cluster to stop in {} (no {CLUSTER_FILE}); nothing touched", dir.display()));
        return Ok(ExitCode::SUCCESS);
    };
    for (name, pid) in [("kube-apiserver", cluster.apiserver), ("etcd", cluster.etcd)] {
        if !ours(pid, dir) {
            continue;
        }
        let _ = Command::new("kill").arg(pid.to_string()).status();
        let since = std::time::Instant::now();
        while ours(pid, dir) && since.elapsed() < std::time::Duration::from_secs(10) {
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        if ours(pid, dir) {
            let _ = Command::new("kill").args(["-KILL", &pid.to_string()]).status();
        }
        log(format_args!("stopped {name} (pid {pid})"));
    }
    remove_cluster_entries(dir)?;
    log(format_args!("removed what `envtest start` wrote in {}", dir.display()));
    Ok(ExitCode::SUCCESS)
}

/// Removes the entries a cluster wrote in `dir`, then `dir` if nothing else is left.
fn remove_cluster_entries(dir: &Path) -> Result<()> {
    for entry in envtest::PLANE_ENTRIES.iter().chain([&CLUSTER_FILE]) {
        let path = dir.join(entry);
        let removed = if path.is_dir() { std::fs::remove_dir_all(&path) } else { std::fs::remove_file(&path) };
        if let Err(e) = removed
            && e.kind() != std::io::ErrorKind::NotFound
        {
            return Err(e).with_context(|| format!("removing {}", path.display()));
        }
    }
    let _ = std::fs::remove_dir(dir);
    Ok(())
}

/// The release asked for, as (minor, patch); by default the release of the Kubernetes
/// API modules this binary was built against (`v0.37.2` is Kubernetes 1.37.2).
fn wanted(version: Option<&str>) -> Result<(u32, Option<u32>)> {
    match version {
        Some(text) => envtest::parse_release(text).with_context(|| {
            format!("--version {text}: write a Kubernetes release as 1.MINOR or 1.MINOR.PATCH, e.g. 1.37 or 1.37.2")
        }),
        None => built_for(),
    }
}

/// The release of the Kubernetes API modules this binary was built against (`v0.37.2`
/// is Kubernetes 1.37.2): the default of `envtest`, and of the scaffold's Makefile.
pub fn built_for() -> Result<(u32, Option<u32>)> {
    let module = kubegen::schema::K8S_MODULE_VERSION;
    envtest::parse_release(&module.replacen("v0.", "1.", 1))
        .with_context(|| format!("this build's Kubernetes module version {module} is not v0.MINOR.PATCH"))
}

fn shown((minor, patch): (u32, Option<u32>)) -> String {
    match patch {
        Some(patch) => format!("Kubernetes 1.{minor}.{patch}"),
        None => format!("Kubernetes 1.{minor}"),
    }
}

/// The newest release in the store that `wanted` names.
fn in_store(root: &Path, (minor, patch): (u32, Option<u32>)) -> Option<PathBuf> {
    envtest::installed(root)
        .into_iter()
        .rev()
        .find(|(r, _)| r.minor == minor && patch.is_none_or(|p| r.patch == p))
        .map(|(_, dir)| dir)
}

fn install(root: &Path, wanted: (u32, Option<u32>)) -> Result<PathBuf> {
    go(&["version"]).output().ok().filter(|o| o.status.success()).with_context(|| {
        format!(
            "building kube-apiserver of {} needs Go on the PATH (https://go.dev/dl); or point KUBEBUILDER_ASSETS at setup-envtest's binaries (`setup-envtest use {} -p path`)",
            shown(wanted),
            match wanted {
                (minor, Some(patch)) => format!("1.{minor}.{patch}"),
                (minor, None) => format!("1.{minor}.x"),
            }
        )
    })?;
    let (release, go_mod) = resolve(wanted)?;
    into_store(root, release, "building", |building| {
        build(building, release, &go_mod)?;
        std::fs::remove_dir_all(building.join("module")).with_context(|| format!("cleaning {}", building.display()))
    })
}

/// `release` in the store: found there, or made by `fill` in a directory of its own
/// beside the store's (`.<what>-<release>-<pid>`) and renamed into place when complete,
/// so the store never holds half a release; removed again when `fill` fails.
fn into_store(root: &Path, release: Release, what: &str, fill: impl FnOnce(&Path) -> Result<()>) -> Result<PathBuf> {
    if let Some(found) = in_store(root, (release.minor, Some(release.patch))) {
        return Ok(found);
    }
    let dir = envtest::release_dir(root, release);
    if dir.exists() {
        // Not a complete release (`in_store` would have found it), and not one this
        // command made (it renames only complete ones into place): not ours to replace.
        bail!(
            "{} exists without {}; remove it, or pass another --bin-dir",
            dir.display(),
            envtest::BINARIES.join(" and ")
        );
    }
    let parent = dir.parent().expect("a release's directory is under the store");
    std::fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
    let building = parent.join(format!(".{what}-{release}-{}", std::process::id()));
    let filled = fill(&building).and_then(|()| {
        std::fs::rename(&building, &dir).with_context(|| format!("moving the binaries to {}", dir.display()))
    });
    if let Err(e) = filled {
        let _ = std::fs::remove_dir_all(&building);
        return Err(e);
    }
    log(format_args!("{release} ready in {}", dir.display()));
    Ok(dir)
}

/// An index of envtest archives: per release (`v1.37.2`), per archive name, its SHA-512
/// and where it is.
#[derive(serde::Deserialize)]
struct Index {
    releases: std::collections::BTreeMap<String, std::collections::BTreeMap<String, Archive>>,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Archive {
    hash: String,
    self_link: String,
}

/// The release `wanted` names from the prebuilt archives of `index`, as setup-envtest
/// takes them: the newest matching release with an archive for this platform, checked
/// against its SHA-512 before anything is installed, unpacked beside the store and
/// renamed into place when complete. `None` (and the caller builds from source) when
/// the index is `none`, cannot be read, or has no such archive; an error when an archive
/// is found but its checksum or contents are wrong (nothing is installed then).
fn download(root: &Path, wanted: (u32, Option<u32>), index: &str) -> Result<Option<PathBuf>> {
    if index == "none" {
        return Ok(None);
    }
    log(format_args!("looking for a prebuilt archive of {} in {index}", shown(wanted)));
    let text = match fetch(index, None) {
        Ok(text) => text,
        Err(e) => {
            log(format_args!("no index ({e:#}); building from source"));
            return Ok(None);
        }
    };
    let parsed: Index = match serde_saphyr::from_str(&text) {
        Ok(parsed) => parsed,
        Err(e) => {
            log(format_args!("{index} is not an envtest index ({e}); building from source"));
            return Ok(None);
        }
    };
    let suffix = format!("-{}.tar.gz", envtest::platform());
    let mut found: Vec<(Release, &Archive)> = parsed
        .releases
        .iter()
        .filter_map(|(version, archives)| {
            let (minor, patch) = envtest::parse_release(version)?;
            let release = Release { minor, patch: patch? };
            let matches = minor == wanted.0 && wanted.1.is_none_or(|p| p == release.patch);
            let archive = archives.iter().find(|(name, _)| name.ends_with(&suffix)).map(|(_, a)| a)?;
            matches.then_some((release, archive))
        })
        .collect();
    found.sort_by_key(|(release, _)| *release);
    let Some((release, archive)) = found.pop() else {
        log(format_args!(
            "the index has no {} archive for {}; building from source",
            shown(wanted),
            envtest::platform()
        ));
        return Ok(None);
    };
    into_store(root, release, "downloading", |building| unpack(building, archive, release))
        .map(Some)
        .map_err(|e| e.context(format!("{release} from {}: nothing was installed", archive.self_link)))
}

/// `archive` into `dir` (which this call creates): downloaded, its SHA-512 checked, its
/// etcd and kube-apiserver taken out.
fn unpack(dir: &Path, archive: &Archive, release: Release) -> Result<()> {
    use sha2::Digest;
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let file = dir.join("envtest.tar.gz");
    log(format_args!("downloading {}", archive.self_link));
    let started = std::time::Instant::now();
    fetch(&archive.self_link, Some(&file))?;
    let bytes = std::fs::read(&file).with_context(|| format!("reading {}", file.display()))?;
    let digest: String = sha2::Sha512::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
    if !digest.eq_ignore_ascii_case(archive.hash.trim()) {
        bail!(
            "the archive's SHA-512 is {digest}, the index says {}: refusing it (`--index none` builds from source instead)",
            archive.hash.trim()
        );
    }
    log(format_args!("{} MB in {:.1} s, SHA-512 checked", bytes.len() / 1_000_000, started.elapsed().as_secs_f64()));
    let contents = dir.join("contents");
    std::fs::create_dir_all(&contents).with_context(|| format!("creating {}", contents.display()))?;
    let out = Command::new("tar").arg("-xzf").arg(&file).arg("-C").arg(&contents).output().context("running tar")?;
    if !out.status.success() {
        bail!("the archive does not unpack: {}", String::from_utf8_lossy(&out.stderr).trim());
    }
    for name in envtest::BINARIES {
        let found =
            find_file(&contents, name).with_context(|| format!("the archive of {release} holds no `{name}`"))?;
        std::fs::rename(&found, dir.join(name)).with_context(|| format!("moving {}", found.display()))?;
    }
    std::fs::remove_dir_all(&contents).with_context(|| format!("cleaning {}", contents.display()))?;
    std::fs::remove_file(&file).with_context(|| format!("cleaning {}", file.display()))?;
    Ok(())
}

/// The file `name` anywhere under `dir`.
fn find_file(dir: &Path, name: &str) -> Option<PathBuf> {
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if let Some(found) = find_file(&path, name) {
                return Some(found);
            }
        } else if path.file_name().is_some_and(|n| n == name) {
            return Some(path);
        }
    }
    None
}

/// `url` with curl: into `file`, or as text.
fn fetch(url: &str, file: Option<&Path>) -> Result<String> {
    let mut curl = Command::new("curl");
    // An index in seconds; an archive (about 100 MB) within ten minutes, or give up.
    let most = if file.is_some() { "600" } else { "30" };
    curl.args(["-fsSL", "--retry", "2", "--connect-timeout", "10", "--max-time", most]);
    if let Some(file) = file {
        curl.arg("-o").arg(file);
    }
    let out = curl.arg(url).output().context("running curl (to download prebuilt binaries)")?;
    if !out.status.success() {
        bail!("curl {url}: {}", String::from_utf8_lossy(&out.stderr).trim());
    }
    String::from_utf8(out.stdout).context("the index is not UTF-8")
}

/// The binaries are stripped (`-s -w`): compiling their packages without DWARF leaves them
/// as they are and the build cache a sixth smaller.
const NO_DWARF: &str = "-gcflags=all=-dwarf=false";

fn go(args: &[&str]) -> Command {
    let mut command = Command::new("go");
    command.args(args).env("GOFLAGS", "-mod=mod -buildvcs=false -modcacherw").env("CGO_ENABLED", "0");
    command
}

/// The exact release (the newest patch release when none is given) and the path of
/// `k8s.io/kubernetes`' go.mod in Go's module cache. `go list -m` fetches the module's
/// version and go.mod alone (kilobytes), not the module.
fn resolve((minor, patch): (u32, Option<u32>)) -> Result<(Release, PathBuf)> {
    let query = match patch {
        Some(patch) => format!("k8s.io/kubernetes@v1.{minor}.{patch}"),
        None => format!("k8s.io/kubernetes@v1.{minor}"),
    };
    log(format_args!("resolving {query} with the Go module proxy"));
    // Outside any module (the temporary directory), so no go.mod or go.work is touched.
    let output = Command::new("go")
        .args(["list", "-m", "-json", &query])
        .current_dir(std::env::temp_dir())
        .output()
        .context("running go")?;
    if !output.status.success() {
        bail!("{query}: {}", String::from_utf8_lossy(&output.stderr).trim());
    }
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "PascalCase")]
    struct Module {
        version: String,
        go_mod: Option<PathBuf>,
    }
    let module: Module = serde_json::from_slice(&output.stdout)
        .with_context(|| format!("reading `go list -m -json {query}`: {}", String::from_utf8_lossy(&output.stdout)))?;
    let version = module.version;
    let (minor, patch) = envtest::parse_release(&version).with_context(|| format!("{query} resolved to {version}"))?;
    let release = Release { minor, patch: patch.with_context(|| format!("{query} resolved to {version}"))? };
    Ok((release, module.go_mod.context("go gave no go.mod")?))
}

/// etcd and kube-apiserver of `release` into `dir`, which this call creates.
fn build(dir: &Path, release: Release, kubernetes_go_mod: &Path) -> Result<()> {
    let module = dir.join("module");
    std::fs::create_dir_all(&module).with_context(|| format!("creating {}", module.display()))?;
    let system_etcd = on_path("etcd");
    let mut go_mod = format!("module kubegen.dev/envtest\n\ngo 1.24\n\nrequire k8s.io/kubernetes v{release}\n");
    let kubernetes = std::fs::read_to_string(kubernetes_go_mod)
        .with_context(|| format!("reading {}", kubernetes_go_mod.display()))?;
    for line in kubernetes.lines() {
        if let Some((staging, _)) = line.trim().split_once(" => ./staging/") {
            go_mod.push_str(&format!("replace {staging} => {staging} v0.{}.{}\n", release.minor, release.patch));
        }
    }
    let mut tools =
        "//go:build tools\n\npackage tools\n\nimport _ \"k8s.io/kubernetes/cmd/kube-apiserver\"\n".to_string();
    if system_etcd.is_none() {
        tools.push_str("import _ \"go.etcd.io/etcd/server/v3\"\n");
    }
    std::fs::write(module.join("go.mod"), go_mod).context("writing the wrapper module")?;
    std::fs::write(module.join("tools.go"), tools).context("writing the wrapper module")?;
    step(&module, &["mod", "tidy"], "resolving the modules kube-apiserver needs")?;

    let mut ldflags = "-s -w".to_string();
    for package in ["k8s.io/component-base/version", "k8s.io/client-go/pkg/version"] {
        ldflags.push_str(&format!(
            " -X {package}.gitVersion=v{release} -X {package}.gitMajor=1 -X {package}.gitMinor={} -X {package}.gitTreeState=clean",
            release.minor
        ));
    }
    let apiserver = dir.join("kube-apiserver");
    step(
        &module,
        &[
            "build",
            "-trimpath",
            NO_DWARF,
            "-ldflags",
            &ldflags,
            "-o",
            &apiserver.to_string_lossy(),
            "k8s.io/kubernetes/cmd/kube-apiserver",
        ],
        &format!("building kube-apiserver {release} (minutes, once per release)"),
    )?;
    let etcd = dir.join("etcd");
    match system_etcd {
        Some(found) => {
            log(format_args!("etcd: copying {}", found.display()));
            std::fs::copy(&found, &etcd).with_context(|| format!("copying {}", found.display()))?;
        }
        None => step(
            &module,
            &[
                "build",
                "-trimpath",
                NO_DWARF,
                "-ldflags",
                "-s -w",
                "-o",
                &etcd.to_string_lossy(),
                "go.etcd.io/etcd/server/v3",
            ],
            "building etcd (none on the PATH) at the version Kubernetes requires",
        )?,
    }
    Ok(())
}

/// Runs go in the wrapper module, with Go's own module and build caches.
fn step(module: &Path, args: &[&str], what: &str) -> Result<()> {
    log(what);
    let status = go(args).current_dir(module).stdout(Stdio::inherit()).status().context("running go")?;
    if !status.success() {
        bail!("`go {}` failed in {} ({status})", args.join(" "), module.display());
    }
    Ok(())
}

fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_release_is_the_one_this_binary_was_built_for() {
        let (minor, patch) = wanted(None).unwrap();
        assert_eq!(format!("v0.{minor}.{}", patch.unwrap()), kubegen::schema::K8S_MODULE_VERSION);
    }

    #[test]
    fn a_bad_version_says_how_to_write_one() {
        let err = wanted(Some("37")).unwrap_err().to_string();
        assert!(err.contains("1.MINOR or 1.MINOR.PATCH"), "{err}");
    }

    #[test]
    fn installed_only_names_what_the_store_holds() {
        let root = std::env::temp_dir().join(format!("kubegen-envtest-cli-{}", std::process::id()));
        let args = EnvtestArgs {
            action: None,
            index: None,
            version: Some("1.30".into()),
            bin_dir: Some(root.clone()),
            print: Print::Path,
            installed_only: true,
        };
        let err = run(args).unwrap_err().to_string();
        assert!(err.starts_with("Kubernetes 1.30 is not in the store at ") && err.contains("holds nothing"), "{err}");
        assert!(!root.exists(), "--installed-only created {}", root.display());
    }

    /// A directory served over HTTP on 127.0.0.1 by python3, while it lives.
    struct Served(std::process::Child, u16);

    impl Drop for Served {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }

    fn serve(dir: &Path) -> Served {
        let port = envtest::free_port().expect("a port");
        let child = Command::new("python3")
            .args(["-m", "http.server", &port.to_string(), "--bind", "127.0.0.1", "--directory"])
            .arg(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("python3 serves the directory");
        let started = std::time::Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(started.elapsed().as_secs() < 20, "the HTTP server did not start");
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        Served(child, port)
    }

    /// Issue 29: envtest's prebuilt archives, as setup-envtest takes them, from a local
    /// HTTP server holding an index and archives: the newest matching release installed
    /// after its SHA-512 checks; a wrong checksum and a truncated archive refused with
    /// nothing installed; no index, no release or no archive for this platform fall back
    /// to building.
    #[test]
    fn prebuilt_archives_are_checked_before_anything_is_installed() {
        use sha2::Digest;
        let work = std::env::temp_dir().join(format!("kubegen-envtest-download-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&work);
        let (site, tree) = (work.join("site"), work.join("tree/controller-tools/envtest"));
        std::fs::create_dir_all(&site).expect("mkdir");
        std::fs::create_dir_all(&tree).expect("mkdir");
        for name in ["etcd", "kube-apiserver", "kubectl"] {
            std::fs::write(tree.join(name), format!("#!/bin/sh\necho {name}\n")).expect("write");
        }
        let platform = envtest::platform();
        let good = format!("envtest-v1.99.3-{platform}.tar.gz");
        let status = Command::new("tar")
            .arg("-czf")
            .arg(site.join(&good))
            .arg("-C")
            .arg(work.join("tree"))
            .arg("controller-tools")
            .status()
            .expect("tar");
        assert!(status.success());
        let bytes = std::fs::read(site.join(&good)).expect("the archive");
        let truncated = format!("envtest-v1.98.0-{platform}.tar.gz");
        std::fs::write(site.join(&truncated), &bytes[..bytes.len() / 2]).expect("write");
        let sha = |b: &[u8]| sha2::Sha512::digest(b).iter().map(|x| format!("{x:02x}")).collect::<String>();
        let server = serve(&site);
        let link = |name: &str| format!("http://127.0.0.1:{}/{name}", server.1);
        let index = format!(
            "releases:\n  v1.99.1:\n    envtest-v1.99.1-plan9-mips.tar.gz:\n      hash: {}\n      selfLink: {}\n  v1.99.3:\n    {good}:\n      hash: {}\n      selfLink: {}\n    envtest-v1.99.3-plan9-mips.tar.gz:\n      hash: 00\n      selfLink: {}\n  v1.98.0:\n    {truncated}:\n      hash: {}\n      selfLink: {}\n  v1.97.0:\n    envtest-v1.97.0-{platform}.tar.gz:\n      hash: {}\n      selfLink: {}\n",
            sha(&bytes),
            link("envtest-v1.99.1-plan9-mips.tar.gz"),
            sha(&bytes),
            link(&good),
            link("nowhere"),
            sha(&bytes[..bytes.len() / 2]),
            link(&truncated),
            "ab".repeat(64),
            link(&good),
        );
        std::fs::write(site.join("index.yaml"), index).expect("write");
        let index = link("index.yaml");
        let root = work.join("store");
        let leftovers = |root: &Path| -> Vec<String> {
            std::fs::read_dir(root.join("k8s"))
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        };

        // 1.99: the newest patch release with an archive for this platform.
        let dir = download(&root, (99, None), &index).expect("downloads").expect("an archive");
        assert_eq!(dir, envtest::release_dir(&root, Release { minor: 99, patch: 3 }));
        assert_eq!(
            std::fs::read_to_string(dir.join("kube-apiserver")).expect("installed"),
            "#!/bin/sh\necho kube-apiserver\n"
        );
        assert!(dir.join("etcd").is_file() && !dir.join("kubectl").exists() && !dir.join("envtest.tar.gz").exists());
        assert_eq!(leftovers(&root), [format!("1.99.3-{platform}")]);
        // Installed: found again without a download.
        assert_eq!(download(&root, (99, Some(3)), &link("gone.yaml")).expect("no index").as_deref(), None);
        assert_eq!(in_store(&root, (99, Some(3))).as_deref(), Some(dir.as_path()));

        // A wrong checksum and a truncated archive: an error, nothing installed.
        let err = format!("{:#}", download(&root, (97, None), &index).expect_err("a wrong checksum"));
        assert!(err.contains("SHA-512") && err.contains("nothing was installed"), "{err}");
        let err = format!("{:#}", download(&root, (98, None), &index).expect_err("a truncated archive"));
        assert!(err.contains("does not unpack") && err.contains("nothing was installed"), "{err}");
        assert_eq!(leftovers(&root), [format!("1.99.3-{platform}")], "a refused archive left something");

        // No index, no such release, or none for this platform: build from source.
        assert!(download(&root, (96, None), &index).expect("no release").is_none());
        assert!(download(&root, (99, Some(1)), &index).expect("another platform only").is_none());
        let closed = envtest::free_port().expect("a port");
        assert!(
            download(&root, (99, None), &format!("http://127.0.0.1:{closed}/index.yaml")).expect("no server").is_none()
        );
        assert!(download(&root, (99, None), "none").expect("none").is_none());
        drop(server);
        let _ = std::fs::remove_dir_all(&work);
    }

    /// `envtest stop` touches nothing in a directory `start` did not make its own, and
    /// `start` refuses one holding files it did not write (checked before any binary is
    /// looked for: issue 29, "never deletes what it did not create").
    #[test]
    fn stop_and_start_leave_a_directory_they_did_not_make_alone() {
        let dir = std::env::temp_dir().join(format!("kubegen-envtest-cluster-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("etcd")).expect("mkdir");
        std::fs::write(dir.join("kubeconfig"), "mine").expect("write");
        stop(&dir).expect("stop answers");
        assert!(dir.join("etcd").is_dir() && dir.join("kubeconfig").is_file(), "stop removed what it did not write");
        let assets = dir.join("no-assets");
        let err = start(&assets, &dir).unwrap_err().to_string();
        assert!(err.contains("holds files `envtest start` did not write (etcd, kubeconfig)"), "{err}");
        assert!(dir.join("kubeconfig").is_file());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
