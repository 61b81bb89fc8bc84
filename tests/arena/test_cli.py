"""``pokerhouse arena``: the ranking printed, JSON that parses, and bad input refused."""

from __future__ import annotations

import json

import pytest

from pokerhouse.cli import main

STATION = "tests.arena.sample_bots:CallingStation"


def test_json_ranks_every_bot(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "razz", "random", "smart", STATION, "--hands", "8", "--seed", "3", "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["game"], data["deals"], data["rotations"], data["hands"]) == ("razz", 8, 3, 24)
    assert [bot["spec"] for bot in data["bots"]] == ["random", "smart", STATION]
    assert [bot["name"] for bot in data["bots"]] == ["random", "smart", "calling-station"]
    for bot in data["bots"]:
        low, high = bot["ci95"]
        assert low <= bot["per_100"] <= high and bot["hands"] == 24
    assert sum(bot["net"] for bot in data["bots"]) == 0 and data["house"] == 0


def test_the_table_lists_the_bots_best_first(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "casino-holdem", "random", "smart", "--hands", "300", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "Casino Hold'em: 300 deals × 2 seatings = 600 hands" in out
    assert "Per 100 hands" in out and "95% interval" in out
    rows = [[cell.strip() for cell in line.split("│")[1:-1]] for line in out.splitlines()]
    rows = [row for row in rows if row]
    assert [row[1] for row in rows] == ["smart", "random", "house"]
    per_100 = [float(row[4]) for row in rows[:2]]
    assert per_100 == sorted(per_100, reverse=True)
    assert sum(int(row[3].replace(",", "")) for row in rows) == 0  # the bots' nets and the house's


def test_the_same_seed_prints_the_same_ranking(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "teen-patti", "random", "random", "random", "--hands", "20", "--seed", "5"]
    outputs = []
    for _ in range(2):
        assert main([*argv, "--json"]) == 0
        bots = json.loads(capsys.readouterr().out)["bots"]
        # The decisions' CPU is the machine's; everything else is the seed's.
        assert all(set(bot.pop("decision_cpu_ms")) == {"mean", "p99", "max"} for bot in bots)
        outputs.append(bots)
    assert outputs[0] == outputs[1]


@pytest.mark.parametrize(
    ("argv", "code", "words"),
    [
        (["poker", "random", "random"], "unknown_game", "unknown game 'poker'"),
        (["razz", "random"], "bot_count", "takes 2 to 8 bots, not 1"),
        (["razz", *["random"] * 9], "bot_count", "takes 2 to 8 bots, not 9"),
        (["casino-holdem", *["random"] * 8], "bot_count", "takes 2 to 7 bots, not 8"),
        (["3x4", "random", "random", "--hands", "0"], "bad_count", "at least 1, not 0"),
        (["3x4", "random", "random", "--hands", "-5"], "bad_count", "at least 1, not -5"),
        (["3x4", "random", "random", "--stack", "0"], "bad_stack", "at least 1 chip"),
        (["3x4", "random", "genius"], "unknown_bot", "unknown bot 'genius'"),
        (["3x4", "random", "nowhere_at_all:Bot"], "bot_not_importable", "nowhere_at_all"),
        (["3x4", "random", "tests.arena.sample_bots:Gone"], "bot_not_found", "has no Gone"),
        (["3x4", "random", "tests.arena.sample_bots:Nameless"], "not_a_bot", "has no name"),
    ],
)
def test_bad_input_is_refused_with_its_code(
    capsys: pytest.CaptureFixture[str], argv: list[str], code: str, words: str
) -> None:
    assert main(["arena", *argv, "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("pokerhouse: error: ") and words in captured.err
    assert captured.err.rstrip().endswith(f"[{code}]")


def test_a_count_that_is_not_a_number_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["arena", "razz", "random", "random", "--hands", "many"])
    assert exit_.value.code == 2
    assert "invalid int value: 'many'" in capsys.readouterr().err
