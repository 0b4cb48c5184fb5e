#!/usr/bin/env python3
"""Build-time cost of the derive: one crate of N kinds (nested types, enums, k8s-openapi
fields), written once for kubegen and once for kube-derive with the equivalent schemars
attributes. Dependencies are built first; then each crate alone is rebuilt R times
(touching its source) and the median is printed with the ratio kubegen / kube-derive.

    python3 scripts/bench-build.py [--kinds 50] [--runs 3]
"""
import argparse, os, pathlib, statistics, subprocess, sys, time

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "target" / "bench-build"


def kind_source(i, flavour):
    kubegen = flavour == "kubegen"
    schema_derive = "KubeSchema" if kubegen else "JsonSchema"
    root_derive = "CustomResource" if kubegen else "CustomResource, JsonSchema"
    rng = '#[kube(minimum = 1, maximum = 10)]' if kubegen else '#[schemars(range(min = 1, max = 10))]'
    length = '#[kube(min_length = 1, max_length = 63)]' if kubegen else '#[schemars(length(min = 1, max = 63))]'
    return f'''
pub mod kind{i} {{
    use std::collections::BTreeMap;
    use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::{{LabelSelector, Time}};
    use serde::{{Deserialize, Serialize}};
    use super::*;

    /// Spec of kind {i}.
    #[derive({root_derive}, Serialize, Deserialize, Clone, Debug)]
    #[kube(group = "bench.kubegen.dev", version = "v1", kind = "Kind{i}", namespaced, status = "Kind{i}Status")]
    #[serde(rename_all = "camelCase")]
    pub struct Kind{i}Spec {{
        /// Name.
        {length}
        pub name: String,
        /// Replicas.
        {rng}
        pub replicas: Option<i32>,
        pub mode: Mode{i},
        pub action: Option<Action{i}>,
        pub items: Vec<Item{i}>,
        pub labels: BTreeMap<String, String>,
        pub memory: Option<Quantity>,
        pub selector: Option<LabelSelector>,
        pub since: Option<Time>,
    }}

    /// Status of kind {i}.
    #[derive({schema_derive}, Serialize, Deserialize, Clone, Debug, Default)]
    #[serde(rename_all = "camelCase")]
    pub struct Kind{i}Status {{
        pub ready_replicas: i32,
        pub message: Option<String>,
    }}

    /// An item.
    #[derive({schema_derive}, Serialize, Deserialize, Clone, Debug)]
    #[serde(rename_all = "camelCase")]
    pub struct Item{i} {{
        pub key: String,
        pub weight: Option<u32>,
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


def write_crate(flavour, kinds):
    d = OUT / flavour
    (d / "src").mkdir(parents=True, exist_ok=True)
    if flavour == "kubegen":
        deps = f'kubegen = {{ path = "{ROOT / "runtime"}" }}\n'
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
    body = prelude + "".join(kind_source(i, flavour) for i in range(kinds))
    (d / "src" / "lib.rs").write_text(body)
    lock = ROOT / "Cargo.lock"
    if lock.exists() and not (d / "Cargo.lock").exists():
        (d / "Cargo.lock").write_bytes(lock.read_bytes())
    return d


def build(d):
    env = dict(os.environ, CARGO_TARGET_DIR=str(OUT / "target"))
    t = time.monotonic()
    subprocess.run(["cargo", "build", "-q", "--manifest-path", str(d / "Cargo.toml")], check=True, env=env)
    return time.monotonic() - t


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--kinds", type=int, default=50)
    p.add_argument("--runs", type=int, default=3)
    a = p.parse_args()
    results = {}
    for flavour in ["kubegen", "kube-derive"]:
        d = write_crate(flavour, a.kinds)
        build(d)  # dependencies, once
        times = []
        for _ in range(a.runs):
            (d / "src" / "lib.rs").touch()
            times.append(build(d))
        results[flavour] = statistics.median(times)
        print(f"{flavour:<12} {a.kinds} kinds: median {results[flavour]:.2f}s over {a.runs} rebuilds ({', '.join(f'{t:.2f}' for t in times)})")
    print(f"ratio kubegen / kube-derive: {results['kubegen'] / results['kube-derive']:.2f}")


if __name__ == "__main__":
    sys.exit(main())
