"""What one dealer hand is worth to a calling box, in antes, for a pay table and a cap.

A calling box has 3 antes at stake (ante + call). Against one dealer hand:

- dealer does not qualify: the ante is paid at odds ``A`` (of the box's
  hand), the call pushes: ``+A``;
- dealer qualifies and the box wins: ``+A + 2``;
- stand-off: 0; dealer wins: ``-3``.

With a max payout of ``K`` antes the two wins become ``min(A, K)`` and
``min(A + 2, K)``. Summed over a box's 990 dealer hands, with the counts of
:mod:`~pokerhouse.analysis.casino_holdem.counting`:

``win * nw + (not_qualified - win) * nq + 3 * m - 3 * 990``

Everything is scaled by ``scale`` (the cap's denominator) to stay in
integers.

>>> payouts = Payouts.of(AntePays())
>>> payouts.win, payouts.not_qualified, payouts.scale
((3, 4, 5, 12, 22, 102), (1, 2, 3, 10, 20, 100), 1)
>>> Payouts.of(AntePays(), max_payout=Fraction(50)).win[-1]
50
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from pokerhouse.errors import InvalidSpec
from pokerhouse.games.casino_holdem.paytables import AnteCategory, AntePays

#: The most a cap's denominator may be (keeps every sum exact in float64).
MAX_SCALE = 10_000


@dataclass(frozen=True, slots=True)
class Payouts:
    """Per :class:`AnteCategory` (weakest first): scaled results of a win and a non-qualifier."""

    ante_pays: AntePays
    max_payout: Fraction | None
    scale: int
    win: tuple[int, ...]
    not_qualified: tuple[int, ...]

    @classmethod
    def of(cls, ante_pays: AntePays, max_payout: Fraction | int | str | None = None) -> Payouts:
        """Payouts for ``ante_pays`` and a cap of ``max_payout`` antes (``None``: no cap)."""
        cap = None if max_payout is None else _cap(max_payout)
        scale = 1 if cap is None else cap.denominator
        win = []
        not_qualified = []
        for category in AnteCategory:
            odds = Fraction(ante_pays.odds(category))
            won, unqualified = odds + 2, odds
            if cap is not None:
                won, unqualified = min(won, cap), min(unqualified, cap)
            win.append(int(won * scale))
            not_qualified.append(int(unqualified * scale))
        return cls(ante_pays, cap, scale, tuple(win), tuple(not_qualified))

    def value(self, category: int, *, won: int, lost: int, not_qualified: int) -> Fraction:
        """The total, in antes, of these outcome counts for a box hand of ``category``.

        >>> Payouts.of(AntePays()).value(0, won=2, lost=1, not_qualified=1)
        Fraction(4, 1)
        """
        total = (
            self.win[category] * won
            + self.not_qualified[category] * not_qualified
            - 3 * self.scale * lost
        )
        return Fraction(total, self.scale)


def _cap(value: Fraction | int | str) -> Fraction:
    try:
        cap = Fraction(value)
    except (ValueError, TypeError, ZeroDivisionError):
        raise InvalidSpec(
            "bad_max_payout", f"max payout {value!r} is not a number of antes"
        ) from None
    if cap <= 0:
        raise InvalidSpec("bad_max_payout", f"max payout must be above 0 antes, not {cap}")
    if cap.denominator > MAX_SCALE:
        raise InvalidSpec(
            "bad_max_payout",
            f"max payout {cap} antes: use a fraction with a denominator up to {MAX_SCALE}",
        )
    return cap
