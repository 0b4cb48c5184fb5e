#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora (fuzz/corpus/<target>/) from real inputs in the
repository: markers from examples/ and tests/, CEL rules from tests/cel/corpus.yaml, CRDs
from config/crd/bases and tests/golden, settings from the workspace's manifests, reviews
as the API server sends them. Each seed is named by its SHA-1, as libFuzzer names inputs,
so a rerun adds nothing twice. Inputs a fuzzer found (crashes, regressions) sit beside
them under their own names and are never removed by this script.

    python3 fuzz/seeds.py        # from anywhere; needs PyYAML
"""

import glob
import hashlib
import json
import os
import re

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "fuzz", "corpus")
CAP = 300  # seeds per target, at most


def rel(*parts):
    return os.path.join(ROOT, *parts)


def sources(*patterns):
    out = []
    for p in patterns:
        out.extend(sorted(glob.glob(rel(p), recursive=True)))
    return [f for f in out if "/target/" not in f]


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def write(target, seeds):
    os.makedirs(os.path.join(CORPUS, target), exist_ok=True)
    seen = set()
    for text in seeds:
        data = text.encode("utf-8") if isinstance(text, str) else text
        if not data or data in seen or len(data) > 64 * 1024:
            continue
        if len(seen) == CAP:
            break
        seen.add(data)
        with open(os.path.join(CORPUS, target, hashlib.sha1(data).hexdigest()), "wb") as f:
            f.write(data)
    print(f"{target}: {len(seen)} seeds")


RUST = sources("examples/**/*.rs", "tests/src/**/*.rs", "tests/tests/**/*.rs", "tests/compile-fail/ui/**/*.rs", "tests/compile-fail/marker_examples/*.rs",
               "kubegen/src/**/*.rs", "cli/src/**/*.rs")


def doc_blocks():
    """Each run of `///` lines: one item's doc comment."""
    for f in RUST:
        block = []
        for line in read(f).splitlines() + [""]:
            s = line.strip()
            if s.startswith("///") and not s.startswith("////"):
                block.append(s[3:])
            else:
                if block and any("+" in b for b in block):
                    yield "\n".join(block)
                block = []


def balanced(text, start):
    """The text from `start` (a `#`) through the `]` that closes its `[`."""
    depth, quote, i = 0, None, start + 1
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = None
        elif c == '"':
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return text[start:i + 1]
        i += 1
    return None


def attributes(names):
    pattern = re.compile(r"#\[(?:kubegen::)?(?:%s)\(" % "|".join(names))
    for f in RUST:
        text = read(f)
        for m in pattern.finditer(text):
            attr = balanced(text, m.start())
            if attr:
                yield attr


def crd_files():
    return sources("config/crd/bases/*.yaml", "tests/golden/*.yaml")


def crd_docs():
    for f in crd_files():
        for doc in yaml.safe_load_all(read(f)):
            if doc:
                yield doc


def walk(node, visit):
    if isinstance(node, dict):
        visit(node)
        for v in node.values():
            walk(v, visit)
    elif isinstance(node, list):
        for v in node:
            walk(v, visit)


def json_paths():
    out = []
    for doc in crd_docs():
        for v in doc.get("spec", {}).get("versions", []):
            for c in v.get("additionalPrinterColumns", []):
                out.append(c["jsonPath"])
            for s in v.get("selectableFields", []):
                out.append(s["jsonPath"])
            scale = v.get("subresources", {}).get("scale", {})
            out.extend(p for k, p in scale.items() if k.endswith("Path"))

        def rule_paths(n):
            for r in n.get("x-kubernetes-validations", []) or []:
                if "fieldPath" in r:
                    out.append(r["fieldPath"])
        walk(doc, rule_paths)
    for f in RUST:
        out.extend(re.findall(r'json_path\s*=\s*"([^"]*)"', read(f)))
        out.extend(re.findall(r'JSONPath=`?"?([^",`]*)', read(f)))
    out += [".status.conditions[?(@.type==\"Ready\")].status", ".metadata.labels['app.kubernetes.io/name']",
            ".spec.ports[*].port", ".spec.hosts[0]", "['a.b'].c"]
    return out


def cel_rules():
    out = []
    for case in yaml.safe_load(read(rel("tests/cel/corpus.yaml"))):
        rule = case.get("rule")
        if isinstance(rule, str) and "\n" not in rule:
            out.append(rule + ("\n" + case["messageExpression"] if case.get("messageExpression") else ""))

    def rules(n):
        for r in n.get("x-kubernetes-validations", []) or []:
            if "\n" not in r.get("rule", "\n"):
                out.append(r["rule"] + ("\n" + r["messageExpression"] if "messageExpression" in r else ""))
    for doc in crd_docs():
        walk(doc, rules)
    out += ["self.name.matches('^[a-z]+$') && size(self.hosts) <= 8",
            "self.ports.all(p, p.port > 0)",
            "oldSelf.replicas <= self.replicas",
            "quantity(string(self.size)).isGreaterThan(quantity('1'))",
            "duration(self.timeout) < duration('1h')",
            "timestamp(self.created) < timestamp('2030-01-01T00:00:00Z')",
            "self.labels.exists(k, k.startsWith('a'))",
            "has(self.extra.k)\n'extra: ' + string(self.replicas)"]
    return out


def settings():
    out = []
    for f in [rel("Cargo.toml"), rel("tests/Cargo.toml"), rel("cli/Cargo.toml"),
              rel("cli/templates/scaffold/root_Cargo.toml")] + sources("examples/*/Cargo.toml"):
        out.append(read(f))
    out += [
        '[workspace.metadata.kubegen]\nproject = "kubegen"\ndomain = "example.com"\n',
        '[workspace.metadata.kubegen.docs]\ntitle = "Zoo"\nkinds = ["Aviary", "zoo.kubegen.dev/Roost"]\n'
        'links = [{ title = "Guide", url = "https://example.com/guide" }]\n',
        '[workspace.metadata.kubegen.diff]\nfield-removed = "warn"\ntype-changed = "off"\n',
        '[workspace.metadata.kubegen.clients]\nlanguages = ["go", "python"]\ngo-module = "example.com/x"\n'
        'typescript-package = "@x/y"\npython-package = "x_y"\nversion = "1.2.3"\n',
        '[package.metadata.kubegen]\nmanifests = false\n',
    ]
    return out


def reviews():
    foo = lambda spec, name="a": {"apiVersion": "samplecontroller.k8s.io/v1alpha1", "kind": "Foo",
                                  "metadata": {"name": name, "namespace": "ns"}, "spec": spec}
    beta = {"apiVersion": "samplecontroller.k8s.io/v1beta1", "kind": "Foo",
            "metadata": {"name": "a", "namespace": "ns", "annotations": {}},
            "spec": {"deploymentName": "web", "replicas": 2, "revisionHistoryLimit": 5}}

    def admission(op, obj, old=None):
        request = {"uid": "7a3c", "operation": op,
                   "kind": {"group": "samplecontroller.k8s.io", "version": "v1alpha1", "kind": "Foo"},
                   "resource": {"group": "samplecontroller.k8s.io", "version": "v1alpha1", "resource": "foos"},
                   "name": "a", "namespace": "ns", "userInfo": {"username": "alice", "groups": ["devs"]},
                   "object": obj, "oldObject": old, "dryRun": False}
        return {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": request}

    def conversion(desired, objects):
        return {"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
                "request": {"uid": "c0n", "desiredAPIVersion": desired, "objects": objects}}

    out = [
        admission("CREATE", foo({"deploymentName": "web", "replicas": 3})),
        admission("CREATE", foo({"deploymentName": "web", "replicas": 11})),
        admission("CREATE", foo({"deploymentName": "x" * 70})),
        admission("UPDATE", foo({"deploymentName": "web"}), foo({"deploymentName": "api"})),
        admission("UPDATE", foo({"deploymentName": "web", "extra": 1}), foo({"deploymentName": "web"})),
        admission("DELETE", None, foo({"deploymentName": "web"})),
        admission("CONNECT", foo({})),
        conversion("samplecontroller.k8s.io/v1beta1", [foo({"deploymentName": "web", "replicas": 1})]),
        conversion("samplecontroller.k8s.io/v1alpha1", [beta]),
        conversion("samplecontroller.k8s.io/v9", [foo({"deploymentName": "web"})]),
    ]
    return [json.dumps(r, indent=1) for r in out] + ["[", "{}", '{"apiVersion": "apiextensions.k8s.io/v1beta1", "kind": "ConversionReview"}']


def descriptions():
    out = []

    def visit(n):
        d = n.get("description")
        if isinstance(d, str):
            out.append(d)
    for doc in crd_docs():
        walk(doc, visit)
    out += ["[docs](javascript:alert(1))", "[d](JAVASCRIPT:alert(1))", "[d](java&#x09;script:alert(1))",
            "[d](data:text/html;base64,PHNjcmlwdD4=)", "[d](vbscript:msgbox)", "<script>alert(1)</script>",
            "x <img src=x onerror=alert(1)>", '[a](https://e.com/"onmouseover="alert(1))',
            "[][Cage](#type-cage)", "Matches `^a\\|b$`. a < b", "`` a`b ``", "One\ntwo.\n\nThree."]
    return out


write("doc_markers", doc_blocks())
write("kube_attribute", attributes(["kube", "serde"]))
write("source_markers",
      [read(f) for f in RUST if re.search(r"\+kubebuilder:(rbac|webhook)|kubegen::(rbac|webhook)\(", read(f))
       and len(read(f)) < 64 * 1024]
      + [m.group(0) for f in RUST for m in re.finditer(r"//[/!]? ?\+kubebuilder:(rbac|webhook|webhookconfiguration):.*", read(f))]
      + list(attributes(["rbac", "webhook"])))
write("printer_column_jsonpath", json_paths())
write("cel_rule", cel_rules())
write("settings", settings())
write("webhook_review", reviews())
write("crd_yaml", [read(f) for f in crd_files()])
write("docs_html", descriptions())
