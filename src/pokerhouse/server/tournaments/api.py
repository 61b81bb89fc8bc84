"""The tournaments' HTTP API: the list, one tournament's page, registering and unregistering.

- ``GET /api/tournaments``: every tournament open or running, and the last
  ones ended (``?status=`` one of registering, running, finished, cancelled);
- ``GET /api/tournaments/{id}``: its page (:func:`.tournament_view.document`);
- ``POST /api/tournaments/{id}/register`` and ``.../unregister``: signed in,
  same-site with the CSRF header, at most a few a second per player; the
  buy-in and fee leave the wallet (or come back) in the step that takes the
  entry. Refusals name their code: ``not_registering``,
  ``already_registered``, ``not_registered``, ``tournament_full``,
  ``no_reentry``, ``insufficient_funds``, ``same_owner`` (409: a player and
  her bot account, or two bot accounts of one owner, never play one
  tournament: the director's rule, checked in the step that takes the entry,
  so two registrations sent at once cannot both pass), ``unknown_tournament``
  (404),
  ``room_unavailable`` (503: the node that runs it is not reached now).

Any node answers for any tournament: what another node runs is read from
the store (its director's state as last saved, at most a few seconds old),
and a registration is asked of that node (:mod:`.tournament_relay`).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from pokerhouse.server.http.context import HttpContext
from pokerhouse.server.http.paging import path_id
from pokerhouse.server.http.problems import problem
from pokerhouse.server.http.rate_limits import RateLimit
from pokerhouse.server.tournaments.relay import Refused
from pokerhouse.server.tournaments.view import document, summary
from pokerhouse.store import AccountError, TournamentBookError, User
from pokerhouse.tournament.state import CANCELLED, FINISHED, REGISTERING, RUNNING, State

#: Ended tournaments the list shows, newest first.
ENDED_SHOWN = 20
#: Accounts whose being a bot is remembered (past it, looked up on every page).
KNOWN_ACCOUNTS = 100_000
#: Registrations and unregistrations a player may ask for: a few at once, one a second.
ASKS_PER_SECOND, ASKS_BURST = 1.0, 5


def routes(api: HttpContext) -> list[Route]:
    """The endpoints' routes, for the API's mount."""
    handlers = TournamentApi(api)
    return [
        Route("/tournaments", handlers.list),
        Route("/tournaments/{tournament_id:int}", handlers.one),
        Route("/tournaments/{tournament_id:int}/register", handlers.register, methods=["POST"]),
        Route("/tournaments/{tournament_id:int}/unregister", handlers.unregister, methods=["POST"]),
    ]


def _unknown(request: Request) -> Response:
    """``404 unknown_tournament``, naming the id asked for (cut short)."""
    asked = str(request.path_params.get("tournament_id"))[:20]
    return problem(404, "unknown_tournament", f"there is no tournament {asked}")


class TournamentApi:
    """The handlers, over the room's tournaments and the store."""

    def __init__(self, api: HttpContext) -> None:
        self.api = api
        self.site = api.site
        self.asks = RateLimit(ASKS_PER_SECOND, ASKS_BURST)
        self._is_bot: dict[int, bool] = {}

    async def list(self, request: Request) -> Response:
        """``GET /api/tournaments``: live ones from the room, ended ones from the store."""
        status = request.query_params.get("status")
        statuses = (REGISTERING, RUNNING, FINISHED, CANCELLED)
        if status is not None and status not in statuses:
            return problem(400, "bad_status", f"status is one of {', '.join(statuses)}")
        now = self.site.services.clock.now()
        room = self.site.room.tournaments
        lines = [
            summary(task.id, task.spec, task.director.state, now=now)
            for task in sorted(room.tasks.values(), key=lambda task: task.id)
        ]
        book = self.site.store.tournaments
        elsewhere = sorted(await book.find([REGISTERING, RUNNING]), key=lambda record: record.id)
        ended = await book.find([FINISHED, CANCELLED], limit=ENDED_SHOWN)
        lines += [
            summary(record.id, record.spec, record.state(), now=now)
            for record in elsewhere + ended
            if record.id not in room.tasks
        ]
        if status is not None:
            lines = [line for line in lines if line["status"] == status]
        return JSONResponse({"tournaments": lines})

    async def one(self, request: Request) -> Response:
        """``GET /api/tournaments/{id}``: the tournament's page."""
        tournament_id = path_id(request.path_params, "tournament_id")
        found = None if tournament_id is None else await self._document(tournament_id)
        if found is None:
            return _unknown(request)
        return JSONResponse(found)

    async def register(self, request: Request) -> Response:
        """``POST /api/tournaments/{id}/register``: buy in."""
        return await self._ask(request, register=True)

    async def unregister(self, request: Request) -> Response:
        """``POST /api/tournaments/{id}/unregister``: the buy-in and fee back, before the start."""
        return await self._ask(request, register=False)

    async def _ask(self, request: Request, *, register: bool) -> Response:
        unguarded = self.api.guard(request)
        if unguarded is not None:
            return unguarded
        user: User | None = await self.api.user(request)
        if user is None:
            return problem(401, "login_required", "sign in first")
        if not self.asks.allow(f"user:{user.id}"):
            return problem(429, "rate_limited", "one request a second", **{"Retry-After": "1"})
        tournament_id = path_id(request.path_params, "tournament_id")
        if tournament_id is None:
            return _unknown(request)
        room = self.site.room.tournaments
        if room.get(tournament_id) is None:
            found = await self._document(tournament_id)
            if found is None:
                return _unknown(request)
            if found["status"] not in (REGISTERING, RUNNING):
                return problem(409, "not_registering", "that tournament has ended")
        try:
            await room.relay.ask(tournament_id, user, register=register)
        except Refused as refused:
            return problem(refused.status, refused.code, refused.text)
        body = await self._document(tournament_id)
        return JSONResponse(body)

    async def _document(self, tournament_id: int) -> dict[str, Any] | None:
        now = self.site.services.clock.now()
        task = self.site.room.tournaments.get(tournament_id)
        if task is not None:
            tables = {number: table.id for number, table in task.tables.items()}
            state = task.director.state
            bots = await self._bots(state)
            return document(task.id, task.spec, state, now=now, tables=tables, bots=bots)
        book = self.site.store.tournaments
        try:
            record = await book.get(tournament_id)
        except TournamentBookError:
            return None
        # Run by another node (or ended): as last saved, with the tables it opened.
        tables = await book.tables(tournament_id) if record.status == RUNNING else {}
        state = record.state()
        bots = await self._bots(state)
        return document(record.id, record.spec, state, now=now, tables=tables, bots=bots)

    async def _bots(self, state: State) -> set[int]:
        """The entrants' accounts that are bots (house or bot accounts); an account is
        looked up once (whether it is a bot never changes)."""
        for entry in state.entries:
            if entry.account not in self._is_bot and len(self._is_bot) < KNOWN_ACCOUNTS:
                try:
                    user = await self.site.store.users.get(entry.account)
                except AccountError:
                    continue
                self._is_bot[entry.account] = user.is_bot
        return {entry.account for entry in state.entries if self._is_bot.get(entry.account)}
