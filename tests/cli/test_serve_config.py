"""``room.toml``: the fault-handling keys reach the room's settings, and bad values are refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from pokerhouse.cli.serve import load_config
from pokerhouse.errors import InvalidSpec


def test_ping_buffer_and_database_deadline_come_from_room_toml(tmp_path: Path) -> None:
    path = tmp_path / "room.toml"
    path.write_text(
        "[room]\nping_seconds = 3\nmax_buffer = 65536\ndatabase_seconds = 2.5\nretry_seconds = 1\n"
    )
    settings, tables = load_config(str(path))
    assert tables is None
    assert settings.ping_seconds == 3.0
    assert settings.max_buffer == 65536
    assert settings.database_seconds == 2.5
    assert settings.retry_seconds == 1.0


@pytest.mark.parametrize(
    "line",
    [
        "ping_seconds = 0",
        "ping_seconds = -1",
        "database_seconds = 0",
        "database_seconds = 'soon'",
        "retry_seconds = true",
        "max_buffer = 0",
        "max_buffer = 1.5",
    ],
)
def test_bad_fault_settings_are_refused(tmp_path: Path, line: str) -> None:
    path = tmp_path / "room.toml"
    path.write_text(f"[room]\n{line}\n")
    with pytest.raises(InvalidSpec) as caught:
        load_config(str(path))
    assert caught.value.code == "bad_config"
