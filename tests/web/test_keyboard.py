"""The keyboard: a hand played with keys alone, and the keyboard contract of docs/web.md.

Every key works wherever the focus is, except inside a text field the player
put the focus in (clicked or tabbed into: the chat, the amount box); a size
key (``1``-``4``) sets the amount and the next action key acts; nothing folds
when checking is free without a second press.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.process import ServeProcess
from tests.web.conftest import module_room
from tests.web.pages import Person, hand_over, person, play_hand, register, sit, to_act

#: Three 3x4 tables (one a test) whose first pot (two antes of 3) has a half-pot size
#: between the least bet (2) and the pot, and a Teen Patti table; two seats each.
ROOM = """
[room]
hand_pause = 1.0
bot_think = [0.0, 0.0]

[[tables]]
name = "3x4 Keys"
game = "3x4"
options = { ante = 3, small_bet = 2 }
seats = 2
min_buy_in = 20
max_buy_in = 1000
decision_seconds = 60
time_bank_seconds = 10

[[tables]]
name = "3x4 Sizes"
game = "3x4"
options = { ante = 3, small_bet = 2 }
seats = 2
min_buy_in = 20
max_buy_in = 1000
decision_seconds = 60
time_bank_seconds = 10

[[tables]]
name = "3x4 Fields"
game = "3x4"
options = { ante = 3, small_bet = 2 }
seats = 2
min_buy_in = 20
max_buy_in = 1000
decision_seconds = 60
time_bank_seconds = 10

[[tables]]
name = "Teen Patti No-Limit, boot 1"
game = "teen-patti"
options = { ante = 1 }
seats = 2
min_buy_in = 20
max_buy_in = 1000
decision_seconds = 60
time_bank_seconds = 10
"""

#: The tables: one 3x4 table for each test that plays 3x4, then Teen Patti.
KEYS_ONLY, SIZES, FIELDS, TEEN_PATTI = 1, 2, 3, 4

CHECK_OR_CALL = ", ".join(
    f"#action-bar button.act[data-kind='{kind}']:not([disabled])" for kind in ("check", "call")
)


@pytest.fixture(scope="module")
def keys_room(
    tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path
) -> Iterator[ServeProcess]:
    yield from module_room(tmp_path_factory, sqlite_template, config=ROOM)


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


def acts(who: Person, since: int) -> list[dict[str, Any]]:
    """The actions the page sent after its ``since``-th message."""
    return [m["action"] for m in who.sent[since:] if m.get("type") == "act"]


def wait_act(who: Person, since: int) -> dict[str, Any]:
    """The one action the page sends after message ``since`` (waiting for it)."""
    deadline = time.monotonic() + 30
    while not acts(who, since):
        assert time.monotonic() < deadline, "no action was sent"
        who.page.wait_for_timeout(50)
    who.page.wait_for_timeout(300)  # a second one would be a fault
    sent = acts(who, since)
    assert len(sent) == 1, sent
    return sent[0]


def nothing_sent(who: Person, since: int) -> None:
    who.page.wait_for_timeout(600)
    assert acts(who, since) == []


def amount(who: Person) -> str:
    value: str = who.page.input_value("#action-bar input.amount")
    return value


def focus(who: Person) -> str:
    """What holds the focus: its id, or its tag and class."""
    found: str = who.page.evaluate(
        "(() => { const e = document.activeElement;"
        " return e.id || `${e.tagName.toLowerCase()}.${e.className}`; })()"
    )
    return found


def presets(who: Person) -> list[tuple[str, int]]:
    found = who.page.eval_on_selector_all(
        "#action-bar .presets button.preset",
        "els => els.map(e => [e.dataset.preset, Number(e.dataset.amount)])",
    )
    return [(name, amount) for name, amount in found]


def seated(ann: Person, bob: Person, table: int) -> None:
    for who, name, seat in ((ann, f"ann_k{table}", 0), (bob, f"bob_k{table}", 1)):
        register(who, name)
        sit(who, table, seat, 100)


def test_a_hand_played_with_the_keyboard_only(keys_room: ServeProcess, browser: Any) -> None:
    table = KEYS_ONLY
    ann, bob = person(browser, keys_room.base), person(browser, keys_room.base)
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


def test_a_size_key_sets_the_amount_and_the_next_action_key_acts(
    keys_room: ServeProcess, browser: Any
) -> None:
    """``2`` then ``R`` bets half the pot; digits after a size key pick sizes, never pile
    into the amount; ``C`` and ``F`` act after a size key; ``F`` asks when checking is free."""
    ann, bob = person(browser, keys_room.base), person(browser, keys_room.base)
    try:
        seated(ann, bob, SIZES)
        first = to_act([ann, bob])
        other = bob if first is ann else ann
        page = first.page
        page.wait_for_selector("#your-turn:focus")
        sizes = presets(first)
        assert [name for name, _ in sizes] == ["min", "half_pot", "pot", "all_in"], sizes
        half = sizes[1][1]
        page.keyboard.press("2")
        assert amount(first) == str(half)
        assert focus(first) == "your-turn"  # the size key left the focus where it was
        # More digits pick sizes (9 is none): nothing piles into the amount.
        for digit in "922":
            page.keyboard.press(digit)
        assert amount(first) == str(half)
        mark = len(first.sent)
        page.keyboard.press("r")
        assert wait_act(first, mark) == {"kind": "bet", "amount": half}
        # Facing the bet: a size key, then C calls (the size is not raised).
        other.page.wait_for_selector("#action-bar button.act[data-kind='call']")
        other.page.keyboard.press("3")
        assert amount(other) == str(presets(other)[2][1])
        mark = len(other.sent)
        other.page.keyboard.press("c")
        assert wait_act(other, mark) == {"kind": "call"}
        # The flop, checking free: a size key, then F asks; the second F folds.
        page.wait_for_selector("#action-bar button.act[data-kind='check']")
        page.keyboard.press("2")
        mark = len(first.sent)
        page.keyboard.press("f")
        fold = page.locator("#action-bar button.act[data-kind='fold']")
        assert "confirming" in (fold.get_attribute("class") or "")
        nothing_sent(first, mark)
        page.keyboard.press("f")
        assert wait_act(first, mark) == {"kind": "fold"}
        first.page.wait_for_selector("#log li[data-event='table_hand_ended'][data-number='1']")
        assert ann.errors == [] and bob.errors == []
    finally:
        ann.close()
        bob.close()


def test_a_text_field_the_player_clicked_into_takes_the_keys_until_escape(
    keys_room: ServeProcess, browser: Any
) -> None:
    """Clicked into the amount box, digits go into it (R types nothing and does not bet);
    Esc gives the keys back. Clicked into the chat, letters are words, not actions. A form
    the player opened while waiting (Add chips) does not hide the decision."""
    ann, bob = person(browser, keys_room.base), person(browser, keys_room.base)
    try:
        register(ann, "ann_fields")
        register(bob, "bob_fields")
        sit(ann, FIELDS, 0, 100)
        sit(bob, FIELDS, 1, 100)
        first = to_act([ann, bob])
        other = bob if first is ann else ann
        # The other opens Add chips while waiting: its form stays, under the decision to come.
        other.page.click("#add-chips")
        other.page.wait_for_selector("#add-amount:focus")
        page = first.page
        mark = len(first.sent)
        page.click("#action-bar input.amount")
        page.keyboard.press("Control+a")
        page.keyboard.type("45")
        page.keyboard.press("r")
        page.keyboard.press("c")
        assert amount(first) == "45"
        nothing_sent(first, mark)
        page.keyboard.press("Escape")
        assert focus(first) == "your-turn"
        page.keyboard.press("r")
        assert wait_act(first, mark) == {"kind": "bet", "amount": 45}
        # The chat: the player's words go in as typed, whatever keys they use.
        other.page.wait_for_selector("#action-bar button.act[data-kind='call']")
        assert other.page.locator("#add-amount").count() == 1
        other.page.wait_for_selector("#your-turn:focus")
        mark = len(other.sent)
        other.page.click("#chat-input")
        other.page.keyboard.type("fold? call! 2 1")
        assert other.page.input_value("#chat-input") == "fold? call! 2 1"
        nothing_sent(other, mark)
        other.page.keyboard.press("Escape")
        assert focus(other) == "your-turn"
        other.page.keyboard.press("c")
        assert wait_act(other, mark) == {"kind": "call"}
        play_hand([ann, bob], 1)
        assert ann.errors == [] and bob.errors == []
    finally:
        ann.close()
        bob.close()


def test_teen_patti_keys_act_after_a_size_key(keys_room: ServeProcess, browser: Any) -> None:
    """``L`` looks, ``C`` calls (Chaal) and ``S`` asks for a show after a size key; a
    Russian keyboard's letters act as the keys they sit on."""
    ann, bob = person(browser, keys_room.base), person(browser, keys_room.base)
    try:
        seated(ann, bob, TEEN_PATTI)
        first = to_act([ann, bob])
        other = bob if first is ann else ann
        page = first.page
        page.wait_for_selector("#your-turn:focus")
        page.keyboard.press("2")
        assert amount(first) == str(presets(first)[1][1])
        mark = len(first.sent)
        page.keyboard.press("l")
        assert wait_act(first, mark) == {"kind": "look"}
        # Seen now, in the same turn: a size key, then C (on a Russian keyboard: С).
        page.wait_for_selector("#action-bar .badge.seen, .seat.mine .badge.seen")
        chaal = page.locator("#action-bar button.act[data-kind='chaal']")
        chaal.wait_for()
        least = presets(first)[0][1]
        page.keyboard.press("3")
        mark = len(first.sent)
        page.evaluate(
            "document.activeElement.dispatchEvent(new KeyboardEvent('keydown',"
            " {key: 'с', code: 'KeyC', bubbles: true, cancelable: true}))"
        )
        assert wait_act(first, mark) == {"kind": "bet", "amount": least}
        # The other, still blind, may pay for a show: a size key, then S.
        other.page.wait_for_selector("#action-bar button.act[data-kind='show']")
        other.page.keyboard.press("2")
        mark = len(other.sent)
        other.page.keyboard.press("s")
        assert wait_act(other, mark) == {"kind": "show"}
        first.page.wait_for_selector("#log li[data-event='table_hand_ended'][data-number='1']")
        assert ann.errors == [] and bob.errors == []
    finally:
        ann.close()
        bob.close()
