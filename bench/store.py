"""Store benchmark: the room's writes on SQLite and PostgreSQL, against the bare drivers.

    python bench/store.py                 # the full run (a few minutes)
    python bench/store.py --quick         # a short run
    python bench/store.py --postgresql-url postgresql://postgres@127.0.0.1:5432/test

For each database, each path is timed for pokerhouse's store and for a
bare-driver baseline (``sqlite3`` or asyncpg, called directly) that runs the
same statements and writes the same rows, each on a database of its own set
up the same way. The contenders run in interleaved rounds and each keeps its
best round. Paths:

* **append, single**: one action per commit (one table);
* **append, grouped**: eight tables' actions in one commit (group commit);
* **settlement**: the end of a six-player hand in one commit: its record
  (six results, a 4 KB history, the "finished" mark, six seat stacks) and its
  settlement transaction (six in-play entries), by 1 writer and by 8
  concurrent writers, each writer settling hands at tables of its own (the
  hands were started, untimed, before the clock starts);
* **ledger check** over 1,000,000 entries (500,000 transfers): every
  invariant against running the same queries directly.

PostgreSQL needs a server: the URL names one and a database to connect to
(default ``$POKERHOUSE_TEST_DATABASE_URL``, else the local ``test``
database); the benchmark makes its own databases there and drops them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import secrets
import sqlite3
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
from sqlalchemy.engine import make_url

from pokerhouse.cards import Deck
from pokerhouse.store import (
    ActionRecord,
    Batch,
    HandFinish,
    HandStart,
    HandVoid,
    SeatIn,
    Store,
    TableConfig,
)
from pokerhouse.store import hands as hand_sql
from pokerhouse.store import ledger as ledger_sql
from pokerhouse.store.check import CHECKS, COUNTS
from pokerhouse.store.migrate import upgrade
from pokerhouse.store.sql import Stmt
from pokerhouse.store.urls import parse_url

TABLES = 8
PLAYERS = 6
STACK = 1_000_000
ORDER = [str(card) for card in Deck(random.Random(1)).order()]
HISTORY = '{"format": "pokerhouse-hand/1", "padding": "' + "x" * 4000 + '"}'


@dataclass
class Setup:
    """Ids of a benchmark database's tables, players and accounts."""

    writers: list[list[int]]  # each writer's tables
    users: dict[int, list[int]]  # table -> user per seat
    accounts: dict[tuple[int, int], int]  # (table, user) -> in-play account id
    stacks: dict[int, list[int]] = field(default_factory=dict)
    number: dict[int, int] = field(default_factory=dict)

    @property
    def tables(self) -> list[int]:
        """One table per writer (for the appends)."""
        return [tables[0] for tables in self.writers]

    def next_hand(self, table: int) -> tuple[int, list[tuple[int, int, int]]]:
        self.number[table] = self.number.get(table, 0) + 1
        seats = [(s, u, self.stacks[table][s]) for s, u in enumerate(self.users[table])]
        return self.number[table], seats

    def results(self, table: int, number: int) -> list[int]:
        winner = number % PLAYERS
        results = [5 if s == winner else -1 for s in range(PLAYERS)]
        self.stacks[table] = [a + b for a, b in zip(self.stacks[table], results, strict=True)]
        return results


async def prepare(url: str, per_writer: int) -> Setup:
    """Eight writers' tables, six seated players each (the writer's six), through the store."""
    store = await Store.open(url, upgrade=True)
    try:
        setup = Setup([], {}, {})
        for w in range(TABLES):
            users = [
                (
                    await store.users.create(
                        f"b{w}-{s}", None, bot=True, grant=10 * STACK * per_writer
                    )
                ).id
                for s in range(PLAYERS)
            ]
            tables = []
            for t in range(per_writer):
                config = TableConfig(
                    f"Bench {w}-{t}", "3x4", seats=PLAYERS, min_buy_in=20, max_buy_in=STACK
                )
                table = (await store.tables.create(config)).id
                tables.append(table)
                setup.users[table] = users
                setup.stacks[table] = [STACK] * PLAYERS
            setup.writers.append(tables)
            await store.commit(
                Batch(
                    seats_in=[
                        SeatIn(t, s, u, STACK, f"buy-in:{t}:{s}")
                        for t in tables
                        for s, u in enumerate(users)
                    ]
                )
            )
        ids = store.database.account_ids
        for table, users in setup.users.items():
            for user in users:
                setup.accounts[table, user] = ids[f"in-play:{table}:{user}"]
        return setup
    finally:
        await store.close()


# ---------------------------------------------------------------- the store


class Ours:
    """The workloads through pokerhouse's store."""

    name = "pokerhouse store"

    def __init__(self, store: Store, setup: Setup) -> None:
        self.store, self.setup = store, setup
        self.seq: dict[int, int] = {}

    async def open_hands(self) -> None:
        starts = []
        for table in self.setup.tables:
            number, seats = self.setup.next_hand(table)
            starts.append(HandStart(table, number, "3x4", {}, {}, seats, ORDER, 1))
            self.seq[table] = 0
        await self.store.commit(Batch(starts=starts))

    async def append_single(self, n: int) -> None:
        table = self.setup.tables[0]
        number = self.setup.number[table]
        for _ in range(n):
            seq = self.seq[table]
            self.seq[table] = seq + 1
            await self.store.commit(
                Batch(actions=[ActionRecord(table, number, seq, seq % 6, "check")])
            )

    async def append_grouped(self, n: int) -> None:
        for _ in range(n // TABLES):
            actions = []
            for table in self.setup.tables:
                seq = self.seq[table]
                self.seq[table] = seq + 1
                actions.append(ActionRecord(table, self.setup.number[table], seq, seq % 6, "check"))
            await self.store.commit(Batch(actions=actions))

    async def close_hands(self) -> None:
        await self.store.commit(
            Batch(voids=[HandVoid(t, self.setup.number[t], "benchmark") for t in self.setup.tables])
        )

    async def start_many(self, tables: list[int]) -> None:
        starts = []
        for table in tables:
            number, seats = self.setup.next_hand(table)
            starts.append(HandStart(table, number, "3x4", {}, {}, seats, ORDER, 1))
        await self.store.commit(Batch(starts=starts))

    async def finish(self, tables: list[int], group: int = 1) -> None:
        for chunk in _chunks(tables, group):
            finishes = []
            for table in chunk:
                number = self.setup.number[table]
                results = self.setup.results(table, number)
                finishes.append(HandFinish(table, number, results, history=HISTORY))
            await self.store.commit(Batch(finishes=finishes))

    async def check(self) -> None:
        report = await self.store.check()
        assert report.ok, report.summary()


# ---------------------------------------------------------------- bare drivers


def _sql(stmt: Stmt, dialect: str) -> str:
    return stmt.sqlite[0] if dialect == "sqlite" else stmt.postgresql[0]


def _chunks(tables: list[int], size: int) -> list[list[int]]:
    return [tables[i : i + size] for i in range(0, len(tables), size)]


@dataclass
class Settled:
    """One hand's settlement rows, as the bare drivers write them."""

    table: int
    number: int
    results: list[int]
    entries: list[tuple[str, int, int]]  # (account key, account id, amount), by key
    fingerprint: str
    hand: int = 0
    tx: int = 0

    @property
    def key(self) -> str:
        return f"hand:{self.table}:{self.number}"

    @property
    def meta(self) -> str:
        return f'{{"number":{self.number},"table":{self.table}}}'


def _settled(setup: Setup, table: int) -> Settled:
    number = setup.number[table]
    results = setup.results(table, number)
    users = setup.users[table]
    entries = sorted(
        (f"in-play:{table}:{u}", setup.accounts[table, u], r)
        for u, r in zip(users, results, strict=True)
    )
    fingerprint = "settlement|" + ";".join(f"{k}={a}" for k, _, a in entries)
    return Settled(table, number, results, entries, fingerprint)


def _balances(
    settled: list[Settled], locked: dict[int, int]
) -> tuple[list[int], list[tuple[int, int, int, int]]]:
    """Account ids (sorted) and entry rows with balances after, from locked balances."""
    rows = []
    for hand in settled:
        for _, account, amount in hand.entries:
            locked[account] += amount
            rows.append((hand.tx, account, amount, locked[account]))
    return sorted(locked), rows


class BareSqlite:
    """The same statements through ``sqlite3``, no layer between."""

    name = "sqlite3 directly"

    def __init__(self, path: str, setup: Setup) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None, cached_statements=512)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.execute("PRAGMA foreign_keys=ON")
        self.setup = setup
        self.seq: dict[int, int] = {}
        self.hand: dict[int, int] = {}
        self.q = {name: _sql(stmt, "sqlite") for name, stmt in _statements().items()}

    async def open_hands(self) -> None:
        c, q = self.conn, self.q
        c.execute("BEGIN IMMEDIATE")
        for table in self.setup.tables:
            number, seats = self.setup.next_hand(table)
            self.hand[table] = self._start(table, number, seats)
            self.seq[table] = 0
        c.execute("COMMIT")
        del q

    def _start(self, table: int, number: int, seats: list[tuple[int, int, int]]) -> int:
        c, q = self.conn, self.q
        c.execute(q["leases"], (f"[{table}]",)).fetchall()
        c.execute(q["table_seats"], (table,)).fetchall()
        hand = c.execute(
            q["insert_hand"], (table, number, "3x4", "{}", "{}", 0, time.time())
        ).fetchone()[0]
        c.executemany(
            q["insert_player"], [(hand, i, s, u, st) for i, (s, u, st) in enumerate(seats)]
        )
        c.execute(q["insert_deck"], (hand, " ".join(ORDER), 1))
        return int(hand)

    def _append(self, items: list[tuple[int, int, int, int]]) -> None:
        # (table, number, seq, seat), one per hand
        c, q = self.conn, self.q
        tables = sorted({t for t, *_ in items})
        c.execute(q["leases"], (str(tables),)).fetchall()
        rows = []
        for table, number, seq, seat in items:
            hand = c.execute(q["advance"], (seq + 1, table, number, seq)).fetchone()[0]
            rows.append((hand, seq, seat, "check", None))
        c.executemany(q["insert_action"], rows)

    async def append_single(self, n: int) -> None:
        c = self.conn
        table = self.setup.tables[0]
        for _ in range(n):
            seq = self.seq[table]
            self.seq[table] = seq + 1
            c.execute("BEGIN IMMEDIATE")
            self._append([(table, self.setup.number[table], seq, seq % 6)])
            c.execute("COMMIT")

    async def append_grouped(self, n: int) -> None:
        c = self.conn
        for _ in range(n // TABLES):
            items = []
            for table in self.setup.tables:
                seq = self.seq[table]
                self.seq[table] = seq + 1
                items.append((table, self.setup.number[table], seq, seq % 6))
            c.execute("BEGIN IMMEDIATE")
            self._append(items)
            c.execute("COMMIT")

    async def close_hands(self) -> None:
        c = self.conn
        c.execute("BEGIN IMMEDIATE")
        for table in self.setup.tables:
            c.execute(
                self.q["mark_voided"], (time.time(), "benchmark", table, self.setup.number[table])
            ).fetchone()
        c.execute("COMMIT")

    async def start_many(self, tables: list[int]) -> None:
        self.conn.execute("BEGIN IMMEDIATE")
        for table in tables:
            number, seats = self.setup.next_hand(table)
            self._start(table, number, seats)
        self.conn.execute("COMMIT")

    async def finish(self, tables: list[int], group: int = 1) -> None:
        c, q = self.conn, self.q
        for chunk in _chunks(tables, group):
            settled = [_settled(self.setup, table) for table in chunk]
            now = time.time()
            c.execute("BEGIN IMMEDIATE")
            c.execute(q["leases"], (str(sorted(chunk)),)).fetchall()
            pairs = json.dumps([[hand.table, hand.number] for hand in settled])
            found = {(r[10], r[11]): r[0] for r in c.execute(q["finishing"], (pairs,))}
            reserve = [[h.key, h.fingerprint, f"hand {h.number}", h.meta] for h in settled]
            txs = dict((r[1], r[0]) for r in c.execute(q["reserve"], (now, json.dumps(reserve))))
            for hand in settled:
                hand.hand, hand.tx = found[hand.table, hand.number], txs[hand.key]
            wanted = sorted({i for hand in settled for _, i, _ in hand.entries})
            locked = {r[0]: r[1] for r in c.execute(q["lock"], (str(wanted),)).fetchall()}
            ids, entry_rows = _balances(settled, locked)
            c.executemany(q["update_balance"], [(locked[i], i) for i in ids])
            c.executemany(q["insert_entry"], entry_rows)
            seat_rows, result_rows, hand_rows = [], [], []
            for hand in settled:
                users = self.setup.users[hand.table]
                seat_rows += [(r, hand.table, s, users[s]) for s, r in enumerate(hand.results)]
                result_rows += [(r, hand.hand, s) for s, r in enumerate(hand.results)]
                hand_rows.append((now, 0, 0, HISTORY, hand.tx, hand.hand))
            c.executemany(q["add_to_seat"], seat_rows)
            c.executemany(q["set_result"], result_rows)
            c.executemany(q["mark_finished"], hand_rows)
            c.execute("COMMIT")

    async def check(self) -> None:
        c = self.conn
        c.execute("BEGIN")
        c.execute(COUNTS.sqlite[0]).fetchone()
        for _, stmt, _ in CHECKS:
            assert c.execute(stmt.sqlite[0]).fetchone() is None
        c.execute("COMMIT")


class BarePg:
    """The same statements through asyncpg, no layer between."""

    name = "asyncpg directly"

    def __init__(self, pool: asyncpg.Pool, setup: Setup) -> None:
        self.pool, self.setup = pool, setup
        self.seq: dict[int, int] = {}
        self.q = {name: _sql(stmt, "postgresql") for name, stmt in _statements().items()}

    async def _start(
        self, c: Any, table: int, number: int, seats: list[tuple[int, int, int]]
    ) -> int:
        q = self.q
        await c.fetch(q["leases"], [table])
        await c.fetch(q["table_seats"], table)
        hand = (
            await c.fetchrow(q["insert_hand"], table, number, "3x4", "{}", "{}", 0, time.time())
        )[0]
        await c.executemany(
            q["insert_player"], [(hand, i, s, u, st) for i, (s, u, st) in enumerate(seats)]
        )
        await c.execute(q["insert_deck"], hand, " ".join(ORDER), 1)
        return int(hand)

    async def open_hands(self) -> None:
        async with self.pool.acquire() as c, c.transaction():
            for table in self.setup.tables:
                number, seats = self.setup.next_hand(table)
                await self._start(c, table, number, seats)
                self.seq[table] = 0

    async def _append(self, c: Any, items: list[tuple[int, int, int, int]]) -> None:
        q = self.q
        await c.fetch(q["leases"], sorted({t for t, *_ in items}))
        rows = []
        for table, number, seq, seat in items:
            hand = (await c.fetchrow(q["advance"], seq + 1, table, number, seq))[0]
            rows.append((hand, seq, seat, "check", None))
        await c.executemany(q["insert_action"], rows)

    async def append_single(self, n: int) -> None:
        table = self.setup.tables[0]
        for _ in range(n):
            seq = self.seq[table]
            self.seq[table] = seq + 1
            async with self.pool.acquire() as c, c.transaction():
                await self._append(c, [(table, self.setup.number[table], seq, seq % 6)])

    async def append_grouped(self, n: int) -> None:
        for _ in range(n // TABLES):
            items = []
            for table in self.setup.tables:
                seq = self.seq[table]
                self.seq[table] = seq + 1
                items.append((table, self.setup.number[table], seq, seq % 6))
            async with self.pool.acquire() as c, c.transaction():
                await self._append(c, items)

    async def close_hands(self) -> None:
        async with self.pool.acquire() as c, c.transaction():
            for table in self.setup.tables:
                await c.fetchrow(
                    self.q["mark_voided"], time.time(), "benchmark", table, self.setup.number[table]
                )

    async def start_many(self, tables: list[int]) -> None:
        async with self.pool.acquire() as c, c.transaction():
            for table in tables:
                number, seats = self.setup.next_hand(table)
                await self._start(c, table, number, seats)

    async def finish(self, tables: list[int], group: int = 1) -> None:
        q = self.q
        for chunk in _chunks(tables, group):
            settled = [_settled(self.setup, table) for table in chunk]
            now = time.time()
            async with self.pool.acquire() as c, c.transaction():
                await c.fetch(q["leases"], sorted(chunk))
                rows = await c.fetch(
                    q["finishing"], [h.table for h in settled], [h.number for h in settled]
                )
                found = {(r[10], r[11]): r[0] for r in rows}
                rows = await c.fetch(
                    q["reserve"],
                    now,
                    [h.key for h in settled],
                    [h.fingerprint for h in settled],
                    [f"hand {h.number}" for h in settled],
                    [h.meta for h in settled],
                )
                txs = {r[1]: r[0] for r in rows}
                for hand in settled:
                    hand.hand, hand.tx = found[hand.table, hand.number], txs[hand.key]
                wanted = sorted({i for hand in settled for _, i, _ in hand.entries})
                locked = {r[0]: r[1] for r in await c.fetch(q["lock"], wanted)}
                ids, entry_rows = _balances(settled, locked)
                seats = list(range(PLAYERS))
                # The store's one statement for the rest of a settlement (FINISH_PG).
                await c.fetchrow(
                    q["finish_pg"],
                    ids,
                    [locked[i] for i in ids],
                    *(list(column) for column in zip(*entry_rows, strict=True)),
                    [h.table for h in settled for _ in seats],
                    seats * len(settled),
                    [u for h in settled for u in self.setup.users[h.table]],
                    [r for h in settled for r in h.results],
                    [h.hand for h in settled for _ in seats],
                    seats * len(settled),
                    [r for h in settled for r in h.results],
                    now,
                    [h.hand for h in settled],
                    [0] * len(settled),
                    [0] * len(settled),
                    [HISTORY] * len(settled),
                    [h.tx for h in settled],
                )

    async def check(self) -> None:
        async with (
            self.pool.acquire() as c,
            c.transaction(isolation="repeatable_read", readonly=True),
        ):
            await c.fetchrow(COUNTS.postgresql[0])
            for _, stmt, _ in CHECKS:
                assert await c.fetchrow(stmt.postgresql[0]) is None


def _statements() -> dict[str, Stmt]:
    """The store's own statements, by name (their parameter order is the SQL's)."""
    return {
        "leases": hand_sql.LEASES,
        "table_seats": hand_sql.TABLE_SEATS,
        "insert_hand": hand_sql.INSERT_HAND,
        "insert_player": hand_sql.INSERT_PLAYER,
        "insert_deck": hand_sql.INSERT_DECK,
        "advance": hand_sql.ADVANCE,
        "insert_action": hand_sql.INSERT_ACTION,
        "finishing": hand_sql.FINISHING_MANY,
        "reserve": hand_sql.RESERVE_SETTLEMENTS,
        "add_to_seat": hand_sql.ADD_TO_SEAT,
        "set_result": hand_sql.SET_RESULT,
        "mark_finished": hand_sql.MARK_FINISHED,
        "mark_voided": hand_sql.MARK_VOIDED,
        "finish_pg": hand_sql.FINISH_PG,
        "lock": ledger_sql.LOCK_ACCOUNTS,
        "update_balance": ledger_sql.UPDATE_BALANCE,
        "insert_entry": ledger_sql.INSERT_ENTRY,
    }


# ---------------------------------------------------------------- timing

Contender = Ours | BareSqlite | BarePg


@dataclass
class Row:
    """One line of the report."""

    database: str
    path: str
    ours: float
    bare: float
    unit: str = "/s"

    @property
    def ratio(self) -> float:
        """How many times slower the store is than the bare driver (1.0: as fast)."""
        if self.unit == "s":
            return self.ours / self.bare
        return self.bare / self.ours


async def best_rate(
    contenders: tuple[Contender, Contender],
    work: Callable[[Contender], Awaitable[tuple[int, float]]],
    rounds: int,
) -> tuple[float, float]:
    """Each contender's best rate over interleaved rounds; ``work`` returns
    (operations, seconds) so that it can leave an untimed set-up out."""
    best = [0.0, 0.0]
    for _ in range(rounds):
        for i, contender in enumerate(contenders):
            done, seconds = await work(contender)
            best[i] = max(best[i], done / seconds)
    return best[0], best[1]


async def run_paths(
    database: str, contenders: tuple[Contender, Contender], n: int, rounds: int
) -> list[Row]:
    """Every write path, each contender on its own database."""
    rows = []
    for contender in contenders:
        await contender.open_hands()

    async def single(c: Contender) -> tuple[int, float]:
        start = time.perf_counter()
        await c.append_single(n)
        return n, time.perf_counter() - start

    async def grouped(c: Contender) -> tuple[int, float]:
        start = time.perf_counter()
        await c.append_grouped(n * 4)
        return (n * 4 // TABLES) * TABLES, time.perf_counter() - start

    def settle(writers: int) -> Callable[[Contender], Awaitable[tuple[int, float]]]:
        async def work(c: Contender) -> tuple[int, float]:
            mine = c.setup.writers[:writers]
            await c.start_many([t for tables in mine for t in tables])  # dealt earlier: untimed
            start = time.perf_counter()
            await asyncio.gather(*(c.finish(tables) for tables in mine))
            return sum(map(len, mine)), time.perf_counter() - start

        return work

    rows.append(
        Row(database, "append, single commits", *await best_rate(contenders, single, rounds))
    )
    rows.append(
        Row(
            database,
            "append, grouped (8 tables a commit)",
            *await best_rate(contenders, grouped, rounds),
        )
    )
    for contender in contenders:
        await contender.close_hands()
    for writers in (1, TABLES):
        label = f"settlement, {writers} writer{'s' if writers > 1 else ''}"
        rows.append(Row(database, label, *await best_rate(contenders, settle(writers), rounds)))

    async def grouped_settle(c: Contender) -> tuple[int, float]:
        # One writer settling the eight tables' hands eight to a commit (group commit).
        tables = [t for column in zip(*c.setup.writers, strict=True) for t in column]
        await c.start_many(tables)
        start = time.perf_counter()
        await c.finish(tables, TABLES)
        return len(tables), time.perf_counter() - start

    label = "settlement, grouped (8 hands a commit)"
    rows.append(Row(database, label, *await best_rate(contenders, grouped_settle, rounds)))
    return rows


# ---------------------------------------------------------------- 1,000,000 entries


def ledger_rows(transfers: int, users: int) -> dict[str, list[tuple[Any, ...]]]:
    """Honest books: each wallet's opening grant from the issuer, then random
    transfers between wallets, every entry with its account's balance after."""
    rng = random.Random(5)
    issuer, first_wallet = 1, 4  # the migration makes issuer, house, rake: ids 1 to 3
    balance = {issuer: 0} | {first_wallet + u: 0 for u in range(users)}
    txs: list[tuple[Any, ...]] = []
    entries: list[tuple[Any, ...]] = []

    def post(key: str, moves: list[tuple[int, int]]) -> None:
        tx = len(txs) + 1
        txs.append((tx, key, "grant", "", "", None, 0.0))
        for account, amount in moves:
            balance[account] += amount
            entries.append((len(entries) + 1, tx, account, amount, balance[account]))

    for u in range(users):
        post(f"open:{u}", [(issuer, -1_000_000), (first_wallet + u, 1_000_000)])
    for n in range(transfers):
        a, b = rng.sample(range(first_wallet, first_wallet + users), 2)
        amount = rng.randint(1, 100)
        post(f"t{n}", [(a, -amount), (b, amount)])
    return {
        "users": [(u + 1, f"u{u}", f"u{u}", None, True, 0.0) for u in range(users)],
        "ledger_accounts": [
            (first_wallet + u, f"wallet:{u + 1}", "wallet", u + 1, None, balance[first_wallet + u])
            for u in range(users)
        ],
        "ledger_transactions": txs,
        "ledger_entries": entries,
        "issuer": [(balance[issuer],)],
    }


async def fill_ledger(url: str, transfers: int) -> None:
    """A fresh database holding ``2 * transfers`` entries and 1,000 wallets' grants."""
    rows = ledger_rows(transfers, 1_000)
    issuer = rows.pop("issuer")[0][0]
    parsed = parse_url(url)
    await upgrade(parsed)
    if parsed.get_backend_name() == "sqlite":
        assert parsed.database is not None
        with sqlite3.connect(parsed.database) as c:
            for table, values in rows.items():
                marks = ", ".join("?" * len(values[0]))
                c.executemany(f"INSERT INTO {table} VALUES ({marks})", values)
            c.execute("UPDATE ledger_accounts SET balance = ? WHERE id = 1", (issuer,))
        return
    conn = await asyncpg.connect(_dsn(url))
    try:
        for table, values in rows.items():
            await conn.copy_records_to_table(table, records=values)
        await conn.execute("UPDATE ledger_accounts SET balance = $1 WHERE id = 1", issuer)
        await conn.execute("SELECT setval('ledger_accounts_id_seq', 10000)")
        await conn.execute("ANALYZE")
    finally:
        await conn.close()


def _dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def time_check(url: str, rounds: int) -> tuple[float, float, int]:
    """Best seconds for ``store.check()`` and for the same queries on the bare driver."""
    store = await Store.open(url)
    parsed = parse_url(url)
    try:
        report = await store.check()
        assert report.ok, report.summary()
        best_ours = best_bare = float("inf")
        for _ in range(rounds):
            start = time.perf_counter()
            await store.check()
            best_ours = min(best_ours, time.perf_counter() - start)
            start = time.perf_counter()
            if parsed.get_backend_name() == "sqlite":
                assert parsed.database is not None
                conn = sqlite3.connect(parsed.database, isolation_level=None)
                conn.execute("BEGIN")
                conn.execute(COUNTS.sqlite[0]).fetchone()
                for _, stmt, _ in CHECKS:
                    assert conn.execute(stmt.sqlite[0]).fetchone() is None
                conn.close()
            else:
                pg = await asyncpg.connect(_dsn(url))
                async with pg.transaction(isolation="repeatable_read", readonly=True):
                    await pg.fetchrow(COUNTS.postgresql[0])
                    for _, stmt, _ in CHECKS:
                        assert await pg.fetchrow(stmt.postgresql[0]) is None
                await pg.close()
            best_bare = min(best_bare, time.perf_counter() - start)
        return best_ours, best_bare, report.entries
    finally:
        await store.close()


# ---------------------------------------------------------------- databases


class PgServer:
    """Databases made on a PostgreSQL server for the run, dropped after it."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.made: list[str] = []

    def _admin(self) -> str:
        return _dsn(self.url)

    async def create(self) -> str:
        name = f"ph_bench_{secrets.token_hex(4)}"
        conn = await asyncpg.connect(self._admin(), timeout=5)
        try:
            await conn.execute(f"CREATE DATABASE {name}")
        finally:
            await conn.close()
        self.made.append(name)
        return make_url(self.url).set(database=name).render_as_string(False)

    async def drop_all(self) -> None:
        conn = await asyncpg.connect(self._admin())
        try:
            for name in self.made:
                await conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        finally:
            await conn.close()


async def sqlite_rows(
    folder: Path, n: int, rounds: int, entries: int, per_writer: int
) -> list[Row]:
    ours_url = f"sqlite:///{folder / 'ours.db'}"
    bare_path = folder / "bare.db"
    setup_ours = await prepare(ours_url, per_writer)
    setup_bare = await prepare(f"sqlite:///{bare_path}", per_writer)
    store = await Store.open(ours_url)
    try:
        rows = await run_paths(
            "SQLite", (Ours(store, setup_ours), BareSqlite(str(bare_path), setup_bare)), n, rounds
        )
        await Ours(store, setup_ours).check()
    finally:
        await store.close()
    big = f"sqlite:///{folder / 'ledger.db'}"
    await fill_ledger(big, entries // 2)
    ours_s, bare_s, count = await time_check(big, max(1, rounds // 2))
    rows.append(Row("SQLite", f"ledger check, {count:,} entries", ours_s, bare_s, "s"))
    return rows


async def postgres_rows(
    server: PgServer, n: int, rounds: int, entries: int, per_writer: int
) -> list[Row]:
    ours_url, bare_url = await server.create(), await server.create()
    setup_ours = await prepare(ours_url, per_writer)
    setup_bare = await prepare(bare_url, per_writer)
    store = await Store.open(ours_url, pool_size=10)
    pool = await asyncpg.create_pool(
        _dsn(bare_url),
        min_size=10,
        max_size=10,
    )
    try:
        rows = await run_paths(
            "PostgreSQL", (Ours(store, setup_ours), BarePg(pool, setup_bare)), n, rounds
        )
        await Ours(store, setup_ours).check()
    finally:
        await store.close()
        await pool.close()
    big = await server.create()
    await fill_ledger(big, entries // 2)
    ours_s, bare_s, count = await time_check(big, max(1, rounds // 2))
    rows.append(Row("PostgreSQL", f"ledger check, {count:,} entries", ours_s, bare_s, "s"))
    return rows


def print_rows(rows: list[Row]) -> None:
    print(f"{'database':<11} {'path':<38} {'pokerhouse':>14} {'bare driver':>14} {'ratio':>7}")
    for row in rows:
        if row.unit == "s":
            ours, bare = f"{row.ours:.2f} s", f"{row.bare:.2f} s"
        else:
            ours, bare = f"{row.ours:,.0f}/s", f"{row.bare:,.0f}/s"
        print(f"{row.database:<11} {row.path:<38} {ours:>14} {bare:>14} {row.ratio:>6.2f}x")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short run")
    parser.add_argument(
        "--postgresql-url",
        default=os.environ.get(
            "POKERHOUSE_TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test"
        ),
        help="a PostgreSQL server and a database to connect to (the run makes its own)",
    )
    args = parser.parse_args()
    n, rounds, entries, per_writer = (
        (200, 2, 100_000, 10) if args.quick else (2_000, 5, 1_000_000, 40)
    )
    print(
        f"Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores; "
        f"SQLite {sqlite3.sqlite_version} (WAL, synchronous=NORMAL)"
    )
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as folder:
        rows += await sqlite_rows(Path(folder), n, rounds, entries, per_writer)
    server = PgServer(args.postgresql_url)
    try:
        rows += await postgres_rows(server, n, rounds, entries, per_writer)
    except (OSError, asyncpg.PostgresError) as error:
        print(f"PostgreSQL skipped: {error}")
    finally:
        if server.made:
            await server.drop_all()
    print()
    print_rows(rows)
    print("\nratio: the bare driver's speed over pokerhouse's (ledger check: time over time)")


if __name__ == "__main__":
    asyncio.run(main())
