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
    stored = await room.site.store.get_hand(hand_id)
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
