"""Casino Hold'em analysis benchmark: one piece of advice, the full exact house edge, and more.

    python bench/casino_holdem.py            # everything, the full exact run included
    python bench/casino_holdem.py --quick    # skip the full exact run (time 40 flop classes)

Timed, each in wall-clock and CPU seconds of this process (on a shared
machine the CPU time is the steadier figure):

* **advice**: ``advise(hole, flop)``, the exact values over 1,070,190 ways,
  for several hands (best of the repeats, tables already built), against a
  brute-force count of the same ways with eval7 (a C extension) calling its
  evaluator once per hand;
* **first advice**: the same in a fresh start, building the lookup tables;
* **exact house edge**: ``exact_analysis()`` over all 25,989,600 deals;
* **AA Bonus**: the exact return from all 2,598,960 five-card hands;
* **simulation**: rounds per second of best play.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

from pokerhouse.analysis.casino_holdem import (
    advise,
    always_call,
    bonus_return,
    exact_analysis,
    simulate,
)
from pokerhouse.cards import parse_cards

# The eval7 brute force is the tests' oracle: time that very code.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.analysis.eval7_oracle import eval7_flop_counts

HANDS = [("As Kd", "Qh 7c 2d"), ("7c 2d", "As Kh 9d"), ("9h 8h", "Th 7h 2c"), ("4c 4d", "Jh 8s 3c")]


def timed(work: Callable[[], Any], repeats: int = 1) -> tuple[float, float, Any]:
    """Best wall and CPU seconds of ``repeats`` runs, and the last result."""
    best_wall = best_cpu = float("inf")
    result = None
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        result = work()
        best_wall = min(best_wall, time.perf_counter() - wall)
        best_cpu = min(best_cpu, time.process_time() - cpu)
    return best_wall, best_cpu, result


def first_advice_seconds() -> float:
    """Wall seconds for a fresh interpreter's first advice, tables included."""
    code = (
        "import time; t = time.perf_counter(); "
        "from pokerhouse.analysis.casino_holdem import advise; "
        "advise('As Kd', 'Qh 7c 2d'); print(time.perf_counter() - t)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip the full exact run")
    args = parser.parse_args()
    console = Console()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    console.print(
        f"[bold]Casino Hold'em analysis[/bold] - {platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}, numpy {np.__version__}; "
        f"load average at start {load:.2f}"
    )
    rows: list[tuple[str, str, str, str]] = []

    advise("As Kd", "Qh 7c 2d")  # build the tables before timing
    ours_total = theirs_total = 0.0
    for hole, flop in HANDS:
        wall, cpu, advice = timed(lambda h=hole, f=flop: advise(h, f), repeats=5)
        ours_total += wall
        e_wall, _, counts = timed(
            lambda h=hole, f=flop: eval7_flop_counts(parse_cards(h), parse_cards(f))
        )
        theirs_total += e_wall
        outcomes = advice.outcomes
        same = counts == [
            outcomes.dealer_not_qualified,
            outcomes.won,
            outcomes.stand_off,
            outcomes.lost,
        ]
        rows.append(
            (
                f"advice {hole} / {flop}",
                f"{wall:.3f}",
                f"{cpu:.3f}",
                f"eval7 brute force {e_wall:.2f} s ({e_wall / wall:.0f}x), "
                f"counts {'agree' if same else 'DIFFER'}",
            )
        )
    rows.append(
        (
            "advice, first call (fresh process, tables built)",
            f"{first_advice_seconds():.2f}",
            "",
            "",
        )
    )

    wall, cpu, bonus = timed(lambda: bonus_return())
    rows.append(
        (
            "AA Bonus exact return (2,598,960 hands)",
            f"{wall:.2f}",
            f"{cpu:.2f}",
            f"flat 7:1 house edge {100 * float(bonus.house_edge):.4f}%",
        )
    )

    if args.quick:
        wall, cpu, exact = timed(lambda: exact_analysis(flop_class_ids=range(0, 1755, 44)))
        rows.append(
            ("exact, 40 of 1,755 flop classes", f"{wall:.1f}", f"{cpu:.1f}", "(not the full run)")
        )
        strategy = always_call
    else:
        wall, cpu, exact = timed(lambda: exact_analysis())
        rows.append(
            (
                "exact house edge, all 25,989,600 deals",
                f"{wall:.1f}",
                f"{cpu:.1f}",
                f"house edge {100 * float(exact.house_edge):.4f}%, "
                f"calls {100 * float(exact.call_rate):.2f}%",
            )
        )
        strategy = exact.strategy
    wall, cpu, sim = timed(lambda: simulate(1_000_000, strategy, seed=1))
    rows.append(
        (
            "simulate 1,000,000 rounds",
            f"{wall:.2f}",
            f"{cpu:.2f}",
            f"{1_000_000 / wall:,.0f} rounds/s; house edge {100 * sim.house_edge.mean:.2f}% "
            f"(95% {100 * sim.house_edge.interval()[0]:.2f}% to "
            f"{100 * sim.house_edge.interval()[1]:.2f}%)",
        )
    )

    table = Table(title="Casino Hold'em analysis timings")
    for column in ("task", "wall s", "CPU s", "notes"):
        table.add_column(column)
    for row in rows:
        table.add_row(*row)
    console.print(table)
    end_load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    console.print(
        f"load average at the end {end_load:.2f}; "
        f"advice is {theirs_total / ours_total:.0f}x the eval7 brute force"
    )


if __name__ == "__main__":
    main()
