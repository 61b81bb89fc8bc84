"""Call or fold? The exact value of calling for two hole cards and a flop.

After the flop, 47 cards are unseen: 1,081 turn-and-river pairs, and for
each 990 dealer hands, 1,070,190 ways in all. Folding is worth ``-1`` ante;
calling is worth the average over those ways, counted exactly (in well under
a second): every board's value for the box once, the dealer's 990 hands at
once with the lookup tables.

>>> advice = advise("As Kd", "Qh 7c 2d")
>>> advice.action, round(float(advice.call_ev), 4)
('call', -0.0787)
>>> advise("7c 2d", "As Kh 9d").action
'fold'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerhouse.analysis.casino_holdem.payouts import Payouts
from pokerhouse.analysis.casino_holdem.symmetry import combinations_array
from pokerhouse.analysis.casino_holdem.tables import hand_tables
from pokerhouse.cards import Card, check_cards, format_cards, parse_cards
from pokerhouse.errors import InvalidCards
from pokerhouse.games.casino_holdem.paytables import AntePays, BonusCategory, BonusPays

Ints = NDArray[np.int64]

#: Ways the turn, river and dealer's cards can fall after the flop.
FLOP_COMPLETIONS = comb(47, 2) * comb(45, 2)


@dataclass(frozen=True, slots=True)
class Outcomes:
    """How a calling box's hand ends over every way the unseen cards can fall."""

    dealer_not_qualified: int
    won: int
    stand_off: int
    lost: int
    #: The summed result of calling, in antes.
    total: Fraction

    @property
    def ways(self) -> int:
        """How many ways were counted."""
        return self.dealer_not_qualified + self.won + self.stand_off + self.lost

    @property
    def ev(self) -> Fraction:
        """The expected result of calling, in antes (ante and call together)."""
        return self.total / self.ways


@dataclass(frozen=True, slots=True)
class Advice:
    """What calling and folding are worth (in antes) for one box after the flop."""

    hole: tuple[Card, ...]
    flop: tuple[Card, ...]
    outcomes: Outcomes
    ante_pays: AntePays
    max_payout: Fraction | None
    #: The AA Bonus on these five cards (already settled when the box decides).
    bonus: BonusCategory
    bonus_pays: BonusPays

    @property
    def bonus_result(self) -> int:
        """The AA Bonus's result per unit bet: its odds when it wins, else -1."""
        return -1 if self.bonus is BonusCategory.LOSES else self.bonus_pays.odds(self.bonus)

    @property
    def call_ev(self) -> Fraction:
        """Expected result of calling (ante and call), in antes."""
        return self.outcomes.ev

    @property
    def fold_ev(self) -> Fraction:
        """Folding loses the ante."""
        return Fraction(-1)

    @property
    def action(self) -> str:
        """``"call"`` when calling is worth more than folding, else ``"fold"``."""
        return "call" if self.call_ev > self.fold_ev else "fold"

    @property
    def margin(self) -> Fraction:
        """How much better calling is than folding (negative: fold)."""
        return self.call_ev - self.fold_ev

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready advice; the exact values as fractions in text."""
        outcomes = self.outcomes
        return {
            "hole": format_cards(self.hole),
            "flop": format_cards(self.flop),
            "action": self.action,
            "call_ev": float(self.call_ev),
            "fold_ev": float(self.fold_ev),
            "margin": float(self.margin),
            "call_ev_exact": str(self.call_ev),
            "ways": outcomes.ways,
            "outcomes": {
                "dealer_not_qualified": outcomes.dealer_not_qualified,
                "won": outcomes.won,
                "stand_off": outcomes.stand_off,
                "lost": outcomes.lost,
            },
            "ante_pays": self.ante_pays.describe(),
            "max_payout_antes": None if self.max_payout is None else str(self.max_payout),
            "bonus": {
                "hand": self.bonus.name.lower(),
                "wins": self.bonus is not BonusCategory.LOSES,
                "result_per_unit": self.bonus_result,
                "bonus_pays": self.bonus_pays.describe(),
            },
        }


def advise(
    hole: str | Iterable[str | int],
    flop: str | Iterable[str | int],
    ante_pays: AntePays | None = None,
    *,
    max_payout: Fraction | int | str | None = None,
    bonus_pays: BonusPays | None = None,
) -> Advice:
    """Exact values of calling and folding with ``hole`` on ``flop``.

    ``max_payout`` caps the box's winnings on Ante plus Call, in antes. The
    advice also says how an AA Bonus on these cards was settled (at
    ``bonus_pays``, default the seed's flat 7:1).
    Cards may be text (``"As Kd"``) or card indices; a card given twice is
    an error.

    >>> advise("As Ad", "As 7c 2d")
    Traceback (most recent call last):
    ...
    pokerhouse.errors.InvalidCards: As is both a hole card and on the flop
    """
    hole_cards = parse_cards(hole)
    flop_cards = parse_cards(flop)
    if len(flop_cards) != 3:
        raise InvalidCards("card_count", f"a flop has 3 cards, got {len(flop_cards)}")
    _check_deal(hole_cards, flop_cards, "flop")
    payouts = Payouts.of(ante_pays if ante_pays is not None else AntePays(), max_payout)
    outcomes = call_outcomes(hole_cards, flop_cards, payouts)
    tables = hand_tables()
    bonus = BonusCategory(int(tables.bonus_category[tables.class_of(hole_cards + flop_cards)]))
    return Advice(
        hole_cards,
        flop_cards,
        outcomes,
        payouts.ante_pays,
        payouts.max_payout,
        bonus,
        bonus_pays if bonus_pays is not None else BonusPays(),
    )


def _check_deal(hole: Sequence[Card], board: Sequence[Card], name: str) -> None:
    """Two distinct hole cards, 3 to 5 distinct board cards, no card in both."""
    if len(hole) != 2:
        raise InvalidCards("card_count", f"a box holds 2 cards, got {len(hole)}")
    check_cards(list(hole), (2,))
    check_cards(list(board), (3, 4, 5))
    for card in hole:
        if card in board:
            raise InvalidCards(
                "duplicate_card", f"{Card(card)} is both a hole card and on the {name}"
            )


@cache
def _deals(unseen: int, board_missing: int) -> tuple[Ints, Ints]:
    """Positions among the unseen cards: each run-out, and for each the dealer's hands."""
    runouts = combinations_array(unseen, board_missing)
    pairs = combinations_array(unseen, 2)
    clash = np.zeros((len(runouts), len(pairs)), dtype=bool)
    for column in range(board_missing):
        card = runouts[:, column][:, None]
        clash |= (pairs[:, 0][None, :] == card) | (pairs[:, 1][None, :] == card)
    dealer_count = comb(unseen - board_missing, 2)
    dealer = np.nonzero(~clash)[1].reshape(len(runouts), dealer_count)
    return runouts, pairs[dealer]  # (runouts, k), (runouts, dealer hands, 2)


def call_outcomes(
    hole: Sequence[Card], board: Sequence[Card], payouts: Payouts | None = None
) -> Outcomes:
    """Count a calling box's results over every way the rest of the deal can fall.

    ``board`` holds 3, 4 or 5 cards; the missing ones and the dealer's two
    come from the unseen cards.

    >>> outcomes = call_outcomes(parse_cards("As Ah"), parse_cards("Ad Ac 2s 3s 4s"))
    >>> outcomes.ways, outcomes.lost  # quad aces lose only to 5s 6s, a straight flush
    (990, 1)
    """
    _check_deal(hole, board, "board")
    seen = set(hole) | set(board)
    pay = payouts if payouts is not None else Payouts.of(AntePays())
    tables = hand_tables()
    unseen = np.array([card for card in range(52) if card not in seen], dtype=np.int64)
    runouts, dealer = _deals(len(unseen), 5 - len(board))
    board_arr = np.array(board, dtype=np.int64)
    hole_arr = np.array(hole, dtype=np.int64)
    keys = tables.keys[unseen >> 2].astype(np.int64)
    board_key = int(tables.keys[board_arr >> 2].sum())
    runout_key = board_key + keys[runouts].sum(axis=1)  # (runouts,)
    dealer_key = runout_key[:, None] + keys[dealer].sum(axis=2)
    box_key = runout_key + int(tables.keys[hole_arr >> 2].sum())
    dealer_class = tables.nonflush7[dealer_key].astype(np.int32)
    box_class = tables.nonflush7[box_key].astype(np.int32)
    for suit in range(4):
        board_mask = int(np.left_shift(1, board_arr[(board_arr & 3) == suit] >> 2).sum())
        if board_mask == 0:
            continue  # at most two cards to come: no flush without one on the board
        bits = np.where((unseen & 3) == suit, np.left_shift(1, unseen >> 2), 0)
        runout_mask = board_mask | np.bitwise_or.reduce(bits[runouts], axis=1)
        dealer_mask = runout_mask[:, None] | bits[dealer[..., 0]] | bits[dealer[..., 1]]
        hole_mask = int(np.left_shift(1, hole_arr[(hole_arr & 3) == suit] >> 2).sum())
        dealer_class = np.maximum(dealer_class, tables.flush[dealer_mask])
        box_class = np.maximum(box_class, tables.flush[runout_mask | hole_mask])
    qualified = dealer_class >= tables.pair_of_fours
    box = box_class[:, None]
    not_qualified = (~qualified).sum(axis=1)
    won = (qualified & (dealer_class < box)).sum(axis=1)
    lost = (qualified & (dealer_class > box)).sum(axis=1)
    stand_off = dealer.shape[1] - not_qualified - won - lost
    category = tables.ante_category[box_class]
    win_pay = np.array(pay.win, dtype=np.int64)[category]
    nq_pay = np.array(pay.not_qualified, dtype=np.int64)[category]
    total = int((win_pay * won + nq_pay * not_qualified - 3 * pay.scale * lost).sum())
    return Outcomes(
        dealer_not_qualified=int(not_qualified.sum()),
        won=int(won.sum()),
        stand_off=int(stand_off.sum()),
        lost=int(lost.sum()),
        total=Fraction(total, pay.scale),
    )
