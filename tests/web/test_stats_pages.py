"""My stats, a player's page and the leaderboards in the browser, in English and Russian."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.process import ServeProcess
from tests.web.conftest import PHONE, TABLES, module_room
from tests.web.pages import Person, axe_violations, person, play_hand, register, sit


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> Iterator[ServeProcess]:
    yield from module_room(tmp_path_factory, sqlite_template, pause=0.3)


def test_a_player_reads_their_stats_and_finds_themself_on_the_leaderboard(
    room: ServeProcess,
    browser: Any,
    axe_source: str,
    screenshots: Callable[[Any, str], None],
) -> None:
    ann, bob = person(browser, room.base), person(browser, room.base)
    people: list[Person] = [ann, bob]
    try:
        register(ann, "ann_stats")
        register(bob, "bob_stats")
        sit(ann, TABLES["3x4"], 0, 200)
        sit(bob, TABLES["3x4"], 1, 200)
        for number in (1, 2, 3):
            play_hand(people, number)
        finished = httpx.get(f"{room.base}/api/players/ann_stats/stats", timeout=30).json()
        (line,) = finished["games"]
        hands = line["hands"]
        assert hands >= 3

        # My stats: a column for 3x4 Poker, its hands and figures; a period to choose.
        page = ann.page
        ann.goto("/stats")
        page.locator("#stats-table").wait_for()
        assert page.locator("#stats-table th[data-game='3x4']").inner_text() == "3x4 Poker"
        hands_row = page.locator("#stats-table tr[data-figure='hands'] td").first
        assert int(hands_row.inner_text()) >= hands
        assert page.locator("#stats-table tr[data-figure='vpip']").count() == 1
        # Teen Patti's and Casino Hold'em's own figures are not drawn for a 3x4 player.
        assert page.locator("#stats-table tr[data-figure='call_rate']").count() == 0
        page.click("button[data-game='week']")
        page.locator("#stats-table").wait_for()
        assert axe_violations(ann, axe_source) == []
        screenshots(page, "stats-desktop")

        # The leaderboard: nobody has 500 hands; with one hand or more, both players.
        ann.goto("/leaderboards")
        page.locator("#people-board").wait_for()
        page.select_option("#leaders-least", "500")
        page.locator("#people-board", has_text="500 hands").wait_for()
        page.select_option("#leaders-least", "1")
        page.locator("#people-board tr[data-player='ann_stats']").wait_for()
        names = page.eval_on_selector_all(
            "#people-board tbody tr", "rows => rows.map(r => r.dataset.player)"
        )
        assert sorted(names) == ["ann_stats", "bob_stats"]
        assert axe_violations(ann, axe_source) == []
        screenshots(page, "leaderboards-desktop")
        page.set_viewport_size(PHONE)
        screenshots(page, "leaderboards-phone")
        page.set_viewport_size({"width": 1280, "height": 800})

        # A name leads to that player's page, open to anyone.
        page.click("#people-board a:text-is('bob_stats')")
        page.locator("#stats-title", has_text="bob_stats").wait_for()
        page.locator("#stats-table").wait_for()
        # Signed in, the hands played together, each opening in the replayer.
        page.locator("#together li").first.wait_for()
        assert page.locator("#together li").count() >= 3
        assert axe_violations(ann, axe_source) == []
        page.locator("#together li a").last.click()
        page.wait_for_url("**/#/hands/*")

        # In Russian.
        page.select_option("#lang", "ru")
        page.locator("html[lang='ru']").wait_for()
        ann.goto("/stats")
        page.locator("#stats-title", has_text="Моя статистика").wait_for()
        page.locator("#stats-table th[data-game='3x4']", has_text="Покер 3x4").wait_for()
        ann.goto("/leaderboards")
        page.locator("#leaders-title", has_text="Рейтинги").wait_for()
        assert axe_violations(ann, axe_source) == []
        assert ann.errors == [] and bob.errors == []
    finally:
        for who in people:
            who.close()
