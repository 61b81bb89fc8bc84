"""Act ids: a resent act is acknowledged and never applied twice, before and after a restart.

A table keeps the ids of its last two hands in memory, so its memory does
not grow with the actions it has played; every id is stored with its action,
so an older hand's resent act, or any after a restart, is known from the
store.
"""

from __future__ import annotations

from typing import Any

from pokerhouse.server.table.player_requests import REMEMBERED_HANDS
from pokerhouse.store import TableConfig
from tests.server.conftest import Client, serve
from tests.server.play import decision_of, play_hand, sit

TABLE = TableConfig("3x4 heads-up", "3x4", {"ante": 1, "small_bet": 2}, 2)


def _recording(client: Client) -> list[dict[str, Any]]:
    """Keep every message ``client`` sends, in a list (returned)."""
    sent: list[dict[str, Any]] = []
    original = client.send

    async def recording(message: dict[str, Any]) -> None:
        sent.append(message)
        await original(message)

    client.send = recording  # type: ignore[method-assign]
    return sent


async def _resend(client: Client, act: dict[str, Any]) -> dict[str, Any]:
    mark = len(client.frames)
    await client.send(act)
    return await client.wait_for(
        lambda f: f.get("type") in ("ack", "error") and f.get("id") == act["id"], after=mark
    )


async def test_ids_are_kept_for_the_last_two_hands_and_a_resend_is_acknowledged(
    db_url: str,
) -> None:
    async with serve(db_url, [TABLE]) as room:
        ann, bob = await room.player(), await room.player()
        sent = {id(ann): _recording(ann), id(bob): _recording(bob)}
        table = room.table_id(TABLE.name)
        await sit(ann, table, 0)
        await sit(bob, table, 1)
        for _ in range(5):
            await play_hand([ann, bob], table)
        await room.settle()
        task = room.site.room.tasks[table]
        assert 0 < len(task.applied) <= REMEMBERED_HANDS
        acts = [(c, m) for c in (ann, bob) for m in sent[id(c)] if m.get("type") == "act"]
        assert sum(len(ids) for ids in task.applied.values()) < len(acts)  # older ids are gone
        played = task.table.hands_played
        # The last act of an ended hand, and the first of the first hand (no longer in
        # memory: from the store), sent again: acknowledged, not applied again.
        first = min(acts, key=lambda pair: (pair[1]["hand"], pair[1]["id"]))
        for client, act in (acts[-1], first):
            ack = await _resend(client, act)
            assert ack["type"] == "ack" and ack["repeated"] is True, ack
        await room.settle()
        assert task.table.hands_played == played


async def test_an_act_resent_after_a_restart_is_a_repeat(db_url: str) -> None:
    async with serve(db_url, [TABLE]) as room:
        ann, bob = await room.player("ann_r"), await room.player("bob_r")
        sent = {id(ann): _recording(ann), id(bob): _recording(bob)}
        table = room.table_id(TABLE.name)
        await sit(ann, table, 0)
        await sit(bob, table, 1)
        # One decision of the first hand answered; the hand goes on.
        while True:
            for client in (ann, bob):
                pending = decision_of(client, table)
                if pending is not None:
                    break
            else:
                await ann.wait_for(lambda f: f.get("type") == "private", after=len(ann.frames))
                continue
            break
        _, hand, _, _ = pending
        act = {
            "type": "act", "table": table, "hand": hand,
            "action": {"kind": "check"}, "id": client.next_id(),
        }  # fmt: skip
        first = await _resend(client, act)
        assert first["type"] == "ack" and "repeated" not in first
        name, cookies = client.name, dict(client.http.cookies)
        await room.settle()
        seq_before = room.site.room.tasks[table].table.seq
        del sent
    async with serve(db_url, [TABLE]) as again:
        back = Client(again.base, name)
        back.http.cookies.update(cookies)  # the session outlives the room's run
        await back.connect()
        again.clients.append(back)
        task = again.site.room.tasks[table]
        assert task.table.hand_number == hand  # the hand resumed from its log
        answer = await _resend(back, act)
        assert answer["type"] == "ack" and answer["repeated"] is True, answer
        await again.settle()
        assert len(task.table.hand.actions) == 1  # type: ignore[union-attr]
        assert task.table.seq >> 32 > seq_before >> 32  # a new run of numbers
