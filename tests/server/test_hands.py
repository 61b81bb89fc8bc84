"""Two people sit at a table and play it out over real websockets, for every game."""

from __future__ import annotations

import pytest

from pokerhouse.store import Account
from tests.server.conftest import Harness
from tests.server.play import last_seq, play_hand, showdown, sit


@pytest.mark.parametrize("name", ["3x4", "Razz", "Teen Patti"])
async def test_two_players_sit_and_play_a_full_hand(room: Harness, name: str) -> None:
    table = room.table_id(name)
    ann, bob = await room.player(), await room.player()
    await sit(ann, table, 0, 100)
    await sit(bob, table, 1, 100)
    ended = await play_hand([ann, bob], table, showdown)
    assert ended["type"] == "table_hand_ended" and ended["number"] == 1
    assert sorted(ended["seats"]) == [0, 1] and sum(ended["net"]) == 0
    # Each saw a gapless stream of the same length, and the stored hand has its result.
    for client in (ann, bob):
        seqs = [frame["seq"] for frame in client.events(table)]
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
    assert last_seq(ann, table) == last_seq(bob, table)
    store = room.site.store
    hands = await store.hands.played_by(await store.users.get(ann.name), limit=5)  # type: ignore[arg-type]
    first = [hand for hand in hands if hand.number == 1]
    assert (
        first
        and first[0].status == "finished"
        and first[0].result == ended["net"][0 if ended["seats"][0] == 0 else 1]
    )
    wallets = [
        await store.ledger.balance(Account.wallet((await store.users.get(c.name)).id))
        for c in (ann, bob)
    ]  # type: ignore[arg-type]
    assert wallets == [9_900, 9_900]  # 100 each at the table


async def test_a_player_with_two_boxes_plays_the_house(room: Harness) -> None:
    """Boxes against the house: the bonus settles at the flop, the max payout caps a win."""
    table = room.table_id("Casino Hold'em")
    ann = await room.player()
    await sit(ann, table, 0, 500)
    await sit(ann, table, 3, 500)
    mark = len(ann.frames)
    capped = bonus = 0
    for _ in range(12):
        for seat, stake in ((0, 5), (3, 0)):
            await ann.send(
                {"type": "wager", "table": table, "seat": seat, "ante": 10, "bonus": stake}
            )
        await room.clock.advance(10)  # the window closes, if the wagers did not close it
        ended = await play_hand([ann], table, lambda decision, client: {"kind": "call"})
        assert ended["seats"] == [0, 3]
        assert ended["house"] == -sum(ended["net"])
        events = [f["event"] for f in ann.frames[mark:] if f.get("type") == "event"]
        mark = len(ann.frames)
        boxes = [e for e in events if e["type"] == "box_settled"]
        assert len(boxes) == 2
        for box in boxes:
            # The table pays at most 15 on Ante plus Call; what is over is kept back.
            assert box["net"] <= 15
            if box["ante"] + box["call"] > 15:
                assert box["capped"] == box["ante"] + box["call"] - 15
                capped += 1
        bonus += sum(1 for e in events if e["type"] == "bonus_settled" and e["seat"] == 0)
        if capped and bonus >= 3:
            break
    assert capped >= 1 and bonus >= 3


async def test_a_folded_boxs_bonus_result_tells_others_only_the_chips(room: Harness) -> None:
    """RULES.md, Information: a box's unshown cards are never revealed. Its AA Bonus is
    settled at the flop; if it then folds, its cards are never shown, so others (an
    opponent at the table, a spectator) learn what the chips say and no more: not the
    hand's class, nor whether it was a pair of aces or better."""
    table = room.table_id("Casino Hold'em")
    ann, bob = await room.player(), await room.player()
    watcher = await room.spectator()
    await watcher.send({"type": "watch", "table": table})
    await sit(ann, table, 0, 1000)
    await sit(bob, table, 3, 1000)
    owner_saw = 0
    for _ in range(8):
        await ann.send({"type": "wager", "table": table, "seat": 0, "ante": 5, "bonus": 5})
        await bob.send({"type": "wager", "table": table, "seat": 3, "ante": 5, "bonus": 0})
        await room.clock.advance(10)

        def fold_or_call(decision: dict[str, object], client: object) -> dict[str, str]:
            return {"kind": "fold" if client is ann else "call"}

        await play_hand([ann, bob], table, fold_or_call)  # type: ignore[arg-type]
        owner_saw = sum(
            1 for e in ann.events(table) if e["event"] and e["event"]["type"] == "bonus_settled"
        )
        if owner_saw >= 4:
            break
    assert owner_saw >= 4
    # The owner sees the whole settlement, hand and all, when it wins.
    for frame in ann.events(table):
        event = frame["event"]
        if event and event["type"] == "bonus_settled" and event["won"]:
            assert event["description"]
    # The others see the chips the box moved, nothing that names or ranks its hand.
    for other in (bob, watcher):
        results = [
            f["event"]
            for f in other.events(table)
            if f["event"] and f["event"]["type"] in ("bonus_settled", "bonus_result")
        ]
        assert len(results) == owner_saw
        for event in results:
            assert event == {
                "type": "bonus_result",
                "seat": 0,
                "stake": 5,
                "net": event["net"],
            }, event
            assert event["net"] == -5 or event["net"] > 0
    # And so do the hand histories the API gives them once the hands are over.
    hand_ids = [
        h.id
        for h in await room.site.store.hands.played_by(
            await room.site.store.users.get(ann.name), limit=20
        )
    ]
    for hand_id in hand_ids:
        for http in (bob.http, watcher.http):
            document = (await http.get(f"/api/hands/{hand_id}")).json()["history"]
            for event in document["events"]:
                assert event["type"] != "bonus_settled", event
            text = (await http.get(f"/api/hands/{hand_id}?format=text")).text
            assert "on the AA Bonus with" not in text
