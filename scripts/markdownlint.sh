#!/usr/bin/env bash
# markdownlint (markdownlint-cli2, from the npm registry, installed once under
# target/markdownlint) over the references generated from the code: the API references
# `codegen-cli docs` writes (the examples' in docs/api, the zoo's golden in
# tests/golden/docs) and kubegen's own command-line and marker references (docs/cli.md,
# docs/markers.md). Rules: .markdownlint-cli2.jsonc.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=0.17.2
dir=target/markdownlint
bin=$dir/node_modules/.bin/markdownlint-cli2
if [ ! -x "$bin" ] || ! grep -q "\"version\": \"$VERSION\"" "$dir/node_modules/markdownlint-cli2/package.json" 2>/dev/null; then
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{"private": true}' > "$dir/package.json"
  (cd "$dir" && npm install --no-audit --no-fund --loglevel=error "markdownlint-cli2@$VERSION" >/dev/null)
fi
"$bin" "docs/api/**/*.md" "tests/golden/docs/**/*.md" docs/cli.md docs/markers.md
