"""Teen Patti's pots: one pot, split into side pots only at all-in levels.

Teen Patti has no equalising: players who can still bet put in different
amounts and the winner takes all of it. Only an all-in player caps what can
be won, so the common :func:`~pokerhouse.engine.pots.build_pots` runs on the
contributions up to the highest live all-in level, and everything above it
is one pot for the live players who put chips in above that level.

>>> [(p.amount, p.eligible) for p in teen_patti_pots([10, 30], [True, True], [False, False])]
[(40, (0, 1))]
>>> pots = teen_patti_pots([5, 30, 20, 4], [True, True, True, False], [True, False, False, False])
>>> [(p.amount, p.eligible) for p in pots]
[(19, (0, 1, 2)), (40, (1, 2))]
"""

from __future__ import annotations

from collections.abc import Sequence

from pokerhouse.engine.pots import Pot, build_pots, merge_pots


def teen_patti_pots(
    contributions: Sequence[int], live: Sequence[bool], all_in: Sequence[bool]
) -> list[Pot]:
    """Main and side pots from what each seat put in this hand.

    ``live[i]`` is false for a seat that folded; ``all_in[i]`` is true for a
    seat with no chips left. A live player below an all-in level (one who bet
    less than an all-in player) can win only up to what they put in, as in
    every game; the all-in player's uncovered excess is a pot of their own.
    """
    seats = range(len(contributions))
    cap = max((contributions[s] for s in seats if live[s] and all_in[s]), default=0)
    pots = build_pots([min(c, cap) for c in contributions], live) if cap else []
    rest = sum(c - min(c, cap) for c in contributions)
    if rest:
        above = tuple(s for s in seats if live[s] and contributions[s] > cap)
        if above:
            pots.append(Pot(rest, above))
        elif pots:
            # Folded players' chips above every live stake join the highest pot.
            pots[-1] = Pot(pots[-1].amount + rest, pots[-1].eligible)
        else:
            pots.append(Pot(rest, tuple(s for s in seats if live[s])))
    return merge_pots(pots)
