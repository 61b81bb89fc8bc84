"""Older pages in Chromium: a long statement and a long hand list, loaded a server page at a time.

The history is written through the store before ``serve`` starts (530 top-ups
and 205 settled hands take seconds that way, minutes through the tables);
then a player signs in with the login form and pages back with the keyboard.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pokerhouse.store import Batch, HandStart, Store, TableConfig
from tests.conftest import _run
from tests.server.process import ServeProcess
from tests.store.writes import buy_in, cash_out, finish_hand
from tests.web.conftest import PASSWORD, checked_room
from tests.web.pages import Person, axe_violations, person

#: More than one server page of each: the ledger sends 500 lines, the hand list 200 hands.
TOP_UPS = 530
HANDS = 205
ORDER = tuple(f"{rank}{suit}" for suit in "shdc" for rank in "23456789TJQKA")


async def _history(db_url: str) -> None:
    store = await Store.open(db_url, upgrade=False)
    try:
        ann = await store.users.create("older_ann", PASSWORD, grant=10_000)
        bob = await store.users.create("older_bob", None, bot=True, grant=10_000)
        for n in range(TOP_UPS):
            await store.ledger.top_up(ann, 1, key=f"older-top-up:{n}")
        # The room's only table (serve keeps the tables the store already has).
        table = await store.tables.create(
            TableConfig(
                "3x4 older", "3x4", options={"ante": 1, "small_bet": 2}, seats=2, max_buy_in=1000
            )
        )
        await buy_in(store, table.id, 0, ann, 500)
        await buy_in(store, table.id, 1, bob, 500)
        seats = [(s.seat, s.user_id, s.stack) for s in await store.tables.seats(table.id)]
        for number in range(1, HANDS + 1):
            await store.commit(
                Batch(starts=[HandStart(table.id, number, "3x4", {}, {}, seats, ORDER, number)])
            )
            won = 1 if number % 2 else -1  # ann wins the odd hands, loses the even ones
            await finish_hand(store, table.id, number, [won, -won])
            seats = [(s.seat, s.user_id, s.stack) for s in await store.tables.seats(table.id)]
        await cash_out(store, table.id, 0, ann)
        await cash_out(store, table.id, 1, bob)
    finally:
        await store.close()


@pytest.fixture(scope="module")
def served(
    tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path
) -> Iterator[ServeProcess]:
    """A room over a database with the long history; the ledger check runs after."""
    folder = tmp_path_factory.mktemp("older")
    shutil.copy(sqlite_template, folder / "room.db")
    url = f"sqlite:///{folder / 'room.db'}"
    _run(_history(url))
    with checked_room(url, folder) as server:
        yield server


@pytest.fixture
def ann(browser: Any, served: ServeProcess) -> Iterator[Person]:
    """The player with the long history, signed in through the login form."""
    who = person(browser, served.base)
    try:
        who.goto("/login")
        who.page.fill("#username", "older_ann")
        who.page.fill("#password", PASSWORD)
        who.page.click("form.auth button[type=submit]")
        who.page.wait_for_selector(".who .user:text-is('older_ann')")
        yield who
        assert who.errors == []
    finally:
        who.close()


def test_show_older_lines_pages_the_statement_back_to_the_grant(ann: Person) -> None:
    _statement(ann)


def test_show_older_hands_pages_back_to_the_first_hand(ann: Person) -> None:
    _hands(ann)


def test_the_pages_with_a_show_older_button_pass_axe(ann: Person, axe_source: str) -> None:
    for path, name in (("/account", "Show older lines"), ("/hands", "Show older hands")):
        ann.goto(path)
        ann.page.get_by_role("button", name=name).wait_for()
        assert axe_violations(ann, axe_source) == [], path


def _statement(who: Person) -> None:
    # Lines: the grant, 530 top-ups, a buy-in and a cash-out; the first page has the newest 500.
    page = who.page
    who.goto("/account")
    page.locator(".statement").wait_for()
    pager = page.get_by_role("navigation", name="Pages of the statement")
    assert pager.get_by_text("Page 1 of 20").count() == 1
    more = page.get_by_role("button", name="Show older lines")
    # Reached by the keyboard: Tab from the pager's last button.
    pager.get_by_role("button", name="Next").focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Show older lines"
    page.keyboard.press("Enter")
    status = page.get_by_role("status").filter(has_text="older lines shown")
    status.wait_for()
    assert status.inner_text() == "33 older lines shown, 533 in all."
    # Every line is loaded now: the button is gone and the focus is on the statement.
    assert more.count() == 0
    assert page.evaluate("document.activeElement.classList.contains('table-scroll')")
    # The page where the older lines begin; its balances run on from the newer page.
    assert pager.get_by_text("Page 21 of 22").count() == 1
    balances = page.locator(".statement tbody td:nth-child(5)").all_inner_texts()
    assert balances[0] == "10,032" and balances[-1] == "10,008"
    pager.get_by_role("button", name="Next").click()
    assert pager.get_by_text("Page 22 of 22").count() == 1
    kinds = page.locator(".statement tbody td:nth-child(2)").all_inner_texts()
    assert kinds[-1] == "Welcome chips"
    assert page.locator(".statement tbody td:nth-child(5)").all_inner_texts()[-1] == "10,000"
    # Paging back and forth keeps the loaded lines; the chart covers all of them.
    pager.get_by_role("button", name="Previous").click()
    assert pager.get_by_text("Page 21 of 22").count() == 1
    assert page.locator("#chart-summary").inner_text().startswith("533 chip movements")


def _hands(who: Person) -> None:
    page = who.page
    who.goto("/hands")
    page.locator(".hands-list table.data").wait_for()
    pager = page.get_by_role("navigation", name="Pages of hands")
    assert pager.get_by_text("Page 1 of 10").count() == 1
    first = page.locator("tbody td:nth-child(4)").all_inner_texts()
    assert first[0] == f"#{HANDS}"
    more = page.get_by_role("button", name="Show older hands")
    more.click()
    page.get_by_role("status").filter(has_text="5 older hands shown, 205 in all.").wait_for()
    assert more.count() == 0
    assert pager.get_by_text("Page 11 of 11").count() == 1
    numbers = page.locator("tbody td:nth-child(4)").all_inner_texts()
    assert numbers == [f"#{n}" for n in range(5, 0, -1)]
    results = page.locator("tbody td:nth-child(5)").all_inner_texts()
    assert [re.sub(r"\s", "", r) for r in results] == ["+1", "-1", "+1", "-1", "+1"]
