"""``pokerhouse play GAME``: sit at a table in the terminal against bots.

You are table seat 0 (seat 1 to a player); bots fill the other seats. Each hand prints what you may
see as it happens, names your hand at every street, and on your turn draws
the table and offers the legal moves with what each costs. Each game has
its own words (:mod:`pokerhouse.cli.moves`); ``?`` lists them. At Casino
Hold'em a betting window before each deal sets your ante and AA Bonus;
``pays`` shows the pay tables and ``hint`` asks the advisor. Reads plain
stdin, so a script or a test can drive it; quitting at any prompt (``q``,
end of input, Ctrl-C) prints a session summary and exits 0. The table is
the only thing a session plays through.

This module builds a session from the command line and runs it. The session
(the loop of hands and what you see) is :mod:`pokerhouse.cli.play_session`,
its prompts and words :mod:`~pokerhouse.cli.play_prompts`, and Casino
Hold'em's betting window :mod:`~pokerhouse.cli.play_betting_window`.

>>> parser = build_parser()
>>> args = parser.parse_args(["3x4", "--players", "3", "--seed", "7"])
>>> args.game, args.players, args.stack, args.seed, args.four_colour
('3x4', 3, 200, 7, False)
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from typing import Any

from rich.console import Console

from pokerhouse.bots import get as get_bot
from pokerhouse.cli.drawing import CardPainter
from pokerhouse.cli.output import console as new_console
from pokerhouse.cli.play_prompts import (
    HELP_WORDS,
    HINT_WORDS,
    PAYS_WORDS,
    QUIT_WORDS,
    Quit,
    plural,
    times,
)
from pokerhouse.cli.play_session import DEAL_EVENTS, HERO, HandSoFar, Session
from pokerhouse.cli.saving import HistoryFolder
from pokerhouse.errors import InvalidSpec
from pokerhouse.games import get_game
from pokerhouse.games.casino_holdem import CasinoHoldemSpec
from pokerhouse.table import SeatDrawCard, SetWager, SitTogether, Table, TableLimits

__all__ = [
    "BOT_NAMES",
    "DEAL_EVENTS",
    "HELP_WORDS",
    "HERO",
    "HINT_WORDS",
    "PAYS_WORDS",
    "QUIT_WORDS",
    "YOU",
    "HandSoFar",
    "Quit",
    "Session",
    "build_parser",
    "new_session",
    "plural",
    "register",
    "run",
    "times",
]

#: Names the bots sit under, in seat order after you.
BOT_NAMES = ("Ada", "Boris", "Chen", "Dara", "Emil", "Fay", "Gus", "Hana", "Ivo")
YOU = "You"


def build_parser(parser: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    """The ``play`` arguments (on ``parser``, or a new one)."""
    parser = parser if parser is not None else argparse.ArgumentParser(prog="pokerhouse play")
    parser.add_argument("game", help="3x4, razz, teen-patti or casino-holdem")
    parser.add_argument("--players", type=int, default=4, help="seats, you included (default 4)")
    parser.add_argument("--stack", type=int, default=200, help="chips each player buys in for")
    parser.add_argument("--seed", type=int, default=None, help="seed the cards and the bots")
    parser.add_argument(
        "--bots", default="pro", help="bot kind for the other seats: pro, smart or random"
    )
    parser.add_argument(
        "--ante",
        type=int,
        default=None,
        help="Casino Hold'em: your first ante (default the table minimum; change it between deals)",
    )
    parser.add_argument(
        "--bonus",
        type=int,
        default=0,
        help="Casino Hold'em: your first AA Bonus bet (default none; change it between deals)",
    )
    parser.add_argument(
        "--four-colour",
        "--four-color",
        dest="four_colour",
        action="store_true",
        help="a four-colour deck: clubs green, diamonds blue, hearts red, spades plain",
    )
    parser.add_argument(
        "--save",
        default=None,
        metavar="DIR",
        help="write every hand played into DIR (JSON, and PHH for Razz) for pokerhouse replay",
    )
    return parser


def register(subparsers: Any) -> None:
    """Add ``play`` to the command line."""
    parser = subparsers.add_parser(
        "play",
        help="play at a table in the terminal against bots",
        description=(
            "Play hands at a table against bots: you sit in seat 1. Type ? at any prompt "
            "for the words of the game."
        ),
    )
    build_parser(parser)
    parser.set_defaults(handler=run)


def new_session(args: argparse.Namespace, console: Console, read: Callable[[str], str]) -> Session:
    """The table, the bots and the seat draw, from the command-line arguments."""
    info = get_game(args.game)
    players = args.players
    if not info.min_players <= players <= info.max_players or (info.banked and players < 1):
        raise InvalidSpec(
            "player_count",
            f"{info.title} takes {info.min_players} to {info.max_players} players, not {players}",
        )
    if args.stack < 1:
        raise InvalidSpec("bad_stack", f"--stack must be at least 1, not {args.stack}")
    if not info.banked and (args.ante is not None or args.bonus):
        raise InvalidSpec(
            "bad_option", f"--ante and --bonus are for Casino Hold'em, not {info.title}"
        )
    histories = HistoryFolder(args.save) if getattr(args, "save", None) else None
    rng = random.Random(args.seed)
    table = Table(
        info.name,
        seats=max(players, info.min_players),
        limits=TableLimits(min_buy_in=1, max_buy_in=args.stack),
        rng=random.Random(rng.getrandbits(64)),
    )
    if info.banked:
        spec: CasinoHoldemSpec = table.spec
        spec.check_wager(args.ante if args.ante is not None else spec.default_ante, args.bonus)
    names = {0: YOU, **{seat: BOT_NAMES[seat - 1] for seat in range(1, players)}}
    bots = {
        seat: get_bot(args.bots, game=info.name, rng=random.Random(rng.getrandbits(64)))
        for seat in range(1, players)
    }
    session = Session(
        table,
        bots,
        console,
        read,
        rebuy_to=args.stack,
        names=names,
        deck=CardPainter(four_colour=getattr(args, "four_colour", False)),
        histories=histories,
    )
    step = table.apply(
        SitTogether(tuple((seat, names[seat], args.stack) for seat in range(players)))
    )
    drawn = {
        logged.event.seat: logged.event.card
        for logged in step
        if isinstance(logged.event, SeatDrawCard)
    }
    if table.banked:
        you = table.seat(0)
        assert you is not None
        table.apply(SetWager(0, args.ante if args.ante is not None else you.ante, args.bonus))
        # A box short of its ante, bonus and call would sit busted, with nothing to rebuy.
        for seat in table.occupied:
            box = table.seat(seat)
            if box is not None and box.busted:
                whose = "your box" if seat == 0 else f"{names[seat]}'s box"
                raise InvalidSpec(
                    "bad_stack",
                    f"--stack {args.stack} is too small: {whose} needs {box.needs} chips "
                    f"(ante {box.ante}, the call of {2 * box.ante}, bonus {box.bonus})",
                )
    seats = plural(players, "seat")
    console.print(f"[bold]{info.title}[/]: {seats}, {args.stack:,} chips each.")
    if drawn:
        draw = ", ".join(f"{names[seat]} {session.deck.card(card)}" for seat, card in drawn.items())
        console.print(f"Seat draw for the button: {draw}.")
    if table.button is not None and not table.banked:
        taker = "You take" if table.button == 0 else f"{names[table.button]} takes"
        console.print(f"{taker} the button.")
    if table.banked:
        console.print(
            "Before each deal you may change your ante and AA Bonus; at the flop, type hint "
            "for the advisor's exact values, pays for the pay tables."
        )
    console.print("Type ? at any prompt for the words to type, q to leave.")
    return session


def run(args: argparse.Namespace) -> int:
    """Play until the player quits; always ends with a session summary and status 0.

    A reader of the output that goes away (``| head``) ends it quietly instead
    (:func:`pokerhouse.cli.main` gives the status).
    """
    console = new_console(highlight=False, soft_wrap=True)

    def read(prompt: str) -> str:
        return console.input(prompt)

    session = new_session(args, console, read)
    try:
        session.play()
    except Quit:
        pass
    except KeyboardInterrupt:
        pass
    console.print()
    if session.table.hand is not None:
        console.print(f"You left during hand #{session.table.hands_played + 1}: it is not counted.")
    console.print(session.session_summary())
    return 0
