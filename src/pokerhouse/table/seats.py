"""Seats and table limits: who sits where, with how many chips, in what state.

>>> limits = TableLimits(min_buy_in=40, max_buy_in=400)
>>> limits.check_buy_in(100)
>>> limits.check_buy_in(20)
Traceback (most recent call last):
...
pokerhouse.table.errors.TableError: a buy-in of 20 is below the table minimum of 40
"""

from __future__ import annotations

from dataclasses import dataclass

from pokerhouse.engine.frozen import quick_init
from pokerhouse.table.errors import TableError


@dataclass(frozen=True, slots=True)
class TableLimits:
    """The smallest and largest stack a player may buy in for (and rebuy up to)."""

    min_buy_in: int = 20
    max_buy_in: int = 2000

    def __post_init__(self) -> None:
        for name in ("min_buy_in", "max_buy_in"):
            value = getattr(self, name)
            if type(value) is not int or value < 1:
                raise TableError("bad_limits", f"{name} must be a whole number >= 1, not {value!r}")
        if self.max_buy_in < self.min_buy_in:
            raise TableError(
                "bad_limits",
                f"the maximum buy-in ({self.max_buy_in}) is below the minimum ({self.min_buy_in})",
            )

    def check_buy_in(self, amount: object) -> None:
        """Raise :class:`TableError` unless ``amount`` is a buy-in within the limits."""
        if type(amount) is not int or amount < 1:
            raise TableError(
                "bad_amount", f"a buy-in must be a whole number of chips, not {amount!r}"
            )
        if amount < self.min_buy_in:
            raise TableError(
                "buy_in_too_small",
                f"a buy-in of {amount} is below the table minimum of {self.min_buy_in}",
            )
        if amount > self.max_buy_in:
            raise TableError(
                "buy_in_too_large",
                f"a buy-in of {amount} is above the table maximum of {self.max_buy_in}",
            )


@dataclass(slots=True)
class Seat:
    """One occupied seat (mutable; the table hands out :class:`SeatInfo` copies)."""

    player: str
    stack: int
    bought_in: int
    rebuys: int = 0
    sitting_out: bool = False
    leaving: bool = False
    ante: int = 0
    bonus: int = 0
    #: The caller's id for whoever sits here (0: none given).
    account: int = 0


@quick_init
@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A snapshot of one occupied seat.

    ``stack`` is the seat's chips between hands (during a hand, its stack at
    the start of the hand). ``in_hand`` says whether it plays the running hand.
    ``needs`` is the least stack that is dealt in: 1 chip at a pool game, the
    ante, the bonus and the call (twice the ante) for a box at a banked game;
    a ``busted`` seat has less and gets no hand until it rebuys. ``ante`` and
    ``bonus`` are a box's wagers at a banked game; ``account`` is the
    caller's id for the player (0: none given).
    """

    seat: int
    player: str
    stack: int
    bought_in: int
    rebuys: int
    sitting_out: bool
    leaving: bool
    in_hand: bool
    ante: int = 0
    bonus: int = 0
    needs: int = 1
    account: int = 0

    @property
    def busted(self) -> bool:
        """Too few chips to be dealt in (none, at a pool game): no hand until a rebuy."""
        return self.stack < self.needs

    @property
    def net(self) -> int:
        """Chips won (or lost, negative) since sitting down."""
        return self.stack - self.bought_in
