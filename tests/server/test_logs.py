"""A real ``pokerhouse serve``'s log output: JSON lines about requests, actions, hands and
connections, each with its ids, and never a card that was dealt nor a password."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pokerhouse.server.runtime.logs import REDIS_PUSHES, configure
from pokerhouse.store import Store
from tests.server.conftest import Client
from tests.server.play import play_hand, sit
from tests.server.process import ServeProcess

PASSWORD = "logs-are-no-place-for-this"
WRONG = "a-wrong-guess-not-to-log"
CARD = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][cdhs])(?![A-Za-z0-9])")
HANDS = 4

ROOM = """
[room]
metrics = true
hand_pause = 0.0
bot_think = [0.0, 0.0]

[[tables]]
name = "3x4 logs"
game = "3x4"
options = { ante = 1, small_bet = 2 }
seats = 3
bots = 1
# The smart bot: the pro one value-bets a player who calls everything out of her chips
# within the test's hands, and she would have none for the next.
bot_kind = "smart"
min_buy_in = 20
max_buy_in = 1000
"""


@pytest.mark.slow
async def test_the_log_is_json_lines_with_ids_and_no_secret(db_url: str, tmp_path: Path) -> None:
    config = tmp_path / "room.toml"
    config.write_text(ROOM)
    server = ServeProcess(db_url, config, log_level="info")
    server.start()
    ann = Client(server.base, "log_ann")
    requests = 1  # the health check that start() waited on (at least one)
    try:
        await ann.register(PASSWORD)
        requests += 2
        wrong = await ann.http.post(
            "/api/login", json={"username": "log_ann", "password": WRONG}, headers=ann.csrf()
        )
        assert wrong.status_code == 401
        requests += 1
        await ann.connect()
        await sit(ann, 1, 2, 200)
        for _ in range(HANDS):
            await play_hand([ann], 1)
        await ann.http.get("/metrics")
        requests += 1
        await ann.send({"type": "act", "table": 1, "hand": 999, "action": {"kind": "x"}, "id": "z"})
        await ann.wait_for(lambda f: f.get("type") == "error")
    finally:
        await ann.close()
        server.stop()
    lines = server.log.read_text().splitlines()
    entries = [parse(line) for line in lines if not line.startswith("pokerhouse: the room opens")]
    by_event: dict[str, list[dict[str, Any]]] = {}
    for entry in entries:
        by_event.setdefault(entry.get("event", ""), []).append(entry)
    assert len(by_event["request"]) >= requests
    assert all({"method", "path", "status", "ms"} <= set(e) for e in by_event["request"])
    actions = by_event["action"]
    assert actions and all({"table", "hand", "seat", "kind", "conn"} <= set(e) for e in actions)
    assert any(e["conn"] is not None for e in actions)  # ann's, from her socket
    hands = by_event["hand"]
    assert len(hands) >= HANDS and all({"table", "hand", "net"} <= set(e) for e in hands)
    opened = [e for e in by_event["connection"] if e["open"]]
    assert opened and all(isinstance(e["conn"], int) for e in opened)
    # Every card dealt in every hand, from the server's own histories.
    dealt = await every_card_dealt(db_url)
    assert len(dealt) >= 10
    text = "\n".join(lines)
    seen = set(CARD.findall(text))
    assert not seen & dealt, sorted(seen & dealt)
    assert PASSWORD not in text and WRONG not in text
    assert "ph_session" not in text


def parse(line: str) -> dict[str, Any]:
    """One log line, which must be one JSON object with a time, a level and a logger."""
    entry = json.loads(line)
    assert isinstance(entry, dict) and {"time", "level", "logger"} <= set(entry), line
    return entry


async def every_card_dealt(url: str) -> set[str]:
    store = await Store.open(url, upgrade=False)
    try:
        cards: set[str] = set()
        user = await store.users.get("log_ann")
        for summary in await store.hands.played_by(user, limit=100):
            record = await store.hands.get(summary.id)
            if record.history is not None:
                cards |= set(CARD.findall(json.dumps(record.history)))
        return cards
    finally:
        await store.close()


@pytest.fixture
def logging_restored() -> Iterator[None]:
    """The root logger's handlers and levels as they were before the test."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    pushes = logging.getLogger(REDIS_PUSHES)
    pushes_level = pushes.level
    access = logging.getLogger("uvicorn.access")
    access_disabled = access.disabled
    try:
        yield
    finally:
        root.handlers[:], root.level = handlers, level
        pushes.setLevel(pushes_level)
        access.disabled = access_disabled


@pytest.mark.parametrize("level", ["debug", "info"])
def test_messages_pushed_by_redis_are_never_logged(logging_restored: None, level: str) -> None:
    # The bus's pushed messages carry hole cards; redis-py would log each one whole.
    configure(level, "text")
    pushes = logging.getLogger(REDIS_PUSHES)
    assert not pushes.isEnabledFor(logging.INFO)
    assert not pushes.isEnabledFor(logging.DEBUG)
    assert logging.getLogger("pokerhouse.bus").isEnabledFor(getattr(logging, level.upper()))
