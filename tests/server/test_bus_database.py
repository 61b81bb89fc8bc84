"""Several nodes through a PostgreSQL outage: the room goes on as one node does.

Two real nodes on a PostgreSQL server of the test's own and on Redis: node
``a`` runs the table, one player is on ``a`` and one on ``b`` (served through
the bus). In the middle of a hand PostgreSQL is stopped for a few seconds and
started again. The table reloads from what was stored (or, if ``a``'s lease
ran out meanwhile, ``b`` takes it over); either way the hand goes on to its
end with both players, its history replays to its results, and the books
balance.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import tempfile
from pathlib import Path

import asyncpg
import pytest

from pokerhouse.store import Store
from tests.server.play import play_hand
from tests.server.process import ServeProcess, ledger_check
from tests.server.test_bus import bus_config
from tests.server.test_database_trouble import PrivatePostgres, postgres_bin
from tests.server.test_nodes import TABLE, check_hand_one, play_a_little, players_on

pytestmark = pytest.mark.slow


@pytest.mark.skipif(postgres_bin() is None, reason="no PostgreSQL server binaries installed")
async def test_postgresql_stopped_for_seconds_under_two_nodes(
    redis_bus: tuple[str, str], tmp_path: Path
) -> None:
    bin_dir = postgres_bin()
    assert bin_dir is not None
    root = Path(tempfile.mkdtemp(prefix="pokerhouse-pg-"))  # the server's user reaches it
    server = PrivatePostgres(bin_dir, root)
    await asyncio.to_thread(server.init)
    await asyncio.to_thread(server.start)
    url, prefix = redis_bus
    nodes: list[ServeProcess] = []
    try:
        admin = await asyncpg.connect(server.url("postgres"), timeout=30)
        await admin.execute("CREATE DATABASE room")
        await admin.close()
        db_url = server.url("room")
        store = await Store.open(db_url, upgrade=True)
        await store.close()
        config = bus_config(tmp_path, prefix)
        nodes = [ServeProcess(db_url, config, node=name, redis_url=url) for name in "ab"]
        for node in nodes:
            await asyncio.to_thread(node.start)
        (ann,) = await players_on(nodes[0], "pgbus_ann")
        (bob,) = await players_on(nodes[1], "pgbus_bob")
        try:
            await play_a_little([ann, bob], actions=2)
            await asyncio.to_thread(server.stop)
            marks = [len(ann.frames), len(bob.frames)]
            # Both play on through the outage: the next action meets it.
            playing = asyncio.get_running_loop().create_task(
                play_hand([ann, bob], TABLE, timeout=180)
            )
            await asyncio.sleep(4.0)
            said = [f for c, m in zip((ann, bob), marks, strict=True) for f in c.frames[m:]]
            assert any(f.get("code") == "room_unavailable" for f in said), said
            await asyncio.to_thread(server.start)
            end = await playing
            assert end["type"] == "table_hand_ended", end
        finally:
            await ann.close()
            await bob.close()
        for node in nodes:
            node.stop()
            assert node.process is not None and node.process.returncode is not None
        await ledger_check(db_url)
        await check_hand_one(db_url, "pgbus_ann", at_least=3)
    finally:
        for node in nodes:
            node.stop()
        with contextlib.suppress(Exception):
            await asyncio.to_thread(server.stop)
        shutil.rmtree(root, ignore_errors=True)
