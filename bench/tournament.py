"""Tournament benchmark: a whole multi-table tournament of bots, against the cash path.

    python bench/tournament.py                 # 1,000 entrants in each game
    python bench/tournament.py --quick         # 200 entrants
    python bench/tournament.py --entrants 5000 --games razz

For each game, ``pokerhouse tournament simulate GAME --entrants N
--structure regular`` is run in this process (one core): random bots at
tables of the game's most seats (3x4 and Teen Patti 10, Razz 8), the
director moving players, breaking tables and dealing hand for hand on a
simulated clock. Beside it, in the same run, the cash-game table path
(``pokerhouse simulate GAME --bots random``: one table of as many random
bots with 100 antes each, busted seats topped up) deals as many hands.
Hands differ in length (a tournament's short stacks and rising antes end
them sooner), so the two are compared per decision: the printed ratio is
what the director and its moving tables cost on top of dealing. The goal
(the issue's): a 1,000-entrant tournament within 5 minutes here. Times are
CPU seconds of this process.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import time

from rich.console import Console
from rich.table import Table

from pokerhouse.cli.simulate import simulate as cash_simulate
from pokerhouse.games import get_game
from pokerhouse.table import HandResult
from pokerhouse.tournament import TournamentSpec, built_in, simulate

GOAL_SECONDS = 300.0


def tournament(game: str, entrants: int, seed: int) -> tuple[float, int, int, dict[str, object]]:
    """CPU seconds, hands, decisions, and the result's facts for one tournament."""
    spec = TournamentSpec("Bench", game, "scheduled", built_in("regular", game), buy_in=100)
    started = time.process_time()
    result = simulate(spec, entrants=entrants, seed=seed)
    seconds = time.process_time() - started
    assert result.chips_conserved
    facts = result.as_dict()
    facts.pop("standings")
    return seconds, result.hands, result.actions, facts


def cash(game: str, hands: int, seed: int) -> tuple[float, int]:
    """CPU seconds and decisions for the cash-game table path to deal ``hands`` hands."""
    players = get_game(game).max_players
    decisions = 0

    def count(summary: HandResult) -> None:
        nonlocal decisions
        decisions += len(summary.hand.actions)

    started = time.process_time()
    cash_simulate(
        game,
        ["random"] * players,
        hands=hands,
        stack=100 * get_game(game).spec().ante,
        rng=random.Random(seed),
        on_finished=count,
    )
    return time.process_time() - started, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=1000)
    parser.add_argument("--games", default="3x4,razz,teen-patti")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="200 entrants")
    parser.add_argument("--json", action="store_true", help="one JSON line per game too")
    args = parser.parse_args()
    entrants = 200 if args.quick else args.entrants
    console = Console(highlight=False, width=150)
    console.print(
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} cores, {entrants} entrants, structure regular, random bots"
    )
    grid = Table(title="Tournament against the cash-game table path (CPU seconds, one core)")
    for column in (
        "game",
        "hands",
        "moves",
        "tables broken",
        "levels",
        "seconds",
        "hands/s",
        "decisions/s",
        "cash hands/s",
        "cash decisions/s",
        "per decision",
        "goal 300 s",
    ):
        grid.add_column(column, justify="left" if column == "game" else "right")
    for game in [name.strip() for name in args.games.split(",") if name.strip()]:
        seconds, hands, decisions, facts = tournament(game, entrants, args.seed)
        cash_seconds, cash_decisions = cash(game, hands, args.seed)
        rate, cash_rate = hands / seconds, hands / cash_seconds
        per, cash_per = decisions / seconds, cash_decisions / cash_seconds
        grid.add_row(
            game,
            f"{hands:,}",
            f"{facts['moves']:,}",
            str(facts["tables_broken"]),
            str(facts["levels"]),
            f"{seconds:.1f}",
            f"{rate:,.0f}",
            f"{per:,.0f}",
            f"{cash_rate:,.0f}",
            f"{cash_per:,.0f}",
            f"{per / cash_per:.2f}x",
            "met" if seconds <= GOAL_SECONDS else "MISSED",
        )
        if args.json:
            print(
                json.dumps(
                    {
                        "game": game,
                        "entrants": entrants,
                        "seconds": round(seconds, 2),
                        "hands_per_second": round(rate, 1),
                        "decisions_per_second": round(per, 1),
                        "cash_hands_per_second": round(cash_rate, 1),
                        "cash_decisions_per_second": round(cash_per, 1),
                        **facts,
                    }
                )
            )
    console.print(grid)


if __name__ == "__main__":
    main()
