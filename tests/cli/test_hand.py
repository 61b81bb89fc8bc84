"""``pokerhouse hand``: the best hand in some cards, as text or JSON."""

from __future__ import annotations

import json

import pytest

from pokerhouse.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["hand", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_high_hand_is_the_default(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "As Ks Qs Js Ts 2c 3d")
    assert status == 0
    assert out.splitlines() == ["Royal flush", "As Ks Qs Js Ts"]


@pytest.mark.parametrize("game", ["high", "3x4", "casino-holdem"])
def test_high_hand_games(capsys: pytest.CaptureFixture[str], game: str) -> None:
    status, out, _ = run(capsys, "Kd Kh Ks 4c 4d 9s 2h", "--game", game)
    assert status == 0
    assert out.splitlines() == ["Full house, kings over fours", "Kd Kh Ks 4c 4d"]


def test_a_high_card_hand_is_named_with_its_kickers(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "As Kd 9c 7h 4s 3c 2d")
    assert status == 0
    assert out.splitlines() == ["High card, ace, king, nine, seven, four", "As Kd 9c 7h 4s"]


def test_razz_uses_the_a5_low(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "Kd 8c 7h 4s 3c 2d Kh", "--game", "razz")
    assert status == 0
    assert out.splitlines() == ["8-7-4-3-2 low", "8c 7h 4s 3c 2d"]


def test_teen_patti(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "3h Ah 2h", "--game", "teen-patti")
    assert status == 0
    assert out.splitlines() == ["Pure sequence, A-2-3", "Ah 2h 3h"]


def test_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "Ac Ad 9h 9s 4c 4d 2h", "--json")
    assert status == 0
    assert json.loads(out) == {
        "game": "high",
        "cards": ["Ac", "Ad", "9h", "9s", "4c", "4d", "2h"],
        "best": ["Ac", "Ad", "9h", "9s", "4c"],
        "category": "two_pair",
        "description": "Two pair, aces and nines",
        "value": json.loads(out)["value"],
    }
    assert isinstance(json.loads(out)["value"], int)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["As Ks"], "expected 5, 6 or 7 cards, got 2 [card_count]"),
        (["As As Ks Qs Js"], "duplicate card As [duplicate_card]"),
        (["As Ks Qs Js Xs"], "unknown rank 'X'"),
        (["As Ks Qs Js Tq"], "unknown suit 'q'"),
        (["AsKsQsJsTs9"], "cannot read '9'"),
        (["As Ks Qs Js", "--game", "teen-patti"], "expected 3 cards, got 4"),
    ],
)
def test_bad_cards_exit_with_status_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    status, out, err = run(capsys, *args)
    assert status == 2
    assert out == ""
    assert err.startswith("pokerhouse: error: ")
    assert message in err


def test_unknown_game_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["hand", "As Ks Qs Js Ts", "--game", "omaha"])
    assert caught.value.code == 2
    assert "invalid choice" in capsys.readouterr().err
