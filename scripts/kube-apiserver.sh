#!/usr/bin/env bash
# A real kube-apiserver + etcd for the end-to-end tier. `scripts/kube-apiserver.sh --help`
# documents every command and variable (the text below, in `usage`).
#
# kube-apiserver is built from the k8s.io/kubernetes Go module (KUBE_VERSION, default the
# newest release), through a small wrapper module: the kubernetes module replaces its
# staging modules (k8s.io/api, k8s.io/apiserver, ...) with ./staging directories, which a
# module that requires it cannot see, so the wrapper pins each to its published v0.x
# release. etcd is Debian's etcd-server.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
# The newest release is the main e2e server; scripts/test.sh also runs the CRD tier on the
# oldest release still supported upstream (KUBE_VERSION=v1.35.4).
VERSION=${KUBE_VERSION:-v1.37.2}
CACHE=${KUBEGEN_APISERVER_CACHE:-$ROOT/target/kube-apiserver/$VERSION}
BIN=$CACHE/kube-apiserver

log() { printf '[kube-apiserver] %s\n' "$*" >&2; }

usage() {
  cat <<USAGE
usage: scripts/kube-apiserver.sh COMMAND [RUN_DIR]

A real kube-apiserver and etcd on loopback, for tests.

commands:
  build          build kube-apiserver \$KUBE_VERSION from the k8s.io/kubernetes Go module,
                 once; cached under target/kube-apiserver/VERSION/
  bin            print the path of the cached kube-apiserver binary
  start RUN_DIR  start etcd and kube-apiserver on free loopback ports, with their data,
                 certificates, logs and pid files in RUN_DIR; write RUN_DIR/kubeconfig and
                 wait until the server is ready. RUN_DIR must be new, empty, or one an
                 earlier start made (it holds $MARKER): a directory holding anything else
                 is refused, and nothing in it is touched.
  stop RUN_DIR   stop exactly the processes start recorded in RUN_DIR, and remove the etcd
                 data start wrote there; other files stay
  -h, --help     this text

environment:
  KUBE_VERSION              the Kubernetes release (default v1.37.2; CI also runs v1.35.4)
  KUBEGEN_APISERVER_CACHE   where build puts and bin finds the binary
                            (default target/kube-apiserver/\$KUBE_VERSION)
  AUTHZ_MODE                kube-apiserver's --authorization-mode (default RBAC)
  KUBE_FEATURE_GATES        kube-apiserver's --feature-gates (default, from 1.36 on,
                            ShardedListAndWatch=true: the alpha shardSelector sharded
                            managers use; set it empty for none)

Needs Go (for build), and etcd, openssl and curl (start installs Debian's etcd-server,
openssl and curl when they are missing and apt-get is available).
USAGE
}

# What start leaves in RUN_DIR to say the directory is its own.
MARKER=.kubegen-apiserver

# RUN_DIR is safe to use: it does not exist, is empty, or an earlier start made it.
claim_run_dir() {
  local run=$1
  if [ -e "$run" ] && [ ! -d "$run" ]; then
    log "$run is not a directory; give start a new or empty directory"; exit 2
  fi
  if [ -d "$run" ] && [ ! -e "$run/$MARKER" ] && [ -n "$(ls -A "$run")" ]; then
    log "$run holds files that start did not write; give start a new or empty directory (nothing was touched)"
    exit 2
  fi
}

apt_install() {
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "apt-get install ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null
}

ensure_runtime_packages() {
  if ! command -v etcd >/dev/null || ! command -v openssl >/dev/null || ! command -v curl >/dev/null; then
    apt-get update -q >/dev/null || true
    apt_install etcd-server openssl curl
  fi
}

build() {
  if [ -x "$BIN" ]; then log "cached: $BIN"; return 0; fi
  command -v go >/dev/null || { log "Go is required to build kube-apiserver $VERSION (go on the PATH)"; exit 1; }
  [[ "$VERSION" =~ ^v1\.([0-9]+)\.([0-9]+)$ ]] || { log "KUBE_VERSION=$VERSION is not v1.MINOR.PATCH"; exit 1; }
  local minor=${BASH_REMATCH[1]} staging="v0.${BASH_REMATCH[1]}.${BASH_REMATCH[2]}"
  local work=$CACHE/module t0 gomod
  t0=$(date +%s)
  # The module directory is build's own: rebuilt from scratch, if build made it.
  if [ -d "$work" ] && [ ! -e "$work/$MARKER" ] && [ -n "$(ls -A "$work")" ]; then
    log "$work holds files build did not write; remove it or set KUBEGEN_APISERVER_CACHE"; exit 2
  fi
  rm -rf "$work"; mkdir -p "$work"; touch "$work/$MARKER"
  # Go's own module and build caches (`go env GOMODCACHE GOCACHE`), shared with
  # `codegen-cli envtest` and any other Go build: a second build of the same release (envtest's,
  # or after target/ is gone) compiles nothing and downloads nothing. About 3 GB for a release;
  # `go clean -cache -modcache` gives it back.
  export GOFLAGS="-mod=mod -buildvcs=false -modcacherw" GOTOOLCHAIN=local CGO_ENABLED=0
  (
    cd "$work"
    printf 'module kubegen.dev/kube-apiserver\n\ngo 1.24\n\nrequire k8s.io/kubernetes %s\n' "$VERSION" > go.mod
    printf '//go:build tools\n\npackage tools\n\nimport _ "k8s.io/kubernetes/cmd/kube-apiserver"\n' > tools.go
    gomod=$(go mod download -json "k8s.io/kubernetes@$VERSION" |
      python3 -c 'import json, sys; d = json.load(sys.stdin); print(d.get("GoMod") or sys.exit(d.get("Error", "no go.mod")))')
    sed -n 's|^[[:space:]]*\(k8s\.io/[a-z0-9-]*\) => \./staging/.*|\1|p' "$gomod" |
      while read -r module; do printf 'replace %s => %s %s\n' "$module" "$module" "$staging"; done >> go.mod
    log "resolving k8s.io/kubernetes $VERSION (staging modules at $staging)"
    go mod tidy
    local ld="-s -w" p
    for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
      ld="$ld -X $p.gitVersion=$VERSION -X $p.gitMajor=1 -X $p.gitMinor=$minor -X $p.gitTreeState=clean"
    done
    log "go build k8s.io/kubernetes/cmd/kube-apiserver"
    # Stripped (-s -w), so its packages are compiled without DWARF: the same binary, and a
    # build cache a sixth smaller.
    go build -trimpath -gcflags=all=-dwarf=false -o "$BIN.tmp" -ldflags "$ld" k8s.io/kubernetes/cmd/kube-apiserver
  )
  mv "$BIN.tmp" "$BIN"
  log "built $BIN ($("$BIN" --version)) in $(( $(date +%s) - t0 ))s"
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

start() {
  local run=$1
  claim_run_dir "$run"
  [ -x "$BIN" ] || { log "not built: run scripts/kube-apiserver.sh build"; exit 1; }
  ensure_runtime_packages
  local etcd_port peer_port api_port token
  etcd_port=$(free_port); peer_port=$(free_port); api_port=$(free_port)
  token=kubegen-e2e-$(head -c 8 /dev/urandom | od -An -tx1 | tr -d ' \n')
  mkdir -p "$run"; chmod 700 "$run"; touch "$run/$MARKER"
  # Only what an earlier start wrote here is replaced.
  rm -rf "$run"/{etcd-data,certs,pki} "$run"/{etcd,kube-apiserver}.{log,pid} "$run/kubeconfig"
  mkdir -p "$run"/{etcd-data,certs,pki}
  echo "$token,admin,admin,\"system:masters\"" > "$run/pki/tokens.csv"
  openssl genrsa -out "$run/pki/sa.key" 2048 2>/dev/null
  openssl rsa -in "$run/pki/sa.key" -pubout -out "$run/pki/sa.pub" 2>/dev/null

  etcd --name kubegen-e2e --data-dir "$run/etcd-data" \
    --listen-client-urls "http://127.0.0.1:$etcd_port" --advertise-client-urls "http://127.0.0.1:$etcd_port" \
    --listen-peer-urls "http://127.0.0.1:$peer_port" --initial-advertise-peer-urls "http://127.0.0.1:$peer_port" \
    --initial-cluster "kubegen-e2e=http://127.0.0.1:$peer_port" --initial-cluster-state new \
    > "$run/etcd.log" 2>&1 &
  echo $! > "$run/etcd.pid"
  for _ in $(seq 1 200); do
    curl -fsS "http://127.0.0.1:$etcd_port/health" 2>/dev/null | grep -q '"health":"true"' && break
    kill -0 "$(cat "$run/etcd.pid")" 2>/dev/null || { tail -20 "$run/etcd.log" >&2; log "etcd died"; exit 1; }
    sleep 0.1
  done

  # Alpha gates a release knows (an unknown gate stops the server): KEP-5866's
  # shardSelector from 1.36 on, which sharded managers use where it is served.
  local gates minor
  minor=$(sed -n 's/^v1\.\([0-9]*\)\..*/\1/p' <<<"$VERSION")
  if [ "${minor:-0}" -ge 36 ]; then gates=${KUBE_FEATURE_GATES-ShardedListAndWatch=true}; else gates=${KUBE_FEATURE_GATES-}; fi
  # --endpoint-reconciler-type=none: the `kubernetes` Service endpoint would be 127.0.0.1,
  # which Endpoints validation rejects; no traffic goes to the service range.
  "$BIN" --etcd-servers="http://127.0.0.1:$etcd_port" \
    --bind-address=127.0.0.1 --advertise-address=127.0.0.1 --secure-port="$api_port" \
    --cert-dir="$run/certs" --token-auth-file="$run/pki/tokens.csv" \
    --authorization-mode="${AUTHZ_MODE:-RBAC}" \
    --service-account-issuer=https://kubernetes.default.svc \
    --service-account-key-file="$run/pki/sa.pub" --service-account-signing-key-file="$run/pki/sa.key" \
    --service-cluster-ip-range=10.0.0.0/24 --endpoint-reconciler-type=none --allow-privileged=false \
    ${gates:+--feature-gates="$gates"} \
    > "$run/kube-apiserver.log" 2>&1 &
  echo $! > "$run/kube-apiserver.pid"

  local deadline=$(( $(date +%s) + 120 )) ready=""
  while [ "$(date +%s)" -lt "$deadline" ]; do
    if [ "$(curl -ks -H "Authorization: Bearer $token" "https://127.0.0.1:$api_port/readyz" 2>/dev/null)" = ok ]; then ready=1; break; fi
    kill -0 "$(cat "$run/kube-apiserver.pid")" 2>/dev/null || { tail -30 "$run/kube-apiserver.log" >&2; log "kube-apiserver died"; exit 1; }
    sleep 0.1
  done
  [ -n "$ready" ] || { log "not ready after 120s; see $run/kube-apiserver.log"; exit 1; }
  for _ in $(seq 1 100); do
    curl -fks -H "Authorization: Bearer $token" "https://127.0.0.1:$api_port/api/v1/namespaces/default" >/dev/null 2>&1 && break
    sleep 0.1
  done
  local crt
  crt=$(ls "$run"/certs/*.crt | head -1)
  cat > "$run/kubeconfig" <<KCFG
apiVersion: v1
kind: Config
clusters:
- name: kubegen-e2e
  cluster:
    server: https://127.0.0.1:$api_port
    certificate-authority: $crt
contexts:
- name: kubegen-e2e
  context: {cluster: kubegen-e2e, user: admin, namespace: default}
current-context: kubegen-e2e
users:
- name: admin
  user: {token: $token}
KCFG
  chmod 600 "$run/kubeconfig"
  log "ready on https://127.0.0.1:$api_port (etcd :$etcd_port); KUBECONFIG=$run/kubeconfig"
}

stop_pid() { # name pidfile cmdline-substring
  local name=$1 pidfile=$2 want=$3 pid
  [ -f "$pidfile" ] || return 0
  pid=$(cat "$pidfile")
  if kill -0 "$pid" 2>/dev/null && tr '\0' ' ' < "/proc/$pid/cmdline" | grep -q -- "$want"; then
    kill -TERM "$pid"
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
    log "$name stopped (pid $pid)"
  fi
  rm -f "$pidfile"
}

stop() {
  local run=$1
  stop_pid kube-apiserver "$run/kube-apiserver.pid" "--etcd-servers="
  stop_pid etcd "$run/etcd.pid" "--data-dir $run/etcd-data"
  # The etcd data is start's own only in a directory start claimed.
  if [ -e "$run/$MARKER" ]; then rm -rf "$run/etcd-data"; fi
}

# Arguments are checked before anything is touched.
command=${1:-}
[ $# -gt 0 ] && shift
for arg in "$@"; do
  case "$arg" in
    -h|--help) usage; exit 0 ;;
    -*) log "unknown option $arg"; usage >&2; exit 2 ;;
  esac
done
case "$command" in
  -h|--help|help) usage ;;
  build|bin) [ $# -eq 0 ] || { log "$command takes no arguments"; exit 2; }
    if [ "$command" = build ]; then build; else echo "$BIN"; fi ;;
  start|stop) [ $# -eq 1 ] && [ -n "$1" ] || { log "$command needs RUN_DIR (see --help)"; exit 2; }
    "$command" "$1" ;;
  *) usage >&2; exit 2 ;;
esac
