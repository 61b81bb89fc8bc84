"""A player's turn: safe keys, folding when checking is free, pre-actions, the alerts, Chaal.

Three people at a three-seat 3x4 table. The first to act has a free check:
Enter and Space do nothing (no button holds the focus), F asks before it
folds. The last to act chooses in advance while the others act: a bet clears
"Check", a raise clears "Call 2", and "Call any" calls by itself when the
turn comes. The one in the middle has the tab hidden, a sound and
notifications on: the title, the icon, the chime and the notification say
it is their turn.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.process import ServeProcess
from tests.web.conftest import TABLES, module_room
from tests.web.pages import Person, axe_violations, person, play_hand, register, sit, to_act

#: A page whose tab is hidden and whose notifications are allowed (and recorded).
HIDDEN_TAB = """
Object.defineProperty(document, "hidden", { get: () => true });
window.__notes = [];
window.Notification = class {
  constructor(title, options) { window.__notes.push([title, (options || {}).body]); }
  static get permission() { return "granted"; }
  static requestPermission() { return Promise.resolve("granted"); }
};
localStorage.setItem("pokerhouse.sound", "1");
"""


@pytest.fixture(scope="module")
def room3(
    tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path
) -> Iterator[ServeProcess]:
    """The test room with three seats at 3x4."""
    yield from module_room(tmp_path_factory, sqlite_template, seats=3)


def acted(who: Person, table: int, seat: int, since: int = 0) -> list[str]:
    """The kinds of the actions the page saw ``seat`` take (after frame ``since``)."""
    return [
        frame["event"]["action"]["kind"]
        for frame in who.frames[since:]
        if frame.get("table") == table
        and frame.get("type") == "event"
        and (frame["event"] or {}).get("type") == "action_taken"
        and frame["event"]["seat"] == seat
    ]


def seat_of(who: Person) -> int:
    return int(who.page.get_attribute(".seat.mine", "data-seat") or -1)


def wait_acted(who: Person, table: int, seat: int, kind: str, since: int) -> None:
    deadline = time.monotonic() + 60
    while kind not in acted(who, table, seat, since):
        assert time.monotonic() < deadline, f"seat {seat} did not {kind}"
        who.page.wait_for_timeout(100)


def test_safe_keys_pre_actions_and_the_turn_s_alerts(
    room3: ServeProcess, browser: Any, axe_source: str
) -> None:
    table = TABLES["3x4"]
    ann, bob, cat = (person(browser, room3.base) for _ in range(3))
    people = [ann, bob, cat]
    for who in people:
        who.context.add_init_script(HIDDEN_TAB)
    try:
        for who, name, seat in ((ann, "ann_turn", 0), (bob, "bob_turn", 1), (cat, "cat_turn", 2)):
            register(who, name)
            sit(who, table, seat)
        # The first hand started as soon as two sat down; the second deals all three in.
        play_hand(people, 1)
        for who in people:
            who.page.wait_for_selector("#log li[data-event='table_hand_started'][data-number='2']")
            who.page.wait_for_selector(".seat.mine .hole .card")
        first = to_act(people)
        waiting = [who for who in people if who is not first]
        # The seat after `first` acts second; the one after that, last.
        second, last = sorted(waiting, key=lambda who: (seat_of(who) - seat_of(first)) % 3)
        # The last to act chooses Check in advance (the settings open: the page as it is).
        last.page.check("#pre-check")
        last.page.click("#table-settings summary")
        assert axe_violations(last, axe_source) == []

        page = first.page
        # It is the first player's turn: the page says so (the tab is hidden: every way it can).
        assert page.title().startswith("● Your turn")
        assert page.get_attribute("link[rel='icon']", "href") == "img/chip-turn.svg"
        assert page.evaluate("window.__notes.length") >= 1
        assert page.evaluate("document.body.dataset.lastAlert") == "sound notification"
        # No button holds the focus: Enter and Space do nothing.
        assert page.evaluate("document.activeElement.id") == "your-turn"
        mark = len(first.frames)
        page.keyboard.press("Enter")
        page.keyboard.press(" ")
        page.wait_for_timeout(800)
        assert acted(first, table, seat_of(first), mark) == [], "Enter or Space acted"
        # F asks first: checking is free.
        page.keyboard.press("f")
        fold = page.locator("#action-bar button.act[data-kind='fold']")
        assert "confirming" in (fold.get_attribute("class") or "")
        assert "Checking is free" in fold.inner_text()
        assert axe_violations(first, axe_source) == []
        page.wait_for_timeout(500)
        assert acted(first, table, seat_of(first), mark) == []
        # A bet: the last player's Check no longer holds.
        page.click("#action-bar button.act[data-kind='bet']")
        page.wait_for_function("!document.title.startsWith('●')")
        last.page.locator(".pre-note", has_text="cleared").wait_for()
        assert last.page.locator("#pre-check").count() == 0
        assert not last.page.is_checked("#pre-call")
        last.page.check("#pre-call")
        assert "Call 2" in last.page.inner_text("label[for='pre-call']")
        # A raise: "Call 2" no longer holds, and is not sent when the turn comes.
        mark = len(last.frames)
        second.page.click("#action-bar button.act[data-kind='raise']")
        last.page.wait_for_selector("#action-bar button.act[data-kind='call']")
        last.page.locator(".pre-note", has_text="cleared").wait_for()
        last.page.wait_for_timeout(500)
        assert acted(last, table, seat_of(last), mark) == [], "the cleared Call 2 was sent"
        last.page.click("#action-bar button.act[data-kind='call']")
        first.page.click("#action-bar button.act[data-kind='call']")
        # The flop: the last player checks in advance, and the check goes when the turn comes.
        last.page.wait_for_selector("#pre-check")
        last.page.check("#pre-check")
        mark = len(last.frames)
        first.page.click("#action-bar button.act[data-kind='check']")
        second.page.click("#action-bar button.act[data-kind='check']")
        wait_acted(last, table, seat_of(last), "check", mark)
        last.page.locator(".pre-note", has_text="in advance").wait_for()
        play_hand(people, 2)
        for who in people:
            assert who.errors == [], who.errors
    finally:
        for who in people:
            who.close()


def test_teen_patti_has_a_call_button_the_chaal(room3: ServeProcess, browser: Any) -> None:
    table = TABLES["teen-patti"]
    ann, bob = person(browser, room3.base), person(browser, room3.base)
    try:
        register(ann, "ann_chaal")
        register(bob, "bob_chaal")
        sit(ann, table, 0)
        sit(bob, table, 1)
        first = to_act([ann, bob])
        chaal = first.page.locator("#action-bar button.act[data-kind='chaal']")
        assert chaal.inner_text().split("\n")[0] == "Call (Chaal) 1"
        assert chaal.locator("kbd").inner_text() == "C"
        # Presets show their amounts; their shortcut digits are not printed beside them.
        for preset in first.page.locator(".presets button").all():
            text = preset.inner_text()
            assert preset.get_attribute("data-amount") in text
            assert preset.locator("kbd").count() == 0
        mark = len(first.frames)
        first.page.keyboard.press("c")
        deadline = time.monotonic() + 60
        while True:
            bets = [
                f["event"]
                for f in first.frames[mark:]
                if f.get("type") == "event" and (f["event"] or {}).get("type") == "action_taken"
            ]
            if bets:
                break
            assert time.monotonic() < deadline
            first.page.wait_for_timeout(100)
        assert bets[0]["action"] == {"kind": "bet", "amount": 1} and bets[0]["added"] == 1
        play_hand([ann, bob], 1, ("show",))
        assert ann.errors == [] and bob.errors == []
    finally:
        ann.close()
        bob.close()
