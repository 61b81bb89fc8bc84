"""A home game in the browser: the host opens a private table with the form, a friend comes by
the link with the password, the host approves the seat, they play, pause, read and download
the session ledger, close; a stranger is kept out; English and Russian; axe."""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.process import ServeProcess
from tests.web.conftest import module_room
from tests.web.pages import PASSIVE, Person, act, axe_violations, person, play_hand, register


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> Iterator[ServeProcess]:
    yield from module_room(tmp_path_factory, sqlite_template, pause=0.3)


def table_id_of(who: Person) -> int:
    """The table the page shows (``#/table/ID``)."""
    who.page.wait_for_url("**/#/table/*")
    return int(who.page.url.split("#/table/")[1].split("?")[0])


def test_a_home_game_in_the_browser(
    room: ServeProcess,
    browser: Any,
    axe_source: str,
    screenshots: Callable[[Any, str], None],
) -> None:
    ann, bob, eve = (person(browser, room.base) for _ in range(3))
    people: list[Person] = [ann, bob, eve]
    try:
        register(ann, "ann_host")
        register(bob, "bob_guest")
        register(eve, "eve_stranger")

        # The host opens a table with the form: approval on, a password.
        page = ann.page
        ann.goto("/home-games")
        page.locator("#home-title").wait_for()
        page.locator("#my-home-games", has_text="host no private table").wait_for()
        assert axe_violations(ann, axe_source) == []
        screenshots(page, "home-games-desktop")
        page.fill("#home-name", "Ann's Friday 3x4")
        page.select_option("#home-game", "3x4")
        page.check("#home-approve")
        page.fill("#home-password", "river-rat")
        page.click(".home-form button[type=submit]")
        table = table_id_of(ann)
        page.locator(".home-panel .home-status", has_text="hosted by ann_host").wait_for()
        link = page.input_value("#invite-link")
        assert "#/join/" in link

        # Not in the lobby; to a stranger who finds the table's number there is no such table.
        eve.goto("/")
        eve.page.locator(".table-card").first.wait_for()
        assert eve.page.locator(".table-card", has_text="Ann's Friday").count() == 0
        eve.goto(f"/table/{table}")
        eve.page.locator("#table-notice", has_text="no such table").wait_for()

        # The friend comes by the link, gives the password, and asks to sit.
        bob.page.goto(link)
        bob.page.locator("#join-password").wait_for()
        assert axe_violations(bob, axe_source) == []
        bob.page.fill("#join-password", "lake-rat")
        bob.page.click(".join-form button[type=submit]")
        bob.page.locator("#join-status", has_text="not the table's password").wait_for()
        bob.page.fill("#join-password", "river-rat")
        bob.page.click(".join-form button[type=submit]")
        bob.page.locator("#join-asked").wait_for()

        # The host sees the request and approves it; both sit and play.
        page.get_by_role("button", name="Approve bob_guest").click()
        page.locator("#home-guests li[data-guest='bob_guest'][data-status='approved']").wait_for()
        bob.goto(f"/table/{table}")
        for who, seat in ((ann, 0), (bob, 1)):
            who.page.click(f".seat.empty[data-seat='{seat}'] button.sit-here")
            who.page.click("#sit-down")
            who.page.wait_for_selector(f".seat.mine[data-seat='{seat}']")
        play_hand([ann, bob], 1)
        assert axe_violations(ann, axe_source) == []
        screenshots(page, "home-game-table-desktop")

        # Paused: said to everyone at the table.
        page.click(".home-panel button[data-op='pause']")
        bob.page.locator(".home-panel .home-status", has_text="paused").wait_for()

        # The session ledger, on the page and as CSV, says the same.
        bob.page.click(".home-ledger-box summary")
        bob.page.locator("#ledger-table tr[data-player='ann_host']").wait_for()
        shown = bob.page.eval_on_selector_all(
            "#ledger-table tbody tr", "rows => rows.map(r => r.dataset.player)"
        )
        with bob.page.expect_download() as download:
            bob.page.click("#ledger-csv")
        rows = list(csv.DictReader(io.StringIO(Path(download.value.path()).read_text())))
        assert sorted(row["player_nickname"] for row in rows) == sorted(shown)
        assert sum(int(row["net"]) for row in rows) == 0  # no rake at a home game

        # In Russian, the panel too.
        bob.page.select_option("#lang", "ru")
        bob.page.locator(".home-panel .home-status", has_text="Частный стол").wait_for()

        # Closed: every stack cashed out, the table closed. A hand dealt before the pause is
        # played out first: closing takes no hand from anyone (RULES.md, "Home games").
        page.evaluate("window.confirm = () => true")
        page.click(".home-panel button[data-op='close']")
        closed = page.locator(".home-panel[data-closed='true']")
        deadline = time.monotonic() + 120
        while not closed.count():
            assert time.monotonic() < deadline, "the table did not close"
            for who in (ann, bob):
                act(who, PASSIVE)
            page.wait_for_timeout(100)
        for who in people:
            assert who.errors == [], who.errors
    finally:
        for who in people:
            who.close()
