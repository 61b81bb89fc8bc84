"""``pokerhouse simulate``: bots at a table for many hands; results and conservation."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from pokerhouse.cli import main
from pokerhouse.cli.simulate import per_100, simulate


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["simulate", *args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize("game", ["3x4", "razz", "teen-patti", "casino-holdem"])
def test_simulate_json_reports_results_and_conserved_chips(
    capsys: pytest.CaptureFixture[str], game: str
) -> None:
    data = run_json(
        capsys, game, "--players", "6", "--hands", "150", "--seed", "1", "--bots", "random,smart"
    )
    assert data["hands"] == 150 and data["chips_conserved"] is True
    assert {"seconds", "hands_per_second", "seats"} <= set(data)
    seats = data["seats"]
    assert isinstance(seats, list) and len(seats) == 6
    assert [seat["bot"] for seat in seats] == ["random", "smart"] * 3
    for seat in seats:
        low, high = seat["ci95"]
        assert low <= seat["per_100"] <= high
        assert seat["hands"] == 150
    # What the seats won, the others (and the house) lost; rebuys are bought, not won.
    assert sum(seat["net"] for seat in seats) + data["house"] == 0
    assert (data["house"] != 0) == (game == "casino-holdem")


def test_ten_thousand_hands_of_the_fastest_game_conserve_chips(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Casino Hold'em: one decision per box, best play by table lookup.
    data = run_json(capsys, "casino-holdem", "--players", "6", "--hands", "10000", "--seed", "7")
    assert data["hands"] == 10000
    assert data["chips_conserved"] is True
    seats = data["seats"]
    assert isinstance(seats, list)
    assert sum(seat["hands"] for seat in seats) == 60000


def test_busted_bots_rebuy_and_the_rebuys_are_counted() -> None:
    result = simulate("3x4", ["random"] * 4, hands=300, stack=10, rng=random.Random(2))
    assert result.chips_conserved
    assert sum(seat.rebuys for seat in result.seats) > 0
    assert all(seat.hands == 300 for seat in result.seats)


def test_same_seed_same_results(capsys: pytest.CaptureFixture[str]) -> None:
    first = run_json(capsys, "razz", "--players", "4", "--hands", "40", "--seed", "9")
    second = run_json(capsys, "razz", "--players", "4", "--hands", "40", "--seed", "9")
    assert first["seats"] == second["seats"]


def test_the_summary_table_is_printed_without_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "3x4", "--players", "3", "--hands", "20", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "3x4 Poker: 20 hands" in out and "chips conserved: yes" in out
    assert "Per 100 hands" in out and "95% interval" in out
    rows = [line.split("│")[1:3] for line in out.splitlines() if "│" in line]
    assert [(seat.strip(), bot.strip()) for seat, bot in rows] == [
        ("1", "random"),
        ("2", "smart"),
        ("3", "random"),
    ]


def test_bad_bot_names_and_counts_are_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "3x4", "--bots", "genius", "--hands", "1"]) == 2
    assert "[unknown_bot]" in capsys.readouterr().err
    assert main(["simulate", "razz", "--players", "9", "--hands", "1"]) == 2
    assert "[player_count]" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("game", "stack", "message"),
    [
        ("razz", "0", "the stack must be at least 1 chip, not 0"),
        ("3x4", "-3", "the stack must be at least 1 chip, not -3"),
        ("casino-holdem", "2", "a box at the minimum ante of 1 needs 3 chips"),
    ],
)
def test_a_stack_too_small_to_play_is_an_error_that_names_it(
    capsys: pytest.CaptureFixture[str], game: str, stack: str, message: str
) -> None:
    assert main(["simulate", game, "--stack", stack, "--hands", "2", "--json"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.rstrip().endswith("[bad_stack]")


def test_per_100_interval_is_symmetric_around_the_mean() -> None:
    mean, (low, high) = per_100([3, -1, 4, -1, 5, -9, 2, 6])
    assert mean == pytest.approx(112.5)
    assert mean - low == pytest.approx(high - mean)
    assert per_100([]) == (0.0, (0.0, 0.0))


@pytest.mark.parametrize("game", ["3x4", "razz", "teen-patti", "casino-holdem"])
def test_saved_hands_replay_to_the_session_that_played_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game: str
) -> None:
    folder = tmp_path / "hands"
    data = run_json(
        capsys, game, "--players", "4", "--hands", "25", "--seed", "5", "--save", str(folder)
    )
    written = sorted(path.name for path in folder.iterdir())
    jsons = [name for name in written if name.endswith(".json")]
    assert jsons == [f"hand-{n:04d}.json" for n in range(1, 26)]
    assert [name for name in written if name.endswith(".phh")] == (
        [name.replace(".json", ".phh") for name in jsons] if game == "razz" else []
    )
    seats = data["seats"]
    assert isinstance(seats, list)
    per_name = {f"{seat['bot']}-{seat['seat'] + 1}": 0 for seat in seats}
    for name in written:
        assert main(["replay", str(folder / name), "--json"]) == 0
        replayed = json.loads(capsys.readouterr().out)
        assert replayed["is_over"] is True and replayed["game"] == game
        if name.endswith(".phh"):
            # PHH names the players as the table does, so every chip is traced to its seat.
            for player, net in zip(replayed["names"], replayed["net"], strict=True):
                per_name[player] += net
        assert main(["replay", str(folder / name)]) == 0
        assert "*** SUMMARY ***" in capsys.readouterr().out
    if game == "razz":
        assert per_name == {f"{seat['bot']}-{seat['seat'] + 1}": seat["net"] for seat in seats}


def test_save_refuses_a_folder_that_already_holds_hands(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = ["simulate", "razz", "--players", "2", "--hands", "2", "--seed", "1"]
    assert main([*argv, "--json", "--save", str(tmp_path)]) == 0
    capsys.readouterr()
    before = {path: path.read_text() for path in tmp_path.iterdir()}
    assert main([*argv, "--save", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "already holds hand histories (hand-0001.json, ...)" in captured.err
    assert captured.err.rstrip().endswith("[history_exists]")
    assert {path: path.read_text() for path in tmp_path.iterdir()} == before
    a_file = tmp_path / "hand-0001.json"
    assert main([*argv, "--save", str(a_file)]) == 2
    assert "not a folder [unwritable]" in capsys.readouterr().err


def test_bad_input_makes_no_folder(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = tmp_path / "hands"
    assert main(["simulate", "razz", "--hands", "0", "--save", str(folder)]) == 2
    assert "[bad_count]" in capsys.readouterr().err
    assert not folder.exists()
