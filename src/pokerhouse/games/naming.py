"""What a player's cards make so far, in words, at any street of any game.

The evaluators name five to seven cards (a high hand, an A-5 low) or three
(Teen Patti); a hand in play often has fewer: three cards before the flop
at 3x4 Poker, three or four on Razz's early streets. :func:`hand_name`
names whatever is there: the evaluator's own description once there are
enough cards, and what the cards make so far before that (a pair, a high
card; at Razz the low so far).

>>> from pokerhouse.cards import parse_cards
>>> hand_name("3x4", parse_cards("6c 6d Kh"), parse_cards("6s 2d"))
'Three of a kind, sixes'
>>> hand_name("3x4", parse_cards("4d Tc 4c"))
'Pair of fours'
>>> hand_name("razz", parse_cards("8c 6d 4h 2s Ac"))
'8-6-4-2-A low'
>>> hand_name("razz", parse_cards("7c 4d Ah"))
'7-4-A low so far'
>>> hand_name("teen-patti", parse_cards("9c 9d 2s"))
'Pair of nines, 2 kicker'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from pokerhouse import evaluate
from pokerhouse.cards import RANK_CHARS, Card
from pokerhouse.evaluate.classes import RANK_NAMES, RANK_PLURALS

__all__ = ["hand_name", "partial_high", "partial_low"]

#: The games whose hands are the best five-card high hand of a player's cards and the board.
HIGH_GAMES = ("3x4", "casino-holdem")

ACE = 12


def hand_name(game: str, cards: Sequence[Card], board: Sequence[Card] = ()) -> str | None:
    """Name what ``cards`` (a player's own) and ``board`` make at ``game``.

    ``None`` when there is nothing to name: no cards yet, or a Teen Patti
    hand not yet complete.

    >>> from pokerhouse.cards import parse_cards
    >>> hand_name("casino-holdem", parse_cards("As Kd"), parse_cards("Qh 7c 2d"))
    'High card, ace, king, queen, seven, two'
    >>> hand_name("razz", []) is None
    True
    """
    if game in HIGH_GAMES:
        pool = [*cards, *board]
        if not pool:
            return None
        return evaluate.high(pool).description if len(pool) >= 5 else partial_high(pool)
    if game == "razz":
        pool = list(cards)
        if not pool:
            return None
        return evaluate.low(pool).description if len(pool) >= 5 else partial_low(pool)
    if game == "teen-patti":
        return evaluate.teen_patti(cards).description if len(cards) == 3 else None
    return None


def partial_high(cards: Sequence[Card]) -> str:
    """What fewer than five cards make as a high hand: four, three or two of a kind, a pair,
    or the high cards.

    >>> from pokerhouse.cards import parse_cards
    >>> partial_high(parse_cards("Kc Kd 4h 4s")), partial_high(parse_cards("Ac 7d Kh"))
    ('Two pair, kings and fours', 'High card, ace, king, seven')
    """
    counts = Counter(card.rank for card in cards)
    # Most of a rank first, then the higher rank: how a player reads the cards.
    ranks = sorted(counts, key=lambda rank: (counts[rank], rank), reverse=True)
    top = ranks[0]
    if counts[top] == 4:
        return f"Four of a kind, {RANK_PLURALS[top]}"
    if counts[top] == 3:
        return f"Three of a kind, {RANK_PLURALS[top]}"
    if counts[top] == 2:
        if len(ranks) > 1 and counts[ranks[1]] == 2:
            return f"Two pair, {RANK_PLURALS[top]} and {RANK_PLURALS[ranks[1]]}"
        return f"Pair of {RANK_PLURALS[top]}"
    return "High card, " + ", ".join(RANK_NAMES[rank] for rank in ranks)


def partial_low(cards: Sequence[Card]) -> str:
    """The A-5 low that fewer than five cards make so far: their ranks, aces low,
    and any rank held twice or more (it cannot help a low).

    >>> from pokerhouse.cards import parse_cards
    >>> partial_low(parse_cards("8c 4d 8h 2s"))
    '8-4-2 low so far, with two eights'
    >>> partial_low(parse_cards("Ac Ad As"))
    'A low so far, with three aces'
    """
    counts = Counter(card.rank for card in cards)
    # Aces low: the ace sorts below the deuce.
    ranks = sorted(counts, key=lambda rank: (rank + 1) % 13, reverse=True)
    low = "-".join(RANK_CHARS[rank] for rank in ranks) + " low so far"
    many = ("two", "three", "four")
    extra = [f"{many[counts[rank] - 2]} {RANK_PLURALS[rank]}" for rank in ranks if counts[rank] > 1]
    return low + (", with " + " and ".join(extra) if extra else "")
