"""Whatever people type is shown as text: a username or chat line of HTML stays words."""

from __future__ import annotations

import json
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


def test_a_bot_s_phrase_is_shown_in_the_reader_s_language(room: ServeProcess, browser: Any) -> None:
    """A house bot's line is a phrase: the page says it in Russian, marked as a bot's; a
    phrase it does not know is shown as the room's English text."""
    reader = person(browser, room.base)
    said = {"done": False}

    def bot_lines(ws: Any) -> None:
        server = ws.connect_to_server()

        def from_server(message: str | bytes) -> None:
            ws.send(message)
            for data in json.loads(message):
                if data.get("type") == "snapshot" and not said["done"]:
                    said["done"] = True
                    line = {"type": "chat", "table": data["table"], "seq": data["seq"]}
                    ws.send(json.dumps([
                        {**line, "user": "Ada_bot", "text": "Nice hand", "phrase": "nice_hand"},
                        {**line, "user": "Bo_bot", "text": "Well met", "phrase": "new_one"},
                    ]))  # fmt: skip

        server.on_message(from_server)
        ws.on_message(lambda message: server.send(message))

    try:
        reader.page.route_web_socket("**/ws", bot_lines)
        reader.goto("/")
        reader.page.select_option("#lang", "ru")
        # The switch loads its catalogue and then draws the page again: wait for it, or it
        # would draw the table afresh after the lines were shown, and they would be gone.
        reader.page.wait_for_selector("html[lang='ru']", state="attached")
        reader.goto(f"/table/{TABLES['3x4']}")
        lines = reader.page.locator("#chat-lines li")
        lines.nth(1).wait_for()
        first, second = lines.all_inner_texts()
        assert first == "Ada_bot бот: Хорошая рука", first
        assert second == "Bo_bot бот: Well met", second
        assert reader.errors == []
    finally:
        reader.close()
