"""pokerhouse: a poker room in a box.

Exact, fast rules for 3x4 Poker, Razz, 3 Card Poker (Teen Patti) and Casino
Hold'em; hand evaluators; hand histories; bots; analysis; terminal play.

>>> from pokerhouse import parse_cards
>>> parse_cards("As Kd")
(As, Kd)
"""

from pokerhouse.cards import Card, Deck, Rank, Suit, format_cards, parse_cards
from pokerhouse.errors import (
    HistoryError,
    IllegalAction,
    InvalidAction,
    InvalidCards,
    InvalidSpec,
    OutOfTurn,
    PokerError,
)

__version__ = "0.1.0"

__all__ = [
    "Card",
    "Deck",
    "HistoryError",
    "IllegalAction",
    "InvalidAction",
    "InvalidCards",
    "InvalidSpec",
    "OutOfTurn",
    "PokerError",
    "Rank",
    "Suit",
    "__version__",
    "format_cards",
    "parse_cards",
]
