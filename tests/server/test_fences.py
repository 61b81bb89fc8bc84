"""Every chip move in the fenced step: a settlement and its cash-outs commit together, a
buy-in the store refuses is taken back, a table whose lease was taken stops at once."""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path

import pytest
import websockets

from pokerhouse.server.runtime.faults import ENV
from pokerhouse.store import Store, TransactionKind
from tests.conftest import FAST_HASHER
from tests.server.conftest import Client, serve, table
from tests.server.play import decision_of, passive, play_hand, sit
from tests.server.process import ServeProcess

ROOM = """
[room]
hand_pause = 0.0
bot_think = [0.0, 0.0]

[[tables]]
name = "3x4 leave"
game = "3x4"
options = { ante = 1, small_bet = 2 }
seats = 2
bots = 0
min_buy_in = 20
max_buy_in = 1000
"""


async def cash_outs(url: str, name: str) -> tuple[int, list[int], int]:
    """``name``'s wallet, the amounts of its cash-outs, and the seats it holds."""
    store = await Store.open(url, upgrade=False)
    try:
        user = await store.users.get(name)
        statement = await store.ledger.statement(user, limit=1000)
        outs = [line.amount for line in statement.lines if line.kind is TransactionKind.CASH_OUT]
        seated = sum(1 for seat in await store.tables.seats(1) if seat.user_id == user.id)
        return statement.wallet, outs, seated
    finally:
        await store.close()


@pytest.mark.slow
@pytest.mark.parametrize("point", ["settle-before", "settle-after"])
async def test_a_crash_at_the_settlement_of_a_leavers_hand_cashes_them_out_once(
    db_url: str, tmp_path: Path, point: str
) -> None:
    """Bob leaves mid-hand; the room dies just before or just after the commit that settles
    the hand: restarted, Bob is cashed out exactly once, with what the hand left him."""
    config = tmp_path / "room.toml"
    config.write_text(ROOM)
    server = ServeProcess(db_url, config)
    server.start(env={ENV: f"{point}:1"})
    ann, bob = Client(server.base, f"ann_{point[7:]}"), Client(server.base, f"bob_{point[7:]}")
    try:
        for client in (ann, bob):
            await client.register()
            await client.connect()
        await sit(ann, 1, 0, 100)
        await sit(bob, 1, 1, 100)
        await bob.wait_for(lambda f: f.get("type") == "private" and f.get("hand") == 1)
        await bob.send({"type": "leave", "table": 1})
        await bob.wait_for(
            lambda f: f.get("type") == "event" and f["event"]["type"] == "player_leaving"
        )
        # Play on until the settlement's commit kills the room.
        deadline = asyncio.get_running_loop().time() + 60
        while not server.wait(0.05):
            assert asyncio.get_running_loop().time() < deadline, "the room never settled"
            for client in (ann, bob):
                pending = decision_of(client, 1)
                if pending is not None:
                    _, hand, _, decision = pending
                    with contextlib.suppress(websockets.ConnectionClosed):  # it died meanwhile
                        await client.send(
                            {
                                "type": "act", "table": 1, "hand": hand,
                                "action": passive(decision, client), "id": client.next_id(),
                            }
                        )  # fmt: skip
        for client in (ann, bob):
            with contextlib.suppress(websockets.ConnectionClosed):
                await client.ws.close()
        server.start()  # no crash this time
        wallet, outs, seated = await cash_outs(db_url, bob.name or "")
        if point == "settle-after":
            # Settled and cashed out in the one transaction that was committed.
            assert len(outs) == 1 and seated == 0 and wallet == 10_000 - 100 + outs[0]
        else:
            # Nothing of the last step was stored: the hand goes on from its log; a leave
            # asked for during it was lost with it, so Bob leaves again and plays it out.
            assert outs == [] and seated == 1
            for client in (ann, bob):
                await client.connect()
                await client.send({"type": "watch", "table": 1})
            await bob.send({"type": "leave", "table": 1})
            await play_hand([ann, bob], 1)
            deadline = asyncio.get_running_loop().time() + 60
            while True:  # the cash-out is stored with the hand's settlement
                wallet, outs, seated = await cash_outs(db_url, bob.name or "")
                if outs or asyncio.get_running_loop().time() > deadline:
                    break
                await asyncio.sleep(0.1)
            assert len(outs) == 1 and seated == 0 and wallet == 10_000 - 100 + outs[0]
    finally:
        for client in (ann, bob):
            await client.close()
        server.stop()


async def test_a_buy_in_the_store_refuses_is_taken_back_and_answered(db_url: str) -> None:
    """The table takes a buy-in within its limits; the wallet (10,000) cannot pay 20,000:
    the store refuses it inside the step's transaction, and the table takes the step back."""
    tables = [table("3x4", "3x4", options={"ante": 1, "small_bet": 2}, seats=3, max_buy_in=50_000)]
    async with serve(db_url, tables) as room:
        ann, bob = await room.player(), await room.player()
        task = room.site.room.tasks[1]
        before = task.table.seq
        mark = len(ann.frames)
        await ann.send({"type": "watch", "table": 1})
        await ann.send({"type": "sit", "table": 1, "seat": 0, "buy_in": 20_000})
        error = await ann.wait_for(lambda f: f.get("type") == "error", after=mark)
        assert error["code"] == "insufficient_funds"
        await room.settle()
        assert task.table.seat(0) is None and task.table.seq == before
        assert task.available and await room.site.store.tables.seats(1) == []
        # The table goes on as if nothing happened: the next buy-in takes the seat.
        await sit(bob, 1, 0, 500)
        assert task.table.seat(0) is not None
        assert [event["seq"] for event in bob.events(1)][-1] > before


async def test_a_table_whose_lease_was_taken_stops_and_applies_nothing(db_url: str) -> None:
    tables = [table("3x4", "3x4", options={"ante": 1, "small_bet": 2}, seats=2)]
    async with serve(db_url, tables) as room:
        ann, bob = await room.player(), await room.player()
        await sit(ann, 1, 0)
        await sit(bob, 1, 1)
        await room.settle()
        task = room.site.room.tasks[1]
        assert task.table.hand is not None
        # Another node takes the table over (the lease looks expired from its clock).
        later = await Store.open(
            db_url, upgrade=False, clock=lambda: time.time() + 3600, password_hasher=FAST_HASHER
        )
        try:
            taken = await later.tables.acquire(1, "node-elsewhere")
        finally:
            await later.close()
        assert taken == task.lease + 1
        logged = len((await room.site.store.hands.unfinished(1))[0].actions)
        actor = ann if decision_of(ann, 1) is not None else bob
        pending = decision_of(actor, 1)
        assert pending is not None
        _, hand, _, decision = pending
        mark = len(actor.frames)
        await actor.send(
            {
                "type": "act", "table": 1, "hand": hand,
                "action": passive(decision, actor), "id": actor.next_id(),
            }
        )  # fmt: skip
        refused = await actor.wait_for(
            lambda f: f.get("type") == "error" and f.get("code") == "table_moved", after=mark
        )
        assert refused["table"] == 1
        await room.settle()
        assert task.fenced and not task.available
        assert len((await room.site.store.hands.unfinished(1))[0].actions) == logged
        # Anything more is refused with the same code, and changes nothing.
        mark = len(actor.frames)
        await actor.send({"type": "sit_out", "table": 1})
        again = await actor.wait_for(lambda f: f.get("type") == "error", after=mark)
        assert again["code"] == "table_moved"
