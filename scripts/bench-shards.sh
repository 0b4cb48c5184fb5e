#!/usr/bin/env bash
# Sharded managers on a real API server: COUNT Foos (default 10000) whose reconcile takes
# COST_MS (default 20 ms, 4 at once per replica), reconciled by one unsharded manager (the
# baseline) and by 1, 2, 3 and 5 sharded replica processes. Prints, per run, the time
# until every Foo's status is written and objects/s, and per replica its objects,
# reconciles, reconcile latency p50/p99, the wait from an object's creation to its first
# reconcile p50/p99, CPU seconds and peak RSS.
#
# Then a churn run (CHURN_REPLICAS, default 3; CHURN=0 skips it): every Foo reconciled
# again every REQUEUE_MS (default 2000); once half have a status one replica is killed
# (SIGKILL) and a new one started; prints how long the dead replica's Foos took to move
# and the new one to get its share, and checks from every replica's ledger of reconciles
# that no Foo was reconciled by two replicas at once (fails otherwise). CHURN_KILL=sharder
# kills the replica holding the sharder lease instead of another one.
#
# Each sharded run is made once per selection in SELECTIONS (default "labels
# shard-selector"): the shard label the sharder writes, and the API server's shardSelector
# (KEP-5866, on in the test server from 1.36), where no object is written and each replica
# lists and watches only its share; per replica, `cached` is the objects its cache holds
# and `sharder_writes` the labels (or lease grants) the sharder wrote. The churn run is made
# for CHURN_SELECTIONS (default: SELECTIONS).
#
#   scripts/bench-shards.sh            COUNT=10000, release build (minutes)
#   scripts/bench-shards.sh --quick    200 Foos, the baseline, 2 replicas of each selection and
#                                      churn under shardSelector, debug build (CI)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
quick=false
[[ "${1:-}" == --quick ]] && quick=true
COUNT=${COUNT:-10000}
COST_MS=${COST_MS:-20}
REPLICAS=${REPLICAS:-"0 1 2 3 5"}
PROFILE=${BENCH_PROFILE:-release}
CHURN=${CHURN:-1}
CHURN_REPLICAS=${CHURN_REPLICAS:-3}
REQUEUE_MS=${REQUEUE_MS:-2000}
CHURN_KILL=${CHURN_KILL:-other}
SELECTIONS=${SELECTIONS:-"labels shard-selector"}
CHURN_SELECTIONS=${CHURN_SELECTIONS:-$SELECTIONS}
case "$CHURN_KILL" in
  other) kill_flag=() ;;
  sharder) kill_flag=(--kill-sharder) ;;
  *) echo "CHURN_KILL is other or sharder, not '$CHURN_KILL'" >&2; exit 2 ;;
esac
if $quick; then COUNT=200; REPLICAS="0 2"; PROFILE=dev; CHURN_SELECTIONS=shard-selector; fi
scripts/kube-apiserver.sh build
cargo build -q --profile "$PROFILE" -p foo-controller --bin shard-bench
BIN=target/$([ "$PROFILE" = dev ] && echo debug || echo "$PROFILE")/shard-bench
RUN_DIR=$ROOT/target/kube-bench/shards-$$
trap 'scripts/kube-apiserver.sh stop "$RUN_DIR" || true' EXIT INT TERM
AUTHZ_MODE=AlwaysAllow scripts/kube-apiserver.sh start "$RUN_DIR" 2>/dev/null
kubectl --kubeconfig "$RUN_DIR/kubeconfig" apply --server-side -f config/crd/bases/ >/dev/null
sleep 2
for replicas in $REPLICAS; do
  if [ "$replicas" = 0 ]; then
    "$BIN" --kubeconfig "$RUN_DIR/kubeconfig" --replicas 0 --count "$COUNT" --cost-ms "$COST_MS"
    continue
  fi
  for selection in $SELECTIONS; do
    echo "selection=$selection"
    "$BIN" --kubeconfig "$RUN_DIR/kubeconfig" --replicas "$replicas" --count "$COUNT" --cost-ms "$COST_MS" \
      --selection "$selection"
  done
done
if [ "$CHURN" != 0 ]; then
  for selection in $CHURN_SELECTIONS; do
    echo "selection=$selection"
    "$BIN" --kubeconfig "$RUN_DIR/kubeconfig" --replicas "$CHURN_REPLICAS" --count "$COUNT" --cost-ms "$COST_MS" \
      --churn --requeue-ms "$REQUEUE_MS" "${kill_flag[@]}" --selection "$selection"
  done
fi
