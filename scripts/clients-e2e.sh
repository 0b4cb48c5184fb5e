#!/usr/bin/env bash
# The generated clients against a real API server (KUBECONFIG, with the zoo's CRDs
# installed, as scripts/e2e.sh leaves it): each language's package for the test zoo is
# generated under target/clients-e2e/, built and type-checked together
# with a test module that uses it (tsc --strict, mypy --strict), and the test runs every
# verb against the server. npm and pip packages install under target/clients-e2e.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${KUBECONFIG:?KUBECONFIG must name the e2e server}"
out=target/clients-e2e
ROOT_VENV=$PWD/$out/venv

# The committed package (the examples' kinds) type-checks as it is.
rm -rf "$out/examples-typescript" && mkdir -p "$out" && cp -r clients/typescript "$out/examples-typescript"
# The README's TypeScript example, compiled with it and run against the server.
scripts/readme-blocks.py ts | sed 's#from "kubegen-api"#from "./index.js"#' > "$out/examples-typescript/src/readme.ts"
(
  cd "$out/examples-typescript"
  npm install --no-audit --no-fund --loglevel=error
  npx tsc --strict
  test "$(node dist/readme.js)" = 2
)

rm -rf "$out/typescript/src" "$out/typescript/dist"
cargo run -q -p codegen-cli -- clients --lang typescript -p kubegen-tests --out "$out/typescript"
cp tests/clients/typescript.e2e.ts "$out/typescript/src/e2e.test.ts"
# The agreement test's values inside every constraint, typed: tsc below must take them all.
KUBEGEN_TS_SRC=$PWD/$out/typescript/src cargo test -q -p kubegen-tests --test agreement -- --ignored --exact typescript_takes_every_value_inside
(
  cd "$out/typescript"
  npm install --no-audit --no-fund --loglevel=error
  npx tsc --strict
  node dist/e2e.test.js
)

# Python: a virtualenv with the client's dependencies and mypy.
venv=$out/venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "pydantic>=2.7" "kubernetes>=37" "mypy>=1.10" "pytest>=8"
rm -rf "$out/examples-python" && cp -r clients/python "$out/examples-python"
scripts/readme-blocks.py python > "$out/examples-python/readme.py"
(
  cd "$out/examples-python"
  "$ROOT_VENV/bin/mypy" --strict --config-file pyproject.toml --exclude readme.py .
  # The README's example: strict but for kubernetes.config, which has no annotations.
  "$ROOT_VENV/bin/mypy" --strict --allow-untyped-calls --no-warn-unused-ignores --config-file pyproject.toml readme.py
  test "$("$ROOT_VENV/bin/python" readme.py)" = 2
)
# The Python model's verdicts on the agreement test's values, as Validate's.
KUBEGEN_PYTHON=$ROOT_VENV/bin/python cargo test -q -p kubegen-tests --test agreement -- --ignored --exact python_agrees_with_validate
rm -rf "$out/python"
cargo run -q -p codegen-cli -- clients --lang python -p kubegen-tests --out "$out/python"
cp tests/clients/python_e2e.py "$out/python/test_client.py"
(
  cd "$out/python"
  "$ROOT_VENV/bin/mypy" --strict --config-file pyproject.toml .
  "$ROOT_VENV/bin/python" -m pytest -q -p no:cacheprovider test_client.py
)
