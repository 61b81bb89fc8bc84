"""``GET /api/hands/{id}/equity``: each street's equity, from the asker's own copy of the hand."""

from __future__ import annotations

from typing import Any

from pokerhouse.analysis.equity import equity_by_street
from pokerhouse.cards import Card
from tests.server.conftest import Client, Harness
from tests.server.play import passive, play_hand, sit
from tests.server.test_hand_downloads import _razz_hand, _server_cards


def cards_in(answer: dict[str, Any]) -> set[Card]:
    """Every card an equity answer names."""
    found: set[Card] = set()
    for street in answer["streets"]:
        found.update(Card.parse(card) for card in street["board"])
        for hand in street["hands"]:
            found.update(Card.parse(card) for card in hand["cards"] if card is not None)
        for card in (street.get("dealer") or {}).get("cards", []):
            if card is not None:
                found.add(Card.parse(card))
    return found


def check_shares(answer: dict[str, Any]) -> None:
    """Every equity in [0, 1]; a pool game's shares sum to 1 per street, a duel's to 1 per box."""
    assert answer["streets"], answer
    for street in answer["streets"]:
        assert street["method"] in ("exact", "sampled") and street["deals"] >= 1
        shares = [hand["equity"] for hand in street["hands"]]
        assert all(0.0 <= share <= 1.0 for share in shares), street
        if answer["game"] == "casino-holdem":
            for hand in street["hands"]:
                assert abs(hand["equity"] + hand["dealer_equity"] - 1.0) < 1e-5, street
        else:
            assert abs(sum(shares) - 1.0) < 1e-4, street


async def test_a_spectator_s_equity_uses_no_card_the_spectator_was_not_shown(
    room: Harness,
) -> None:
    ann, _bob, summary = await _razz_hand(room, bob_folds=True)
    hand_id = summary["id"]
    dealt, public = await _server_cards(room, hand_id)
    stranger = Client(room.base, None)
    try:
        seen = await stranger.http.get(f"/api/hands/{hand_id}/equity")
        copy = (await stranger.http.get(f"/api/hands/{hand_id}")).json()
    finally:
        await stranger.close()
    assert seen.status_code == 200, seen.text
    spectator = seen.json()
    mine = (await ann.http.get(f"/api/hands/{hand_id}/equity")).json()
    for answer in (spectator, mine):
        check_shares(answer)
        assert answer["streets"][0]["street"] == "third"
    # The spectator's answer names only public cards; Ann's only hers and the public ones.
    assert cards_in(spectator) <= public
    me = mine["you"]
    assert cards_in(mine) <= public | dealt[me]
    assert cards_in(mine) & (dealt[me] - public), "Ann's own down cards count for her"
    # The answer is a function of the asker's copy alone: counted again from the spectator's
    # document (its hidden cards null), it comes out the same.
    again = [street.to_dict() for street in equity_by_street(copy["history"], seed=hand_id)]
    assert spectator["streets"] == again
    # Ann knows her down cards, the spectator does not: their answers differ.
    assert spectator["streets"] != mine["streets"]
    ann_third = next(h for h in mine["streets"][0]["hands"] if h["hand_seat"] == me)
    seen_third = next(h for h in spectator["streets"][0]["hands"] if h["hand_seat"] == me)
    assert ann_third["known"] and not seen_third["known"]


async def test_a_3x4_hand_to_the_showdown_ends_in_whole_shares(room: Harness) -> None:
    table = room.table_id("3x4")
    ann, bob = await room.player(), await room.player()
    await sit(ann, table, 0, 100)
    await sit(bob, table, 1, 100)
    await play_hand([ann, bob], table, passive)
    hands = (await ann.http.get("/api/me/hands")).json()["hands"]
    hand_id = next(hand["id"] for hand in hands if hand["status"] == "finished")
    # The loser knows both hands: their own, and the winner's, shown (a loser may muck).
    document = (await ann.http.get(f"/api/hands/{hand_id}")).json()
    ended = next(e for e in document["history"]["events"] if e["type"] == "hand_ended")
    loser = ann if ended["net"][document["you"]] <= 0 else bob
    answer = (await loser.http.get(f"/api/hands/{hand_id}/equity")).json()
    check_shares(answer)
    assert [s["street"] for s in answer["streets"]] == ["hole", "flop", "turn", "river"]
    # Both hands are known: at the river nothing is left to come, so the count is exact.
    river = answer["streets"][-1]
    assert river["method"] == "exact" and river["deals"] == 1 and len(river["board"]) == 4
    assert all(hand["known"] for hand in river["hands"])
    assert sorted(hand["equity"] for hand in river["hands"]) in ([0.0, 1.0], [0.5, 0.5])
    # With both hands known and two cards to come, the turn is counted over every river.
    assert answer["streets"][2]["method"] == "exact"


async def test_each_casino_box_plays_the_dealer_alone(room: Harness) -> None:
    table = room.table_id("Casino Hold'em")
    ann = await room.player()
    await sit(ann, table, 0, 200)
    await sit(ann, table, 2, 200)
    for seat in (0, 2):
        await ann.send({"type": "wager", "table": table, "seat": seat, "ante": 5, "bonus": 0})
    await room.clock.advance(10)

    def call(decision: dict[str, Any], client: Client) -> dict[str, Any]:
        return {"kind": "call"}

    await play_hand([ann], table, call)
    hands = (await ann.http.get("/api/me/hands")).json()["hands"]
    hand_id = next(hand["id"] for hand in hands if hand["status"] == "finished")
    answer = (await ann.http.get(f"/api/hands/{hand_id}/equity")).json()
    check_shares(answer)
    assert [s["street"] for s in answer["streets"]] == ["hole", "flop", "turn", "river"]
    assert answer["yours"] == [0, 1]
    for street in answer["streets"]:
        assert len(street["hands"]) == 2 and len(street["dealer"]["cards"]) == 2
    assert answer["streets"][-1]["method"] == "exact"


async def test_the_equity_of_a_hand_is_refused_as_its_history_is(room: Harness) -> None:
    client = Client(room.base, None)
    try:
        for path in ("/api/hands/999999/equity", "/api/hands/0/equity"):
            missing = await client.http.get(path)
            assert (missing.status_code, missing.json()["code"]) == (404, "unknown_hand")
        table = room.table_id("3x4")
        ann, bob = await room.player(), await room.player()
        await sit(ann, table, 0, 100)
        await sit(bob, table, 1, 100)
        await room.settle()
        running = (await ann.http.get("/api/me/hands")).json()["hands"]
        assert running and running[0]["status"] == "running"
        for who in (client, ann):
            refused = await who.http.get(f"/api/hands/{running[0]['id']}/equity")
            assert (refused.status_code, refused.json()["code"]) == (403, "hand_running")
    finally:
        await client.close()
