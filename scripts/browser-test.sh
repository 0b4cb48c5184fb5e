#!/usr/bin/env bash
# The HTML API reference in a real browser: headless Chromium from Debian's packages
# (scripts/chromium.sh) driven by puppeteer-core from the npm registry (installed once
# under target/browser-test), over the sites `codegen-cli docs` wrote (the examples' in
# docs/api, the zoo's golden in tests/golden/docs), opened from disk. What it checks:
# tests/browser/docs.mjs. Screenshots: target/docs-screenshots/.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=24.43.1
dir=target/browser-test
chromium=$(scripts/chromium.sh)
if ! grep -q "\"version\": \"$VERSION\"" "$dir/node_modules/puppeteer-core/package.json" 2>/dev/null; then
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{"private": true}' > "$dir/package.json"
  (cd "$dir" && npm install --no-audit --no-fund --loglevel=error "puppeteer-core@$VERSION" >/dev/null)
fi
CHROMIUM="$chromium" PUPPETEER_DIR="$dir" node tests/browser/docs.mjs docs/api tests/golden/docs </dev/null
