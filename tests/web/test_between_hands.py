"""Between hands: sit out next hand, leave after this hand, the rebuy prompt and auto-rebuy.

Also the hands list: a hand still in play links to its table, not to a
replay, and a finished hand's replay is titled by its number at the table.
"""

from __future__ import annotations

import re
import time
from typing import Any

from tests.server.process import ServeProcess
from tests.web.conftest import TABLES
from tests.web.pages import Person, axe_violations, hand_over, person, play_hand, register, sit

TEEN_PATTI = ("show",)


def wallet(who: Person) -> int:
    return int(re.sub(r"\D", "", who.page.inner_text(".who .wallet")))


def test_sit_out_next_hand_and_leave_after_this_hand(room: ServeProcess, browser: Any) -> None:
    table = TABLES["teen-patti"]
    ann, bob = person(browser, room.base), person(browser, room.base)
    try:
        register(ann, "ann_between")
        register(bob, "bob_between")
        sit(ann, table, 0)
        sit(bob, table, 1)
        page = ann.page
        # During hand 1: sit out from the next hand on.
        page.wait_for_selector(".seat.mine .hole .card")
        page.check("#sit-toggle")
        page.locator(".seat.mine .badge", has_text="Sitting out").wait_for()
        play_hand([ann, bob], 1, TEEN_PATTI)
        second = "#log li[data-event='table_hand_started'][data-number='2']"
        page.wait_for_timeout(2500)  # the room's pause is 1 s: hand 2 would have begun
        assert page.locator(second).count() == 0
        page.uncheck("#sit-toggle")
        page.wait_for_selector(second)
        # During hand 2: leave after it. The seat stays until the hand is over, and the
        # room folds for a player who left at their turn, without waiting for the clock.
        page.wait_for_selector(".seat.mine .hole .card")
        before = wallet(ann)
        page.click("#leave")
        page.wait_for_function(
            "() => !document.querySelector('.seat.mine') || [...document.querySelectorAll("
            "'.seat.mine .badge')].some(b => b.textContent.includes('Leaving'))"
        )
        if page.locator(".seat.mine").count():
            assert page.is_disabled("#leave"), "leaving cannot be taken back"
        play_hand([ann, bob], 2, TEEN_PATTI)
        page.wait_for_selector(".seat.mine", state="detached")
        stack = next(
            frame["event"]["stacks"][frame["event"]["seats"].index(0)]
            for frame in ann.frames
            if frame.get("type") == "event"
            and (frame["event"] or {}).get("type") == "table_hand_ended"
            and frame["event"]["number"] == 2
        )
        page.wait_for_function(
            "want => Number(document.querySelector('.who .wallet').textContent.replace(/\\D/g, ''))"
            " === want",
            arg=before + stack,
        )
        assert ann.errors == [] and bob.errors == []
    finally:
        ann.close()
        bob.close()


def broke_or_next(people: list[Person], number: int, timeout: float = 60.0) -> Person | None:
    """Who is offered a rebuy after hand ``number``, or ``None`` once the next hand starts."""
    started = f"#log li[data-event='table_hand_started'][data-number='{number + 1}']"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for who in people:
            if who.page.locator("#rebuy-form").count():
                return who
        if any(who.page.locator(started).count() for who in people):
            return None
        people[0].page.wait_for_timeout(100)
    raise AssertionError(f"after hand {number}: neither a rebuy offered nor a next hand")


def all_in_or_call(who: Person) -> str | None:
    """Go all-in when betting is open, else call (or check): the quickest way to a bust."""
    page = who.page
    if not page.locator("#action-bar .actions").count():
        return None
    preset = page.locator("#action-bar .preset[data-preset='all_in']")
    try:
        if preset.count():
            preset.click(timeout=2_000)
            # The amount that puts the whole stack in says so on the button.
            label = page.inner_text("#action-bar button.act.primary .label", timeout=2_000)
            assert label.endswith("(all-in)"), label
            page.click("#action-bar button.act.primary", timeout=2_000)
            return "all_in"
        for kind in ("call", "check"):
            button = page.locator(f"#action-bar button.act[data-kind='{kind}']:not([disabled])")
            if button.count():
                button.click(timeout=2_000)
                return kind
    except AssertionError:
        raise
    except Exception:  # the bar moved on under the click
        return None
    return None


def play_all_in(people: list[Person], number: int) -> None:
    deadline = time.monotonic() + 60
    while not all(hand_over(who, number) for who in people):
        assert time.monotonic() < deadline, f"hand {number} did not end"
        for who in people:
            all_in_or_call(who)
        people[0].page.wait_for_timeout(100)


def one_hand_elsewhere(browser: Any, base: str) -> None:
    """Two others play a Razz hand, leaving as it ends: the room's hand ids then run ahead
    of the 3x4 table's numbers, whichever tests ran before (or none)."""
    table = TABLES["razz"]
    cal, dee = person(browser, base), person(browser, base)
    try:
        register(cal, "cal_elsewhere")
        register(dee, "dee_elsewhere")
        sit(cal, table, 0)
        sit(dee, table, 1)
        started = cal.page.locator("#log li[data-event='table_hand_started']").last
        started.wait_for()
        number = int(started.get_attribute("data-number") or "0")
        for who in (cal, dee):
            # Leaving after this hand: the room acts for each at their turn, at once.
            who.page.click("#leave")
        cal.page.wait_for_selector(
            f"#log li[data-event='table_hand_ended'][data-number='{number}']", timeout=60_000
        )
        for who in (cal, dee):
            who.page.wait_for_selector(".seat.mine", state="detached", timeout=60_000)
    finally:
        cal.close()
        dee.close()


def test_a_busted_player_is_offered_a_rebuy_and_auto_rebuy_buys_by_itself(
    room: ServeProcess, browser: Any, axe_source: str
) -> None:
    table = TABLES["3x4"]
    one_hand_elsewhere(browser, room.base)
    ann, bob = person(browser, room.base), person(browser, room.base)
    people = [ann, bob]
    try:
        register(ann, "ann_rebuy")
        register(bob, "bob_rebuy")
        sit(ann, table, 0, 20)
        sit(bob, table, 1, 20)
        # My hands: the hand in play links to its table, never to a replay.
        ann.goto("/hands")
        row = ann.page.locator("tr[data-hand]").first
        row.locator("a.in-play").wait_for()
        assert row.locator("a.in-play").get_attribute("href") == f"#/table/{table}"
        assert row.locator("a", has_text="Replay").count() == 0
        assert axe_violations(ann, axe_source) == []
        ann.goto(f"/table/{table}")
        ann.page.wait_for_selector(".seat.mine")
        number = 1
        busted: Person | None = None
        while busted is None:
            assert number <= 6, "nobody went broke"
            play_all_in(people, number)
            busted = broke_or_next(people, number)
            number += 1
        page = busted.page
        assert "out of chips" in page.inner_text("#rebuy-form")
        assert axe_violations(busted, axe_source) == []
        page.fill("#rebuy-amount", "30")
        page.click("#rebuy")
        page.locator("#log li[data-event='chips_added']", has_text="adds 30 chips").wait_for()
        page.wait_for_selector("#rebuy-form", state="detached")
        # Auto-rebuy: on for both; the next one to go broke buys again without a click.
        for who in people:
            who.page.click("#table-settings summary")
            who.page.check("#setting-autoRebuy")
        rebought = False
        # An all-in hand busts one of the two about half the time (the shorter stack loses;
        # a split busts nobody): twelve hands miss about once in 4,000 runs, six in 64.
        for _ in range(12):
            play_all_in(people, number)
            number += 1
            for who in people:
                line = who.page.locator("#log li", has_text="auto-rebuy")
                if line.count():
                    rebought = True
                    who.page.wait_for_function(
                        "!document.querySelector('#rebuy-form') && "
                        "Number(document.querySelector('.seat.mine .stack').textContent"
                        ".replace(/\\D/g, '')) > 0"
                    )
            if rebought:
                break
        assert rebought, "nobody went broke again"
        # A finished hand's replay is titled by its number at the table, not the room's id.
        ann.goto("/hands")
        link = ann.page.locator("tr[data-hand] a", has_text="Replay").last
        href = link.get_attribute("href") or ""
        hand_id = href.split("/")[-1].split("?")[0]
        shown_number = ann.page.locator(f"tr[data-hand='{hand_id}'] td.num").first.inner_text()
        link.click()
        ann.page.wait_for_selector(".replayer")
        title = ann.page.inner_text("#hand-title")
        assert title == f"3x4 Poker, hand {shown_number}", (title, hand_id)
        assert f"#{hand_id}" != shown_number, "the room's id and the number differ here"
        assert ann.page.title().startswith(title)
        # The replayer's analysis: each street's equity, as a chart and as a table.
        ann.page.wait_for_selector(".replay-equity:not([hidden]) table.equity-table")
        ann.page.click(".replay-controls button[aria-keyshortcuts='End']")
        assert ann.page.locator(".replay-seat .seat-equity").count() >= 1
        assert axe_violations(ann, axe_source) == []
        for who in people:
            assert who.errors == [], who.errors
    finally:
        ann.close()
        bob.close()


def test_casino_bets_stand_for_three_rounds_untouched(room: ServeProcess, browser: Any) -> None:
    """Bets placed once stand: three rounds are dealt to the box, its ante unchanged, without
    the bet form touched again (the window closes after its time on the standing bets)."""
    table = TABLES["casino-holdem"]
    ann = person(browser, room.base)
    try:
        register(ann, "ann_standing")
        sit(ann, table, 2, 300)
        page = ann.page
        page.fill("#ante-2", "3")
        page.click("button.place-bets")
        for number in (1, 2, 3):
            page.wait_for_selector(
                f"#log li[data-event='table_hand_started'][data-number='{number}']",
                timeout=60_000,
            )
            play_hand([ann], number, ("call",))
        started = [
            frame["event"]
            for frame in ann.frames
            if frame.get("type") == "event"
            and frame.get("table") == table
            and (frame["event"] or {}).get("type") == "table_hand_started"
        ]
        assert [event["number"] for event in started][:3] == [1, 2, 3]
        assert all(2 in event["seats"] for event in started[:3]), started
        antes = [
            frame["event"]["amount"]
            for frame in ann.frames
            if frame.get("type") == "event"
            and frame.get("table") == table
            and (frame["event"] or {}).get("type") == "ante_posted"
            and frame["event"]["seat"] == 2
        ]
        assert antes[:3] == [3, 3, 3], antes
        wagers = [message for message in ann.sent if message.get("type") == "wager"]
        assert len(wagers) == 1, wagers  # placed once, never again
        assert ann.errors == []
    finally:
        ann.close()
