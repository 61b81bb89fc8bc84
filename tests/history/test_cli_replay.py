"""``pokerhouse replay FILE``: JSON and PHH files, text and JSON output, clear errors."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from pokerhouse.cards import Card
from pokerhouse.cli import main
from pokerhouse.games import new_hand
from pokerhouse.history import to_json
from tests.helpers import allowed_cards, play_out
from tests.history.test_wsop_razz import LOCAL

HAND_85 = LOCAL / "wsop-2023-43-5-85-razz.phh"


def test_replay_phh_prints_the_hand_as_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(HAND_85)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Razz: ante 100,000, bring-in 100,000")
    # The file's players are named in every line, and their seats in the list of seats.
    assert "Seat 1: Talal Shakerchi (2,650,000 in chips)" in out
    assert "Brian Rast wins the main pot (5,300,000) with 8-7-4-3-2 low" in out
    assert "Talal Shakerchi: 2,650,000 -> 0 (-2,650,000)" in out


def test_replay_json_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(HAND_85), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["finishing_stacks"] == [0, 29_700_000]
    assert data["game"] == "razz" and data["format"] == "phh" and data["players"] == 2
    assert data["net"] == [-2_650_000, 2_650_000]
    assert data["names"] == ["Talal Shakerchi", "Brian Rast"]


def test_replay_json_history_by_content_and_for_one_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hand = new_hand("3x4", [100, 100, 100], seed=7)
    play_out(hand, random.Random(7))
    path = tmp_path / "hand.txt"  # no telling extension: read by content
    path.write_text(to_json(hand))
    assert main(["replay", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["format"] == "json" and data["finishing_stacks"] == list(hand.stacks)
    assert data["names"] is None
    # Seats count from 1, as the printout numbers them.
    assert main(["replay", str(path), "--seat", "2"]) == 0
    out = capsys.readouterr().out
    assert "View: Seat 2's" in out
    named = {Card.parse(token) for token in re.findall(r"\b[2-9TJQKA][cdhs]\b", out)}
    assert named <= allowed_cards(hand, 1)


def test_replay_errors_name_the_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.phh"
    bad.write_text(HAND_85.read_text().replace("'p1 cc', 'd dh p1 Ad'", "'p1 f', 'd dh p1 Ad'"))
    assert main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pokerhouse: error: ")
    assert "[" in err and err.rstrip().endswith("]")
    missing = tmp_path / "nothing.json"
    assert main(["replay", str(missing)]) == 2
    assert "cannot read" in capsys.readouterr().err
    for seat in ("0", "3"):
        assert main(["replay", str(HAND_85), "--seat", seat]) == 2
        err = capsys.readouterr().err
        assert f"seat {seat} is not in this hand (seats 1 to 2) [bad_seat]" in err


def test_replay_seat_numbers_are_the_printed_ones(capsys: pytest.CaptureFixture[str]) -> None:
    for seat, name in (("1", "Talal Shakerchi"), ("2", "Brian Rast")):
        assert main(["replay", str(HAND_85), "--seat", seat]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert lines[1] == f"View: {name}'s (Seat {seat})"
        assert f"Seat {seat}: {name} (" in lines[int(seat) + 1]
