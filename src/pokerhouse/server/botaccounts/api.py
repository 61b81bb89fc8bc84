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
from typing import Annotated, Any

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from pokerhouse.games import GAMES
from pokerhouse.intervals import per_100_of_sums
from pokerhouse.server.http.context import HttpContext
from pokerhouse.server.http.problems import BadRequest, client_address, problem, read_json
from pokerhouse.store import AccountError, User
from pokerhouse.store.bot_accounts import BotStanding

#: Seconds a leaderboard is served from memory before it is read again.
BOARD_SECONDS = 10.0
#: A leaderboard as read: when (the monotonic clock), and its lines.
Board = tuple[float, list[dict[str, Any]]]


class NewBot(msgspec.Struct, forbid_unknown_fields=True):
    """``{"name"}`` for ``POST /api/bots``."""

    name: Annotated[str, msgspec.Meta(max_length=64)]


def routes(api: HttpContext) -> list[Route]:
    """The endpoints' routes, for the API's mount."""
    handlers = BotsApi(api)
    return [
        Route("/bots", handlers.list, methods=["GET"]),
        Route("/bots", handlers.create, methods=["POST"]),
        Route("/bots/{name}/token", handlers.token, methods=["POST"]),
        Route("/bots/{name}/revoke", handlers.revoke, methods=["POST"]),
        Route("/leaderboards/bots", handlers.board),
    ]


def standing(line: BotStanding) -> dict[str, Any]:
    """A bot's line on the board: hands, net, and per 100 hands with its interval.

    >>> standing(BotStanding("a_bot", 4, 20, 400))["per_100"]
    500.0
    """
    mean, (low, high) = per_100_of_sums(line.hands, line.net, line.squares)
    return {
        "name": line.username,
        "bot": True,
        "hands": line.hands,
        "net": line.net,
        "per_100": round(mean, 2),
        "low": round(low, 2),
        "high": round(high, 2),
    }


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

    async def list(self, request: Request) -> Response:
        """``GET /api/bots``: the player's bot accounts."""
        owner = await self._owner(request)
        if isinstance(owner, Response):
            return owner
        bots = await self.site.store.bots.owned(owner)
        return JSONResponse(
            {
                "bots": [
                    {"name": b.username, "created_at": b.created_at, "live_tokens": b.live_tokens}
                    for b in bots
                ],
                "most": self.site.settings.bots_per_account,
            }
        )

    async def create(self, request: Request) -> Response:
        """``POST /api/bots``: a new bot account, and its token shown this once."""
        refused = self.api.guard(request)
        if refused is not None:
            return refused
        owner = await self._owner(request)
        if isinstance(owner, Response):
            return owner
        try:
            body = await read_json(request, NewBot)
        except BadRequest as error:
            return problem(error.status, error.code, str(error))
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
        return JSONResponse({"name": bot.username, "bot": True, "token": token}, status_code=201)

    async def token(self, request: Request) -> Response:
        """``POST /api/bots/{name}/token``: a new token; the old ones' sockets closed."""
        return await self._change(request, renew=True)

    async def revoke(self, request: Request) -> Response:
        """``POST /api/bots/{name}/revoke``: every token ended; their sockets closed."""
        return await self._change(request, renew=False)

    async def _change(self, request: Request, *, renew: bool) -> Response:
        refused = self.api.guard(request)
        if refused is not None:
            return refused
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
            return JSONResponse({"name": bot.username, "token": token, "ended": len(ended)})
        return JSONResponse({"name": name, "ended": len(ended)})

    async def board(self, request: Request) -> Response:
        """``GET /api/leaderboards/bots?game=GAME``: best per 100 hands first."""
        game = request.query_params.get("game", "")
        if game not in GAMES:
            return problem(400, "bad_game", f"game is one of {', '.join(sorted(GAMES))}")
        kept = self._boards.get(game)
        if kept is None or time.monotonic() - kept[0] > BOARD_SECONDS:
            # One read at a time a game: requests arriving while it runs share its answer.
            reading = self._reading.get(game)
            if reading is None:
                reading = asyncio.ensure_future(self._read_board(game))
                self._reading[game] = reading
                reading.add_done_callback(lambda _: self._reading.pop(game, None))
            kept = await asyncio.shield(reading)
        return JSONResponse({"game": game, "bots": kept[1]})

    async def _read_board(self, game: str) -> Board:
        lines = [standing(line) for line in await self.site.store.bots.leaderboard(game)]
        lines.sort(key=lambda line: (-line["per_100"], -line["hands"], line["name"]))
        kept = (time.monotonic(), lines)
        self._boards[game] = kept
        return kept
