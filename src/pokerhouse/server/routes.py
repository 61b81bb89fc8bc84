"""The room's route table: every feature's entries, from which both the app's routes and
the API document are made.

Each feature declares its own entries in its ``api.py``; this module lists
them, in the order the app tries them, and adds the documents made from
them: the OpenAPI document of the HTTP API and the JSON Schema of the
websocket's messages.

>>> document = openapi_document()
>>> document.openapi, sorted(document.paths)[:3]
('3.1.0', ['/api/bots', '/api/bots/{name}/revoke', '/api/bots/{name}/token'])
>>> "/metrics" in openapi_document(metrics=False).paths
False
"""

from __future__ import annotations

import functools

from starlette.requests import Request
from starlette.routing import Route

from pokerhouse.server.accounts.api import ROUTES as ACCOUNTS
from pokerhouse.server.botaccounts.api import ROUTES as BOTS
from pokerhouse.server.hands.api import ROUTES as HANDS
from pokerhouse.server.hands.equity import ROUTES as EQUITY
from pokerhouse.server.http.api_document import OpenApiDocument, api_document
from pokerhouse.server.http.context import HttpContext
from pokerhouse.server.http.route_table import Entry, Routes, RouteTable, starlette_routes
from pokerhouse.server.private.api import ROUTES as PRIVATE
from pokerhouse.server.room_api import ROUTES as ROOM
from pokerhouse.server.settings import RoomSettings
from pokerhouse.server.socket.protocol_schema import ProtocolSchema, protocol_schema
from pokerhouse.server.stats.api import ROUTES as STATS
from pokerhouse.server.tournaments.api import ROUTES as TOURNAMENTS


class Documents:
    """The handlers of the documents: the API's, as this room serves it, and the
    websocket's."""

    def __init__(self, api: HttpContext) -> None:
        self.metrics = api.site.settings.metrics

    async def openapi(self, request: Request) -> OpenApiDocument:
        """``GET /api/openapi.json``: the OpenAPI document."""
        return openapi_document(metrics=self.metrics)

    async def protocol(self, request: Request) -> ProtocolSchema:
        """``GET /api/protocol.json``: the websocket messages' JSON Schema."""
        return protocol_schema()


DOCUMENTS = Routes(
    "documents",
    Documents,
    (
        Entry(
            "GET",
            "/api/openapi.json",
            Documents.openapi,
            "This document",
            answer=OpenApiDocument,
            answered="The OpenAPI document.",
        ),
        Entry(
            "GET",
            "/api/protocol.json",
            Documents.protocol,
            "The websocket's messages, as a JSON Schema",
            description="A client's frame on /ws is a ClientMessage, a server's a JSON array "
            "of ServerMessage (docs/protocol.md).",
            answer=ProtocolSchema,
            answered="The JSON Schema (2020-12).",
        ),
    ),
)

#: Every feature's routes, and the documents'.
ROUTE_TABLE: RouteTable = (
    ROOM,
    DOCUMENTS,
    ACCOUNTS,
    HANDS,
    EQUITY,
    TOURNAMENTS,
    BOTS,
    STATS,
    PRIVATE,
)


def switches(settings: RoomSettings) -> frozenset[str]:
    """The settings that turn endpoints on (``metrics``: ``GET /metrics``)."""
    return frozenset({"metrics"} if settings.metrics else ())


@functools.cache
def openapi_document(*, metrics: bool = True) -> OpenApiDocument:
    """The API's OpenAPI document (``metrics``: with ``/metrics``, when the room serves it),
    made once."""
    return api_document(
        ROUTE_TABLE,
        switches={"metrics"} if metrics else (),
        title="pokerhouse",
        description="The card room's HTTP API. Live play is on the websocket /ws "
        "(docs/protocol.md); its messages' JSON Schema is GET /api/protocol.json.",
    )


def app_routes(api: HttpContext) -> tuple[list[Route], list[Route]]:
    """The room's routes over ``api``: those outside the ``/api`` mount, and those in it."""
    return starlette_routes(ROUTE_TABLE, api, switches(api.site.settings))
