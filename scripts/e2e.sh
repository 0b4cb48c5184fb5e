#!/usr/bin/env bash
# End-to-end tier: generated CRDs applied to a real kube-apiserver backed by etcd.
# Builds the apiserver once (cached under target/), starts it on free loopback ports
# with its own data dir, runs the e2e tests against it, and always stops it.
#
#   scripts/e2e.sh [FILTER...]     every e2e test, testenv, and a new user's workspace
#   scripts/e2e.sh --crd-tier      only the CRD and controller tests (tests/tests/e2e)
#
# KUBE_VERSION picks the Kubernetes release (scripts/kube-apiserver.sh).
set -euo pipefail
crd_tier=false
if [[ "${1:-}" == --crd-tier ]]; then crd_tier=true; shift; fi
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
# Each step prints its time, so CI's log says where the tier's minutes go.
timed() {
  local start=$SECONDS
  "$@"
  printf -- '--- e2e step: %ss  %s\n' $((SECONDS - start)) "$*"
}
command -v kubectl >/dev/null || { echo "kubectl is required for the e2e tier" >&2; exit 1; }
scripts/kube-apiserver.sh build
RUN_DIR=$ROOT/target/kube-e2e/run-$$
WEBHOOK_HOST_PID=
cleanup() {
  if [[ -n $WEBHOOK_HOST_PID ]]; then kill "$WEBHOOK_HOST_PID" 2>/dev/null || true; fi
  scripts/kube-apiserver.sh stop "$RUN_DIR" || true
}
trap cleanup EXIT INT TERM
# One seed for every generated tier, and for the step that reads what they left: seed 7,
# as CI runs (KUBEGEN_SEED=<n> explores another).
export KUBEGEN_SEED=${KUBEGEN_SEED:-7}
scripts/kube-apiserver.sh start "$RUN_DIR"
export KUBEGEN_E2E_KUBECONFIG=$RUN_DIR/kubeconfig
timed cargo build -q -p foo-controller -p codegen-cli
export KUBEGEN_FOO_CONTROLLER=$ROOT/target/debug/foo-controller
# The differential diff tier runs `codegen-cli diff OLD NEW` as a user does.
export KUBEGEN_CODEGEN_CLI=$ROOT/target/debug/codegen-cli
# The example's webhooks, as config/ deploys them: foo-controller serves Foo's defaulter,
# validator and conversion for the whole tier. It runs here, not in a pod (this API server
# has no cluster network to reach the webhook Service): on 127.0.0.1 with a certificate
# for that address, and the tests point what config/ registers at it
# (tests/tests/e2e/cluster.rs, deploy). Its controller watches a namespace of its own.
certs=$RUN_DIR/foo-webhook-certs
scripts/local-webhook-certs.sh "$certs" foo-controller-e2e-webhook-ca
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$KUBEGEN_FOO_CONTROLLER" --kubeconfig "$KUBEGEN_E2E_KUBECONFIG" --namespace kubegen-e2e-webhook-host \
  --health-probe-bind-address 127.0.0.1:0 --webhook-cert-path "$certs" --webhook-bind-address "127.0.0.1:$port" \
  > "$RUN_DIR/foo-webhook-host.log" 2>&1 &
WEBHOOK_HOST_PID=$!
scripts/wait-for-port.sh "$port" \
  || { cat "$RUN_DIR/foo-webhook-host.log" >&2; echo "foo-controller does not serve its webhooks on :$port" >&2; exit 1; }
export KUBEGEN_E2E_WEBHOOK_URL=https://127.0.0.1:$port KUBEGEN_E2E_WEBHOOK_CA=$certs/ca.crt
# The API server restart test runs alone, after the others: it takes the server away.
# The CEL corpus runs on its own, to print how far kubegen and Validate agree with the server.
if [[ $# -eq 0 ]]; then
  timed cargo test -p kubegen-tests --test e2e -- --ignored --skip zz_ --skip cel_corpus
  timed cargo test -p kubegen-tests --test e2e -- --ignored --nocapture cel_corpus
  # The derive's CEL cost at build against the server, at the edge of its budget.
  timed cargo test -p kubegen-tests --test cel_cost -- --ignored
else
  timed cargo test -p kubegen-tests --test e2e -- --ignored --skip zz_ "$@"
fi
if $crd_tier; then
  timed cargo test -p kubegen-tests --test e2e -- --ignored zz_ "$@"
  exit 0
fi
# kubegen::testenv takes its binaries where controller-runtime's envtest does.
export KUBEBUILDER_ASSETS=$ROOT/target/kube-e2e/assets
mkdir -p "$KUBEBUILDER_ASSETS"
ln -sfn "$(scripts/kube-apiserver.sh bin)" "$KUBEBUILDER_ASSETS/kube-apiserver"
ln -sfn "$(command -v etcd)" "$KUBEBUILDER_ASSETS/etcd"
timed cargo test -p kubegen-tests --test testenv --test host --test stacked_markers -- --ignored
timed cargo test -p kubegen-tests --test agreement -- --ignored --exact the_server_agrees
# The generated clients, every verb against this server.
KUBECONFIG=$RUN_DIR/kubeconfig timed scripts/clients-e2e.sh
# The generated kinds' clients (the crate the generated kinds tier built) through go build,
# tsc --strict and mypy --strict, and the server's objects through each client.
timed scripts/generated-clients.sh
# The differential objects tier's cases (the zoo's objects and one-constraint mutations,
# with the server's verdicts) through the zoo's Go, TypeScript and Python clients, and the
# admitted ones through the Python and TypeScript clients' verbs against this server.
KUBECONFIG=$RUN_DIR/kubeconfig timed scripts/objects-clients.sh
# A new user's workspace, from `codegen-cli init` to a reconciled sample.
KUBECONFIG=$RUN_DIR/kubeconfig timed scripts/user-flow.sh
timed cargo test -p kubegen-tests --test e2e -- --ignored zz_ "$@"
