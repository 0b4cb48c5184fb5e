#!/usr/bin/env bash
# The generated kinds' clients through their toolchains, and the server's objects through
# the clients (issue 28). Reads what the generated kinds tier left in
# target/generated-kinds/$KUBEGEN_SEED/ (tests/tests/e2e/generated_kinds.rs: the crate, and
# objects.json, each object the server admitted as it returned it), so it runs after it,
# and after scripts/clients-e2e.sh, whose node_modules and virtualenv it uses.
#
#   KUBEGEN_SEED=7 scripts/generated-clients.sh
#
# 1. `codegen-cli clients` writes the Go, TypeScript and Python packages of the crate's kinds;
#    `go build` and `go vet`, `tsc --strict` and `mypy --strict` must pass.
# 2. Every object of objects.json goes through each client: Go decodes it into the kind's
#    type refusing unknown fields and encodes it back; Python validates it with the kind's
#    pydantic model and dumps it as the client sends it; TypeScript type-checks it as a
#    literal of the kind's interface (tsc --strict: excess fields refused). A client that
#    refuses what the server admitted, or drops or changes what it keeps, fails the step.
#    Each language prints `N/M agree`. What a client cannot keep yet is listed, per seed, in
#    tests/clients/generated-known.txt with its reason: any other finding fails the step, and
#    so does a listed one that no longer occurs.
# Everything it writes is under target/generated-kinds/$KUBEGEN_SEED/clients (recreated).
set -euo pipefail
case "${1:-}" in
  "") ;;
  -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
  *) echo "usage: KUBEGEN_SEED=<n> $0 (see --help)" >&2; exit 2 ;;
esac
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
seed=${KUBEGEN_SEED:?KUBEGEN_SEED names the run of the generated kinds tier}
dir=target/generated-kinds/$seed
[ -f "$dir/Cargo.toml" ] && [ -f "$dir/objects.json" ] || {
  echo "no generated kinds for seed $seed under $dir: run the generated kinds tier first (scripts/e2e.sh)" >&2
  exit 2
}
node_modules=$ROOT/target/clients-e2e/typescript/node_modules
venv=$ROOT/target/clients-e2e/venv
[ -d "$node_modules" ] && [ -x "$venv/bin/mypy" ] || {
  echo "scripts/clients-e2e.sh installs the TypeScript and Python toolchains this uses: run it first" >&2
  exit 2
}
cli=${KUBEGEN_CODEGEN_CLI:-$ROOT/target/debug/codegen-cli}
# Built here unless given (scripts/e2e.sh builds it): a stale binary lacks new flags.
[ -n "${KUBEGEN_CODEGEN_CLI:-}" ] || cargo build -q -p codegen-cli
out=$ROOT/$dir/clients
rm -rf "$out"
CARGO_TARGET_DIR=$ROOT/target "$cli" clients --manifest-path "$dir/Cargo.toml" --out "$out"
objects=$ROOT/$dir/objects.json
count=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))))' "$objects")

# Go: the package in $1 built, vetted and gofmt-clean, with a program that decodes and
# encodes every object.
go_build() {
local pkg=$1 module api
module=$(sed -n 's/^module //p' "$pkg/go.mod")
api=$(cd "$pkg" && find api -name '*_types.go' -printf '%h\n' | sort -u)
[ "$(echo "$api" | wc -l)" = 1 ] || { echo "expected one API package, found: $api" >&2; exit 1; }
mkdir -p "$pkg/cmd/roundtrip"
{
  cat <<EOF
// The server's objects through the Go types: decoded refusing unknown fields, encoded back.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"

	api "$module/$api"
)

func typed(kind string) any {
	switch kind {
EOF
  python3 -c '
import json, sys
for kind in sorted({o["kind"] for o in json.load(open(sys.argv[1]))}):
    print("\tcase \"%s\":\n\t\treturn &api.%s{}" % (kind, kind))
' "$objects"
  cat <<'EOF'
	}
	return nil
}

// The object without what ObjectMeta and TypeMeta write of their own.
func body(raw []byte) map[string]any {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		panic(err)
	}
	delete(m, "metadata")
	return m
}

func main() {
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	var objects []struct {
		Module string          `json:"module"`
		Kind   string          `json:"kind"`
		Object json.RawMessage `json:"object"`
	}
	if err := json.Unmarshal(data, &objects); err != nil {
		panic(err)
	}
	agree := 0
	for _, o := range objects {
		t := typed(o.Kind)
		dec := json.NewDecoder(bytes.NewReader(o.Object))
		dec.DisallowUnknownFields()
		if err := dec.Decode(t); err != nil {
			fmt.Printf("go: %s (%s.rs): the server admitted it, the Go type refuses it: %v\n  %s\n", o.Kind, o.Module, err, o.Object)
			continue
		}
		back, err := json.Marshal(t)
		if err != nil {
			fmt.Printf("go: %s (%s.rs): does not encode: %v\n", o.Kind, o.Module, err)
			continue
		}
		if want, got := body(o.Object), body(back); !reflect.DeepEqual(want, got) {
			fmt.Printf("go: %s (%s.rs): comes back changed\n  server: %s\n  go:     %s\n", o.Kind, o.Module, o.Object, back)
			continue
		}
		agree++
	}
	fmt.Printf("go: %d/%d objects agree\n", agree, len(objects))
	if agree != len(objects) {
		os.Exit(1)
	}
}
EOF
} > "$pkg/cmd/roundtrip/main.go"
(cd "$pkg" && go mod tidy && go build ./... && go vet ./... && gofmt -l . >&2 && test -z "$(gofmt -l .)") \
  || { echo "the generated kinds' Go package does not build, vet or gofmt clean (seed $seed: $pkg)" >&2; exit 1; }
}
go_build "$out/go"
(cd "$out/go" && go run ./cmd/roundtrip "$objects") | tee "$out/go.log" || true
# Again with k8s.io/api's types for Kubernetes' own (`go-kubernetes-types = "upstream"`, the
# opt-in for client-go interop, which docs/clients.md documents as lossy there): its count is
# printed, not gated — what it shares with the default form is gated there, and what it
# loses is k8s.io/api's contract (omitempty, resource.Quantity's canonical form).
CARGO_TARGET_DIR=$ROOT/target "$cli" clients --manifest-path "$dir/Cargo.toml" --lang go \
  --go-kubernetes-types upstream --out "$out/go-upstream"
go_build "$out/go-upstream"
(cd "$out/go-upstream" && go run ./cmd/roundtrip "$objects") | sed 's/^go:/go-upstream:/' | tee "$out/go-upstream.log" || true

# TypeScript: the package with the zoo's node_modules, and every object as a typed literal.
ln -s "$node_modules" "$out/typescript/node_modules"
python3 - "$objects" "$out/typescript/src" <<'EOF'
import json, os, sys
objects = json.load(open(sys.argv[1]))
src = sys.argv[2]
(gv,) = [d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d))]
(version,) = os.listdir(os.path.join(src, gv))
lines = ["// The server's objects, each a literal of its kind's interface: tsc --strict refuses", "// a field the interface lacks and a value of another type.",
         f'import type * as api from "./{gv}/{version}/index.js";', ""]
for i, o in enumerate(objects):
    lines.append(f"export const o{i}: api.{o['kind']} = {json.dumps(o['object'], indent=2)};")
open(os.path.join(src, "objects.ts"), "w").write("\n".join(lines) + "\n")
EOF
(cd "$out/typescript" && npx tsc --strict --noEmit > tsc.log 2>&1) || true
# Each error in objects.ts is the object whose literal holds the line; any other error is the
# package's own.
if grep -v '^src/objects.ts' "$out/typescript/tsc.log" | grep -q 'error TS'; then
  cat "$out/typescript/tsc.log" >&2
  echo "the generated kinds' TypeScript package does not type-check (seed $seed: $out/typescript)" >&2
  exit 1
fi
python3 - "$out/typescript" "$count" <<'EOF' | tee "$out/typescript.log"
import re, sys
out, count = sys.argv[1], int(sys.argv[2])
starts = [(n, m.group(1)) for n, line in enumerate(open(f"{out}/src/objects.ts"), 1)
          if (m := re.match(r"export const o\d+: api\.(\w+) =", line))]
refused = {}
for line in open(f"{out}/tsc.log"):
    if m := re.match(r"src/objects\.ts\((\d+),\d+\): (error TS\d+: .*)", line):
        kind = [k for n, k in starts if n <= int(m.group(1))][-1]
        refused.setdefault(kind, m.group(2))
for kind, error in sorted(refused.items()):
    print(f"typescript: {kind}: the server admitted it, the interface refuses it: {error}")
print(f"typescript: {count - len(refused)}/{count} objects agree (tsc --strict)")
EOF


# Python: mypy, then every object through its pydantic model and back as the client sends it.
(cd "$out/python" && "$venv/bin/mypy" --strict --config-file pyproject.toml .) \
  || { echo "the generated kinds' Python package does not pass mypy --strict (seed $seed: $out/python)" >&2; exit 1; }
(
  cd "$out/python"
  "$venv/bin/python" - "$objects" <<'EOF'
import importlib, json, pkgutil, sys
import controller_api
from controller_api._runtime import wire
(package,) = [m.name for m in pkgutil.iter_modules(controller_api.__path__) if not m.name.startswith("_")]
models = importlib.import_module(f"controller_api.{package}.models")
objects = json.load(open(sys.argv[1]))
agree = 0
for o in objects:
    model = getattr(models, o["kind"])
    try:
        back = wire(model.model_validate(o["object"]))
    except Exception as e:
        print(f"python: {o['kind']} ({o['module']}.rs): the server admitted it, the model refuses it: {e}\n  {json.dumps(o['object'])}")
        continue
    want = {k: v for k, v in o["object"].items() if k != "metadata"}
    got = {k: v for k, v in back.items() if k != "metadata"}
    if want != got:
        print(f"python: {o['kind']} ({o['module']}.rs): comes back changed\n  server: {json.dumps(want)}\n  python: {json.dumps(got)}")
        continue
    agree += 1
print(f"python: {agree}/{len(objects)} objects agree")
sys.exit(0 if agree == len(objects) else 1)
EOF
) | tee "$out/python.log" || true

for lang in go go-upstream typescript python; do
  grep -q "objects agree" "$out/$lang.log" || { echo "the $lang round trip did not run to its end (seed $seed: $out)" >&2; exit 1; }
done
# Every finding, against the known ones of this seed (tests/clients/generated-known.txt):
# a new one fails, and so does a known one that no longer occurs (the list only shrinks).
findings=$(cat "$out/go.log" "$out/typescript.log" "$out/python.log" \
  | sed -n 's/^\(go\|typescript\|python\): \(Gen[0-9]*\)[ :(].*\(refuses it\|comes back changed\).*/\1 \2 \3/p' \
  | sed 's/refuses it$/refused/; s/comes back changed$/changed/' | sort -u)
known=$(sed -n "s/^$seed \([a-z-]* Gen[0-9]* [a-z]*\) .*/\1/p" tests/clients/generated-known.txt | sort -u)
new=$(comm -23 <(echo "$findings" | sed '/^$/d') <(echo "$known" | sed '/^$/d'))
gone=$(comm -13 <(echo "$findings" | sed '/^$/d') <(echo "$known" | sed '/^$/d'))
printf 'generated clients (seed %s): %s finding(s), %s known (tests/clients/generated-known.txt)\n' \
  "$seed" "$(echo "$findings" | sed '/^$/d' | wc -l)" "$(echo "$known" | sed '/^$/d' | wc -l)"
if [ -n "$new" ] || [ -n "$gone" ]; then
  [ -z "$new" ] || printf 'new: a client refuses, drops or changes what the server admitted:\n%s\n' "$new" >&2
  [ -z "$gone" ] || printf 'fixed: no longer found, remove from tests/clients/generated-known.txt:\n%s\n' "$gone" >&2
  echo "the packages: $out" >&2
  exit 1
fi
