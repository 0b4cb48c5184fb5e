#!/usr/bin/env python3
"""`codegen-cli manifests --check` on a warm workspace where nothing changed, against
cargo's own no-op time (`cargo build` on the same warm workspace). Prints both medians
and the ratio.

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


if __name__ == "__main__":
    main()
