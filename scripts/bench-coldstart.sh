#!/usr/bin/env bash
# A new user's cold start, timed: `cargo install` of the CLI (release, its own empty target
# dir; not in --quick), then in a scaffolded Memcached workspace (init + create api)
# with an empty target dir, the first `cargo build`, then the first `manifests` by the
# installed binary (the helper program alone) and by `cargo run -p codegen-cli --
# manifests` (the CLI member too), then the switch back and forth that a day of
# work repeats (each must compile nothing); prints each time and the size of target/.
#
#   scripts/bench-coldstart.sh           a cold target dir (minutes: every dependency compiles)
#   scripts/bench-coldstart.sh --quick   the repository's warm target dir (CI: the bench still runs)
#
# The CLI that runs `init` is this checkout's debug build; the workspace depends on this
# checkout by path, as `init --kubegen-path` writes it.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
quick=false
case "${1:-}" in
  --quick) quick=true ;;
  "") ;;
  -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
  *) echo "usage: $0 [--quick]" >&2; exit 2 ;;
esac
export CARGO_TERM_COLOR=never
WORK=$(mktemp -d /tmp/kubegen-coldstart.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
cargo build -q --manifest-path "$ROOT/Cargo.toml" -p codegen-cli
cli=$ROOT/target/debug/codegen-cli
if $quick; then
  export CARGO_TARGET_DIR=$ROOT/target
else
  export CARGO_TARGET_DIR=$WORK/target
fi

mkdir "$WORK/memcached-operator" && cd "$WORK/memcached-operator"
"$cli" init --domain example.com --kubegen-path "$ROOT" >/dev/null 2>&1
"$cli" create api --group cache --version v1alpha1 --kind Memcached >/dev/null 2>&1
cp "$ROOT/Cargo.lock" .

# Seconds taken by a command, its cargo output kept for the compile count.
timed() {
  local name=$1 start end
  shift
  start=$(date +%s.%N)
  "$@" >"$WORK/out" 2>&1 || { cat "$WORK/out" >&2; exit 1; }
  end=$(date +%s.%N)
  printf '%-48s %7.1fs  %3d crates compiled\n' "$name" "$(awk "BEGIN { print $end - $start }")" "$(grep -c '^ *Compiling ' "$WORK/out" || true)"
}
if ! $quick; then
  # As the README installs it, from this checkout, into a target dir of its own.
  timed "cargo install --path codegen-cli (release)" \
    cargo install --path "$ROOT/codegen-cli" --locked --root "$WORK/install" --target-dir "$WORK/install-target"
  printf '%-48s %8s\n' "its target/ size" "$(du -sh "$WORK/install-target" | cut -f1)"
  rm -rf "$WORK/install-target"
fi

timed "cargo build (first)" cargo build
# The installed binary first: it compiles only the helper program, not the CLI member.
timed "codegen-cli manifests (installed binary, first)" "$cli" manifests
timed "cargo run -p codegen-cli -- manifests (first)" cargo run -p codegen-cli -- manifests
timed "cargo build (again)" cargo build
timed "cargo run -p codegen-cli -- manifests (again)" cargo run -p codegen-cli -- manifests
timed "codegen-cli manifests (installed binary, again)" "$cli" manifests
if ! $quick; then
  printf '%-48s %8s\n' "target/ size" "$(du -sh "$CARGO_TARGET_DIR" | cut -f1)"
fi
