#!/usr/bin/env bash
# Every published crate builds from its .crate file alone, as crates.io would build it:
# templates, tables and tests inside their packages, no path outside them.
#
#   scripts/package-check.sh
#
# `cargo package` writes the six .crate files (without its own verification, which builds
# each package in full, one after another). They are unpacked side by side into
# target/package-check/ as a workspace of their own, each depending on the others' unpacked
# copies (as a registry would serve them: [patch.crates-io]), with the repository's
# Cargo.lock, and `cargo check`ed together: every macro expanded, every included file read,
# every type checked; machine code is the one thing a check leaves out, and packaging cannot
# change it. Libraries leave k8s-openapi's version to the final binary, so the workspace
# holds one more member that chooses it, as a user's binary would.
#
# It checks in target/tests/trybuild, the compile-fail tests' target dir: the same
# dependencies, checked in the same profile, are reused from there. Everything it writes is
# under target/package-check/ (recreated on each run) and that target dir.
set -euo pipefail
case "${1:-}" in
  "") ;;
  -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
  *) echo "usage: $0 (no arguments; see --help)" >&2; exit 2 ;;
esac
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
jobs=${KUBEGEN_JOBS:-2}
crates=(kubegen-core kubegen-cel kubegen-derive kubegen-rs kubegen-cli codegen-cli)
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)

args=()
for c in "${crates[@]}"; do args+=(-p "$c"); done
cargo package -q --no-verify --allow-dirty "${args[@]}"

work=target/package-check
rm -rf "$work"
mkdir -p "$work"
members="" patches=""
for c in "${crates[@]}"; do
  # -m: cargo package stamps every file 2006; unpacked as new, a reused target dir
  # rebuilds them instead of taking a stale build of older sources for fresh.
  tar -xzmf "target/package/$c-$version.crate" -C "$work"
  members+="\"$c-$version\", "
  patches+="$c = { path = \"$c-$version\" }"$'\n'
done
mkdir -p "$work/final-binary/src"
cat > "$work/final-binary/Cargo.toml" <<EOF
[package]
name = "final-binary"
version = "0.0.0"
edition = "2024"
publish = false

# The final binary chooses k8s-openapi's version; no library does.
[dependencies]
k8s-openapi = { version = "0.29", default-features = false, features = ["latest"] }
EOF
echo 'fn main() {}' > "$work/final-binary/src/main.rs"
cat > "$work/Cargo.toml" <<EOF
[workspace]
resolver = "3"
members = [${members}"final-binary"]

[patch.crates-io]
${patches}
# As the repository's own: line tables for these crates, none for dependencies.
[profile.dev]
debug = "line-tables-only"

[profile.dev.package."*"]
debug = false
EOF
cp Cargo.lock "$work/Cargo.lock"
CARGO_TARGET_DIR=$ROOT/target/tests/trybuild cargo check -q -j "$jobs" --manifest-path "$work/Cargo.toml" --workspace
printf 'package-check: %s built from their packages (%s)\n' "${crates[*]}" "$work"
