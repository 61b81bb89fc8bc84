"""``pokerhouse demo``: the library at work in a few seconds.

It evaluates a few hands and names them, deals and auto-plays one hand of
every game the library has (bots on every seat, each event as a readable
line, every card face up since the demo watches from the dealer's chair),
and, when the analysis module is there, asks it one question.

>>> import io
>>> from rich.console import Console
>>> console = Console(file=io.StringIO(), width=100)
>>> show_evaluations(console)
>>> "Royal flush" in console.file.getvalue()
True
"""

from __future__ import annotations

import argparse
import importlib
import random
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.markup import escape

from pokerhouse import evaluate
from pokerhouse.bots import PRO_BOTS, Bot
from pokerhouse.bots import get as get_bot
from pokerhouse.cards import parse_cards
from pokerhouse.cli.output import console as make_console
from pokerhouse.games import GAMES, GameInfo
from pokerhouse.table import SitTogether, Table, TableHandStarted, TableLimits
from pokerhouse.table.narrate import narrate

#: Hands evaluated at the start: (rule, cards).
EXAMPLES: tuple[tuple[str, str], ...] = (
    ("high", "As Ks Qs Js Ts 2c 3d"),
    ("high", "7h 7d 7c Kd Ks 2c 9h"),
    ("high", "Ah 2d 3c 4s 5h Kc Kd"),
    ("low", "Ac 2d 3h 4s 5c Kd Kh"),
    ("low", "8c 6d 4h 3s 2c 8d 8h"),
    ("teen_patti", "Ah 2h 3h"),
    ("teen_patti", "Qc Qd 9s"),
)

RULE_NAMES = {"high": "high hand", "low": "A-5 low", "teen_patti": "Teen Patti"}
DEMO_NAMES = ("Ada", "Boris", "Chen", "Dara", "Emil", "Fay", "Gus")


def show_evaluations(console: Console) -> None:
    """Evaluate the example hands and print each one's name."""
    console.rule("Hand evaluation")
    rules: dict[str, Callable[..., Any]] = {
        "high": evaluate.high,
        "low": evaluate.low,
        "teen_patti": evaluate.teen_patti,
    }
    for rule, text in EXAMPLES:
        result = rules[rule](parse_cards(text))
        console.print(f"  {text:<22} {RULE_NAMES[rule]:<11} → {escape(result.description)}")


def play_one_hand(console: Console, info: GameInfo, rng: random.Random) -> None:
    """Seat bots at a table of ``info``'s game and narrate one hand."""
    players = min(4, info.max_players)
    table = Table(
        info.name,
        seats=players,
        limits=TableLimits(min_buy_in=1, max_buy_in=1000),
        rng=random.Random(rng.getrandbits(64)),
    )
    kind = "pro" if info.name in PRO_BOTS else "random"
    bots: dict[int, Bot] = {
        seat: get_bot(kind, game=info.name, rng=random.Random(rng.getrandbits(64)))
        for seat in range(players)
    }
    table.apply(SitTogether(tuple((seat, DEMO_NAMES[seat], 200) for seat in range(players))))
    console.rule(f"{info.title}: one hand, {players} {kind} bots")
    start = table.seq
    table.play_hand(lambda seat, view: bots[seat].choose(view))
    for logged in table.log:
        line = narrate(logged.event, DEMO_NAMES) if logged.seq > start else None
        if line is not None and not isinstance(logged.event, TableHandStarted):
            console.print(f"  {escape(line)}")


#: Casino Hold'em decisions the demo asks the exact analysis about: (hole, flop).
ADVICE_EXAMPLES = (("As Kd", "Qh 7c 2d"), ("7c 2d", "As Kh 9d"), ("9h 8h", "Th 2c 3h"))


def show_analysis(console: Console) -> bool:
    """Exact Casino Hold'em advice for a few hands, if the analysis package is there."""
    try:
        analysis = importlib.import_module("pokerhouse.analysis.casino_holdem")
    except ImportError:
        return False
    console.rule("Analysis: Casino Hold'em, call or fold? (exact, over 1,070,190 run-outs)")
    for hole, flop in ADVICE_EXAMPLES:
        advice = analysis.advise(hole, flop)
        console.print(
            f"  {hole} on {flop}: [bold]{advice.action}[/] "
            f"(calling is worth {float(advice.call_ev):+.4f} antes, folding -1)"
        )
    return True


def register(subparsers: Any) -> None:
    """Add ``demo`` to the command line."""
    parser = subparsers.add_parser(
        "demo",
        help="a short showcase: evaluations, one hand of each game, some analysis",
        description="Show the library at work in a few seconds.",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed the deals and the bots")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Print the showcase."""
    console = make_console(highlight=False, soft_wrap=True)
    rng = random.Random(args.seed)
    show_evaluations(console)
    for info in GAMES.values():
        play_one_hand(console, info, rng)
    show_analysis(console)
    console.rule()
    console.print("Play a game: [bold]pokerhouse play 3x4[/] (or razz, teen-patti, casino-holdem).")
    return 0
