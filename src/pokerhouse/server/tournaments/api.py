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

from starlette.requests import Request
from starlette.responses import Response

from pokerhouse.server.http.context import HttpContext
from pokerhouse.server.http.problems import problem
from pokerhouse.server.http.queries import BadQuery, read_path, read_query
from pokerhouse.server.http.rate_limits import RateLimit
from pokerhouse.server.http.route_table import LOGIN_REQUIRED, Entry, Handler, Refusal, Routes
from pokerhouse.server.tournaments.lines import (
    TournamentList,
    TournamentPage,
    TournamentPath,
    TournamentsQuery,
)
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

    async def list(self, request: Request) -> TournamentList | Response:
        """``GET /api/tournaments``: live ones from the room, ended ones from the store."""
        try:
            status = read_query(request.query_params, TournamentsQuery).status
        except BadQuery as error:
            return problem(400, error.code, str(error))
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
            lines = [line for line in lines if line.status == status]
        return TournamentList(lines)

    async def one(self, request: Request) -> TournamentPage | Response:
        """``GET /api/tournaments/{id}``: the tournament's page."""
        path = read_path(request.path_params, TournamentPath)
        found = None if path is None else await self._document(path.tournament_id)
        if found is None:
            return _unknown(request)
        return found

    async def register(self, request: Request) -> TournamentPage | Response:
        """``POST /api/tournaments/{id}/register``: buy in."""
        return await self._ask(request, register=True)

    async def unregister(self, request: Request) -> TournamentPage | Response:
        """``POST /api/tournaments/{id}/unregister``: the buy-in and fee back, before the start."""
        return await self._ask(request, register=False)

    async def _ask(self, request: Request, *, register: bool) -> TournamentPage | Response:
        user: User | None = await self.api.user(request)
        if user is None:
            return problem(401, "login_required", "sign in first")
        if not self.asks.allow(f"user:{user.id}"):
            return problem(429, "rate_limited", "one request a second", **{"Retry-After": "1"})
        path = read_path(request.path_params, TournamentPath)
        if path is None:
            return _unknown(request)
        tournament_id = path.tournament_id
        room = self.site.room.tournaments
        if room.get(tournament_id) is None:
            found = await self._document(tournament_id)
            if found is None:
                return _unknown(request)
            if found.status not in (REGISTERING, RUNNING):
                return problem(409, "not_registering", "that tournament has ended")
        try:
            await room.relay.ask(tournament_id, user, register=register)
        except Refused as refused:
            return problem(refused.status, refused.code, refused.text)
        body = await self._document(tournament_id)
        if body is None:  # pragma: no cover - it was there a moment ago
            return _unknown(request)
        return body

    async def _document(self, tournament_id: int) -> TournamentPage | None:
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


def _ask(action: str, handler: Handler[TournamentApi], summary: str) -> Entry[TournamentApi]:
    """``register`` or ``unregister``: signed in, a few a second, refused with the
    director's codes."""
    return Entry(
        "POST",
        f"/api/tournaments/{{tournament_id:int}}/{action}",
        handler,
        summary,
        params=TournamentPath,
        answer=TournamentPage,
        csrf=True,
        answered="Done: the page.",
        refusals=(
            LOGIN_REQUIRED,
            Refusal(404, ("unknown_tournament",), "No such tournament."),
            Refusal(
                409,
                (
                    "not_registering",
                    "already_registered",
                    "not_registered",
                    "tournament_full",
                    "no_reentry",
                    "insufficient_funds",
                    "same_owner",
                ),
                "Refused by the tournament's rules.",
            ),
            Refusal(
                429, ("rate_limited",), "Too many at once (see Retry-After).", ("Retry-After",)
            ),
            Refusal(
                503,
                ("room_unavailable",),
                "The room could not save it, or the node running it did not answer.",
            ),
        ),
    )


ROUTES = Routes(
    "tournaments",
    TournamentApi,
    (
        Entry(
            "GET",
            "/api/tournaments",
            TournamentApi.list,
            "Tournaments open or running, and the last ones ended",
            query=TournamentsQuery,
            answer=TournamentList,
            answered="The tournaments.",
        ),
        Entry(
            "GET",
            "/api/tournaments/{tournament_id:int}",
            TournamentApi.one,
            "A tournament's page: structure, clock, chip counts, tables, prizes",
            params=TournamentPath,
            answer=TournamentPage,
            answered="The tournament.",
            refusals=(Refusal(404, ("unknown_tournament",), "No such tournament."),),
        ),
        _ask(
            "register",
            TournamentApi.register,
            "Buy in: the buy-in and fee leave the wallet (during late registration: "
            "seated at once)",
        ),
        _ask(
            "unregister",
            TournamentApi.unregister,
            "Take the entry back before the start: the buy-in and fee return to the wallet",
        ),
    ),
)
