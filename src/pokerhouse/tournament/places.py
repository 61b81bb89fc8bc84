"""Places and prizes from the eliminations (RULES.md "Tournaments", "Places").

Entries out in one hand at one table are ranked by the chips they started
the hand with (more chips, higher place; the same chips tie). Entries out
in one hand-for-hand round at different tables tie: the best of each
table's out-list tie with each other, then the next best, and so on.
Eliminations are kept first out first; places are counted from the
bottom, so they are final only once registration has closed.

>>> ranked([(50, 7), (120, 3), (50, 9)])
[[7, 9], [3]]
>>> combined({1: [[3], [7, 9]], 2: [[5]]})
[[3], [5, 7, 9]]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from pokerhouse.tournament.payouts import tie_shares


def ranked(outs: Iterable[tuple[int, int]]) -> list[list[int]]:
    """``(chips at the hand's start, entry)`` of one table's hand: groups that tie, first
    out (fewest chips) first; within a group by entry number."""
    groups: dict[int, list[int]] = {}
    for chips, entry in outs:
        groups.setdefault(chips, []).append(entry)
    return [sorted(groups[chips]) for chips in sorted(groups)]


def combined(by_table: Mapping[int, Sequence[Sequence[int]]]) -> list[list[int]]:
    """One hand-for-hand round's groups from each table's (first out first): the last
    group of every table tie together, then the ones before them..."""
    deepest = max((len(groups) for groups in by_table.values()), default=0)
    tiers: list[list[int]] = [[] for _ in range(deepest)]
    for groups in by_table.values():
        for depth, group in enumerate(reversed(groups)):
            tiers[depth].extend(group)
    return [sorted(tier) for tier in reversed(tiers)]


def group_prizes(prizes: Sequence[int], best: int, size: int) -> tuple[int, ...]:
    """What each of ``size`` entries tied from place ``best`` down wins.

    >>> group_prizes((500, 300, 200), 2, 2)
    (250, 250)
    >>> group_prizes((500, 300, 200), 4, 1)
    (0,)
    """
    shares = [
        prizes[place - 1] if place <= len(prizes) else 0 for place in range(best, best + size)
    ]
    return tie_shares(shares, size)
