"""Accounts over HTTP: signing up and in, sessions, the player's wallet and statement.

- ``GET /api/csrf``: a CSRF cookie for a page that has none yet;
- ``POST /api/register``, ``POST /api/login``, ``POST /api/logout``;
- ``GET /api/me``: the signed-in player, wallet and seats;
- ``POST /api/me/top-up``: play money again, when the wallet and seats run low;
- ``GET /api/me/ledger``: the wallet's statement with running balances.

A failed login answers ``401 login_failed`` whatever was wrong, so it tells a
guesser nothing.
"""

from __future__ import annotations

import math
from typing import Annotated, Any

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from pokerhouse.server.http import auth
from pokerhouse.server.http.context import HttpContext
from pokerhouse.server.http.hash_gate import HashesBusy
from pokerhouse.server.http.paging import BadPage, read_page
from pokerhouse.server.http.problems import BadRequest, client_address, problem, read_json
from pokerhouse.server.http.shared_limits import ThrottleUnavailable
from pokerhouse.store import AccountError, IdempotencyConflict, User
from pokerhouse.store.users import username_key

#: Wallet plus seats below which a player may ask for a top-up (RULES.md, Chips).
TOP_UP_BELOW = 1000
TOP_UP_EVERY = 3600.0
#: ``?limit=`` of ``GET /api/me/ledger``: the default and the most.
LEDGER_PAGE = (500, 500)


class Credentials(msgspec.Struct, forbid_unknown_fields=True):
    """``{"username", "password"}`` for register and login."""

    username: Annotated[str, msgspec.Meta(max_length=64)]
    password: Annotated[str, msgspec.Meta(max_length=1024)]


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


def routes(api: HttpContext) -> list[Route]:
    """The endpoints' routes, for the API's mount."""
    handlers = AccountsApi(api)
    return [
        Route("/csrf", handlers.csrf),
        Route("/register", handlers.register, methods=["POST"]),
        Route("/login", handlers.login, methods=["POST"]),
        Route("/logout", handlers.logout, methods=["POST"]),
        Route("/me", handlers.me),
        Route("/me/ledger", handlers.my_ledger),
        Route("/me/top-up", handlers.top_up, methods=["POST"]),
    ]


class AccountsApi:
    """The handlers, over the store's accounts and ledger."""

    def __init__(self, api: HttpContext) -> None:
        self.api = api
        self.site = api.site

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
        statement = await store.ledger.statement(user, limit=1)
        seats = []
        tasks = self.site.room.tasks
        for table_id, task in tasks.items():
            if task.fenced or task.tournament:
                continue  # another node's: from the store, below; a tournament's: its chips
            for seat in sorted(task.table.seats_of_account(user.id)):
                info = task.table.seat(seat)
                seats.append({"table": table_id, "seat": seat, "stack": info.stack if info else 0})
        if any(task.fenced for task in tasks.values()):
            for row in await store.tables.seats_of(user):
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
        refused = self.api.guard(request)
        if refused is not None:
            return refused
        address = client_address(request)
        try:
            body = await read_json(request, Credentials)
        except BadRequest as error:
            return problem(error.status, error.code, str(error))
        store = self.site.store
        settings = self.site.settings
        try:
            async with self.api.hashing.turn(address):
                # The sign-ups per address are counted in the database, with the account.
                user = await store.users.create(
                    body.username,
                    body.password,
                    grant=settings.grant,
                    address=address,
                    per_hour=settings.registrations_per_hour,
                )
            token = await store.users.new_session(user)
        except HashesBusy:
            return self._hashing_refused()
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
        refused = self.api.guard(request)
        if refused is not None:
            return refused
        try:
            body = await read_json(request, Credentials)
        except BadRequest as error:
            return problem(error.status, error.code, str(error))
        address = client_address(request)
        account = login_key(body.username)
        try:
            wait = max(await self.api.logins.wait(account), await self.api.addresses.wait(address))
        except ThrottleUnavailable:
            return self._throttles_unavailable()
        if wait > 0:
            return problem(
                429, "rate_limited", f"too many failed logins: wait {math.ceil(wait)} s",
                **{"Retry-After": str(math.ceil(wait))},
            )  # fmt: skip
        hashing = self.api.hashing
        if hashing.busy(address):
            return self._hashing_refused()
        store = self.site.store
        try:
            # Counted before the hash waits its turn, let alone runs: guesses sent at once
            # all find the count raised.
            await self.api.logins.attempt(account)
            await self.api.addresses.attempt(address)
            async with hashing.turn(address):
                user = await store.users.authenticate(body.username, body.password)
        except HashesBusy:
            return self._hashing_refused()
        except ThrottleUnavailable:
            return self._throttles_unavailable()
        except AccountError:
            return problem(401, "login_failed", "unknown user or wrong password")
        try:
            await self.api.logins.succeeded(account)
            await self.api.addresses.undo(address)
        except ThrottleUnavailable:
            return self._throttles_unavailable()
        token = await store.users.new_session(user)
        old = request.cookies.get(auth.SESSION_COOKIE)
        if old:
            await store.users.end_session(old)  # a new token at every login
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
        refused = self.api.guard(request)
        if refused is not None:
            return refused
        token = request.cookies.get(auth.SESSION_COOKIE)
        if token:
            await self.site.store.users.end_session(token)
            self.site.session_ended(token)
        response = JSONResponse({"ok": True})
        response.delete_cookie(auth.SESSION_COOKIE, path="/")
        return response

    async def me(self, request: Request) -> Response:
        """``GET /api/me``: the signed-in player, wallet and seats."""
        user = await self.api.user(request)
        if user is None:
            return problem(401, "login_required", "sign in first")
        return JSONResponse(await self._me(user))

    async def top_up(self, request: Request) -> Response:
        """``POST /api/me/top-up``: play money again, when the wallet and seats run low."""
        refused = self.api.guard(request)
        if refused is not None:
            return refused
        user = await self.api.user(request)
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
            await self.site.store.ledger.player_top_up(user, amount, every=TOP_UP_EVERY)
        except AccountError as error:
            return problem(429, error.code, str(error))
        except IdempotencyConflict:  # another top-up of another amount, at the same moment
            return problem(429, "rate_limited", "one top-up an hour")
        return JSONResponse(await self._me(user))

    async def my_ledger(self, request: Request) -> Response:
        """``GET /api/me/ledger``: the wallet's statement with running balances.

        ``?limit=`` lines ending before entry ``?before=``; ``next`` is the
        ``before`` of the older page, or null when this page starts the statement.
        """
        user = await self.api.user(request)
        if user is None:
            return problem(401, "login_required", "sign in first")
        try:
            page = read_page(request.query_params, default=LEDGER_PAGE[0], most=LEDGER_PAGE[1])
        except BadPage as error:
            return problem(400, error.code, str(error))
        statement = await self.site.store.ledger.statement(
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
