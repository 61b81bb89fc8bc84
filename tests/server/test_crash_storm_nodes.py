"""A crash storm across three nodes: any of them SIGKILLed at random moments, and restarted.

Three ``pokerhouse serve`` nodes share one database and one Redis; the room's
three tables, with bots at each, spread over them. Three players, each on a
different node, sit at the three tables (so most of them play through the
bus). Eight times a node chosen at random is killed with SIGKILL at a random
moment and started again: its tables are taken over by the others (their
hands resumed from the logs), the players on it reconnect to it and resume,
and the players elsewhere follow their table wherever it goes. At the end,
after a stretch of play: ``ledger check`` passes; per table the hand numbers
run 1..N with none lost or repeated; every finished hand's stored results
are what its log gives when replayed, and its history replays to them;
every voided hand has no settlement; and every player's event stream was
gapless.
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import pytest

from tests.server.process import ServeProcess, wait_until
from tests.server.test_crash_storm import ROOM, Player, check_the_room, play_on
from tests.server.test_nodes import health

KILLS = 8

pytestmark = pytest.mark.slow


async def test_nodes_killed_at_random_lose_no_chip_no_hand_and_no_event(
    db_url: str, redis_bus: tuple[str, str], tmp_path: Path
) -> None:
    rng = random.Random(20261204)
    url, prefix = redis_bus
    config = tmp_path / "room.toml"
    # Leases of 6 s: a dead node's tables move within about 8 s.
    config.write_text(
        ROOM.replace("[room]", f'[room]\nlease_seconds = 6\nredis_prefix = "{prefix}"')
    )
    nodes = [ServeProcess(db_url, config, node=name, redis_url=url) for name in "abc"]
    for node in nodes:
        await asyncio.to_thread(node.start)
    # The three tables spread out first, one to each node (a table on its way between two
    # nodes answers room_unavailable for a moment).
    await wait_until(
        lambda: all(len(health(node)["tables_elsewhere"]) == 2 for node in nodes),
        timeout=120,
        what="a table on each node",
    )
    players = [
        Player(nodes[0].base, "nodestorm_ann", 1, 3),
        Player(nodes[1].base, "nodestorm_bob", 2, 3),
        Player(nodes[2].base, "nodestorm_cy", 3, 3),
    ]
    killed: list[str] = []
    try:
        for player in players:
            await player.join()
        for _ in range(KILLS):
            await asyncio.sleep(rng.uniform(1.0, 4.0))
            victim = rng.randrange(len(nodes))
            nodes[victim].kill()
            killed.append(nodes[victim].node or "")
            await asyncio.to_thread(nodes[victim].start)
            # Its player reconnects to it (restarted) and resumes; the others keep their
            # sockets and follow their tables. A table whose owner died waits for another
            # node to take it over: the resume is tried again until then.
            player = players[victim]
            tried = time.perf_counter()
            while True:
                try:
                    await player.reconnect()
                    break
                except Exception:
                    assert time.perf_counter() - tried < 120, "the room would not resume"

        # A last stretch of play: every table finishes more hands.
        await play_on(db_url, KILLS)
    finally:
        for player in players:
            await player.pause()
            await player.client.close()
        for node in nodes:
            node.stop()
    assert len(killed) == KILLS and len(set(killed)) > 1, killed
    _rows, finished, _voided = await check_the_room(db_url, tables=3)
    assert finished > KILLS
    for player in players:
        assert player.gaps() == [], player.gaps()
