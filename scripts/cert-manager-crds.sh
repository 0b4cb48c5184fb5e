#!/usr/bin/env bash
# cert-manager's CustomResourceDefinitions (Certificate, Issuer, ...), for a test server
# that must take the objects config/certmanager declares: `kubectl apply -k config/default`
# of a project with webhooks. Only the CRDs: no cert-manager controller runs, so no
# certificate is issued (kubegen's own e2e tests serve webhooks on certificates kubegen
# makes itself).
#
#   scripts/cert-manager-crds.sh          print the CRDs (YAML) on stdout
#
# They come from the github.com/cert-manager/cert-manager Go module (CERT_MANAGER_VERSION),
# through the Go module proxy; its deploy/crds are Helm templates, so the template-only
# labels are dropped. The module is cached in Go's module cache.
set -euo pipefail
VERSION=${CERT_MANAGER_VERSION:-v1.16.2}
dir=$(cd "${TMPDIR:-/tmp}" && GOFLAGS=-mod=mod go mod download -json "github.com/cert-manager/cert-manager@$VERSION" \
  | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -d "$dir/deploy/crds" ] || { echo "cert-manager $VERSION has no deploy/crds in $dir" >&2; exit 1; }
for crd in "$dir"/deploy/crds/crd-*.yaml; do
  echo "---"
  # metadata.labels holds only Helm template values; every other line is plain YAML.
  awk '
    /^  labels:$/ { skip = 1; next }
    skip && /^    / { next }
    { skip = 0; print }
  ' "$crd"
done
