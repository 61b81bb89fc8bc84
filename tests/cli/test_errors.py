"""Every command reports bad input the same way: one line on stderr, nothing on stdout."""

from __future__ import annotations

import pytest

from pokerhouse.cli import main


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (["simulate", "omaha", "--hands", "2"], "unknown_game"),
        (["simulate", "3x4", "--hands", "0"], "bad_count"),
        (["simulate", "3x4", "--stack", "0", "--hands", "2"], "bad_stack"),
        (["hand", "As Ks"], "card_count"),
        (["replay", "/no/such/file.json"], "unreadable"),
        (["advise", "razz", "As Kd", "Qh 7c 2d"], "no_advisor"),
        (["analyze", "razz"], "no_analysis"),
        (["play", "omaha"], "unknown_game"),
        (["serve", "--node", "two words"], "bad_node"),
        (["serve", "--node", "x" * 65], "bad_node"),
        (["serve", "--redis-url", "127.0.0.1:6379"], "bad_redis_url"),
        (["serve", "--reuse-port"], "node_required"),
        (["serve", "--redis-url", "http://127.0.0.1:6379"], "bad_redis_url"),
        # Nothing listens on port 1: the room does not open without its bus.
        (["serve", "--redis-url", "redis://127.0.0.1:1/0"], "redis_unreachable"),
    ],
)
def test_an_error_is_one_line_on_stderr_and_nothing_else(
    capsys: pytest.CaptureFixture[str], argv: list[str], code: str
) -> None:
    status = main(argv)
    out, err = capsys.readouterr()
    assert status == 2
    assert out == ""
    assert err.startswith("pokerhouse: error: ") and err.count("\n") == 1
    assert err.rstrip().endswith(f"[{code}]")


def test_simulate_refuses_zero_hands_with_a_clear_message(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["simulate", "razz", "--hands", "0", "--json"]) == 2
    assert "the number of hands must be at least 1, not 0 [bad_count]" in capsys.readouterr().err
