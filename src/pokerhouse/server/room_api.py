"""The room's own answers over HTTP: its lobby, its health and its counters.

- ``GET /api/tables``: the lobby, every public table's line;
- ``GET /healthz``: the database answers and every table this node runs
  takes actions;
- ``GET /metrics``: the room's counters for Prometheus (only when room.toml
  asks for them: they tell anyone how busy the room is).
"""

from __future__ import annotations

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from pokerhouse.server.http.context import HttpContext
from pokerhouse.server.http.problems import json_answer
from pokerhouse.server.http.route_table import Entry, Refusal, Routes
from pokerhouse.server.runtime.metrics import CONTENT_TYPE
from pokerhouse.server.table.lines import TableLine


class Lobby(msgspec.Struct):
    """Every public table's line (a tournament's tables are on its page; a private table
    is its guests' business)."""

    tables: list[TableLine]


class Health(msgspec.Struct):
    """Whether the database answers and every table this node runs takes actions (the
    tables other nodes run are listed, not counted against it; a private table is
    counted, never named)."""

    ok: bool
    database: str
    node: str
    tables: int
    tables_available: int
    tables_unavailable: list[int]
    tables_elsewhere: list[int]
    private_tables_unavailable: int


class RoomApi:
    """The handlers, over the room."""

    def __init__(self, api: HttpContext) -> None:
        self.site = api.site

    async def tables(self, request: Request) -> Lobby:
        """``GET /api/tables``: the lobby."""
        return Lobby(self.site.room.lobby_lines())

    async def health(self, request: Request) -> Health | Response:
        """``GET /healthz``: the database answers and every table this node runs takes
        actions (the tables other nodes run are listed, not counted against it; a
        private table is counted, never named).

        A read alone would not do: a SQLite file locked by another process or
        on a full disk still reads, yet no table can save anything; a table
        that lost its database is not available until it has reloaded.
        """
        try:
            await self.site.store.hands.last_number(1)  # one small read: the database answers
            database = "ok"
        except Exception as error:
            database = f"error: {type(error).__name__}"
        tasks = self.site.room.tasks
        elsewhere = {table for table, task in tasks.items() if task.fenced}
        down = {table for table, task in tasks.items() if not task.available and not task.fenced}
        # A private table's id is its guests' business: counted, never named here.
        private = {table for table, task in tasks.items() if task.config.host is not None}
        healthy = database == "ok" and not down
        health = Health(
            ok=healthy,
            database=database,
            node=self.site.settings.owner,
            tables=len(tasks),
            tables_available=len(tasks) - len(down) - len(elsewhere),
            tables_unavailable=sorted(down - private),
            tables_elsewhere=sorted(elsewhere - private),
            private_tables_unavailable=len(down & private),
        )
        return health if healthy else json_answer(health, 503)

    async def metrics(self, request: Request) -> Response:
        """``GET /metrics``: the room's counters, in Prometheus's text format."""
        return Response(self.site.metrics.render(), media_type=CONTENT_TYPE)


ROUTES = Routes(
    "room",
    RoomApi,
    (
        Entry(
            "GET",
            "/healthz",
            RoomApi.health,
            "Whether the database answers and every table takes actions",
            answer=Health,
            answered="Healthy.",
            refusals=(
                Refusal(503, (), "The database is down, or a table cannot save.", body=Health),
            ),
        ),
        Entry(
            "GET",
            "/metrics",
            RoomApi.metrics,
            "The room's counters, in Prometheus's text format",
            texts=("text/plain",),
            answered="Connections, actions, hands, commits, errors.",
            switch="metrics",
        ),
        Entry(
            "GET",
            "/api/tables",
            RoomApi.tables,
            "The lobby: every table",
            answer=Lobby,
            answered="The tables.",
        ),
    ),
)
