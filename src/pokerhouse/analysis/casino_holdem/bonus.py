"""The exact return of the AA Bonus for any bonus pay table.

The bonus is settled on the box's two cards and the flop, five cards dealt
from a full deck, so every one of the C(52, 5) = 2,598,960 five-card hands
is equally likely: counting them by bonus class gives the exact return.

>>> result = bonus_return()  # the seed's flat 7:1
>>> result.counts[BonusCategory.PAIR_OF_ACES], result.wins
(84480, 282660)
>>> round(float(result.house_edge), 5)
0.12993
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb
from typing import Any

import numpy as np

from pokerhouse.analysis.casino_holdem.symmetry import combinations_array
from pokerhouse.analysis.casino_holdem.tables import hand_tables
from pokerhouse.games.casino_holdem.paytables import BonusCategory, BonusPays

#: Five-card hands from one deck.
FIVE_CARD_HANDS = comb(52, 5)


@cache
def bonus_counts() -> dict[BonusCategory, int]:
    """How many of the 2,598,960 five-card hands fall in each bonus class (built once).

    >>> bonus_counts()[BonusCategory.ROYAL_FLUSH], bonus_counts()[BonusCategory.TWO_PAIR]
    (4, 123552)
    """
    tables = hand_tables()
    hands = combinations_array(52, 5)
    classes = tables.classes5(hands)
    counts = np.bincount(tables.bonus_category[classes], minlength=len(BonusCategory))
    return {category: int(counts[category]) for category in BonusCategory}


@dataclass(frozen=True, slots=True)
class BonusReturn:
    """The AA Bonus's exact results per unit bet for one pay table."""

    bonus_pays: BonusPays
    counts: dict[BonusCategory, int]

    @property
    def hands(self) -> int:
        """Five-card hands counted (all of them)."""
        return sum(self.counts.values())

    @property
    def wins(self) -> int:
        """Hands that win the bonus (a pair of aces or better)."""
        return self.hands - self.counts[BonusCategory.LOSES]

    @property
    def ev(self) -> Fraction:
        """The bettor's expected result per unit bet."""
        paid = sum(
            self.bonus_pays.odds(category) * count for category, count in self.counts.items()
        )
        return Fraction(paid - self.counts[BonusCategory.LOSES], self.hands)

    @property
    def house_edge(self) -> Fraction:
        """The house's expected gain per unit bet."""
        return -self.ev

    @property
    def win_rate(self) -> Fraction:
        """How often the bonus wins."""
        return Fraction(self.wins, self.hands)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures."""
        return {
            "bonus_pays": self.bonus_pays.describe(),
            "hands": self.hands,
            "counts": {category.name.lower(): count for category, count in self.counts.items()},
            "win_rate": float(self.win_rate),
            "ev": float(self.ev),
            "house_edge": float(self.house_edge),
            "exact": {"ev": str(self.ev), "house_edge": str(self.house_edge)},
        }


def bonus_return(bonus_pays: BonusPays | None = None) -> BonusReturn:
    """The AA Bonus's exact return for ``bonus_pays`` (default: the seed's flat 7:1)."""
    return BonusReturn(bonus_pays if bonus_pays is not None else BonusPays(), bonus_counts())
