"""Schema revisions: SQLite migrates itself; PostgreSQL waits for ``pokerhouse db upgrade``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pokerhouse.store import DatabaseError, Store
from pokerhouse.store.accounts import Account
from pokerhouse.store.migrate import current_revision, head_revision, upgrade
from pokerhouse.store.sql import Context, Stmt, Unit, run
from pokerhouse.store.urls import parse_url


async def test_a_new_database_is_refused_until_upgraded(empty_db_url: str) -> None:
    url = parse_url(empty_db_url)
    if url.get_backend_name() == "sqlite":
        # SQLite creates and migrates its file on first use...
        store = await Store.open(empty_db_url)
        await store.close()
        assert await current_revision(url) == head_revision()
        return
    # ...PostgreSQL is refused, with the command to run.
    with pytest.raises(DatabaseError) as caught:
        await Store.open(empty_db_url)
    assert caught.value.code == "schema_outdated"
    assert "pokerhouse db upgrade" in str(caught.value)
    assert await upgrade(url) == (None, head_revision())
    assert await upgrade(url) == (head_revision(), head_revision())
    store = await Store.open(empty_db_url)
    try:
        assert (await store.check()).ok
    finally:
        await store.close()


async def test_an_unmigrated_sqlite_file_is_refused_when_upgrades_are_off(tmp_path: Path) -> None:
    with pytest.raises(DatabaseError) as caught:
        await Store.open(f"sqlite:///{tmp_path / 'room.db'}", upgrade=False)
    assert caught.value.code == "schema_outdated"


async def test_a_newer_revision_than_this_pokerhouse_knows_is_refused(
    store: Store, db_url: str
) -> None:
    def stamp(ctx: Context) -> Unit[None]:
        yield run(Stmt("UPDATE alembic_version SET version_num = '9999'"))

    await store.database.write(stamp)
    for attempt in (Store.open(db_url), upgrade(parse_url(db_url))):
        with pytest.raises(DatabaseError) as caught:
            await attempt
        assert caught.value.code == "schema_newer"

    def unstamp(ctx: Context) -> Unit[None]:
        yield run(Stmt(f"UPDATE alembic_version SET version_num = '{head_revision()}'"))

    await store.database.write(unstamp)


async def test_an_unreachable_server_is_a_coded_error() -> None:
    with pytest.raises(DatabaseError) as caught:
        await Store.open("postgresql://nobody@127.0.0.1:1/none")
    assert caught.value.code == "database_unavailable"


async def test_the_migrations_build_exactly_the_schema(db_url: str) -> None:
    """What the migrations made and ``store/schema.py`` describe are the same tables."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from pokerhouse.store.migrate import migration_engine
    from pokerhouse.store.schema import metadata

    engine = migration_engine(parse_url(db_url))
    try:
        async with engine.connect() as connection:
            diffs = await connection.run_sync(
                lambda sync: compare_metadata(
                    MigrationContext.configure(sync, opts={"compare_type": True}), metadata
                )
            )
    finally:
        await engine.dispose()
    assert diffs == []


async def _migrate(url: str, target: str, *, down: bool = False) -> None:
    """Move the database at ``url`` to revision ``target`` with the shipped migrations."""
    from alembic import command

    from pokerhouse.store.migrate import _config, migration_engine

    engine = migration_engine(parse_url(url))
    try:
        async with engine.begin() as connection:
            move = command.downgrade if down else command.upgrade
            await connection.run_sync(lambda sync: move(_config(sync), target))
    finally:
        await engine.dispose()


async def _sql(url: str, *statements: str) -> list[Any]:
    from sqlalchemy import text

    from pokerhouse.store.migrate import migration_engine

    engine = migration_engine(parse_url(url))
    try:
        async with engine.begin() as connection:
            results = [await connection.execute(text(sql)) for sql in statements]
            return [r.all() if r.returns_rows else r.rowcount for r in results]
    finally:
        await engine.dispose()


async def test_tournaments_revision_keeps_the_books_and_their_triggers(empty_db_url: str) -> None:
    """0004 -> 0005 widens the ledger's kinds without losing a row, a constraint or a trigger
    (SQLite copies the two ledger tables to do it)."""
    url = parse_url(empty_db_url)
    if url.get_backend_name() == "sqlite":
        Path(str(url.database)).parent.mkdir(parents=True, exist_ok=True)
    await _migrate(empty_db_url, "0004")
    await _sql(
        empty_db_url,
        "INSERT INTO users (username, username_key, is_bot, created_at) "
        "VALUES ('ann', 'ann', false, 0)",
        "INSERT INTO ledger_accounts (key, kind, user_id, balance) "
        "VALUES ('wallet:1', 'wallet', 1, 100)",
        "UPDATE ledger_accounts SET balance = -100 WHERE key = 'issuer'",
        "INSERT INTO ledger_transactions (key, kind, fingerprint, memo, created_at) "
        "VALUES ('grant:1', 'grant', 'grant|issuer=-100;wallet:1=100', '', 0)",
        "INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after) "
        "SELECT 1, id, -100, -100 FROM ledger_accounts WHERE key = 'issuer'",
        "INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after) "
        "SELECT 1, id, 100, 100 FROM ledger_accounts WHERE key = 'wallet:1'",
    )
    await _migrate(empty_db_url, "head")
    for refused in (
        "UPDATE ledger_transactions SET memo = 'x'",
        "DELETE FROM ledger_transactions",
        "UPDATE ledger_accounts SET balance = -1 WHERE key = 'wallet:1'",
        "INSERT INTO ledger_accounts (key, kind) VALUES ('x', 'piggy-bank')",
    ):
        with pytest.raises(Exception, match=r"append-only|constraint|violates"):
            await _sql(empty_db_url, refused)
    (kinds,) = await _sql(empty_db_url, "SELECT key, kind FROM ledger_accounts ORDER BY id")
    assert [tuple(row) for row in kinds][-1] == ("fees", "fees") and len(kinds) == 5
    store = await Store.open(empty_db_url)
    try:
        from pokerhouse.tournament import Director, Register, sit_and_go

        record = await store.tournaments.create(sit_and_go("razz", seats=2, buy_in=60, fee=5))
        director = Director(record.spec, state=record.state())
        orders = director.apply(Register("ann", 1))
        await store.tournaments.step(record, director.state, orders)
        assert await store.ledger.balance(Account.wallet(1)) == 35
        assert (await store.check()).ok
    finally:
        await store.close()
    # Back to 0004 is refused once a tournament has moved chips: the ledger is never rewritten.
    with pytest.raises(Exception, match=r"constraint|violates"):
        await _migrate(empty_db_url, "0004", down=True)
    assert await current_revision(parse_url(empty_db_url)) == head_revision()


async def test_the_pro_bots_revision_gives_smart_tables_pro_bots_and_chat(
    empty_db_url: str,
) -> None:
    """0006 -> 0007: a table of smart bots gets the pro bots, a random one keeps its own;
    every table's bots may chat; and back again."""
    url = parse_url(empty_db_url)
    if url.get_backend_name() == "sqlite":
        Path(str(url.database)).parent.mkdir(parents=True, exist_ok=True)
    await _migrate(empty_db_url, "0006")
    columns = (
        "name, game, options, seats, min_buy_in, max_buy_in, rake_bps, rake_cap, max_boxes, "
        "bots, bot_kind, decision_seconds, time_bank_seconds, created_at"
    )
    await _sql(
        empty_db_url,
        f"INSERT INTO room_tables ({columns}) VALUES "
        "('A', 'razz', '{}', 6, 20, 100, 0, 0, 1, 2, 'smart', 15, 30, 0)",
        f"INSERT INTO room_tables ({columns}) VALUES "
        "('B', 'razz', '{}', 6, 20, 100, 0, 0, 1, 2, 'random', 15, 30, 0)",
    )
    await _migrate(empty_db_url, "head")
    (rows,) = await _sql(
        empty_db_url, "SELECT name, bot_kind, bot_chat FROM room_tables ORDER BY name"
    )
    assert [tuple(row) for row in rows] == [("A", "pro", True), ("B", "random", True)]
    await _migrate(empty_db_url, "0006", down=True)
    (rows,) = await _sql(empty_db_url, "SELECT name, bot_kind FROM room_tables ORDER BY name")
    assert [tuple(row) for row in rows] == [("A", "smart"), ("B", "random")]


async def test_the_stats_revision_counts_the_hands_already_finished(db_url: str) -> None:
    """0007 -> 0008 fills ``player_stats`` from the finished hands' histories: dropped and
    built again, it holds exactly what the settlements had summed."""
    import random

    from pokerhouse.engine import Action
    from pokerhouse.games import new_hand
    from pokerhouse.history.figures import hand_figures
    from pokerhouse.history.json_history import to_json
    from pokerhouse.store import Batch, HandFinish
    from tests.store.test_hands import seated_table, start_for

    rng = random.Random(8)
    store = await Store.open(db_url)
    try:
        table = await seated_table(store, 2, game="razz")
        users = [seat.user_id for seat in await store.tables.seats(table)]
        for number in range(1, 13):
            hand = new_hand("razz", [500, 500], seed=number)
            while not hand.is_over:
                legal = rng.choice(list(hand.legal_actions()))
                hand.act(Action(legal.kind, legal.min_amount))
            await store.commit(Batch(starts=[await start_for(store, table, number, game="razz")]))
            net = tuple(b - a for a, b in zip(hand.starting_stacks, hand.stacks, strict=True))
            finish = HandFinish(
                table, number, net, history=to_json(hand, compact=True),
                figures=hand_figures(hand.events),
            )  # fmt: skip
            await store.commit(Batch(finishes=[finish]))
        kept = [await store.stats.player(user) for user in users]
    finally:
        await store.close()
    assert sum(stats[0].hands for stats in kept) == 24
    await _migrate(db_url, "0007", down=True)
    await _migrate(db_url, "head")
    store = await Store.open(db_url)
    try:
        assert [await store.stats.player(user) for user in users] == kept
    finally:
        await store.close()


async def test_the_bots_board_revision_counts_the_hands_already_finished(db_url: str) -> None:
    """0009 -> 0010 fills ``bot_standings`` from the finished hands at tables for bots only:
    dropped and built again, the board is exactly what the settlements had summed."""
    import random

    from pokerhouse.engine import Action
    from pokerhouse.games import new_hand
    from pokerhouse.store import Batch, HandFinish
    from tests.store.test_hands import seated_table, start_for

    rng = random.Random(9)
    store = await Store.open(db_url)
    try:
        tables = [
            await seated_table(store, 2, name="bots", game="razz", bots_only=True),
            await seated_table(store, 2, name="open", game="razz"),
        ]
        for table in tables:
            for number in range(1, 9):
                hand = new_hand("razz", [500, 500], seed=number)
                while not hand.is_over:
                    legal = rng.choice(list(hand.legal_actions()))
                    hand.act(Action(legal.kind, legal.min_amount))
                start = await start_for(store, table, number, game="razz")
                await store.commit(Batch(starts=[start]))
                net = tuple(b - a for a, b in zip(hand.starting_stacks, hand.stacks, strict=True))
                await store.commit(Batch(finishes=[HandFinish(table, number, net)]))
        kept = sorted(await store.bots.leaderboard("razz"), key=lambda line: line.username)
    finally:
        await store.close()
    assert sorted(line.username for line in kept) == ["bots-p0", "bots-p1"]
    assert [line.hands for line in kept] == [8, 8] and sum(line.net for line in kept) == 0
    await _migrate(db_url, "0009", down=True)
    await _migrate(db_url, "head")
    store = await Store.open(db_url)
    try:
        assert sorted(await store.bots.leaderboard("razz"), key=lambda x: x.username) == kept
    finally:
        await store.close()
