"""``pokerhouse tournament``: a whole tournament of bots from the command line."""

from __future__ import annotations

import json

import pytest

from pokerhouse.cli import main


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["tournament", *args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize("game", ["3x4", "razz", "teen-patti"])
def test_a_multi_table_tournament_runs_to_its_finish(
    capsys: pytest.CaptureFixture[str], game: str
) -> None:
    data = run_json(
        capsys, "simulate", game, "--entrants", "45", "--structure", "turbo", "--seed", "3"
    )
    standings = data["standings"]
    assert isinstance(standings, list) and len(standings) == 45
    assert data["entrants"] == 45 and data["pool"] == 4500 and data["chips_conserved"] is True
    assert sum(s["prize"] for s in standings) == 4500
    # Above 40 entrants the top 15% are paid (6 here), first place a quarter plus the odd chips.
    assert [s["place"] for s in standings if s["prize"]] == [1, 2, 3, 4, 5, 6]
    assert standings[0]["prize"] >= 4500 // 4
    assert all(s["prize"] > 100 for s in standings if s["prize"])
    assert isinstance(data["tables_broken"], int) and data["tables_broken"] >= 4
    assert isinstance(data["hands"], int) and data["hands"] > 0 and data["moves"] >= 0


def test_the_same_seed_plays_the_same_tournament(capsys: pytest.CaptureFixture[str]) -> None:
    first = run_json(capsys, "simulate", "razz", "--entrants", "8", "--seed", "5")
    second = run_json(capsys, "simulate", "razz", "--entrants", "8", "--seed", "5")
    for data in (first, second):
        data.pop("seconds"), data.pop("hands_per_second")
    assert first == second and first["name"] == "Razz sit-and-go"


def test_the_table_output_names_the_winner(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "simulate", "teen-patti", "--entrants", "6", "--seed", "2")
    standings = data["standings"]
    assert isinstance(standings, list)
    assert main(["tournament", "simulate", "teen-patti", "--entrants", "6", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "6 entrants, pool 600" in out and "chips conserved: yes" in out and "hands/s" in out
    assert f"│     1 │ {standings[0]['player']}" in out


def test_a_structure_lists_its_levels(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "structure", "razz", "regular")
    levels = data["levels"]
    assert isinstance(levels, list)
    assert levels[0] == {"ante": 2, "bring_in": 3, "small_bet": 10, "big_bet": 20}
    assert data["starting_stack"] == 1000 and data["level_seconds"] == 600


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["simulate", "casino-holdem", "--entrants", "6"], "bad_tournament"),
        (["simulate", "razz", "--entrants", "1"], "bad_tournament"),
        (["simulate", "razz", "--entrants", "9", "--format", "sit-and-go"], "bad_tournament"),
        (["simulate", "razz", "--entrants", "20", "--structure", "slow"], "unknown_structure"),
        (["simulate", "razz", "--entrants", "20", "--bots", "nobody"], "unknown_bot"),
        (["simulate", "razz", "--entrants", "20", "--buy-in", "-5"], "bad_tournament"),
        (["structure", "razz", "weekly"], "unknown_structure"),
    ],
)
def test_bad_input_is_refused_with_its_code(
    capsys: pytest.CaptureFixture[str], args: list[str], code: str
) -> None:
    assert main(["tournament", *args]) == 2
    assert f"[{code}]" in capsys.readouterr().err
