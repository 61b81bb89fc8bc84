"""Table settings for 3 Card Poker (Teen Patti).

>>> TeenPattiSpec(ante=5, limit="pot-limit")
TeenPattiSpec(ante=5, limit=<Limit.POT_LIMIT: 'pot-limit'>, sideshow=False)
>>> TeenPattiSpec(limit="fixed-limit")
Traceback (most recent call last):
...
pokerhouse.errors.InvalidSpec: Teen Patti is played no-limit or pot-limit, not fixed-limit
"""

from __future__ import annotations

from dataclasses import dataclass

from pokerhouse.engine.betting import Limit
from pokerhouse.games import checks

#: The limits Teen Patti can be played with: the rule book has no fixed-limit form.
TEEN_PATTI_LIMITS = (Limit.NO_LIMIT, Limit.POT_LIMIT)


@dataclass(frozen=True, slots=True)
class TeenPattiSpec:
    """Teen Patti's ante, betting limit and sideshow option.

    ``ante`` is what everyone posts and the first current stake (at least 1
    chip, since every minimum is a multiple of the stake). ``limit`` is
    no-limit (the default: a bet may be any amount up to the stack) or
    pot-limit (no bet may exceed the pot). ``sideshow`` turns on the private
    comparison a seen player may ask of the previous player (off by default).

    >>> TeenPattiSpec()
    TeenPattiSpec(ante=1, limit=<Limit.NO_LIMIT: 'no-limit'>, sideshow=False)
    >>> TeenPattiSpec(ante=0)
    Traceback (most recent call last):
    ...
    pokerhouse.errors.InvalidSpec: ante must be a whole number >= 1, not 0
    """

    ante: int = 1
    limit: Limit = Limit.NO_LIMIT
    sideshow: bool = False

    def __post_init__(self) -> None:
        limit = checks.limit(self.limit, TEEN_PATTI_LIMITS, game="Teen Patti")
        object.__setattr__(self, "limit", limit)
        checks.whole("ante", self.ante, minimum=1)
        checks.flag("sideshow", self.sideshow)
