"""Players' statistics, kept as hands settle: one row per player, game, venue and week.

A settlement adds each seat's figures (:mod:`pokerhouse.history.figures`),
its hand and its chips to its player's row of that week in the same
transaction, so the sums always agree with the settled hands and a stats
page or a leaderboard reads a few rows, never the hands. A week is named by
its Monday (UTC), ``YYYY-MM-DD``.

>>> week_of(0.0)  # 1 January 1970 was a Thursday
'1969-12-29'
>>> [week_start("2026-12-07") - week_start("2026-11-30")]
[604800.0]
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pokerhouse.games import get_game
from pokerhouse.history.figures import FIELDS
from pokerhouse.store.arguments import MAX_ROW_ID, check_before, user_id_of
from pokerhouse.store.database import Database
from pokerhouse.store.errors import AccountError
from pokerhouse.store.handlog import HandSummary, summary_of
from pokerhouse.store.sql import Context, Stmt, Unit, all_rows, many, one, run
from pokerhouse.store.users import User

__all__ = [
    "BOARD_LIMIT",
    "COUNTERS",
    "PERIODS",
    "BoardRow",
    "BotLine",
    "GameStats",
    "StatsBook",
    "add_bots_unit",
    "add_unit",
    "board_unit",
    "since",
    "stats_unit",
    "week_of",
    "week_start",
]

#: Every summed column of a row: hands, chips, then the hand figures.
COUNTERS: tuple[str, ...] = ("hands", "net", *FIELDS)

_DAY = 86_400.0
_COLUMNS = ", ".join(COUNTERS)
# Every row of a batch in one statement: [user, game, venue, counters...] rows, as JSON
# on SQLite and as one array a column on PostgreSQL.
_UPDATE = "ON CONFLICT (user_id, game, venue, week) DO UPDATE SET " + ", ".join(
    f"{name} = player_stats.{name} + excluded.{name}" for name in COUNTERS
)
ADD_MANY = Stmt(
    f"INSERT INTO player_stats (user_id, game, venue, week, {_COLUMNS}) SELECT "
    "json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), "
    ":week, "
    + ", ".join(f"json_extract(value, '$[{index}]')" for index in range(3, 3 + len(COUNTERS)))
    + f" FROM json_each(:rows) WHERE true {_UPDATE}",
    postgresql=f"INSERT INTO player_stats (user_id, game, venue, week, {_COLUMNS}) "
    "SELECT u, g, v, :week, "
    + ", ".join(f"c{index}" for index in range(len(COUNTERS)))
    + " FROM unnest(CAST(:users AS BIGINT[]), CAST(:games AS TEXT[]), CAST(:venues AS TEXT[]), "
    + ", ".join(f"CAST(:c{index} AS BIGINT[])" for index in range(len(COUNTERS)))
    + ") AS v(u, g, v, "
    + ", ".join(f"c{index}" for index in range(len(COUNTERS)))
    + f") {_UPDATE}",
)
_SUMS = ", ".join(f"SUM({name})" for name in COUNTERS)
# A player's own page sums their money play (tournament chips are not money); what
# others read of them, their play at public tables only (a home game is its guests').
_STATS = (
    f"SELECT game, {_SUMS} FROM player_stats WHERE user_id = :user AND {{venues}} "
    "AND week >= :since GROUP BY game ORDER BY game"
)
STATS = Stmt(_STATS.format(venues="venue IN ('public', 'private')"))
PUBLIC_STATS = Stmt(_STATS.format(venues="venue = 'public'"))
# Public play of people only; the minimum number of hands; best winnings a hand first.
BOARD = Stmt(
    "SELECT u.username, s.hands, s.net FROM player_stats s JOIN users u ON u.id = s.user_id "
    "WHERE s.game = :game AND s.venue = 'public' AND s.week = :week AND s.hands >= :least "
    "AND NOT u.is_bot AND NOT u.api_bot "
    "ORDER BY CAST(s.net AS DOUBLE PRECISION) / s.hands DESC, s.hands DESC, u.username "
    "LIMIT :limit"
)


# The finished hands two players were both dealt in, newest first, with the first one's
# result (a hand id below ``before``: the next page).
_TOGETHER = (
    "SELECT h.id, h.table_id, h.number, h.game, h.status, h.started_at, h.finished_at, "
    "SUM(a.result) FROM hands h JOIN hand_players a ON a.hand_id = h.id "
    "WHERE a.user_id = :me AND h.status = 'finished' AND h.id < :before AND EXISTS "
    "(SELECT 1 FROM hand_players b WHERE b.hand_id = h.id AND b.user_id = :them) "
    "GROUP BY h.id, h.table_id, h.number, h.game, h.status, h.started_at, h.finished_at "
    "ORDER BY h.id DESC LIMIT :limit"
)
TOGETHER = Stmt(_TOGETHER)
TOGETHER_COUNT = Stmt(
    "SELECT COUNT(DISTINCT a.hand_id) FROM hand_players a JOIN hand_players b "
    "ON b.hand_id = a.hand_id AND b.user_id = :them JOIN hands h ON h.id = a.hand_id "
    "WHERE a.user_id = :me AND h.status = 'finished'"
)


def week_of(seconds: float) -> str:
    """The week (its Monday, UTC) that the Unix time ``seconds`` falls in.

    >>> week_of(1_796_556_000.0)  # Sunday 6 December 2026, 12:00 UTC
    '2026-11-30'
    """
    day = dt.datetime.fromtimestamp(seconds, dt.UTC).date()
    return (day - dt.timedelta(days=day.weekday())).isoformat()


def week_start(week: str) -> float:
    """The Unix time a week (``YYYY-MM-DD``, a Monday) starts; ``bad_week`` otherwise.

    >>> week_start("2026-11-30")
    1795996800.0
    >>> week_start("2026-12-01")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pokerhouse.store.errors.AccountError: a week is named by its Monday ..., not '2026-12-01'
    """
    try:
        day = dt.date.fromisoformat(week) if isinstance(week, str) and len(week) == 10 else None
    except ValueError:
        day = None
    if day is None or day.weekday() != 0:
        raise AccountError("bad_week", f"a week is named by its Monday (YYYY-MM-DD), not {week!r}")
    return dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC).timestamp()


@dataclass(frozen=True, slots=True)
class GameStats:
    """One player's summed figures in one game (names as :data:`COUNTERS`)."""

    game: str
    hands: int
    net: int
    vpip: int
    pfr: int
    aggressive: int
    calls: int
    showdown: int
    showdown_won: int
    blind: int
    seen: int
    called: int


@dataclass(frozen=True, slots=True)
class BoardRow:
    """A leaderboard's line: a player, their hands and net chips in the week."""

    username: str
    hands: int
    net: int


#: A bot's result in a hand at a table for bots only: user, game, result.
BotLine = tuple[int, str, int]

ADD_BOTS = Stmt(
    "INSERT INTO bot_standings (user_id, game, hands, net, squares) "
    "VALUES (:user, :game, :hands, :net, :squares) ON CONFLICT (user_id, game) DO UPDATE SET "
    "hands = bot_standings.hands + excluded.hands, net = bot_standings.net + excluded.net, "
    "squares = bot_standings.squares + excluded.squares"
)


def add_bots_unit(lines: Iterable[BotLine]) -> Unit[None]:
    """Add settled hands at tables for bots only to their bots' standings."""
    sums: dict[tuple[int, str], list[float]] = defaultdict(lambda: [0, 0, 0.0])
    for user, game, result in lines:
        row = sums[user, game]
        row[0] += 1
        row[1] += result
        row[2] += float(result) * result  # as a float: no sum of squares overflows
    if not sums:
        return
    yield many(
        ADD_BOTS,
        [
            {"user": user, "game": game, "hands": int(row[0]), "net": int(row[1]),
             "squares": row[2]}
            for (user, game), row in sorted(sums.items())
        ],
    )  # fmt: skip


#: One seat's share of a settlement: user, game, venue, its result and figures.
SeatLine = tuple[int, str, str, int, Sequence[int]]


def add_unit(week: str, lines: Iterable[SeatLine]) -> Unit[None]:
    """Add settled seats to their players' rows of ``week`` (one statement)."""
    sums: dict[tuple[int, str, str], list[int]] = defaultdict(lambda: [0] * len(COUNTERS))
    for user, game, venue, result, figures in lines:
        row = sums[user, game, venue]
        row[0] += 1
        row[1] += result
        for index, value in enumerate(figures, 2):
            row[index] += value
    if not sums:
        return
    # One row per key: PostgreSQL refuses an upsert that touches a row twice.
    keys = sorted(sums)
    yield run(
        ADD_MANY,
        week=week,
        rows=[[*key, *sums[key]] for key in keys],
        users=[key[0] for key in keys],
        games=[key[1] for key in keys],
        venues=[key[2] for key in keys],
        **{f"c{index}": [sums[key][index] for key in keys] for index in range(len(COUNTERS))},
    )


def stats_unit(user_id: int, since: str, *, private: bool = True) -> Unit[list[GameStats]]:
    """A player's figures by game, summed over the weeks from ``since`` on (``private``:
    their play at private tables too)."""
    rows = yield all_rows(STATS if private else PUBLIC_STATS, user=user_id, since=since)
    return [GameStats(row[0], *(int(value) for value in row[1:])) for row in rows]


def board_unit(game: str, week: str, least: int, limit: int) -> Unit[list[BoardRow]]:
    """The week's leaderboard of ``game``: people at public tables, ``least`` hands or more."""
    rows = yield all_rows(BOARD, game=game, week=week, least=least, limit=limit)
    return [BoardRow(row[0], int(row[1]), int(row[2])) for row in rows]


#: Periods a stats page sums, by name: how many weeks back from this one (``None``: all).
PERIODS: dict[str, int | None] = {"week": 1, "month": 4, "year": 52, "all": None}
#: The most lines a leaderboard gives.
BOARD_LIMIT = 100


def since(now: float, period: str) -> str:
    """The first week of ``period`` as of ``now``; ``bad_period`` for an unknown name.

    >>> since(1_796_556_000.0, "month")
    '2026-11-09'
    >>> since(1_796_556_000.0, "all")
    '0001-01-01'
    """
    if not isinstance(period, str) or period not in PERIODS:
        raise AccountError("bad_period", f"a period is one of {', '.join(PERIODS)}, not {period!r}")
    weeks = PERIODS[period]
    if weeks is None:
        return "0001-01-01"
    return week_of(now - (weeks - 1) * 7 * _DAY)


class StatsBook:
    """Players' statistics and the weekly leaderboards of one store.

    Reached as :attr:`pokerhouse.store.Store.stats`.
    """

    def __init__(self, db: Database) -> None:
        self._db = db

    def this_week(self) -> str:
        """The week the store's clock is in (what its settlements are summed into)."""
        return week_of(self._db.clock())

    async def player(
        self, user: User | int, period: str = "all", *, private: bool = True
    ) -> list[GameStats]:
        """A player's figures in money play by game: at public and private tables, or
        (``private=False``, what others may read) at public tables only."""
        user_id = user_id_of(user)
        return await self._db.read(
            lambda ctx: stats_unit(user_id, since(ctx.now, period), private=private)
        )

    async def together(
        self, me: User | int, them: User | int, *, limit: int = 20, before: int | None = None
    ) -> tuple[int, list[HandSummary]]:
        """How many finished hands ``me`` and ``them`` were both dealt in, and the newest
        ``limit`` of them (below hand id ``before``) with ``me``'s result in each. What
        ``me`` may see of each is its history as their seat saw it."""
        mine, theirs = user_id_of(me), user_id_of(them)
        if type(limit) is not int or not 1 <= limit <= 100:
            raise AccountError("bad_limit", f"a limit is 1 to 100 hands, not {limit!r}")
        check_before(before)
        top = MAX_ROW_ID if before is None else before

        def unit(ctx: Context) -> Unit[tuple[int, list[HandSummary]]]:
            count = yield one(TOGETHER_COUNT, me=mine, them=theirs)
            rows = yield all_rows(TOGETHER, me=mine, them=theirs, before=top, limit=limit)
            return int(count[0]), [summary_of(row) for row in rows]

        return await self._db.read(unit)

    async def board(
        self, game: str, week: str, *, least: int = 100, limit: int = BOARD_LIMIT
    ) -> list[BoardRow]:
        """``game``'s leaderboard of ``week``: people at public tables with ``least`` hands or
        more, best chips won a hand first."""
        game = get_game(game if isinstance(game, str) else repr(game)).name
        week_start(week)
        if type(least) is not int or not 1 <= least <= 1_000_000:
            raise AccountError("bad_least", f"a minimum is 1 to 1000000 hands, not {least!r}")
        if type(limit) is not int or not 1 <= limit <= BOARD_LIMIT:
            raise AccountError("bad_limit", f"a limit is 1 to {BOARD_LIMIT} lines, not {limit!r}")
        return await self._db.read(lambda ctx: board_unit(game, week, least, limit))
