"""Tournaments in the browser: the Tournaments tab, a tournament's page, registering, and
a player taken to their table when the sit-and-go starts, in English and Russian."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.server.process import START_SECONDS, ServeProcess
from tests.web.conftest import PHONE
from tests.web.pages import axe_violations, person, register

ROOM = """
[room]
hand_pause = 0.5
bot_think = [0.0, 0.0]
sit_and_gos = ["teen-patti"]
sit_and_go_bots_after = 1000000
sit_and_go_structure = "hyper"

[[tables]]
name = "Razz 2/4, ante 1"
game = "razz"
options = { ante = 1, bring_in = 1, small_bet = 2, big_bet = 4 }
seats = 2
min_buy_in = 40
max_buy_in = 1000
"""


def test_a_player_finds_registers_for_and_is_seated_in_a_sit_and_go(
    db_url: str,
    tmp_path: Path,
    browser: Any,
    axe_source: str,
    screenshots: Callable[[Any, str], None],
) -> None:
    config = tmp_path / "room.toml"
    config.write_text(ROOM)
    room = ServeProcess(db_url, config)
    room.start(timeout=START_SECONDS)
    eve = person(browser, room.base)
    try:
        register(eve, "eve_sng")
        page = eve.page
        eve.goto("/tournaments")
        card = page.locator("article[data-tournament]").first
        card.wait_for()
        assert "Teen Patti" in card.inner_text() and "100 + 10" in card.inner_text()
        assert card.locator("button", has_text="Register").count() == 1
        assert axe_violations(eve, axe_source) == []
        screenshots(page, "tournaments-desktop")
        card.locator("a.button", has_text="Open").click()
        page.locator("#tournament-title").wait_for()
        assert page.locator("h2", has_text="Structure").count() == 1
        assert page.locator("td", has_text="eve_sng").count() == 0
        assert axe_violations(eve, axe_source) == []
        page.set_viewport_size(PHONE)
        screenshots(page, "tournament-phone")
        page.set_viewport_size({"width": 1280, "height": 800})
        # Registering fills the last seat: the sit-and-go starts, and eve is taken there.
        page.get_by_role("button", name="Register (110)").click()
        page.wait_for_url("**/#/table/*", timeout=60_000)
        strip = page.locator(".tournament-strip")
        strip.wait_for(timeout=60_000)
        page.wait_for_function(
            "() => /level \\d+/i.test(document.querySelector('.tournament-strip').textContent)"
        )
        page.locator(".seat.mine").first.wait_for(timeout=60_000)
        # No seat to take or leave by hand at a tournament's table.
        assert page.locator("button.sit-here").count() == 0
        assert axe_violations(eve, axe_source) == []
        screenshots(page, "tournament-table")
        # The same in Russian.
        page.select_option("#lang", "ru")
        strip.locator("text=Уровень").first.wait_for()
        assert eve.errors == []
    finally:
        eve.close()
        room.stop()
