"""``pokerhouse replay FILE``: replay a hand history (JSON or PHH) and print it.

The file is replayed through the engine, which checks every action, every
recorded event and the finishing stacks; then the hand is printed as text
(``--seat N`` for one player's view, ``--spectator`` for the public one, the
full history by default) or, with ``--json``, summed up as JSON.

Seats are numbered from 1 here as in the printout (``--seat 1`` is ``Seat
1``, the first seat left of the button); PHH player names, when the file has
them, name the players in the text and the summary.

>>> from pokerhouse.games import new_hand
>>> from pokerhouse.history import LoadedHand
>>> summary(LoadedHand(new_hand("3x4", [100, 100], seed=3), "json"))["finishing_stacks"] is None
True
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from pokerhouse.errors import HistoryError
from pokerhouse.history import SERVER, LoadedHand, Viewer, load_history, to_text


def register(subparsers: Any) -> None:
    """Add the ``replay`` command."""
    parser = subparsers.add_parser(
        "replay",
        help="replay a hand history (JSON or PHH) and print it",
        description=(
            "Replay a hand history through the rules engine and print it. JSON histories "
            "(pokerhouse-hand/1, any game) and PHH files (razz, variant FR) are read, "
            "by extension or by content."
        ),
    )
    parser.add_argument("file", help="a .json or .phh hand history")
    view = parser.add_mutually_exclusive_group()
    view.add_argument(
        "--seat",
        type=int,
        metavar="N",
        help="print the hand as Seat N saw it (seats from 1, as printed)",
    )
    view.add_argument("--spectator", action="store_true", help="print only public cards")
    parser.add_argument("--json", action="store_true", help="print a JSON summary instead")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Replay ``args.file`` and print it."""
    loaded = load_history(args.file)
    hand = loaded.hand
    if args.json:
        print(json.dumps(summary(loaded), indent=2))
        return 0
    seat: Viewer = SERVER
    if args.spectator:
        seat = None
    elif args.seat is not None:
        if not 1 <= args.seat <= hand.players:
            raise HistoryError(
                "bad_seat", f"seat {args.seat} is not in this hand (seats 1 to {hand.players})"
            )
        seat = args.seat - 1
    print(to_text(hand, seat, names=loaded.names))
    return 0


def summary(loaded: LoadedHand) -> dict[str, Any]:
    """The replayed hand in a few JSON fields (``names``: the players', or ``null``)."""
    hand = loaded.hand
    return {
        "finishing_stacks": list(hand.stacks) if hand.is_over else None,
        "game": hand.game,
        "format": loaded.format,
        "players": hand.players,
        "names": None if loaded.names is None else list(loaded.names),
        "starting_stacks": list(hand.starting_stacks),
        "net": list(hand.results()) if hand.is_over else None,
        "actions": len(hand.actions),
        "events": len(hand.events),
        "is_over": hand.is_over,
    }
