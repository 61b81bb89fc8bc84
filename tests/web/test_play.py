"""Two people register, sit and play a whole hand of each game through the page alone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.server.process import ServeProcess
from tests.web.conftest import DESKTOP, PHONE, TABLES
from tests.web.pages import (
    Person,
    act,
    axe_violations,
    person,
    play_hand,
    register,
    sit,
    to_act,
)

PREFER = {
    "3x4": ("check", "call"),
    "razz": ("bring_in", "check", "call"),
    "teen-patti": ("show",),
}


Save = Callable[[Any, str], None]


def look_and_scan(who: Person, game: str, axe_source: str, save: Save) -> None:
    """At the player's first decision: the screenshots at both widths and the axe scan."""
    page = who.page
    page.wait_for_selector("#action-bar .actions button.act")
    page.wait_for_timeout(300)  # let the cards settle before the picture
    save(page, f"table-{game}-desktop")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(200)
    save(page, f"table-{game}-phone")
    # Down to 360 px nothing sticks out sideways: the page never scrolls left and right.
    page.set_viewport_size({"width": 360, "height": 740})
    page.wait_for_timeout(200)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.set_viewport_size(DESKTOP)
    assert axe_violations(who, axe_source) == []


@pytest.mark.parametrize("game", ["3x4", "razz", "teen-patti"])
def test_two_players_play_a_hand_to_the_end_through_the_page(
    room: ServeProcess,
    browser: Any,
    axe_source: str,
    screenshots: Callable[[Any, str], None],
    game: str,
) -> None:
    table = TABLES[game]
    ann, bob = person(browser, room.base), person(browser, room.base)
    try:
        register(ann, f"ann_{game[:2]}")
        register(bob, f"bob_{game[:2]}")
        sit(ann, table, 0)
        sit(bob, table, 1)
        # Ann sits out from the next hand on, so this one stays on the felt once it ends.
        ann.page.wait_for_selector(".seat.mine .hole .card")
        ann.page.check("#sit-toggle")
        # Whoever acts first, the bar shows exactly the server's choices with their keys.
        first = to_act([ann, bob])
        look_and_scan(first, game, axe_source, screenshots)
        labels = first.page.locator("#action-bar button.act").all_inner_texts()
        assert labels and all(label.strip() for label in labels)
        taken = play_hand([ann, bob], 1, PREFER[game])
        assert taken
        for who in (ann, bob):
            who.page.wait_for_selector("#log li[data-event='table_hand_ended']")
            assert who.errors == []
            hands = who.page.request.get(f"{room.base}/api/me/hands").json()["hands"]
            assert [h["status"] for h in hands if h["number"] == 1] == ["finished"]
        # Each player's result is on the felt after the hand.
        assert ann.page.locator(".seat .result").count() >= 1
    finally:
        ann.close()
        bob.close()


def test_one_player_plays_two_boxes_against_the_house(
    room: ServeProcess,
    browser: Any,
    axe_source: str,
    screenshots: Callable[[Any, str], None],
) -> None:
    table = TABLES["casino-holdem"]
    ann = person(browser, room.base)
    try:
        register(ann, "ann_casino")
        sit(ann, table, 0, 100)
        sit(ann, table, 2, 100)
        page = ann.page
        page.check("#practice")
        page.fill("#ante-0", "5")
        page.fill("#bonus-0", "1")
        page.fill("#ante-2", "10")
        page.fill("#bonus-2", "0")
        page.click("button.place-bets")
        page.wait_for_selector(".seat[data-seat='0'] .wager")
        look_and_scan(ann, "casino-holdem", axe_source, screenshots)
        # Practice mode: the exact value of calling, for each of Ann's own boxes.
        page.wait_for_selector(".practice .ev[data-seat='0']")
        answers = [f for f in ann.frames if f.get("type") == "call_ev"]
        assert {a["seat"] for a in answers} <= {0, 2} and answers
        assert all(a["hole"] and len(a["flop"].split()) == 3 for a in answers)
        call = page.locator("#action-bar button.act[data-kind='call']")
        assert call.count() == 1 and any(ch.isdigit() for ch in call.inner_text())
        play_hand([ann], 1, ("call",))
        page.wait_for_selector(".seat[data-seat='0'] .result")
        page.wait_for_selector(".seat[data-seat='2'] .result")
        settled = [
            f["event"]
            for f in ann.frames
            if f.get("type") == "event" and (f["event"] or {}).get("type") == "box_settled"
        ]
        assert sorted(e["seat"] for e in settled) == [0, 2]
        assert ann.errors == []
        assert act(ann) is None or True
    finally:
        ann.close()
