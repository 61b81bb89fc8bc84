"""A hand's downloads over HTTP: JSON, text and PHH, each only the viewer's own copy."""

from __future__ import annotations

import re
import tomllib
from typing import Any

from pokerhouse.cards import Card
from pokerhouse.history import read_phh, replay, replay_phh
from tests.server.conftest import Client, Harness
from tests.server.play import passive, play_hand, sit

_CARD = re.compile(r"[2-9TJQKA][cdhs]")


def folds_when_it_can(decision: dict[str, Any], client: Client) -> dict[str, Any]:
    """Fold at the first chance (the bring-in may not fold, so it brings in first)."""
    if any(option["kind"] == "fold" for option in decision["actions"]):
        return {"kind": "fold"}
    return passive(decision, client)


async def _razz_hand(room: Harness, bob_folds: bool) -> tuple[Client, Client, Any]:
    """Ann and Bob play one Razz hand; the hand's summary from Ann's list."""
    table = room.table_id("Razz")
    ann, bob = await room.player(), await room.player()
    await sit(ann, table, 0, 100)
    await sit(bob, table, 1, 100)

    def choose(decision: dict[str, Any], client: Client) -> dict[str, Any]:
        if client is bob and bob_folds:
            return folds_when_it_can(decision, client)
        return passive(decision, client)

    await play_hand([ann, bob], table, choose)
    hands = (await ann.http.get("/api/me/hands")).json()["hands"]
    return (
        ann,
        bob,
        next(hand for hand in hands if hand["table_id"] == table and hand["status"] == "finished"),
    )


async def _server_cards(room: Harness, hand_id: int) -> tuple[dict[int, set[Card]], set[Card]]:
    """Each hand seat's dealt cards and the cards shown to all, from the server's history."""
    stored = await room.site.store.hands.get(hand_id)
    assert stored.history is not None
    hand = replay(stored.history)
    public: set[Card] = set()
    for event in hand.events_for(None):
        for value in (getattr(event, "cards", None) or ()), (getattr(event, "card", None),):
            public.update(card for card in value if isinstance(card, Card))
    dealt: dict[int, set[Card]] = {}
    for event in hand.events:
        if type(event).__name__ == "CardsDealt":
            dealt.setdefault(event.seat, set()).update(event.cards)  # type: ignore[attr-defined]
    return dealt, public


async def test_a_folded_razz_hand_downloads_without_the_other_players_down_cards(
    room: Harness,
) -> None:
    ann, bob, summary = await _razz_hand(room, bob_folds=True)
    hand_id = summary["id"]
    dealt, public = await _server_cards(room, hand_id)
    document = (await ann.http.get(f"/api/hands/{hand_id}")).json()
    me = document["you"]
    other = 1 - me
    hidden = dealt[other] - public
    assert len(hidden) >= 2, "the folded player's down cards were never shown"
    allowed = dealt[me] | public

    phh = await ann.http.get(f"/api/hands/{hand_id}", params={"format": "phh"})
    assert phh.status_code == 200 and phh.headers["content-type"].startswith("application/toml")
    fields = tomllib.loads(phh.text)
    assert fields["variant"] == "FR" and fields["hand"] == summary["number"]
    assert fields["players"][me] == ann.name and fields["players"][other] == bob.name
    in_phh = {Card.parse(word) for word in _CARD.findall(" ".join(fields["actions"]))}
    assert in_phh <= allowed and not in_phh & hidden
    assert any(f"p{other + 1} ????" in line for line in fields["actions"])
    # The download is a PHH file our reader takes back, finishing stacks and all.
    finishing = tuple(document["history"]["finishing_stacks"])
    assert read_phh(phh.text).finishing_stacks == finishing
    assert replay_phh(phh.text).stacks == finishing

    text = (await ann.http.get(f"/api/hands/{hand_id}", params={"format": "text"})).text
    assert f"{ann.name}" in text and f"{bob.name}" in text
    assert {Card.parse(word) for word in re.findall(r"\b[2-9TJQKA][cdhs]\b", text)} <= allowed
    in_json = {
        Card.parse(card)
        for cards in document["history"]["cards"].values()
        for card in cards
        if card is not None
    }
    assert in_json <= allowed and document["history"]["view"] == me

    # Someone who was not dealt in gets the spectator's copy: no down card at all.
    stranger = Client(room.base, None)
    seen = (await stranger.http.get(f"/api/hands/{hand_id}", params={"format": "phh"})).text
    in_seen = {Card.parse(word) for word in _CARD.findall(" ".join(tomllib.loads(seen)["actions"]))}
    assert in_seen <= public
    await stranger.close()


async def test_phh_is_for_razz_only_and_an_unknown_format_is_refused(room: Harness) -> None:
    table = room.table_id("3x4")
    ann, bob = await room.player(), await room.player()
    await sit(ann, table, 0, 100)
    await sit(bob, table, 1, 100)
    await play_hand([ann, bob], table)
    hands = (await ann.http.get("/api/me/hands")).json()["hands"]
    hand_id = next(hand["id"] for hand in hands if hand["status"] == "finished")
    refused = await ann.http.get(f"/api/hands/{hand_id}", params={"format": "phh"})
    assert (refused.status_code, refused.json()["code"]) == (400, "no_phh")
    for fmt in ("xml", "PHH", ""):
        bad = await ann.http.get(f"/api/hands/{hand_id}", params={"format": fmt})
        assert (bad.status_code, bad.json()["code"]) == (400, "bad_format"), fmt
    assert (await ann.http.get(f"/api/hands/{hand_id}")).status_code == 200


async def test_a_player_with_two_boxes_gets_both_boxes_cards_and_not_the_others(
    room: Harness,
) -> None:
    """One person, two Casino Hold'em boxes: the history is theirs for both boxes."""
    table = room.table_id("Casino Hold'em")
    ann, bob = await room.player(), await room.player()
    await sit(ann, table, 0, 200)
    await sit(ann, table, 3, 200)
    await sit(bob, table, 5, 200)
    for client, seat in ((ann, 0), (ann, 3), (bob, 5)):
        await client.send({"type": "wager", "table": table, "seat": seat, "ante": 5, "bonus": 0})
    await room.clock.advance(10)

    def choose(decision: dict[str, Any], client: Client) -> dict[str, Any]:
        return {"kind": "fold" if client is bob else "call"}

    await play_hand([ann, bob], table, choose)
    hands = (await ann.http.get("/api/me/hands")).json()["hands"]
    hand_id = next(h["id"] for h in hands if h["table_id"] == table and h["status"] == "finished")
    document = (await ann.http.get(f"/api/hands/{hand_id}")).json()
    by_table_seat = {p["table_seat"]: p["hand_seat"] for p in document["players"]}
    assert sorted(document["yours"]) == sorted([by_table_seat[0], by_table_seat[3]])
    assert document["you"] == document["yours"][0]
    assert document["history"]["view"] == sorted(document["yours"])
    cards = document["history"]["cards"]
    for seat in document["yours"]:
        assert all(cards[str(seat)]), f"Ann's box {seat} is missing a card"
    assert not any(cards[str(by_table_seat[5])]), "Bob folded: his cards stay hidden"
    dealt, public = await _server_cards(room, hand_id)
    hidden = dealt[by_table_seat[5]] - public
    text = (await ann.http.get(f"/api/hands/{hand_id}", params={"format": "text"})).text
    assert f"{ann.name} (box 1)" in text and f"{ann.name} (box 4)" in text
    words = {Card.parse(word) for word in re.findall(r"\b[2-9TJQKA][cdhs]\b", text)}
    assert len(hidden) == 2 and not words & hidden
    for seat in document["yours"]:
        assert dealt[seat] <= words
    # Bob, with one box, gets his own copy: a single seat.
    theirs = (await bob.http.get(f"/api/hands/{hand_id}")).json()
    assert theirs["yours"] == [by_table_seat[5]] and theirs["history"]["view"] == theirs["you"]


async def test_the_text_numbers_each_seat_as_the_table_and_the_page_do(room: Harness) -> None:
    table = room.table_id("3x4")
    bob, ann = await room.player(), await room.player()
    await sit(bob, table, 0, 100)  # the first to sit has the button: Ann, left of it, starts
    await sit(ann, table, 1, 100)
    await play_hand([ann, bob], table)
    hands = (await ann.http.get("/api/me/hands")).json()["hands"]
    hand_id = next(hand["id"] for hand in hands if hand["status"] == "finished")
    document = (await ann.http.get(f"/api/hands/{hand_id}")).json()
    text = (await ann.http.get(f"/api/hands/{hand_id}", params={"format": "text"})).text
    players = document["players"]
    assert any(p["hand_seat"] != p["table_seat"] for p in players), players
    for player in players:
        assert f"Seat {player['table_seat'] + 1}: {player['name']} (" in text, text
    me = next(p for p in players if p["name"] == ann.name)
    assert f"View: {ann.name}'s (Seat {me['table_seat'] + 1})" in text
