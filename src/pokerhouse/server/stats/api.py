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

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from pokerhouse.server.hands.schemas import HandLine
from pokerhouse.server.http.context import HttpContext
from pokerhouse.server.http.problems import problem
from pokerhouse.server.http.queries import BadQuery, read_query
from pokerhouse.server.http.route_table import LOGIN_REQUIRED, Entry, Refusal, Routes
from pokerhouse.server.stats.schemas import (
    GameFigures,
    HandsTogether,
    PeopleBoard,
    PeopleBoardQuery,
    PersonRank,
    PlayerPath,
    StatsPage,
    StatsQuery,
    TogetherQuery,
)
from pokerhouse.store import AccountError, User
from pokerhouse.store.stats import BOARD_LIMIT, GameStats


def _share(part: int, whole: int) -> float | None:
    return None if whole == 0 else round(100 * part / whole, 1)


def figures(stats: GameStats) -> GameFigures:
    """A game's line on a stats page: the sums and what players read from them.

    Percentages are of hands (showdowns won: of showdowns); a figure a game
    does not have, or that has no hands to go on, is null.

    >>> line = figures(GameStats("razz", 200, 150, 50, 20, 30, 20, 40, 22, 0, 0, 0))
    >>> line.per_100, line.vpip, line.pfr, line.aggression, line.won_at_showdown
    (75.0, 25.0, 10.0, 1.5, 55.0)
    >>> figures(GameStats("casino-holdem", 4, -2, 3, 0, 0, 3, 3, 1, 0, 0, 3)).call_rate
    75.0
    """
    game, hands = stats.game, stats.hands
    betting = game in ("3x4", "razz")
    line = GameFigures(
        game=game,
        hands=hands,
        net=stats.net,
        per_100=None if hands == 0 else round(100 * stats.net / hands, 2),
        vpip=_share(stats.vpip, hands),
        pfr=_share(stats.pfr, hands) if betting else None,
        aggression=None,
        went_to_showdown=_share(stats.showdown, hands),
        won_at_showdown=_share(stats.showdown_won, stats.showdown),
    )
    if game != "casino-holdem" and stats.calls:
        line.aggression = round(stats.aggressive / stats.calls, 2)
    if game == "teen-patti":
        line.blind = _share(stats.blind, hands)
        line.seen = _share(stats.seen, hands)
    if game == "casino-holdem":
        line.call_rate = _share(stats.called, hands)
    return line


class StatsApi:
    """The handlers, over the store's statistics."""

    def __init__(self, api: HttpContext) -> None:
        self.api = api
        self.site = api.site

    async def _page(self, user: User, request: Request, *, own: bool) -> StatsPage | Response:
        try:
            period = read_query(request.query_params, StatsQuery).period
        except BadQuery as error:
            return problem(400, error.code, str(error))
        games = await self.site.store.stats.player(user, period, private=own)
        return StatsPage(user.username, user.is_bot, period, [figures(line) for line in games])

    async def mine(self, request: Request) -> StatsPage | Response:
        """``GET /api/me/stats``: the signed-in player's figures."""
        user = await self.api.user(request)
        if user is None:
            return problem(401, "login_required", "sign in first")
        return await self._page(user, request, own=True)

    async def player(self, request: Request) -> StatsPage | Response:
        """``GET /api/players/{name}/stats``: any player's public figures."""
        name = request.path_params["name"]
        try:
            user = await self.site.store.users.get(name)
        except AccountError:
            return problem(404, "unknown_user", f"there is no player {name[:40]!r}")
        me = await self.api.user(request)
        # Another's play at private tables is their guests' business: public play only.
        return await self._page(user, request, own=me is not None and me.id == user.id)

    async def together(self, request: Request) -> HandsTogether | Response:
        """``GET /api/players/{name}/hands``: the hands the asker played with the player."""
        me = await self.api.user(request)
        if me is None:
            return problem(401, "login_required", "sign in first")
        name = request.path_params["name"]
        try:
            page = read_query(request.query_params, TogetherQuery)
            them = await self.site.store.users.get(name)
        except BadQuery as error:
            return problem(400, error.code, str(error))
        except AccountError:
            return problem(404, "unknown_user", f"there is no player {name[:40]!r}")
        count, hands = await self.site.store.stats.together(
            me, them, limit=page.limit + 1, before=page.before
        )
        shown = hands[: page.limit]
        return HandsTogether(
            them.username,
            count,
            [msgspec.convert(hand, HandLine, from_attributes=True) for hand in shown],
            shown[-1].id if len(hands) > page.limit else None,
        )

    async def board(self, request: Request) -> PeopleBoard | Response:
        """``GET /api/leaderboards/people``: the week's best people at public tables."""
        try:
            query = read_query(request.query_params, PeopleBoardQuery)
        except BadQuery as error:
            return problem(400, error.code, str(error))
        week = query.week or self.site.store.stats.this_week()
        try:
            lines = await self.site.store.stats.board(
                query.game, week, least=query.least, limit=BOARD_LIMIT
            )
        except AccountError as error:
            return problem(400, error.code, str(error))
        people = [
            PersonRank(line.username, line.hands, line.net, round(100 * line.net / line.hands, 2))
            for line in lines
        ]
        return PeopleBoard(query.game, week, query.least, people)


_NO_PLAYER = Refusal(404, ("unknown_user",), "No such player.")

ROUTES = Routes(
    "stats",
    StatsApi,
    (
        Entry(
            "GET",
            "/api/me/stats",
            StatsApi.mine,
            "The signed-in player's statistics by game",
            query=StatsQuery,
            answer=StatsPage,
            answered="The figures by game.",
            refusals=(LOGIN_REQUIRED,),
        ),
        Entry(
            "GET",
            "/api/players/{name}/stats",
            StatsApi.player,
            "Any player's public statistics by game",
            params=PlayerPath,
            query=StatsQuery,
            answer=StatsPage,
            answered="The figures by game (another's: at public tables only).",
            refusals=(_NO_PLAYER,),
        ),
        Entry(
            "GET",
            "/api/players/{name}/hands",
            StatsApi.together,
            "The finished hands the signed-in player played with another",
            params=PlayerPath,
            query=TogetherQuery,
            answer=HandsTogether,
            answered="Newest first, with the asker's result in each; next: the older page.",
            refusals=(LOGIN_REQUIRED, _NO_PLAYER),
        ),
        Entry(
            "GET",
            "/api/leaderboards/people",
            StatsApi.board,
            "The week's best people at public tables, per game",
            query=PeopleBoardQuery,
            answer=PeopleBoard,
            answered="Best chips won per 100 hands first (at most 100 lines).",
            refusals=(Refusal(400, ("bad_week",), "A week that is not a Monday's date."),),
        ),
    ),
)
