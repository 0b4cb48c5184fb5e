#!/usr/bin/env bash
# A real kube-apiserver + etcd for the end-to-end tier, from Debian packages only.
#
#   scripts/kube-apiserver.sh build          build kube-apiserver once; cached under target/
#   scripts/kube-apiserver.sh start RUN_DIR  start etcd + apiserver on free loopback ports,
#                                            write RUN_DIR/kubeconfig, wait until ready
#   scripts/kube-apiserver.sh stop RUN_DIR   stop exactly the processes `start` recorded
#   scripts/kube-apiserver.sh bin            print the path of the cached binary
#
# The Debian bookworm source package ships Kubernetes v1.20.2. It builds only in GOPATH
# mode, lacks the generated OpenAPI file, and vendors a reflect2 that crashes on Go >= 1.18
# at the first CRD create; each is handled below.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
VERSION=v1.20.2
DEB_VERSION=1.20.5+really1.20.2-1.1+deb12u1
CACHE=${KUBEGEN_APISERVER_CACHE:-$ROOT/target/kube-apiserver/$VERSION}
BIN=$CACHE/kube-apiserver

log() { printf '[kube-apiserver] %s\n' "$*" >&2; }

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
  # `apt-get source` needs deb-src entries for bookworm.
  if ! apt-cache showsrc kubernetes 2>/dev/null | grep -q '^Package: kubernetes'; then
    local uri
    uri=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources)
    printf 'Types: deb-src\nURIs: %s\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
      "$uri" > /etc/apt/sources.list.d/bookworm-src.sources
  fi
  apt-get update -q >/dev/null
  apt_install golang-1.19-go etcd-server dpkg-dev rsync golang-github-modern-go-reflect2-dev openssl curl

  local work=$CACHE/build t0
  t0=$(date +%s)
  rm -rf "$work"; mkdir -p "$work"
  (cd "$work" && apt-get source -q "kubernetes=$DEB_VERSION" >/dev/null 2>&1)
  local src=$work/kubernetes-1.20.5+really1.20.2
  [ -d "$src" ] || { log "apt-get source kubernetes=$DEB_VERSION produced no tree"; exit 1; }

  rm -rf "$src/vendor/github.com/modern-go/reflect2"
  mkdir -p "$src/vendor/github.com/modern-go/reflect2"
  find /usr/share/gocode/src/github.com/modern-go/reflect2 -maxdepth 1 -name '*.go' ! -name '*_test.go' \
    -exec cp {} "$src/vendor/github.com/modern-go/reflect2/" \;

  export GOPATH=$work/gopath GO111MODULE=off GOFLAGS= GOPROXY=off CGO_ENABLED=0
  export GOCACHE=$work/gocache PATH=/usr/lib/go-1.19/bin:$PATH
  mkdir -p "$GOPATH/src/k8s.io"
  ln -sfn "$src" "$GOPATH/src/k8s.io/kubernetes"
  (
    cd "$GOPATH/src/k8s.io/kubernetes"
    make generated_files >/dev/null
    local ld="-s -w" p
    for p in k8s.io/kubernetes/vendor/k8s.io/component-base/version k8s.io/kubernetes/vendor/k8s.io/client-go/pkg/version; do
      ld="$ld -X $p.gitVersion=$VERSION -X $p.gitMajor=1 -X $p.gitMinor=20 -X $p.gitTreeState=clean"
    done
    go build -o "$BIN.tmp" -ldflags "$ld" ./cmd/kube-apiserver
  )
  mv "$BIN.tmp" "$BIN"
  rm -rf "$work"
  log "built $BIN in $(( $(date +%s) - t0 ))s"
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

start() {
  local run=${1:?usage: start RUN_DIR}
  [ -x "$BIN" ] || { log "not built: run scripts/kube-apiserver.sh build"; exit 1; }
  ensure_runtime_packages
  local etcd_port peer_port api_port token
  etcd_port=$(free_port); peer_port=$(free_port); api_port=$(free_port)
  token=kubegen-e2e-$(head -c 8 /dev/urandom | od -An -tx1 | tr -d ' \n')
  rm -rf "$run"; mkdir -p "$run"/{etcd-data,certs,pki}; chmod 700 "$run"
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

  # --endpoint-reconciler-type=none: the `kubernetes` Service endpoint would be 127.0.0.1,
  # which Endpoints validation rejects; no traffic goes to the service range.
  "$BIN" --etcd-servers="http://127.0.0.1:$etcd_port" \
    --bind-address=127.0.0.1 --advertise-address=127.0.0.1 --secure-port="$api_port" \
    --cert-dir="$run/certs" --token-auth-file="$run/pki/tokens.csv" \
    --authorization-mode="${AUTHZ_MODE:-RBAC}" \
    --service-account-issuer=https://kubernetes.default.svc \
    --service-account-key-file="$run/pki/sa.pub" --service-account-signing-key-file="$run/pki/sa.key" \
    --service-cluster-ip-range=10.0.0.0/24 --endpoint-reconciler-type=none --allow-privileged=false \
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
  local run=${1:?usage: stop RUN_DIR}
  stop_pid kube-apiserver "$run/kube-apiserver.pid" "--etcd-servers="
  stop_pid etcd "$run/etcd.pid" "--data-dir $run/etcd-data"
  rm -rf "$run/etcd-data"
}

case "${1:-}" in
  build) build ;;
  bin) echo "$BIN" ;;
  start) shift; start "$@" ;;
  stop) shift; stop "$@" ;;
  *) echo "usage: $0 build | bin | start RUN_DIR | stop RUN_DIR" >&2; exit 2 ;;
esac
