#!/usr/bin/env bash
# controller-gen as the oracle: installs the pinned controller-gen (cached under
# target/), generates CRDs from the Go twins in tests/oracle/go and compares them with
# kubegen's goldens node by node (tests/tests/oracle.rs; allowed differences, each with a
# reason, in tests/oracle/allowed.txt), and its RBAC with config/rbac/role.yaml.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CONTROLLER_TOOLS=v0.23.0
bin=$ROOT/target/oracle/bin
export GOFLAGS="-mod=mod -buildvcs=false" GOTOOLCHAIN=local
if [ ! -x "$bin/controller-gen-$CONTROLLER_TOOLS" ]; then
  mkdir -p "$bin"
  GOBIN=$bin go install "sigs.k8s.io/controller-tools/cmd/controller-gen@$CONTROLLER_TOOLS"
  mv "$bin/controller-gen" "$bin/controller-gen-$CONTROLLER_TOOLS"
fi
out=$ROOT/target/oracle
rm -rf "$out/crd" "$out/rbac"
(cd tests/oracle/go && "$bin/controller-gen-$CONTROLLER_TOOLS" crd rbac:roleName=manager-role paths=./... \
  "output:crd:dir=$out/crd" "output:rbac:dir=$out/rbac")
KUBEGEN_ORACLE_DIR=$out cargo test -q -p kubegen-tests --test oracle -- --ignored --nocapture
