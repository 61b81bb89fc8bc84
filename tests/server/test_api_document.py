"""The HTTP API's document is made from the route table, and says what the room serves.

- every path and method of the API as it was when the document was last
  written by hand (``data/api_paths.json``) is still in the document, and a
  new one is there only if added to that file on purpose;
- every route the app serves is in the document, and every operation of the
  document is served (with ``/metrics`` and without it);
- the room serves the document and the websocket's schema as made here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import msgspec
import pytest
from starlette.routing import BaseRoute, Mount, Route

from pokerhouse.server.app import room_app
from pokerhouse.server.http.route_table import Entry
from pokerhouse.server.routes import ROUTE_TABLE, openapi_document
from pokerhouse.server.settings import RoomSettings
from pokerhouse.server.site import Site
from pokerhouse.server.socket.protocol_schema import protocol_schema
from tests.server.conftest import Client, Harness

SAVED = Path(__file__).parent / "data" / "api_paths.json"
#: The methods Starlette adds by itself (``HEAD`` to every ``GET``).
IMPLIED = {"HEAD"}


def documented(metrics: bool) -> set[tuple[str, str]]:
    """Every ``(path, method)`` of the document."""
    paths = openapi_document(metrics=metrics).paths
    return {(path, method) for path, item in paths.items() for method in item}


def served(metrics: bool) -> set[tuple[str, str]]:
    """Every ``(path, method)`` the app's routes answer, as the document writes paths."""
    app = room_app(Site(None, settings=RoomSettings(metrics=metrics)))
    found: set[tuple[str, str]] = set()

    def walk(routes: list[BaseRoute], prefix: str) -> None:
        for route in routes:
            if isinstance(route, Mount):
                if route.name != "web":  # the web client's files are pages, not the API
                    walk(route.routes, prefix + route.path)
            elif isinstance(route, Route):
                path = re.sub(r"{(\w+):\w+}", r"{\1}", prefix + route.path)
                found.update((path, method.lower()) for method in route.methods or {"GET"})
            else:
                raise AssertionError(f"a route of a kind the document cannot describe: {route}")

    walk(app.routes, "")
    return {(path, method) for path, method in found if method.upper() not in IMPLIED}


def test_every_saved_path_and_method_is_in_the_document_and_no_other() -> None:
    saved = json.loads(SAVED.read_text())
    now: dict[str, list[str]] = {}
    for path, method in sorted(documented(metrics=True)):
        now.setdefault(path, []).append(method)
    missing = {path: methods for path, methods in saved.items() if now.get(path) != methods}
    added = {path: methods for path, methods in now.items() if saved.get(path) != methods}
    assert not missing, f"no longer in the document: {missing}"
    assert not added, f"new in the document: add them to {SAVED.name} on purpose: {added}"


@pytest.mark.parametrize("metrics", [True, False])
def test_every_route_the_app_serves_is_in_the_document(metrics: bool) -> None:
    routes, document = served(metrics), documented(metrics)
    assert routes - document == set(), "served but not in the document"
    assert document - routes == set(), "in the document but not served"
    assert (("/metrics", "get") in routes) is metrics


def test_every_entry_declares_its_path_s_parameters_and_an_answer() -> None:
    for routes in ROUTE_TABLE:
        for entry in routes.entries:
            named = set(re.findall(r"{(\w+)", entry.path))
            params = entry.params
            fields = set() if params is None else {f.name for f in msgspec.structs.fields(params)}
            assert named == fields, entry.path
            assert entry.answer is not None or entry.texts, entry.path
            assert isinstance(entry, Entry) and entry.summary and entry.answered


async def test_the_room_serves_the_documents_made_from_the_types(room: Harness) -> None:
    spectator = Client(room.base, None)
    openapi = await spectator.http.get("/api/openapi.json")
    protocol = await spectator.http.get("/api/protocol.json")
    await spectator.close()
    assert openapi.status_code == 200 and protocol.status_code == 200
    served_metrics = room.site.settings.metrics
    assert openapi.json() == msgspec.to_builtins(openapi_document(metrics=served_metrics))
    assert protocol.json() == msgspec.to_builtins(protocol_schema())
