#!/usr/bin/env bash
# Helm, pinned, from the Go module proxy (as scripts/oracle.sh installs controller-gen):
# built once into target/tools/ and reused. Prints the binary's path.
#
#   HELM=$(scripts/helm.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
HELM_VERSION=${HELM_VERSION:-v4.3.2}
bin=$PWD/target/tools/bin
helm=$bin/helm-$HELM_VERSION
if [ ! -x "$helm" ]; then
  mkdir -p "$bin"
  export GOFLAGS="-mod=mod -buildvcs=false" GOTOOLCHAIN=local
  # The module proxy answers 503 now and then: three tries, 5 s and 20 s apart.
  for wait in 5 20 0; do
    GOBIN=$bin go install "helm.sh/helm/v4/cmd/helm@$HELM_VERSION" >&2 && break
    [ "$wait" -gt 0 ] || { echo "helm: cannot install helm $HELM_VERSION from the module proxy" >&2; exit 1; }
    echo "helm: go install failed; again in ${wait}s" >&2
    sleep "$wait"
  done
  mv "$bin/helm" "$helm"
fi
echo "$helm"
