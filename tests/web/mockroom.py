"""The page's websocket served by a test (Playwright's ``route_web_socket``): the page gets
exactly the frames a test writes. And the boxes of what the page drew, measured."""

from __future__ import annotations

import json
import time
from typing import Any

from tests.web.pages import Person


def frame(kind: str, **fields: Any) -> str:
    return json.dumps({"type": kind, **fields})


class MockRoom:
    """The page's websocket, served by the test: hello, then ``view`` for any table watched."""

    def __init__(self, who: Person, user: str, view: dict[str, Any]) -> None:
        self.view = view
        self.sent: list[dict[str, Any]] = []  # what the page sent
        self.ws: Any = None

        def handler(ws: Any) -> None:
            self.ws = ws
            ws.on_message(self.received)
            ws.send(frame("hello", user=user))

        who.page.route_web_socket("**/ws", handler)

    def received(self, message: str | bytes) -> None:
        data = json.loads(message)
        self.sent.append(data)
        if data.get("type") in ("watch", "resume"):
            self.snapshot()
        if data.get("type") == "act":
            self.ws.send(frame("ack", id=data["id"], table=data["table"]))

    def snapshot(self) -> None:
        view = self.view
        self.ws.send(frame("snapshot", table=view["table"]["id"], seq=view["seq"], view=view))

    def private(self, decision: dict[str, Any] | None) -> None:
        hand = self.view["hand"]
        mine = {"0": {"hand_name": "7-5-4-3-2 low", "decision": decision}}
        self.ws.send(
            frame(
                "private",
                table=self.view["table"]["id"],
                seq=self.view["seq"],
                hand=hand["number"],
                mine=mine,
            )
        )

    def wait_sent(self, who: Person, action: dict[str, Any]) -> None:
        deadline = time.monotonic() + 10
        while not any(m.get("type") == "act" and m["action"] == action for m in self.sent):
            assert time.monotonic() < deadline, (action, self.sent)
            who.page.wait_for_timeout(100)


def rects(who: Person, selector: str) -> list[dict[str, float]]:
    boxes: list[dict[str, float]] = who.page.eval_on_selector_all(
        selector,
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return {left: r.left, top: r.top + scrollY, right: r.right, bottom: r.bottom + scrollY,"
        " seat: e.dataset.seat || ''}; })",
    )
    return boxes


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    slack = 1.0
    return (
        a["left"] < b["right"] - slack
        and b["left"] < a["right"] - slack
        and a["top"] < b["bottom"] - slack
        and b["top"] < a["bottom"] - slack
    )
