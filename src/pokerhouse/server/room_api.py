"""The room's own answers over HTTP: its lobby, and its health.

- ``GET /api/tables``: the lobby, every public table's line;
- ``GET /healthz``: the database answers and every table this node runs
  takes actions.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from pokerhouse.server.http.context import HttpContext


class RoomApi:
    """The handlers, over the room."""

    def __init__(self, api: HttpContext) -> None:
        self.site = api.site

    async def tables(self, request: Request) -> Response:
        """``GET /api/tables``: the lobby."""
        return JSONResponse({"tables": self.site.room.lobby()})

    async def health(self, request: Request) -> Response:
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
        status = 200 if database == "ok" and not down else 503
        return JSONResponse(
            {
                "ok": status == 200,
                "database": database,
                "node": self.site.settings.owner,
                "tables": len(tasks),
                "tables_available": len(tasks) - len(down) - len(elsewhere),
                "tables_unavailable": sorted(down - private),
                "tables_elsewhere": sorted(elsewhere - private),
                "private_tables_unavailable": len(down & private),
            },
            status_code=status,
        )
