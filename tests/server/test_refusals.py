"""Wrong requests over the socket: each gets its coded error and changes nothing."""

from __future__ import annotations

import json

import pytest

from pokerhouse.engine.events import CardsDealt
from tests.server.conftest import Client, Harness, serve, table
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
    task = room.site.room.tasks[table]
    to_act = task.table.to_act()
    mover, waiter = (ann, bob) if to_act == 0 else (bob, ann)
    before = (task.table.seq, len(task.table.hand.actions))  # type: ignore[union-attr]
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
    assert (task.table.seq, len(task.table.hand.actions)) == before  # type: ignore[union-attr]
    # The right action, then the same id again: applied once, acknowledged twice.
    for _ in range(2):
        await mover.send(
            {"type": "act", "table": table, "hand": 1, "action": {"kind": "check"}, "id": "m1"}
        )
    await mover.wait_for(lambda f: f.get("type") == "ack" and f.get("repeated") is True)
    assert len(task.table.last_hand.actions) == 1  # type: ignore[union-attr]
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
    assert room.site.room.tasks[table].table.hand_number in (None, 2)
    assert decision_of(ann, table) is None or decision_of(ann, table)[1] == 2  # type: ignore[index]


async def test_acting_at_another_table_or_for_anothers_seat_is_refused(room: Harness) -> None:
    table, ann, bob = await two_at_3x4(room)
    razz = room.table_id("Razz")
    casino = room.table_id("Casino Hold'em")
    await sit(bob, casino, 0, 100)
    ante = room.site.room.tasks[casino].table.seat(0).ante  # type: ignore[union-attr]
    for message, code in (
        ({"type": "act", "table": razz, "hand": 1, "action": {"kind": "call"}, "id": "t"}, None),
        ({"type": "add_chips", "table": table, "seat": 1, "amount": 10}, "not_your_seat"),
        ({"type": "wager", "table": casino, "seat": 0, "ante": 5}, "not_your_seat"),
        ({"type": "leave", "table": razz}, "not_seated"),
        ({"type": "sit_out", "table": casino}, "not_seated"),
    ):
        mark = len(ann.frames)
        await ann.send(message)
        error = await ann.wait_for(lambda f: f.get("type") == "error", after=mark)
        assert error["code"] == (code or "not_seated"), (message, error)
    await room.settle()
    assert room.site.room.tasks[casino].table.seat(0).ante == ante  # type: ignore[union-attr]
    assert room.site.room.tasks[table].table.seat(1).stack == 100  # type: ignore[union-attr]


async def test_an_old_action_replayed_in_a_later_hand_is_refused(room: Harness) -> None:
    table, ann, bob = await two_at_3x4(room)
    marks = {id(c): len(c.frames) for c in (ann, bob)}
    await play_hand([ann, bob], table)
    # Every act of hand 1, sent again while hand 2 runs: the ids are acknowledged as
    # repeats and applied no more; a new id for hand 1 is a stale hand.
    await ann.wait_for(lambda f: f.get("type") == "private" and f.get("hand") == 2)
    task = room.site.room.tasks[table]
    before = task.table.seq
    for client in (ann, bob):
        sent = [
            f for f in client.frames[marks[id(client)] :] if f.get("type") == "ack"
        ]  # the acks name the ids that were applied
        for ack in sent:
            await client.send(
                {"type": "act", "table": table, "hand": 1, "action": {"kind": "call"},
                 "id": ack["id"]}
            )  # fmt: skip
            await client.wait_for(
                lambda f, i=ack["id"]: f.get("type") == "ack" and f.get("id") == i
                and f.get("repeated") is True
            )  # fmt: skip
    mark = len(ann.frames)
    await ann.send(
        {"type": "act", "table": table, "hand": 1, "action": {"kind": "fold"}, "id": "late-1"}
    )
    error = await ann.wait_for(lambda f: f.get("type") == "error", after=mark)
    assert error["code"] == "stale_hand"
    await room.settle()
    assert task.table.seq == before and task.table.hand_number == 2


async def test_sitting_twice_is_refused_and_moves_no_chips(room: Harness) -> None:
    table, ann, _bob = await two_at_3x4(room)
    teen = room.table_id("Teen Patti")
    await sit(ann, teen, 0, 100)
    mark = len(ann.frames)
    await ann.send({"type": "sit", "table": teen, "seat": 1, "buy_in": 100})
    error = await ann.wait_for(lambda f: f.get("type") == "error", after=mark)
    assert error["code"] == "already_seated"
    me = (await ann.http.get("/api/me")).json()
    assert me["wallet"] == 10_000 - 200
    assert sorted((s["table"], s["seat"]) for s in me["seats"]) == [(table, 0), (teen, 0)]


async def test_a_buy_in_over_the_wallet_is_refused(db_url: str) -> None:
    deep = [table("Deep", "3x4", options={"ante": 1, "small_bet": 2}, max_buy_in=50_000)]
    async with serve(db_url, deep) as room:
        ann = await room.player()
        table_id = room.table_id("Deep")
        await ann.send({"type": "watch", "table": table_id})
        await ann.send({"type": "sit", "table": table_id, "seat": 0, "buy_in": 10_001})
        error = await ann.wait_for(lambda f: f.get("type") == "error")
        assert error["code"] == "insufficient_funds"
        me = (await ann.http.get("/api/me")).json()
        assert me["wallet"] == 10_000 and me["seats"] == []
        assert room.site.room.tasks[table_id].table.seat(0) is None


async def test_leaving_mid_hand_leaves_the_chips_in_it_until_it_ends(room: Harness) -> None:
    table, ann, bob = await two_at_3x4(room)
    task = room.site.room.tasks[table]
    mark = len(ann.frames)
    await ann.send({"type": "leave", "table": table})
    await ann.wait_for(
        lambda f: f.get("type") == "event" and f["event"]["type"] == "player_leaving", after=mark
    )
    # The seat, its cards and its chips stay in the hand; the wallet has not been paid.
    assert task.table.seat(0) is not None and task.table.hand_number == 1
    assert (await ann.http.get("/api/me")).json()["wallet"] == 10_000 - 100
    ended = await play_hand([ann, bob], table)
    await ann.wait_for(
        lambda f: f.get("type") == "event" and f["event"]["type"] == "player_left", after=mark
    )
    await room.settle()
    net = dict(zip(ended["seats"], ended["net"], strict=True))
    assert (await ann.http.get("/api/me")).json()["wallet"] == 10_000 + net[0]
    ledger = (await ann.http.get("/api/me/ledger")).json()
    assert ledger["in_play"] == {}


async def test_no_endpoint_shows_a_hole_card_to_anyone_else(room: Harness) -> None:
    table, ann, bob = await two_at_3x4(room)
    task = room.site.room.tasks[table]
    hand = task.table.hand
    assert hand is not None
    ann_seat = task.table.hand_seats.index(0)
    # Ann's face-down cards, from the server's own copy of the hand.
    secret = {
        str(card)
        for event in hand.events
        if isinstance(event, CardsDealt) and event.seat == ann_seat
        for card, up in zip(event.cards, event.face_up, strict=True)
        if card is not None and not up
    }
    assert secret
    carl = await room.player()
    ghost = await room.spectator()
    for client in (carl, ghost):
        await client.send({"type": "watch", "table": table})
        await client.send({"type": "resume", "table": table, "since": 0})
        await client.wait_for(lambda f: f.get("type") == "snapshot")
    # Wrong moves and chat from everyone else: their errors and lines name no card.
    for client in (bob, carl, ghost):
        for message in (
            {
                "type": "act",
                "table": table,
                "hand": 1,
                "action": {"kind": "raise", "amount": 10**9},
                "id": "big",
            },
            {"type": "act", "table": table, "hand": 1, "action": {"kind": "show"}, "id": "s"},
            {"type": "chat", "table": table, "text": "what does ann hold?"},
        ):
            await client.send(message)
    await room.settle()
    owner = await room.site.store.users.get(ann.name or "")
    running = await room.site.store.hands.played_by(owner, limit=5)
    http_bodies = []
    for client in (bob, carl, ghost):
        for path in (
            ["/api/tables", "/api/me", "/api/me/hands", "/api/me/ledger"]
            + [f"/api/hands/{h.id}" for h in running]
            + [f"/api/hands/{h.id}?format=text" for h in running]
        ):
            response = await client.http.get(path)
            assert response.status_code < 500
            http_bodies.append(response.text)
        if client is not bob:
            for h in running:
                refused = await client.http.get(f"/api/hands/{h.id}")
                assert refused.status_code == 403 and refused.json()["code"] == "hand_running"
    frames = [json.dumps(f) for c in (bob, carl, ghost) for f in c.frames]
    for text in frames + http_bodies:
        shown = {card for card in secret if f'"{card}"' in text or f" {card}" in text}
        assert not shown, text[:300]
