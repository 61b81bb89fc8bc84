"""Bot accounts over HTTP, and the bots' leaderboards (RULES.md, "Bots and bot accounts").

- ``GET /api/bots``: the signed-in player's bot accounts (name, when made,
  live tokens);
- ``POST /api/bots`` ``{"name": "..._bot"}``: a new bot account of theirs,
  ``201`` with its token, shown this once (``bad_username``,
  ``username_taken``, ``too_many_bots`` 409; ``rate_limited`` 429: its chip
  grant is a sign-up's, counted against the owner's address as sign-ups are);
- ``POST /api/bots/{name}/token``: a new token, every earlier one ended (the
  sockets signed in with them are closed);
- ``POST /api/bots/{name}/revoke``: every token ended, sockets closed;
- ``GET /api/leaderboards/bots?game=GAME``: every bot's result per 100 hands at
  the game's tables for bots only, with its 95% interval, best first: from the
  counters the settlements keep (a few rows, whatever the hands played), kept
  in memory for :data:`BOARD_SECONDS` and read once however many ask at once.

Managing bots is a person's business: a request signed in as a bot account
is refused (``people_only``), and a state-changing one from a browser needs
the CSRF header as every other.
"""

from __future__ import annotations

import asyncio
import time

from starlette.requests import Request
from starlette.responses import Response

from pokerhouse.intervals import per_100_of_sums
from pokerhouse.server.botaccounts.schemas import (
    BotAccountLine,
    BotAccounts,
    BotBoard,
    BotBoardQuery,
    BotMade,
    BotPath,
    BotRank,
    BotRevoked,
    BotToken,
    NewBot,
)
from pokerhouse.server.http.context import HttpContext
from pokerhouse.server.http.problems import BadRequest, client_address, problem, read_json
from pokerhouse.server.http.queries import BadQuery, read_query
from pokerhouse.server.http.route_table import LOGIN_REQUIRED, Entry, Handler, Refusal, Routes
from pokerhouse.store import AccountError, User
from pokerhouse.store.bot_accounts import BotStanding

#: Seconds a leaderboard is served from memory before it is read again.
BOARD_SECONDS = 10.0
#: A leaderboard as read: when (the monotonic clock), and its lines.
Board = tuple[float, list[BotRank]]


def standing(line: BotStanding) -> BotRank:
    """A bot's line on the board: hands, net, and per 100 hands with its interval.

    >>> standing(BotStanding("a_bot", 4, 20, 400)).per_100
    500.0
    """
    mean, (low, high) = per_100_of_sums(line.hands, line.net, line.squares)
    return BotRank(
        line.username, True, line.hands, line.net, round(mean, 2), round(low, 2), round(high, 2)
    )


class BotsApi:
    """The handlers, over the store's bot accounts."""

    def __init__(self, api: HttpContext) -> None:
        self.api = api
        self.site = api.site
        self._boards: dict[str, Board] = {}
        self._reading: dict[str, asyncio.Future[Board]] = {}

    async def _owner(self, request: Request) -> User | Response:
        user = await self.api.user(request)
        if user is None:
            return problem(401, "login_required", "sign in first")
        if user.is_bot:
            return problem(
                403, "people_only", "bot accounts are managed by the people who own them"
            )
        return user

    async def list(self, request: Request) -> BotAccounts | Response:
        """``GET /api/bots``: the player's bot accounts."""
        owner = await self._owner(request)
        if isinstance(owner, Response):
            return owner
        bots = await self.site.store.bots.owned(owner)
        return BotAccounts(
            [BotAccountLine(b.username, b.created_at, b.live_tokens) for b in bots],
            self.site.settings.bots_per_account,
        )

    async def create(self, request: Request) -> BotMade | Response:
        """``POST /api/bots``: a new bot account, and its token shown this once."""
        owner = await self._owner(request)
        if isinstance(owner, Response):
            return owner
        try:
            body = await read_json(request, NewBot)
        except BadRequest as error:
            return error.answer()
        settings = self.site.settings
        try:
            # Its grant is a sign-up's, counted against its owner's address.
            bot, token = await self.site.store.bots.create(
                body.name,
                owner=owner,
                most=settings.bots_per_account,
                grant=settings.grant,
                address=client_address(request),
                per_hour=settings.registrations_per_hour,
            )
        except AccountError as error:
            status = {"too_many_bots": 409, "username_taken": 409, "rate_limited": 429}
            return problem(status.get(error.code, 400), error.code, str(error))
        return BotMade(bot.username, True, token)

    async def token(self, request: Request) -> BotToken | BotRevoked | Response:
        """``POST /api/bots/{name}/token``: a new token; the old ones' sockets closed."""
        return await self._change(request, renew=True)

    async def revoke(self, request: Request) -> BotToken | BotRevoked | Response:
        """``POST /api/bots/{name}/revoke``: every token ended; their sockets closed."""
        return await self._change(request, renew=False)

    async def _change(self, request: Request, *, renew: bool) -> BotToken | BotRevoked | Response:
        owner = await self._owner(request)
        if isinstance(owner, Response):
            return owner
        name = request.path_params["name"]
        book = self.site.store.bots
        try:
            if renew:
                bot, token, ended = await book.new_token(name, owner=owner)
            else:
                ended = await book.revoke(name, owner=owner)
        except AccountError as error:
            return problem(404, error.code, str(error))
        self.site.sessions_ended(ended)
        if renew:
            return BotToken(bot.username, token, len(ended))
        return BotRevoked(name, len(ended))

    async def board(self, request: Request) -> BotBoard | Response:
        """``GET /api/leaderboards/bots?game=GAME``: best per 100 hands first."""
        try:
            game = read_query(request.query_params, BotBoardQuery).game
        except BadQuery as error:
            return problem(400, error.code, str(error))
        kept = self._boards.get(game)
        if kept is None or time.monotonic() - kept[0] > BOARD_SECONDS:
            # One read at a time a game: requests arriving while it runs share its answer.
            reading = self._reading.get(game)
            if reading is None:
                reading = asyncio.ensure_future(self._read_board(game))
                self._reading[game] = reading
                reading.add_done_callback(lambda _: self._reading.pop(game, None))
            kept = await asyncio.shield(reading)
        return BotBoard(game, kept[1])

    async def _read_board(self, game: str) -> Board:
        lines = [standing(line) for line in await self.site.store.bots.leaderboard(game)]
        lines.sort(key=lambda line: (-line.per_100, -line.hands, line.name))
        kept = (time.monotonic(), lines)
        self._boards[game] = kept
        return kept


#: What managing bots may be refused with: a person signs in to do it.
OWNERS_ONLY = (
    LOGIN_REQUIRED,
    Refusal(401, ("bad_token",), "A bad API token.", ("WWW-Authenticate",)),
    Refusal(403, ("people_only",), "Asked with a bot's token: bots are managed by their owners."),
    Refusal(503, ("room_unavailable",), "The room cannot check tokens now.", ("Retry-After",)),
)


def _change(
    action: str, handler: Handler[BotsApi], summary: str, answer: type[BotToken | BotRevoked]
) -> Entry[BotsApi]:
    """A new token, or every token ended."""
    return Entry(
        "POST",
        f"/api/bots/{{name}}/{action}",
        handler,
        summary,
        params=BotPath,
        answer=answer,
        csrf=True,
        answered="The new token." if answer is BotToken else "How many ended.",
        refusals=(
            *OWNERS_ONLY,
            Refusal(404, ("unknown_bot",), "No bot account of yours has that name."),
        ),
    )


ROUTES = Routes(
    "bots",
    BotsApi,
    (
        Entry(
            "GET",
            "/api/bots",
            BotsApi.list,
            "The signed-in player's bot accounts",
            answer=BotAccounts,
            answered="The bot accounts, oldest first, and how many one may keep.",
            refusals=OWNERS_ONLY,
        ),
        Entry(
            "POST",
            "/api/bots",
            BotsApi.create,
            "A new bot account (its name ends in _bot), and its token",
            body=NewBot,
            answer=BotMade,
            status=201,
            csrf=True,
            answered="Made: the token is shown this once.",
            refusals=(
                *OWNERS_ONLY,
                Refusal(400, ("bad_username",), "A name the room does not take."),
                Refusal(409, ("username_taken", "too_many_bots"), "Taken, or too many bots."),
                Refusal(
                    429,
                    ("rate_limited",),
                    "A bot's chips are a sign-up's grant: too many sign-ups from this address.",
                ),
            ),
        ),
        _change(
            "token",
            BotsApi.token,
            "A new token for the bot; every earlier one ends",
            BotToken,
        ),
        _change(
            "revoke",
            BotsApi.revoke,
            "End every token of the bot (its sockets are closed)",
            BotRevoked,
        ),
        Entry(
            "GET",
            "/api/leaderboards/bots",
            BotsApi.board,
            "Bots ranked per game over their hands at tables for bots only",
            query=BotBoardQuery,
            answer=BotBoard,
            answered="Best per 100 hands first, each with its 95% interval (low, high).",
        ),
    ),
)
