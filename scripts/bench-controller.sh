#!/usr/bin/env bash
# The reconciler host against a bare kube-runtime Controller on a real API server:
# N Foos (default 1000), same reconcile, one process per mode. Prints both lines and
# the ratio of the host's time to the bare controller's.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
COUNT=${1:-1000}
scripts/kube-apiserver.sh build
cargo build -q --release -p foo-controller --bin foo-bench
RUN_DIR=$ROOT/target/kube-bench/run-$$
trap 'scripts/kube-apiserver.sh stop "$RUN_DIR" || true' EXIT INT TERM
AUTHZ_MODE=AlwaysAllow scripts/kube-apiserver.sh start "$RUN_DIR" 2>/dev/null
kubectl --kubeconfig "$RUN_DIR/kubeconfig" apply --server-side -f config/crd/bases/ >/dev/null
sleep 2
bare=$(target/release/foo-bench --kubeconfig "$RUN_DIR/kubeconfig" --count "$COUNT" --mode bare)
host=$(target/release/foo-bench --kubeconfig "$RUN_DIR/kubeconfig" --count "$COUNT" --mode host)
echo "$bare"
echo "$host"
python3 - "$bare" "$host" <<'PY'
import sys
secs = lambda line: float(dict(kv.split("=") for kv in line.split())["seconds"])
print(f"ratio host/bare: {secs(sys.argv[2]) / secs(sys.argv[1]):.3f}")
PY
