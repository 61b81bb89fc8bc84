"""The page survives the server's restart in the middle of a hand."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.process import ServeProcess
from tests.web.conftest import START_SECONDS, TABLES
from tests.web.pages import act, person, play_hand, register, sit


@pytest.mark.slow
def test_the_table_comes_back_after_a_restart_mid_hand(room: ServeProcess, browser: Any) -> None:
    table = TABLES["3x4"]
    ann, bob = person(browser, room.base), person(browser, room.base)
    try:
        register(ann, "ann_restart")
        register(bob, "bob_restart")
        sit(ann, table, 0)
        sit(bob, table, 1)
        for who in (ann, bob):
            who.page.wait_for_selector(".street:has-text('Hand #1')")
        # One action in, then the server dies without a word.
        acted = None
        while acted is None:
            acted = act(ann) or act(bob)
            ann.page.wait_for_timeout(100)
        ann.page.wait_for_selector("#log li[data-event='table_hand_started']")
        room.kill()
        for who in (ann, bob):
            banner = who.page.locator("#status")
            banner.wait_for(state="visible", timeout=60_000)
            assert "reconnecting" in banner.inner_text().lower()
        room.start(timeout=START_SECONDS)
        for who in (ann, bob):
            who.page.locator("#status").wait_for(state="hidden", timeout=60_000)
            # The same hand, as the server's log rebuilt it.
            who.page.wait_for_selector(".street:has-text('Hand #1')", timeout=60_000)
        play_hand([ann, bob], 1, ("check", "call"))
        assert ann.errors == [] and bob.errors == []
    finally:
        ann.close()
        bob.close()
