"""``pokerhouse analyze casino-holdem``: exact house edge, AA Bonus returns, simulation.

- always: the AA Bonus's exact return, for ``--bonus-pays`` (default: the
  seed's flat 7:1 and the common table);
- ``--exact``: best play's exact house edge, call rate, element of risk and
  the dealer's qualification rate over all 25,989,600 deals (a minute or two);
- ``--simulate N``: N simulated rounds of a strategy (``--strategy best``,
  the default: best play, read from the bundled best-play table when the
  rules are the ones it was computed for (the default Ante pay table and no
  max payout that can cap a win), else from the exact analysis;
  ``always-call``; or a table saved with ``--save-strategy``), with 95%
  confidence intervals; ``--hole`` and ``--flop`` fix those cards.

``--strategy``, ``--seed``, ``--hole`` and ``--flop`` only mean something
with ``--simulate``, and are refused without it. ``--json`` prints one JSON
document; progress bars go to the terminal only.

>>> from pokerhouse.cli import main
>>> main(["analyze", "casino-holdem", "--bonus-pays", "common"])
AA Bonus (common: royal flush 100:1, straight flush 50:1, four of a kind 40:1, ...)
  wins 10.8759% of hands; return -6.2583% (house edge 6.2583%, exactly 5809/92820)
--exact adds best play's exact house edge over all 25,989,600 deals (about a minute);
--simulate N plays N rounds (see --help).
0
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from pokerhouse.analysis.casino_holdem import (
    ExactResult,
    SimulatedEdge,
    Strategy,
    StrategyTable,
    always_call,
    bonus_return,
    exact_analysis,
    simulate,
)
from pokerhouse.analysis.casino_holdem.payouts import Payouts
from pokerhouse.bots.casino_holdem import best_play_table, largest_win
from pokerhouse.errors import InvalidSpec
from pokerhouse.games import get_game
from pokerhouse.games.casino_holdem.paytables import BONUS_TABLE_NAMES, AntePays, BonusPays

#: ``--strategy`` names for calling every hand.
ALWAYS_CALL = ("always-call", "always_call", "call")

#: The options that only shape a simulation.
SIMULATION_OPTIONS = ("strategy", "seed", "hole", "flop")

#: The options that only shape the Ante and Call figures (exact or simulated).
GAME_OPTIONS = ("ante_pays", "max_payout")


def register(subparsers: Any) -> None:
    """Add ``analyze`` to the command line."""
    parser = subparsers.add_parser(
        "analyze",
        help="exact house edge, bonus returns and simulation (Casino Hold'em)",
        description="Exact and simulated figures for Casino Hold'em's bets.",
    )
    parser.add_argument("game", help="casino-holdem")
    parser.add_argument(
        "--exact", action="store_true", help="best play's exact figures over every deal"
    )
    parser.add_argument("--simulate", type=int, default=None, metavar="N", help="simulate N rounds")
    parser.add_argument(
        "--strategy",
        default=None,
        help="for --simulate: best (the default), always-call, or a table saved with "
        "--save-strategy",
    )
    parser.add_argument(
        "--save-strategy", default=None, metavar="FILE", help="save best play to FILE (.npz)"
    )
    parser.add_argument(
        "--ante-pays", default=None, help='Ante pay table, royal flush first: "100,20,10,3,2,1"'
    )
    parser.add_argument(
        "--bonus-pays",
        default=None,
        help='AA Bonus table: "flat", "common" or odds "100,50,40,30,20,7,7,7,7"',
    )
    parser.add_argument(
        "--max-payout",
        default=None,
        help="cap on a box's winnings on Ante plus Call, in antes (default: none, as published)",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed for --simulate")
    parser.add_argument("--hole", default=None, help="for --simulate: fix the box's two cards")
    parser.add_argument("--flop", default=None, help="for --simulate: fix the flop")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.set_defaults(handler=run)


@contextmanager
def _progress(label: str, show: bool) -> Iterator[Callable[[int, int], None]]:
    """A rich progress bar on the terminal (stderr), as a ``progress(done, total)`` callback."""
    console = Console(stderr=True)
    if not show or not console.is_terminal:
        yield lambda done, total: None
        return
    bar = Progress(
        TextColumn(f"[bold]{label}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )
    with bar:
        task = bar.add_task(label, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


def _pct(value: Any, digits: int = 4) -> str:
    return f"{100 * float(value):.{digits}f}%"


def run(args: argparse.Namespace) -> int:
    """Run the chosen analyses and print them."""
    info = get_game(args.game)
    if info.name != "casino-holdem":
        raise InvalidSpec("no_analysis", f"analysis is for Casino Hold'em, not {info.title}")
    if args.simulate is None:
        _refuse_unused(args, SIMULATION_OPTIONS, "a simulation: add --simulate N (N rounds)")
        if not (args.exact or args.save_strategy):
            _refuse_unused(
                args, GAME_OPTIONS, "the Ante and Call figures: add --exact or --simulate N"
            )
    elif args.simulate < 2:
        raise InvalidSpec("bad_rounds", f"--simulate needs at least 2 rounds, not {args.simulate}")
    if args.seed is not None and args.seed < 0:
        # numpy's generator takes no negative seed; say so before any work is done.
        raise InvalidSpec("bad_seed", f"--seed must be a whole number >= 0, not {args.seed}")
    ante_pays = AntePays.parse(args.ante_pays) if args.ante_pays else AntePays()
    bonus_tables = (
        {args.bonus_pays: BonusPays.coerce(args.bonus_pays)}
        if args.bonus_pays
        else {name: BonusPays.named(name) for name in BONUS_TABLE_NAMES}
    )
    report: dict[str, Any] = {"bonus": {}}
    lines: list[str] = []
    for name, table in bonus_tables.items():
        result = bonus_return(table)
        report["bonus"][name] = result.to_dict()
        flat = table.flat_odds
        shown = (
            f"{flat}:1 on a pair of aces or better"
            if flat is not None
            else ", ".join(table.describe().split(", ")[:3]) + ", ..."
        )
        lines.append(f"AA Bonus ({name}: {shown})")
        lines.append(
            f"  wins {_pct(result.win_rate)} of hands; return {_pct(result.ev)} "
            f"(house edge {_pct(result.house_edge)}, exactly {result.house_edge})"
        )
    exact: ExactResult | None = None
    strategy_name = args.strategy if args.strategy is not None else "best"
    bundled: Strategy | None = None
    if (
        args.simulate is not None
        and strategy_name == "best"
        and not (args.exact or args.save_strategy)
    ):
        bundled = _bundled_best_play(ante_pays, args.max_payout)
    needs_exact = (
        args.exact or args.save_strategy or (strategy_name == "best" and args.simulate is not None)
    ) and bundled is None
    if needs_exact:
        with _progress("exact: boards", not args.json) as progress:
            exact = exact_analysis(ante_pays, max_payout=args.max_payout, progress=progress)
        report["exact"] = exact.to_dict()
        lines += _exact_lines(exact)
        if args.save_strategy:
            exact.strategy.save(args.save_strategy)
            lines.append(f"  best play saved to {args.save_strategy}")
    if args.simulate is not None:
        strategy = bundled if bundled is not None else _strategy(strategy_name, exact)
        with _progress("simulate: rounds", not args.json) as progress:
            sim = simulate(
                args.simulate,
                strategy,
                ante_pays=ante_pays,
                bonus_pays=next(iter(bonus_tables.values())),
                max_payout=args.max_payout,
                seed=args.seed,
                hole=args.hole,
                flop=args.flop,
                progress=progress,
            )
        source = {}
        if strategy_name == "best":
            source = {"best_play": "bundled table" if bundled is not None else "exact analysis"}
        report["simulation"] = {"strategy": strategy_name, **source, **sim.to_dict()}
        # A fixed hole or flop is a different game from the exact figures'.
        whole_game = exact if args.hole is None and args.flop is None else None
        lines += _simulation_lines(sim, strategy_name, whole_game)
        if bundled is not None:
            lines.append(
                "  best play from the bundled table (the exact analysis's, for these rules); "
                "--exact recomputes it"
            )
    if not needs_exact and args.simulate is None:
        lines.append(
            "--exact adds best play's exact house edge over all 25,989,600 deals "
            "(about a minute);\n--simulate N plays N rounds (see --help)."
        )
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print("\n".join(lines))
    return 0


def _refuse_unused(args: argparse.Namespace, names: tuple[str, ...], purpose: str) -> None:
    """Refuse options given for an analysis that will not run, rather than ignore them."""
    given = [f"--{name.replace('_', '-')}" for name in names if getattr(args, name) is not None]
    if given:
        verb = "is" if len(given) == 1 else "are"
        raise InvalidSpec("unused_option", f"{' and '.join(given)} {verb} for {purpose}")


def _bundled_best_play(ante_pays: AntePays, max_payout: str | None) -> Strategy | None:
    """The shipped best-play table, if it holds for these rules (else ``None``).

    It was computed for the default Ante pay table with no cap; a cap of at
    least the largest win (a royal flush and the call) caps nothing.

    >>> _bundled_best_play(AntePays(), None) is not None
    True
    >>> _bundled_best_play(AntePays(), "50") is None  # a royal flush would be capped
    True
    >>> _bundled_best_play(AntePays.parse("200,20,10,3,2,1"), None) is None
    True
    """
    cap = Payouts.of(ante_pays, max_payout).max_payout
    if ante_pays != AntePays() or (cap is not None and cap < largest_win(ante_pays)):
        return None
    return best_play_table()


def _strategy(name: str, exact: ExactResult | None) -> Strategy:
    if name == "best":
        assert exact is not None
        return exact.strategy
    if name in ALWAYS_CALL:
        return always_call
    if not Path(name).exists():
        raise InvalidSpec(
            "unknown_strategy",
            f"no strategy {name!r}: best, always-call, or a file saved with --save-strategy",
        )
    return StrategyTable.load(name)


def _exact_lines(exact: ExactResult) -> list[str]:
    outcomes = ", ".join(
        f"{name.replace('_', ' ')} {_pct(share, 2)}" for name, share in exact.outcomes.items()
    )
    cap = "none" if exact.max_payout is None else f"{exact.max_payout} antes"
    return [
        f"Ante and Call, best play, exact over {exact.deals:,} deals x 1,070,190 "
        f"({exact.seconds:.0f} s)",
        f"  ante pays: {exact.ante_pays.describe()}; max payout: {cap}",
        f"  house edge        {_pct(exact.house_edge)} of the ante (exactly {exact.house_edge})",
        f"  best play calls   {_pct(exact.call_rate, 3)} of hands",
        f"  element of risk   {_pct(exact.element_of_risk)} "
        f"(average wager {float(exact.average_wager):.4f} antes)",
        f"  dealer qualifies  {_pct(exact.dealer_qualifies, 3)} of deals",
        f"  always calling    house edge {_pct(-exact.always_call_ev)}",
        f"  outcomes: {outcomes}",
    ]


def _simulation_lines(sim: SimulatedEdge, strategy: str, exact: ExactResult | None) -> list[str]:
    low, high = sim.house_edge.interval()
    bonus_low, bonus_high = sim.bonus.interval()
    lines = [
        f"Simulation: {sim.rounds:,} rounds, strategy {strategy}, seed {sim.seed}",
        f"  house edge        {_pct(sim.house_edge.mean)} "
        f"(95% interval {_pct(low)} to {_pct(high)})",
        f"  calls             {_pct(sim.call_rate, 3)}; dealer qualifies "
        f"{_pct(sim.dealer_qualifies, 3)}",
        f"  AA Bonus return   {_pct(sim.bonus.mean)} "
        f"(95% interval {_pct(bonus_low)} to {_pct(bonus_high)})",
    ]
    if exact is not None and strategy == "best":
        verdict = "covers" if sim.house_edge.covers(exact.house_edge) else "MISSES"
        lines.append(f"  the interval {verdict} the exact {_pct(exact.house_edge)}")
    return lines
