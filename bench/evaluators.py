"""Hand evaluator benchmarks: pokerhouse against named peers, in one run.

    python bench/evaluators.py           # the full run (a few minutes)
    python bench/evaluators.py --quick   # a short run

Every evaluator scores the same random hands. Peers' card objects are built
before the clock starts; each timed loop calls one evaluator once per hand.
The contenders of a comparison run in interleaved rounds and each keeps its
best round, so a busy machine slows them all alike. Printed: evaluations per
second, and pokerhouse's speed as a multiple of each peer's. Peers missing
from the environment are skipped (install the ``bench`` extra).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from rich.console import Console
from rich.table import Table

from pokerhouse import evaluate
from pokerhouse.cards import FULL_DECK, format_cards
from pokerhouse.evaluate import tables


@dataclass
class Contender:
    """One evaluator in a comparison: a loop over ``count`` hands."""

    name: str
    loop: Callable[[], object]
    count: int
    best: float = float("inf")

    @property
    def rate(self) -> float:
        return self.count / self.best


def race(contenders: list[Contender], rounds: int) -> list[Contender]:
    """Run every contender once per round, in turn; keep each one's best time."""
    for _ in range(rounds):
        for contender in contenders:
            started = time.perf_counter()
            contender.loop()
            contender.best = min(contender.best, time.perf_counter() - started)
    return contenders


def available(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def loop_over(function: Callable[..., object], hands: list[object]) -> Callable[[], None]:
    """A loop calling ``function(hand)`` for every hand."""

    def run() -> None:
        for hand in hands:
            function(hand)

    return run


def high_contenders(hands: list[tuple[int, ...]], slow: int) -> list[Contender]:
    """Seven-card high hands, one evaluation per call."""
    texts = [format_cards(hand, "") for hand in hands]
    n = len(hands)
    evaluate.high_value(hands[0])  # build the tables outside the clock
    card_hands: list[object] = [tuple(FULL_DECK[c] for c in hand) for hand in hands]
    contenders = [
        Contender(
            "pokerhouse high_value (int tuples)", loop_over(evaluate.high_value, [*hands]), n
        ),
        Contender(
            "pokerhouse high_value (Card tuples)", loop_over(evaluate.high_value, card_hands), n
        ),
    ]
    if available("phevaluator"):
        from phevaluator import evaluate_cards

        def phevaluator() -> None:
            for hand in hands:
                evaluate_cards(*hand)

        contenders.append(Contender("phevaluator evaluate_cards", phevaluator, n))
    if available("eval7"):
        import eval7

        e7_hands: list[object] = [
            [eval7.Card(text[i : i + 2]) for i in range(0, 14, 2)] for text in texts
        ]
        contenders.append(Contender("eval7 evaluate", loop_over(eval7.evaluate, e7_hands), n))
    if available("treys"):
        from treys import Card as TreysCard
        from treys import Evaluator

        evaluator = Evaluator()
        t_hands = [
            (
                [TreysCard.new(t[i : i + 2]) for i in (0, 2)],
                [TreysCard.new(t[i : i + 2]) for i in range(4, 14, 2)],
            )
            for t in texts[:slow]
        ]

        def treys() -> None:
            for hole, board in t_hands:
                evaluator.evaluate(hole, board)

        contenders.append(Contender("treys Evaluator().evaluate", treys, len(t_hands)))
    if available("pokerkit"):
        from pokerkit import Card as PokerKitCard
        from pokerkit import StandardHighHand

        pk_hands: list[object] = [list(PokerKitCard.parse(t)) for t in texts[: slow // 4]]
        contenders.append(
            Contender(
                "PokerKit StandardHighHand",
                loop_over(StandardHighHand.from_game, pk_hands),
                len(pk_hands),
            )
        )
    return contenders


def low_contenders(hands: list[tuple[int, ...]], slow: int) -> list[Contender]:
    """Seven-card A-5 lows, one evaluation per call."""
    evaluate.low_value(hands[0])
    contenders = [
        Contender("pokerhouse low_value", loop_over(evaluate.low_value, [*hands]), len(hands))
    ]
    if available("pokerkit"):
        from pokerkit import Card as PokerKitCard
        from pokerkit import RegularLowHand

        pk_hands: list[object] = [
            list(PokerKitCard.parse(format_cards(h, ""))) for h in hands[: slow // 4]
        ]
        contenders.append(
            Contender(
                "PokerKit RegularLowHand",
                loop_over(RegularLowHand.from_game, pk_hands),
                len(pk_hands),
            )
        )
    return contenders


def teen_patti_contenders(count: int) -> list[Contender]:
    """Three-card Teen Patti hands, one evaluation per call (no peer)."""
    rng = random.Random(3)
    hands: list[object] = [tuple(rng.sample(range(52), 3)) for _ in range(count)]
    evaluate.teen_patti_value((0, 1, 2))
    return [
        Contender("pokerhouse teen_patti_value", loop_over(evaluate.teen_patti_value, hands), count)
    ]


def batch_contenders(count: int) -> list[Contender]:
    """Seven-card hands through the numpy batch evaluators."""
    rng = np.random.default_rng(7)
    array = np.argsort(rng.random((count, 52)), axis=1)[:, :7].astype(np.int64)
    evaluate.high_batch(array[:10])
    evaluate.low_batch(array[:10])
    return [
        Contender("pokerhouse high_batch", lambda: evaluate.high_batch(array), count),
        Contender(
            "pokerhouse high_batch (check=False)",
            lambda: evaluate.high_batch(array, check=False),
            count,
        ),
        Contender("pokerhouse low_batch", lambda: evaluate.low_batch(array), count),
    ]


def enumeration(rounds: int) -> list[tuple[str, float]]:
    """Seconds to build the tables, and to count all 133,784,560 seven-card hands."""
    results = []
    started = time.perf_counter()
    tables.ensure_high(7)
    tables.ensure_low(7)
    built = time.perf_counter() - started
    if built > 0.01:  # zero when an earlier benchmark built them
        results.append(("build the 7-card high and low tables", built))
    contenders = race(
        [
            Contender(
                "all 7-card hands by high category", lambda: evaluate.high_category_counts(7), 1
            ),
            Contender(
                "all 7-card hands by A-5 low category", lambda: evaluate.low_category_counts(7), 1
            ),
        ],
        rounds,
    )
    results += [(contender.name, contender.best) for contender in contenders]
    return results


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return (
        f"{cpu}, {os.cpu_count()} cores; Python {platform.python_version()} "
        f"({platform.python_implementation()}), numpy {np.__version__}, {platform.system()}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="fewer hands and rounds")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    count = 100_000 if args.quick else 300_000
    slow = 4_000 if args.quick else 20_000
    rounds = 3 if args.quick else 7
    rng = random.Random(args.seed)
    hands = [tuple(rng.sample(range(52), 7)) for _ in range(count)]

    # Build every table before any clock starts.
    started = time.perf_counter()
    tables.ensure_high(7)
    tables.ensure_low(7)
    tables.ensure_teen_patti()
    built = time.perf_counter() - started

    console = Console(width=110)
    console.print(f"[bold]Hand evaluators[/bold] on {machine()}")
    table = Table(title="Evaluations per second (higher is better)")
    table.add_column("benchmark")
    table.add_column("evaluator")
    table.add_column("per second", justify="right")
    table.add_column("pokerhouse is", justify="right")
    groups = [
        ("7-card high", high_contenders(hands, slow)),
        ("7-card A-5 low", low_contenders(hands, slow)),
        ("Teen Patti", teen_patti_contenders(count)),
        ("7-card batch (numpy)", batch_contenders(400_000 if args.quick else 2_000_000)),
    ]
    scalar_high = 0.0
    for title, contenders in groups:
        # Batches are quick and feel a busy machine most: give them more rounds.
        race(contenders, rounds * 3 if title.startswith("7-card batch") else rounds)
        ours = contenders[0].rate
        scalar_high = scalar_high or ours
        for contender in contenders:
            if title.startswith("7-card batch"):
                note = f"{contender.rate / scalar_high:,.1f}x scalar"
            elif contender.name.startswith("pokerhouse"):
                note = ""
            else:
                note = f"{ours / contender.rate:,.1f}x"
            table.add_row(title, contender.name, f"{contender.rate:,.0f}", note)
    console.print(table)

    timing = Table(title="Tables and exhaustive enumeration (seconds, lower is better)")
    timing.add_column("task")
    timing.add_column("seconds", justify="right")
    timing.add_row("build the 7-card high, 7-card low and Teen Patti tables", f"{built:.2f}")
    for name, seconds in enumeration(1 if args.quick else 3):
        timing.add_row(name, f"{seconds:.2f}")
    console.print(timing)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
