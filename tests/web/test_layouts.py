"""Tables of 2 to 10 seats fit: at 1280x800 and on a phone (390x844), in English and Russian.

No two seats' boxes (name and stack, cards, bet chips, badges) meet, no seat
covers the board or the pot, none leaves the felt or the window, and at the
viewer's turn the decision (the words "Your turn" and every action) is in
view without scrolling: at 1280x800 under the felt, on a phone kept at the
bottom of the screen.

Two ways: full tables in their most crowded moment, drawn from snapshots the
test serves on the page's websocket (every size of every game, seven cards a
hand at Razz, a bet at every seat); and the room's own tables of every size
with house bots, the viewer sitting down and measured at their turn.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.process import ServeProcess
from tests.web.conftest import DESKTOP, PHONE, module_room
from tests.web.layout import MEASURE, SIZES, bar_faults, full_view, layout_faults
from tests.web.mockroom import MockRoom
from tests.web.pages import Person, act, person, register

#: The screenshots kept of the full tables (game, seats), at each width, in English (Razz's
#: eight seats are test_table_page.py's).
PICTURED = {("3x4", 10), ("teen-patti", 10), ("casino-holdem", 7)}

#: Each width and language the tables are measured in.
LOOKS = [(DESKTOP, "en"), (DESKTOP, "ru"), (PHONE, "ru"), (PHONE, "en")]

OPTIONS = {
    "3x4": "{ ante = 1, small_bet = 2 }",
    "teen-patti": "{ ante = 1 }",
    "razz": "{ ante = 1, bring_in = 1, small_bet = 2, big_bet = 4 }",
    "casino-holdem": "{ min_ante = 1, max_ante = 100, max_payout = 10000 }",
}


def room_of_every_size() -> tuple[str, list[tuple[str, int, int]]]:
    """A room.toml with a table of each game at each size it allows (each with house bots in
    all its seats but two: one for the viewer, one the room keeps free for a person), and
    the tables as (game, seats, id)."""
    lines = [
        "[room]",
        "hand_pause = 1.0",
        "bots_pause = 3.0",
        "bot_think = [0.0, 0.0]",
        "window_seconds = 2",
    ]
    tables = []
    for game, sizes in SIZES.items():
        for size in sizes:
            tables.append((game, size, len(tables) + 1))
            lines += [
                "",
                "[[tables]]",
                f'name = "{game} at {size}"',
                f'game = "{game}"',
                f"options = {OPTIONS[game]}",
                f"seats = {size}",
                f"bots = {size - 2}",
                "max_boxes = 1",
                "min_buy_in = 40",
                "max_buy_in = 1000",
                "decision_seconds = 120",
                "time_bank_seconds = 10",
                "bot_chat = false",
            ]
    return "\n".join(lines) + "\n", tables


CONFIG, TABLES = room_of_every_size()

STILL = (
    "document.getAnimations().every(a => a.playState !== 'running'"
    " || a.effect.getTiming().iterations === Infinity)"
)


def drawn_at(who: Person, table: int) -> dict[str, Any]:
    """The table's boxes once the page drew the viewer's decision and stopped moving."""
    page = who.page
    who.goto(f"/table/{table}")
    page.wait_for_selector(f"#table-page[data-table='{table}'] #action-bar .actions")
    page.wait_for_selector(".felt .seat.mine .hole .card")
    page.wait_for_function(STILL)
    result: dict[str, Any] = page.evaluate(MEASURE)
    return result


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_full_tables_of_every_size_fit(
    room: ServeProcess, browser: Any, screenshots: Any, viewport: dict[str, int], lang: str
) -> None:
    phone = viewport is PHONE
    user = f"viewer_{'phone' if phone else 'desk'}_{lang}"
    who = person(browser, room.base, viewport)
    try:
        mock = MockRoom(who, user, full_view("3x4", 10, user, 100, (5,)))
        register(who, user)
        if lang == "ru":
            who.page.select_option("#lang", "ru")
        faults: dict[str, list[str]] = {}
        table = 100
        for game, sizes in SIZES.items():
            for size in sizes:
                table += 1
                # The viewer at a seat in the middle (the felt turns it to the bottom);
                # at Casino Hold'em three boxes.
                mine = (2, 3, 4) if game == "casino-holdem" else (size // 2,)
                mock.view = full_view(game, size, user, table, mine)
                drawn = drawn_at(who, table)
                found = layout_faults(drawn) + bar_faults(drawn)
                if found:
                    faults[f"{game} at {size} seats"] = found
                if (game, size) in PICTURED and lang == "en":
                    width = "phone" if phone else "desktop"
                    screenshots(who.page, f"full-{game}-{size}-seats-{width}")
        assert not faults, "\n".join(
            f"{table}: {len(found)} faults, first: {found[0]}" for table, found in faults.items()
        )
        assert who.errors == []
    finally:
        who.close()


@pytest.fixture(scope="module")
def sized_room(
    tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path
) -> Iterator[ServeProcess]:
    yield from module_room(tmp_path_factory, sqlite_template, config=CONFIG)


def sit_at_a_free_seat(who: Person, table: int) -> None:
    page = who.page
    who.goto(f"/table/{table}")
    page.locator(".seat.empty button.sit-here").first.click()
    page.fill("#buy-in", "40")
    page.click("#sit-down")
    page.wait_for_selector(".seat.mine")


def my_turn(who: Person, others: list[Person], timeout: float = 120.0) -> None:
    """Wait for ``who``'s decision, the ``others`` (people at a table of two) playing along."""
    deadline = time.monotonic() + timeout
    while not who.page.locator("#action-bar .actions").count():
        assert time.monotonic() < deadline, "the viewer's turn never came"
        for other in others:
            act(other)
        who.page.wait_for_timeout(150)


def leave(who: Person) -> None:
    """Stand up at the end of the hand, and fold (or take the least action) now."""
    page = who.page
    page.click("#leave")
    page.keyboard.press("f")
    page.wait_for_timeout(300)
    if page.locator("#action-bar button.act.confirming").count():
        page.keyboard.press("f")  # folding when checking is free asks first
        page.wait_for_timeout(300)
    act(who)  # no fold (a bring-in): the least action


def test_the_room_s_tables_of_every_size_fit_at_the_viewer_s_turn(
    sized_room: ServeProcess, browser: Any
) -> None:
    """The room's own tables, house bots in their seats: the viewer sits down at each and,
    at their turn, the table is measured at both widths in both languages."""
    viewer = person(browser, sized_room.base)
    partner = person(browser, sized_room.base)
    faults: dict[str, list[str]] = {}
    measured: list[tuple[str, int, int]] = []
    try:
        register(viewer, "viewer_sizes")
        register(partner, "partner_sizes")
        for game, size, table in TABLES:
            # Two seats: house bots leave one free, so a second person plays.
            others = [partner] if size == 2 else []
            for other in others:
                sit_at_a_free_seat(other, table)
            sit_at_a_free_seat(viewer, table)
            my_turn(viewer, others)
            lang = "en"
            for viewport, wanted in LOOKS:
                viewer.page.set_viewport_size(viewport)
                if wanted != lang:
                    viewer.page.select_option("#lang", wanted)
                    viewer.page.wait_for_function(f"document.documentElement.lang === '{wanted}'")
                    lang = wanted
                viewer.page.wait_for_selector("#action-bar .actions")
                viewer.page.wait_for_function(STILL)
                drawn = viewer.page.evaluate(MEASURE)
                seats = [seat for seat in drawn["seats"] if seat["parts"][0]["what"] != "free seat"]
                measured.append((game, size, len(seats)))
                found = layout_faults(drawn) + bar_faults(drawn)
                if found:
                    where = "desktop" if viewport is DESKTOP else "phone"
                    faults[f"{game} at {size} seats, {where}, {lang}"] = found
            viewer.page.select_option("#lang", "en")
            viewer.page.wait_for_function("document.documentElement.lang === 'en'")
            viewer.page.set_viewport_size(DESKTOP)
            viewer.page.wait_for_selector("#leave")
            leave(viewer)
            for other in others:
                other.page.click("#leave")
        assert not faults, "\n".join(
            f"{table}: {len(found)} faults, first: {found[0]}" for table, found in faults.items()
        )
        # Every table measured in every look, each with all its seats but one taken (the
        # room keeps one for a person), or both of two.
        assert len(measured) == len(TABLES) * len(LOOKS)
        assert all(taken == max(2, size - 1) for _, size, taken in measured), measured
        assert viewer.errors == [] and partner.errors == []
    finally:
        viewer.close()
        partner.close()
