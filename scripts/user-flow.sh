#!/usr/bin/env bash
# A new user's first hour, as the README tells it, in a temporary directory outside this
# repository: install codegen-cli, `init` + `create api` a Memcached operator, build it,
# `cargo run -p codegen-cli -- manifests` in the new workspace, then every target of the
# scaffolded Makefile: `make test` (the scaffolded test on kubegen::testenv, with the
# binaries `codegen-cli envtest` prepares), install/uninstall, deploy config/default to the
# API server of $KUBECONFIG, `make run` the manager as the ServiceAccount that config/
# deploys (so the scaffolded RBAC alone must be enough) and watch it reconcile the sample,
# build-installer, undeploy; docker-build and docker-push need a container engine and
# are checked with `make -n`. Run by scripts/e2e.sh; needs a running API server
# (KUBECONFIG). codegen-cli envtest keeps its store under target/envtest.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
: "${KUBECONFIG:?set KUBECONFIG to the e2e API server}"
: "${KUBE_VERSION:=v1.37.2}"
export KUBECONFIG CARGO_TERM_COLOR=never
# The scaffold's `make test` must find its binaries through `codegen-cli envtest` alone.
unset KUBEBUILDER_ASSETS KUBEGEN_ASSETS
export KUBEGEN_ENVTEST_DIR=$ROOT/target/envtest
# Built from the Go module, as the tiers' own server is: CI stays off the network (the
# download of prebuilt archives is cli/src/envtest.rs' test, against a local server).
export KUBEGEN_ENVTEST_INDEX=none
# One target dir with this repository: the new workspace's dependencies are compiled once.
export CARGO_TARGET_DIR=$ROOT/target
WORK=$(mktemp -d /tmp/kubegen-user-flow.XXXXXX)
MANAGER_PID=
cleanup() {
  [ -n "$MANAGER_PID" ] && kill "$MANAGER_PID" 2>/dev/null || true
  # make cluster's processes, when a stage failed before make cluster-stop.
  if [ -f "$WORK/memcached-operator/target/kubegen/cluster/kubegen-cluster.json" ]; then
    "$WORK/bin/bin/codegen-cli" envtest stop --dir "$WORK/memcached-operator/target/kubegen/cluster" >/dev/null 2>&1 || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
t0=$(date +%s)
checkout_state=$(git -C "$ROOT" status --porcelain --untracked-files=no)
stage() { printf '[user-flow %4ss] %s\n' "$(( $(date +%s) - t0 ))" "$*"; }
fail() { echo "user-flow: $*" >&2; [ -f "$WORK/manager.log" ] && tail -30 "$WORK/manager.log" >&2; exit 1; }

stage "cargo install --path codegen-cli (the README's install, debug profile to reuse the build)"
cargo install -q --locked --debug --path "$ROOT/codegen-cli" --root "$WORK/bin"
export PATH=$WORK/bin/bin:$PATH

stage "the README's git dependency resolves (file:// stands in for the repository)"
mkdir -p "$WORK/gitdep/src" && touch "$WORK/gitdep/src/lib.rs"
cat > "$WORK/gitdep/Cargo.toml" <<TOML
[package]
name = "gitdep"
version = "0.0.0"
edition = "2024"
[dependencies]
kubegen = { package = "kubegen-rs", git = "file://$ROOT" }
kubegen-cli = { git = "file://$ROOT" }
TOML
cargo metadata -q --format-version 1 --manifest-path "$WORK/gitdep/Cargo.toml" > "$WORK/gitdep/metadata.json" 2> "$WORK/gitdep/stderr"
! grep -q . "$WORK/gitdep/stderr" || { cat "$WORK/gitdep/stderr" >&2; fail "cargo complained about the repository"; }
grep -q '"name":"kubegen-cli"' "$WORK/gitdep/metadata.json" || fail "kubegen-cli not found in the git repository"

stage "codegen-cli init + create api + create webhook"
mkdir "$WORK/memcached-operator" && cd "$WORK/memcached-operator"
codegen-cli init --domain example.com
codegen-cli create api --group cache --version v1alpha1 --kind Memcached
codegen-cli create webhook --group cache --version v1alpha1 --kind Memcached --defaulting --programmatic-validation
# A second version, converted through the first (the hub): make test runs the scaffolded
# round trips of tests/memcached_conversion.rs.
codegen-cli create api --group cache --version v1 --kind Memcached
codegen-cli create webhook --group cache --version v1alpha1 --kind Memcached --conversion --spoke v1
grep -q 'kubegen = { package = "kubegen-rs", path = ' Cargo.toml || fail "init did not depend on this checkout"
cargo fmt --check || fail "the scaffold is not rustfmt-clean"
# The user fills in the scaffold's TODOs: a default for spec.foo, and a value it refuses.
python3 - <<'PY'
import pathlib
p = pathlib.Path("src/webhook/memcached.rs")
s = p.read_text()
todos = {
    "        // TODO(user): set the defaults a schema default cannot express.\n        let _ = memcached;\n":
        "        if memcached.spec.foo.is_none() {\n            memcached.spec.foo = Some(\"defaulted\".into());\n        }\n",
    "        // TODO(user): what a new Memcached must satisfy.\n        let _ = memcached;\n":
        "        if memcached.spec.foo.as_deref() == Some(\"forbidden\") {\n"
        "            let why = kubegen::webhook::FieldError::invalid(\"spec.foo\", \"forbidden is not a foo\");\n"
        "            return Err(Denial::invalid(vec![why]));\n        }\n",
}
for todo, code in todos.items():
    assert todo in s, todo
    s = s.replace(todo, code)
p.write_text(s)
PY
cargo fmt --check || fail "the filled-in webhooks are not rustfmt-clean"
# Pins the versions this repository builds with, so the shared target dir is reused.
cp "$ROOT/Cargo.lock" .

stage "make help lists kubebuilder's targets"
make help > "$WORK/help.txt"
for target in manifests generate fmt vet test setup-envtest cluster cluster-stop build run run-webhooks docker-build docker-push build-installer \
  install uninstall deploy undeploy diff; do
  grep -q "^  $target " "$WORK/help.txt" || { cat "$WORK/help.txt" >&2; fail "make help does not list $target"; }
done

stage "cargo build"
cargo build -q
stage "make test ENVTEST_K8S_VERSION=${KUBE_VERSION#v} (manifests, generate, fmt, vet, setup-envtest: codegen-cli envtest; the scaffolded test on kubegen::testenv)"
make test ENVTEST_K8S_VERSION="${KUBE_VERSION#v}" > "$WORK/test.log" 2>&1 || { cat "$WORK/test.log" >&2; fail "make test failed"; }
grep -E '^(\[envtest\]|test result)' "$WORK/test.log"
grep -q '^test result: ok. 1 passed' "$WORK/test.log" || { cat "$WORK/test.log" >&2; fail "the scaffolded test did not run and pass"; }
grep -q '^test memcached_conversions_round_trip ... ok' "$WORK/test.log" \
  || { cat "$WORK/test.log" >&2; fail "the scaffolded conversion round trips did not run and pass"; }
! grep -q 'FileFailurePersistence' "$WORK/test.log" || fail "proptest warned of its failure file in make test"
grep -q '^test memcached_webhooks_are_called_by_the_api_server ... ok' "$WORK/test.log" \
  || { cat "$WORK/test.log" >&2; fail "the scaffolded webhook test (testenv's serve_webhooks) did not run and pass"; }
for ran in 'codegen-cli manifests' 'codegen-cli clients' 'cargo fmt' 'cargo clippy --workspace' 'codegen-cli envtest'; do
  grep -q -- "$ran" "$WORK/test.log" || fail "make test did not run $ran"
done
# The installed codegen-cli is the version Cargo.lock pins: make runs it, and compiles
# the CLI no second time (issue 29).
! grep -q -- 'cargo run -q -p codegen-cli' "$WORK/test.log" || fail "make test compiled the CLI though the installed one is the pinned version"
assets=$(cargo run -q -p codegen-cli -- envtest --version "${KUBE_VERSION#v}" --installed-only)
[ "$("$assets/kube-apiserver" --version)" = "Kubernetes $KUBE_VERSION" ] || fail "envtest's kube-apiserver is not $KUBE_VERSION"
"$assets/etcd" --version >/dev/null || fail "envtest's etcd does not run"
# The store keeps the two binaries; the build's Go caches (gigabytes) went with the build.
[ "$(ls -A "$assets" | tr '\n' ' ')" = "etcd kube-apiserver " ] || fail "envtest's store holds more than etcd and kube-apiserver: $(ls -A "$assets")"
[ -z "$(find "$(dirname "$assets")" -mindepth 1 -maxdepth 1 -name '.building-*')" ] || fail "envtest left a building directory beside $assets"
stage "the README's envtest lines, as written"
[ "$(codegen-cli envtest --version "$(echo "${KUBE_VERSION#v}" | cut -d. -f1,2)")" = "$assets" ] \
  || fail "codegen-cli envtest --version MINOR did not find the release make test prepared"
# (Without --version: the release this codegen-cli was built for, the one make test used.)
KUBEBUILDER_ASSETS=$(codegen-cli envtest) cargo test -q -- --ignored > "$WORK/test.log" 2>&1 \
  || { cat "$WORK/test.log" >&2; fail "KUBEBUILDER_ASSETS=\$(codegen-cli envtest) cargo test -- --ignored failed"; }
stage "the README's local loop: make cluster (a local API server from one command), make install, make run &, kubectl apply -k config/samples (reconciled), create dashboards checked against the manager's /metrics run sharded, make run-webhooks (defaulted, refused, converted; Ctrl-C undoes it), make cluster-stop"
cluster_env=$(make -s cluster 2> "$WORK/cluster.log") || { cat "$WORK/cluster.log" >&2; fail "make cluster failed"; }
[ "$cluster_env" = "export KUBECONFIG='$PWD/target/kubegen/cluster/kubeconfig'" ] || fail "make cluster printed '$cluster_env'"
[ "$(make -s cluster 2>/dev/null)" = "$cluster_env" ] || fail "make cluster, run again, did not find the running cluster"
(
  eval "$cluster_env"
  make -s install > "$WORK/local-install.log" 2>&1
  kubectl wait --for=condition=Established crd/memcacheds.cache.example.com --timeout=60s >/dev/null
  # Conversion is None until deploy: reading every version works with no webhook running.
  [ "$(kubectl get crd memcacheds.cache.example.com -o jsonpath='{.spec.conversion.strategy}')" = None ]
  # The manager on this machine, as the README's `make run &` (its webhooks not served:
  # make run-webhooks below serves them).
  make -s run ARGS="--health-probe-bind-address=127.0.0.1:0 --metrics-bind-address=0" > "$WORK/local-run.log" 2>&1 &
  run_pid=$!
  kubectl apply -k config/samples >/dev/null
  [ "$(kubectl get memcacheds.v1alpha1.cache.example.com -o name | wc -l)" -ge 1 ]
  kubectl get memcacheds.v1.cache.example.com -o name >/dev/null
  # One sample per version, each an object of its own, each reconciled.
  kubectl wait --for=condition=Available memcached/memcached-sample memcached/memcached-sample-v1 --timeout=300s >/dev/null \
    || { tail -20 "$WORK/local-run.log" >&2; exit 1; }
  pkill -TERM -f "debug/memcached-operator --health-probe-bind-address=127.0.0.1:0 --metrics-bind-address=0"
  wait "$run_pid"
  # The README's dashboards: create dashboards' queries against a live /metrics, of the
  # manager run sharded (so the shard and sharder series are served too) once its shard
  # holds the samples; checked by Grafana's model and Prometheus' PromQL parser.
  codegen-cli create dashboards 2> "$WORK/dashboards.log" || { cat "$WORK/dashboards.log" >&2; exit 1; }
  [ "$(ls grafana/*.json | wc -l)" = 3 ] || { ls grafana >&2; echo "create dashboards did not write 3 dashboards" >&2; exit 1; }
  mport=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  make -s run ARGS="--sharding --health-probe-bind-address=127.0.0.1:0 --metrics-bind-address=127.0.0.1:$mport" \
    > "$WORK/sharded-run.log" 2>&1 &
  sharded_pid=$!
  for _ in $(seq 1 240); do
    curl -fsS "http://127.0.0.1:$mport/metrics" > "$WORK/metrics.txt" 2>/dev/null \
      && grep -Eq '^kubegen_shard_objects\{.*\} [1-9]' "$WORK/metrics.txt" && break
    kill -0 "$sharded_pid" 2>/dev/null || { tail -20 "$WORK/sharded-run.log" >&2; exit 1; }
    sleep 0.5
  done
  grep -Eq '^kubegen_shard_objects\{.*\} [1-9]' "$WORK/metrics.txt" \
    || { tail -20 "$WORK/sharded-run.log" >&2; echo "the sharded manager never held the samples" >&2; exit 1; }
  pkill -TERM -f "debug/memcached-operator --sharding --health-probe-bind-address=127.0.0.1:0"
  wait "$sharded_pid" || { tail -20 "$WORK/sharded-run.log" >&2; echo "the sharded manager exited non-zero on SIGTERM" >&2; exit 1; }
  (cd "$ROOT/scripts/dashboard-check" && go run . --metrics "$WORK/metrics.txt" "$OLDPWD"/grafana/*.json) \
    || { echo "the dashboards query what the manager does not serve" >&2; exit 1; }
  # The check fails on a metric the manager does not serve.
  sed 's/workqueue_depth{/workqueue_depths{/' grafana/controller-runtime-metrics.json > "$WORK/renamed.json"
  if (cd "$ROOT/scripts/dashboard-check" && go run . --metrics "$WORK/metrics.txt" "$WORK/renamed.json") 2> "$WORK/renamed.log"; then
    echo "dashboard-check passed a query of workqueue_depths" >&2; exit 1
  fi
  grep -q 'workqueue_depths is not served' "$WORK/renamed.log" || { cat "$WORK/renamed.log" >&2; exit 1; }
  # ... and on a label no series it selects carries.
  sed 's/sum by (controller, result)/sum by (controller, reslt)/' grafana/controller-runtime-metrics.json > "$WORK/relabelled.json"
  if (cd "$ROOT/scripts/dashboard-check" && go run . --metrics "$WORK/metrics.txt" "$WORK/relabelled.json") 2> "$WORK/relabelled.log"; then
    echo "dashboard-check passed a grouping by reslt" >&2; exit 1
  fi
  grep -q 'by (reslt) over controller_runtime_reconcile_total' "$WORK/relabelled.log" || { cat "$WORK/relabelled.log" >&2; exit 1; }
  # The README's next step with webhooks: make run-webhooks in place of make run, its
  # webhooks and conversion called by this API server; Ctrl-C (SIGINT to codegen-cli) stops
  # the manager and removes what it installed.
  lport=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  make -s run-webhooks ARGS="--health-probe-bind-address=127.0.0.1:0 --metrics-bind-address=0" \
    LOCAL_WEBHOOKS_ARGS="--address 127.0.0.1:$lport" > "$WORK/local-webhooks.log" 2>&1 &
  hooks_pid=$!
  for _ in $(seq 1 600); do
    grep -q '^\[local-webhooks\] the API server calls' "$WORK/local-webhooks.log" && break
    kill -0 "$hooks_pid" 2>/dev/null || { cat "$WORK/local-webhooks.log" >&2; exit 1; }
    sleep 0.5
  done
  sleep 1
  printf 'apiVersion: cache.example.com/v1alpha1\nkind: Memcached\nmetadata:\n  name: local-hooked\nspec: {}\n' | kubectl apply -f - >/dev/null
  [ "$(kubectl get memcached local-hooked -o jsonpath='{.spec.foo}')" = defaulted ] || { echo "not defaulted" >&2; exit 1; }
  if printf 'apiVersion: cache.example.com/v1alpha1\nkind: Memcached\nmetadata:\n  name: local-refused\nspec:\n  foo: forbidden\n' \
    | kubectl apply -f - > "$WORK/local-denied.log" 2>&1; then echo "not refused" >&2; exit 1; fi
  grep -q 'spec.foo: forbidden is not a foo' "$WORK/local-denied.log" || { cat "$WORK/local-denied.log" >&2; exit 1; }
  [ "$(kubectl get memcacheds.v1.cache.example.com local-hooked -o jsonpath='{.apiVersion}')" = cache.example.com/v1 ]
  [ "$(kubectl get crd memcacheds.cache.example.com -o jsonpath='{.spec.conversion.webhook.clientConfig.url}')" \
    = "https://127.0.0.1:$lport/convert" ] || { echo "the conversion does not call the local manager" >&2; exit 1; }
  # A second run, or --undo, while one is live leaves the live one alone.
  if codegen-cli local-webhooks --undo > "$WORK/second.log" 2>&1; then echo "--undo went ahead beside a live run" >&2; exit 1; fi
  grep -q "a local-webhooks run is live" "$WORK/second.log" || { cat "$WORK/second.log" >&2; exit 1; }
  kubectl get validatingwebhookconfiguration validating-webhook-configuration >/dev/null
  pkill -INT -f "codegen-cli local-webhooks --address 127.0.0.1:$lport"
  wait "$hooks_pid" || { cat "$WORK/local-webhooks.log" >&2; exit 1; }
  ! kubectl get validatingwebhookconfiguration validating-webhook-configuration >/dev/null 2>&1
  [ "$(kubectl get crd memcacheds.cache.example.com -o jsonpath='{.spec.conversion.strategy}')" = None ]
  [ ! -e target/kubegen/webhooks ] || { echo "local-webhooks left target/kubegen/webhooks" >&2; exit 1; }
  # A run killed outright (kill -9: nothing undone) is undone by --undo from its record.
  codegen-cli local-webhooks --address "127.0.0.1:$lport" -- "$CARGO_TARGET_DIR/debug/memcached-operator" \
    --health-probe-bind-address=127.0.0.1:0 --metrics-bind-address=0 > "$WORK/killed.log" 2>&1 &
  killed_pid=$!
  for _ in $(seq 1 200); do
    grep -q '^\[local-webhooks\] the API server calls' "$WORK/killed.log" && break
    sleep 0.2
  done
  kill -9 "$killed_pid"; wait "$killed_pid" 2>/dev/null || true
  pkill -TERM -f "debug/memcached-operator --health-probe-bind-address=127.0.0.1:0 --metrics-bind-address=0 --webhook-bind-address 127.0.0.1:$lport" || true
  kubectl get validatingwebhookconfiguration validating-webhook-configuration >/dev/null
  codegen-cli local-webhooks --undo > "$WORK/undo.log" 2>&1 || { cat "$WORK/undo.log" >&2; exit 1; }
  ! kubectl get validatingwebhookconfiguration validating-webhook-configuration >/dev/null 2>&1
  [ "$(kubectl get crd memcacheds.cache.example.com -o jsonpath='{.spec.conversion.strategy}')" = None ]
  [ ! -e target/kubegen/webhooks ] || { echo "--undo left target/kubegen/webhooks" >&2; exit 1; }
) || { cat "$WORK/local-install.log" >&2; fail "the local loop failed against make cluster's API server"; }
make -s cluster-stop 2>/dev/null
[ ! -e target/kubegen/cluster ] || fail "make cluster-stop left target/kubegen/cluster: $(ls -A target/kubegen/cluster)"
stage "codegen-cli manifests (the installed binary, as the README's step by step runs it), then cargo run -p codegen-cli -- manifests --check"
codegen-cli manifests 2> "$WORK/manifests.log" || { cat "$WORK/manifests.log" >&2; fail "codegen-cli manifests failed"; }
cargo run -q -p codegen-cli -- manifests --check
for hook in mmemcached-v1alpha1.kb.io vmemcached-v1alpha1.kb.io; do
  grep -q "name: $hook" config/webhook/manifests.yaml || fail "config/webhook/manifests.yaml lacks $hook"
done
kubectl kustomize config/webhook > "$WORK/webhook.yaml" || fail "config/webhook does not build"
grep -q "name: webhook-service" "$WORK/webhook.yaml" || fail "config/webhook has no Service"
# config/default, as create webhook wired it: cert-manager's Certificate names the
# Service kustomize renamed, both configurations ask for its CA, the manager mounts it.
kubectl kustomize config/default > "$WORK/default.yaml" || fail "config/default does not build"
for line in "- memcached-operator-webhook-service.memcached-operator-system.svc" \
  "cert-manager.io/inject-ca-from: memcached-operator-system/memcached-operator-serving-cert" \
  "secretName: webhook-server-cert" "containerPort: 9443" "name: memcached-operator-selfsigned-issuer"; do
  grep -qF -- "$line" "$WORK/default.yaml" || fail "config/default lacks '$line'"
done
[ "$(grep -c 'cert-manager.io/inject-ca-from' "$WORK/default.yaml")" = 3 ] \
  || fail "not both webhook configurations and the conversion CRD get the CA"
# The CRD converts through the manager's /convert, on the Service kustomize renamed.
kubectl kustomize config/crd > "$WORK/crd.yaml" || fail "config/crd does not build"
grep -q "strategy: Webhook" "$WORK/crd.yaml" || fail "config/crd has no conversion webhook"
grep -A12 "^  conversion:" "$WORK/default.yaml" | grep -q "name: memcached-operator-webhook-service" \
  || fail "the CRD's conversion does not name the prefixed webhook Service"

stage "codegen-cli docs: the API reference, as [workspace.metadata.kubegen.docs] says (title, kinds, links)"
cp Cargo.toml "$WORK/Cargo.toml.before-docs"
printf '\n[workspace.metadata.kubegen.docs]\ntitle = "Memcached operator API"\nkinds = ["Nope"]\n' >> Cargo.toml
if cargo run -q -p codegen-cli -- docs > "$WORK/docs.log" 2>&1; then fail "docs took kinds = [\"Nope\"]"; fi
grep -q 'kinds: no kind `Nope` in the workspace' "$WORK/docs.log" || { cat "$WORK/docs.log" >&2; fail "docs did not name the unknown kind"; }
cp "$WORK/Cargo.toml.before-docs" Cargo.toml
printf '\n[workspace.metadata.kubegen.docs]\ntitle = "Memcached operator API"\nkinds = ["cache.example.com/Memcached"]\nlinks = [{ title = "Runbook", url = "https://example.com/runbook" }]\n' >> Cargo.toml
cargo run -q -p codegen-cli -- docs 2>/dev/null
grep -q '^# Memcached operator API$' docs/api/README.md || fail "docs/api/README.md does not carry the settings' title"
grep -qF -- '- [Runbook](https://example.com/runbook)' docs/api/README.md || fail "docs/api/README.md does not list the settings' link"
grep -q 'href="https://example.com/runbook"' docs/api/index.html || fail "docs/api/index.html does not list the settings' link"
for version in v1alpha1 v1; do
  grep -q '^## Memcached$' "docs/api/cache.example.com/$version.md" || fail "no Memcached section in the $version reference"
done
grep -q '^Changes from `v1alpha1`:$' docs/api/cache.example.com/v1.md || fail "the v1 page does not list its changes from v1alpha1"
cargo run -q -p codegen-cli -- docs --check 2>/dev/null

stage "cargo build <-> cargo run -p codegen-cli -- manifests, twice: the second round compiles nothing"
cargo build -q
cargo run -q -p codegen-cli -- manifests >/dev/null
for round in build manifests; do
  # KUBEGEN_NO_SKIP: the helper is built even though nothing changed (else the fingerprint
  # skips it, and this round would prove nothing).
  if [ "$round" = build ]; then cargo build 2>"$WORK/round.log"; else KUBEGEN_NO_SKIP=1 cargo run -p codegen-cli -- manifests 2>"$WORK/round.log" >/dev/null; fi
  if grep -q '^ *Compiling ' "$WORK/round.log"; then
    grep '^ *Compiling ' "$WORK/round.log" >&2
    fail "switching to $round recompiled the crates above"
  fi
done
# An edit: `cargo build` compiles the operator, and manifests links the helper against that
# very build (it is a member of a mirror of the workspace) instead of compiling the
# operator a second time.
touch src/lib.rs
cargo build -q
KUBEGEN_NO_SKIP=1 cargo run -p codegen-cli -- manifests 2>"$WORK/round.log" >/dev/null
if grep '^ *Compiling ' "$WORK/round.log" | grep -v ' kubegen-manifests-' | grep -q .; then
  grep '^ *Compiling ' "$WORK/round.log" >&2
  fail "manifests compiled again what cargo build had just compiled"
fi
test -f config/crd/bases/cache.example.com_memcacheds.yaml || fail "no CRD"
grep -q 'events.k8s.io' config/rbac/role.yaml || fail "role.yaml grants no events.k8s.io events"

stage "make generate: the clients (Go, TypeScript, Python), and go build on the Go one"
make -s generate
cargo run -q -p codegen-cli -- clients --check
for f in clients/go/api/v1alpha1/memcached_types.go clients/typescript/src/cache.example.com/v1alpha1/client.ts \
  clients/python/memcached_operator_api/cache_v1alpha1/models.py; do
  test -f "$f" || fail "clients wrote no $f"
done
if command -v go >/dev/null; then
  (cd clients/go && GOFLAGS=-mod=mod go mod tidy >/dev/null 2>&1 && go build ./... && go vet ./...) || fail "the Go client does not build"
fi
# A Go user keeps one language: make generate writes only what Cargo.toml's languages say.
cp Cargo.toml "$WORK/Cargo.toml.before"
sed -i 's/^languages = \[.*\]$/languages = ["go"]/' Cargo.toml
grep -q '^languages = \["go"\]$' Cargo.toml || fail "the scaffold's Cargo.toml has no languages line to edit"
make -s generate > "$WORK/generate.log" 2>&1 || { cat "$WORK/generate.log" >&2; fail "make generate with languages = [\"go\"] failed"; }
grep -q 'kinds, go (' "$WORK/generate.log" || { cat "$WORK/generate.log" >&2; fail "make generate wrote more than Go"; }
cp "$WORK/Cargo.toml.before" Cargo.toml

stage "make build"
make -s build > "$WORK/make.log" 2>&1 || { cat "$WORK/make.log" >&2; fail "make build failed"; }
test -x "$CARGO_TARGET_DIR/debug/memcached-operator" || fail "make build built no manager"

stage "make install; make uninstall"
make -s install >/dev/null
kubectl wait --for=condition=Established crd/memcacheds.cache.example.com --timeout=60s >/dev/null
make -s uninstall >/dev/null
! kubectl get crd memcacheds.cache.example.com >/dev/null 2>&1 || fail "make uninstall left the CRD"
make -s uninstall ignore-not-found=true >/dev/null || fail "make uninstall ignore-not-found=true failed with nothing installed"

image=registry.example.com/memcached-operator:v0.1.0
stage "make deploy IMG=$image: refused before anything is applied without cert-manager, then with cert-manager's CRDs (config/certmanager's objects need them)"
kubectl delete crd certificates.cert-manager.io issuers.cert-manager.io --ignore-not-found >/dev/null
if make -s deploy IMG=$image > "$WORK/deploy.log" 2>&1; then fail "make deploy went ahead without cert-manager"; fi
grep -q "this cluster has no cert-manager" "$WORK/deploy.log" || { cat "$WORK/deploy.log" >&2; fail "make deploy did not say cert-manager is missing"; }
! kubectl get namespace memcached-operator-system >/dev/null 2>&1 || fail "make deploy applied objects before it refused"
"$ROOT/scripts/cert-manager-crds.sh" | kubectl apply --server-side -f - >/dev/null
kubectl wait --for=condition=Established crd/certificates.cert-manager.io crd/issuers.cert-manager.io --timeout=60s >/dev/null
make -s deploy IMG=$image >/dev/null
kubectl wait --for=condition=Established crd/memcacheds.cache.example.com --timeout=60s >/dev/null
deployed=$(kubectl get deployment memcached-operator-controller-manager -n memcached-operator-system \
  -o jsonpath='{.spec.template.spec.containers[0].image}')
[ "$deployed" = "$image" ] || fail "make deploy set the image '$deployed', not $image"
kubectl get clusterrole memcached-operator-manager-role >/dev/null || fail "make deploy made no manager ClusterRole"
kubectl get certificate memcached-operator-serving-cert -n memcached-operator-system >/dev/null \
  || fail "make deploy made no serving Certificate"
kubectl get validatingwebhookconfiguration memcached-operator-validating-webhook-configuration >/dev/null \
  || fail "make deploy made no ValidatingWebhookConfiguration"

stage "make build-installer IMG=$image; docker-build and docker-push (make -n: no container engine here)"
make -s build-installer IMG=$image
grep -q "^kind: CustomResourceDefinition" dist/install.yaml || fail "dist/install.yaml has no CRD"
grep -q "image: $image" dist/install.yaml || fail "dist/install.yaml does not run $image"
kubectl apply --server-side --dry-run=server -f dist/install.yaml >/dev/null || fail "the server refuses dist/install.yaml"
[ "$(make -n docker-build IMG=$image)" = "docker build -t $image ." ] || fail "make -n docker-build: $(make -n docker-build IMG=$image)"
[ "$(make -n docker-push IMG=$image CONTAINER_TOOL=podman)" = "podman push $image" ] || fail "make -n docker-push"

stage "make helm-lint: a Helm chart from dist/install.yaml, linted, its default values rendering dist/install.yaml's objects one by one"
HELM=$("$ROOT/scripts/helm.sh")
# Text that looks like a template, in an object (an annotation) and in a value (an arg,
# which the chart passes through tpl), is Helm's to print, not to run: put back after.
cp config/rbac/leader_election_role.yaml "$WORK/leader_election_role.yaml"
cp config/manager/manager.yaml "$WORK/manager.yaml"
sed -i 's|^  name: leader-election-role$|  name: leader-election-role\n  annotations:\n    example.com/note: "{{ .Name }} stays literal"|' \
  config/rbac/leader_election_role.yaml
sed -i 's|^        - --leader-elect$|        - --leader-elect\n        - "--log-level={{ not-a-template }}"|' config/manager/manager.yaml
grep -q 'example.com/note' config/rbac/leader_election_role.yaml || fail "config/rbac/leader_election_role.yaml has no name line to edit"
grep -q 'not-a-template' config/manager/manager.yaml || fail "config/manager/manager.yaml has no --leader-elect line to edit"
make -s helm-lint IMG=$image HELM="$HELM" > "$WORK/helm.log" 2>&1 || { cat "$WORK/helm.log" >&2; fail "make helm-lint failed"; }
grep -q "the chart renders the [1-9][0-9]* objects of dist/install.yaml, object by object" "$WORK/helm.log" \
  || { cat "$WORK/helm.log" >&2; fail "make helm-lint did not verify the chart against dist/install.yaml"; }
for f in Chart.yaml values.yaml .helmignore templates/_helpers.tpl templates/NOTES.txt templates/manager/controller-manager.yaml \
  templates/crd/memcacheds.cache.example.com.yaml templates/webhook/validating-webhook-configuration.yaml \
  templates/cert-manager/serving-cert.yaml templates/rbac/manager-role.yaml; do
  test -f "dist/chart/$f" || fail "codegen-cli helm wrote no dist/chart/$f"
done
"$HELM" template memcached-operator dist/chart -n memcached-operator-system > "$WORK/chart-default.yaml"
# What --verify compares, checked the other way too: a changed object is caught.
sed 's/cpu: 500m/cpu: 501m/' "$WORK/chart-default.yaml" > "$WORK/chart-changed.yaml"
if cargo run -q -p codegen-cli -- helm --verify "$WORK/chart-changed.yaml" > "$WORK/verify.log" 2>&1; then fail "helm --verify took a changed limit"; fi
grep -q 'Deployment.apps memcached-operator-system/memcached-operator-controller-manager: .spec.template.spec.containers\[0\].resources.limits.cpu: "500m" in the install, "501m" in the chart' \
  "$WORK/verify.log" || { cat "$WORK/verify.log" >&2; fail "helm --verify did not name the changed field"; }
grep -qF 'example.com/note: '"'"'{{ .Name }} stays literal'"'"'' "$WORK/chart-default.yaml" \
  || grep -qF 'example.com/note: "{{ .Name }} stays literal"' "$WORK/chart-default.yaml" \
  || fail "the chart did not print an annotation's {{ literally"
grep -qF -- '--log-level={{ not-a-template }}' "$WORK/chart-default.yaml" || fail "the chart did not print an arg's {{ literally"
# The release's namespace exists (make deploy made it): the API server takes the rendering.
kubectl apply --server-side --force-conflicts --dry-run=server -f "$WORK/chart-default.yaml" >/dev/null \
  || fail "the server refuses the chart's default rendering"

stage "the chart with other values: another release and namespace, two replicas, another image, env overrides, no webhooks, no cert-manager"
cat > "$WORK/values-other.yaml" <<'VALUES'
manager:
  replicas: 2
  image: {repository: registry.example.com/other, tag: v9, pullPolicy: IfNotPresent}
  envOverrides: {POD_NAME: fixed, EXTRA: "on"}
  resources: {limits: {memory: 256Mi}, requests: {memory: 64Mi}}
  tolerations: [{key: dedicated, operator: Exists, effect: NoSchedule}]
  healthProbe: {port: 8091}
  pod: {annotations: {team: platform}}
metrics: {port: 9090}
webhook: {enabled: false}
certManager: {enabled: false}
crd: {keep: false}
rbac: {helpers: {enabled: false}}
serviceAccount: {annotations: {example.com/role: operator}}
VALUES
"$HELM" lint --strict dist/chart -f "$WORK/values-other.yaml" >/dev/null || fail "helm lint refuses the other values"
"$HELM" template other dist/chart -n other-ns -f "$WORK/values-other.yaml" > "$WORK/chart-other.yaml"
for want in "replicas: 2" "image: registry.example.com/other:v9" "imagePullPolicy: IfNotPresent" \
  '- "--metrics-bind-address=:9090"' "containerPort: 9090" '- "--health-probe-bind-address=:8091"' "            port: 8091" \
  "value: \"fixed\"" "name: EXTRA" "memory: 256Mi" "key: dedicated" "team: platform" "example.com/role: operator" \
  "name: other-memcached-operator-controller-manager" "namespace: other-ns"; do
  grep -qF -- "$want" "$WORK/chart-other.yaml" || fail "the chart with other values has no '$want'"
done
for unwanted in "kind: ValidatingWebhookConfiguration" "kind: MutatingWebhookConfiguration" "kind: Certificate" \
  "kind: Issuer" "-editor-role" "helm.sh/resource-policy" "webhook-server-cert" "memcached-operator-system" \
  "containerPort: 9443" "cert-manager.io/inject-ca-from"; do
  ! grep -qF -- "$unwanted" "$WORK/chart-other.yaml" || fail "the chart with other values still has '$unwanted'"
done
grep -q '^    strategy: None$' "$WORK/chart-other.yaml" || fail "without webhooks the CRD still converts through one"
# Webhooks off, cert-manager on: no CA injection asked for a Certificate that is not there.
"$HELM" template memcached-operator dist/chart -n memcached-operator-system --set webhook.enabled=false > "$WORK/chart-nowebhooks.yaml"
for unwanted in "cert-manager.io/inject-ca-from" "kind: Certificate" "strategy: Webhook"; do
  ! grep -qF -- "$unwanted" "$WORK/chart-nowebhooks.yaml" || fail "with webhooks off the chart still has '$unwanted'"
done
grep -qF "kind: Issuer" "$WORK/chart-nowebhooks.yaml" || fail "with cert-manager on the chart has no Issuer"
"$HELM" template memcached-operator dist/chart -n memcached-operator-system --set webhook.port=9444 > "$WORK/chart-port.yaml"
for want in '- "--webhook-bind-address=:9444"' "containerPort: 9444" "targetPort: 9444"; do
  grep -qF -- "$want" "$WORK/chart-port.yaml" || fail "webhook.port=9444 gave no '$want'"
done
kubectl create namespace other-ns >/dev/null
kubectl apply --server-side --force-conflicts --dry-run=server -f "$WORK/chart-other.yaml" >/dev/null \
  || fail "the server refuses the chart with other values"
kubectl delete namespace other-ns --wait=false >/dev/null

stage "make helm again after your edits: your values and your template stay, a new image follows"
sed -i 's/^  replicas: 1$/  replicas: 3/; s/^  nodeSelector: {}$/  nodeSelector:\n    disktype: ssd/' dist/chart/values.yaml
grep -q '^  replicas: 3$' dist/chart/values.yaml || fail "values.yaml has no '  replicas: 1' line to edit"
grep -q '^    disktype: ssd$' dist/chart/values.yaml || fail "values.yaml has no '  nodeSelector: {}' line to edit"
printf '# mine\n' >> dist/chart/templates/rbac/manager-role.yaml
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: mine\n' > dist/chart/templates/mine.yaml
make -s helm IMG=registry.example.com/memcached-operator:v0.2.0 > "$WORK/helm2.log" 2>&1 \
  || { cat "$WORK/helm2.log" >&2; fail "make helm after edits failed"; }
grep -q '^  replicas: 3$' dist/chart/values.yaml || fail "make helm lost your replicas"
grep -q '^    disktype: ssd$' dist/chart/values.yaml || fail "make helm lost your nodeSelector"
grep -q '^    tag: v0.2.0$' dist/chart/values.yaml || fail "make helm did not follow the new image"
grep -q '^# mine$' dist/chart/templates/rbac/manager-role.yaml || fail "make helm lost your edit to a template"
grep -q 'name: mine' dist/chart/templates/mine.yaml || fail "make helm touched your own template"
grep -q 'kept dist/chart/templates/rbac/manager-role.yaml: you edited it' "$WORK/helm2.log" \
  || { cat "$WORK/helm2.log" >&2; fail "make helm did not name the template it kept"; }
# Your values change your installs, not what helm-lint verifies (the defaults it wrote);
# your own template's objects are yours to add.
make -s helm-lint IMG=registry.example.com/memcached-operator:v0.2.0 HELM="$HELM" > "$WORK/helm3.log" 2>&1 \
  || { cat "$WORK/helm3.log" >&2; fail "make helm-lint failed after your edits"; }
grep -q "not compared: what your own template templates/mine.yaml adds to the install" "$WORK/helm3.log" \
  || { cat "$WORK/helm3.log" >&2; fail "make helm-lint did not say it left your template's objects aside"; }
"$HELM" template memcached-operator dist/chart -n memcached-operator-system | grep -q '^  replicas: 3$' \
  || fail "the chart does not render your replicas"
[ "$(make -n helm-deploy HELM=helm HELM_ARGS='--set manager.replicas=2')" = \
  "helm upgrade --install memcached-operator dist/chart -n memcached-operator-system --create-namespace --set manager.replicas=2" ] \
  || fail "make -n helm-deploy: $(make -n helm-deploy HELM=helm)"
[ "$(make -n helm-uninstall HELM=helm)" = "helm uninstall memcached-operator -n memcached-operator-system" ] \
  || fail "make -n helm-uninstall: $(make -n helm-uninstall HELM=helm)"
cp "$WORK/leader_election_role.yaml" config/rbac/leader_election_role.yaml
cp "$WORK/manager.yaml" config/manager/manager.yaml
make -s build-installer IMG=$image

stage "the chart without cert-manager and namespace-scoped: the manager keeps the webhooks' certificates itself and watches the release's namespace; installed by helm in a namespace of its own, its manager run here with the chart's args as the chart's ServiceAccount makes the Secret, sets the caBundles and reconciles there, RBAC allowing only that"
# The chart as codegen-cli writes it (--force takes back the template edited above).
codegen-cli helm --force > "$WORK/helm4.log" 2>&1 || { cat "$WORK/helm4.log" >&2; fail "codegen-cli helm failed"; }
"$HELM" template memcached-operator dist/chart -n memcached-operator-system --set rbac.namespaced=true > "$WORK/chart-namespaced.yaml" \
  || fail "the chart does not render namespace-scoped"
python3 - "$WORK/chart-namespaced.yaml" <<'PY' || fail "the namespace-scoped chart is not scoped"
import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
by = {(d["kind"], d["metadata"]["name"]): d for d in docs}
role = by[("Role", "memcached-operator-manager-role")]
assert role["metadata"]["namespace"] == "memcached-operator-system", role["metadata"]
binding = by[("RoleBinding", "memcached-operator-manager-rolebinding")]
assert binding["roleRef"]["kind"] == "Role" and binding["metadata"]["namespace"] == "memcached-operator-system"
assert not any(k == "ClusterRole" and n == "memcached-operator-manager-role" for k, n in by), "a ClusterRole too"
args = by[("Deployment", "memcached-operator-controller-manager")]["spec"]["template"]["spec"]["containers"][0]["args"]
assert "--namespace=memcached-operator-system" in args, args
for kind in ("MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"):
    for config in (d for d in docs if d["kind"] == kind):
        for hook in config["webhooks"]:
            assert hook["namespaceSelector"] == {"matchLabels": {"kubernetes.io/metadata.name": "memcached-operator-system"}}, hook
PY
kubectl apply --server-side --force-conflicts --dry-run=server -f "$WORK/chart-namespaced.yaml" >/dev/null \
  || fail "the server refuses the namespace-scoped chart"
"$HELM" template memcached-operator dist/chart -n memcached-operator-system --set certManager.enabled=false > "$WORK/chart-own-certs.yaml" \
  || fail "the chart does not render without cert-manager"
for want in '- "--webhook-cert-secret=memcached-operator-system/memcached-operator-webhook-own-certs"' \
  '- "--webhook-cert-name=memcached-operator-webhook-service.memcached-operator-system.svc,memcached-operator-webhook-service.memcached-operator-system.svc.cluster.local"' \
  '- "--webhook-ca-inject=mutating=memcached-operator-mutating-webhook-configuration"' \
  '- "--webhook-ca-inject=validating=memcached-operator-validating-webhook-configuration"' \
  '- "--webhook-ca-inject=crd=memcacheds.cache.example.com"' "name: memcached-operator-webhook-certs" "resourceNames: [memcached-operator-webhook-own-certs]" \
  "kind: ValidatingWebhookConfiguration" "strategy: Webhook"; do
  grep -qF -- "$want" "$WORK/chart-own-certs.yaml" || fail "the chart without cert-manager has no '$want'"
done
for unwanted in "kind: Certificate" "kind: Issuer" "cert-manager.io/inject-ca-from" "secretName: webhook-server-cert"; do
  ! grep -qF -- "$unwanted" "$WORK/chart-own-certs.yaml" || fail "the chart without cert-manager still has '$unwanted'"
done
kubectl apply --server-side --force-conflicts --dry-run=server -f "$WORK/chart-own-certs.yaml" >/dev/null \
  || fail "the server refuses the chart without cert-manager"
rel=own-certs rns=own-certs-ns
"$HELM" install "$rel" dist/chart -n "$rns" --create-namespace --set certManager.enabled=false --set crd.enabled=false \
  --set rbac.namespaced=true \
  > "$WORK/helm-install.log" 2>&1 || { cat "$WORK/helm-install.log" >&2; fail "helm install without cert-manager failed"; }
own_sa=$rel-memcached-operator-controller-manager
kubectl get deployment -n "$rns" "$rel-memcached-operator-controller-manager" \
  -o go-template='{{range (index .spec.template.spec.containers 0).args}}{{.}}{{"\n"}}{{end}}' > "$WORK/own-args" \
  || fail "helm install made no manager Deployment"
own_secret=$rel-memcached-operator-webhook-own-certs
grep -qx -- "--webhook-cert-secret=$rns/$own_secret" "$WORK/own-args" || { cat "$WORK/own-args" >&2; fail "the installed manager has no --webhook-cert-secret"; }
grep -qx -- "--namespace=$rns" "$WORK/own-args" || { cat "$WORK/own-args" >&2; fail "the namespace-scoped manager does not watch its namespace"; }
# The CRDs are not this release's (crd.enabled=false): their caBundle is not its to set.
! grep -q -- "--webhook-ca-inject=crd=" "$WORK/own-args" || fail "the manager of a release without CRDs sets a CRD's caBundle"
cat > "$WORK/own.kubeconfig" <<KCFG
apiVersion: v1
kind: Config
clusters: [{name: e2e, cluster: {server: "$(kubectl config view --minify --raw -o jsonpath='{.clusters[0].cluster.server}')", certificate-authority: "$(kubectl config view --minify --raw -o jsonpath='{.clusters[0].cluster.certificate-authority}')"}}]
users: [{name: sa, user: {token: "$(kubectl create token "$own_sa" -n "$rns")"}}]
contexts: [{name: sa, context: {cluster: e2e, user: sa}}]
current-context: sa
KCFG
# The chart's args, but the addresses: this host runs the manager, not a pod.
mapfile -t own_args < <(grep -v -e '^--health-probe-bind-address' -e '^--metrics-bind-address' -e '^--webhook-bind-address' "$WORK/own-args")
KUBECONFIG=$WORK/own.kubeconfig "$CARGO_TARGET_DIR/debug/memcached-operator" "${own_args[@]}" --kubeconfig "$WORK/own.kubeconfig" \
  --leader-election-namespace "$rns" --health-probe-bind-address=127.0.0.1:0 --metrics-bind-address=0 \
  --webhook-bind-address=127.0.0.1:0 > "$WORK/own-manager.log" 2>&1 &
MANAGER_PID=$!
ca_b64=
for _ in $(seq 1 60); do
  ca_b64=$(kubectl get secret "$own_secret" -n "$rns" -o jsonpath='{.data.ca\.crt}' 2>/dev/null || true)
  [ -n "$ca_b64" ] && break
  sleep 0.5
done
[ -n "$ca_b64" ] || { tail -20 "$WORK/own-manager.log" >&2; fail "the manager made no Secret $own_secret"; }
injected=
for _ in $(seq 1 60); do
  bundle=$(kubectl get validatingwebhookconfiguration "$rel-memcached-operator-validating-webhook-configuration" -o jsonpath='{.webhooks[0].clientConfig.caBundle}')
  mbundle=$(kubectl get mutatingwebhookconfiguration "$rel-memcached-operator-mutating-webhook-configuration" -o jsonpath='{.webhooks[0].clientConfig.caBundle}')
  [ "$bundle" = "$ca_b64" ] && [ "$mbundle" = "$ca_b64" ] && { injected=1; break; }
  sleep 0.5
done
[ -n "$injected" ] || { tail -20 "$WORK/own-manager.log" >&2; fail "the manager did not set its CA as the webhook configurations' caBundle"; }
! grep -qi forbidden "$WORK/own-manager.log" || { grep -i forbidden "$WORK/own-manager.log" | head -5 >&2; fail "the chart's RBAC refused the manager something"; }
# What the chart's RBAC grants for the certificates, and no more.
as_sa="--as=system:serviceaccount:$rns:$own_sa"
for grant in "create secrets -n $rns" "update secrets/$own_secret -n $rns" "get secrets/$own_secret -n $rns" \
  "update validatingwebhookconfigurations/$rel-memcached-operator-validating-webhook-configuration" \
  "update mutatingwebhookconfigurations/$rel-memcached-operator-mutating-webhook-configuration"; do
  # shellcheck disable=SC2086
  [ "$(kubectl auth can-i $grant "$as_sa")" = yes ] || fail "the chart does not let its manager $grant"
done
for grant in "list memcacheds.cache.example.com -n $rns" "patch memcacheds.cache.example.com/status -n $rns"; do
  # shellcheck disable=SC2086
  [ "$(kubectl auth can-i $grant "$as_sa")" = yes ] || fail "the namespace-scoped chart does not let its manager $grant"
done
for refused in "update secrets/webhook-server-cert -n $rns" "get secrets -n default" \
  "list memcacheds.cache.example.com -n default" "list memcacheds.cache.example.com --all-namespaces" \
  "update customresourcedefinitions/memcacheds.cache.example.com" \
  "update validatingwebhookconfigurations/validating-webhook-configuration"; do
  # shellcheck disable=SC2086
  [ "$(kubectl auth can-i $refused "$as_sa" 2>/dev/null)" = no ] || fail "the chart lets its manager $refused"
done
kill -TERM "$MANAGER_PID"; wait "$MANAGER_PID" 2>/dev/null || true
MANAGER_PID=
"$HELM" uninstall "$rel" -n "$rns" > /dev/null || fail "helm uninstall failed"
! kubectl get validatingwebhookconfiguration "$rel-memcached-operator-validating-webhook-configuration" >/dev/null 2>&1 \
  || fail "helm uninstall left the webhook configuration"
kubectl delete namespace "$rns" --wait=false >/dev/null

stage "a kubeconfig for the ServiceAccount config/ deploys"
token=$(kubectl create token memcached-operator-controller-manager -n memcached-operator-system)
server=$(kubectl config view --minify --raw -o jsonpath='{.clusters[0].cluster.server}')
ca=$(kubectl config view --minify --raw -o jsonpath='{.clusters[0].cluster.certificate-authority}')
cat > "$WORK/sa.kubeconfig" <<KCFG
apiVersion: v1
kind: Config
clusters: [{name: e2e, cluster: {server: "$server", certificate-authority: "$ca"}}]
users: [{name: sa, user: {token: "$token"}}]
contexts: [{name: sa, context: {cluster: e2e, user: sa}}]
current-context: sa
KCFG
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
manager_args="--kubeconfig $WORK/sa.kubeconfig --leader-elect --leader-election-namespace memcached-operator-system \
--health-probe-bind-address=127.0.0.1:0"
stage "make run-webhooks refuses while the deployed manager's webhook configurations call its Service"
# Outside the cluster the API server cannot reach the webhook Service, and no cert-manager
# issues a certificate: make run-webhooks (codegen-cli local-webhooks) serves the webhooks
# here. With the deployed configurations in place every write would still call the
# Service, so it says so and installs nothing.
if POD_NAME=memcached-operator-test make -s run-webhooks ARGS="$manager_args" LOCAL_WEBHOOKS_ARGS="--address 127.0.0.1:$port" \
  > "$WORK/refused.log" 2>&1; then
  cat "$WORK/refused.log" >&2; fail "make run-webhooks ran beside the deployed webhook configurations"
fi
grep -q "calls webhook .* at Service memcached-operator-system/memcached-operator-webhook-service" "$WORK/refused.log" \
  || { cat "$WORK/refused.log" >&2; fail "make run-webhooks did not name the deployed configuration"; }
! kubectl get validatingwebhookconfiguration validating-webhook-configuration >/dev/null 2>&1 \
  || fail "the refused make run-webhooks installed a configuration"
[ ! -e target/kubegen/webhooks ] || fail "the refused make run-webhooks left target/kubegen/webhooks"

stage "make run-webhooks: the manager, as the ServiceAccount config/ deploys, its webhooks called by the API server on 127.0.0.1"
kubectl delete mutatingwebhookconfiguration memcached-operator-mutating-webhook-configuration >/dev/null
kubectl delete validatingwebhookconfiguration memcached-operator-validating-webhook-configuration >/dev/null
POD_NAME=memcached-operator-test make -s run-webhooks ARGS="$manager_args" LOCAL_WEBHOOKS_ARGS="--address 127.0.0.1:$port" \
  > "$WORK/manager.log" 2>&1 &
MANAGER_PID=$!
for _ in $(seq 1 600); do
  grep -q '^\[local-webhooks\] the API server calls' "$WORK/manager.log" && break
  kill -0 "$MANAGER_PID" 2>/dev/null || fail "make run-webhooks exited before it installed the webhooks"
  sleep 0.5
done
grep '^\[local-webhooks\] the API server calls' "$WORK/manager.log" || fail "make run-webhooks never installed the webhooks"
[ "$(kubectl get crd memcacheds.cache.example.com -o jsonpath='{.spec.conversion.webhook.clientConfig.url}')" \
  = "https://127.0.0.1:$port/convert" ] || fail "the CRD's conversion does not call the local manager"
# The API server reads the configurations through an informer: a moment after the write.
sleep 1

stage "kubectl apply -k config/samples; wait for Available"
kubectl apply -k config/samples >/dev/null
kubectl wait --for=condition=Available memcached/memcached-sample --timeout=90s >/dev/null \
  || fail "the sample never became Available"
generation=$(kubectl get memcached memcached-sample -o jsonpath='{.status.conditions[0].observedGeneration}')
[ "$generation" = 1 ] || fail "observedGeneration is '$generation', not 1"
for _ in $(seq 1 50); do
  reason=$(kubectl get events.events.k8s.io -o jsonpath='{.items[?(@.regarding.name=="memcached-sample")].reason}')
  [ "$reason" = Reconciled ] && break
  sleep 0.2
done
[ "$reason" = Reconciled ] || fail "no Reconciled event (got '$reason')"
stage "the manager's webhooks, called by the API server: defaulted, refused, converted"
foo=$(kubectl get memcached memcached-sample -o jsonpath='{.spec.foo}')
[ "$foo" = defaulted ] || fail "the defaulting webhook did not set spec.foo (got '$foo')"
if kubectl apply -f - > "$WORK/denied.log" 2>&1 <<'YAML'; then
apiVersion: cache.example.com/v1alpha1
kind: Memcached
metadata:
  name: memcached-forbidden
spec:
  foo: forbidden
YAML
  fail "the validating webhook admitted spec.foo: forbidden"
fi
grep -q 'spec.foo: forbidden is not a foo' "$WORK/denied.log" \
  || { cat "$WORK/denied.log" >&2; fail "the denial does not name spec.foo with the validator's message"; }
converted=$(kubectl get memcacheds.v1.cache.example.com memcached-sample -o jsonpath='{.apiVersion} {.spec.foo}')
[ "$converted" = "cache.example.com/v1 defaulted" ] || fail "the conversion webhook did not serve v1 (got '$converted')"
if grep -Eq 'forbidden|Forbidden' "$WORK/manager.log"; then fail "the manager was refused by RBAC"; fi
kubectl get lease memcached-operator -n memcached-operator-system -o jsonpath='{.spec.holderIdentity}' | grep -q memcached-operator-test \
  || fail "the manager does not hold its Lease"

stage "kubectl delete; SIGTERM to the manager: make run-webhooks succeeds and removes what it installed"
kubectl delete -k config/samples --wait=true >/dev/null
pkill -TERM -f "debug/memcached-operator --kubeconfig" || fail "no manager process under make run-webhooks"
wait "$MANAGER_PID" || fail "the manager (make run-webhooks) exited non-zero on SIGTERM"
MANAGER_PID=
for config in mutatingwebhookconfiguration/mutating-webhook-configuration validatingwebhookconfiguration/validating-webhook-configuration; do
  ! kubectl get "$config" >/dev/null 2>&1 || fail "make run-webhooks left $config"
done
[ "$(kubectl get crd memcacheds.cache.example.com -o jsonpath='{.spec.conversion.strategy}')" = None ] \
  || fail "make run-webhooks did not set the CRD's conversion back to None (make install's)"
[ ! -e target/kubegen/webhooks ] || fail "make run-webhooks left target/kubegen/webhooks"

stage "make undeploy"
# This server runs no namespace controller, so a deleted namespace never goes: kubectl
# delete must not wait for it (in a cluster, undeploy waits as kubebuilder's does).
cat > "$WORK/kubectl-nowait" <<'SH'
#!/bin/sh
if [ "$1" = delete ]; then shift; exec kubectl delete --wait=false "$@"; fi
exec kubectl "$@"
SH
chmod +x "$WORK/kubectl-nowait"
make -s undeploy ignore-not-found=true KUBECTL="$WORK/kubectl-nowait" >/dev/null
kubectl wait --for=delete crd/memcacheds.cache.example.com --timeout=60s >/dev/null 2>&1 || fail "make undeploy left the CRD"
! kubectl get clusterrole memcached-operator-manager-role >/dev/null 2>&1 || fail "make undeploy left the manager's ClusterRole"

stage "make diff in a git repository: the API as committed passes; spec.foo's MaxLength tightened fails in v1 (in v1alpha1 a warning), uncommitted and against HEAD~1 (the ref built)"
gitc() { git -c user.name=kubegen-user-flow -c user.email=user-flow@kubegen.invalid "$@"; }
git init -q -b main && git add -A && gitc commit -qm "the operator, as make test left it"
make -s diff > "$WORK/diff.log" 2>&1 || { cat "$WORK/diff.log" >&2; fail "make diff refused the API as committed"; }
grep -q ': 0 errors, 0 warnings$' "$WORK/diff.log" || { cat "$WORK/diff.log" >&2; fail "make diff found changes in the API as committed"; }
for version in v1alpha1 v1; do
  sed -i 's|+kubebuilder:validation:MaxLength=63|+kubebuilder:validation:MaxLength=32|' "src/api/cache/$version/memcached.rs"
  grep -q 'MaxLength=32' "src/api/cache/$version/memcached.rs" || fail "$version's spec.foo has no MaxLength=63 to tighten"
done
for against in "" "--against HEAD~1 --build-ref"; do
  if [ -n "$against" ]; then
    cargo run -q -p codegen-cli -- manifests >/dev/null 2>&1
    git add -A && gitc commit -qm "spec.foo: at most 32 characters"
  fi
  if make -s diff DIFF_ARGS="$against" > "$WORK/diff.log" 2>&1; then
    cat "$WORK/diff.log" >&2; fail "make diff ${against:-(uncommitted)} passed a tightened MaxLength"
  fi
  grep -q '^error\[bounds-tightened\]: cache.example.com/Memcached v1 spec.foo' "$WORK/diff.log" \
    || { cat "$WORK/diff.log" >&2; fail "make diff ${against:-(uncommitted)} did not report v1's spec.foo as bounds-tightened"; }
  # An alpha version's finding is a warning (--strict makes it an error).
  grep -q '^warning\[bounds-tightened\]: cache.example.com/Memcached v1alpha1 spec.foo' "$WORK/diff.log" \
    || { cat "$WORK/diff.log" >&2; fail "make diff ${against:-(uncommitted)} did not warn of v1alpha1's spec.foo"; }
done
gitc revert --no-edit HEAD >/dev/null
cargo run -q -p codegen-cli -- manifests >/dev/null 2>&1
make -s diff > "$WORK/diff.log" 2>&1 || { cat "$WORK/diff.log" >&2; fail "make diff refused the API once the change was reverted"; }

stage "the webhook markers removed: manifests --check finds config/webhook/manifests.yaml stale, manifests empties it"
sed -i '/+kubebuilder:webhook:/d' src/webhook/memcached.rs
if cargo run -q -p codegen-cli -- manifests --check > "$WORK/stale.log" 2>&1; then
  fail "manifests --check passed with the configurations of removed markers"
fi
grep -q "config/webhook/manifests.yaml" "$WORK/stale.log" || { cat "$WORK/stale.log" >&2; fail "manifests --check did not name the stale file"; }
cargo run -q -p codegen-cli -- manifests 2>/dev/null
! grep -q "kind:" config/webhook/manifests.yaml || fail "config/webhook/manifests.yaml still holds configurations"
kubectl kustomize config/default > "$WORK/default.yaml" || fail "config/default does not build without webhooks"
! grep -q "WebhookConfiguration" "$WORK/default.yaml" || fail "config/default still deploys a webhook configuration"

stage "codegen-cli edit --namespaced: a Role and a RoleBinding in the manager's namespace; run as its ServiceAccount there, the manager reconciles in it and RBAC refuses it elsewhere"
codegen-cli edit --namespaced 2> "$WORK/edit.log" || { cat "$WORK/edit.log" >&2; fail "edit --namespaced failed"; }
grep -qx 'namespaced = true' Cargo.toml || fail "edit --namespaced did not record it in Cargo.toml"
cargo run -q -p codegen-cli -- manifests 2>/dev/null
[ "$(grep '^kind:' config/rbac/role.yaml)" = "kind: Role" ] || fail "config/rbac/role.yaml is not one Role: $(grep '^kind:' config/rbac/role.yaml)"
grep -qx 'kind: RoleBinding' config/rbac/role_binding.yaml || fail "edit --namespaced left config/rbac/role_binding.yaml a ClusterRoleBinding"
grep -qF -- '- --namespace=$(POD_NAMESPACE)' config/manager/manager.yaml || fail "the manager Deployment does not watch its own namespace"
kubectl kustomize config/default > "$WORK/namespaced.yaml" || fail "config/default does not build namespaced"
grep -q '^kind: ClusterRoleBinding' "$WORK/namespaced.yaml" && fail "config/default still binds a ClusterRole"
ns=memcached-ns
mkdir "$WORK/ns-rbac"
# config/rbac as config/default deploys it, in a namespace of this test's own.
printf 'namespace: %s\nnamePrefix: memcached-operator-\nresources:\n- ../memcached-operator/config/rbac\n' "$ns" \
  > "$WORK/ns-rbac/kustomization.yaml"
kubectl create namespace "$ns" >/dev/null
make -s install >/dev/null 2>&1 || fail "make install failed"
kubectl wait --for=condition=Established crd/memcacheds.cache.example.com --timeout=60s >/dev/null
kubectl apply -k "$WORK/ns-rbac" >/dev/null || fail "config/rbac does not apply in a namespace"
sa=system:serviceaccount:$ns:memcached-operator-controller-manager
[ "$(kubectl auth can-i list memcacheds.cache.example.com -n "$ns" --as "$sa")" = yes ] || fail "the Role does not grant its namespace"
[ "$(kubectl auth can-i list memcacheds.cache.example.com -n default --as "$sa" 2>/dev/null)" = no ] || fail "the manager may list Memcacheds outside its namespace"
[ "$(kubectl auth can-i list memcacheds.cache.example.com --all-namespaces --as "$sa" 2>/dev/null)" = no ] || fail "the manager may list Memcacheds cluster-wide"
cat > "$WORK/ns.kubeconfig" <<KCFG
apiVersion: v1
kind: Config
clusters: [{name: e2e, cluster: {server: "$server", certificate-authority: "$ca"}}]
users: [{name: sa, user: {token: "$(kubectl create token memcached-operator-controller-manager -n "$ns")"}}]
contexts: [{name: sa, context: {cluster: e2e, user: sa}}]
current-context: sa
KCFG
ns_manager() {
  "$CARGO_TARGET_DIR/debug/memcached-operator" --kubeconfig "$WORK/ns.kubeconfig" --namespace "$1" --leader-elect \
    --leader-election-namespace "$ns" --health-probe-bind-address=127.0.0.1:0 --metrics-bind-address=0 > "$WORK/ns-manager.log" 2>&1 &
  MANAGER_PID=$!
}
ns_manager "$ns"
sample=$(ls config/samples/*_v1alpha1_memcached.yaml)
kubectl apply -n "$ns" -f "$sample" >/dev/null
sed 's/name: memcached-sample/name: memcached-outside/' "$sample" | kubectl apply -n default -f - >/dev/null
kubectl wait -n "$ns" --for=condition=Available memcached/memcached-sample --timeout=120s >/dev/null \
  || { tail -20 "$WORK/ns-manager.log" >&2; fail "the namespaced manager did not reconcile the Memcached of its namespace"; }
sleep 2
[ -z "$(kubectl get memcached memcached-outside -n default -o jsonpath='{.status.conditions}')" ] \
  || fail "the namespaced manager reconciled a Memcached outside its namespace"
! grep -qi forbidden "$WORK/ns-manager.log" || { tail -20 "$WORK/ns-manager.log" >&2; fail "the manager was refused in its own namespace"; }
kill -TERM "$MANAGER_PID"; wait "$MANAGER_PID" || fail "the namespaced manager exited non-zero on SIGTERM"
# Pointed at another namespace, the same manager is refused by RBAC, and reconciles nothing.
ns_manager default
for _ in $(seq 1 60); do grep -qi forbidden "$WORK/ns-manager.log" && break; sleep 0.5; done
grep -qi 'forbidden' "$WORK/ns-manager.log" || { tail -20 "$WORK/ns-manager.log" >&2; fail "RBAC did not refuse the manager outside its namespace"; }
[ -z "$(kubectl get memcached memcached-outside -n default -o jsonpath='{.status.conditions}')" ] \
  || fail "a manager refused by RBAC reconciled memcached-outside"
kill -TERM "$MANAGER_PID"; wait "$MANAGER_PID" 2>/dev/null || true
MANAGER_PID=
codegen-cli edit --namespaced=false 2>/dev/null || fail "edit --namespaced=false failed"
cargo run -q -p codegen-cli -- manifests 2>/dev/null
grep -qx 'kind: ClusterRole' config/rbac/role.yaml || fail "edit --namespaced=false did not bring the ClusterRole back"
grep -qx 'kind: ClusterRoleBinding' config/rbac/role_binding.yaml || fail "edit --namespaced=false left a RoleBinding"
! grep -qF -- '--namespace=$(POD_NAMESPACE)' config/manager/manager.yaml || fail "edit --namespaced=false left --namespace in the Deployment"
grep -qx 'namespaced = false' Cargo.toml || fail "edit --namespaced=false did not record it"
# A namespaced project refuses what its Role cannot grant, naming the marker.
codegen-cli edit --namespaced 2>/dev/null
sed -i 's|^// +kubebuilder:rbac:groups=events.k8s.io|// +kubebuilder:rbac:groups=core,resources=nodes,verbs=list\n&|' src/controller/memcached.rs
if cargo run -q -p codegen-cli -- manifests > "$WORK/refused.log" 2>&1; then fail "manifests put nodes (cluster-scoped) into a namespaced Role"; fi
grep -q '`nodes` is cluster-scoped' "$WORK/refused.log" || { cat "$WORK/refused.log" >&2; fail "manifests did not say why it refused nodes"; }
sed -i '/+kubebuilder:rbac:groups=core,resources=nodes,verbs=list/d' src/controller/memcached.rs
codegen-cli edit --namespaced=false 2>/dev/null

stage "codegen-cli upgrade: this project's record (PROJECT) replays to its own scaffold; the operator as kubegen's scaffold at 9286da8 wrote it (cli/testdata/upgrade), edited as a user would, upgraded: a conflict is listed and nothing written, then settled; make test"
codegen-cli upgrade --dry-run > "$WORK/upgrade-self.log" 2>&1 || { cat "$WORK/upgrade-self.log" >&2; fail "upgrade --dry-run failed on the project scaffolded by this version"; }
grep -q "nothing to upgrade" "$WORK/upgrade-self.log" || { cat "$WORK/upgrade-self.log" >&2; fail "the record of create api, create webhook, create dashboards and edit did not replay to the scaffold as written"; }
up=$WORK/upgraded/memcached-operator
mkdir -p "$up"
cp -r "$ROOT/cli/testdata/upgrade/9286da8/." "$up"
grep -rlF @KUBEGEN@ "$up" | xargs sed -i "s|@KUBEGEN@|$ROOT|g"
cd "$up"
# Your edits: controller logic, a target of your own, a manager flag; and a line at the
# end of .dockerignore, where the new scaffold adds one too (a conflict).
sed -i 's/Ok(Action::await_change())/Ok(Action::requeue(std::time::Duration::from_secs(600)))/' src/controller/memcached.rs
printf '\n.PHONY: coverage\ncoverage: ## Test coverage (a target of our own).\n\t$(CARGO) llvm-cov --workspace\n' >> Makefile
sed -i 's/--metrics-bind-address=:8080/--metrics-bind-address=:8443/' config/manager/manager.yaml
printf '.env\n' >> .dockerignore
sums() { find . -path ./target -prune -o -type f -print0 | sort -z | xargs -0 sha256sum; }
before=$(sums)
if codegen-cli upgrade > "$WORK/upgrade-conflict.log" 2>&1; then fail "upgrade passed over a conflict"; fi
grep -q "conflict in .dockerignore at your line 3" "$WORK/upgrade-conflict.log" \
  && grep -qF -- "| .env" "$WORK/upgrade-conflict.log" && grep -qF -- "| .kubegen/" "$WORK/upgrade-conflict.log" \
  || { cat "$WORK/upgrade-conflict.log" >&2; fail "upgrade did not list the conflict with its lines"; }
[ "$(sums)" = "$before" ] || fail "an upgrade with a conflict wrote files"
# Settled by hand: the new scaffold's lines and yours, kept as they now are.
cp target/kubegen/upgrade/new/.dockerignore .dockerignore
printf '.env\n' >> .dockerignore
settled=$(sums)
codegen-cli upgrade --dry-run --keep .dockerignore > "$WORK/upgrade-plan.log" 2>&1 \
  || { cat "$WORK/upgrade-plan.log" >&2; fail "upgrade --dry-run failed once the conflict was settled"; }
for line in "merge     Makefile" "merge     config/manager/manager.yaml" "update    Cargo.toml" "kept      .dockerignore" \
  "dry run: nothing was written"; do
  grep -qF -- "$line" "$WORK/upgrade-plan.log" || { cat "$WORK/upgrade-plan.log" >&2; fail "the plan does not say: $line"; }
done
[ "$(sums)" = "$settled" ] || fail "upgrade --dry-run wrote files"
codegen-cli upgrade --keep .dockerignore > "$WORK/upgrade.log" 2>&1 || { cat "$WORK/upgrade.log" >&2; fail "upgrade failed"; }
grep -qF 'Action::requeue(std::time::Duration::from_secs(600))' src/controller/memcached.rs || fail "the upgrade lost the controller's logic"
grep -q '^coverage: ##' Makefile || fail "the upgrade lost the Makefile target of your own"
grep -q '^helm-lint: helm ##' Makefile || fail "the upgrade did not bring the helm targets"
grep -qF -- '--metrics-bind-address=:8443' config/manager/manager.yaml || fail "the upgrade lost the manager's flag"
grep -qF -- '--sharding instead' config/manager/manager.yaml || fail "the upgrade did not bring the manager's new comment"
grep -qF "path = \"$ROOT/kubegen\"" Cargo.toml || fail "the upgrade did not move kubegen's path to its crate's new place"
[ "$(tail -2 .dockerignore)" = "$(printf '.kubegen/\n.env')" ] || fail "the settled .dockerignore changed"
codegen-cli upgrade --dry-run > "$WORK/upgrade-again.log" 2>&1 || fail "a second upgrade --dry-run failed"
grep -q "nothing to upgrade" "$WORK/upgrade-again.log" || { cat "$WORK/upgrade-again.log" >&2; fail "a second upgrade still has work"; }
# The dependencies' versions as the flow's own project resolved them: the same builds.
cp "$WORK/memcached-operator/Cargo.lock" Cargo.lock
make test ENVTEST_K8S_VERSION="${KUBE_VERSION#v}" > "$WORK/upgraded-test.log" 2>&1 \
  || { grep -v '^ *[0-9]*: \|^ *at ' "$WORK/upgraded-test.log" | tail -60 >&2; fail "make test failed on the upgraded operator"; }
grep -q "test a_new_memcached_becomes_available ... ok" "$WORK/upgraded-test.log" || fail "make test ran no test on the upgraded operator"
cd "$WORK/memcached-operator"

stage "this checkout is as it was (the flow wrote nothing outside its workspace and target/)"
[ "$(git -C "$ROOT" status --porcelain --untracked-files=no)" = "$checkout_state" ] \
  || { git -C "$ROOT" status --short >&2; fail "the user flow changed files of this checkout"; }
stage "passed"
