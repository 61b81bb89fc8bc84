"""Wrong requests over the socket: each gets its coded error and changes nothing."""

from __future__ import annotations

import json

import pytest

from tests.server.conftest import Client, Harness
from tests.server.play import decision_of, play_hand, sit


async def two_at_3x4(room: Harness) -> tuple[int, Client, Client]:
    table = room.table_id("3x4")
    ann, bob = await room.player(), await room.player()
    await sit(ann, table, 0, 100)
    await sit(bob, table, 1, 100)
    await ann.wait_for(lambda f: f.get("type") == "private" and f.get("hand") == 1)
    await bob.wait_for(lambda f: f.get("type") == "private" and f.get("hand") == 1)
    return table, ann, bob


async def test_out_of_turn_stale_and_repeated_actions_are_refused_unchanged(room: Harness) -> None:
    table, ann, bob = await two_at_3x4(room)
    runner = room.site.room.runners[table]
    to_act = runner.table.to_act()
    mover, waiter = (ann, bob) if to_act == 0 else (bob, ann)
    before = (runner.table.seq, len(runner.table.hand.actions))  # type: ignore[union-attr]
    mark = len(waiter.frames)
    await waiter.send(
        {"type": "act", "table": table, "hand": 1, "action": {"kind": "check"}, "id": "w1"}
    )
    await mover.send(
        {"type": "act", "table": table, "hand": 7, "action": {"kind": "check"}, "id": "m0"}
    )
    error = await waiter.wait_for(lambda f: f.get("type") == "error", after=mark)
    assert error["code"] == "out_of_turn" and error["id"] == "w1"
    stale = await mover.wait_for(lambda f: f.get("type") == "error" and f.get("id") == "m0")
    assert stale["code"] == "stale_hand"
    await room.settle()
    assert (runner.table.seq, len(runner.table.hand.actions)) == before  # type: ignore[union-attr]
    # The right action, then the same id again: applied once, acknowledged twice.
    for _ in range(2):
        await mover.send(
            {"type": "act", "table": table, "hand": 1, "action": {"kind": "check"}, "id": "m1"}
        )
    await mover.wait_for(lambda f: f.get("type") == "ack" and f.get("repeated") is True)
    assert len(runner.table.last_hand.actions) == 1  # type: ignore[union-attr]
    acks = [f for f in mover.frames if f.get("type") == "ack" and f.get("id") == "m1"]
    assert len(acks) == 2


async def test_acting_for_another_seat_or_unseated_or_signed_out_is_refused(room: Harness) -> None:
    table, _ann, bob = await two_at_3x4(room)
    carl = await room.player()
    ghost = await room.spectator()
    await ghost.send({"type": "watch", "table": table})
    for client, code in ((carl, "not_seated"), (ghost, "login_required")):
        mark = len(client.frames)
        await client.send(
            {"type": "act", "table": table, "hand": 1, "action": {"kind": "check"}, "id": "x"}
        )
        error = await client.wait_for(lambda f: f.get("type") == "error", after=mark)
        assert error["code"] == code
    # Bob cannot sit in Ann's seat, nor sit twice.
    mark = len(bob.frames)
    await bob.send({"type": "sit", "table": table, "seat": 0, "buy_in": 100})
    error = await bob.wait_for(lambda f: f.get("type") == "error", after=mark)
    assert error["code"] == "seat_taken"
    # Buying in for more than the wallet holds moves nothing.
    rich = room.table_id("Casino Hold'em")
    await carl.send({"type": "watch", "table": rich})
    mark = len(carl.frames)
    await carl.send({"type": "sit", "table": rich, "seat": 0, "buy_in": 20_000})
    error = await carl.wait_for(lambda f: f.get("type") == "error", after=mark)
    assert error["code"] in ("buy_in_too_large", "insufficient_funds")
    me = (await carl.http.get("/api/me")).json()
    assert me["wallet"] == 10_000 and me["seats"] == []


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("not json", "bad_json"),
        ("[1, 2]", "not_an_object"),
        ('{"type": "dance"}', "unknown_type"),
        ('{"type": "watch"}', "bad_message"),
        ('{"type": "watch", "table": "one"}', "bad_message"),
        ('{"type": "watch", "table": 1, "extra": true}', "bad_message"),
        ('{"type": "sit", "table": 1, "seat": -1, "buy_in": 100}', "bad_message"),
        ('{"type": "sit", "table": 1, "seat": 0, "buy_in": 1e300}', "bad_message"),
        (
            '{"type": "act", "table": 1, "hand": 1, "action": {"kind": "check"}, "id": "a b"}',
            "bad_message",
        ),
        ('{"type": "watch", "table": 999}', "unknown_table"),
    ],
)
async def test_malformed_messages_get_a_coded_error(room: Harness, frame: str, code: str) -> None:
    client = await room.player()
    mark = len(client.frames)
    await client.ws.send(frame)
    error = await client.wait_for(lambda f: f.get("type") == "error", after=mark)
    assert error["code"] == code, error
    # The socket still works.
    await client.send({"type": "ping"})
    await client.wait_for(lambda f: f.get("type") == "pong", after=mark)


async def test_binary_and_oversized_frames(room: Harness) -> None:
    client = await room.player()
    mark = len(client.frames)
    await client.ws.send(b'{"type": "ping"}')
    error = await client.wait_for(lambda f: f.get("type") == "error", after=mark)
    assert error["code"] == "binary_frame"
    mark = len(client.frames)
    await client.ws.send(json.dumps({"type": "chat", "table": 1, "text": "x" * 10_000}))
    error = await client.wait_for(lambda f: f.get("type") == "error", after=mark)
    assert error["code"] == "frame_too_large"


async def test_a_finished_hand_leaves_no_decision_open(room: Harness) -> None:
    table, ann, bob = await two_at_3x4(room)
    await play_hand([ann, bob], table)
    await room.settle()
    assert room.site.room.runners[table].table.hand_number in (None, 2)
    assert decision_of(ann, table) is None or decision_of(ann, table)[1] == 2  # type: ignore[index]
