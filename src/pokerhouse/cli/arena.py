"""``pokerhouse arena GAME BOT BOT [BOT...]``: rank bots over duplicate deals.

Every deal is played once per rotation of the seats, so each bot holds every
seat's cards (:mod:`pokerhouse.arena`). A bot is ``random``, ``smart`` (the
game's own) or ``module:Class`` (a class of yours, importable from the
current folder or the Python path). Printed: each bot's result per 100
hands with its 95% interval, as a table or, with ``--json``, as JSON.

>>> import io, json
>>> from contextlib import redirect_stdout
>>> from pokerhouse.cli import main
>>> out = io.StringIO()
>>> with redirect_stdout(out):
...     status = main(["arena", "razz", "random", "smart", "--hands", "5", "--seed", "1", "--json"])
>>> status, [(bot["spec"], bot["hands"]) for bot in json.loads(out.getvalue())["bots"]]
(0, [('random', 10), ('smart', 10)])
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from rich.progress import MofNCompleteColumn
from rich.table import Table as RichTable

from pokerhouse.arena import DEFAULT_STACK, ArenaResult, PlayedHand, play_match
from pokerhouse.cli.output import console as make_console
from pokerhouse.cli.output import progress as make_progress
from pokerhouse.games import get_game


def register(subparsers: Any) -> None:
    """Add ``arena`` to the command line."""
    parser = subparsers.add_parser(
        "arena",
        help="rank bots over duplicate deals (every deal in every seat)",
        description=(
            "Bots play the same deals with the seats rotated; each bot's result per 100 hands "
            "with a 95% interval over the deals."
        ),
    )
    parser.add_argument("game", help="3x4, razz, teen-patti or casino-holdem")
    parser.add_argument(
        "bots",
        nargs="+",
        metavar="BOT",
        help="random, smart or module:Class; at least two",
    )
    parser.add_argument(
        "--hands",
        type=int,
        default=1000,
        help="deals to play (default 1000); each is played once per bot, seats rotated",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed the deals and the bots")
    parser.add_argument(
        "--stack",
        type=int,
        default=DEFAULT_STACK,
        help=f"every seat's chips at the start of each hand (default {DEFAULT_STACK})",
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Play the match and print the ranking (a table, or JSON with ``--json``)."""
    info = get_game(args.game)
    if any(":" in bot for bot in args.bots):
        _import_from_here()
    if args.json:
        result = play_match(
            info.name, args.bots, hands=args.hands, seed=args.seed, stack=args.stack
        )
        print(result.to_json())
        return 0
    console = make_console(highlight=False)
    progress = make_progress(console, MofNCompleteColumn())
    with progress:
        task = progress.add_task(f"{info.title}, deals", total=max(args.hands, 0))

        def advance(played: PlayedHand) -> None:
            if played.rotation == len(played.seats) - 1:
                progress.update(task, completed=played.deal.number)

        result = play_match(
            info.name,
            args.bots,
            hands=args.hands,
            seed=args.seed,
            stack=args.stack,
            on_hand=advance,
        )
    console.print(ranking_table(result))
    console.print(cpu_line(result))
    return 0


def cpu_line(result: ArenaResult) -> str:
    """Each bot's CPU a decision (the 99th percentile), in the order the bots were given.

    >>> from pokerhouse.arena import play_match
    >>> cpu_line(play_match("razz", ["random", "random"], hands=2, seed=1))[:41]
    'CPU a decision, 99th percentile: 1 random'
    """
    each = ", ".join(
        f"{bot.index + 1} {bot.spec} {1000 * bot.cpu[1]:.2f} ms" for bot in result.bots
    )
    return f"CPU a decision, 99th percentile: {each}"


def _import_from_here() -> None:
    """Let ``module:Class`` find a module in the current folder, as ``python -m`` would."""
    here = os.getcwd()
    if here not in sys.path:
        sys.path.insert(0, here)


def ranking_table(result: ArenaResult) -> RichTable:
    """The bots' results as a rich table, best first."""
    title = (
        f"{get_game(result.game).title}: {result.deals:,} deals × {result.rotations} seatings "
        f"= {result.hands:,} hands in {result.seconds:.1f} s ({result.hands_per_second:,.0f}/s)"
    )
    grid = RichTable(title=title, caption="95% interval over deals: each deal in every seat")
    for column in ("Bot", "Spec", "Hands", "Net", "Per 100 hands", "95% interval"):
        if column == "Spec":
            grid.add_column(column, overflow="fold")  # a module:Class spec whole, however long
        else:
            grid.add_column(column, justify="right")
    for bot in sorted(result.bots, key=lambda bot: -bot.per_100):
        low, high = bot.interval
        grid.add_row(
            str(bot.index + 1),
            bot.spec,
            f"{bot.hands:,}",
            f"{bot.net:+,d}",
            f"{bot.per_100:+.1f}",
            f"{low:+.1f} to {high:+.1f}",
        )
    if get_game(result.game).banked:
        grid.add_row("", "house", "", f"{result.house:+,d}", "", "")
    return grid
