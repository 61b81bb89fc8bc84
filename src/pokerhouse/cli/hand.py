"""``pokerhouse hand CARDS``: name the best hand in some cards.

``--game`` picks the ranking: the five-card high hand (``high``, also
``3x4`` and ``casino-holdem``; the default), the A-5 low (``razz``, also
``low``) or ``teen-patti`` (three cards). ``--json`` prints a JSON object.

>>> import argparse
>>> run(argparse.Namespace(cards="As Ks Qs Js Ts 2c 3d", game="high", json=False))
Royal flush
As Ks Qs Js Ts
0
>>> run(argparse.Namespace(cards="Kd 8c 7h 4s 3c 2d Kh", game="razz", json=False))
8-7-4-3-2 low
8c 7h 4s 3c 2d
0
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from typing import Any

from pokerhouse import evaluate
from pokerhouse.cards import Card, format_cards, parse_cards

#: ``--game`` choices: name -> (ranking name, evaluator).
GAMES: dict[str, tuple[str, Callable[[Sequence[Card]], evaluate.HandValue[Any]]]] = {
    "high": ("high", evaluate.high),
    "3x4": ("high", evaluate.high),
    "casino-holdem": ("high", evaluate.high),
    "razz": ("low", evaluate.low),
    "low": ("low", evaluate.low),
    "teen-patti": ("teen-patti", evaluate.teen_patti),
}


def register(subparsers: Any) -> None:
    """Add the ``hand`` command."""
    parser = subparsers.add_parser(
        "hand",
        help="name the best hand in some cards",
        description=(
            "Evaluate cards and print the best hand: its name and the cards that make it. "
            "High hands and A-5 lows take 5 to 7 cards, Teen Patti exactly 3."
        ),
    )
    parser.add_argument("cards", help='the cards, e.g. "As Ks Qs Js Ts 2c 3d"')
    parser.add_argument(
        "--game",
        choices=tuple(GAMES),
        default="high",
        help="the ranking: high (3x4, casino-holdem), razz (A-5 low) or teen-patti",
    )
    parser.add_argument("--json", action="store_true", help="print a JSON object instead")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Evaluate ``args.cards`` under ``args.game`` and print the result.

    Bad cards raise :class:`~pokerhouse.errors.InvalidCards`, which the
    command line reports with exit status 2.
    """
    ranking, evaluator = GAMES[args.game]
    cards = parse_cards(args.cards)
    hand = evaluator(cards)
    if args.json:
        print(
            json.dumps(
                {
                    "game": ranking,
                    "cards": [str(card) for card in cards],
                    "best": [str(card) for card in hand.cards],
                    "category": hand.category.name.lower(),
                    "description": hand.description,
                    "value": hand.value,
                }
            )
        )
    else:
        print(hand.description)
        print(format_cards(hand.cards))
    return 0
