"""``room.toml``'s [room] keys reach the room's settings, and bad values are refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from argon2 import PasswordHasher

from pokerhouse.cli.serve import load_config
from pokerhouse.errors import InvalidSpec
from pokerhouse.server.app import Site
from pokerhouse.server.settings import RoomSettings


def _config(tmp_path: Path, room: str) -> str:
    path = tmp_path / "room.toml"
    path.write_text(f"[room]\n{room}\n", encoding="utf-8")
    return str(path)


def test_registrations_and_argon2_costs_are_room_settings(tmp_path: Path) -> None:
    settings, tables = load_config(
        _config(tmp_path, "registrations_per_hour = 500\nargon2 = [1, 256, 1]")
    )
    assert tables is None
    assert settings.registrations_per_hour == 500
    assert settings.argon2 == (1, 256, 1)
    hasher = Site(None, settings=settings).store_options["password_hasher"]
    assert isinstance(hasher, PasswordHasher)
    assert (hasher.time_cost, hasher.memory_cost, hasher.parallelism) == (1, 256, 1)


def test_without_argon2_the_store_keeps_its_default_hasher() -> None:
    assert "password_hasher" not in Site(None, settings=RoomSettings()).store_options


@pytest.mark.parametrize(
    "line",
    [
        "argon2 = [1, 256]",
        "argon2 = [0, 256, 1]",
        "argon2 = [1, 7, 1]",
        "argon2 = [1, 16, 4]",
        'argon2 = "light"',
        "argon2 = [1.5, 256, 1]",
        "registrations_per_hour = 0",
        "registrations_per_hour = 2.5",
    ],
)
def test_bad_values_are_refused(tmp_path: Path, line: str) -> None:
    with pytest.raises(InvalidSpec) as refused:
        load_config(_config(tmp_path, line))
    assert refused.value.code == "bad_config"


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


def test_hostile_client_settings_come_from_room_toml(tmp_path: Path) -> None:
    settings, _ = load_config(
        _config(
            tmp_path,
            "sockets_per_account = 4\nsockets_per_address = 32\nhashes_per_address = 1\n"
            "request_head_seconds = 2.5\nmetrics = true\n"
            'forwarded_allow_ips = ["10.0.0.5", "192.168.0.0/24", "::1"]\n'
            'allowed_hosts = ["Poker.Example.com", "*.example.org", "*"]',
        )
    )
    assert (settings.sockets_per_account, settings.sockets_per_address) == (4, 32)
    assert settings.hashes_per_address == 1
    assert settings.request_head_seconds == 2.5
    assert settings.metrics is True
    assert settings.forwarded_allow_ips == ("10.0.0.5", "192.168.0.0/24", "::1")
    assert settings.allowed_hosts == ("poker.example.com", "*.example.org", "*")


def test_hostile_client_defaults_are_safe() -> None:
    settings, _ = load_config(None)
    assert (settings.sockets_per_account, settings.sockets_per_address) == (16, 64)
    assert settings.hashes_per_address == 2
    assert settings.request_head_seconds == 10.0
    # No proxy is believed, no name beyond loopback and --host is answered, no /metrics.
    assert settings.forwarded_allow_ips == () and settings.allowed_hosts == ()
    assert settings.metrics is False


@pytest.mark.parametrize(
    "line",
    [
        "sockets_per_account = 0",
        "sockets_per_address = 1.5",
        "hashes_per_address = -1",
        "hashes_per_address = true",
        "request_head_seconds = 0",
        "request_head_seconds = 'ten'",
        "metrics = 1",
        'metrics = "yes"',
        'forwarded_allow_ips = "127.0.0.1"',
        'forwarded_allow_ips = ["*"]',
        'forwarded_allow_ips = ["proxy.example.com"]',
        "forwarded_allow_ips = [1]",
        'allowed_hosts = "example.com"',
        'allowed_hosts = ["example.com:8000"]',
        'allowed_hosts = ["http://example.com"]',
        'allowed_hosts = ["exa mple.com"]',
        'allowed_hosts = [""]',
        "spread_tables = 1",
        'spread_tables = "no"',
    ],
)
def test_bad_hostile_client_settings_are_refused(tmp_path: Path, line: str) -> None:
    with pytest.raises(InvalidSpec) as caught:
        load_config(_config(tmp_path, line))
    assert caught.value.code == "bad_config"


def test_the_default_room_runs_every_games_tournaments_and_a_room_of_its_own_only_its_own(
    tmp_path: Path,
) -> None:
    settings, _ = load_config(None)
    assert settings.sit_and_gos == settings.scheduled_games == ("3x4", "razz", "teen-patti")
    settings, _ = load_config(_config(tmp_path, "hand_pause = 1"))
    assert settings.sit_and_gos == ("3x4", "razz", "teen-patti")
    path = tmp_path / "own.toml"
    path.write_text(
        '[room]\nsit_and_gos = ["razz"]\nsit_and_go_structure = "quick"\n'
        "sit_and_go_bots_after = 30\nscheduled_every = 1800\nscheduled_bots = 5\n\n"
        '[structures.quick]\nbase = "turbo"\nlevel_seconds = 120\n\n'
        '[[tables]]\nname = "Razz"\ngame = "razz"\n'
        "options = { ante = 1, bring_in = 1, small_bet = 2, big_bet = 4 }\n",
        encoding="utf-8",
    )
    settings, tables = load_config(str(path))
    assert tables is not None and settings.sit_and_gos == ("razz",)
    assert settings.scheduled_games == ()  # a room of its own tables names its tournaments
    assert settings.structures == {"quick": {"base": "turbo", "level_seconds": 120}}
    assert (settings.sit_and_go_structure, settings.sit_and_go_bots_after) == ("quick", 30.0)
    assert (settings.scheduled_every, settings.scheduled_bots) == (1800.0, 5)


@pytest.mark.parametrize(
    "text",
    [
        '[room]\nsit_and_gos = ["casino-holdem"]\n',
        '[room]\nsit_and_gos = "razz"\n',
        '[room]\nscheduled_games = ["poker"]\n',
        '[room]\nsit_and_go_structure = "lightning"\n',
        '[room]\nscheduled_structure = "lightning"\n',
        "[room]\nsit_and_go_bots_after = -1\n",
        "[room]\nscheduled_every = 0\n",
        "[room]\nscheduled_bots = 0\n",
        '[structures.bad]\nbase = "turbo"\nlevel_seconds = 0\n',
        "[structures.bad]\nsmall_bets = [10, 5]\n",
        "[structures]\nbad = 3\n",
    ],
)
def test_bad_tournament_settings_are_refused(tmp_path: Path, text: str) -> None:
    path = tmp_path / "room.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InvalidSpec) as caught:
        load_config(str(path))
    assert caught.value.code == "bad_config"
