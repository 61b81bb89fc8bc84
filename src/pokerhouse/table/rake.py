"""The room's rake: a share of each pot in the pool games, capped per hand.

RULES.md, "The room": a percentage of each pot, capped per hand, rounded
down to whole chips, taken only from hands that go past the first betting
round. Each pot's rake comes out of what its winners took, in proportion to
their shares.

>>> rake = Rake(percent="5", cap=3)
>>> rake.per_pot(40), rake.per_pot(39)
(2, 1)
>>> rake.take([(100, (0, 1), (50, 50))])
(3, {0: 2, 1: 1})
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from pokerhouse.table.errors import TableError


@dataclass(frozen=True, slots=True)
class Rake:
    """``percent`` of each pot (a number or its text: ``"2.5"``), at most ``cap`` chips a hand."""

    percent: Fraction | int | str
    cap: int

    def __post_init__(self) -> None:
        try:
            value = Fraction(str(self.percent))
        except (ValueError, ZeroDivisionError):
            raise TableError(
                "bad_rake", f"the rake is a percentage, not {self.percent!r}"
            ) from None
        if isinstance(self.percent, bool) or not 0 <= value <= 100:
            raise TableError("bad_rake", f"the rake is from 0 to 100 percent, not {self.percent!r}")
        if type(self.cap) is not int or self.cap < 0:
            raise TableError("bad_rake", f"the rake cap is a whole number >= 0, not {self.cap!r}")
        object.__setattr__(self, "percent", value)

    def per_pot(self, amount: int) -> int:
        """The rake on one pot of ``amount`` chips, before the cap (rounded down)."""
        return int(Fraction(amount) * Fraction(self.percent) / 100)

    def take(
        self, pots: Sequence[tuple[int, Sequence[int], Sequence[int]]]
    ) -> tuple[int, dict[int, int]]:
        """The rake from awarded pots ``(amount, winners, shares)``, and what each winner pays.

        Pots are raked in order until the cap is reached. Within a pot each
        winner pays in proportion to its share, rounded down, and the
        remainder comes from the first winners.
        """
        left = self.cap
        paid: dict[int, int] = {}
        for amount, winners, shares in pots:
            rake = min(self.per_pot(amount), left)
            if rake <= 0:
                continue
            left -= rake
            parts = [rake * share // amount for share in shares]
            for index in range(rake - sum(parts)):
                parts[index % len(parts)] += 1
            for seat, part in zip(winners, parts, strict=True):
                if part:
                    paid[seat] = paid.get(seat, 0) + part
        return self.cap - left, paid
