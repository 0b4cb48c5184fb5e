#!/usr/bin/env bash
# Writes cli/testdata/upgrade/<REV>/: the Memcached operator as the scaffold of kubegen at
# REV wrote it (init, create api, create webhook --defaulting --programmatic-validation),
# untouched, for the tests of `codegen-cli upgrade`. REV predates the record `init` now
# writes, so this script writes it as init does: PROJECT with the commands it ran, and
# .kubegen/scaffold/ holding the same files as written (but those `manifests` rewrites).
# The checkout's path is written as @KUBEGEN@; a test puts its own there.
#
#   scripts/upgrade-fixture.sh 9286da8
#
# REV is checked out in a temporary worktree (init points the scaffold there) and its
# codegen-cli built (target/upgrade-fixture, minutes); OLD_CODEGEN_CLI=path uses one built
# at REV already.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
rev=${1:?usage: scripts/upgrade-fixture.sh REV}
out=$ROOT/cli/testdata/upgrade/$rev
bin=${OLD_CODEGEN_CLI:-}
work=$(mktemp -d)
trap 'rm -rf "$work"; [ -d "$work.tree" ] && git -C "$ROOT" worktree remove --force "$work.tree" || true' EXIT
git -C "$ROOT" worktree add -q --detach "$work.tree" "$rev"
if [ -z "$bin" ]; then
  CARGO_TARGET_DIR=$ROOT/target/upgrade-fixture cargo build -q --manifest-path "$work.tree/Cargo.toml" -p codegen-cli
  bin=$ROOT/target/upgrade-fixture/debug/codegen-cli
fi
mkdir "$work/p"
cd "$work/p"
commands=(
  "create api --group cache --version v1alpha1 --kind Memcached"
  "create webhook --group cache --version v1alpha1 --kind Memcached --defaulting --programmatic-validation"
)
"$bin" init --domain example.com --project-name memcached-operator --kubegen-path "$work.tree" > /dev/null
for c in "${commands[@]}"; do
  # shellcheck disable=SC2086
  "$bin" $c > /dev/null
done
mkdir -p .kubegen/scaffold
find . -type f ! -path './.kubegen/*' ! -path './target/*' \
  ! -path ./config/rbac/role.yaml ! -path ./config/crd/kustomization.yaml ! -path ./config/samples/kustomization.yaml \
  -print | while read -r f; do
  mkdir -p ".kubegen/scaffold/$(dirname "$f")"
  cp "$f" ".kubegen/scaffold/$f"
done
{
  printf '# Written by codegen-cli: how this project was scaffolded, `init` and each `create` and\n'
  printf '# `edit` after it. `codegen-cli upgrade` replays it with a newer codegen-cli and merges the\n'
  printf '# new scaffold into your files three ways, against the scaffold as last written in\n'
  printf '# .kubegen/scaffold/. Commit both; change neither by hand.\n'
  printf 'layout: "kubegen/v1"\nprojectName: "memcached-operator"\ncrateName: "memcached_operator"\n'
  printf 'domain: "example.com"\nnamespaced: false\nkubegen:\n  path: "%s"\n' "$ROOT"
  printf 'scaffoldedBy: "kubegen-cli 0.1.0 (%s)"\ncommands:\n' "$rev"
  for c in "${commands[@]}"; do
    # shellcheck disable=SC2086
    printf -- '- args: [%s]\n' "$(printf '"%s", ' $c | sed 's/, $//')"
  done
} > PROJECT
cp PROJECT .kubegen/scaffold/PROJECT
rm -rf target
grep -rlF -e "$ROOT" -e "$work.tree" . | while read -r f; do
  sed -i -e "s|$work.tree|@KUBEGEN@|g" -e "s|$ROOT|@KUBEGEN@|g" "$f"
done
rm -rf "$out"
mkdir -p "$(dirname "$out")"
cp -r . "$out"
echo "wrote $out ($(find "$out" -type f | wc -l) files)"
