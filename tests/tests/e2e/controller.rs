//! The Foo controller as a process against the real API server; the test plays the
//! kubelet and controller-manager where it must (Deployment status).

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::cluster::{self, kubectl, kubectl_ok};

/// How long a controller gets to converge.
pub const WAIT: Duration = Duration::from_secs(30);

/// A running controller, killed when dropped; its output goes to a log file.
pub struct Running {
    child: Child,
    pub log: PathBuf,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Running {
    pub fn logs(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// SIGTERM, then the exit status (within `within`).
    pub fn terminate(&mut self, within: Duration) -> Option<std::process::ExitStatus> {
        let _ = Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status();
        self.wait_for_exit(within)
    }

    /// The exit status, if the process ends within `within`.
    pub fn wait_for_exit(&mut self, within: Duration) -> Option<std::process::ExitStatus> {
        let deadline = Instant::now() + within;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        None
    }

    /// `GET path` from the controller's probe server (its address is in its log).
    pub fn probe(&self, path: &str) -> String {
        use std::io::{Read, Write};
        let logs = self.logs();
        let addr = logs
            .lines()
            .find(|l| l.contains("serving /healthz"))
            .and_then(|l| l.split("bound=").nth(1))
            .map(|a| a.split_whitespace().next().unwrap_or_default().to_string())
            .unwrap_or_else(|| panic!("no probe address in the log:\n{logs}"));
        let mut stream = std::net::TcpStream::connect(&addr).expect("probe server");
        write!(stream, "GET {path} HTTP/1.0\r\nHost: {addr}\r\n\r\n").expect("request");
        let mut response = String::new();
        stream.read_to_string(&mut response).expect("response");
        response
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Its resident memory, in bytes (Linux).
    pub fn rss(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).unwrap_or_default();
        let kib = status.lines().find_map(|l| l.strip_prefix("VmRSS:")).unwrap_or("0");
        kib.trim().trim_end_matches(" kB").trim().parse::<u64>().unwrap_or(0) * 1024
    }

    /// Reconciles so far, every result, from its /metrics.
    pub fn reconciles(&self) -> u64 {
        let metrics = self.probe("/metrics");
        metrics
            .lines()
            .filter(|l| l.starts_with("controller_runtime_reconcile_total{"))
            .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
            .sum::<f64>() as u64
    }

    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn start(kubeconfig: &std::path::Path, args: &[&str], tag: &str) -> Running {
    let binary = std::env::var("KUBEGEN_FOO_CONTROLLER").expect("KUBEGEN_FOO_CONTROLLER: run scripts/e2e.sh");
    let log = std::env::temp_dir().join(format!("foo-controller-{tag}-{}.log", std::process::id()));
    let out = std::fs::File::create(&log).expect("log file");
    let child = Command::new(binary)
        .arg("--kubeconfig")
        .arg(kubeconfig)
        .args(["--health-probe-bind-address", "127.0.0.1:0"])
        .args(args)
        .env("RUST_LOG", "info")
        .env("NO_COLOR", "1")
        .stdout(Stdio::from(out.try_clone().expect("clone")))
        .stderr(Stdio::from(out))
        .spawn()
        .expect("foo-controller starts");
    Running { child, log }
}

/// Polls `kubectl get ... -o jsonpath=...` until it prints `want`.
pub fn eventually(args: &[&str], want: &str, within: Duration) -> String {
    let deadline = Instant::now() + within;
    let mut last = String::new();
    while Instant::now() < deadline {
        let out = kubectl(args, None);
        last = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if last == want {
            return last;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    panic!("kubectl {} printed {last:?}, not {want:?}, within {within:?}", args.join(" "));
}

/// Waits until Deployment `name` in `ns` asks for `want` replicas.
pub fn wait_for_replicas(ns: &str, name: &str, want: &str, within: Duration) {
    eventually(&["get", "deployment", name, "-n", ns, "-o", "jsonpath={.spec.replicas}"], want, within);
}

pub fn foo(name: &str, deployment: &str, replicas: i32) -> String {
    format!(
        "apiVersion: samplecontroller.k8s.io/v1alpha1\nkind: Foo\nmetadata: {{name: {name}}}\nspec: {{deploymentName: {deployment}, replicas: {replicas}}}\n"
    )
}

pub fn default_kubeconfig() -> PathBuf {
    cluster::kubeconfig()
}

pub fn apply(ns: &str, yaml: &str) {
    kubectl_ok(&["apply", "-n", ns, "-f", "-"], Some(yaml));
}

/// A Foo controller replica named `identity`, in the leader election of namespace `ns`
/// and reconciling only there.
pub fn start_candidate(ns: &str, identity: &str) -> Running {
    let args = ["--namespace", ns, "--leader-elect", "--leader-election-namespace", ns, "--identity", identity];
    start(&default_kubeconfig(), &args, &format!("{ns}-{identity}"))
}

/// Waits until the `foo-controller` Lease in `ns` is held by `identity`.
pub fn wait_for_leader(ns: &str, identity: &str, within: Duration) {
    eventually(
        &["get", "lease", "foo-controller", "-n", ns, "-o", "jsonpath={.spec.holderIdentity}"],
        identity,
        within,
    );
}

/// Plays the kubelet: Deployment `name` in `ns` reports `replicas` pods, all available.
pub fn report_available(ns: &str, name: &str, replicas: i32) {
    let status =
        format!(r#"{{"status":{{"replicas":{replicas},"readyReplicas":{replicas},"availableReplicas":{replicas}}}}}"#);
    kubectl_ok(&["patch", "deployment", name, "-n", ns, "--subresource=status", "--type=merge", "-p", &status], None);
}

/// Waits until an event `reason` about `object` in `ns` says `message`.
pub fn wait_for_event(ns: &str, reason: &str, object: &str, message: &str) {
    let selector = format!("reason={reason},involvedObject.name={object}");
    eventually(
        &["get", "events", "-n", ns, "--field-selector", &selector, "-o", "jsonpath={.items[0].message}"],
        message,
        WAIT,
    );
}
