"""A seat's own controls: sit from the lobby signed out, add chips, sit out, leave."""

from __future__ import annotations

from typing import Any

from tests.server.process import ServeProcess
from tests.web.conftest import TABLES
from tests.web.pages import person, register


def test_sit_from_the_lobby_add_chips_sit_out_and_leave(room: ServeProcess, browser: Any) -> None:
    ann = person(browser, room.base)
    try:
        table = TABLES["razz"]
        page = ann.page
        # Signed out, Sit goes by the login page (here: on to register) and back to the table.
        ann.goto("/")
        page.click(f".table-card[data-table='{table}'] a.button:has-text('Sit')")
        page.wait_for_selector("#username")
        page.click("a[href='#/register']")
        register(ann, "ann_seat")
        page.wait_for_selector("#buy-in")
        page.fill("#buy-in", "100")
        page.click("#sit-down")
        mine = page.locator(".seat.mine")
        mine.locator(".stack", has_text="100").wait_for()
        # Alone at the table no hand runs: chips may be added.
        page.click("#add-chips")
        page.fill("#add-amount", "50")
        page.click("form.sit-form button[type=submit]")
        mine.locator(".stack", has_text="150").wait_for()
        page.locator(".who .wallet", has_text="9,850").wait_for()
        # Too much is refused by the table, in words.
        page.click("#add-chips")
        page.fill("#add-amount", "5000")
        page.click("form.sit-form button[type=submit]")
        page.locator("#table-notice").filter(has_text=".").wait_for()
        page.keyboard.press("Escape")
        page.click("#sit-toggle")
        mine.locator(".badge", has_text="Sitting out").wait_for()
        page.click("#sit-toggle")
        page.locator(".seat.mine .badge", has_text="Sitting out").wait_for(state="detached")
        page.click("#leave")
        page.wait_for_selector(".seat.mine", state="detached")
        page.locator(".who .wallet", has_text="10,000").wait_for()
        assert ann.errors == []
    finally:
        ann.close()
