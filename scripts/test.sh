#!/usr/bin/env bash
# Every test tier, as CI runs it: unit, golden and compile-fail (UI) tests, the
# manifests and Kubernetes-marker staleness checks, then end-to-end on real
# kube-apiservers + etcd: the whole tier on the newest Kubernetes release, the CRD tier
# again on the oldest release still supported upstream.
# Installs what it needs (Go modules from the proxy, Debian's etcd) on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}
# CI's machine builds once and has a few gigabytes of disk: incremental compilation's caches
# (as large as the artifacts themselves) would buy nothing there.
if [ -n "${CI:-}" ]; then export CARGO_INCREMENTAL=0; fi
jobs=${KUBEGEN_JOBS:-2}
newest=v1.37.2
floor=v1.35.4

started=$(date +%s)
stage="" stage_start=$started times=""
step() {
  local now
  now=$(date +%s)
  if [ -n "$stage" ]; then
    printf -- '--- %s: %ss (%s)\n' "$stage" $((now - stage_start)) "$(disk)"
    times+="$(printf '%6ss  %s' $((now - stage_start)) "$stage")"$'\n'
  fi
  stage=$*
  stage_start=$now
  [ -n "$stage" ] && printf '\n=== %s\n' "$stage"
  return 0
}
disk() {
  printf '%s target/, %s Go caches, %s free\n' "$(du -sh target 2>/dev/null | cut -f1)" \
    "$(du -csh "$(go env GOCACHE)" "$(go env GOMODCACHE)" 2>/dev/null | tail -1 | cut -f1)" \
    "$(df -h --output=avail . | tail -1 | tr -d ' ')"
}
printf 'disk at the start: %s\n' "$(disk)"
# One seed for every generated tier of this run (kinds, objects, CEL rules, API changes),
# on both API servers. CI runs seed 7, whose every case is known to pass, so main stays
# green and a failure is a regression; KUBEGEN_SEED=<n> scripts/test.sh explores another
# seed (or KUBEGEN_SEED=<n> with one tier's e2e test: see each test's doc for its variables).
export KUBEGEN_SEED=${KUBEGEN_SEED:-7}
printf 'generated tiers: seed %s (KUBEGEN_SEED=%s repeats them)\n' "$KUBEGEN_SEED" "$KUBEGEN_SEED"
trap 'step; printf "\nstage times:\n%s%6ss  total\n" "$times" $(( $(date +%s) - started )); disk' EXIT

# The apiserver builds (Go, ~4 min each on 2 cores) run beside the Rust build, and then
# Helm's (the user flow lints, renders and verifies the scaffold's chart with it).
step "kube-apiserver $newest and $floor, and Helm, from the Go module proxy (cached under target/)"
mkdir -p target
(scripts/kube-apiserver.sh build && KUBE_VERSION=$floor scripts/kube-apiserver.sh build && scripts/helm.sh) \
  > target/kube-apiserver-build.log 2>&1 &
apiserver_build=$!

step "our crates are rustfmt-clean (cargo fmt --check)"
cargo fmt --all -- --check

step "Kubernetes marker tables are up to date (scripts/k8s-markers.sh)"
scripts/k8s-markers.sh --check

step "unit, golden and UI tests"
cargo test --workspace -j "$jobs"

# clippy as a gate on our own code, as the scaffolded project's CI has it. Allowed:
# `duplicated_attributes`, which reads kube's repeatable `#[kube(printcolumn(...))]` (one
# attribute per column, as kube-derive users write them) as a mistake.
step "clippy is clean (cargo clippy --workspace --all-targets -- -D warnings)"
cargo clippy --version >/dev/null 2>&1 || rustup component add clippy
cargo clippy -q --workspace --all-targets -j "$jobs" -- -D warnings -A clippy::duplicated_attributes
# trybuild checked the compile-fail cases against dependencies of their own
# (target/tests/trybuild); the package check reuses them, and then CI drops them.

# The CLI as the unit stage built it (its integration tests run the binary): `cargo run -p
# codegen-cli` resolves the features of that package alone, and `cargo build --bins` those
# of the workspace without dev-dependencies: either would compile the CLI and its
# dependencies again. Users' CI runs `cargo run -p codegen-cli -- manifests --check`
# (scripts/user-flow.sh does, in a scaffolded workspace).
cli=target/debug/codegen-cli
[ -x "$cli" ] || cargo build -q -j "$jobs" -p codegen-cli

step "manifests are up to date"
"$cli" manifests --check

# The fingerprint lets an unchanged workspace skip the helper; this proves it never
# vouches for a stale result (its own workspace, built in target/ beside the examples').
step "a skipped manifests --check is never stale: a marker, a doc comment, a dependency's version, a feature flag"
cargo test -q -j "$jobs" -p codegen-cli --test cli -- --ignored a_skipped_check_is_never_stale

step "manifests, clients and docs killed at random points (seed \$KUBEGEN_SEED, 12 kills each): never a half-written file"
KUBEGEN_SEED=${KUBEGEN_SEED:-7} cargo test -q -j "$jobs" -p codegen-cli --test cli -- --ignored a_killed_run_leaves_no_half_written_file --nocapture

step "clients are up to date (the examples' in clients/, the zoo's goldens in tests/golden/clients)"
"$cli" clients --check
"$cli" clients -p kubegen-tests --out tests/golden/clients --check

# The breaking-change gate against the merge base with the default branch; on a clean clone
# of main that is HEAD itself, so the committed CRDs are compared with the ones generated
# now. Each run prints what it compared. The examples are advisory (--warn-only); the zoo
# fails on a breaking change in its stable versions (v*alpha* are warnings by default).
# --build-ref builds the merge base's kinds, so the generated clients are compared too.
step "breaking changes against the merge base (codegen-cli diff: the examples advisory, the zoo's stable versions gate)"
"$cli" diff --build-ref --warn-only
"$cli" diff --build-ref -p kubegen-tests --crd-dir tests/golden

step "the API reference is up to date (the examples' in docs/api, the zoo's golden in tests/golden/docs) and passes markdownlint"
"$cli" docs --check
"$cli" docs -p kubegen-tests --out tests/golden/docs --check
scripts/markdownlint.sh

step "the HTML API reference in headless Chromium: no console error, internal links, a field's type, search, version switch (screenshots: target/docs-screenshots/)"
scripts/browser-test.sh

step "controller-gen as the oracle (scripts/oracle.sh)"
scripts/oracle.sh

step "waiting for the kube-apiserver and Helm builds"
if ! wait "$apiserver_build"; then
  cat target/kube-apiserver-build.log >&2
  exit 1
fi
grep '^\[kube-apiserver\] \(built\|cached\)' target/kube-apiserver-build.log

# The end-to-end tiers leave a core idle much of the time (leases, watches, the server's own
# pace). Two CPU-bound stages that need no server use it meanwhile, at the lowest priority so
# the tiers keep their pace: the fuzz targets (nightly, a target dir of their own; a fuzz
# input may take up to FUZZ_TIMEOUT on the busy machine before it counts as a hang), and
# every published crate checked from its package (in the compile-fail tests' target dir,
# whose dependency checks it reuses). Each reports below, after the tiers, and fails CI then.
step "in the background, niced, while the end-to-end tiers run: fuzz targets, ${FUZZ_SECONDS:-20} s each (scripts/fuzz.sh), then every published crate from its package (scripts/package-check.sh)"
background_started=$(date +%s)
(
  status=0
  FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-60} nice -n 19 scripts/fuzz.sh > target/ci-fuzz.log 2>&1 || status=1
  # Its build serves no later stage on CI's fresh machine.
  if [ -n "${CI:-}" ]; then rm -rf fuzz/target; fi
  printf 'fuzz: done after %ss\n' $(( $(date +%s) - background_started )) >> target/ci-fuzz.log
  nice -n 19 scripts/package-check.sh > target/ci-package.log 2>&1 || status=$((status + 2))
  if [ -n "${CI:-}" ]; then rm -rf target/tests/trybuild target/package-check; fi
  printf 'package check: done after %ss\n' $(( $(date +%s) - background_started )) >> target/ci-package.log
  exit $status
) &
background=$!
echo "started (pid $background): target/ci-fuzz.log, target/ci-package.log"

step "end-to-end on kube-apiserver $newest"
KUBE_VERSION=$newest scripts/e2e.sh

# The clients' toolchains (node_modules, a Python venv: half a gigabyte) serve no later stage.
if [ -n "${CI:-}" ]; then rm -rf target/clients-e2e; fi

step "CRD tier on kube-apiserver $floor"
KUBE_VERSION=$floor scripts/e2e.sh --crd-tier

step "the background stages: fuzz targets and packages (started before the end-to-end tiers)"
background_status=0
wait "$background" || background_status=$?
cat target/ci-fuzz.log target/ci-package.log
if [ "$background_status" -ne 0 ]; then
  echo "background stages failed: $( ((background_status & 1)) && echo 'fuzz targets ' )$( ((background_status & 2)) && echo 'package check' )" >&2
  exit 1
fi

# Benchmarks print figures, never pass/fail on them; here each runs briefly so a bench
# that no longer builds or runs fails CI (the full runs: see the README).
step "benches, quick: crd() and CEL (debug), derive build time, manifests --check, provider scale, the reconciler host, sharded managers, a cold start's steps"
cargo test -q -j "$jobs" -p kubegen-tests --bench crd --bench cel
python3 scripts/bench-build.py --quick
python3 scripts/bench-manifests.py --quick
python3 scripts/bench-scale.py --quick
BENCH_PROFILE=dev ROUNDS=1 scripts/bench-controller.sh 20
scripts/bench-shards.sh --quick
scripts/bench-coldstart.sh --quick
step
