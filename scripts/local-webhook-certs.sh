#!/usr/bin/env bash
# A CA and a serving certificate for 127.0.0.1, for webhooks served on this machine where
# the API server cannot reach the webhook Service and no cert-manager issues one:
#
#   scripts/local-webhook-certs.sh DIR CA_NAME
#
# writes DIR/ca.crt (the caBundle the configurations trust) and DIR/tls.crt, DIR/tls.key
# (what --webhook-cert-path reads). Valid for a day.
set -euo pipefail
usage() {
  sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
}
case "${1:-}" in
  -h | --help) usage; exit 0 ;;
esac
if [ $# -ne 2 ]; then
  usage >&2
  echo "error: expected DIR and CA_NAME, got $# argument(s)" >&2
  exit 2
fi
dir=$1 name=$2
mkdir -p "$dir"
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=$name" \
  -keyout "$dir/ca.key" -out "$dir/ca.crt" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout "$dir/tls.key" -out "$dir/tls.csr" 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1\n' > "$dir/san.ext"
openssl x509 -req -days 1 -in "$dir/tls.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial \
  -extfile "$dir/san.ext" -out "$dir/tls.crt" 2>/dev/null
