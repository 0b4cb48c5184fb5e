"""The generated Python client against a real API server: pytest, run by
scripts/clients-e2e.sh in the zoo's generated package after `mypy --strict` on both."""

from __future__ import annotations

import os
from datetime import datetime, timezone

import pydantic
from kubernetes import client as k8s
from kubernetes import config

from kubegen_api import KubeApiError
from kubegen_api.zoo_v1 import (
    Fleet,
    FleetClient,
    FleetSpec,
    Inspection,
    InspectionClient,
    InspectionSpec,
    Pavilion,
    PavilionClient,
    PavilionSpec,
)


def test_every_verb_against_the_api_server() -> None:
    config.load_kube_config(config_file=os.environ["KUBECONFIG"])  # type: ignore[no-untyped-call]
    namespace = f"py-client-{os.getpid()}"
    k8s.CoreV1Api().create_namespace(k8s.V1Namespace(metadata=k8s.V1ObjectMeta(name=namespace)))

    # The schema's bounds hold in Python before anything is sent.
    try:
        InspectionSpec.model_validate({"inspector": "ab", "ports": [80], "reviewer": "ann"})
        raise AssertionError("a too-short inspector was accepted")
    except pydantic.ValidationError as e:
        assert "at least 3 characters" in str(e), e

    fleets = FleetClient()
    fleet = Fleet.model_validate(
        {
            "metadata": {"name": "one", "labels": {"team": "py"}},
            "spec": {"template": {"spec": {"containers": [{"name": "app", "image": "app:1"}]}}, "ports": [{"port": 80}]},
        }
    )
    before = fleets.list(namespace)
    events = fleets.watch(namespace, resource_version=before.resource_version, timeout_seconds=30)

    created = fleets.create(namespace, fleet)
    assert created.metadata.name == "one"
    assert created.spec.ports is not None and created.spec.ports[0].protocol == "TCP", created.spec.ports
    event = next(events)
    assert event.type == "ADDED" and event.object.metadata.name == "one", event
    events.close()

    got = fleets.get(namespace, "one")
    assert got.spec.template.spec is not None and got.spec.template.spec.containers[0].image == "app:1"
    assert [f.metadata.name for f in fleets.list(namespace, label_selector="team=py", limit=10).items] == ["one"]
    assert fleets.list(namespace, label_selector="team=go").items == []

    patched = fleets.patch(namespace, "one", {"metadata": {"labels": {"tier": "web"}}})
    assert patched.metadata.labels is not None and patched.metadata.labels["tier"] == "web"
    patched.spec = FleetSpec.model_validate({**patched.spec.model_dump(by_alias=True, exclude_none=True), "ports": [{"port": 8080, "name": "http"}]})
    replaced = fleets.replace(namespace, patched)
    assert replaced.spec.ports is not None and replaced.spec.ports[0].port == 8080

    # Server-side apply by a second manager: containers merge by name.
    fleets.apply(
        namespace,
        {"apiVersion": "zoo.kubegen.dev/v1", "kind": "Fleet", "metadata": {"name": "one"},
         "spec": {"template": {"spec": {"containers": [{"name": "sidecar", "image": "side:1"}]}}}},
        field_manager="py-sidecar",
    )
    merged = fleets.get(namespace, "one")
    assert merged.spec.template.spec is not None
    assert sorted(c.name for c in merged.spec.template.spec.containers) == ["app", "sidecar"]
    # A third manager setting a field another owns is told so (and may force it).
    takeover = {"apiVersion": "zoo.kubegen.dev/v1", "kind": "Fleet", "metadata": {"name": "one"},
                "spec": {"template": {"spec": {"containers": [{"name": "sidecar", "image": "side:2"}]}}}}
    try:
        fleets.apply(namespace, takeover, field_manager="py-other")
        raise AssertionError("a conflicting apply was accepted")
    except KubeApiError as e:
        assert e.code == 409 and "conflict" in e.message, e.message
    fleets.apply(namespace, takeover, field_manager="py-other", force=True)

    condition = {"type": "Ready", "status": "True", "reason": "Checked", "message": "",
                 "lastTransitionTime": datetime(2026, 1, 1, tzinfo=timezone.utc).isoformat()}
    with_status = fleets.patch_status(namespace, "one", {"status": {"conditions": [condition]}})
    assert with_status.status is not None and with_status.status.conditions is not None
    assert with_status.status.conditions[0].type_ == "Ready"
    assert fleets.get_status(namespace, "one").status is not None
    try:
        fleets.patch_status(namespace, "one", {"status": {"conditions": [{**condition, "status": "Maybe"}]}})
        raise AssertionError("an invalid condition was accepted")
    except KubeApiError as e:
        assert e.code == 422 and 'Unsupported value: "Maybe"' in e.message, e.message
    fleets.apply_status(
        namespace,
        {"apiVersion": "zoo.kubegen.dev/v1", "kind": "Fleet", "metadata": {"name": "one"},
         "status": {"conditions": [{**condition, "type": "Synced"}]}},
        field_manager="py-status",
        force=True,
    )
    status = fleets.get_status(namespace, "one").status
    assert status is not None and status.conditions is not None and any(c.type_ == "Synced" for c in status.conditions)

    fleets.create(namespace, Fleet.model_validate({**fleet.model_dump(by_alias=True, exclude_none=True), "metadata": {"name": "two", "labels": {"team": "py"}}}))
    fleets.delete(namespace, "one")
    fleets.delete_collection(namespace, label_selector="team=py")
    try:
        fleets.get(namespace, "two")
        raise AssertionError("two survived delete_collection")
    except KubeApiError as e:
        assert e.code == 404, e

    # Issue 28: found by a new user's trial, preserve_unknown_fields on a named-struct
    # field. `openWindow` keeps keys its type (Window) does not name: the model keeps them
    # too, through create, get and a read-modify-write. `window`, the same type without
    # the marker, has them pruned by the server.
    inspections = InspectionClient()
    sent_window = {"start": "a", "end": "b", "zone": {"name": "Europe/Paris", "dst": True}}
    inspection = Inspection.model_validate(
        {
            "metadata": {"name": "open-window"},
            "spec": {"inspector": "insp-1", "ports": [80], "reviewer": "ann",
                     "openWindow": sent_window, "window": {"start": "a", "end": "b", "zone": "pruned"}},
        }
    )
    assert inspection.model_dump(by_alias=True, exclude_none=True)["spec"]["openWindow"] == sent_window
    created_inspection = inspections.create(namespace, inspection)
    assert created_inspection.spec.open_window is not None
    assert created_inspection.spec.open_window.model_dump(by_alias=True, exclude_none=True) == sent_window
    assert created_inspection.spec.window is not None
    assert created_inspection.spec.window.model_dump(by_alias=True, exclude_none=True) == {"start": "a", "end": "b"}
    read_inspection = inspections.get(namespace, "open-window")
    assert read_inspection.spec.open_window is not None
    assert read_inspection.spec.open_window.model_dump(by_alias=True, exclude_none=True) == sent_window
    replaced_inspection = inspections.replace(namespace, read_inspection)
    assert replaced_inspection.spec.open_window is not None
    assert replaced_inspection.spec.open_window.model_dump(by_alias=True, exclude_none=True) == sent_window
    inspections.delete(namespace, "open-window")

    # A cluster-scoped kind takes no namespace; its scale subresource.
    pavilions = PavilionClient()
    name = f"py-pavilion-{os.getpid()}"
    pavilions.create(Pavilion(metadata=k8s.V1ObjectMeta(name=name), spec=PavilionSpec(replicas=1)))
    scale = pavilions.get_scale(name)
    assert scale.spec is not None and scale.spec.replicas == 1
    pavilions.patch_scale(name, {"spec": {"replicas": 3}})
    assert pavilions.get(name).spec.replicas == 3
    pavilions.delete(name)

    k8s.CoreV1Api().delete_namespace(namespace)
    print("python client: every verb checked against the API server")

