"""The Bots page: the bots' leaderboard of each game, and a player's own bot accounts made,
given a new token and revoked in the browser; the lobby marks tables for bots or people only."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from tests.server.process import START_SECONDS, ServeProcess
from tests.web.conftest import PHONE
from tests.web.pages import axe_violations, person, register

ROOM = """
[room]
hand_pause = 0.2
bot_think = [0.0, 0.0]
sit_and_gos = []
scheduled_games = []

[[tables]]
name = "Bots' Razz 2/4, ante 1"
game = "razz"
options = { ante = 1, bring_in = 1, small_bet = 2, big_bet = 4 }
seats = 3
bots = 2
bot_kind = "random"
bots_only = true

[[tables]]
name = "People's 3x4"
game = "3x4"
options = { ante = 1, small_bet = 2 }
seats = 2
people_only = true
"""


def signed_in(base: str, token: str) -> int:
    """The status of ``GET /api/me`` with ``token``."""
    return httpx.get(
        f"{base}/api/me", headers={"Authorization": f"Bearer {token}"}, timeout=30
    ).status_code


def test_a_player_makes_renews_and_revokes_a_bot_and_reads_the_board(
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
        page = eve.page
        # The lobby: a table for bots is watched, not sat at; one for people is marked.
        eve.goto("/")
        bots_card = page.locator(".table-card", has_text="Bots' Razz")
        bots_card.wait_for()
        assert "Bots only" in bots_card.inner_text()
        assert bots_card.locator("a.button", has_text="Sit").count() == 0
        assert bots_card.locator("a.button", has_text="Watch").count() == 1
        assert "People only" in page.locator(".table-card", has_text="People's 3x4").inner_text()

        # Signed out: the board, and a way to log in for bot accounts of one's own.
        eve.goto("/bots")
        page.locator("#bots-title").wait_for()
        assert page.locator("a[href='#/login']", has_text="Log in to make").count() == 1
        # The house's bots play Razz at the table for bots: the board fills (read every 10 s).
        for _ in range(12):
            page.click("button[data-game='razz']")
            if page.locator("#bot-board tbody tr").count() >= 2:
                break
            page.wait_for_timeout(5_000)
        rows = page.locator("#bot-board tbody tr")
        assert rows.count() == 2, page.locator("#bot-board").inner_text()
        first = rows.first.inner_text()
        assert "_bot" in first and " to " in first  # the name, and its interval
        page.click("button[data-game='3x4']")
        page.locator("#bot-board", has_text="No bot has played").wait_for()
        assert axe_violations(eve, axe_source) == []

        # Signed in: make a bot account; its token is shown once and signs it in.
        register(eve, "eve_owner")
        eve.goto("/bots")
        page.locator("#my-bots", has_text="no bot account yet").wait_for()
        page.fill("#bot-name", "plain")  # the form itself asks for the _bot ending
        assert page.eval_on_selector("#bot-name", "e => e.validity.patternMismatch")
        page.fill("#bot-name", "Ada_bot")  # a house bot's name: the room refuses it
        page.click(".bot-form button[type=submit]")
        page.locator(".status-line", has_text="not allowed").wait_for()
        page.fill("#bot-name", "eve_bot")
        page.click(".bot-form button[type=submit]")
        page.locator("#token").wait_for()
        first_token = page.input_value("#token")
        assert len(first_token) >= 40
        page.locator("#my-bots li[data-bot='eve_bot']").wait_for()
        assert signed_in(room.base, first_token) == 200
        assert axe_violations(eve, axe_source) == []
        screenshots(page, "bots-desktop")
        page.set_viewport_size(PHONE)
        screenshots(page, "bots-phone")
        page.set_viewport_size({"width": 1280, "height": 800})

        # A new token ends the old one; revoking ends them all.
        page.get_by_role("button", name="New token for eve_bot").click()
        page.wait_for_function(
            "(old) => (document.querySelector('#token') || {}).value !== old",
            arg=first_token,
        )
        second_token = page.input_value("#token")
        assert signed_in(room.base, first_token) == 401
        assert signed_in(room.base, second_token) == 200
        page.get_by_role("button", name="Revoke the tokens of eve_bot").click()
        page.locator(".status-line", has_text="Every token of eve_bot is ended").wait_for()
        assert page.locator("#token").count() == 0
        assert signed_in(room.base, second_token) == 401
        assert eve.errors == []
    finally:
        eve.close()
        room.stop()
