"""``pokerhouse advise`` and ``pokerhouse analyze`` for Casino Hold'em."""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest

from pokerhouse.analysis.casino_holdem import exact_analysis
from pokerhouse.cli import analyze, main


def test_advise_prints_both_values_and_the_best_action(capsys: Any) -> None:
    assert main(["advise", "casino-holdem", "As Kd", "Qh 7c 2d"]) == 0
    out = capsys.readouterr().out
    assert "call  -0.0787 antes" in out and "best  CALL" in out and "1,070,190" in out
    assert "AA Bonus on these cards lost" in out
    assert main(["advise", "casino-holdem", "As Kd", "Ac 7c 2d", "--bonus-pays", "common"]) == 0
    assert "won at the flop: pair of aces, 7:1" in capsys.readouterr().out


def test_advise_json_with_pay_table_and_cap(capsys: Any) -> None:
    argv = ["advise", "casino-holdem", "As Ks", "Qs Js Ts", "--json", "--max-payout", "10"]
    assert main([*argv, "--ante-pays", "200,20,10,3,2,1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["action"] == "call" and data["call_ev"] == 10.0
    assert data["ante_pays"].startswith("royal flush 200:1")
    assert data["ways"] == sum(data["outcomes"].values()) == 1_070_190


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (["advise", "casino-holdem", "As Ad", "As 7c 2d"], "duplicate_card"),
        (["advise", "razz", "As Ad", "Ks 7c 2d"], "no_advisor"),
        (["advise", "casino-holdem", "As Kd", "Qh 7c 2d", "--ante-pays", "1,2"], "bad_pay_table"),
        (["analyze", "teen-patti"], "no_analysis"),
        (["analyze", "casino-holdem", "--simulate", "1"], "bad_rounds"),
        (["analyze", "casino-holdem", "--bonus-pays", "lavish"], "bad_pay_table"),
        (["analyze", "casino-holdem", "--simulate", "9", "--seed", "-4"], "bad_seed"),
    ],
)
def test_bad_input_is_reported_with_its_code(argv: list[str], code: str, capsys: Any) -> None:
    assert main(argv) == 2
    assert f"[{code}]" in capsys.readouterr().err


def test_analyze_reports_both_bonus_tables(capsys: Any) -> None:
    assert main(["analyze", "casino-holdem", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["bonus"]["flat"]["exact"]["house_edge"] == "201/1547"
    assert data["bonus"]["common"]["exact"]["house_edge"] == "5809/92820"


def test_analyze_simulates_a_strategy(capsys: Any) -> None:
    argv = ["analyze", "casino-holdem", "--simulate", "20000", "--strategy", "always-call"]
    assert main([*argv, "--seed", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["simulation"]
    assert data["rounds"] == 20000 and data["call_rate"] == 1.0
    low, high = data["house_edge_interval"]
    assert low < data["house_edge"] < high


def test_analyze_exact_and_saved_strategy(monkeypatch: Any, capsys: Any, tmp_path: Any) -> None:
    # The full run takes a minute: the command is tested on one flop class.
    monkeypatch.setattr(
        analyze, "exact_analysis", functools.partial(exact_analysis, flop_class_ids=[7])
    )
    path = tmp_path / "best.npz"
    assert main(["analyze", "casino-holdem", "--exact", "--save-strategy", str(path)]) == 0
    out = capsys.readouterr().out
    assert "house edge" in out and "element of risk" in out and "dealer qualifies" in out
    assert path.exists()
    argv = ["analyze", "casino-holdem", "--exact", "--simulate", "2000", "--flop", "2h 3d 4c"]
    assert main(argv) == 0
    assert "Simulation: 2,000 rounds, strategy best" in capsys.readouterr().out
    argv = ["analyze", "casino-holdem", "--simulate", "2000", "--strategy", str(path)]
    assert main([*argv, "--flop", "2c 3h 4s", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["simulation"]["rounds"] == 2000
