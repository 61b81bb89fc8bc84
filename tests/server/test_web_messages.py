"""What the browser client asks of the room beyond play: views after each step, a call's value."""

from __future__ import annotations

from typing import Any

from pokerhouse.analysis.casino_holdem import advise
from tests.server.conftest import Client, Harness
from tests.server.play import decision_of, passive, play_hand, sit


def snapshots(client: Client, table: int) -> list[dict[str, Any]]:
    return [f for f in client.frames if f.get("type") == "snapshot" and f.get("table") == table]


async def test_a_watcher_asking_for_views_gets_the_table_again_after_every_step(
    room: Harness,
) -> None:
    table = room.table_id("3x4")
    ann, bob, eve, old = (
        await room.player(),
        await room.player(),
        await room.spectator(),
        await room.spectator(),
    )
    await eve.send({"type": "watch", "table": table, "views": True})
    await old.send({"type": "watch", "table": table})
    await sit(ann, table, 0, 100)
    await ann.send({"type": "watch", "table": table, "views": True})
    await sit(bob, table, 1, 100)
    ended = await play_hand([ann, bob], table, passive)
    await room.settle()
    for client in (ann, eve):
        views = snapshots(client, table)
        events = client.events(table)
        # One snapshot after each step, numbered as the step's last event: the view
        # is never behind the stream.
        assert len(views) >= 5
        assert views[-1]["seq"] == events[-1]["seq"]
        (end,) = [f["seq"] for f in events if (f["event"] or {}).get("type") == "table_hand_ended"]
        at_end = next(v["view"] for v in views if v["seq"] >= end)
        assert at_end["hands_played"] == 1 and at_end["hand"] is None
        final = dict(zip(ended["seats"], ended["stacks"], strict=True))
        assert [s["stack"] for s in at_end["seats"]] == [final[0], final[1]]
    # The spectator's views hold no card that was not shown to everyone.
    shown = {
        card
        for f in eve.events(table)
        if f["event"] and f["event"]["type"] == "hand_shown"
        for card in f["event"]["cards"]
    }
    for frame in snapshots(eve, table):
        for seat in frame["view"]["seats"]:
            if seat:
                assert all(card is None or card in shown for card in seat["cards"])
    # Ann's views carry her own hand's name and decisions, like her private messages.
    assert any(
        (frame["view"]["hand"] or {}).get("mine", {}).get("0", {}).get("decision")
        for frame in snapshots(ann, table)
    )
    # A watcher that did not ask gets the one snapshot of its watch, as before.
    assert len(snapshots(old, table)) == 1


async def test_practice_mode_tells_a_box_the_exact_value_of_its_call(room: Harness) -> None:
    table = room.table_id("Casino Hold'em")
    ann, bob = await room.player(), await room.player()
    await sit(ann, table, 0, 500)
    await sit(ann, table, 2, 500)
    await sit(bob, table, 4, 500)
    for client, seat in ((ann, 0), (ann, 2), (bob, 4)):
        await client.send({"type": "wager", "table": table, "seat": seat, "ante": 10, "bonus": 0})
    await room.clock.advance(10)
    await ann.wait_for(
        lambda f: f.get("type") == "private" and any(m["decision"] for m in f["mine"].values())
    )
    # Before anything else: asking for another player's box is refused.
    mark = len(ann.frames)
    await ann.send({"type": "call_ev", "table": table, "seat": 4})
    refused = await ann.wait_for(lambda f: f.get("type") in ("error", "call_ev"), after=mark)
    assert refused["type"] == "error" and refused["code"] == "not_your_seat"
    await ann.send({"type": "call_ev", "table": table, "seat": 0})
    answer = await ann.wait_for(lambda f: f.get("type") == "call_ev", after=mark, timeout=30)
    task = room.site.room.tasks[table]
    hand = task.table.hand
    assert hand is not None
    index = task.table.hand_seats.index(0)
    own = hand.view(index)
    hole = [str(c) for c in own.cards[index] if c is not None]
    flop = [str(c) for c in own.board[:3]]
    assert answer["hole"] == " ".join(hole) and answer["flop"] == " ".join(flop)
    expected = advise(
        hole,
        flop,
        task.spec.ante_pays,
        max_payout=task.spec.max_payout / 10,
        bonus_pays=task.spec.bonus_pays,
    )
    assert answer["call_ev_exact"] == str(expected.call_ev)
    assert answer["action"] == expected.action and answer["seat"] == 0
    assert answer["call_ev_chips"] == round(float(expected.call_ev) * 10, 2)
    # A spectator may not ask at all.
    eve = await room.spectator()
    await eve.send({"type": "call_ev", "table": table, "seat": 0})
    error = await eve.wait_for(lambda f: f.get("type") == "error")
    assert error["code"] == "login_required"
    await play_hand([ann, bob], table, lambda decision, client: {"kind": "call"})
    # After the round there is no call to decide.
    mark = len(ann.frames)
    await room.settle()
    await ann.send({"type": "call_ev", "table": table, "seat": 0})
    late = await ann.wait_for(lambda f: f.get("type") in ("error", "call_ev"), after=mark)
    assert late["type"] == "error" and late["code"] == "no_call_decision"
    assert decision_of(ann, table) is None


async def test_the_razz_bring_in_button_gets_its_cost(room: Harness) -> None:
    table = room.table_id("Razz")
    ann, bob = await room.player(), await room.player()
    await sit(ann, table, 0, 100)
    await sit(bob, table, 1, 100)
    offered = []
    for client in (ann, bob):
        await client.wait_for(lambda f: f.get("type") == "private" and f.get("hand") == 1)
    await room.settle()
    for client in (ann, bob):
        pending = decision_of(client, table)
        if pending is not None:
            offered.append({o["kind"]: o for o in pending[3]["actions"]})
    (choices,) = offered
    assert choices["bring_in"]["cost"] == 1  # the table's bring-in
    assert choices["complete"]["cost"] == 2  # completing to the small bet
