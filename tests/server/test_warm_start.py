"""The room builds its games' evaluator tables before any table plays: built on first use
(the first flop's hand name) they stopped the event loop, and every table, for a second."""

from __future__ import annotations

import subprocess
import sys

import pytest

from pokerhouse.server import room as room_module
from pokerhouse.store import TableConfig
from tests.server.conftest import serve

CHECK = """
from pokerhouse.evaluate import tables
from pokerhouse.server.room import prepare_evaluators
assert not tables.high_table(7) and not tables.low_table(7)
prepare_evaluators({"3x4"})
assert tables.high_table(5) and tables.high_table(6) and tables.high_table(7)
assert tables.FLUSH_VALUES and not tables.low_table(7) and not tables.TEEN_PATTI_TABLE
prepare_evaluators({"razz", "teen-patti"})
assert tables.low_table(7) and tables.TEEN_PATTI_TABLE
print("built")
"""


def test_prepare_evaluators_fills_the_tables_each_game_needs() -> None:
    # A fresh interpreter: this test process may have built the tables already.
    done = subprocess.run(
        [sys.executable, "-c", CHECK], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0 and done.stdout.strip() == "built", done.stderr


async def test_the_room_prepares_its_games_before_its_tables_start(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[set[str]] = []
    real = room_module.prepare_evaluators

    def recording(games: set[str]) -> None:
        asked.append(set(games))
        real(games)

    monkeypatch.setattr(room_module, "prepare_evaluators", recording)
    tables = [
        TableConfig("3x4", "3x4", {"ante": 1, "small_bet": 2}, 2),
        TableConfig("Razz", "razz", {"ante": 1, "bring_in": 1, "small_bet": 2, "big_bet": 4}, 2),
    ]
    async with serve(db_url, tables):
        assert asked == [{"3x4", "razz"}]
