"""``pokerhouse play``: a person typing into the terminal (here, a test typing into stdin)."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pokerhouse.cli import EXIT_BROKEN_PIPE, main
from pokerhouse.history import load_history, replay

ROOT = Path(__file__).resolve().parents[2]

#: Tables whose seeded hands the tests below know.
RANDOM_3X4 = ("3x4", "--players", "2", "--seed", "3", "--bots", "random")
RANDOM_TEEN_PATTI = ("teen-patti", "--players", "3", "--seed", "4", "--bots", "random")
CASINO = ("casino-holdem", "--players", "2", "--seed", "2")


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
    assert out.rstrip().splitlines()[-1].startswith("Session over: 1 hand played")


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
    # Enter at the betting window deals with the bets set at launch.
    status, out = play(
        monkeypatch,
        capsys,
        "\nr 5\nc\nq\n",
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


# ------------------------------------------------------------------ issue 15, the Play list


def test_your_hand_is_named_at_every_street(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = play(monkeypatch, capsys, "c\n" * 12 + "q\n", *RANDOM_3X4)
    named = [line for line in out.splitlines() if line.startswith("You have: ")]
    # Hole cards, flop, turn and river: named after each deal, before anyone acts on it.
    assert len(named) == 4
    lines = out.splitlines()
    for street in ("*** FLOP ***", "*** TURN ***", "*** RIVER ***"):
        after = lines[lines.index(street) :]
        assert after[2].startswith("You have: ")


def test_razz_names_the_low_so_far_and_then_the_low(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = play(
        monkeypatch,
        capsys,
        "c\nc\nc\nc\nq\n",
        "razz",
        "--players",
        "2",
        "--seed",
        "5",
        "--bots",
        "random",
    )
    assert "You have: Q-J-9 low so far\n" in out
    assert "You have: Q-J-9 low so far, with two queens" in out
    assert "You have: Q-J-T-9-8 low" in out


def test_teen_patti_names_your_hand_once_you_look(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = play(monkeypatch, capsys, "l\nf\nq\n", *RANDOM_TEEN_PATTI)
    lines = out.splitlines()
    looked = next(i for i, line in enumerate(lines) if "You look at your cards:" in line)
    assert lines[looked + 1] == "You have: high card, 8-6-4"
    assert not any(line.startswith("You have") for line in lines[:looked])


def test_casino_holdem_names_your_hand_and_the_dealers_and_has_no_pot(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = play(monkeypatch, capsys, "\nc\nq\n", *CASINO)
    assert "You have: pair of nines" in out
    assert "The dealer shows 7s 4d (Pair of fours)" in out
    assert "You show 3s 9s (Pair of nines)" in out
    assert "Pot" not in out


def test_a_folded_hand_is_not_named_again(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = play(monkeypatch, capsys, "f\nq\n", *RANDOM_3X4)
    assert out.count("You have: ") == 1


def test_the_prompt_says_what_each_action_costs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = play(monkeypatch, capsys, "c\n" * 12 + "q\n", *RANDOM_3X4)
    assert "Your move (fold | call 5 | raise to 10-199)" in out
    _, out = play(monkeypatch, capsys, "c\nq\n", "razz", "--players", "2", "--seed", "5")
    assert "Your move (bring in 2 | complete to 5)" in out
    _, out = play(
        monkeypatch,
        capsys,
        "q\n",
        "teen-patti",
        "--players",
        "2",
        "--seed",
        "1",
        "--bots",
        "random",
    )
    assert re.search(r"Your move \(fold \| look \| bet \d+-\d+ \| show \d+\)", out)
    _, out = play(monkeypatch, capsys, "\nq\n", *CASINO, "--ante", "10")
    assert "Your move (fold | call 20)" in out


def test_help_is_the_games_own(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = play(monkeypatch, capsys, "?\nq\n", *RANDOM_3X4)
    assert "At 3x4 Poker you type:" in out and "x or k" in out
    assert "look" not in out and " show" not in out.split("At 3x4 Poker")[1]
    _, out = play(monkeypatch, capsys, "?\nq\n", *RANDOM_TEEN_PATTI)
    assert "look at your cards" in out and "x or k" not in out


def test_a_negative_amount_must_be_positive(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out = play(monkeypatch, capsys, "b -5\nq\n", *RANDOM_3X4)
    assert "✗ amount -5 must be positive" in out and "not a whole number" not in out


def test_the_grammar_of_you(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Seed 8: you bet 100 and the bot folds.
    _, out = play(
        monkeypatch,
        capsys,
        "b 100\n\nq\n",
        "3x4",
        "--players",
        "2",
        "--seed",
        "8",
        "--bots",
        "random",
    )
    assert "Your uncalled 100 is returned" in out
    assert "You win 2 from the pot" in out
    assert "Hand #1: You win 2; you +1, stack 201" in out
    assert "Session over: 1 hand played" in out
    assert "You wins" not in out and "You deals" not in out and "hands played" not in out
    _, out = play(monkeypatch, capsys, "l\nq\n", *RANDOM_TEEN_PATTI)
    assert "You look at your cards: " in out


def test_teen_patti_returns_an_all_ins_unmatched_excess_as_3x4_does(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    typed = "l\nb 4\n\nb 2\nl\nc\nc\nc\nc\na\nq\n"
    _, out = play(monkeypatch, capsys, typed, *RANDOM_TEEN_PATTI)
    assert "Boris's uncalled 12 is returned" in out
    assert "Boris wins 12" not in out
    assert "You win 166 from side pot 1 with pair of eights, J kicker" in out


def test_a_four_colour_deck_on_request(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)
    _, plain = play(monkeypatch, capsys, "q\n", *RANDOM_3X4)
    _, four = play(monkeypatch, capsys, "q\n", *RANDOM_3X4, "--four-colour")
    green, blue = "\x1b[1;32m", "\x1b[1;34m"
    assert green not in plain and blue not in plain
    assert green in four  # the seed draws a club for the button
    assert "\x1b[1;37m" not in plain and "\x1b[1;97m" not in plain  # no bold white


def test_casino_holdem_offers_the_bets_before_each_deal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    typed = "ante 0\nante 5\nbonus 9\nbonus 5\npays\n\nc\nante 70\nbonus 0\nante 70\n\nhint\nq\n"
    status, out = play(monkeypatch, capsys, typed, *CASINO)
    assert status == 0
    assert out.count("Your box: ante") >= 6
    assert "✗ the ante must be from 1 to 100, not 0 (bad_wager)" in out
    assert "✗ a bonus is 0 or from 1 up to the ante (5), not 9 (bad_wager)" in out
    assert "You post an ante of 5" in out and "You bet 5 on the AA Bonus" in out
    assert "Pay tables at this table:" in out and "royal flush 100:1" in out
    assert "AA Bonus, settled at the flop on a pair of aces or better: 7:1" in out
    assert "✗ an ante of 70 and a bonus of 5 need 215 chips" in out
    assert "You post an ante of 70" in out and out.count("on the AA Bonus") == 1
    assert "Advisor: calling is worth" in out
    assert 'pokerhouse advise casino-holdem "' in out


@pytest.mark.parametrize("ante", ["-1", "0", "101"])
def test_a_bad_ante_is_refused_with_the_tables_range(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], ante: str
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n"))
    assert main(["play", "casino-holdem", "--ante", ante]) == 2
    err = capsys.readouterr().err
    assert f"the ante must be from 1 to 100, not {ante} [bad_wager]" in err


def test_play_saves_the_hands_it_plays_for_replay(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "hands"
    # Extra entries at "Enter for the next hand" are asked again: harmless.
    typed = ("c\n" * 12 + "\n") * 2 + "q\n"
    args = ("razz", "--players", "2", "--seed", "5", "--bots", "random", "--save", str(folder))
    status, out = play(monkeypatch, capsys, typed, *args)
    assert status == 0
    files = sorted(path.name for path in folder.iterdir())
    assert files == ["hand-0001.json", "hand-0001.phh", "hand-0002.json", "hand-0002.phh"]
    assert f"2 hand histories saved in {folder}" in out
    for name in ("hand-0001.json", "hand-0002.json"):
        assert replay((folder / name).read_text()).is_over
    assert load_history(folder / "hand-0001.phh").names == ("Ada", "Hero")
    # A folder that holds hands already is refused before anything is played.
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", *args]) == 2
    assert capsys.readouterr().err.rstrip().endswith("[history_exists]")


def test_play_into_a_closed_pipe_ends_quietly() -> None:
    reader, writer = os.pipe()
    os.close(reader)
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pokerhouse", "play", "3x4", "--seed", "1"],
            input=b"c\n" * 10 + b"q\n",
            stdout=writer,
            stderr=subprocess.PIPE,
            env=env,
            timeout=60,
            check=False,
        )
    finally:
        os.close(writer)
    assert done.stderr.decode() == ""
    assert done.returncode == EXIT_BROKEN_PIPE


def test_a_box_its_stack_cannot_cover_is_told_so_before_the_deal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    typed = "ante 10\n\nf\n\nante 5\n\nq\n"
    args = ("casino-holdem", "--players", "1", "--stack", "30", "--seed", "1")
    status, out = play(monkeypatch, capsys, typed, *args)
    assert status == 0
    assert "Casino Hold'em: 1 seat, 30 chips each." in out
    assert "Hand #1: you -10, stack 20; house +10 overall" in out
    assert out.count("✗ your stack of 20 does not cover your box") == 2  # then, and at Enter
    assert "Hand #2 of Casino Hold'em" in out and "You post an ante of 5" in out
