"""Driving the client as a person would: pages, forms, buttons, and what the page was sent."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from tests.web.conftest import DESKTOP, PASSWORD

#: Actions a careful player takes to reach the showdown quickly, in order of preference.
PASSIVE = ("check", "call", "bring_in", "show_hand", "show")


@dataclass
class Person:
    """One browser context: a page, the websocket frames it received, its console errors."""

    context: Any
    page: Any
    base: str
    frames: list[dict[str, Any]] = field(default_factory=list)
    #: The messages the page sent on its websocket.
    sent: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)

    def goto(self, path: str) -> None:
        self.page.goto(f"{self.base}/#{path}")
        self.page.wait_for_selector("body[data-ready='1']")

    def close(self) -> None:
        self.context.close()


def person(browser: Any, base: str, viewport: dict[str, int] = DESKTOP) -> Person:
    """A fresh browser context (no cookies) with its frames and errors recorded."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.set_default_timeout(60_000)  # a loaded laptop draws slowly
    who = Person(context, page, base)

    def on_socket(socket: Any) -> None:
        def received(payload: Any) -> None:
            text = payload if isinstance(payload, str) else payload.decode()
            batch = json.loads(text)  # each websocket message is a JSON array of messages
            who.frames.extend(batch if isinstance(batch, list) else [batch])

        def sent(payload: Any) -> None:
            text = payload if isinstance(payload, str) else payload.decode()
            who.sent.append(json.loads(text))

        socket.on("framereceived", received)
        socket.on("framesent", sent)

    page.on("websocket", on_socket)
    page.on("pageerror", lambda error: who.errors.append(str(error)))
    page.on("dialog", lambda dialog: (who.dialogs.append(dialog.message), dialog.dismiss()))
    return who


def register(who: Person, name: str) -> None:
    """Open an account through the register form."""
    who.goto("/register")
    who.page.fill("#username", name)
    who.page.fill("#password", PASSWORD)
    who.page.click("form.auth button[type=submit]")
    who.page.wait_for_selector(f".who .user:text-is('{name}')")


def sit(who: Person, table: int, seat: int, buy_in: int | None = None) -> None:
    """Take ``seat`` at ``table`` through the table page's seat button and buy-in form."""
    if f"/table/{table}" not in who.page.url:
        who.goto(f"/table/{table}")
    who.page.click(f".seat.empty[data-seat='{seat}'] button.sit-here")
    if buy_in is not None:
        who.page.fill("#buy-in", str(buy_in))
    who.page.click("#sit-down")
    who.page.wait_for_selector(f".seat.mine[data-seat='{seat}']")


def act(who: Person, prefer: tuple[str, ...] = PASSIVE) -> str | None:
    """Take one action if the page offers any: the first of ``prefer``, else the smallest bet."""
    page = who.page
    # Read in one go: the bar may go away between two reads (the hand moved on).
    kinds = page.eval_on_selector_all(
        "#action-bar .actions button.act:not([disabled])", "els => els.map(e => e.dataset.kind)"
    )
    if not kinds:
        return None
    for kind in prefer:
        if kind in kinds:
            break
    else:
        kind = next((k for k in kinds if k in ("bet", "raise", "complete")), kinds[0])
    try:
        page.click(f"#action-bar button.act[data-kind='{kind}']:not([disabled])", timeout=2_000)
    except Exception:  # the bar moved on under the click: nothing was sent
        return None
    return kind


def to_act(people: list[Person], timeout: float = 60.0) -> Person:
    """The one of ``people`` whose page shows a decision now (waiting for one to)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for who in people:
            if who.page.locator("#action-bar .actions").count():
                return who
        people[0].page.wait_for_timeout(100)
    raise AssertionError(f"nobody's turn came in {timeout} s")


#: Records, once, what the red notice said when the log's next line of a kind appeared.
WATCH_NOTICE = """(kind) => {
  window.noticeAt = window.noticeAt || {};
  delete window.noticeAt[kind];
  const lines = () => document.querySelectorAll(`#log li[data-event='${kind}']`).length;
  const before = lines();
  const look = () => {
    if (!(kind in window.noticeAt) && lines() > before) {
      window.noticeAt[kind] = document.querySelector('#table-notice').textContent;
    }
  };
  new MutationObserver(look).observe(document.body, {subtree: true, childList: true});
}"""


def watch_notice(who: Person, kind: str) -> None:
    """Note what the notice says when the page next logs an event of ``kind``."""
    who.page.evaluate(WATCH_NOTICE, kind)


def notice_when_logged(who: Person, kind: str) -> str:
    """What the notice said as the event of ``kind`` was logged (waiting for it).

    The page's own timer clears a notice after a while, so a notice seen empty
    later proves nothing; seen as the event is drawn, it is what that event did.
    """
    who.page.wait_for_function(f"window.noticeAt && {json.dumps(kind)} in window.noticeAt")
    text: str = who.page.evaluate(f"window.noticeAt[{json.dumps(kind)}]")
    return text


def hand_over(who: Person, number: int) -> bool:
    """Whether the page's log says hand ``number`` is over."""
    selector = f"#log li[data-event='table_hand_ended'][data-number='{number}']"
    return who.page.locator(selector).count() > 0


def play_hand(
    people: list[Person], number: int, prefer: tuple[str, ...] = PASSIVE, timeout: float = 120.0
) -> list[str]:
    """Answer every decision the pages show until hand ``number`` is over; the actions taken."""
    taken: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(hand_over(who, number) for who in people):
            return taken
        for who in people:
            kind = act(who, prefer)
            if kind:
                taken.append(kind)
        people[0].page.wait_for_timeout(100)
    raise AssertionError(f"hand {number} did not end in {timeout} s (actions: {taken})")


def axe_violations(who: Person, source: str) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the page as it is now."""
    page = who.page
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=source)
    result = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
    )
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in result
        if v["impact"] in ("serious", "critical")
    ]


def table_frames(who: Person, table: int) -> list[dict[str, Any]]:
    return [f for f in who.frames if f.get("table") == table]
