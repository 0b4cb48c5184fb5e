#!/usr/bin/env python3
"""Provider scale: a synthetic workspace of N kinds laid out as kubegen recommends at that
scale (one crate per API group, 20 kinds a group; every third group serves two versions;
realistic nesting, enums, quantities, label selectors, CEL rules on every kind, an
embedded PodTemplateSpec on every twentieth), and what a user waits for on it: the first
build, a rebuild of every group, `manifests`, `clients` (Go, TypeScript, Python), `docs`,
one kind edited then `manifests`, a `manifests --check` with nothing changed, and
controller-gen on the Go twins of the same kinds (the Go package `clients --lang go`
writes). Each step's wall time and the peak RSS of its largest process are printed as a
table, with the per-kind figures.

    python3 scripts/bench-scale.py [--kinds 500] [--quick]

The workspace lives under target/bench-scale/<N>/, the target directory every size shares
under target/bench-scale/target/ (kept between runs: the dependencies are built once). `--quick` (CI): 20 kinds, controller-gen skipped.
The codegen-cli steps run with KUBEGEN_NO_SKIP=1 but the unchanged `--check`, which shows
what the fingerprint saves.
"""
import argparse, os, pathlib, re, shutil, subprocess, sys, time

ROOT = pathlib.Path(__file__).resolve().parent.parent
PER_GROUP = 20
# One target directory for every size: the dependencies are built once.
TARGET = ROOT / "target" / "bench-scale" / "target"


def kind_source(g, k, versions, pod_template):
    """One kind of group g (index k within it), in each of `versions`."""
    out = []
    for v_i, version in enumerate(versions):
        storage = "\n/// +kubebuilder:storageversion" if len(versions) > 1 and v_i == 0 else ""
        template = ("\n        /// The pods it runs.\n        pub template: Option<k8s_openapi::api::core::v1::PodTemplateSpec>,"
                    if pod_template else "")
        out.append(f'''
pub mod kind{k}_{version} {{
    use std::collections::BTreeMap;
    use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::{{LabelSelector, Time}};
    use kubegen::{{CustomResource, KubeSchema}};
    use serde::{{Deserialize, Serialize}};

    /// Kind{k} is a resource of group {g}: a spec with nested items, enums, quantities
    /// and a label selector, and a status.{storage}
    /// +kubebuilder:validation:XValidation:rule="!has(self.replicas) || self.replicas <= self.maxReplicas",message="replicas exceed maxReplicas"
    #[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "g{g}.scale.kubegen.dev", version = "{version}", kind = "Kind{k}", namespaced, status = "Kind{k}Status")]
    #[kube(printcolumn(name = "Ready", type = "integer", json_path = ".status.readyReplicas"))]
    #[serde(rename_all = "camelCase")]
    pub struct Kind{k}Spec {{
        /// The name it goes by.
        /// +kubebuilder:validation:MaxLength=63
        /// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
        pub name: String,
        /// How many to run.
        #[kube(minimum = 0, maximum = 1000)]
        pub replicas: Option<i32>,
        /// The most it may run.
        #[kube(minimum = 1, maximum = 1000)]
        pub max_replicas: i32,
        /// How it runs.
        pub mode: Mode,
        /// What it does on a change.
        pub action: Option<Action>,
        /// Its items, by key.
        /// +listType=map
        /// +listMapKey=key
        #[kube(max_items = 32)]
        pub items: Vec<Item>,
        /// Labels it adds.
        #[kube(max_properties = 16)]
        #[kube(validation(rule = "self.all(k, k.size() <= 63)"))]
        pub labels: BTreeMap<String, String>,
        /// Memory it may use.
        pub memory: Option<Quantity>,
        /// What it selects.
        pub selector: Option<LabelSelector>,
        /// When it last changed.
        pub since: Option<Time>,{template}
    }}

    /// What was observed.
    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug, Default)]
    #[serde(rename_all = "camelCase")]
    pub struct Kind{k}Status {{
        /// Replicas ready.
        pub ready_replicas: i32,
        /// Why, in words.
        #[kube(max_length = 1024)]
        pub message: Option<String>,
    }}

    /// One item.
    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    #[serde(rename_all = "camelCase")]
    pub struct Item {{
        /// Its key.
        #[kube(max_length = 253)]
        pub key: String,
        /// Its weight.
        #[kube(minimum = 0, maximum = 100)]
        pub weight: Option<u32>,
        /// Whether it counts.
        pub enabled: bool,
    }}

    /// How it runs.
    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    pub enum Mode {{ Fast, Safe, Off }}

    /// What it does on a change.
    #[derive(KubeSchema, Serialize, Deserialize, Clone, Debug)]
    #[serde(rename_all = "camelCase")]
    pub enum Action {{
        Restart {{ after_seconds: u32 }},
        Scale {{ to: i32, max: Option<i32> }},
    }}
}}
''')
    return "".join(out)


def write_workspace(d, kinds):
    groups = (kinds + PER_GROUP - 1) // PER_GROUP
    manifest = (ROOT / "Cargo.toml").read_text()
    profiles = manifest[manifest.index("[profile."):]
    members = ", ".join(f'"g{g}"' for g in range(groups))
    files = {
        "Cargo.toml": f'[workspace]\nresolver = "3"\nmembers = [{members}]\n\n'
                      f'[workspace.metadata.kubegen]\nproject = "scale"\n\n'
                      f'[workspace.metadata.kubegen.clients]\ngo-module = "example.com/scale/api"\n\n{profiles}',
    }
    n = 0
    for g in range(groups):
        count = min(PER_GROUP, kinds - n)
        versions = ["v1", "v1beta1"] if g % 3 == 2 else ["v1"]
        files[f"g{g}/Cargo.toml"] = (
            f'[package]\nname = "g{g}"\nversion = "0.1.0"\nedition = "2024"\npublish = false\n\n[dependencies]\n'
            f'kubegen = {{ package = "kubegen-rs", path = "{ROOT / "kubegen"}", default-features = false, features = ["cel"] }}\n'
            'k8s-openapi = { version = "0.29", default-features = false, features = ["std", "schemars", "latest"] }\n'
            'serde = { version = "1", features = ["derive"] }\n')
        files[f"g{g}/src/lib.rs"] = (f"//! API group g{g}.\n" + "".join(
            kind_source(g, k, versions, (n + k) % 20 == 19) for k in range(count)))
        n += count
    for path, text in files.items():
        p = d / path
        p.parent.mkdir(parents=True, exist_ok=True)
        if not p.exists() or p.read_text() != text:
            p.write_text(text)
    lock = d / "Cargo.lock"
    if not lock.exists():
        shutil.copy(ROOT / "Cargo.lock", lock)
    return groups


def timed(cmd, cwd, env=None):
    """Wall seconds and the peak RSS (MB) of the largest process of `cmd` (GNU time's %M)."""
    # No incremental caches: a cold build's figure, and half the disk (they are as large as
    # the artifacts).
    env = {**os.environ, "CARGO_TARGET_DIR": str(TARGET), "CARGO_INCREMENTAL": "0", **(env or {})}
    t = time.monotonic()
    r = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - t
    if r.returncode != 0:
        sys.stderr.write(r.stderr[-4000:])
        raise SystemExit(f"failed: {' '.join(cmd)}")
    rss_kb = int(r.stderr.strip().splitlines()[-1])
    return wall, rss_kb / 1024


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--kinds", type=int, default=500)
    p.add_argument("--quick", action="store_true", help="20 kinds, no controller-gen: does the bench still run")
    a = p.parse_args()
    if a.quick:
        # The repository's target dir: its dependencies are built already.
        global TARGET
        a.kinds, TARGET = 20, ROOT / "target"
    subprocess.run(["cargo", "build", "-q", "-p", "codegen-cli"], cwd=ROOT, check=True)
    cli = str(ROOT / "target" / "debug" / "codegen-cli")
    d = ROOT / "target" / "bench-scale" / str(a.kinds)
    groups = write_workspace(d, a.kinds)
    no_skip = {"KUBEGEN_NO_SKIP": "1"}
    rows = []

    def step(name, cmd, env=None, cwd=d):
        wall, rss = timed(cmd, cwd, env)
        rows.append((name, wall, rss))
        print(f"  {name:<52} {wall:8.1f} s {rss:8.0f} MB", flush=True)

    print(f"{a.kinds} kinds in {groups} groups (target/bench-scale/{a.kinds})", flush=True)
    step("first build (cargo build; dependencies once)", ["cargo", "build", "-q"])
    for g in range(groups):
        (d / f"g{g}" / "src" / "lib.rs").touch()
    step("rebuild of every group (cargo build)", ["cargo", "build", "-q"])
    step("manifests, first (builds the helper)", [cli, "manifests"], no_skip)
    step("manifests, warm", [cli, "manifests"], no_skip)
    step("clients (Go, TypeScript, Python)", [cli, "clients"], no_skip)
    step("docs (Markdown and HTML)", [cli, "docs"], no_skip)
    lib = d / "g0" / "src" / "lib.rs"
    text = lib.read_text()
    marker = "/// How many to run."
    edited = text.replace(marker, "/// How many to run, edited.", 1) if marker in text else text
    lib.write_text(edited)
    step("one kind edited, then manifests", [cli, "manifests"], no_skip)
    lib.write_text(text)
    # Without KUBEGEN_NO_SKIP: this run leaves the fingerprint the next one finds.
    step("manifests, the edit undone", [cli, "manifests"])
    step("manifests --check, nothing changed (fingerprint)", [cli, "manifests", "--check"])
    gen = sorted((ROOT / "target" / "oracle" / "bin").glob("controller-gen-*"))
    if gen and not a.quick:
        go = d / "go-twins"
        step("the Go twins (clients --lang go)", [cli, "clients", "--lang", "go", "--out", str(go)], no_skip)
        goenv = {"GOFLAGS": "-mod=mod -buildvcs=false", "GOTOOLCHAIN": "local"}
        subprocess.run(["go", "mod", "tidy"], cwd=go, check=True, env={**os.environ, **goenv},
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        step("controller-gen crd on the Go twins", [str(gen[-1]), "crd:allowDangerousTypes=true", "paths=./...",
                                                     f"output:crd:dir={d / 'controller-gen'}"], goenv, cwd=go)
    elif not a.quick:
        print("  controller-gen: not installed (run scripts/oracle.sh)")
    du = subprocess.run(["du", "-sh", str(TARGET)], capture_output=True, text=True).stdout.split("\t")[0]
    print(f"target directory: {du}")
    yaml = sum(f.stat().st_size for f in (d / "config" / "crd" / "bases").glob("*.yaml"))
    print(f"CRD YAML: {yaml / 1e6:.1f} MB in {len(list((d / 'config' / 'crd' / 'bases').glob('*.yaml')))} files")
    print("per kind:", ", ".join(f"{name.split(' (')[0]} {wall / a.kinds * 1000:.0f} ms" for name, wall, _ in rows
                                 if not name.startswith(("one kind", "manifests --check", "manifests, the edit"))))


if __name__ == "__main__":
    main()
