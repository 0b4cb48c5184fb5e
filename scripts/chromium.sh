#!/usr/bin/env bash
# Headless Chromium from Debian's packages, for the HTML API reference's browser test
# (scripts/browser-test.sh). Installs it only when missing, without questions (CI has no
# stdin), and prints the binary's path.
set -euo pipefail
find_chromium() { command -v chromium || command -v chromium-browser || true; }
bin=$(find_chromium)
if [ -z "$bin" ]; then
  echo "[chromium] installing Debian's chromium package" >&2
  export DEBIAN_FRONTEND=noninteractive
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo -n"; fi
  $sudo apt-get update -qq >&2
  $sudo apt-get install -y -qq --no-install-recommends chromium >&2 </dev/null
  bin=$(find_chromium)
fi
if [ -z "$bin" ]; then
  echo "[chromium] no chromium after apt-get install" >&2
  exit 1
fi
echo "$bin"
