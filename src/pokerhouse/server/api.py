"""The HTTP API: accounts, the lobby, histories, the ledger, health.

Every request body is JSON, decoded once into a typed schema; anything else
gets ``400`` with ``{"code", "message"}`` and changes nothing. A failed login
answers ``401 login_failed`` whatever was wrong, so it tells a guesser
nothing. State-changing requests need the CSRF header (see :mod:`.auth`).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Annotated, Any

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from pokerhouse.engine.hand import Hand
from pokerhouse.errors import PokerError
from pokerhouse.history.json_history import Viewer
from pokerhouse.history.json_history import record as history_record
from pokerhouse.history.phh import to_phh
from pokerhouse.history.replay import replay
from pokerhouse.history.text import to_text
from pokerhouse.server import auth
from pokerhouse.server.paging import MAX_ID, BadPage, read_page
from pokerhouse.server.site import Site
from pokerhouse.server.throttles import ThrottleUnavailable
from pokerhouse.store import AccountError, IdempotencyConflict, StoreError, User
from pokerhouse.store import HandRecord as StoredHand
from pokerhouse.store.users import HASHES_AT_ONCE, username_key

#: Wallet plus seats below which a player may ask for a top-up (RULES.md, Chips).
TOP_UP_BELOW = 1000
TOP_UP_EVERY = 3600.0
#: The largest request body read, in bytes; a larger one is refused before it is all read.
MAX_BODY = 4096
#: The ``?format=`` of ``GET /api/hands/{id}``.
HAND_FORMATS = ("json", "text", "phh")
#: ``?limit=`` of ``GET /api/me/hands``: the default and the most.
HANDS_PAGE = (200, 200)
#: ``?limit=`` of ``GET /api/me/ledger``: the default and the most.
LEDGER_PAGE = (500, 500)


class Credentials(msgspec.Struct, forbid_unknown_fields=True):
    """``{"username", "password"}`` for register and login."""

    username: Annotated[str, msgspec.Meta(max_length=64)]
    password: Annotated[str, msgspec.Meta(max_length=1024)]


def problem(status: int, code: str, message: str, **headers: str) -> JSONResponse:
    """An error response: ``{"code", "message"}`` with ``status``."""
    return JSONResponse({"code": code, "message": message}, status_code=status, headers=headers)


async def read_json(request: Request, schema: type[msgspec.Struct]) -> Any:
    """The request body decoded into ``schema``; raises :class:`BadRequest`."""
    body = await read_body(request)
    try:
        return msgspec.json.decode(body, type=schema)
    except msgspec.ValidationError as error:
        raise BadRequest(400, "bad_request", str(error)) from None
    except msgspec.DecodeError:
        raise BadRequest(400, "bad_json", "the body must be one JSON object") from None
    except RecursionError:  # JSON nested past the decoder's recursion limit
        raise BadRequest(400, "too_deep", "the body is JSON nested too deep") from None


async def read_body(request: Request, limit: int = MAX_BODY) -> bytes:
    """The body, read no further than ``limit`` bytes (a liar's Content-Length included)."""
    too_large = BadRequest(413, "body_too_large", f"a request body is at most {limit} bytes")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise too_large
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise too_large
    return bytes(body)


def login_key(username: str) -> str:
    """The key a login attempt is counted under: the account's, whatever the spelling.

    The store finds an account by the NFKC, case-folded form of its name, so
    every spelling that reaches one account (``Carol``, fullwidth
    ``\uff23arol``, mathematical bold letters) shares one budget of guesses.

    >>> login_key("CAROL") == login_key("\uff43\uff41\uff52\uff4f\uff4c") == login_key("carol")
    True
    >>> login_key("no such name!")
    '?no such name!'
    """
    try:
        return username_key(username)[1]
    except AccountError:  # no account has this name: a key of its own, never an account's
        return "?" + username.casefold()[:64]


def client_address(request: Request) -> str:
    """The address a request comes from (the proxy's, unless the room trusts it)."""
    return request.client.host if request.client else "?"


@dataclass(frozen=True)
class HandCopy:
    """A stored hand and the viewer whose copy of it an answer is built from."""

    found: StoredHand
    hand: Hand
    viewer: Viewer
    mine: list[int]
    names: list[str]
    #: Whether each hand seat's player is a bot (a house bot or a bot account).
    bots: list[bool]

    def document(self) -> dict[str, Any]:
        """The viewer's JSON history: other players' unshown cards are null in it."""
        return history_record(self.hand, self.viewer).to_dict()

    def about(self) -> dict[str, Any]:
        """The hand's facts around its history: table, number, players, the viewer's seats."""
        found = self.found
        return {
            "id": found.id,
            "table": found.table_id,
            "number": found.number,
            "status": found.status,
            "players": [
                {
                    "hand_seat": i,
                    "table_seat": seat.table_seat,
                    "name": self.names[i],
                    "bot": self.bots[i],
                }
                for i, seat in enumerate(found.seats)
            ],
            "you": self.mine[0] if self.mine else None,
            "yours": self.mine,
        }


class BadRequest(Exception):
    """A request refused before anything was done."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code


class Api:
    """The HTTP handlers, over the site's store and room."""

    def __init__(self, site: Site) -> None:
        self.site = site
        self.logins = site.logins
        self.addresses = site.addresses
        self.hashing = auth.HashGate(HASHES_AT_ONCE, site.settings.hashes_per_address)

    # ------------------------------------------------------------ helpers

    async def user(self, request: Request) -> User | None:
        """The signed-in user of a request, from its API token (:mod:`.bearer`) or else its
        session cookie."""
        bearer: User | None = getattr(request.state, "bearer", None)
        if bearer is not None:  # signed in by its token (:class:`.bearer.BearerAuth`)
            return bearer
        token = request.cookies.get(auth.SESSION_COOKIE)
        if not token:
            return None
        try:
            return await self.site.store.user_for_session(token)
        except StoreError:
            return None

    def guard(self, request: Request) -> JSONResponse | None:
        """Refuse a state-changing request from another site or without the CSRF header
        (a request with an API token needs neither: no browser sends one by itself)."""
        if getattr(request.state, "bearer", None) is not None:
            return None
        scheme = request.url.scheme
        if not auth.same_origin(request.headers.get("origin"), request.headers.get("host"), scheme):
            return problem(403, "bad_origin", "this request comes from another site")
        if not auth.csrf_ok(request.cookies, request.headers):
            return problem(
                403, "csrf", f"send the {auth.CSRF_COOKIE} cookie's value as X-CSRF-Token"
            )
        return None

    def _session_response(
        self, request: Request, body: dict[str, Any], token: str, status: int
    ) -> JSONResponse:
        response = JSONResponse(body, status_code=status)
        secure = request.url.scheme == "https"
        response.set_cookie(
            auth.SESSION_COOKIE, token, max_age=30 * 24 * 3600, httponly=True,
            samesite="lax", secure=secure, path="/",
        )  # fmt: skip
        # A new session gets a new CSRF token too (nothing from before login carries over).
        response.set_cookie(
            auth.CSRF_COOKIE, auth.new_csrf_token(), max_age=30 * 24 * 3600, httponly=False,
            samesite="strict", secure=secure, path="/",
        )  # fmt: skip
        return response

    async def _me(self, user: User) -> dict[str, Any]:
        store = self.site.store
        statement = await store.ledger_statement(user, limit=1)
        seats = []
        tasks = self.site.room.tasks
        for table_id, task in tasks.items():
            if task.fenced or task.tournament:
                continue  # another node's: from the store, below; a tournament's: its chips
            for seat in sorted(task.table.seats_of_account(user.id)):
                info = task.table.seat(seat)
                seats.append({"table": table_id, "seat": seat, "stack": info.stack if info else 0})
        if any(task.fenced for task in tasks.values()):
            for row in await store.user_seats(user):
                elsewhere = tasks.get(row.table_id)
                if elsewhere is not None and elsewhere.fenced:
                    seats.append({"table": row.table_id, "seat": row.seat, "stack": row.stack})
            seats.sort(key=lambda seat: (seat["table"], seat["seat"]))
        return {
            "username": user.username,
            # A bot account (played with a token) or a house bot: marked wherever named.
            "bot": user.is_bot,
            "wallet": statement.wallet,
            "in_play": sum(statement.in_play.values()),
            "seats": seats,
        }

    # ------------------------------------------------------------ accounts

    async def csrf(self, request: Request) -> Response:
        """``GET /api/csrf``: a CSRF cookie for a page that has none yet."""
        token = request.cookies.get(auth.CSRF_COOKIE) or auth.new_csrf_token()
        response = JSONResponse({"csrf": token})
        response.set_cookie(
            auth.CSRF_COOKIE, token, max_age=30 * 24 * 3600, httponly=False,
            samesite="strict", secure=request.url.scheme == "https", path="/",
        )  # fmt: skip
        return response

    async def register(self, request: Request) -> Response:
        """``POST /api/register``: a new account with its chip grant, signed in."""
        refused = self.guard(request)
        if refused is not None:
            return refused
        address = client_address(request)
        try:
            body = await read_json(request, Credentials)
        except BadRequest as error:
            return problem(error.status, error.code, str(error))
        try:
            turn = self.hashing.turn(address)
        except auth.HashesBusy:
            return self._hashing_refused()
        store = self.site.store
        settings = self.site.settings
        try:
            async with turn:
                # The sign-ups per address are counted in the database, with the account.
                user = await store.create_user(
                    body.username,
                    body.password,
                    grant=settings.grant,
                    address=address,
                    per_hour=settings.registrations_per_hour,
                )
            token = await store.create_session(user)
        except AccountError as error:
            status = {"username_taken": 409, "rate_limited": 429}.get(error.code, 400)
            return problem(status, error.code, str(error))
        return self._session_response(request, await self._me(user), token, 201)

    def _hashing_refused(self) -> JSONResponse:
        return problem(
            429, "rate_limited", "too many logins or sign-ups at once from here: wait a second",
            **{"Retry-After": "1"},
        )  # fmt: skip

    async def login(self, request: Request) -> Response:
        """``POST /api/login``: a session for the right username and password."""
        refused = self.guard(request)
        if refused is not None:
            return refused
        try:
            body = await read_json(request, Credentials)
        except BadRequest as error:
            return problem(error.status, error.code, str(error))
        address = client_address(request)
        account = login_key(body.username)
        try:
            wait = max(await self.logins.wait(account), await self.addresses.wait(address))
        except ThrottleUnavailable:
            return self._throttles_unavailable()
        if wait > 0:
            return problem(
                429, "rate_limited", f"too many failed logins: wait {math.ceil(wait)} s",
                **{"Retry-After": str(math.ceil(wait))},
            )  # fmt: skip
        try:
            turn = self.hashing.turn(address)
        except auth.HashesBusy:
            return self._hashing_refused()
        store = self.site.store
        try:
            async with turn:
                # Counted before the hash runs: guesses sent at once all find it raised.
                await self.logins.attempt(account)
                await self.addresses.attempt(address)
                user = await store.authenticate(body.username, body.password)
        except ThrottleUnavailable:
            return self._throttles_unavailable()
        except AccountError:
            return problem(401, "login_failed", "unknown user or wrong password")
        try:
            await self.logins.succeeded(account)
            await self.addresses.undo(address)
        except ThrottleUnavailable:
            return self._throttles_unavailable()
        token = await store.create_session(user)
        old = request.cookies.get(auth.SESSION_COOKIE)
        if old:
            await store.end_session(old)  # a new token at every login
            self.site.session_ended(old)
        return self._session_response(request, await self._me(user), token, 200)

    def _throttles_unavailable(self) -> JSONResponse:
        # Refused rather than unthrottled: guesses are never let through uncounted.
        return problem(
            503, "room_unavailable", "logins cannot be checked now: try again soon",
            **{"Retry-After": "5"},
        )  # fmt: skip

    async def logout(self, request: Request) -> Response:
        """``POST /api/logout``: end the session."""
        refused = self.guard(request)
        if refused is not None:
            return refused
        token = request.cookies.get(auth.SESSION_COOKIE)
        if token:
            await self.site.store.end_session(token)
            self.site.session_ended(token)
        response = JSONResponse({"ok": True})
        response.delete_cookie(auth.SESSION_COOKIE, path="/")
        return response

    async def me(self, request: Request) -> Response:
        """``GET /api/me``: the signed-in player, wallet and seats."""
        user = await self.user(request)
        if user is None:
            return problem(401, "login_required", "sign in first")
        return JSONResponse(await self._me(user))

    async def top_up(self, request: Request) -> Response:
        """``POST /api/me/top-up``: play money again, when the wallet and seats run low."""
        refused = self.guard(request)
        if refused is not None:
            return refused
        user = await self.user(request)
        if user is None:
            return problem(401, "login_required", "sign in first")
        me = await self._me(user)
        held = me["wallet"] + sum(seat["stack"] for seat in me["seats"])
        if held >= TOP_UP_BELOW:
            return problem(
                409, "not_low", f"a top-up is for fewer than {TOP_UP_BELOW} chips in all"
            )
        amount = self.site.settings.grant - held
        try:
            # The hour is kept in the ledger (the wallet's last top-up), checked and
            # posted in one transaction: a restart forgets nothing, and two at once pay once.
            await self.site.store.top_up_wallet(user, amount, every=TOP_UP_EVERY)
        except AccountError as error:
            return problem(429, error.code, str(error))
        except IdempotencyConflict:  # another top-up of another amount, at the same moment
            return problem(429, "rate_limited", "one top-up an hour")
        return JSONResponse(await self._me(user))

    # ------------------------------------------------------------ the room

    async def tables(self, request: Request) -> Response:
        """``GET /api/tables``: the lobby."""
        return JSONResponse({"tables": self.site.room.lobby()})

    async def my_hands(self, request: Request) -> Response:
        """``GET /api/me/hands``: the player's hands, newest first (``?limit=``, ``?before=``).

        ``next`` is the ``before`` of the page after this one, or null: no older hands.
        """
        user = await self.user(request)
        if user is None:
            return problem(401, "login_required", "sign in first")
        try:
            page = read_page(request.query_params, default=HANDS_PAGE[0], most=HANDS_PAGE[1])
        except BadPage as error:
            return problem(400, error.code, str(error))
        # One hand past the page tells whether an older page exists.
        hands = await self.site.store.user_hands(user, limit=page.limit + 1, before=page.before)
        shown = hands[: page.limit]
        return JSONResponse(
            {
                "hands": [msgspec.to_builtins(hand) for hand in shown],
                "next": shown[-1].id if len(hands) > page.limit else None,
            }
        )

    async def my_ledger(self, request: Request) -> Response:
        """``GET /api/me/ledger``: the wallet's statement with running balances.

        ``?limit=`` lines ending before entry ``?before=``; ``next`` is the
        ``before`` of the older page, or null when this page starts the statement.
        """
        user = await self.user(request)
        if user is None:
            return problem(401, "login_required", "sign in first")
        try:
            page = read_page(request.query_params, default=LEDGER_PAGE[0], most=LEDGER_PAGE[1])
        except BadPage as error:
            return problem(400, error.code, str(error))
        statement = await self.site.store.ledger_statement(
            user, limit=page.limit, before=page.before
        )
        return JSONResponse(
            {
                "username": statement.username,
                "wallet": statement.wallet,
                "in_play": {str(k): v for k, v in statement.in_play.items()},
                "lines": [
                    {
                        "entry": line.entry_id,
                        "transaction": line.transaction_id,
                        "kind": str(line.kind),
                        "memo": line.memo,
                        "at": line.created_at,
                        "amount": line.amount,
                        "balance": line.balance,
                    }
                    for line in statement.lines
                ],
                "next": statement.older,
            }
        )

    async def hand_copy(self, request: Request) -> HandCopy | Response:
        """The hand ``{hand_id}`` of the path as this user may see it, or the refusal.

        A player dealt in gets their own copy (every box they held); anyone
        else the spectator's, once the hand is over. Every answer about a
        hand (its history in each format, its equity) is built from this copy.
        """
        try:
            hand_id = int(request.path_params["hand_id"])
        except ValueError:
            return problem(404, "unknown_hand", "no such hand")
        if not 1 <= hand_id <= MAX_ID:
            return problem(404, "unknown_hand", "no such hand")  # past what the database holds
        store = self.site.store
        try:
            found = await store.get_hand(hand_id)
        except StoreError:
            return problem(404, "unknown_hand", "no such hand")
        user = await self.user(request)
        mine = [
            index
            for index, seat in enumerate(found.seats)
            if user is not None and seat.user_id == user.id
        ]
        if not mine and not await self._may_read(found.table_id, user):
            return problem(404, "unknown_hand", "no such hand")  # a private table's: not a word
        if found.status == "running":
            # Its players see it at the table; its history is written when it ends.
            return problem(403, "hand_running", "a hand's history opens when the hand ends")
        if found.history is None:
            return problem(
                409, "no_history", f"hand {found.number} has no history ({found.status})"
            )
        try:
            hand = replay(found.history)
        except PokerError:
            return problem(500, "bad_history", "this hand's history does not replay")
        # A player with several boxes sees every one of them: one viewer, many seats.
        viewer: Viewer = None if not mine else mine[0] if len(mine) == 1 else frozenset(mine)
        names, bots = [], []
        for seat in found.seats:
            try:
                player = await store.get_user(seat.user_id)
            except AccountError:
                names.append(f"Seat {seat.table_seat + 1}")
                bots.append(False)
            else:
                names.append(player.username)
                bots.append(player.is_bot)
        return HandCopy(found, hand, viewer, mine, names, bots)

    async def _may_read(self, table_id: int, user: User | None) -> bool:
        """Whether ``user`` may read a hand of ``table_id`` they were not dealt in: anyone at
        a public table; at a private one, its host and guests only."""
        table = await self.site.store.get_table(table_id)
        host = table.config.host
        if host is None:
            return True
        if user is None:
            return False
        if user.id == host:
            return True
        return await self.site.store.private.standing(table_id, user.id) in ("asked", "approved")

    async def hand(self, request: Request) -> Response:
        """``GET /api/hands/{id}``: a hand's history as this user may see it (``?format=``)."""
        fmt = request.query_params.get("format", "json")
        if fmt not in HAND_FORMATS:
            return problem(400, "bad_format", "format is json, text or phh")
        copy = await self.hand_copy(request)
        if isinstance(copy, Response):
            return copy
        found, hand, viewer, names = copy.found, copy.hand, copy.viewer, copy.names
        if fmt == "text":
            # One player's boxes are told apart by their seats (the text needs distinct names).
            printed = names
            if len(set(names)) < len(names):
                printed = [
                    f"{name} (box {seat.table_seat + 1})"
                    for name, seat in zip(names, found.seats, strict=True)
                ]
            # Seats as the table numbers them, as the page and the lobby do.
            seats = [seat.table_seat for seat in found.seats]
            return PlainTextResponse(to_text(hand, viewer, names=printed, seats=seats))
        if fmt == "phh":
            if hand.game != "razz":
                return problem(400, "no_phh", f"PHH is written for Razz only, not for {hand.game}")
            # The viewer's copy only: another seat's hidden cards are written "??".
            text = to_phh(hand, seat=viewer, players=names, table=found.table_id, hand=found.number)
            return PlainTextResponse(text, media_type="application/toml")
        return JSONResponse({**copy.about(), "history": copy.document()})

    async def health(self, request: Request) -> Response:
        """``GET /healthz``: the database answers and every table this node runs takes
        actions (the tables other nodes run are listed, not counted against it; a
        private table is counted, never named).

        A read alone would not do: a SQLite file locked by another process or
        on a full disk still reads, yet no table can save anything; a table
        that lost its database is not available until it has reloaded.
        """
        try:
            await self.site.store.last_hand_number(1)  # one small read: the database answers
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


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))
