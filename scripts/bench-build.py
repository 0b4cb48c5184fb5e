#!/usr/bin/env python3
"""Build-time cost of the derive: one crate of N kinds (nested types, enums, k8s-openapi
fields), written once for kubegen and once for kube-derive with the equivalent schemars
attributes. Dependencies are built first; then the two crates are rebuilt in turn
(kubegen, kube-derive, kubegen, ...; touching the source each time), R times each, and each
side's median, min and max are printed with the ratio of the medians, the rebuild's peak
rustc RSS and its share per kind (over the same crate with one kind), and the code each
side's derives generate: the crate's LLVM IR, lines and functions per kind (`cargo rustc
-- --emit=llvm-ir`). `--quick` (CI): 3 kinds, one rebuild each, to prove the bench still
builds.

    python3 scripts/bench-build.py [--kinds 50] [--runs 3] [--markers] [--rules] [--quick]
"""
import argparse, os, pathlib, statistics, subprocess, sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from bench_common import interleaved, ratio, summary  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "target" / "bench-build"


def kind_source(i, flavour, markers, rules=False):
    kubegen = flavour == "kubegen"
    schema_derive = "KubeSchema" if kubegen else "JsonSchema"
    root_derive = "CustomResource" if kubegen else "CustomResource, JsonSchema"
    rng = '#[kube(minimum = 1, maximum = 10)]' if kubegen else '#[schemars(range(min = 1, max = 10))]'
    length = '#[kube(min_length = 1, max_length = 63)]' if kubegen else '#[schemars(length(min = 1, max = 63))]'
    # --markers: a marker on every field, each with its schemars equivalent.
    def mk(k, s):
        return (k if kubegen else s) if markers else ""
    pattern = mk('#[kube(pattern = "^[a-z]+$")]', '#[schemars(regex(pattern = "^[a-z]+$"))]')
    items = mk('#[kube(max_items = 8)]', '#[schemars(length(max = 8))]')
    props = mk('#[kube(max_properties = 8)]', '#[schemars(extend("maxProperties" = 8))]')
    fmt = mk('#[kube(format = "date-time")]', '#[schemars(extend("format" = "date-time"))]')
    title = mk('#[kube(title = "Mode")]', '#[schemars(title = "Mode")]')
    desc = mk('#[kube(title = "Thing")]', '#[schemars(title = "Thing")]')
    wmin = mk('#[kube(minimum = 0, maximum = 100)]', '#[schemars(range(min = 0, max = 100))]')
    klen = mk('#[kube(max_length = 253)]', '#[schemars(length(max = 253))]')
    # --rules: CEL rules on the spec and three fields; kubegen checks them at compile time,
    # kube-derive users write them as schema extensions that nothing checks.
    def rule(r, at_type=False):
        if not rules:
            return ""
        if kubegen:
            return f'/// +kubebuilder:validation:XValidation:rule="{r}"' if at_type else f'#[kube(validation(rule = "{r}"))]'
        return f'#[schemars(extend("x-kubernetes-validations" = [{{"rule": "{r}"}}]))]'
    spec_rules = [
        "self.?replicas.orValue(1) <= 10 && self.name.startsWith('k')",
        "!has(self.memory) || size(self.labels) < 8",
    ]
    # Doc-comment markers go above the derive; a derive's helper attribute below it.
    spec_doc_rules, spec_attr_rules = "", ""
    if rules and kubegen:
        spec_doc_rules = "\n    ".join(rule(r, True) for r in spec_rules)
    elif rules:
        listed = ", ".join('{"rule": "' + r + '"}' for r in spec_rules)
        spec_attr_rules = f'#[schemars(extend("x-kubernetes-validations" = [{listed}]))]'

    items_rule = rule("self.all(i, i.key.size() > 0)")
    labels_rule = rule("self.all(k, k.size() < 64)")
    name_rule = rule("self.lowerAscii() == self && !self.contains('--')")
    return f'''
pub mod kind{i} {{
    use std::collections::BTreeMap;
    use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::{{LabelSelector, Time}};
    use serde::{{Deserialize, Serialize}};
    use super::*;

    /// Spec of kind {i}.
    {spec_doc_rules}
    #[derive({root_derive}, Serialize, Deserialize, Clone, Debug)]
    {spec_attr_rules}
    #[kube(group = "bench.kubegen.dev", version = "v1", kind = "Kind{i}", namespaced, status = "Kind{i}Status")]
    #[serde(rename_all = "camelCase")]
    pub struct Kind{i}Spec {{
        /// Name.
        {length}
        {name_rule}
        pub name: String,
        /// Replicas.
        {rng}
        pub replicas: Option<i32>,
        {title}
        pub mode: Mode{i},
        {desc}
        pub action: Option<Action{i}>,
        {items}
        {items_rule}
        pub items: Vec<Item{i}>,
        {props}
        {labels_rule}
        pub labels: BTreeMap<String, String>,
        {desc}
        pub memory: Option<Quantity>,
        {desc}
        pub selector: Option<LabelSelector>,
        {fmt}
        pub since: Option<Time>,
    }}

    /// Status of kind {i}.
    #[derive({schema_derive}, Serialize, Deserialize, Clone, Debug, Default)]
    #[serde(rename_all = "camelCase")]
    pub struct Kind{i}Status {{
        {wmin}
        pub ready_replicas: i32,
        {klen}
        pub message: Option<String>,
    }}

    /// An item.
    #[derive({schema_derive}, Serialize, Deserialize, Clone, Debug)]
    #[serde(rename_all = "camelCase")]
    pub struct Item{i} {{
        {pattern}
        pub key: String,
        {wmin}
        pub weight: Option<u32>,
        {desc}
        pub enabled: bool,
    }}

    /// A mode.
    #[derive({schema_derive}, Serialize, Deserialize, Clone, Debug)]
    pub enum Mode{i} {{ Fast, Safe, Off }}

    /// An action.
    #[derive({schema_derive}, Serialize, Deserialize, Clone, Debug)]
    #[serde(rename_all = "camelCase")]
    pub enum Action{i} {{
        Restart {{ after_seconds: u32 }},
        Scale {{ to: i32, max: Option<i32> }},
    }}
}}
'''


def write_crate(flavour, kinds, markers, rules=False):
    d = OUT / flavour
    (d / "src").mkdir(parents=True, exist_ok=True)
    if flavour == "kubegen":
        deps = f'kubegen = {{ package = "kubegen-rs", path = "{ROOT / "kubegen"}" }}\n'
        prelude = "#[allow(unused_imports)]\nuse kubegen::{CustomResource, KubeSchema};\n"
    else:
        deps = 'kube = { version = "5", default-features = false, features = ["derive"] }\nschemars = "1"\n'
        prelude = "#[allow(unused_imports)]\nuse kube::CustomResource;\n#[allow(unused_imports)]\nuse schemars::JsonSchema;\n"
    (d / "Cargo.toml").write_text(f'''[package]
name = "bench-{flavour}"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
{deps}k8s-openapi = {{ version = "0.29", features = ["latest", "schemars"] }}
serde = {{ version = "1", features = ["derive"] }}
serde_json = "1"

[workspace]
''')
    body = prelude + "".join(kind_source(i, flavour, markers, rules) for i in range(kinds))
    (d / "src" / "lib.rs").write_text(body)
    lock = ROOT / "Cargo.lock"
    if lock.exists() and not (d / "Cargo.lock").exists():
        (d / "Cargo.lock").write_bytes(lock.read_bytes())
    return d


TARGET = OUT / "target"


def build(d):
    """Builds the crate; returns the peak RSS (MB) of its largest process (rustc), GNU time's %M."""
    env = dict(os.environ, CARGO_TARGET_DIR=str(TARGET))
    r = subprocess.run(["/usr/bin/time", "-f", "%M", "cargo", "build", "-q", "--manifest-path", str(d / "Cargo.toml")],
                       env=env, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stderr[-4000:])
        raise SystemExit(f"cargo build failed in {d}")
    return int(r.stderr.strip().splitlines()[-1]) / 1024


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--kinds", type=int, default=50)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--markers", action="store_true", help="a validation marker on every field")
    p.add_argument("--rules", action="store_true", help="CEL rules on every spec and three of its fields")
    p.add_argument("--quick", action="store_true", help="3 kinds, 1 run: does the bench still build")
    a = p.parse_args()
    if a.quick:
        # The repository's target dir: its dependencies are built already.
        global TARGET
        a.kinds, a.runs, TARGET = 3, 1, ROOT / "target"
    flavours = ["kubegen", "kube-derive"]
    # Memory per kind is the rebuild's peak over that of the same crate with one kind.
    one = {}
    for flavour in flavours:
        d = write_crate(flavour, 1, a.markers, a.rules)
        build(d)  # dependencies, once
        (d / "src" / "lib.rs").touch()
        one[flavour] = build(d)
    crates = {flavour: write_crate(flavour, a.kinds, a.markers, a.rules) for flavour in flavours}
    for d in crates.values():
        build(d)
    rss = {flavour: [] for flavour in flavours}

    def rebuild(flavour, d):
        return lambda: ((d / "src" / "lib.rs").touch(), rss[flavour].append(build(d)))

    times = interleaved({flavour: rebuild(flavour, d) for flavour, d in crates.items()}, a.runs)
    what = f"{a.kinds} kinds{' with markers' if a.markers else ''}{' with CEL rules' if a.rules else ''}"
    for flavour, ts in times.items():
        print(f"{flavour:<12} {what}: rebuild {summary(ts)}")
    print(f"ratio kubegen / kube-derive (medians): {ratio(times, 'kubegen', 'kube-derive'):.2f}")
    per_kind = {}
    for flavour in flavours:
        peak = statistics.median(rss[flavour])
        per_kind[flavour] = (peak - one[flavour]) / max(a.kinds - 1, 1)
        print(f"{flavour:<12} {what}: rustc peak RSS {peak:.0f} MB (one kind: {one[flavour]:.0f} MB);"
              f" per kind {per_kind[flavour]:.2f} MB")
    if per_kind["kube-derive"] > 0:
        print(f"ratio kubegen / kube-derive (RSS per kind): {per_kind['kubegen'] / per_kind['kube-derive']:.2f}")
    ir = {flavour: llvm_ir(d) for flavour, d in crates.items()}
    for flavour, (lines, functions) in ir.items():
        print(f"{flavour:<12} {what}: LLVM IR {lines} lines, {functions} functions;"
              f" per kind {lines / a.kinds:.0f} lines, {functions / a.kinds:.0f} functions")
    print(f"ratio kubegen / kube-derive (IR lines): {ir['kubegen'][0] / ir['kube-derive'][0]:.2f}")


def llvm_ir(d):
    """The crate's LLVM IR (debug profile, as built above): lines and defined functions."""
    env = dict(os.environ, CARGO_TARGET_DIR=str(TARGET))
    name = d.name.replace("-", "_")
    deps = TARGET / "debug" / "deps"
    for old in deps.glob(f"bench_{name}-*.ll"):
        old.unlink()
    subprocess.run(["cargo", "rustc", "-q", "--lib", "--manifest-path", str(d / "Cargo.toml"), "--", "--emit=llvm-ir"],
                   check=True, env=env)
    (ll,) = deps.glob(f"bench_{name}-*.ll")
    lines = functions = 0
    with open(ll, encoding="utf-8", errors="replace") as f:
        for line in f:
            lines += 1
            functions += line.startswith("define ")
    ll.unlink()
    return lines, functions


if __name__ == "__main__":
    sys.exit(main())
