"""``pokerhouse play``: a person typing into the terminal (here, a test typing into stdin)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pokerhouse.cli import main
from pokerhouse.cli.play import parse_input
from pokerhouse.engine import ActionKind, LegalAction, LegalActions
from pokerhouse.errors import IllegalAction, InvalidAction

ROOT = Path(__file__).resolve().parents[2]


def play(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], typed: str, *args: str
) -> tuple[int, str]:
    """Run ``pokerhouse play`` with ``typed`` as the keyboard; returns (status, output)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    status = main(["play", *args])
    return status, capsys.readouterr().out


def test_a_full_hand_to_showdown_then_quit(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Check or call every time ("c" checks when nothing is owed); the random
    # bot never folds a free check, so with seed 3 the hand reaches a showdown.
    status, out = play(
        monkeypatch,
        capsys,
        "c\n" * 12 + "q\n",
        "3x4",
        "--players",
        "2",
        "--seed",
        "3",
        "--bots",
        "random",
    )
    assert status == 0
    assert "Seat draw for the button" in out
    assert "Your move (fold | check | bet 2-" in out
    assert "*** RIVER ***" in out and " shows " in out and "from the pot" in out
    assert "Hand #1:" in out
    assert out.rstrip().splitlines()[-1].startswith("Session over: 1 hands played")


def test_an_illegal_amount_is_rejected_with_its_reason_and_asked_again(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = play(
        monkeypatch,
        capsys,
        "b 1\nbet lots\nr 1\nfly\nq\n",
        "3x4",
        "--players",
        "2",
        "--seed",
        "3",
        "--bots",
        "random",
    )
    assert status == 0
    assert "✗ bet of 1 is below the minimum of 2 (amount_too_small)" in out
    assert "✗ amount 'lots' is not a whole number of chips (bad_amount)" in out
    assert "(bet_required)" in out
    assert "✗ unknown action 'fly'" in out
    # The prompt came back after each of the four rejections.
    assert out.count("Your move") == 5
    assert "You left during hand #1: it is not counted." in out
    assert "Session over: 0 hands played" in out


@pytest.mark.parametrize("typed", ["", "quit\n", "q\n"])
def test_quitting_at_the_first_prompt_or_at_end_of_input_exits_cleanly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], typed: str
) -> None:
    status, out = play(monkeypatch, capsys, typed, "razz", "--players", "3", "--seed", "1")
    assert status == 0
    assert "Session over" in out


def test_ctrl_c_prints_the_summary_and_exits_zero(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(*_: object, **__: object) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr("rich.console.Console.input", interrupted)
    assert main(["play", "3x4", "--players", "3", "--seed", "2"]) == 0
    assert "Session over" in capsys.readouterr().out


def test_between_hands_enter_deals_the_next_and_other_text_asks_again(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    typed = "f\n" * 3 + "more\n\n" + "f\n" * 3 + "q\n"
    status, out = play(
        monkeypatch, capsys, typed, "3x4", "--players", "3", "--seed", "5", "--bots", "random"
    )
    assert status == 0
    assert "Hand #2 of 3x4 Poker" in out
    assert "Press Enter to deal the next hand, or type q to quit." in out


def test_teen_patti_in_the_terminal_look_then_bet(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    typed = "l\n" + "b 999999\n" + "f\n" * 3 + "q\n"
    status, out = play(
        monkeypatch,
        capsys,
        typed,
        "teen-patti",
        "--players",
        "3",
        "--seed",
        "4",
        "--bots",
        "random",
    )
    assert status == 0
    assert "You look at your cards:" in out
    assert "(amount_exceeds_stack)" in out
    assert "Stake " in out


def test_bad_arguments_are_reported_as_errors(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", "razz", "--players", "9"]) == 2
    assert "[player_count]" in capsys.readouterr().err
    assert main(["play", "go-fish"]) == 2
    assert "[unknown_game]" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--stack", "2"), "--stack 2 is too small: your box needs 3 chips"),
        (("--stack", "10", "--ante", "4"), "--stack 10 is too small: your box needs 12 chips"),
        (("--stack", "12", "--ante", "4", "--bonus", "2"), "your box needs 14 chips"),
    ],
)
def test_a_stack_that_cannot_cover_a_box_is_an_error_before_the_deal(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: tuple[str, ...],
    message: str,
) -> None:
    # Otherwise the box sits busted and the first rebuy is of 0 chips.
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n" * 5))
    assert main(["play", "casino-holdem", "--players", "3", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.rstrip().endswith("[bad_stack]")


def test_shortcuts_map_to_actions() -> None:
    facing_bet = LegalActions(
        (
            LegalAction(ActionKind.FOLD),
            LegalAction(ActionKind.CALL),
            LegalAction(ActionKind.RAISE, 20, 300),
        )
    )
    assert str(parse_input("c", facing_bet)) == "call"
    assert str(parse_input("r 60", facing_bet)) == "raise 60"
    assert str(parse_input("A", facing_bet)) == "raise 300"
    assert str(parse_input("f", facing_bet)) == "fold"
    blind = LegalActions(
        (
            LegalAction(ActionKind.FOLD),
            LegalAction(ActionKind.LOOK),
            LegalAction(ActionKind.BET, 2, 100),
        )
    )
    assert str(parse_input("l", blind)) == "look"
    assert str(parse_input("b 2", blind)) == "bet 2"
    with pytest.raises(InvalidAction):
        parse_input("bet two", blind)
    with pytest.raises(IllegalAction):
        blind.check(parse_input("k", blind))


def test_plain_piped_stdin_drives_the_real_command() -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pokerhouse",
            "play",
            "3x4",
            "--players",
            "2",
            "--seed",
            "3",
            "--bots",
            "random",
        ],
        input="c\n" * 12 + "q\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Hand #1:" in done.stdout and "Session over" in done.stdout


def test_demo_shows_evaluations_a_hand_of_every_game_and_some_analysis(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["demo", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "Royal flush" in out and "5-4-3-2-A low" in out
    for title in ("3x4 Poker", "Razz", "Teen Patti", "Casino Hold'em"):
        assert f"{title}" in out and "one hand" in out
    assert out.count("Result:") == 4
    assert "call or fold?" in out


def test_casino_holdem_box_against_the_dealer(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = play(
        monkeypatch,
        capsys,
        "r 5\nc\nq\n",
        "casino-holdem",
        "--players",
        "3",
        "--seed",
        "2",
        "--ante",
        "5",
        "--bonus",
        "5",
    )
    assert status == 0
    assert "You post an ante of 5" in out and "You bet 5 on the AA Bonus" in out
    assert "(action_not_allowed)" in out
    assert "You call 10" in out and "The dealer shows" in out
    assert "Hand #1: Ada " in out and "house " in out
    status, _ = play(monkeypatch, capsys, "", "casino-holdem", "--ante", "500")
    assert status == 2
