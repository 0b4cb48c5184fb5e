#!/usr/bin/env bash
# The differential objects tier through the zoo's clients (issue 28). Reads the cases the
# tier left in target/generated-objects/$KUBEGEN_SEED/cases.json (tests/tests/e2e/
# generated_objects.rs: each drawn object and each one-constraint mutation, with the API
# server's verdict and what it stored), so it runs after it, and after
# scripts/clients-e2e.sh, whose zoo packages, node_modules and virtualenv it uses; and
# against the server of $KUBECONFIG with the zoo's CRDs installed (scripts/e2e.sh's).
#
#   KUBEGEN_SEED=7 KUBECONFIG=... scripts/objects-clients.sh
#
# tests/clients/objects_through_clients.py asks the Python model, a tsc --strict literal and
# the Go type (decoded refusing unknown fields, encoded back; once with the package's own
# types for Kubernetes' (the default), once with k8s.io/api's, `go-kubernetes-types =
# "upstream"`) about every case: each takes
# what the server admitted and gives the stored object back unchanged; of what the server
# refused, each refuses the families its types express at the same field path. Then every
# admitted object goes through the Python and TypeScript clients' create and get.
# Prints `N/M agree` per client and family. Writes only under target/objects-clients.
set -euo pipefail
case "${1:-}" in
  "") ;;
  -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
  *) echo "usage: KUBEGEN_SEED=<n> KUBECONFIG=<file> $0 (see --help)" >&2; exit 2 ;;
esac
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
seed=${KUBEGEN_SEED:?KUBEGEN_SEED names the run of the differential objects tier}
: "${KUBECONFIG:?KUBECONFIG names the server the tier ran on}"
cases=$ROOT/target/generated-objects/$seed/cases.json
[ -f "$cases" ] || { echo "no cases for seed $seed ($cases): run the differential objects tier first (scripts/e2e.sh)" >&2; exit 2; }
zoo=$ROOT/target/clients-e2e
venv=$zoo/venv
[ -d "$zoo/typescript/node_modules" ] && [ -x "$venv/bin/python" ] && [ -d "$zoo/python/kubegen_api" ] || {
  echo "scripts/clients-e2e.sh generates the zoo's packages and installs the toolchains this uses: run it first" >&2
  exit 2
}
work=$ROOT/target/objects-clients
rm -rf "$work" && mkdir -p "$work/typescript"
cp -r tests/golden/clients/go "$work/go"
cp -r "$zoo/typescript/src" "$zoo/typescript/package.json" "$zoo/typescript/tsconfig.json" "$work/typescript/"
rm -f "$work/typescript/src/"*.test.ts "$work/typescript/src/readme.ts"
ln -s "$zoo/typescript/node_modules" "$work/typescript/node_modules"
(cd "$work/go" && go mod tidy >/dev/null 2>&1 || true)
# The zoo's Go package again with k8s.io/api's types for Kubernetes' own
# (`go-kubernetes-types = "upstream"`, the opt-in for client-go interop): its known losses
# are tests/clients/objects-known.txt's `go-upstream` class.
cli=${KUBEGEN_CODEGEN_CLI:-$ROOT/target/debug/codegen-cli}
# Built here unless given (scripts/e2e.sh builds it): a stale binary lacks new flags.
[ -n "${KUBEGEN_CODEGEN_CLI:-}" ] || cargo build -q -p codegen-cli
"$cli" clients -p kubegen-tests --lang go --go-kubernetes-types upstream --out target/objects-clients/go-upstream
(cd "$work/go-upstream" && go mod tidy >/dev/null 2>&1 || true)
PYTHONPATH=$zoo/python "$venv/bin/python" tests/clients/objects_through_clients.py "$cases" "$work"
