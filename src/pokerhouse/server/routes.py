"""The room's route table: every feature's entries, from which both the app's routes and
the API document are made.

Each feature declares its own entries in its ``api.py``; this module only
lists them, in the order the app tries them.
"""

from __future__ import annotations

from starlette.routing import Route

from pokerhouse.server.accounts.api import ROUTES as ACCOUNTS
from pokerhouse.server.botaccounts.api import ROUTES as BOTS
from pokerhouse.server.hands.api import ROUTES as HANDS
from pokerhouse.server.hands.equity import ROUTES as EQUITY
from pokerhouse.server.http.context import HttpContext
from pokerhouse.server.http.route_table import RouteTable, starlette_routes
from pokerhouse.server.private.api import ROUTES as PRIVATE
from pokerhouse.server.room_api import ROUTES as ROOM
from pokerhouse.server.settings import RoomSettings
from pokerhouse.server.stats.api import ROUTES as STATS
from pokerhouse.server.tournaments.api import ROUTES as TOURNAMENTS

#: Every feature's routes.
ROUTE_TABLE: RouteTable = (ROOM, ACCOUNTS, HANDS, EQUITY, TOURNAMENTS, BOTS, STATS, PRIVATE)


def switches(settings: RoomSettings) -> frozenset[str]:
    """The settings that turn endpoints on (``metrics``: ``GET /metrics``)."""
    return frozenset({"metrics"} if settings.metrics else ())


def app_routes(api: HttpContext) -> tuple[list[Route], list[Route]]:
    """The room's routes over ``api``: those outside the ``/api`` mount, and those in it."""
    return starlette_routes(ROUTE_TABLE, api, switches(api.site.settings))
