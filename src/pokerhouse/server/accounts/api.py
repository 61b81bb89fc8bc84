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

from starlette.requests import Request
from starlette.responses import Response

from pokerhouse.server.accounts.schemas import (
    Credentials,
    CsrfToken,
    LedgerQuery,
    Me,
    SeatHeld,
    SignedOut,
    WalletLine,
    WalletStatement,
)
from pokerhouse.server.http import auth
from pokerhouse.server.http.context import HttpContext
from pokerhouse.server.http.hash_gate import HashesBusy
from pokerhouse.server.http.problems import (
    BadRequest,
    client_address,
    json_answer,
    problem,
    read_json,
)
from pokerhouse.server.http.queries import BadQuery, read_query
from pokerhouse.server.http.route_table import LOGIN_REQUIRED, Entry, Refusal, Routes
from pokerhouse.server.http.shared_limits import ThrottleUnavailable
from pokerhouse.store import AccountError, IdempotencyConflict, User
from pokerhouse.store.users import username_key

#: Wallet plus seats below which a player may ask for a top-up (RULES.md, Chips).
TOP_UP_BELOW = 1000
TOP_UP_EVERY = 3600.0


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


class AccountsApi:
    """The handlers, over the store's accounts and ledger."""

    def __init__(self, api: HttpContext) -> None:
        self.api = api
        self.site = api.site

    def _session_response(self, request: Request, body: Me, token: str, status: int) -> Response:
        response = json_answer(body, status)
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

    async def _me(self, user: User) -> Me:
        store = self.site.store
        statement = await store.ledger.statement(user, limit=1)
        seats = []
        tasks = self.site.room.tasks
        for table_id, task in tasks.items():
            if task.fenced or task.tournament:
                continue  # another node's: from the store, below; a tournament's: its chips
            for seat in sorted(task.table.seats_of_account(user.id)):
                info = task.table.seat(seat)
                seats.append(SeatHeld(table_id, seat, info.stack if info else 0))
        if any(task.fenced for task in tasks.values()):
            for row in await store.tables.seats_of(user):
                elsewhere = tasks.get(row.table_id)
                if elsewhere is not None and elsewhere.fenced:
                    seats.append(SeatHeld(row.table_id, row.seat, row.stack))
            seats.sort(key=lambda seat: (seat.table, seat.seat))
        in_play = sum(statement.in_play.values())
        return Me(user.username, user.is_bot, statement.wallet, in_play, seats)

    async def csrf(self, request: Request) -> Response:
        """``GET /api/csrf``: a CSRF cookie for a page that has none yet."""
        token = request.cookies.get(auth.CSRF_COOKIE) or auth.new_csrf_token()
        response = json_answer(CsrfToken(token))
        response.set_cookie(
            auth.CSRF_COOKIE, token, max_age=30 * 24 * 3600, httponly=False,
            samesite="strict", secure=request.url.scheme == "https", path="/",
        )  # fmt: skip
        return response

    async def register(self, request: Request) -> Response:
        """``POST /api/register``: a new account with its chip grant, signed in."""
        address = client_address(request)
        try:
            body = await read_json(request, Credentials)
        except BadRequest as error:
            return error.answer()
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

    def _hashing_refused(self) -> Response:
        return problem(
            429, "rate_limited", "too many logins or sign-ups at once from here: wait a second",
            **{"Retry-After": "1"},
        )  # fmt: skip

    async def login(self, request: Request) -> Response:
        """``POST /api/login``: a session for the right username and password."""
        try:
            body = await read_json(request, Credentials)
        except BadRequest as error:
            return error.answer()
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

    def _throttles_unavailable(self) -> Response:
        # Refused rather than unthrottled: guesses are never let through uncounted.
        return problem(
            503, "room_unavailable", "logins cannot be checked now: try again soon",
            **{"Retry-After": "5"},
        )  # fmt: skip

    async def logout(self, request: Request) -> Response:
        """``POST /api/logout``: end the session."""
        token = request.cookies.get(auth.SESSION_COOKIE)
        if token:
            await self.site.store.users.end_session(token)
            self.site.session_ended(token)
        response = json_answer(SignedOut(ok=True))
        response.delete_cookie(auth.SESSION_COOKIE, path="/")
        return response

    async def me(self, request: Request) -> Me | Response:
        """``GET /api/me``: the signed-in player, wallet and seats."""
        user = await self.api.user(request)
        if user is None:
            return problem(401, "login_required", "sign in first")
        return await self._me(user)

    async def top_up(self, request: Request) -> Me | Response:
        """``POST /api/me/top-up``: play money again, when the wallet and seats run low."""
        user = await self.api.user(request)
        if user is None:
            return problem(401, "login_required", "sign in first")
        me = await self._me(user)
        held = me.wallet + sum(seat.stack for seat in me.seats)
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
        return await self._me(user)

    async def my_ledger(self, request: Request) -> WalletStatement | Response:
        """``GET /api/me/ledger``: the wallet's statement with running balances.

        ``?limit=`` lines ending before entry ``?before=``; ``next`` is the
        ``before`` of the older page, or null when this page starts the statement.
        """
        user = await self.api.user(request)
        if user is None:
            return problem(401, "login_required", "sign in first")
        try:
            page = read_query(request.query_params, LedgerQuery)
        except BadQuery as error:
            return problem(400, error.code, str(error))
        statement = await self.site.store.ledger.statement(
            user, limit=page.limit, before=page.before
        )
        lines = [
            WalletLine(
                line.entry_id,
                line.transaction_id,
                str(line.kind),
                line.memo,
                line.created_at,
                line.amount,
                line.balance,
            )
            for line in statement.lines
        ]
        in_play = {str(table): chips for table, chips in statement.in_play.items()}
        return WalletStatement(
            statement.username, statement.wallet, in_play, lines, statement.older
        )


_SIGN_UP_LIMIT = Refusal(
    429,
    ("rate_limited",),
    "Too many sign-ups from this address, or two passwords of it being checked now "
    "(see Retry-After).",
    headers=("Retry-After",),
)

ROUTES = Routes(
    "accounts",
    AccountsApi,
    (
        Entry(
            "GET",
            "/api/csrf",
            AccountsApi.csrf,
            "A CSRF cookie (and its value) for the page",
            answer=CsrfToken,
            answered="The token, also set as the ph_csrf cookie.",
        ),
        Entry(
            "POST",
            "/api/register",
            AccountsApi.register,
            "Create an account (with its chip grant) and sign in",
            body=Credentials,
            answer=Me,
            status=201,
            csrf=True,
            answered="Created and signed in (the session cookie is set).",
            refusals=(
                Refusal(400, ("bad_username", "bad_password"), "A name or password refused."),
                Refusal(409, ("username_taken",), "The name, or one that looks like it, is taken."),
                _SIGN_UP_LIMIT,
            ),
        ),
        Entry(
            "POST",
            "/api/login",
            AccountsApi.login,
            "Sign in",
            body=Credentials,
            answer=Me,
            csrf=True,
            answered="Signed in (a new session cookie is set).",
            refusals=(
                Refusal(401, ("login_failed",), "Unknown user or wrong password (never which)."),
                Refusal(
                    429,
                    ("rate_limited",),
                    "Too many failed logins, or two passwords of this address being checked "
                    "now: wait (see Retry-After).",
                    headers=("Retry-After",),
                ),
                Refusal(
                    503,
                    ("room_unavailable",),
                    "Several nodes: failed logins cannot be counted now (Redis does not "
                    "answer); try again (see Retry-After).",
                    headers=("Retry-After",),
                ),
            ),
        ),
        Entry(
            "POST",
            "/api/logout",
            AccountsApi.logout,
            "Sign out",
            answer=SignedOut,
            csrf=True,
            answered="Signed out.",
        ),
        Entry(
            "GET",
            "/api/me",
            AccountsApi.me,
            "The signed-in player: wallet and seats",
            answer=Me,
            answered="The player.",
            refusals=(LOGIN_REQUIRED,),
        ),
        Entry(
            "POST",
            "/api/me/top-up",
            AccountsApi.top_up,
            "Play money again, when wallet and seats hold under 1,000 chips (once an hour)",
            answer=Me,
            csrf=True,
            answered="Topped up.",
            refusals=(
                LOGIN_REQUIRED,
                Refusal(409, ("not_low",), "Not low enough for a top-up."),
                Refusal(429, ("rate_limited",), "One top-up an hour."),
            ),
        ),
        Entry(
            "GET",
            "/api/me/ledger",
            AccountsApi.my_ledger,
            "The wallet's statement with running balances, a page at a time",
            query=LedgerQuery,
            answer=WalletStatement,
            answered="The lines.",
            refusals=(LOGIN_REQUIRED,),
        ),
    ),
)
