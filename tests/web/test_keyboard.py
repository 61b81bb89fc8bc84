"""A hand played with the keyboard alone: Tab to a seat, Enter to sit, shortcut keys to act."""

from __future__ import annotations

import time
from typing import Any

from tests.server.process import ServeProcess
from tests.web.conftest import TABLES
from tests.web.pages import Person, hand_over, person, register

CHECK_OR_CALL = ", ".join(
    f"#action-bar button.act[data-kind='{kind}']:not([disabled])" for kind in ("check", "call")
)


def tab_to(who: Person, selector: str, limit: int = 60) -> None:
    """Press Tab until ``selector`` has the focus; its focus is drawn (an outline)."""
    page = who.page
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(f"document.activeElement.matches({selector!r})"):
            outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
            assert outline not in ("", "none"), outline
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_a_hand_played_with_the_keyboard_only(room: ServeProcess, browser: Any) -> None:
    table = TABLES["3x4"]
    ann, bob = person(browser, room.base), person(browser, room.base)
    try:
        for who, name, seat in ((ann, "ann_keys", 0), (bob, "bob_keys", 1)):
            register(who, name)
            who.goto(f"/table/{table}")
            who.page.wait_for_selector(f".seat.empty[data-seat='{seat}']")
            tab_to(who, f".seat.empty[data-seat='{seat}'] button.sit-here")
            who.page.keyboard.press("Enter")
            who.page.wait_for_selector("#buy-in:focus")
            who.page.keyboard.press("Enter")
            who.page.wait_for_selector(f".seat.mine[data-seat='{seat}']")
        # The shortcut is on the button, and pressing it acts: C checks or calls.
        pressed = 0
        deadline = time.monotonic() + 60
        while not hand_over(ann, 1):
            assert time.monotonic() < deadline, "the hand did not end"
            for who in (ann, bob):
                button = who.page.locator(CHECK_OR_CALL)
                if button.count():
                    assert button.first.locator("kbd").inner_text() == "C"
                    who.page.keyboard.press("c")
                    pressed += 1
                    who.page.wait_for_timeout(150)
            ann.page.wait_for_timeout(100)
        assert pressed >= 4  # every street's check, both players
        assert ann.errors == [] and bob.errors == []
    finally:
        ann.close()
        bob.close()
