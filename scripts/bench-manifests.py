#!/usr/bin/env python3
"""`codegen-cli manifests --check` on a warm workspace where nothing changed, against
cargo's own no-op time (`cargo build` on the same warm workspace), and against
controller-gen (`crd rbac` on the Go twins of the same kinds, tests/oracle/go; needs
scripts/oracle.sh to have installed it). Prints the medians and the ratios.

    python3 scripts/bench-manifests.py [--runs 7]
"""
import argparse, pathlib, statistics, subprocess, time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def timed(cmd):
    t = time.monotonic()
    subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.monotonic() - t


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=7)
    a = p.parse_args()
    subprocess.run(["cargo", "build", "-q", "-p", "codegen-cli"], cwd=ROOT, check=True)
    cli = str(ROOT / "target" / "debug" / "codegen-cli")
    build = ["cargo", "build", "-q"]
    check = [cli, "manifests", "--check"]
    for cmd in (build, check):  # warm both
        timed(cmd)
    builds = [timed(build) for _ in range(a.runs)]
    checks = [timed(check) for _ in range(a.runs)]
    b, c = statistics.median(builds), statistics.median(checks)
    print(f"cargo build (no-op)        median {b * 1000:7.0f} ms over {a.runs} runs")
    print(f"codegen-cli manifests --check median {c * 1000:7.0f} ms over {a.runs} runs")
    print(f"ratio: {c / b:.2f}")
    gen = sorted((ROOT / "target" / "oracle" / "bin").glob("controller-gen-*"))
    if not gen:
        print("controller-gen: not installed (run scripts/oracle.sh)")
        return
    out = ROOT / "target" / "oracle" / "bench"
    twin = ROOT / "tests" / "oracle" / "go"
    cg = [str(gen[-1]), "crd", "rbac:roleName=manager-role", "paths={./samplecontroller/...,./example/...}",
          f"output:crd:dir={out}/crd", f"output:rbac:dir={out}/rbac"]
    def timed_cg():
        t = time.monotonic()
        subprocess.run(cg, cwd=twin, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return time.monotonic() - t
    timed_cg()
    g = statistics.median([timed_cg() for _ in range(a.runs)])
    print(f"controller-gen crd rbac (Go twins) median {g * 1000:7.0f} ms over {a.runs} runs")
    print(f"ratio kubegen / controller-gen: {c / g:.2f}")


if __name__ == "__main__":
    main()
