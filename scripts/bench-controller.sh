#!/usr/bin/env bash
# The reconciler host against a bare kube-runtime Controller on a real API server:
# N Foos (default 1000), same reconcile, one process per mode. Prints both lines and
# the ratio of the host's time to the bare controller's.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
COUNT=${1:-1000}
# BENCH_PROFILE=dev (CI's quick run) proves the bench runs without a release build.
PROFILE=${BENCH_PROFILE:-release}
scripts/kube-apiserver.sh build
cargo build -q --profile "$PROFILE" -p foo-controller --bin foo-bench
BIN=target/$([ "$PROFILE" = dev ] && echo debug || echo "$PROFILE")/foo-bench
RUN_DIR=$ROOT/target/kube-bench/run-$$
trap 'scripts/kube-apiserver.sh stop "$RUN_DIR" || true' EXIT INT TERM
AUTHZ_MODE=AlwaysAllow scripts/kube-apiserver.sh start "$RUN_DIR" 2>/dev/null
kubectl --kubeconfig "$RUN_DIR/kubeconfig" apply --server-side -f config/crd/bases/ >/dev/null
sleep 2
# The server keeps every object (no controller-manager deletes namespaces), so later runs
# meet a fuller etcd: alternate the modes (bare, host, host, bare), ROUNDS times (default
# 2), and compare means.
ROUNDS=${ROUNDS:-2}
runs=()
for mode in $(for _ in $(seq "$ROUNDS"); do echo bare host host bare; done); do
  line=$("$BIN" --kubeconfig "$RUN_DIR/kubeconfig" --count "$COUNT" --mode "$mode")
  echo "$line"
  runs+=("$line")
done
python3 - "${runs[@]}" <<'PY'
import sys, statistics
runs = [dict(kv.split("=") for kv in line.split()) for line in sys.argv[1:]]
mean = lambda mode: statistics.mean(float(r["seconds"]) for r in runs if r["mode"] == mode)
median = lambda mode: statistics.median(float(r["seconds"]) for r in runs if r["mode"] == mode)
print(f"mean seconds: bare {mean('bare'):.2f}, host {mean('host'):.2f}; ratio host/bare: {mean('host') / mean('bare'):.3f}")
print(f"median seconds: bare {median('bare'):.2f}, host {median('host'):.2f}; ratio host/bare: {median('host') / median('bare'):.3f}")
PY
