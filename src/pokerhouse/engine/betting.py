"""Betting structures and the per-street sizing rules.

>>> Limit("pot-limit")
<Limit.POT_LIMIT: 'pot-limit'>
>>> raise_bounds(Limit.NO_LIMIT, current=40, last_raise=30, bet_size=10, pot=100,
...              to_call=40, bet=0, stack=1000)
(70, 1000)
>>> raise_bounds(Limit.POT_LIMIT, current=40, last_raise=30, bet_size=10, pot=100,
...              to_call=40, bet=0, stack=1000)
(70, 180)
>>> raise_bounds(Limit.FIXED_LIMIT, current=40, last_raise=20, bet_size=20, pot=100,
...              to_call=40, bet=0, stack=1000)
(60, 60)
"""

from __future__ import annotations

from enum import StrEnum


class Limit(StrEnum):
    """How much a bet or raise may be."""

    NO_LIMIT = "no-limit"
    POT_LIMIT = "pot-limit"
    FIXED_LIMIT = "fixed-limit"


def raise_bounds(
    limit: Limit,
    current: int,
    last_raise: int,
    bet_size: int,
    pot: int,
    to_call: int,
    bet: int,
    stack: int,
) -> tuple[int, int]:
    """Smallest and largest total a seat may bet or raise to, before its stack caps it.

    ``current`` is the bet to match (0 when nobody has bet), ``last_raise`` the
    size of the last full bet or raise in the round, ``bet_size`` the minimum
    bet (no/pot-limit) or the fixed bet (fixed-limit), ``pot`` everything in
    the middle including this round's bets, ``bet`` what the seat has in this
    round and ``stack`` what it has behind. The result is capped to the seat's
    all-in total; when that is below the minimum, both bounds are the all-in.
    """
    if limit is _FIXED_LIMIT:
        low = high = current + bet_size
    else:
        low = bet_size if current == 0 else current + max(last_raise, bet_size)
        # Pot-limit: call first, then raise by the pot after the call.
        high = max(low, current + pot + to_call) if limit is _POT_LIMIT else bet + stack
    all_in = bet + stack
    if all_in < low:
        return all_in, all_in
    return low, min(high, all_in)


# Read once: an enum member's class attribute lookup costs more than a global's.
_FIXED_LIMIT, _POT_LIMIT = Limit.FIXED_LIMIT, Limit.POT_LIMIT
