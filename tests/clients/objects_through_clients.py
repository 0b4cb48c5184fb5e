"""The differential objects tier's cases through the zoo's generated clients (issue 28).

Reads the cases tests/tests/e2e/generated_objects.rs wrote (each drawn object and each
mutation that breaks one constraint, with the API server's verdict and what it stored) and
asks each client the same question:

- Python: the kind's pydantic model validates the object (refused: a ValidationError whose
  `loc` is the field path) and dumps it back as the client sends it;
- TypeScript: the object as a literal of the kind's interface under `tsc --strict` (refused:
  an error on a line of the literal, mapped back to its field path);
- Go: the object decoded into the kind's type refusing unknown fields (refused: the
  decoder's error, which names the field path), and encoded back.

Each client must take every object the server admitted and give it back as the server
stored it. Of the objects the server refused, a client refuses those of the constraint
families its types express (below), naming the same field path, and takes the others (its
verbs send them and the server's refusal comes back). Then every admitted object goes
through the Python client's verbs against the server (create, get) and must come back as
the server stored it, and the same through the TypeScript client (Go's package is types
for controller-runtime's client: its round trip is the decode and encode above). Prints
`N/M agree` per client and family.

    python objects_through_clients.py CASES WORKDIR
"""

from __future__ import annotations

import importlib
import json
import os
import re
import subprocess
import sys
from collections import defaultdict
from typing import Any

# The families of mutation each client's types refuse; the rest are the server's to refuse.
REFUSES = {
    # pydantic: types, required fields, enums (Literal), bounds, lengths, patterns, formats,
    # item and property counts (the agreement matrix's rows, tests/tests/agreement.rs).
    "python": {"type", "required", "enum", "bounds (maximum)", "bounds (minimum)", "multipleOf", "maxLength",
               "minLength", "pattern", "format", "maxItems", "minItems", "maxProperties", "minProperties"},
    # tsc: types, required properties, string-literal enums.
    "typescript": {"type", "required", "enum"},
    # encoding/json: types.
    "go": {"type"},
    # The Go package with k8s.io/api's types (`go-kubernetes-types = "upstream"`).
    "go-upstream": {"type"},
}


def shown(loc: list[Any]) -> str:
    out = ""
    for step in loc:
        if isinstance(step, int):
            out += f"[{step}]"
        else:
            out += ("." if out else "") + str(step)
    return out


def names(found: str, path: str) -> bool:
    """Whether a client's field path names the case's (or a field inside it)."""
    return found == path or found.startswith(path + ".") or found.startswith(path + "[")


def go_names(found: str, path: str, keys: set[int] = frozenset()) -> bool:
    """Go's decoder names a map's field for an entry of the map (no key, no index), and a
    field inside a map's value without the key (`spec.pens.capacity` for
    `spec.pens.l.capacity`): `keys` are the segments of `path` that are map keys."""
    if names(found, path) or (bool(found) and path.startswith(found + ".")):
        return True
    parts = path.split(".")
    without_keys = ".".join(p for i, p in enumerate(parts) if i not in keys)
    return bool(keys) and names(found, without_keys)


def unwrap(t: Any) -> Any:
    """`t` without `Annotated`, `Optional` and `list` around it (a union of several stays)."""
    import typing

    while True:
        origin, args = typing.get_origin(t), typing.get_args(t)
        if origin is typing.Annotated:
            t = args[0]
        elif origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
            rest = [a for a in args if a is not type(None)]
            if len(rest) != 1:
                return t
            t = rest[0]
        elif origin is list:
            t = args[0]
        else:
            return t


def map_keys(model: Any, path: str) -> set[int]:
    """The segments of `path` (without list indices) that are keys of a map in `model`."""
    import typing

    import pydantic

    keys: set[int] = set()
    t: Any = model
    for i, key in enumerate(path.split(".")):
        t = unwrap(t)
        if typing.get_origin(t) is dict:
            keys.add(i)
            t = typing.get_args(t)[1]
        elif isinstance(t, type) and issubclass(t, pydantic.BaseModel):
            fields = [f for n, f in t.model_fields.items() if n == key or f.alias == key]
            if not fields:
                return keys
            t = fields[0].annotation
        else:
            return keys
    return keys


def differences(a: Any, b: Any, path: str = "") -> list[str]:
    """The field paths where `b` differs from `a`."""
    if isinstance(a, dict) and isinstance(b, dict):
        out: list[str] = []
        for k in sorted(set(a) | set(b)):
            here = f"{path}.{k}" if path else k
            out += [here] if (k in a) != (k in b) else differences(a[k], b[k], here)
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [p for i, (x, y) in enumerate(zip(a, b)) for p in differences(x, y, f"{path}[{i}]")]
    return [] if a == b else [path]


def known_class(lang: str, case: dict[str, Any], paths: list[str], error: str) -> str | None:
    """The open defect class a finding belongs to (tests/clients/objects-known.txt), if any."""
    # The package that declares Kubernetes' types (Go's default) keeps what the server keeps
    # there too: no class is open for it.
    if lang == "go":
        return None
    if lang == "go-upstream" and re.search(r"cannot unmarshal number -?\d+ into Go struct field \S+ of type int32", error):
        return "int32"
    # k8s.io/apimachinery's resource.Quantity refuses some strings the CRD's pattern takes.
    if lang == "go-upstream" and ("quantities must match the regular expression" in error or "(out of reach)" in error):
        return "kubernetes-types"
    model = python_model(case)
    if paths and all(in_kubernetes_type(model, p) for p in paths):
        return "kubernetes-types"
    return None


def without_indices(path: str) -> str:
    return re.sub(r"\[\d+\]", "", path)


def body(o: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in o.items() if k not in ("metadata",)}


# --- Python ---------------------------------------------------------------------------

def python_decisions(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    import pydantic
    from kubegen_api._runtime import wire

    out = []
    for case in cases:
        models = importlib.import_module(f"kubegen_api.zoo_{case['version']}.models")
        model = getattr(models, case["kind"])
        try:
            back = wire(model.model_validate(case["object"]))
            out.append({"refused": False, "back": back})
        except pydantic.ValidationError as e:
            paths = [shown([s for s in err["loc"] if isinstance(s, (int, str))]) for err in e.errors()]
            out.append({"refused": True, "paths": paths, "error": str(e).splitlines()[0:3]})
    return out


def python_model(case: dict[str, Any]) -> Any:
    return getattr(importlib.import_module(f"kubegen_api.zoo_{case['version']}.models"), case["kind"])


def in_kubernetes_type(model: Any, path: str) -> bool:
    """Whether `path` in `model` runs through one of Kubernetes' own types — the classes
    the package declares for them (`V1PodSpec`, ...), or the kubernetes client's: where
    Go's package uses k8s.io/api's."""
    import typing

    import pydantic

    def is_k8s(t: Any) -> bool:
        if not isinstance(t, type):
            return False
        declared = t.__module__.startswith("kubegen_api.") and re.match(r"V\d+((alpha|beta)\d+)?[A-Z]", t.__name__)
        return t.__module__.startswith("kubernetes.client") or bool(declared)

    t: Any = model
    for key in re.sub(r"\[\d+\]", "", path).split("."):
        t = unwrap(t)
        if is_k8s(t):
            return True
        if isinstance(t, type) and issubclass(t, pydantic.BaseModel):
            fields = [f for n, f in t.model_fields.items() if n == key or f.alias == key]
            if not fields:
                return False
            t = fields[0].annotation
        elif typing.get_origin(t) is dict:
            t = typing.get_args(t)[1]
        else:
            return False
    return is_k8s(unwrap(t))


# --- TypeScript -----------------------------------------------------------------------

def literal(value: Any, path: list[Any], indent: int, lines: list[tuple[str, str]], lead: str, trail: str) -> None:
    """`value` as TypeScript source lines, each with the field path it is on."""
    pad = "  " * indent
    here = shown(path)
    if isinstance(value, dict) and value:
        lines.append((f"{pad}{lead}{{", here))
        items = list(value.items())
        for i, (k, v) in enumerate(items):
            literal(v, path + [k], indent + 1, lines, f"{json.dumps(k)}: ", "," if i + 1 < len(items) else "")
        lines.append((f"{pad}}}{trail}", here))
    elif isinstance(value, list) and value:
        lines.append((f"{pad}{lead}[", here))
        for i, v in enumerate(value):
            literal(v, path + [i], indent + 1, lines, "", "," if i + 1 < len(value) else "")
        lines.append((f"{pad}]{trail}", here))
    else:
        lines.append((f"{pad}{lead}{json.dumps(value)}{trail}", here))


def typescript_decisions(cases: list[dict[str, Any]], work: str) -> list[dict[str, Any]]:
    src = os.path.join(work, "typescript", "src")
    lines: list[tuple[str, str]] = [
        ("// The differential objects tier's cases, each a literal of its kind's interface.", ""),
    ] + [(f'import type * as {v} from "./zoo.kubegen.dev/{v}/index.js";', "") for v in sorted({c["version"] for c in cases})]
    owner: list[int] = [-1] * len(lines)
    for i, case in enumerate(cases):
        start = len(lines)
        literal(case["object"], [], 0, lines, f"export const c{i}: {case['version']}.{case['kind']} = ", ";")
        owner.extend([i] * (len(lines) - start))
    with open(os.path.join(src, "cases.ts"), "w") as f:
        f.write("\n".join(text for text, _ in lines) + "\n")
    run = subprocess.run(["npx", "tsc", "--strict", "--noEmit"], cwd=os.path.join(work, "typescript"),
                         capture_output=True, text=True)
    errors: dict[int, list[tuple[str, str]]] = defaultdict(list)
    for line in run.stdout.splitlines():
        m = re.match(r"src/cases\.ts\((\d+),\d+\): (error TS\d+: .*)", line)
        if m:
            n = int(m.group(1)) - 1
            errors[owner[n]].append((lines[n][1], m.group(2)))
        elif "error TS" in line:
            sys.exit(f"the zoo's TypeScript package does not type-check: {line}")
    out = []
    for i, _ in enumerate(cases):
        if i in errors:
            out.append({"refused": True, "paths": [p for p, _ in errors[i]], "error": [e for _, e in errors[i]]})
        else:
            out.append({"refused": False, "back": None})
    return out


# --- Go -------------------------------------------------------------------------------

GO_MAIN = """// The differential objects tier's cases through the zoo's Go types: decoded refusing
// unknown fields, encoded back; one JSON line per case.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

%s
)

func typed(version, kind string) any {
	switch version + "/" + kind {
%s
	}
	return nil
}

func main() {
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	var cases []struct {
		Version string          `json:"version"`
		Kind    string          `json:"kind"`
		Object  json.RawMessage `json:"object"`
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		panic(err)
	}
	out := json.NewEncoder(os.Stdout)
	for _, c := range cases {
		t := typed(c.Version, c.Kind)
		if t == nil {
			panic(fmt.Sprintf("no Go type for %%s %%s", c.Version, c.Kind))
		}
		dec := json.NewDecoder(bytes.NewReader(c.Object))
		dec.DisallowUnknownFields()
		if err := dec.Decode(t); err != nil {
			_ = out.Encode(map[string]any{"refused": true, "error": err.Error()})
			continue
		}
		back, err := json.Marshal(t)
		if err != nil {
			_ = out.Encode(map[string]any{"refused": true, "error": "encoding: " + err.Error()})
			continue
		}
		_ = out.Encode(map[string]any{"refused": false, "back": json.RawMessage(back)})
	}
}
"""


# k8s.io/apimachinery's resource.ParseQuantity rounds through 10^exponent: a quantity with an
# exponent of four digits or more, which the CRD's pattern admits, takes it minutes and
# gigabytes (found by the long variant, seed 11: `1e-1341260844`). The package's own
# Quantity keeps such a value as read (tests/clients/go_quantity_test.go); k8s.io/api's types
# cannot, so the upstream form does not run a case with one inside them.
OUT_OF_REACH = re.compile(r"[eE][+-]?0*[0-9]{4,}(\.[0-9]*)?$")


def out_of_reach(value: Any, path: str = "") -> tuple[str, str] | None:
    """The first string in `value` with an exponent out of resource.Quantity's reach."""
    if isinstance(value, dict):
        items = ((f"{path}.{k}" if path else k, v) for k, v in value.items())
    elif isinstance(value, list):
        items = ((f"{path}[{i}]", v) for i, v in enumerate(value))
    else:
        return (path, value) if isinstance(value, str) and OUT_OF_REACH.search(value) else None
    for p, v in items:
        if (found := out_of_reach(v, p)) is not None:
            return found
    return None


def go_decisions(cases: list[dict[str, Any]], cases_file: str, work: str, pkg: str = "go") -> list[dict[str, Any]]:
    not_run: dict[int, dict[str, Any]] = {}
    if pkg == "go-upstream":
        for i, c in enumerate(cases):
            found = out_of_reach(c["object"])
            if found and in_kubernetes_type(python_model(c), found[0]):
                not_run[i] = {"refused": True, "paths": [without_indices(found[0])],
                              "error": [f"not run: resource.ParseQuantity does not return on {found[1]!r} (out of reach)"]}
        if not_run:
            cases = [c for i, c in enumerate(cases) if i not in not_run]
            cases_file = os.path.join(work, pkg, "cases.json")
            with open(cases_file, "w") as f:
                json.dump(cases, f)
    kinds = sorted({(c["version"], c["kind"]) for c in cases})
    switch = "\n".join(f'\tcase "{v}/{k}":\n\t\treturn &{v}.{k}{{}}' for v, k in kinds)
    main = os.path.join(work, pkg, "cmd", "cases")
    os.makedirs(main, exist_ok=True)
    with open(os.path.join(main, "main.go"), "w") as f:
        imports = "\n".join(f'\t{v} "github.com/kubegen/kubegen/clients/go/api/{v}"' for v in sorted({v for v, _ in kinds}))
        f.write(GO_MAIN % (imports, switch))
    run = subprocess.run(["go", "run", "./cmd/cases", cases_file], cwd=os.path.join(work, pkg),
                         capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"the Go program over the cases failed:\n{run.stderr}")
    out = []
    for line in run.stdout.splitlines():
        r = json.loads(line)
        if r["refused"]:
            # "json: cannot unmarshal string into Go struct field Fleet.spec.ports.port of type int32"
            m = re.search(r"Go struct field \w+\.(\S+) of type", r["error"])
            r["paths"] = [m.group(1)] if m else []
            r["error"] = [r["error"]]
        out.append(r)
    for i in sorted(not_run):
        out.insert(i, not_run[i])
    return out


# --- the verbs ------------------------------------------------------------------------

def python_verbs(cases: list[dict[str, Any]]) -> list[str]:
    """Every admitted object created and read back through the Python client."""
    from kubernetes import client as k8s
    from kubernetes import config

    from kubegen_api import KubeApiError
    from kubegen_api._runtime import wire

    config.load_kube_config(config_file=os.environ["KUBECONFIG"])  # type: ignore[no-untyped-call]
    namespace = f"objects-clients-{os.getpid()}"
    core = k8s.CoreV1Api()
    core.create_namespace(k8s.V1Namespace(metadata=k8s.V1ObjectMeta(name=namespace)))
    wrong = []
    created = 0
    refused = 0
    try:
        for i, case in enumerate(c for c in cases if c["admitted"]):
            module = importlib.import_module(f"kubegen_api.zoo_{case['version']}")
            models = importlib.import_module(f"kubegen_api.zoo_{case['version']}.models")
            model = getattr(models, case["kind"])
            client = getattr(module, f"{case['kind']}Client")()
            obj = dict(case["object"])
            name = f"c{i}"
            obj["metadata"] = {"name": name}
            try:
                sent = model.model_validate(obj)
            except Exception:  # the model's refusal is a finding of the decisions above
                refused += 1
                continue
            scope = [namespace] if case["namespaced"] else []
            try:
                client.create(*scope, sent)
                back = wire(client.get(*scope, name))
            except KubeApiError as e:
                wrong.append(f"python verbs: {case['version']} {case['kind']} ({case['family']}): the server refused "
                             f"through the client what it admitted directly: {e.message}\n  {json.dumps(obj)}")
                continue
            finally:
                try:
                    client.delete(*scope, name)
                except KubeApiError:
                    pass
            created += 1
            if body(back) | {"apiVersion": None} != body(case["stored"]) | {"apiVersion": None}:
                wrong.append(f"python verbs: {case['version']} {case['kind']} ({case['family']}): comes back changed\n"
                             f"  stored: {json.dumps(body(case['stored']))}\n  client: {json.dumps(body(back))}")
    finally:
        core.delete_namespace(namespace)
    admitted = len([c for c in cases if c["admitted"]])
    print(f"python verbs: {created - len([w for w in wrong if 'changed' in w])}/{admitted - refused} admitted objects "
          f"the model takes created and read back through the client as the server stored them ({refused} it refuses, above)")
    return wrong


TS_VERBS = """// The admitted cases through the TypeScript client's create and get (one JSON line each).
import { readFileSync } from "node:fs";
import { CoreV1Api, KubeConfig } from "@kubernetes/client-node";
%s

const kc = new KubeConfig();
kc.loadFromFile(process.env.KUBECONFIG ?? "");
const namespace = `objects-ts-${process.pid}`;
const core = kc.makeApiClient(CoreV1Api);
await core.createNamespace({ body: { metadata: { name: namespace } } });
const cases = JSON.parse(readFileSync(process.argv[2] ?? "", "utf8")) as { version: string; kind: string; namespaced: boolean; object: Record<string, unknown> }[];
// The clients by version and kind; each create/get takes the kind's type, which the
// decisions above judged: here the objects go over the wire as they are.
type Verbs = { create(...a: unknown[]): Promise<unknown>; get(...a: unknown[]): Promise<unknown>; delete(...a: unknown[]): Promise<unknown> };
const clients: Record<string, Verbs> = {
%s
};
try {
  for (const [i, c] of cases.entries()) {
    const client = clients[`${c.version}/${c.kind}`];
    const name = `t${i}`;
    const body = { ...c.object, metadata: { name } };
    const scope = c.namespaced ? [namespace] : [];
    try {
      await client.create(...scope, body);
      const back = await client.get(...scope, name);
      console.log(JSON.stringify({ i, back }));
    } catch (e) {
      console.log(JSON.stringify({ i, error: String((e as Error).message ?? e) }));
    } finally {
      await client.delete(...scope, name).catch(() => undefined);
    }
  }
} finally {
  await core.deleteNamespace({ name: namespace });
}
"""


def typescript_verbs(cases: list[dict[str, Any]], work: str) -> list[str]:
    """Every admitted object created and read back through the TypeScript client."""
    admitted = [c for c in cases if c["admitted"]]
    versions = sorted({c["version"] for c in admitted})
    kinds = sorted({(c["version"], c["kind"]) for c in admitted})
    imports = "\n".join(f'import * as {v} from "./zoo.kubegen.dev/{v}/index.js";' for v in versions)
    table = "\n".join(f'  "{v}/{k}": new {v}.{k}Client(kc) as unknown as Verbs,' for v, k in kinds)
    ts = os.path.join(work, "typescript")
    os.remove(os.path.join(ts, "src", "cases.ts"))
    with open(os.path.join(ts, "src", "verbs.ts"), "w") as f:
        f.write(TS_VERBS % (imports, table))
    with open(os.path.join(work, "admitted.json"), "w") as f:
        json.dump(admitted, f)
    build = subprocess.run(["npx", "tsc", "--strict"], cwd=ts, capture_output=True, text=True)
    if build.returncode != 0:
        sys.exit(f"the TypeScript verbs program does not compile:\n{build.stdout}{build.stderr}")
    run = subprocess.run(["node", "dist/verbs.js", os.path.join(work, "admitted.json")], cwd=ts, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"the TypeScript verbs program failed:\n{run.stderr}")
    wrong = []
    agree = 0
    for line in run.stdout.splitlines():
        r = json.loads(line)
        case = admitted[r["i"]]
        where = f"typescript verbs: {case['version']} {case['kind']} ({case['family']})"
        if "error" in r:
            wrong.append(f"{where}: the server refused through the client what it admitted directly: {r['error']}")
        elif body(r["back"]) | {"apiVersion": None} != body(case["stored"]) | {"apiVersion": None}:
            wrong.append(f"{where}: comes back changed\n  stored: {json.dumps(body(case['stored']))}\n"
                         f"  client: {json.dumps(body(r['back']))}")
        else:
            agree += 1
    print(f"typescript verbs: {agree}/{len(admitted)} admitted objects created and read back through the client "
          "as the server stored them")
    return wrong


def main() -> None:
    cases_file, work = sys.argv[1], sys.argv[2]
    cases = json.load(open(cases_file))
    # A kind whose schema is left to the server (`schema = "disabled"`) has no typed client.
    untyped = sorted({(c["version"], c["kind"]) for c in cases
                      if not hasattr(importlib.import_module(f"kubegen_api.zoo_{c['version']}.models"), c["kind"])})
    for version, kind in untyped:
        print(f"{version} {kind}: no typed client (its schema is the server's), its cases are not sent to the clients")
    cases = [c for c in cases if (c["version"], c["kind"]) not in untyped]
    # Each case as sent (the decision), and each admitted one as the server stored it (what
    # a client reads, which must come back unchanged).
    inputs = [{"version": c["version"], "kind": c["kind"], "object": c["object"]} for c in cases]
    stored = [(i, c) for i, c in enumerate(cases) if c["admitted"]]
    inputs += [{"version": c["version"], "kind": c["kind"], "object": c["stored"]} for _, c in stored]
    inputs_file = os.path.join(work, "inputs.json")
    with open(inputs_file, "w") as f:
        json.dump(inputs, f)
    decisions = {
        "python": python_decisions(inputs),
        "typescript": typescript_decisions(inputs, work),
        "go": go_decisions(inputs, inputs_file, work),
    }
    if os.path.isdir(os.path.join(work, "go-upstream")):
        decisions["go-upstream"] = go_decisions(inputs, inputs_file, work, "go-upstream")
    wrong: list[str] = []
    found_classes: dict[tuple[str, str], int] = defaultdict(int)
    unnamed: dict[str, int] = defaultdict(int)
    # Each mutation was made from the drawn object before it (which the server admitted).
    base: list[int] = []
    for i, c in enumerate(cases):
        base.append(i if c["family"] == "drawn object" else base[-1] if base else i)
    for lang, results in decisions.items():
        tally: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        read_back = dict(zip((i for i, _ in stored), results[len(cases):]))
        # Drawn objects the server admitted and this client does not take as stored: one
        # finding each, and their mutations are not judged (they fail for the same reason).
        broken: set[int] = set()
        for i, (case, r) in enumerate(zip(cases, results)):
            family, path = case["family"], case["path"] or ""
            if base[i] in broken and i != base[i]:
                continue
            t = tally[family]
            t[1] += 1
            where = f"{lang}: {case['version']} {case['kind']} {family} at {path or '-'}"
            found = [without_indices(p) if lang.startswith("go") else p for p in r.get("paths", [])]
            want = without_indices(path) if lang.startswith("go") else path
            if lang.startswith("go"):
                keys = map_keys(python_model(case), want)
                match = lambda f, p, keys=keys: go_names(f, p, keys)  # noqa: E731
            else:
                match = names
            if case["admitted"]:
                back = read_back[i]
                finding = None
                if r["refused"]:
                    finding = f"refused: the server admitted it, the client refuses it: {r['error']}\n  {json.dumps(case['object'])}"
                elif back["refused"]:
                    finding = f"refused: the client refuses the object as the server stored it: {back['error']}"
                elif back.get("back") is not None and body(back["back"]) != body(case["stored"]):
                    finding = (f"changed: the stored object comes back changed\n  server: {json.dumps(body(case['stored']))}\n"
                               f"  client: {json.dumps(body(back['back']))}")
                if finding:
                    broken.add(i)
                    if r["refused"] or back["refused"]:
                        refusal = r if r["refused"] else back
                        paths, error = refusal.get("paths", []), " ".join(refusal["error"])
                    else:
                        paths, error = differences(body(case["stored"]), body(back["back"])), ""
                    cls = known_class(lang, case, [p for p in paths if p], error)
                    if cls:
                        found_classes[(lang, cls)] += 1
                    else:
                        wrong.append(f"{where}: {finding}")
                    continue
            elif not path:
                # A drawn object the server refused (its message names the fields): a client
                # takes it (its verbs send it, the server refuses) or refuses a field the
                # server named.
                if r["refused"] and not any(p and p in (case["server"] or "") for p in found):
                    cls = known_class(lang, case, [p for p in r.get("paths", []) if p], " ".join(r["error"]))
                    if cls:
                        found_classes[(lang, cls)] += 1
                        continue
                    wrong.append(f"{where}: refused at a field the server did not name: {found} ({r['error']}); server: {case['server']}")
                    continue
            elif lang.startswith("go") and r["refused"] and not found:
                # A custom unmarshaler's error (resource.Quantity, metav1.Time) names no
                # field: the server refused too, so the decision agrees.
                unnamed[lang] += 1
            elif family in REFUSES[lang]:
                if not r["refused"]:
                    wrong.append(f"{where}: the server refused it ({case['server']}), the client takes it")
                    continue
                if not any(match(p, want) for p in found):
                    wrong.append(f"{where}: refused at another field path: {found} ({r['error']})")
                    continue
            elif r["refused"] and not any(match(p, want) for p in found):
                # Stricter than its types promise: the server's decision still, at its path.
                wrong.append(f"{where}: refused at another field path: {found} ({r['error']})")
                continue
            t[0] += 1
        for family, (agree, total) in sorted(tally.items()):
            print(f"  {lang} {family}: {agree}/{total} agree")
        agree = sum(a for a, _ in tally.values())
        skipped = sum(1 for i in range(len(cases)) if base[i] in broken and i != base[i])
        known = sum(n for (l, _), n in found_classes.items() if l == lang)
        print(f"{lang}: {agree}/{len(cases) - skipped} cases agree with the server (decision and field path), "
              f"{known} in open defect classes (below); "
              f"{skipped} mutations of {len(broken)} drawn objects it does not take not judged"
              + (f"; {unnamed[lang]} refusals name no field (a custom unmarshaler's)" if unnamed[lang] else ""))
    # The open defect classes, against the list: a class not listed fails, and so does a
    # listed one that no longer occurs (the list only shrinks).
    seed = os.environ.get("KUBEGEN_SEED", "")
    listed = set()
    for line in open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "objects-known.txt")):
        parts = line.split()
        if parts and not line.startswith("#") and parts[0] == seed:
            listed.add((parts[1], parts[2]))
    for (lang, cls), n in sorted(found_classes.items()):
        print(f"known ({lang} {cls}, tests/clients/objects-known.txt): {n} drawn objects")
    for lang, cls in sorted(set(found_classes) - listed):
        wrong.append(f"{lang}: findings of class {cls}, not listed for seed {seed} in tests/clients/objects-known.txt")
    for lang, cls in sorted(listed - set(found_classes)):
        wrong.append(f"{lang}: class {cls} is listed for seed {seed} in tests/clients/objects-known.txt but no longer "
                     "found: fixed? remove its line")
    wrong += python_verbs(cases)
    wrong += typescript_verbs(cases, work)
    with open(os.path.join(work, "disagreements.txt"), "w") as f:
        f.write("\n".join(wrong) + "\n")
    for w in wrong[:60]:
        print(w, file=sys.stderr)
    if wrong:
        sys.exit(f"{len(wrong)} disagreements between the clients and the server")


if __name__ == "__main__":
    main()
