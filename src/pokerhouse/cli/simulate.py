"""``pokerhouse simulate GAME``: bots play many hands at a table; who wins, how fast.

Each seat gets a bot from ``--bots`` (a comma list, repeated round the
table: ``random,smart`` over six seats alternates them). Busted bots rebuy
so the session runs to the end; rebuys are counted. The summary gives each
seat's result per 100 hands with a 95% confidence interval (normal
approximation over per-hand results), and whether the chips were conserved
after every hand.

>>> import random
>>> result = simulate("3x4", ["random"] * 3, hands=20, stack=100, rng=random.Random(1))
>>> result.hands, result.chips_conserved, len(result.seats)
(20, True, 3)
>>> sum(seat.net for seat in result.seats) + result.house
0
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.progress import MofNCompleteColumn
from rich.table import Table as RichTable

from pokerhouse.bots import get as get_bot
from pokerhouse.cli.output import console as make_console
from pokerhouse.cli.output import progress as make_progress
from pokerhouse.cli.saving import HistoryFolder
from pokerhouse.engine.actions import Action
from pokerhouse.engine.hand import View
from pokerhouse.errors import InvalidSpec
from pokerhouse.games import get_game
from pokerhouse.intervals import per_100
from pokerhouse.table import AddChips, HandResult, SitTogether, Table, TableLimits

#: Events the simulated table keeps in its log: none. Nothing reads its stream
#: back (results come from each hand's summary and the hand itself), so memory
#: stays flat over any number of hands, and a hand's events are freed with the
#: hand instead of ageing into the garbage collector's oldest generation.
LOG_SIZE = 0


@dataclass(frozen=True, slots=True)
class SeatSession:
    """One seat's session: its bot, chips won, rebuys and the per-hand spread."""

    seat: int
    bot: str
    net: int
    rebuys: int
    hands: int
    per_100: float
    ci95: tuple[float, float]

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "seat": self.seat,
            "bot": self.bot,
            "net": self.net,
            "rebuys": self.rebuys,
            "hands": self.hands,
            "per_100": round(self.per_100, 3),
            "ci95": [round(self.ci95[0], 3), round(self.ci95[1], 3)],
        }


@dataclass(frozen=True, slots=True)
class SimulatedSession:
    """A finished simulation: hands, time, conservation, each seat and the house."""

    game: str
    hands: int
    seconds: float
    chips_conserved: bool
    seats: tuple[SeatSession, ...]
    house: int

    @property
    def hands_per_second(self) -> float:
        """Throughput, bots' thinking included."""
        return self.hands / self.seconds if self.seconds > 0 else math.inf

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: hands, seconds, hands_per_second, chips_conserved, seats, house."""
        return {
            "game": self.game,
            "hands": self.hands,
            "seconds": round(self.seconds, 3),
            "hands_per_second": round(self.hands_per_second, 1),
            "chips_conserved": self.chips_conserved,
            "house": self.house,
            "seats": [seat.as_dict() for seat in self.seats],
        }


def simulate(
    game: str,
    bots: Sequence[str],
    *,
    hands: int,
    stack: int = 200,
    rng: random.Random | None = None,
    on_hand: Callable[[int], None] | None = None,
    on_finished: Callable[[HandResult], None] | None = None,
) -> SimulatedSession:
    """Seat one bot per name in ``bots`` and play ``hands`` hands.

    Every seat buys in for ``stack``; a busted bot tops up to ``stack`` again.
    ``on_hand(n)`` is called after each hand (a progress bar's hook), and
    ``on_finished(summary)`` with each finished hand (``--save``'s hook).
    """
    info = get_game(game)
    if not info.min_players <= len(bots) <= info.max_players:
        raise InvalidSpec(
            "player_count",
            f"{info.title} takes {info.min_players} to {info.max_players} players, not {len(bots)}",
        )
    if hands < 1:
        raise InvalidSpec("bad_count", f"the number of hands must be at least 1, not {hands}")
    if stack < 1:
        raise InvalidSpec("bad_stack", f"the stack must be at least 1 chip, not {stack}")
    rng = rng if rng is not None else random.Random()
    table = Table(
        info.name,
        seats=len(bots),
        limits=TableLimits(min_buy_in=1, max_buy_in=stack),
        rng=random.Random(rng.getrandbits(64)),
        log_size=LOG_SIZE,
    )
    players = [
        get_bot(name, game=info.name, rng=random.Random(rng.getrandbits(64))) for name in bots
    ]
    table.apply(
        SitTogether(tuple((seat, f"{bot.name}-{seat}", stack) for seat, bot in enumerate(players)))
    )
    first = table.seat(0)
    if first is not None and first.busted:
        # Every box bets the minimum: one short of its ante and call would never be dealt in.
        raise InvalidSpec(
            "bad_stack",
            f"a stack of {stack} is too small: a box at the minimum ante of {first.ante} "
            f"needs {first.needs} chips (the ante and the call of twice it)",
        )

    def policy(seat: int, view: View) -> Action:
        return players[seat].choose(view)

    per_hand: list[list[int]] = [[] for _ in players]
    conserved = True
    start = time.perf_counter()
    for number in range(hands):
        for seat in range(len(players)):
            info_now = table.seat(seat)
            if info_now is not None and info_now.busted:
                table.apply(AddChips(seat, stack - info_now.stack))
        summary = table.play_hand(policy)
        if on_finished is not None:
            on_finished(summary)
        for seat in range(len(players)):
            per_hand[seat].append(summary.net.get(seat, 0))
        conserved = conserved and table.chips_conserved()
        if on_hand is not None:
            on_hand(number + 1)
    seconds = time.perf_counter() - start
    seats = []
    for seat, bot in enumerate(players):
        final = table.seat(seat)
        assert final is not None
        mean, ci = per_100(per_hand[seat])
        seats.append(
            SeatSession(
                seat=seat,
                bot=bot.name,
                net=final.net,
                rebuys=final.rebuys,
                hands=sum(1 for _ in per_hand[seat]),
                per_100=mean,
                ci95=ci,
            )
        )
    house = table.house
    return SimulatedSession(info.name, hands, seconds, conserved, tuple(seats), house)


def register(subparsers: Any) -> None:
    """Add ``simulate`` to the command line."""
    parser = subparsers.add_parser(
        "simulate",
        help="let bots play many hands and report who wins",
        description="Bots play hands at a table; results per 100 hands with 95% intervals.",
    )
    parser.add_argument("game", help="3x4, razz, teen-patti or casino-holdem")
    parser.add_argument("--players", type=int, default=6, help="seats at the table (default 6)")
    parser.add_argument("--hands", type=int, default=1000, help="hands to play (default 1000)")
    parser.add_argument(
        "--bots",
        default="random,smart",
        help="bot names, comma-separated, repeated round the table (default random,smart)",
    )
    parser.add_argument("--stack", type=int, default=200, help="buy-in and rebuy (default 200)")
    parser.add_argument("--seed", type=int, default=None, help="seed the cards and the bots")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument(
        "--save",
        default=None,
        metavar="DIR",
        help="write each hand's history to DIR for replay (JSON; PHH too for razz)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run the simulation and print the summary (a table, or JSON with ``--json``)."""
    names = [name.strip() for name in args.bots.split(",") if name.strip()]
    if not names:
        raise InvalidSpec("unknown_bot", "--bots names no bot")
    if args.players < 1:
        raise InvalidSpec("player_count", f"--players must be at least 1, not {args.players}")
    bots = [names[seat % len(names)] for seat in range(args.players)]
    rng = random.Random(args.seed)
    save = None if args.save is None else saver(args.save, bots, args.hands)
    if args.json:
        result = simulate(
            args.game, bots, hands=args.hands, stack=args.stack, rng=rng, on_finished=save
        )
        print(json.dumps(result.as_dict(), indent=2))
        return 0
    console = make_console(highlight=False)
    progress = make_progress(console, MofNCompleteColumn())
    with progress:
        task = progress.add_task(f"{get_game(args.game).title}", total=args.hands)
        result = simulate(
            args.game,
            bots,
            hands=args.hands,
            stack=args.stack,
            rng=rng,
            on_hand=lambda n: progress.update(task, completed=n),
            on_finished=save,
        )
    console.print(summary_table(result))
    return 0


def saver(folder: str, bots: Sequence[str], hands: int) -> Callable[[HandResult], None]:
    """A hook that saves each finished hand in ``folder``, each player named by bot and seat.

    Seat ``s`` of the table (the summary's row ``s + 1``) is ``f"{bot}-{s + 1}"``:
    a replay starts its seats from the button, so the name tells who is who.

    The folder is checked at once (it must hold no hand histories yet), and
    made when the first hand is saved.
    """
    histories = HistoryFolder(folder, width=max(4, len(str(hands))))
    names = [f"{bot.strip().lower()}-{seat + 1}" for seat, bot in enumerate(bots)]

    def save(summary: HandResult) -> None:
        histories.save(summary.hand, summary.number, [names[seat] for seat in summary.seats])

    return save


def summary_table(result: SimulatedSession) -> RichTable:
    """The results as a rich table."""
    title = (
        f"{get_game(result.game).title}: {result.hands} hands in {result.seconds:.1f} s "
        f"({result.hands_per_second:,.0f}/s), chips conserved: "
        f"{'yes' if result.chips_conserved else 'NO'}"
    )
    grid = RichTable(title=title)
    for column in ("Seat", "Bot", "Net", "Per 100 hands", "95% interval", "Rebuys"):
        grid.add_column(column, justify="right" if column != "Bot" else "left")
    for seat in result.seats:
        low, high = seat.ci95
        grid.add_row(
            str(seat.seat + 1),  # people count seats from 1, as replay prints them
            seat.bot,
            f"{seat.net:+d}",
            f"{seat.per_100:+.1f}",
            f"{low:+.1f} to {high:+.1f}",
            str(seat.rebuys),
        )
    if get_game(result.game).banked:
        grid.add_row("", "house", f"{result.house:+d}", "", "", "")
    return grid
