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
from pokerhouse.errors import InvalidSpec

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
        if not isinstance(self.limit, Limit):
            try:
                object.__setattr__(self, "limit", Limit(self.limit))
            except ValueError:
                known = ", ".join(limit.value for limit in TEEN_PATTI_LIMITS)
                raise InvalidSpec("bad_limit", f"unknown limit {self.limit!r} ({known})") from None
        if self.limit not in TEEN_PATTI_LIMITS:
            raise InvalidSpec(
                "bad_limit",
                f"Teen Patti is played no-limit or pot-limit, not {self.limit.value}",
            )
        if type(self.ante) is not int or self.ante < 1:
            raise InvalidSpec("bad_spec", f"ante must be a whole number >= 1, not {self.ante!r}")
        if type(self.sideshow) is not bool:
            raise InvalidSpec("bad_spec", f"sideshow must be true or false, not {self.sideshow!r}")
