"""An independent count of Casino Hold'em outcomes with eval7, one deal at a time.

The tests use it as the oracle for exact advice; ``bench/casino_holdem.py``
times it against the advisor.
"""

from __future__ import annotations

import itertools
import warnings

from pokerhouse.cards import FULL_DECK, Card

with warnings.catch_warnings():  # eval7 imports a deprecated pyparsing name
    warnings.simplefilter("ignore")
    import eval7


def eval7_flop_counts(hole: tuple[Card, ...], flop: tuple[Card, ...]) -> list[int]:
    """The flop's 1,070,190 ways, compared by eval7 (an independent evaluator)."""
    cards = {c: eval7.Card(str(c)) for c in FULL_DECK}
    mine = [cards[c] for c in hole]
    shown = [cards[c] for c in flop]
    unseen = [cards[c] for c in FULL_DECK if c not in hole and c not in flop]
    qualifier = eval7.evaluate([eval7.Card(t) for t in ["4c", "4d", "5h", "3s", "2c"]])
    counts = [0, 0, 0, 0]
    for turn, river in itertools.combinations(unseen, 2):
        board = [*shown, turn, river]
        value = eval7.evaluate(mine + board)
        rest = [c for c in unseen if c is not turn and c is not river]
        for dealer in itertools.combinations(rest, 2):
            other = eval7.evaluate([*dealer, *board])
            if other < qualifier:
                counts[0] += 1
            elif value > other:
                counts[1] += 1
            elif value == other:
                counts[2] += 1
            else:
                counts[3] += 1
    return counts
