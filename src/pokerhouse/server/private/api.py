"""Private tables (home games) over HTTP (RULES.md, "Home games"; docs/home-games.md).

- ``POST /api/private-tables``: a signed-in person opens a table of any game
  and stakes within the room's limits; ``201`` with its id and its
  invitation token, shown this once (the link is ``/#/join/TOKEN``);
- ``GET /api/private-tables``: the open private tables one hosts or came to;
- ``GET /api/private-tables/{id}``: its settings and state; its guests and
  their standing (who asks to sit) for the host;
- ``POST /api/private-tables/{id}/invitation``: a new link (the old one stops
  working), for the host;
- ``GET /api/private-tables/{id}/ledger``: the session ledger, for everyone at
  it (``?format=csv``: ``player_nickname, player_id, session_start_at,
  session_end_at, buy_in, buy_out, stack, net``);
- ``GET /api/private-tables/stakes``: the stakes a private table may play;
- ``POST /api/invitations/look`` ``{"token"}``: what a link invites to;
- ``POST /api/invitations/join`` ``{"token", "password"}``: come to the table.

The token travels in request bodies, never in a path: the room's request log
never holds one (the link itself carries it after ``#``, which no browser
sends).

The host runs the table itself (pause, approve, remove, close) with the
websocket's ``host`` message, through the table's task.
"""

from __future__ import annotations

import contextlib
import csv
import io
import math
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TypeVar

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from pokerhouse.server.http.context import HttpContext
from pokerhouse.server.http.hash_gate import HashesBusy
from pokerhouse.server.http.problems import BadRequest, client_address, problem, read_json
from pokerhouse.server.http.queries import BadQuery, read_path, read_query
from pokerhouse.server.http.rate_limits import RateLimit
from pokerhouse.server.http.route_table import LOGIN_REQUIRED, Entry, Refusal, Routes
from pokerhouse.server.http.shared_limits import ThrottleUnavailable
from pokerhouse.server.private.schemas import (
    GuestLine,
    InvitationShown,
    Join,
    Joined,
    LedgerFormat,
    Look,
    NewInvitation,
    NewTable,
    PrivateLimits,
    PrivateStakes,
    PrivateTable,
    PrivateTableLine,
    PrivateTables,
    SessionLedger,
    SessionLine,
    StakeLevel,
    TableOpened,
    TablePath,
)
from pokerhouse.store import TableBookError, TableConfig, User
from pokerhouse.store.private_tables import (
    HOST_CHOOSES,
    LIMITS,
    STAKES,
    LedgerLine,
    PrivateState,
    invite_hash,
)


@dataclass(frozen=True, slots=True)
class Budget:
    """How often one address, and one player, may ask for something: a burst, then a rate
    (``(per second, burst)`` each). An address's is the larger: people share addresses."""

    address: tuple[float, int]
    player: tuple[float, int]


#: Private tables opened: a dozen at once, then one in 10 s (a player and an address alike).
OPENS = Budget(address=(0.1, 12), player=(0.1, 12))
#: Invitations answered: a player three at once then one in 10 s; an address ten at once,
#: then one in 5 s.
JOINS = Budget(address=(0.2, 10), player=(0.1, 3))

T = TypeVar("T", bound=msgspec.Struct)


#: The session ledger's CSV columns (as the home-game tools that read such files expect).
CSV_COLUMNS = (
    "player_nickname", "player_id", "session_start_at", "session_end_at", "buy_in", "buy_out",
    "stack", "net",
)  # fmt: skip


def _time(seconds: float | None) -> str:
    """An ISO 8601 UTC time for the CSV ('' for none)."""
    if seconds is None:
        return ""
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds")


def _cell(text: str) -> str:
    """Text a spreadsheet would read as a formula (``-A1``), kept as text with a quote.

    >>> _cell("-A1"), _cell("ann")
    ("'-A1", 'ann')
    """
    return f"'{text}" if text[:1] in ("=", "+", "-", "@") else text


def ledger_csv(lines: list[LedgerLine]) -> str:
    """The session ledger as CSV, one row a player.

    >>> print(ledger_csv([LedgerLine(3, "ann", 0.0, None, 200, 0, 260, 60)]).strip())
    player_nickname,player_id,session_start_at,session_end_at,buy_in,buy_out,stack,net
    ann,3,1970-01-01T00:00:00+00:00,,200,0,260,60
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for line in lines:
        writer.writerow(
            [_cell(line.username), line.user_id, _time(line.start), _time(line.end), line.buy_in,
             line.buy_out, line.stack, line.net]
        )  # fmt: skip
    return out.getvalue()


def _one_password_at_a_time() -> Response:
    return problem(429, "rate_limited", "one password at a time", **{"Retry-After": "1"})


#: Opening with no password hashes nothing: no turn to wait for.
_NO_HASH: contextlib.AbstractAsyncContextManager[None] = contextlib.nullcontext()


class PrivateApi:
    """The handlers, over the store's private tables and the room."""

    def __init__(self, api: HttpContext) -> None:
        self.api = api
        self.site = api.site
        # Every open and every join counts, refused or not: each may cost a password hash
        # and a write, so none is free to repeat (per player and per address).
        self.opens = (RateLimit(*OPENS.address), RateLimit(*OPENS.player))
        self.joins = (RateLimit(*JOINS.address), RateLimit(*JOINS.player))

    @staticmethod
    def _limited(limit: RateLimit, key: str) -> Response | None:
        """``429`` if ``key`` (an address, a player's id) has spent ``limit``'s budget."""
        if limit.allow(key):
            return None
        wait = str(math.ceil(1 / limit.rate))
        return problem(
            429, "rate_limited", f"too many at once: wait {wait} s", **{"Retry-After": wait}
        )

    async def _person(self, request: Request) -> User | Response:
        user = await self.api.user(request)
        if user is None:
            return problem(401, "login_required", "sign in first")
        if user.is_bot:
            return problem(403, "people_only", "private tables are for people to play together")
        return user

    async def _posted(
        self, request: Request, schema: type[T], limits: tuple[RateLimit, RateLimit]
    ) -> tuple[User, T] | Response:
        """A person's state-changing request (CSRF checked) and its body, or the refusal.
        Each one takes from the budget of its address (``limits[0]``, before anything is
        looked up: a flood of them is refused cheaply) and of its player (``limits[1]``),
        refused or not."""
        by_address, by_player = limits
        refused = self._limited(by_address, client_address(request))
        if refused is not None:
            return refused
        user = await self._person(request)
        if isinstance(user, Response):
            return user
        refused = self._limited(by_player, str(user.id))
        if refused is not None:
            return refused
        try:
            return user, await read_json(request, schema)
        except BadRequest as error:
            return error.answer()

    async def _at_table(self, request: Request) -> tuple[User, int, PrivateState] | Response:
        """The signed-in person, the table and its state, if they are at it (host or guest)."""
        user = await self._person(request)
        if isinstance(user, Response):
            return user
        missing = problem(
            404,
            "unknown_table",
            f"there is no private table {request.path_params['table_id']}"[:80],
        )
        path = read_path(request.path_params, TablePath)
        if path is None:
            return missing
        table_id = path.table_id
        try:
            state = await self.site.store.private.state(table_id)
        except TableBookError:
            return missing
        guests = {m.user_id for m in state.members if m.status in ("asked", "approved")}
        if user.id != state.host and user.id not in guests:
            # Not a word on whether it exists: a stranger (or one removed) finds nothing.
            return missing
        return user, table_id, state

    async def open(self, request: Request) -> TableOpened | Response:
        """``POST /api/private-tables``: a new table, and its invitation shown this once."""
        posted = await self._posted(request, NewTable, self.opens)
        if isinstance(posted, Response):
            return posted
        user, body = posted
        config = TableConfig(
            body.name, body.game, body.options, body.seats, body.min_buy_in, body.max_buy_in,
            max_boxes=body.max_boxes, bots=body.bots, decision_seconds=body.decision_seconds,
            approve_seats=body.approve_seats,
        )  # fmt: skip
        address = client_address(request)
        hashing = self.api.hashing
        turn = hashing.turn(address, side=True) if body.password is not None else _NO_HASH
        try:
            async with turn:
                store = self.site.store
                table, token = await store.private.open(user, config, password=body.password)
        except HashesBusy:
            return _one_password_at_a_time()
        except TableBookError as error:
            status = 409 if error.code == "too_many_tables" else 400
            return problem(status, error.code, str(error))
        await self.site.room.open_private(table)
        found = table.config
        return TableOpened(table.id, found.name, found.game, token)

    async def list(self, request: Request) -> PrivateTables | Response:
        """``GET /api/private-tables``: the open ones the person hosts or came to."""
        user = await self._person(request)
        if isinstance(user, Response):
            return user
        store = self.site.store
        found = []
        for table_id in await store.private.tables_of(user):
            table = await store.tables.get(table_id)
            state = await store.private.state(table_id)
            host = await store.users.get(state.host)
            config = table.config
            mine = state.host == user.id
            found.append(
                PrivateTableLine(
                    table_id, config.name, config.game, host.username, mine, state.paused
                )
            )
        return PrivateTables(found)

    async def one(self, request: Request) -> PrivateTable | Response:
        """``GET /api/private-tables/{id}``: settings, state, and the guests for the host."""
        found = await self._at_table(request)
        if isinstance(found, Response):
            return found
        user, table_id, state = found
        store = self.site.store
        table = await store.tables.get(table_id)
        host = await store.users.get(state.host)
        body = PrivateTable(
            id=table_id,
            name=table.config.name,
            game=table.config.game,
            host=host.username,
            mine=state.host == user.id,
            approve_seats=state.approve_seats,
            password=state.password,
            paused=state.paused,
            closed=state.closed_at is not None,
        )
        if state.host == user.id:
            body.guests = [GuestLine(m.username, m.status) for m in state.members]
        else:
            body.standing = next(m.status for m in state.members if m.user_id == user.id)
        return body

    async def invite(self, request: Request) -> NewInvitation | Response:
        """``POST /api/private-tables/{id}/invitation``: a new link; the old one ends."""
        found = await self._at_table(request)
        if isinstance(found, Response):
            return found
        user, table_id, state = found
        if user.id != state.host:
            return problem(403, "not_host", "only the table's host invites")
        token = await self.site.store.private.new_invitation(table_id)
        return NewInvitation(table_id, token)

    async def ledger(self, request: Request) -> SessionLedger | Response:
        """``GET /api/private-tables/{id}/ledger``: the session ledger (``?format=csv``)."""
        found = await self._at_table(request)
        if isinstance(found, Response):
            return found
        _, table_id, _ = found
        try:
            wanted = read_query(request.query_params, LedgerFormat).format
        except BadQuery as error:
            return problem(400, error.code, str(error))
        lines = await self.site.store.private.ledger(table_id)
        if wanted == "csv":
            return Response(
                ledger_csv(lines),
                media_type="text/csv; charset=utf-8",
                headers={
                    "Content-Disposition": f'attachment; filename="table-{table_id}-ledger.csv"'
                },
            )
        players = [msgspec.convert(line, SessionLine, from_attributes=True) for line in lines]
        return SessionLedger(table_id, players)

    async def stakes(self, request: Request) -> PrivateStakes:
        """``GET /api/private-tables/stakes``: each game's stakes, what a host chooses
        besides, and the room's limits."""
        return PrivateStakes(
            games={
                game: [StakeLevel(name, options, list(buy_in)) for name, options, buy_in in levels]
                for game, levels in STAKES.items()
            },
            host_chooses={game: list(fields) for game, fields in HOST_CHOOSES.items()},
            limits=msgspec.convert(LIMITS, PrivateLimits),
        )

    async def invitation(self, request: Request) -> InvitationShown | Response:
        """``POST /api/invitations/look``: what the link invites to."""
        try:
            body = await read_json(request, Look)
            found = await self.site.store.private.invitation(body.token)
        except BadRequest as error:
            return error.answer()
        except TableBookError as error:
            return problem(404, error.code, str(error))
        return msgspec.convert(found, InvitationShown, from_attributes=True)

    async def join(self, request: Request) -> Joined | Response:
        """``POST /api/invitations/join``: come to the table (approved, or asking)."""
        posted = await self._posted(request, Join, self.joins)
        if isinstance(posted, Response):
            return posted
        user, body = posted
        address = client_address(request)
        # A table's password is guessed no faster than a player's: one budget an address
        # and one a player and link, counted before the hash runs (as at login).
        key = f"join:{user.id}:{invite_hash(body.token)[:24]}"
        api = self.api
        try:
            wait = max(await api.logins.wait(key), await api.addresses.wait(address))
            if wait > 0:
                return problem(
                    429, "rate_limited", f"too many wrong passwords: wait {math.ceil(wait)} s",
                    **{"Retry-After": str(math.ceil(wait))},
                )  # fmt: skip
            await api.logins.attempt(key)
            await api.addresses.attempt(address)
        except ThrottleUnavailable:
            return problem(503, "room_unavailable", "try again soon", **{"Retry-After": "5"})
        try:
            async with api.hashing.turn(address, side=True):
                private = self.site.store.private
                table_id, member = await private.join(body.token, user, body.password)
        except HashesBusy:
            return _one_password_at_a_time()
        except TableBookError as error:
            status = {"not_invited": 404, "wrong_password": 403}.get(error.code, 409)
            return problem(status, error.code, str(error))
        try:
            await api.logins.succeeded(key)
            await api.addresses.undo(address)
        except ThrottleUnavailable:
            pass  # joined all the same; the count lapses by itself
        return Joined(table_id, member.status)


#: What a private table's endpoints refuse whoever they are: people only, signed in.
PEOPLE = (
    LOGIN_REQUIRED,
    Refusal(403, ("people_only",), "A bot account: private tables are for people."),
)
#: A table one is not at is none: not a word on whether it exists.
NOT_AT_IT = Refusal(
    404, ("unknown_table",), "No such table, or not one the person is at (host or guest)."
)
#: The budgets of opens and joins (per address and per player, refused or not).
TOO_MANY = Refusal(
    429,
    ("rate_limited",),
    "Too many at once, or one password at a time (see Retry-After).",
    ("Retry-After",),
)

ROUTES = Routes(
    "private tables",
    PrivateApi,
    (
        Entry(
            "GET",
            "/api/private-tables",
            PrivateApi.list,
            "The open private tables the person hosts or came to",
            answer=PrivateTables,
            answered="Each with its id, name, game, host, whether it is theirs, paused.",
            refusals=PEOPLE,
        ),
        Entry(
            "POST",
            "/api/private-tables",
            PrivateApi.open,
            "Open a private table (a home game)",
            body=NewTable,
            answer=TableOpened,
            status=201,
            csrf=True,
            answered="The table, and its invitation token shown this once.",
            refusals=(
                *PEOPLE,
                Refusal(400, ("bad_table", "over_limit"), "Not a table the room's limits allow."),
                Refusal(409, ("too_many_tables",), "The host keeps as many open as they may."),
                TOO_MANY,
            ),
        ),
        Entry(
            "GET",
            "/api/private-tables/stakes",
            PrivateApi.stakes,
            "The stakes a private table may play, and the room's limits",
            answer=PrivateStakes,
            answered="Each game's levels (name, options, buy-in range).",
        ),
        Entry(
            "GET",
            "/api/private-tables/{table_id:int}",
            PrivateApi.one,
            "A private table's settings and state; its guests, for the host",
            params=TablePath,
            answer=PrivateTable,
            answered="The table as its host or a guest sees it.",
            refusals=(*PEOPLE, NOT_AT_IT),
        ),
        Entry(
            "POST",
            "/api/private-tables/{table_id:int}/invitation",
            PrivateApi.invite,
            "A new invitation link; the old one stops working",
            params=TablePath,
            answer=NewInvitation,
            csrf=True,
            answered="The new token.",
            refusals=(*PEOPLE, NOT_AT_IT, Refusal(403, ("not_host",), "Only the host invites.")),
        ),
        Entry(
            "GET",
            "/api/private-tables/{table_id:int}/ledger",
            PrivateApi.ledger,
            "The session ledger: buy-ins, cash-outs, stacks and net per player",
            params=TablePath,
            query=LedgerFormat,
            answer=SessionLedger,
            texts=("text/csv",),
            answered="JSON, or CSV with ?format=csv.",
            refusals=(*PEOPLE, NOT_AT_IT),
        ),
        Entry(
            "POST",
            "/api/invitations/look",
            PrivateApi.invitation,
            "What an invitation link invites to (the token in the body)",
            body=Look,
            answer=InvitationShown,
            answered="The table, its host, whether it asks a password.",
            refusals=(Refusal(404, ("not_invited",), "Not an invitation the room made."),),
        ),
        Entry(
            "POST",
            "/api/invitations/join",
            PrivateApi.join,
            "Come to a private table by its invitation",
            body=Join,
            answer=Joined,
            csrf=True,
            answered="Approved, or asked to wait for the host.",
            refusals=(
                *PEOPLE,
                Refusal(403, ("wrong_password",), "The table's password is not that."),
                Refusal(404, ("not_invited",), "Not an invitation the room made."),
                Refusal(409, ("removed", "table_closed"), "Removed by the host, or closed."),
                TOO_MANY,
                Refusal(
                    503,
                    ("room_unavailable",),
                    "Guesses cannot be counted now (see Retry-After).",
                    ("Retry-After",),
                ),
            ),
        ),
    ),
)
