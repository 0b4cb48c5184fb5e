// The generated TypeScript client against a real API server (scripts/clients-e2e.sh
// copies this file into the zoo's generated package as src/e2e.test.ts, so it is also
// type-checked with `tsc --strict` against the generated types).
import assert from "node:assert/strict";
import { CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import { KubeApiError, zooV1, type Applied } from "./index.js";
// Written by tests/tests/agreement.rs (typescript_takes_every_value_inside).
import { inside } from "./agreement.js";

const kc = new KubeConfig();
kc.loadFromFile(process.env.KUBECONFIG ?? "");
const namespace = `ts-client-${process.pid}`;
await kc.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: namespace } } });

const fleets = new zooV1.FleetClient(kc);
const fleet: zooV1.Fleet = {
  apiVersion: "zoo.kubegen.dev/v1",
  kind: "Fleet",
  metadata: { name: "one", labels: { team: "ts" } },
  spec: { template: { spec: { containers: [{ name: "app", image: "app:1" }] } }, ports: [{ port: 80 }] },
};

// A watch from the list's resourceVersion sees what happens next.
const before = await fleets.list(namespace);
const events = fleets.watch(namespace, { resourceVersion: before.metadata.resourceVersion });
const firstEvent = events.next();

const created = await fleets.create(namespace, fleet);
assert.equal(created.metadata.name, "one");
assert.equal(created.spec.ports?.[0]?.protocol, "TCP", "the API's own default applies inside the custom resource");
const seen = await firstEvent;
assert.equal(seen.value?.type, "ADDED", JSON.stringify(seen.value));
assert.equal(seen.value?.object.metadata.name, "one");
await events.return(undefined);

assert.equal((await fleets.get(namespace, "one")).spec.template.spec?.containers[0]?.image, "app:1");
const listed = await fleets.list(namespace, { labelSelector: "team=ts", limit: 10 });
assert.deepEqual(listed.items.map((f) => f.metadata.name), ["one"]);
assert.equal((await fleets.list(namespace, { labelSelector: "team=go" })).items.length, 0);

// Merge patch, replace.
const patched = await fleets.patch(namespace, "one", { metadata: { labels: { tier: "web" } } });
assert.equal(patched.metadata.labels?.tier, "web");
patched.spec.ports = [{ port: 8080, name: "http" }];
const replaced = await fleets.replace(namespace, patched);
assert.equal(replaced.spec.ports?.[0]?.port, 8080);

// Server-side apply by two managers: containers merge by name.
await fleets.apply(
  namespace,
  { apiVersion: "zoo.kubegen.dev/v1", kind: "Fleet", metadata: { name: "one" }, spec: { template: { spec: { containers: [{ name: "sidecar", image: "side:1" }] } } } },
  { fieldManager: "ts-sidecar" },
);
const merged = await fleets.get(namespace, "one");
assert.deepEqual(merged.spec.template.spec?.containers.map((c) => c.name).sort(), ["app", "sidecar"]);
// A third manager setting a field another owns is told so (and may force it).
const takeover: Applied<zooV1.Fleet> = {
  apiVersion: "zoo.kubegen.dev/v1",
  kind: "Fleet",
  metadata: { name: "one" },
  spec: { template: { spec: { containers: [{ name: "sidecar", image: "side:2" }] } } },
};
await assert.rejects(
  fleets.apply(namespace, takeover, { fieldManager: "ts-other" }),
  (e: unknown) => e instanceof KubeApiError && e.code === 409 && e.message.includes("conflict"),
);
await fleets.apply(namespace, takeover, { fieldManager: "ts-other", force: true });

// Status: through the status subresource; an invalid condition is refused with the server's words.
// The package's own V1Condition: a time is its RFC 3339 string (as a read returns it), and
// the status one of the values the server takes.
const condition: zooV1.V1Condition = { type: "Ready", status: "True", reason: "Checked", message: "", lastTransitionTime: "2026-01-01T00:00:00Z" };
const withStatus = await fleets.patchStatus(namespace, "one", { status: { conditions: [condition] } });
assert.equal(withStatus.status?.conditions?.[0]?.type, "Ready");
assert.equal((await fleets.getStatus(namespace, "one")).status?.conditions?.length, 1);
await assert.rejects(
  // The type refuses "Maybe" as the server does; cast past it to hear the server's words.
  fleets.patchStatus(namespace, "one", { status: { conditions: [{ ...condition, status: "Maybe" as "True" }] } }),
  (e: unknown) => e instanceof KubeApiError && e.code === 422 && e.message.includes("Unsupported value: \"Maybe\""),
);
await fleets.applyStatus(
  namespace,
  { apiVersion: "zoo.kubegen.dev/v1", kind: "Fleet", metadata: { name: "one" }, status: { conditions: [{ ...condition, type: "Synced" }] } },
  { fieldManager: "ts-status", force: true },
);
assert.ok((await fleets.getStatus(namespace, "one")).status?.conditions?.some((c) => c.type === "Synced"));

// A refused create says which field and why.
await assert.rejects(
  fleets.create(namespace, { ...fleet, metadata: { name: "bad" }, spec: { ...fleet.spec, ports: [{ port: "eighty" as unknown as number }] } }),
  (e: unknown) => e instanceof KubeApiError && e.code === 422 && e.message.includes("spec.ports[0].port"),
);

// Delete and delete the collection.
await fleets.create(namespace, { ...fleet, metadata: { name: "two", labels: { team: "ts" } } });
await fleets.delete(namespace, "one");
await fleets.deleteCollection(namespace, { labelSelector: "team=ts" });
await assert.rejects(fleets.get(namespace, "two"), (e: unknown) => e instanceof KubeApiError && e.code === 404);

// Every value the agreement matrix says the server accepts, through the generated client
// and back: created, read, written back unchanged (a read-modify-write) and read again —
// the client neither refuses it nor changes what the server kept.
const accords = new zooV1.AccordClient(kc);
// The fields sent, as the server answered them (it may add its defaults beside them).
const kept = (object: zooV1.Accord, spec: zooV1.AccordSpec) =>
  Object.fromEntries(Object.keys(spec).map((key) => [key, (object.spec as Record<string, unknown>)[key]]));
for (const [i, spec] of inside.entries()) {
  const sent: zooV1.Accord = { apiVersion: "zoo.kubegen.dev/v1", kind: "Accord", metadata: { name: `agree-${i}` }, spec };
  const created = await accords.create(namespace, sent);
  assert.deepEqual(kept(created, spec), spec, "create keeps the value");
  const read = await accords.get(namespace, `agree-${i}`);
  assert.deepEqual(kept(read, spec), spec, "get reads it back");
  const replaced = await accords.replace(namespace, read);
  assert.deepEqual(kept(replaced, spec), spec, "a read-modify-write keeps it");
}
console.log(`typescript client: ${inside.length} agreement values kept through create, get and replace`);

// Issue 28: found by a new user's trial, preserve_unknown_fields on a named-struct field.
// `openWindow` keeps keys its type (Window) does not name: the object literal below
// compiles under tsc --strict, and the key comes back as sent through create, get and a
// read-modify-write. `window`, the same type without the marker, has it pruned.
const inspections = new zooV1.InspectionClient(kc);
const inspection: zooV1.Inspection = {
  apiVersion: "zoo.kubegen.dev/v1",
  kind: "Inspection",
  metadata: { name: "open-window" },
  spec: {
    inspector: "insp-1",
    ports: [80],
    reviewer: "ann",
    openWindow: { start: "a", end: "b", zone: { name: "Europe/Paris", dst: true } },
    window: { start: "a", end: "b", zone: "pruned" },
  },
};
const sentWindow = { start: "a", end: "b", zone: { name: "Europe/Paris", dst: true } };
const createdInspection = await inspections.create(namespace, inspection);
assert.deepEqual(createdInspection.spec.openWindow, sentWindow, "create keeps the unknown key");
assert.deepEqual(createdInspection.spec.window, { start: "a", end: "b" }, "the closed use prunes it");
const readInspection = await inspections.get(namespace, "open-window");
assert.deepEqual(readInspection.spec.openWindow, sentWindow, "get reads it back");
assert.deepEqual(readInspection.spec.openWindow?.zone, sentWindow.zone);
const replacedInspection = await inspections.replace(namespace, readInspection);
assert.deepEqual(replacedInspection.spec.openWindow, sentWindow, "a read-modify-write keeps it");
await inspections.delete(namespace, "open-window");

// A cluster-scoped kind takes no namespace; its scale subresource.
const pavilions = new zooV1.PavilionClient(kc);
const name = `ts-pavilion-${process.pid}`;
await pavilions.create({ apiVersion: "zoo.kubegen.dev/v1", kind: "Pavilion", metadata: { name }, spec: { replicas: 1 } });
const scale = await pavilions.getScale(name);
assert.equal(scale.spec?.replicas, 1);
await pavilions.patchScale(name, { spec: { replicas: 3 } });
assert.equal((await pavilions.get(name)).spec.replicas, 3);
await pavilions.delete(name);

await kc.makeApiClient(CoreV1Api).deleteNamespace({ name: namespace });
console.log("typescript client: every verb checked against the API server");
