"""A ``pokerhouse serve`` killed with SIGKILL mid-hand resumes that hand when it restarts."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from pokerhouse.history.replay import replay
from pokerhouse.store import Store
from tests.server.conftest import Client
from tests.server.play import decision_of, passive, play_hand, sit
from tests.server.process import ServeProcess

ROOM = """
[room]
hand_pause = 0.0
bot_think = [0.0, 0.0]

[[tables]]
name = "3x4 crash"
game = "3x4"
options = { ante = 1, small_bet = 2 }
seats = 2
bots = 0
min_buy_in = 20
max_buy_in = 1000
"""


def own_cards(client: Client, table: int, seat: int) -> list[str]:
    for frame in client.events(table):
        event = frame["event"]
        if event["type"] == "cards_dealt" and event["seat"] == seat:
            return list(event["cards"])
    return []


async def act(client: Client, table: int) -> bool:
    pending = decision_of(client, table)
    if pending is None:
        return False
    _seq, hand, _seat, decision = pending
    mark = len(client.frames)
    await client.send(
        {
            "type": "act",
            "table": table,
            "hand": hand,
            "action": passive(decision, client),
            "id": client.next_id(),
        }
    )
    await client.wait_for(lambda f: f.get("type") in ("ack", "error"), after=mark)
    return True


@pytest.mark.slow
async def test_a_hand_killed_mid_way_goes_on_to_the_result_its_log_implies(
    db_url: str, tmp_path: Path
) -> None:
    config = tmp_path / "room.toml"
    config.write_text(ROOM)
    server = ServeProcess(db_url, config)
    server.start()
    clients: list[Client] = []
    try:
        ann, bob = Client(server.base, "crash_ann"), Client(server.base, "crash_bob")
        clients += [ann, bob]
        for client in (ann, bob):
            await client.register()
            await client.connect()
        table = 1
        await sit(ann, table, 0, 100)
        await sit(bob, table, 1, 100)
        for client in (ann, bob):
            await client.wait_for(lambda f: f.get("type") == "private" and f.get("hand") == 1)
        acted = 0
        deadline = asyncio.get_running_loop().time() + 60
        while acted < 3:
            assert asyncio.get_running_loop().time() < deadline, "no decision came"
            moved = 0
            for client in (ann, bob):
                moved += await act(client, table)
            if not moved:
                # Neither has a decision yet: let the next frames arrive.
                await asyncio.sleep(0.05)
            acted += moved
        cards = {0: own_cards(ann, table, 0), 1: own_cards(bob, table, 1)}
        server.kill()
        for client in (ann, bob):
            await client.ws.close()
        server.start()
        # Both come back (same sessions) and find the hand as it stood.
        for client in (ann, bob):
            await client.connect()
            mark = len(client.frames)
            await client.send({"type": "watch", "table": table})
            await client.wait_for(lambda f: f.get("type") == "snapshot", after=mark)
        snapshots = [
            [f for f in client.frames if f.get("type") == "snapshot"][-1]["view"]
            for client in (ann, bob)
        ]
        for seat, view in enumerate(snapshots):
            assert view["hand"]["number"] == 1
            assert view["seats"][seat]["cards"] == cards[seat]
            assert not any(view["seats"][1 - seat]["cards"])
        ended = await play_hand([ann, bob], table)
        assert ended["number"] == 1 and sum(ended["net"]) == 0
    finally:
        for client in clients:
            await client.close()
        server.stop()
    # The stored history replays, and its first actions are the ones played before the kill.
    store = await Store.open(db_url, upgrade=False)
    try:
        hands = await store.hands.played_by(await store.users.get("crash_ann"), limit=10)
        first = next(hand for hand in hands if hand.number == 1)
        record = await store.hands.get(first.id)
        assert record.status == "finished" and record.history is not None
        replayed = replay(record.history)
        assert len(replayed.actions) >= 3
        assert list(replayed.results()) == list(record.results or ())
    finally:
        await store.close()
