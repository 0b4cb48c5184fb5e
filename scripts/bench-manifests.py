#!/usr/bin/env python3
"""`codegen-cli manifests --check` on a warm workspace where nothing changed, against
cargo's own no-op time (`cargo build` on the same warm workspace), and against
controller-gen (`crd rbac` on the Go twins of the same kinds, tests/oracle/go; needs
scripts/oracle.sh to have installed it). `manifests --check` is timed as users' CI runs it
(`cargo run -p codegen-cli -- manifests --check`, which the fingerprint lets skip the
helper), as the binary alone, and with `KUBEGEN_NO_SKIP=1` (the helper built and run: what
any change costs before its own compilation). The sides run interleaved; each is printed as
median, min and max, with the ratios of the medians. `--quick` (CI): 2 runs.

    python3 scripts/bench-manifests.py [--runs 7] [--quick]
"""
import argparse, os, pathlib, subprocess, sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from bench_common import interleaved, ratio, summary  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent


def run(cmd, cwd=ROOT, env=None):
    env = {**os.environ, **(env or {})}
    return lambda: subprocess.run(cmd, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--quick", action="store_true", help="2 runs: does the bench still run")
    a = p.parse_args()
    if a.quick:
        a.runs = 2
    subprocess.run(["cargo", "build", "-q", "-p", "codegen-cli"], cwd=ROOT, check=True)
    cli = str(ROOT / "target" / "debug" / "codegen-cli")
    cargo_run = ["cargo", "run", "-q", "-p", "codegen-cli", "--", "manifests", "--check"]
    sides = {
        "cargo build (no-op)": run(["cargo", "build", "-q"]),
        "cargo run -p codegen-cli -- manifests --check": run(cargo_run),
        "codegen-cli manifests --check": run([cli, "manifests", "--check"]),
        "  the same, KUBEGEN_NO_SKIP=1": run([cli, "manifests", "--check"], env={"KUBEGEN_NO_SKIP": "1"}),
    }
    gen = sorted((ROOT / "target" / "oracle" / "bin").glob("controller-gen-*"))
    if gen:
        out = ROOT / "target" / "oracle" / "bench"
        cg = [str(gen[-1]), "crd", "rbac:roleName=manager-role", "paths={./samplecontroller/...,./example/...}",
              f"output:crd:dir={out}/crd", f"output:rbac:dir={out}/rbac"]
        sides["controller-gen crd rbac (Go twins)"] = run(cg, cwd=ROOT / "tests" / "oracle" / "go")
    for side in sides.values():  # warm every side
        side()
    times = interleaved(sides, a.runs)
    for name, ts in times.items():
        print(f"{name:<46} {summary(ts, 'ms')}")
    noop = "cargo build (no-op)"
    print(f"ratio cargo run -p codegen-cli -- manifests --check / cargo no-op: "
          f"{ratio(times, 'cargo run -p codegen-cli -- manifests --check', noop):.2f}")
    print(f"ratio manifests --check / cargo no-op: {ratio(times, 'codegen-cli manifests --check', noop):.2f}")
    print(f"ratio manifests --check with KUBEGEN_NO_SKIP=1 / cargo no-op: "
          f"{ratio(times, '  the same, KUBEGEN_NO_SKIP=1', noop):.2f}")
    if gen:
        cg = "controller-gen crd rbac (Go twins)"
        print(f"ratio kubegen / controller-gen: {ratio(times, 'codegen-cli manifests --check', cg):.2f} "
              f"(helper built and run, KUBEGEN_NO_SKIP=1: {ratio(times, '  the same, KUBEGEN_NO_SKIP=1', cg):.2f})")
    else:
        print("controller-gen: not installed (run scripts/oracle.sh)")


if __name__ == "__main__":
    main()
