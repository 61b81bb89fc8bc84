"""Whatever people type is shown as text: a username or chat line of HTML stays words."""

from __future__ import annotations

from typing import Any

from tests.server.process import ServeProcess
from tests.web.conftest import PASSWORD, TABLES
from tests.web.pages import person, register, sit

ATTACK = "<img src=x onerror=alert(1)>"


def test_html_in_a_username_or_chat_line_is_shown_as_text(room: ServeProcess, browser: Any) -> None:
    ann, bob = person(browser, room.base), person(browser, room.base)
    try:
        # A username of HTML is refused with a clear message, shown as text.
        ann.goto("/register")
        ann.page.fill("#username", ATTACK)
        ann.page.fill("#password", PASSWORD)
        ann.page.click("form.auth button[type=submit]")
        ann.page.locator("#auth-error", has_text="username is not allowed").wait_for()
        register(ann, "ann_text")
        register(bob, "bob_text")
        table = TABLES["3x4"]
        sit(ann, table, 0)
        bob.goto(f"/table/{table}")
        ann.page.fill("#chat-input", ATTACK)
        ann.page.keyboard.press("Enter")
        for who in (ann, bob):
            line = who.page.locator("#chat-lines .chat-text").last
            line.wait_for()
            assert line.inner_text() == ATTACK
            assert who.page.locator("#chat-lines img, .seat img").count() == 0
            assert who.dialogs == [] and who.errors == []
    finally:
        ann.close()
        bob.close()
