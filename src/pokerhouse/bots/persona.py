"""A bot's style: how tight and how aggressive it plays, drawn once per seat.

``tightness`` runs from -1 (loose: plays and calls with less) to 1 (tight:
wants more before it puts chips in); ``aggression`` from 0 (passive: checks
and calls, bluffs seldom) to 1 (aggressive: bets and raises where a bet pays,
bluffs more often, sizes up). Style changes how the bot wins, not whether
(the four extremes against the smart bot, the exploiter and the station in
the arena: ``docs/bots.md``).

>>> import random
>>> persona = Persona.draw(random.Random(3))
>>> persona.label in {"tight-aggressive", "tight-passive", "loose-aggressive", "loose-passive"}
True
>>> Persona(0.5, 0.8).label
'tight-aggressive'
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from pokerhouse.errors import InvalidSpec

#: The range styles are drawn from: tightness within ±0.9, aggression 0.05 to 0.95.
DRAWN_TIGHTNESS = 0.9
DRAWN_AGGRESSION = (0.05, 0.95)


@dataclass(frozen=True, slots=True)
class Persona:
    """A playing style (see the module's docstring)."""

    tightness: float = 0.0
    aggression: float = 0.5

    def __post_init__(self) -> None:
        if not -1.0 <= self.tightness <= 1.0 or not 0.0 <= self.aggression <= 1.0:
            raise InvalidSpec(
                "bad_persona",
                f"tightness runs -1 to 1 and aggression 0 to 1, not "
                f"{self.tightness!r} and {self.aggression!r}",
            )

    @classmethod
    def draw(cls, rng: random.Random) -> Persona:
        """A style at random: any mix of tight or loose, passive or aggressive, within
        the extremes the arena measured (:data:`EXTREMES`)."""
        return cls(
            round(rng.uniform(-DRAWN_TIGHTNESS, DRAWN_TIGHTNESS), 2),
            round(rng.uniform(DRAWN_AGGRESSION[0], DRAWN_AGGRESSION[1]), 2),
        )

    @property
    def label(self) -> str:
        """``tight-aggressive``, ``loose-passive``... as players name styles."""
        width = "tight" if self.tightness >= 0 else "loose"
        push = "aggressive" if self.aggression >= 0.5 else "passive"
        return f"{width}-{push}"


#: The four corners of the drawn styles (``bench/house_bots.py --styles`` plays them).
EXTREMES = tuple(
    Persona(tightness, aggression)
    for tightness in (-DRAWN_TIGHTNESS, DRAWN_TIGHTNESS)
    for aggression in DRAWN_AGGRESSION
)
