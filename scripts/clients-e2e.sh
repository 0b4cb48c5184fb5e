#!/usr/bin/env bash
# The generated clients against a real API server (KUBECONFIG, with the zoo's CRDs
# installed, as scripts/e2e.sh leaves it): each language's package for the test zoo is
# generated under target/clients-e2e/, built and type-checked (tsc --strict) together
# with a test module that uses it, and the test runs every verb against the server.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${KUBECONFIG:?KUBECONFIG must name the e2e server}"
out=target/clients-e2e

# The committed package (the examples' kinds) type-checks as it is.
rm -rf "$out/examples-typescript" && mkdir -p "$out" && cp -r clients/typescript "$out/examples-typescript"
(cd "$out/examples-typescript" && npm install --no-audit --no-fund --loglevel=error && npx tsc --noEmit --strict)

rm -rf "$out/typescript/src" "$out/typescript/dist"
cargo run -q -p codegen-cli -- clients --lang typescript -p kubegen-tests --out "$out/typescript"
cp tests/clients/typescript.e2e.ts "$out/typescript/src/e2e.test.ts"
(
  cd "$out/typescript"
  npm install --no-audit --no-fund --loglevel=error
  npx tsc --strict
  node dist/e2e.test.js
)
