"""What an operator sees: /metrics counts the room's work; the logs are JSON and keep secrets."""

from __future__ import annotations

import json
import logging

import pytest

from tests.server.conftest import Harness
from tests.server.play import play_hand, sit


async def test_metrics_count_actions_hands_commits_connections_and_errors(
    room: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="pokerhouse.events")
    table = room.table_id("3x4")
    ann, bob = await room.player(), await room.player()
    await sit(ann, table, 0, 100)
    await sit(bob, table, 1, 100)
    await ann.send(
        {"type": "act", "table": table, "hand": 99, "action": {"kind": "fold"}, "id": "z"}
    )
    ended = await play_hand([ann, bob], table)
    await room.settle()
    # HTTP refusals are counted by their code too.
    wrong = await ann.http.post(
        "/api/login", json={"username": ann.name, "password": "not it at all"}, headers=ann.csrf()
    )
    assert wrong.status_code == 401
    assert (await ann.http.get("/api/nowhere")).status_code == 404
    text = (await ann.http.get("/metrics")).text
    values = {
        line.split(" ")[0]: float(line.split(" ")[1])
        for line in text.splitlines()
        if line and not line.startswith("#")
    }
    assert values['pokerhouse_hands_total{game="3x4",outcome="finished"}'] >= 1
    assert values['pokerhouse_actions_total{game="3x4"}'] >= 2
    assert values["pokerhouse_connections"] == 2
    assert values["pokerhouse_connections_opened_total"] == 2
    assert values["pokerhouse_hands_in_progress"] in (0, 1)
    assert values["pokerhouse_commit_seconds_count"] >= 3
    assert values['pokerhouse_errors_total{code="stale_hand"}'] == 1
    assert values['pokerhouse_errors_total{code="login_failed"}'] == 1
    assert values['pokerhouse_errors_total{code="not_found"}'] == 1
    assert values["pokerhouse_tables_available"] == 4
    lines = [r for r in caplog.records if r.name == "pokerhouse.events"]
    kinds = [r.getMessage() for r in lines]
    assert "action" in kinds and "hand" in kinds
    hand = next(r for r in lines if r.getMessage() == "hand")
    assert hand.fields["net"] == ended["net"]  # type: ignore[attr-defined]
    # No card and no secret in any structured line.
    for record in lines:
        encoded = json.dumps(record.fields)  # type: ignore[attr-defined]
        assert "cards" not in encoded and "password" not in encoded
