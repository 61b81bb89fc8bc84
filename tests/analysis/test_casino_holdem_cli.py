"""``pokerhouse advise`` and ``pokerhouse analyze`` for Casino Hold'em."""

from __future__ import annotations

import functools
import json
import sys
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


def _no_exact_analysis(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("the exact analysis should not run")


def test_simulating_best_play_reads_the_bundled_table(monkeypatch: Any, capsys: Any) -> None:
    monkeypatch.setattr(analyze, "exact_analysis", _no_exact_analysis)
    argv = ["analyze", "casino-holdem", "--simulate", "20000", "--seed", "3"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Simulation: 20,000 rounds, strategy best" in out
    assert "best play from the bundled table" in out
    assert main([*argv, "--json", "--max-payout", "102"]) == 0  # a cap that caps nothing
    data = json.loads(capsys.readouterr().out)
    assert "exact" not in data
    assert data["simulation"]["best_play"] == "bundled table"
    assert 0.80 < data["simulation"]["call_rate"] < 0.84


def test_other_rules_still_take_best_play_from_the_exact_analysis(
    monkeypatch: Any, capsys: Any
) -> None:
    calls: list[object] = []

    def one_flop_class(*args: Any, **kwargs: Any) -> Any:
        calls.append(kwargs.get("max_payout"))
        return exact_analysis(*args, flop_class_ids=[7], **kwargs)

    monkeypatch.setattr(analyze, "exact_analysis", one_flop_class)
    argv = ["analyze", "casino-holdem", "--simulate", "2000", "--flop", "2h 3d 4c"]
    assert main([*argv, "--max-payout", "50", "--json"]) == 0  # a royal flush would be capped
    assert calls == ["50"]
    assert json.loads(capsys.readouterr().out)["simulation"]["best_play"] == "exact analysis"


def test_analyze_with_no_options_says_what_more_it_can_do(capsys: Any) -> None:
    assert main(["analyze", "casino-holdem"]) == 0
    out = capsys.readouterr().out
    assert "--exact adds best play's exact house edge" in out and "--simulate N" in out
    assert main(["analyze", "casino-holdem", "--json"]) == 0
    assert "--exact" not in capsys.readouterr().out


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--hole", "As Kd"], "--hole is for a simulation: add --simulate N"),
        (["--flop", "2c 3c 4c", "--seed", "1"], "--seed and --flop are for a simulation"),
        (["--strategy", "always-call"], "--strategy is for a simulation"),
        (["--ante-pays", "200,20,10,3,2,1"], "--ante-pays is for the Ante and Call figures"),
        (["--max-payout", "50"], "add --exact or --simulate N"),
    ],
)
def test_options_that_would_do_nothing_are_refused(
    options: list[str], message: str, capsys: Any
) -> None:
    assert main(["analyze", "casino-holdem", *options]) == 2
    err = capsys.readouterr().err
    assert message in err and err.rstrip().endswith("[unused_option]")


def test_a_strategy_that_is_no_table_is_refused_in_our_words(capsys: Any, tmp_path: Any) -> None:
    argv = ["analyze", "casino-holdem", "--simulate", "100", "--strategy"]
    not_a_table = tmp_path / "notes.txt"
    not_a_table.write_text("call with any ace\n")
    for path in (sys.executable, str(not_a_table)):  # a program, a text file
        assert main([*argv, path]) == 2
        err = capsys.readouterr().err
        assert "is not a Casino Hold'em strategy table" in err and "[bad_strategy_file]" in err
        assert "pickle" not in err
    assert main([*argv, "bset"]) == 2
    assert "no strategy 'bset': best, always-call" in capsys.readouterr().err
