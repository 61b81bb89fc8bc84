"""Stats benchmark: a player's stats page with 100,000 hands, from kept figures or from the hands.

    python bench/stats.py                  # 100,000 hands, SQLite and PostgreSQL
    python bench/stats.py --hands 5000 --rounds 50 --no-postgresql   # a short run

A player ("ann") has ``--hands`` finished hands spread over two years and the
four games, stored as the room stores them (a ``hands`` row and a
``hand_players`` row per hand and player) and summed into ``player_stats``
by the settlement's own code (:func:`pokerhouse.store.stats.add_unit`). Two
contenders answer the same question, the player's figures by game over all
time, through the store's public read:

* **kept figures**: ``Store.stats.player`` and the page's lines
  (:func:`pokerhouse.server.stats.api.figures`), what ``GET
  /api/players/{name}/stats`` does;
* **read every hand** (the baseline): the hands and chips summed from
  ``hand_players`` on each view, the least a page without kept figures would
  read (it counts no VPIP or showdowns, which would mean parsing every
  history besides).

Each contender answers ``--rounds`` times, interleaved; the benchmark prints
p50 and p99 latency of each and their ratio. The issue's goal: the kept
figures under 50 ms at p99 for a player with 100,000 hands.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg
from sqlalchemy.engine import make_url

from pokerhouse.history.figures import FIELDS
from pokerhouse.server.stats.api import figures
from pokerhouse.server.stats.schemas import GameFigures
from pokerhouse.store import Store, TableConfig
from pokerhouse.store.sql import Context, Stmt, Unit, all_rows, many
from pokerhouse.store.stats import add_unit, week_of

GAMES = ("3x4", "razz", "teen-patti", "casino-holdem")
TWO_YEARS = 2 * 365 * 86_400.0
NOW = 1_800_000_000.0
INSERT_HAND = Stmt(
    "INSERT INTO hands (id, table_id, number, game, spec, setup, start_seq, status, next_seq, "
    "started_at, finished_at) VALUES (:id, :table, :id, :game, '{}', '{}', 0, 'finished', 0, "
    ":at, :at)"
)
INSERT_PLAYER = Stmt(
    "INSERT INTO hand_players (hand_id, hand_seat, table_seat, user_id, stack, result) "
    "VALUES (:hand, :seat, :seat, :user, 500, :result)"
)
# The baseline's question: every hand of the player, summed by game.
EVERY_HAND = Stmt(
    "SELECT h.game, COUNT(*), SUM(p.result) FROM hand_players p JOIN hands h "
    "ON h.id = p.hand_id WHERE p.user_id = :user AND h.status = 'finished' GROUP BY h.game"
)


async def fill(store: Store, hands: int, rng: random.Random) -> int:
    """``hands`` finished hands of ann's against one opponent; ann's id."""
    ann = (await store.users.create("ann", None, bot=True)).id
    bob = (await store.users.create("bob", None, bot=True)).id
    tables = {g: (await store.tables.create(TableConfig(f"T {g}", g))).id for g in GAMES}
    weeks: dict[str, list[Any]] = {}
    hand_rows, player_rows = [], []
    for number in range(1, hands + 1):
        game = GAMES[number % len(GAMES)]
        at = NOW - TWO_YEARS + TWO_YEARS * number / hands
        result = rng.randint(-40, 40)
        hand_rows.append({"id": number, "table": tables[game], "game": game, "at": at})
        player_rows.append({"hand": number, "seat": 0, "user": ann, "result": result})
        player_rows.append({"hand": number, "seat": 1, "user": bob, "result": -result})
        counters = [rng.randint(0, 1) for _ in FIELDS]
        weeks.setdefault(week_of(at), []).append((ann, game, "public", result, counters))

    def unit(ctx: Context) -> Unit[None]:
        for start in range(0, hands, 10_000):
            yield many(INSERT_HAND, hand_rows[start : start + 10_000])
            yield many(INSERT_PLAYER, player_rows[2 * start : 2 * (start + 10_000)])
        for week, lines in weeks.items():
            yield from add_unit(week, lines)

    await store.database.write(unit, heavy=True)
    return ann


async def timed(answer: Callable[[], Awaitable[Any]]) -> float:
    started = time.perf_counter()
    await answer()
    return time.perf_counter() - started


async def run(url: str, hands: int, rounds: int) -> dict[str, tuple[float, float]]:
    """p50 and p99 (ms) of each contender on the database at ``url``."""
    async with await Store.open(url, upgrade=True, clock=lambda: NOW) as store:
        ann = await fill(store, hands, random.Random(5))

        async def kept() -> list[GameFigures]:
            return [figures(line) for line in await store.stats.player(ann)]

        async def every_hand() -> list[Any]:
            def unit(ctx: Context) -> Unit[list[Any]]:
                rows: list[Any] = yield all_rows(EVERY_HAND, user=ann)
                return rows

            return await store.database.read(unit)

        pages = await kept()
        assert sum(page.hands for page in pages) == hands, pages
        base = await every_hand()
        assert sum(int(row[1]) for row in base) == hands
        assert sum(int(row[2]) for row in base) == sum(page.net for page in pages)
        times: dict[str, list[float]] = {"kept figures": [], "read every hand": []}
        for _ in range(rounds):
            times["kept figures"].append(await timed(kept))
            times["read every hand"].append(await timed(every_hand))
    return {name: _percentiles(found) for name, found in times.items()}


def _percentiles(found: list[float]) -> tuple[float, float]:
    cuts = statistics.quantiles(found, n=100, method="inclusive")
    return 1000 * statistics.median(found), 1000 * cuts[98]


async def _postgresql(base: str, hands: int, rounds: int) -> dict[str, tuple[float, float]]:
    name = f"bench_stats_{os.getpid()}"
    admin = make_url(base).set(drivername="postgresql")
    connection = await asyncpg.connect(admin.render_as_string(hide_password=False))
    try:
        await connection.execute(f'CREATE DATABASE "{name}"')
        try:
            url = make_url(base).set(database=name).render_as_string(hide_password=False)
            return await run(url, hands, rounds)
        finally:
            await connection.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
    finally:
        await connection.close()


def report(database: str, found: dict[str, tuple[float, float]]) -> None:
    """Print one database's figures and the ratio to the baseline."""
    kept, base = found["kept figures"], found["read every hand"]
    for name, (p50, p99) in found.items():
        print(f"{database:10} {name:16} p50 {p50:8.2f} ms   p99 {p99:8.2f} ms")
    print(f"{database:10} read every hand / kept figures: p50 {base[0] / kept[0]:.0f}x, "
          f"p99 {base[1] / kept[1]:.0f}x; goal p99 < 50 ms: "
          f"{'met' if kept[1] < 50 else 'NOT met'}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--no-postgresql", action="store_true")
    parser.add_argument(
        "--postgresql-url",
        default=os.environ.get(
            "POKERHOUSE_TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test"
        ),
    )
    args = parser.parse_args()
    if args.hands < 4 or args.rounds < 2:
        parser.error("--hands is 4 or more, --rounds 2 or more")
    print(f"a player with {args.hands:,} hands over two years; {args.rounds} views each")
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/stats.db"
        report("SQLite", asyncio.run(run(url, args.hands, args.rounds)))
    if not args.no_postgresql:
        report("PostgreSQL", asyncio.run(_postgresql(args.postgresql_url, args.hands, args.rounds)))


if __name__ == "__main__":
    main()
