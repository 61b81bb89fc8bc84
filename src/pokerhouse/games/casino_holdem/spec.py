"""Table settings for Casino Hold'em: ante limits, max payout, pay tables, bonus minimum.

>>> spec = CasinoHoldemSpec(min_ante=5, max_ante=500, max_payout=20_000, bonus_pays="common")
>>> spec.bonus_pays.royal_flush, spec.bonus_minimum
(100, 5)
>>> CasinoHoldemSpec(min_ante=10, max_ante=5)
Traceback (most recent call last):
...
pokerhouse.errors.InvalidSpec: max_ante (5) is below min_ante (10)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pokerhouse.errors import InvalidSpec
from pokerhouse.games import checks
from pokerhouse.games.casino_holdem.paytables import AntePays, BonusPays


@dataclass(frozen=True, slots=True)
class CasinoHoldemSpec:
    """A Casino Hold'em table.

    ``min_ante``/``max_ante`` bound each box's Ante; ``max_payout`` caps what
    one box can win on Ante plus Call in one round (the excess is not paid;
    the bonus is settled apart). ``ante_pays`` is the Ante pay table (default:
    royal flush 100, straight flush 20, four of a kind 10, full house 3,
    flush 2, straight or less 1), ``bonus_pays`` the AA Bonus table (default
    7:1 on every hand from a pair of aces up; ``"common"`` names the common
    100/50/40/30/20/7 table). A bonus is 0 or from ``bonus_min`` (default:
    the table minimum, ``min_ante``) up to the box's ante. Pay tables may be
    given as objects, names or text such as ``"100,20,10,3,2,1"``.

    >>> CasinoHoldemSpec(ante_pays="200,20,10,3,2,1").ante_pays.royal_flush
    200
    >>> CasinoHoldemSpec(max_payout=0)
    Traceback (most recent call last):
    ...
    pokerhouse.errors.InvalidSpec: max_payout must be a whole number >= 1, not 0
    """

    min_ante: int = 1
    max_ante: int = 100
    max_payout: int = 10_000
    ante_pays: AntePays = field(default_factory=AntePays)
    bonus_pays: BonusPays = field(default_factory=BonusPays)
    bonus_min: int | None = None

    def __post_init__(self) -> None:
        for name in ("min_ante", "max_ante", "max_payout"):
            checks.whole(name, getattr(self, name), minimum=1)
        if self.max_ante < self.min_ante:
            raise InvalidSpec(
                "bad_limits", f"max_ante ({self.max_ante}) is below min_ante ({self.min_ante})"
            )
        if self.bonus_min is not None:
            checks.whole("bonus_min", self.bonus_min, minimum=1)
        object.__setattr__(self, "ante_pays", AntePays.coerce(self.ante_pays))
        object.__setattr__(self, "bonus_pays", BonusPays.coerce(self.bonus_pays))

    @property
    def bonus_minimum(self) -> int:
        """The smallest bonus bet allowed (the table minimum unless set)."""
        return self.bonus_min if self.bonus_min is not None else self.min_ante

    @property
    def default_ante(self) -> int:
        """The ante a new box bets until its player says otherwise: the table minimum."""
        return self.min_ante

    def check_wager(self, ante: object, bonus: object) -> None:
        """Raise :class:`InvalidSpec` (``bad_wager``) unless a box may bet this.

        ``ante`` is from the table minimum to the maximum; ``bonus`` is 0 or
        from the bonus minimum up to the ante.

        >>> CasinoHoldemSpec(min_ante=5).check_wager(5, 10)
        Traceback (most recent call last):
        ...
        pokerhouse.errors.InvalidSpec: a bonus is 0 or from 5 up to the ante (5), not 10
        >>> CasinoHoldemSpec(min_ante=5, max_ante=50).check_wager(-1, 0)
        Traceback (most recent call last):
        ...
        pokerhouse.errors.InvalidSpec: the ante must be from 5 to 50, not -1
        """
        antes = f"from {self.min_ante} to {self.max_ante}"
        if type(ante) is not int or not self.min_ante <= ante <= self.max_ante:
            whole = "" if type(ante) is int else "a whole number "
            raise InvalidSpec("bad_wager", f"the ante must be {whole}{antes}, not {ante!r}")
        bonuses = f"0 or from {self.bonus_minimum} up to the ante ({ante})"
        if type(bonus) is not int or (bonus and not self.bonus_minimum <= bonus <= ante):
            whole = "" if type(bonus) is int else "a whole number, "
            raise InvalidSpec("bad_wager", f"a bonus is {whole}{bonuses}, not {bonus!r}")

    def stake_needed(self, ante: int, bonus: int) -> int:
        """Chips a box must hold to be dealt in: its ante, its bonus and the call.

        The call is twice the ante, so a box dealt in can always choose to call.

        >>> CasinoHoldemSpec().stake_needed(10, 5)
        35
        """
        return 3 * ante + bonus
