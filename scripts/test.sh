#!/usr/bin/env bash
# Every test tier, as CI runs it: unit, golden and compile-fail (UI) tests, the
# manifests staleness check, then end-to-end on a real kube-apiserver + etcd.
# Installs what it needs (Debian packages for the apiserver) on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}
jobs=${KUBEGEN_JOBS:-2}

step() { printf '\n=== %s\n' "$*"; }

# The apiserver build (Go, ~4 min on 2 cores) runs beside the Rust build.
step "kube-apiserver (cached under target/)"
mkdir -p target
scripts/kube-apiserver.sh build > target/kube-apiserver-build.log 2>&1 &
apiserver_build=$!

step "unit, golden and UI tests"
cargo test --workspace -j "$jobs"

step "manifests are up to date"
cargo run -q -p codegen-cli -- manifests --check

step "waiting for the kube-apiserver build"
if ! wait "$apiserver_build"; then
  cat target/kube-apiserver-build.log >&2
  exit 1
fi
tail -1 target/kube-apiserver-build.log

step "end-to-end on a real kube-apiserver"
scripts/e2e.sh
