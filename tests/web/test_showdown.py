"""The showdown on the felt in every game: drawn from what was shown, held until the next hand.

The finished hand must stay drawn all through the room's pause between
hands (the server's view has no hand by then) and go only when the next
hand starts. The page itself records when the felt turns over and back
(a MutationObserver), so what is checked is the order of things on the
page, not what a test had time to see: the pause is long enough for the
checks below on a loaded machine, and nothing depends on when they run.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.process import ServeProcess
from tests.web.conftest import TABLES, module_room
from tests.web.pages import Person, axe_violations, hand_over, person, play_hand, register, sit

PREFER = {
    "3x4": ("check", "call"),
    "razz": ("bring_in", "check", "call"),
    "teen-patti": ("show",),
}
Save = Callable[[Any, str], None]
#: The room's pause between hands, and how long the finished hand must stay drawn at least.
PAUSE = 15.0
HELD = 5.0

#: Records on the page each time the felt turns over (a hand ended) or back, with the
#: page's time and the highest hand number the log has seen start by then.
WATCH_FELT = """() => {
  const changes = [];
  let over = null;
  const started = () => Math.max(0, ...[...document.querySelectorAll(
    "#log li[data-event='table_hand_started']")].map(e => Number(e.dataset.number)));
  const look = () => {
    const now = document.querySelector('.felt.over') !== null;
    if (now !== over) {
      over = now;
      changes.push({over: now, at: performance.now(), started: started()});
    }
  };
  new MutationObserver(look).observe(document.body, {
    subtree: true, childList: true, attributes: true, attributeFilter: ['class']});
  look();
  window.feltChanges = changes;
}"""


@pytest.fixture(scope="module")
def slow_room(
    tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path
) -> Iterator[ServeProcess]:
    """The test room with a long pause between hands."""
    yield from module_room(tmp_path_factory, sqlite_template, pause=PAUSE)


def events(who: Person, table: int, kind: str) -> list[dict[str, Any]]:
    """The events of ``kind`` the page was sent at ``table``."""
    return [
        frame["event"]
        for frame in who.frames
        if frame.get("table") == table
        and frame.get("type") == "event"
        and (frame["event"] or {}).get("type") == kind
    ]


def cards_sent(who: Person, table: int) -> set[str]:
    """Every card the server sent this page at ``table`` (own cards, board, shown hands)."""
    found: set[str] = set()
    for frame in who.frames:
        if frame.get("table") != table:
            continue
        event = frame.get("event") if frame.get("type") == "event" else None
        for cards in ((event or {}).get("cards") or [],):
            found.update(card for card in cards if card)
        if frame.get("type") == "snapshot":
            hand = frame["view"]["hand"] or {}
            found.update(card for card in hand.get("board") or [] if card)
            for seat in frame["view"]["seats"]:
                found.update(card for card in (seat or {}).get("cards") or [] if card)
            dealer = (hand.get("facts") or {}).get("dealer_cards") or []
            found.update(card for card in dealer if card)
    return found


def felt_cards(who: Person) -> list[str]:
    cards: list[str] = who.page.eval_on_selector_all(
        ".felt [data-card]", "els => els.map(e => e.dataset.card)"
    )
    return cards


def check_held(who: Person, number: int, next_hand: Callable[[], None] = lambda: None) -> None:
    """Hand ``number`` stayed drawn from its end until the next one started, HELD s at least."""
    page = who.page
    next_hand()
    page.wait_for_selector(
        f"#log li[data-event='table_hand_started'][data-number='{number + 1}']", timeout=60_000
    )
    page.wait_for_selector(".felt:not(.over)")
    changes: list[dict[str, Any]] = page.evaluate("window.feltChanges")
    ended = [i for i, change in enumerate(changes) if change["over"]]
    assert ended, f"the felt never showed a finished hand: {changes}"
    drawn, gone = changes[ended[0]], changes[ended[0] + 1 : ended[0] + 2]
    assert drawn["started"] == number, changes
    assert gone, f"the finished hand never left the felt: {changes}"
    assert gone[0]["started"] == number + 1, f"it left before the next hand started: {changes}"
    assert gone[0]["at"] - drawn["at"] >= HELD * 1000, f"drawn for less than {HELD} s: {changes}"


@pytest.mark.parametrize("game", ["3x4", "razz", "teen-patti"])
def test_the_showdown_is_drawn_and_held_until_the_next_hand(
    slow_room: ServeProcess, browser: Any, axe_source: str, screenshots: Save, game: str
) -> None:
    table = TABLES[game]
    ann, bob = person(browser, slow_room.base), person(browser, slow_room.base)
    try:
        register(ann, f"ann_sd_{game[:2]}")
        register(bob, f"bob_sd_{game[:2]}")
        sit(ann, table, 0)
        sit(bob, table, 1)
        ann.page.evaluate(WATCH_FELT)
        play_hand([ann, bob], 1, PREFER[game])
        ended = time.monotonic()
        for who in (ann, bob):
            who.page.wait_for_selector(".felt.over")
        page = ann.page
        shown = events(ann, table, "hand_shown")
        assert shown, "nobody showed"
        for event in shown:
            seat = page.locator(f".seat[data-seat='{event['seat']}']")
            # Each shown hand is face up at its seat, with its name under it.
            drawn = seat.locator(".hole [data-card]").evaluate_all(
                "els => els.map(e => e.dataset.card)"
            )
            assert set(event["cards"]) <= set(drawn), (event, drawn)
            assert seat.locator(".shown-name").inner_text().strip()
        awarded = events(ann, table, "pot_awarded")
        assert page.locator(".awards li").count() == sum(len(a["winners"]) for a in awarded)
        for award in awarded:
            for winner in award["winners"]:
                page.wait_for_selector(f".seat.winner[data-seat='{winner}']")
        if any(a["description"] for a in awarded):
            assert page.locator(".card.win").count() >= 2, "the winning cards are picked out"
        if game == "3x4":
            board = page.locator(".board [data-card]").count()
            assert board == len([c for e in events(ann, table, "board_dealt") for c in e["cards"]])
        # Every card on the felt is one the server sent this page: none is made up.
        assert set(felt_cards(ann)) <= cards_sent(ann, table)
        assert axe_violations(ann, axe_source) == []
        # The cards turned and the chips pushed, the picture as a person sees it.
        page.wait_for_timeout(max(0.0, 3.0 - (time.monotonic() - ended)) * 1000)
        screenshots(page, f"showdown-{game}-desktop")
        if game == "razz":
            # In Russian the page is drawn again (from the hand the tab kept): names in Russian.
            # (Bob's page: Ann's records how long the felt stays, and this redraws it.)
            other = bob.page
            other.select_option("#lang", "ru")
            other.wait_for_function(
                "[...document.querySelectorAll('.felt.over .shown-name')]"
                ".some(e => /[а-яё]/i.test(e.textContent))"
            )
            names = other.locator(".shown-name").all_inner_texts()
            assert names and all(re.search("[а-яё]", name) for name in names), names
            other.select_option("#lang", "en")
        if game == "3x4":
            # Asked for less motion, the cards and chips are simply there.
            page.emulate_media(reduced_motion="reduce")
            moving = page.eval_on_selector_all(
                ".card.revealed, .board .card.dealt, .chip-push",
                "els => els.filter(e => getComputedStyle(e).animationName !== 'none'"
                " && getComputedStyle(e).display !== 'none').length",
            )
            assert moving == 0
            page.emulate_media(reduced_motion="no-preference")
        check_held(ann, 1)
        assert ann.errors == [] and bob.errors == []
    finally:
        ann.close()
        bob.close()


def test_casino_holdem_shows_the_dealer_s_hand_and_each_box_s_result(
    slow_room: ServeProcess, browser: Any, axe_source: str, screenshots: Save
) -> None:
    table = TABLES["casino-holdem"]
    ann = person(browser, slow_room.base)
    try:
        register(ann, "ann_sd_casino")
        sit(ann, table, 1, 200)
        sit(ann, table, 4, 200)
        page = ann.page
        page.fill("#ante-1", "5")
        page.fill("#ante-4", "2")
        page.fill("#bonus-4", "1")
        page.evaluate(WATCH_FELT)
        page.click("button.place-bets")
        play_hand([ann], 1, ("call",))
        ended = time.monotonic()
        page.wait_for_selector(".felt.over")
        dealer = events(ann, table, "hand_shown")
        dealer_cards = next(e for e in dealer if e["seat"] == -1)["cards"]
        drawn = page.eval_on_selector_all(".dealer [data-card]", "l => l.map(e => e.dataset.card)")
        assert drawn == dealer_cards
        assert page.locator(".dealer .shown-name").inner_text().strip()
        assert page.locator(".board [data-card]").count() == 5
        for event in events(ann, table, "box_settled"):
            result = page.locator(f".seat[data-seat='{event['seat']}'] .result").inner_text()
            assert any(ch.isdigit() for ch in result), result
        # The two boxes of one player are told apart.
        assert page.locator(".seat[data-seat='1'] .box-number").inner_text() == "Box 2"
        assert page.locator(".seat[data-seat='4'] .box-number").inner_text() == "Box 5"
        assert set(felt_cards(ann)) <= cards_sent(ann, table)
        assert axe_violations(ann, axe_source) == []
        page.wait_for_timeout(max(0.0, 3.0 - (time.monotonic() - ended)) * 1000)
        screenshots(page, "showdown-casino-holdem-desktop")
        # The next round starts once bets are placed again (still drawn meanwhile): Repeat bets.
        page.wait_for_timeout(max(0.0, HELD - (time.monotonic() - ended)) * 1000)
        check_held(ann, 1, lambda: page.click("#repeat-bets"))
        assert hand_over(ann, 1) and ann.errors == []
    finally:
        ann.close()
