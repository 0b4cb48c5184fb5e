#!/usr/bin/env bash
# Regenerates runtime/src/schema/k8s/v1_*.json: for each Kubernetes minor that
# k8s-openapi supports, the list types, map keys, map types, defaults and kubebuilder
# validations that the Go markers of that release's API modules carry (read by
# scripts/k8s-markers, a parser over the module sources from the Go module proxy).
#
#   scripts/k8s-markers.sh          rewrite the tables
#   scripts/k8s-markers.sh --check  exit 1 with a diff when a table is stale
set -euo pipefail
cd "$(dirname "$0")/.."

# k8s-openapi feature → the patch release of the API modules (k8s.io/api is v0.<minor>.x).
RELEASES=(1.33=v0.33.13 1.34=v0.34.13 1.35=v0.35.10 1.36=v0.36.6 1.37=v0.37.2)
MODULES=(k8s.io/api k8s.io/apimachinery k8s.io/apiextensions-apiserver k8s.io/kube-aggregator)

check=false
[[ "${1:-}" == "--check" ]] && check=true

tool=target/kubegen/k8s-markers
mkdir -p target/kubegen
(cd scripts/k8s-markers && go build -o ../../"$tool" .)

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
stale=0
for release in "${RELEASES[@]}"; do
  minor=${release%%=*}
  version=${release#*=}
  args=()
  for module in "${MODULES[@]}"; do
    dir=$(cd "$scratch" && GOFLAGS=-mod=mod go mod download -json "$module@$version" |
      python3 -c 'import json, sys; d = json.load(sys.stdin); print(d.get("Dir") or sys.exit(d.get("Error", "no Dir")))')
    args+=("$module=$dir")
  done
  table="runtime/src/schema/k8s/v${minor/./_}.json"
  "$tool" "${args[@]}" >"$scratch/table.json"
  if $check; then
    if ! diff -u "$table" "$scratch/table.json"; then
      echo "$table is stale: run scripts/k8s-markers.sh" >&2
      stale=1
    fi
  else
    mv "$scratch/table.json" "$table"
    echo "wrote $table ($(wc -c <"$table") bytes, from $version)"
  fi
done
exit $stale
