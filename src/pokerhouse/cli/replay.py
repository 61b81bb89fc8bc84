"""``pokerhouse replay FILE``: replay a hand history (JSON or PHH) and print it.

The file is replayed through the engine, which checks every action, every
recorded event and the finishing stacks; then the hand is printed as text
(``--seat N`` for one player's view, ``--spectator`` for the public one, the
full history by default) or, with ``--json``, summed up as JSON.

>>> from pokerhouse.games import new_hand
>>> summary(new_hand("3x4", [100, 100], seed=3), "json")["finishing_stacks"] is None
True
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from pokerhouse.engine.hand import Hand
from pokerhouse.errors import HistoryError
from pokerhouse.history import SERVER, Viewer, load_hand, to_text


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
    view.add_argument("--seat", type=int, help="print the hand as this seat (from 0) saw it")
    view.add_argument("--spectator", action="store_true", help="print only public cards")
    parser.add_argument("--json", action="store_true", help="print a JSON summary instead")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Replay ``args.file`` and print it."""
    hand, kind = load_hand(args.file)
    if args.json:
        print(json.dumps(summary(hand, kind), indent=2))
        return 0
    seat: Viewer = SERVER
    if args.spectator:
        seat = None
    elif args.seat is not None:
        if not 0 <= args.seat < hand.players:
            raise HistoryError(
                "bad_seat", f"seat {args.seat} is not in this hand (seats 0 to {hand.players - 1})"
            )
        seat = args.seat
    print(to_text(hand, seat))
    return 0


def summary(hand: Hand, kind: str) -> dict[str, Any]:
    """The replayed hand in a few JSON fields."""
    return {
        "finishing_stacks": list(hand.stacks) if hand.is_over else None,
        "game": hand.game,
        "format": kind,
        "players": hand.players,
        "starting_stacks": list(hand.starting_stacks),
        "net": list(hand.results()) if hand.is_over else None,
        "actions": len(hand.actions),
        "events": len(hand.events),
        "is_over": hand.is_over,
    }
