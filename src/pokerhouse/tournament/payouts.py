"""Prizes: how many places are paid, each one's share of the pool, ties.

RULES.md "Tournaments", "Prizes": by entrants, 2-4 pay 100; 5-7 65/35;
8-10 50/30/20; 11-20 40/25/15/12/8; 21-40 30/20/14/10/8/7/6/5. Above 40 the
top 15% (rounded down) are paid, by this formula: with ``n`` entrants and
``k`` places paid, each place ``i`` (1 is first) gets the share

    s(i) = f + (1/4 - f) / i**a,    f = 1.5 / n

of the pool: a floor ``f`` of one and a half buy-ins (the pool is ``n``
buy-ins when no guarantee lifts it), so every paid place gets more than
its buy-in, plus a part of what is left that falls as a power of the
place. First place gets exactly a quarter, no place more than the one
above it, and ``a`` is the one exponent (found by bisection) that makes the
``k`` shares sum to one. Prizes are whole chips, rounded down; the chips
the rounding leaves go to first place.

>>> prizes(1000, 9)
(500, 300, 200)
>>> prizes(1001, 6)
(651, 350)
>>> won = prizes(100 * 1000, 1000)
>>> len(won), won[0], won[1], won[-1], sum(won)
(150, 25070, 10135, 184, 100000)
>>> tie_shares((300, 200), 2)
(250, 250)
>>> tie_shares((300, 201), 2)
(251, 250)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: Shares in percent of the pool, by the most entrants they are for.
TABLE: tuple[tuple[int, tuple[int, ...]], ...] = (
    (4, (100,)),
    (7, (65, 35)),
    (10, (50, 30, 20)),
    (20, (40, 25, 15, 12, 8)),
    (40, (30, 20, 14, 10, 8, 7, 6, 5)),
)

#: First place's share above 40 entrants, and the floor in buy-ins of every paid place.
FIRST_SHARE = 0.25
FLOOR_BUY_INS = 1.5


def places_paid(entrants: int) -> int:
    """How many places are paid when ``entrants`` entered (0 for fewer than 2).

    >>> [places_paid(n) for n in (1, 2, 5, 8, 11, 21, 40, 41, 100, 1000)]
    [0, 1, 2, 3, 5, 8, 8, 6, 15, 150]
    """
    if entrants < 2:
        return 0
    for most, row in TABLE:
        if entrants <= most:
            return len(row)
    return entrants * 15 // 100


def shares(entrants: int) -> tuple[float, ...]:
    """Each paid place's share of the pool, first place first; they sum to 1."""
    if entrants < 2:
        return ()
    for most, row in TABLE:
        if entrants <= most:
            return tuple(percent / 100 for percent in row)
    return _formula(entrants, places_paid(entrants))


def _formula(entrants: int, paid: int) -> tuple[float, ...]:
    floor = FLOOR_BUY_INS / entrants
    top = FIRST_SHARE - floor
    wanted = 1 - paid * floor  # what the power part must add up to

    def total(exponent: float) -> float:
        return math.fsum(top / float(place) ** exponent for place in range(1, paid + 1))

    # total() falls as the exponent rises: from paid * top (>= wanted from 6 places
    # paid on) at 0 towards top alone (< wanted) as it grows.
    low, high = 0.0, 8.0
    for _ in range(100):
        middle = (low + high) / 2
        if total(middle) > wanted:
            low = middle
        else:
            high = middle
    exponent = (low + high) / 2
    return tuple(floor + top / float(place) ** exponent for place in range(1, paid + 1))


def prizes(pool: int, entrants: int) -> tuple[int, ...]:
    """Each paid place's prize in whole chips, first place first; they sum to ``pool``."""
    if entrants < 2 or pool <= 0:
        return ()
    for most, row in TABLE:
        if entrants <= most:
            won = [pool * percent // 100 for percent in row]
            break
    else:
        # At least a chip more than the buy-in (the pool's share of one entrant) each, which
        # rounding down could take away from the smallest buy-ins.
        least = pool // entrants + 1
        won = [max(int(pool * share), least) for share in _formula(entrants, places_paid(entrants))]
    won[0] += pool - sum(won)
    return tuple(won)


def tie_shares(places: Sequence[int], players: int) -> tuple[int, ...]:
    """What each of ``players`` tied players gets of the prizes of the places they
    tie for (``places``: those places' prizes, best first; places past the
    last paid count 0): equal shares, the odd chips one each to the first.
    """
    total = sum(places[:players])
    share, odd = divmod(total, players)
    return tuple(share + (1 if index < odd else 0) for index in range(players))
