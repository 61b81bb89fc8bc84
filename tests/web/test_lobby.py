"""The lobby: every table, live; filters; languages and settings remembered; accessible pages."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.web.conftest import PHONE, TABLES, start_room
from tests.web.pages import axe_violations, person, register, sit


def test_the_lobby_lists_every_table_live_and_filters_by_game(
    db_url: str,
    tmp_path: Path,
    browser: Any,
    axe_source: str,
    screenshots: Callable[[Any, str], None],
) -> None:
    room = start_room(db_url, tmp_path, pause=0.5, bots=2)
    eve, ann = person(browser, room.base), person(browser, room.base)
    try:
        eve.goto("/")
        page = eve.page
        page.wait_for_selector(".table-card")
        assert page.locator(".table-card").count() == 4
        # A table's name shows its stakes, as the seed's lobbies do.
        names = page.locator(".table-card h2").all_inner_texts()
        assert "Razz 2/4, ante 1" in names
        razz = page.locator(f".table-card[data-table='{TABLES['razz']}']")
        assert "2/4" in razz.locator(".stakes").inner_text()
        assert razz.locator("a.button", has_text="Sit").count() == 1
        assert razz.locator("a.button", has_text="Watch").count() == 1
        # Bots play at the 3x4 table: the lobby counts its hands as they happen.
        page.wait_for_function(
            "() => [...document.querySelectorAll('.table-card')].some("
            "c => c.dataset.table === '1' && !c.textContent.includes('Hands/hour0'))",
            timeout=30_000,
        )
        assert axe_violations(eve, axe_source) == []
        screenshots(page, "lobby-desktop")
        page.set_viewport_size(PHONE)
        screenshots(page, "lobby-phone")
        page.set_viewport_size({"width": 1280, "height": 800})
        # Live: someone sits at the Razz table and the lobby shows it without a reload.
        register(ann, "ann_lobby")
        sit(ann, TABLES["razz"], 0)
        razz.locator("dd", has_text="1 of 2").wait_for(timeout=60_000)
        # The filter.
        page.click("button[data-game='razz']")
        assert page.locator(".table-card").count() == 1
        page.click("button[data-game='all']")
        assert page.locator(".table-card").count() == 4
        assert eve.errors == [] and ann.errors == []
    finally:
        eve.close()
        ann.close()
        room.stop()


def test_language_and_four_colour_deck_are_remembered(room: Any, browser: Any) -> None:
    eve = person(browser, room.base)
    try:
        eve.goto("/")
        page = eve.page
        page.wait_for_selector(".table-card")
        page.select_option("#lang", "ru")
        page.wait_for_selector("h1:text-is('Лобби')")
        page.check("#four-colour")
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        assert page.locator("h1").first.inner_text() == "Лобби"
        assert page.evaluate("document.documentElement.lang") == "ru"
        assert page.evaluate("document.body.classList.contains('four-colour')")
        # Numbers in the Russian way: 1 000 with a no-break space.
        buy_ins = page.locator(".table-card .facts dd").all_inner_texts()
        assert any("1\u00a0000" in text for text in buy_ins), buy_ins
        # Cards are named in the reader's language.
        names = page.evaluate(
            "import('./js/cards.js')"
            ".then(m => [m.cardName('As'), m.cardName('Td'), m.cardName(null)])"
        )
        assert names == ["туз пик", "десятка бубён", "карта рубашкой вверх"]
        page.select_option("#lang", "en")
        page.wait_for_selector("h1:text-is('Lobby')")
        names = page.evaluate("import('./js/cards.js').then(m => m.cardName('Qh'))")
        assert names == "queen of hearts"
    finally:
        eve.close()


def test_the_login_and_register_pages_are_accessible_and_say_what_is_wrong(
    room: Any, browser: Any, axe_source: str
) -> None:
    eve = person(browser, room.base)
    try:
        for path in ("/login", "/register"):
            eve.goto(path)
            eve.page.wait_for_selector("#username")
            assert axe_violations(eve, axe_source) == []
        eve.goto("/login")
        eve.page.fill("#username", "nobody_here")
        eve.page.fill("#password", "wrong password")
        eve.page.click("form.auth button[type=submit]")
        eve.page.locator("#auth-error", has_text="Wrong username or password").wait_for()
        eve.goto("/register")
        eve.page.fill("#username", "ok_name")
        eve.page.fill("#password", "x")
        eve.page.click("form.auth button[type=submit]")
        eve.page.locator("#auth-error", has_text="password").wait_for()
        register(eve, "taken_name")
        eve.page.click(".who button.link")  # log out
        eve.page.wait_for_selector(".who a[href='#/login']")
        eve.goto("/register")
        eve.page.fill("#username", "Taken_Name")
        eve.page.fill("#password", "correct horse battery")
        eve.page.click("form.auth button[type=submit]")
        eve.page.locator("#auth-error", has_text="taken").wait_for()
        assert eve.errors == []
    finally:
        eve.close()
