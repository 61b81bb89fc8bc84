"""``pokerhouse tournament``: simulate a whole tournament of bots, show a structure.

``tournament simulate GAME --entrants N --structure NAME`` plays a
tournament to the end on the pure engine and director with a simulated
clock: a sit-and-go when the entrants fit one table (``--format`` says
otherwise), else a scheduled multi-table tournament. It prints the finish,
the prizes, the hands dealt, players moved and tables broken, and the time
taken. ``tournament structure GAME NAME`` prints a built-in structure's
levels.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from rich.progress import TextColumn
from rich.table import Table as RichTable

from pokerhouse.cli.output import console as make_console
from pokerhouse.cli.output import progress as make_progress
from pokerhouse.games import get_game
from pokerhouse.tournament.errors import TournamentError
from pokerhouse.tournament.simulate import SimulatedTournament, simulate
from pokerhouse.tournament.spec import TournamentSpec
from pokerhouse.tournament.structure import BUILT_IN, TOURNAMENT_GAMES, built_in

#: Places the finish table shows (every paid place, at least).
SHOWN_PLACES = 10


def register(subparsers: Any) -> None:
    """Add ``tournament`` and its sub-commands to the command line."""
    parser = subparsers.add_parser(
        "tournament",
        help="simulate a tournament of bots, or show a structure",
        description="Tournaments of 3x4 Poker, Razz and Teen Patti on the pure engine.",
    )
    commands = parser.add_subparsers(dest="tournament_command", metavar="COMMAND")
    commands.required = True
    run_one = commands.add_parser(
        "simulate",
        help="play a whole tournament of bots with a simulated clock",
        description="Bots play a tournament to the end: the finish, prizes, hands, moves, time.",
    )
    run_one.add_argument("game", help="3x4, razz or teen-patti")
    run_one.add_argument("--entrants", type=int, required=True, help="how many bots enter")
    run_one.add_argument(
        "--structure",
        default="regular",
        help=f"built-in structure: {', '.join(sorted(BUILT_IN))} (default regular)",
    )
    run_one.add_argument(
        "--format",
        choices=("auto", "sit-and-go", "scheduled"),
        default="auto",
        help="auto (default): a sit-and-go if the entrants fit one table",
    )
    run_one.add_argument("--seats", type=int, default=0, help="seats per table (default: the most)")
    run_one.add_argument("--buy-in", type=int, default=100, help="buy-in to the pool (default 100)")
    run_one.add_argument("--fee", type=int, default=10, help="the room's fee (default 10)")
    run_one.add_argument(
        "--bots", default="random", help="bot names, comma-separated (default random)"
    )
    run_one.add_argument("--seed", type=int, default=None, help="seed the draw, cards and bots")
    run_one.add_argument("--json", action="store_true", help="print the result as JSON")
    run_one.set_defaults(handler=run_simulate)
    show = commands.add_parser(
        "structure", help="a built-in structure's levels", description="A structure's levels."
    )
    show.add_argument("game", help="3x4, razz or teen-patti")
    show.add_argument("name", help=f"{', '.join(sorted(BUILT_IN))}")
    show.add_argument("--json", action="store_true", help="print it as JSON")
    show.set_defaults(handler=run_structure)


def _spec(args: argparse.Namespace) -> TournamentSpec:
    game = args.game.strip().lower()
    if game not in TOURNAMENT_GAMES:
        raise TournamentError(
            "bad_tournament", f"{args.game!r} has no tournaments (3x4, razz, teen-patti)"
        )
    most = get_game(game).max_players
    form = args.format
    if form == "auto":
        form = "sit-and-go" if args.entrants <= (args.seats or most) else "scheduled"
    if form == "sit-and-go":
        # A sit-and-go is one table of exactly its entrants.
        seats = args.seats or args.entrants
        low, high = seats, seats
    else:
        seats, low, high = args.seats or most, 2, None
    return TournamentSpec(
        f"{get_game(game).title} {'sit-and-go' if form == 'sit-and-go' else 'tournament'}",
        game,
        form,
        built_in(args.structure, game),
        buy_in=args.buy_in,
        fee=args.fee,
        seats=seats,
        min_entrants=low,
        max_entrants=high,
    )


def run_simulate(args: argparse.Namespace) -> int:
    """Simulate the tournament and print its result."""
    if args.entrants < 2:
        raise TournamentError(
            "bad_tournament", f"--entrants must be at least 2, not {args.entrants}"
        )
    spec = _spec(args)
    bots = [name.strip() for name in args.bots.split(",") if name.strip()]
    if args.json:
        result = simulate(spec, entrants=args.entrants, bots=bots, seed=args.seed)
        print(json.dumps(result.as_dict(), indent=2))
        return 0
    console = make_console(highlight=False)
    progress = make_progress(
        console, TextColumn("{task.fields[left]} left, {task.fields[hands]} hands")
    )
    with progress:
        task = progress.add_task(spec.name, total=args.entrants - 1, left=args.entrants, hands=0)
        result = simulate(
            spec,
            entrants=args.entrants,
            bots=bots,
            seed=args.seed,
            on_hand=lambda hands, left: progress.update(
                task, completed=args.entrants - left, left=left, hands=hands
            ),
        )
    console.print(f"[bold]{result.name}[/bold]: {result.entrants} entrants, pool {result.pool:,}")
    console.print(finish_table(result))
    console.print(_facts(result))
    return 0


def finish_table(result: SimulatedTournament) -> RichTable:
    """The places paid (and at least the first few), as a rich table."""
    paid = sum(1 for standing in result.standings if standing.prize > 0)
    grid = RichTable()
    for column in ("Place", "Player", "Prize"):
        grid.add_column(column, justify="left" if column == "Player" else "right")
    for standing in result.standings[: max(paid, SHOWN_PLACES)]:
        place = str(standing.place)
        if standing.tied > 1:
            place += f"-{standing.place + standing.tied - 1} (tie)"
        grid.add_row(place, standing.player, f"{standing.prize:,}" if standing.prize else "")
    return grid


def _facts(result: SimulatedTournament) -> str:
    hours, rest = divmod(int(result.simulated_seconds), 3600)
    return (
        f"{result.hands:,} hands, {result.moves:,} players moved, "
        f"{result.tables_broken} tables broken, {result.levels} levels, {result.breaks} breaks, "
        f"hand for hand: {'yes' if result.hand_for_hand else 'no'}, "
        f"chips conserved: {'yes' if result.chips_conserved else 'NO'}\n"
        f"{hours} h {rest // 60:02d} min of play in {result.seconds:.1f} s "
        f"({result.hands_per_second:,.0f} hands/s)"
    )


def run_structure(args: argparse.Namespace) -> int:
    """Print a built-in structure's levels."""
    game = args.game.strip().lower()
    structure = built_in(args.name, game)
    if args.json:
        print(
            json.dumps(
                {**structure.as_dict(), "levels": [dict(level) for level in structure.levels]},
                indent=2,
            )
        )
        return 0
    console = make_console(highlight=False)
    length = (
        f"{structure.level_seconds // 60} min"
        if structure.level_seconds is not None
        else f"{structure.level_hands} hands"
    )
    grid = RichTable(
        title=f"{get_game(game).title}, {args.name}: levels of {length}, "
        f"starting stack {structure.stack:,}"
    )
    names = [name for name, _ in structure.levels[0]]
    grid.add_column("Level", justify="right")
    for name in names:
        grid.add_column(name.replace("_", " ").capitalize(), justify="right")
    for number, stakes in enumerate(structure.levels, start=1):
        grid.add_row(str(number), *(f"{value:,}" for _, value in stakes))
        if structure.break_after(number - 1) and number < len(structure.levels):
            grid.add_row("", *(["break"] + [""] * (len(names) - 1)))
    console.print(grid)
    return 0
