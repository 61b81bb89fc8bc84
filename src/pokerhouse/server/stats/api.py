"""Players' statistics and the people's weekly leaderboards over HTTP (docs/stats.md).

- ``GET /api/me/stats?period=P``: the signed-in player's figures, by game;
- ``GET /api/players/{name}/stats?period=P``: any player's figures at public
  tables (every action they count was taken in the open; a home game's play is
  its guests' business), all of them for the player themself;
- ``GET /api/players/{name}/hands?limit=N&before=ID``: signed in, the finished
  hands the asker played with that player, newest first, with the asker's
  result in each (what they saw of the other's cards is in each hand's history,
  ``GET /api/hands/{id}``, as their own seat saw it);
- ``GET /api/leaderboards/people?game=G&week=YYYY-MM-DD&least=N``: the week's
  best people at public tables by chips won per 100 hands, with ``least``
  hands or more (default 50; the current week unless ``week`` names a Monday).

``P`` is ``week`` (this week), ``month`` (the last four weeks), ``year`` (the
last 52) or ``all`` (the default). Every figure comes from counters the room
sums as each hand settles: a page reads a few rows whatever the hands played.
"""

from __future__ import annotations

from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from pokerhouse.errors import InvalidSpec
from pokerhouse.server.http.context import HttpContext
from pokerhouse.server.http.paging import BadPage, read_page
from pokerhouse.server.http.problems import problem
from pokerhouse.store import AccountError, User
from pokerhouse.store.stats import BOARD_LIMIT, PERIODS, GameStats

#: The fewest hands a leaderboard line has, unless the question says otherwise.
LEAST_HANDS = 50
#: Hands played together, a page.
TOGETHER_PAGE = 50


def routes(api: HttpContext) -> list[Route]:
    """The endpoints' routes, for the API's mount."""
    handlers = StatsApi(api)
    return [
        Route("/me/stats", handlers.mine),
        Route("/players/{name}/stats", handlers.player),
        Route("/players/{name}/hands", handlers.together),
        Route("/leaderboards/people", handlers.board),
    ]


def _share(part: int, whole: int) -> float | None:
    return None if whole == 0 else round(100 * part / whole, 1)


def figures(stats: GameStats) -> dict[str, Any]:
    """A game's line on a stats page: the sums and what players read from them.

    Percentages are of hands (showdowns won: of showdowns); a figure a game
    does not have, or that has no hands to go on, is null.

    >>> line = figures(GameStats("razz", 200, 150, 50, 20, 30, 20, 40, 22, 0, 0, 0))
    >>> line["per_100"], line["vpip"], line["pfr"], line["aggression"], line["won_at_showdown"]
    (75.0, 25.0, 10.0, 1.5, 55.0)
    >>> figures(GameStats("casino-holdem", 4, -2, 3, 0, 0, 3, 3, 1, 0, 0, 3))["call_rate"]
    75.0
    """
    game, hands = stats.game, stats.hands
    betting = game in ("3x4", "razz")
    line: dict[str, Any] = {
        "game": game,
        "hands": hands,
        "net": stats.net,
        "per_100": None if hands == 0 else round(100 * stats.net / hands, 2),
        "vpip": _share(stats.vpip, hands),
        "pfr": _share(stats.pfr, hands) if betting else None,
        "aggression": None,
        "went_to_showdown": _share(stats.showdown, hands),
        "won_at_showdown": _share(stats.showdown_won, stats.showdown),
    }
    if game != "casino-holdem" and stats.calls:
        line["aggression"] = round(stats.aggressive / stats.calls, 2)
    if game == "teen-patti":
        line["blind"] = _share(stats.blind, hands)
        line["seen"] = _share(stats.seen, hands)
    if game == "casino-holdem":
        line["call_rate"] = _share(stats.called, hands)
    return line


class StatsApi:
    """The handlers, over the store's statistics."""

    def __init__(self, api: HttpContext) -> None:
        self.api = api
        self.site = api.site

    async def _page(self, user: User, request: Request, *, own: bool) -> Response:
        period = request.query_params.get("period", "all")
        if period not in PERIODS:
            return problem(400, "bad_period", f"period is one of {', '.join(PERIODS)}")
        games = await self.site.store.stats.player(user, period, private=own)
        return JSONResponse(
            {
                "name": user.username,
                "bot": user.is_bot,
                "period": period,
                "games": [figures(stats) for stats in games],
            }
        )

    async def mine(self, request: Request) -> Response:
        """``GET /api/me/stats``: the signed-in player's figures."""
        user = await self.api.user(request)
        if user is None:
            return problem(401, "login_required", "sign in first")
        return await self._page(user, request, own=True)

    async def player(self, request: Request) -> Response:
        """``GET /api/players/{name}/stats``: any player's public figures."""
        name = request.path_params["name"]
        try:
            user = await self.site.store.users.get(name)
        except AccountError:
            return problem(404, "unknown_user", f"there is no player {name[:40]!r}")
        me = await self.api.user(request)
        # Another's play at private tables is their guests' business: public play only.
        return await self._page(user, request, own=me is not None and me.id == user.id)

    async def together(self, request: Request) -> Response:
        """``GET /api/players/{name}/hands``: the hands the asker played with the player."""
        me = await self.api.user(request)
        if me is None:
            return problem(401, "login_required", "sign in first")
        name = request.path_params["name"]
        try:
            page = read_page(request.query_params, default=TOGETHER_PAGE, most=TOGETHER_PAGE)
            them = await self.site.store.users.get(name)
        except BadPage as error:
            return problem(400, error.code, str(error))
        except AccountError:
            return problem(404, "unknown_user", f"there is no player {name[:40]!r}")
        count, hands = await self.site.store.stats.together(
            me, them, limit=page.limit + 1, before=page.before
        )
        shown = hands[: page.limit]
        return JSONResponse(
            {
                "name": them.username,
                "count": count,
                "hands": [msgspec.to_builtins(hand) for hand in shown],
                "next": shown[-1].id if len(hands) > page.limit else None,
            }
        )

    async def board(self, request: Request) -> Response:
        """``GET /api/leaderboards/people``: the week's best people at public tables."""
        query = request.query_params
        week = query.get("week") or self.site.store.stats.this_week()
        least_text = query.get("least", str(LEAST_HANDS))
        # isascii(): "²" is a digit to isdigit() but not a number to int().
        whole = least_text.isascii() and least_text.isdigit() and len(least_text) < 8
        if not whole:
            text = f"least is a whole number of hands, not {least_text[:20]!r}"
            return problem(400, "bad_least", text)
        least = int(least_text)
        try:
            lines = await self.site.store.stats.board(
                query.get("game", ""), week, least=least, limit=BOARD_LIMIT
            )
        except InvalidSpec as error:
            return problem(400, "bad_game", str(error))
        except AccountError as error:
            return problem(400, error.code, str(error))
        return JSONResponse(
            {
                "game": query.get("game"),
                "week": week,
                "least": least,
                "people": [
                    {
                        "name": line.username,
                        "hands": line.hands,
                        "net": line.net,
                        "per_100": round(100 * line.net / line.hands, 2),
                    }
                    for line in lines
                ],
            }
        )
