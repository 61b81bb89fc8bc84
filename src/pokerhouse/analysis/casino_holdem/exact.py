"""The exact value of Casino Hold'em's Ante and Call under best play, over every deal.

There are 25,989,600 (hole cards, flop) deals and, after each, 1,070,190
ways for the turn, river and dealer's cards to fall. Best play calls when the
call's expected result beats folding's ``-1`` ante.

How it is counted without 2.8e13 comparisons:

1. **Per board.** A five-card board, whichever three of it are the flop,
   gives every two-card hand the same result against the dealer's 990 hands:
   :func:`~pokerhouse.analysis.casino_holdem.counting.board_counts` finds it
   for all 1,081 hands of a board at once. Boards are taken one per suit
   class (134,459 classes for 2,598,960 boards), weighted by class size.
2. **Per flop.** Each board's result is added to its ten flops' totals:
   the flop is moved to its class's canonical cards by a suit relabelling
   and the two-card hands go with it. Only one relabelling per (board, flop)
   is added; the flop class's own symmetries are applied once at the end.
3. **Decide.** For every flop class and two-card hand the total says call
   or fold; the best of the two, weighted by the class's size, summed.

All counts are integers (exact in float64), so the results are exact
fractions.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerhouse.analysis.casino_holdem.counting import (
    DEALER_HANDS,
    HOLE_HANDS,
    board_counts,
    hole_positions,
)
from pokerhouse.analysis.casino_holdem.payouts import Payouts
from pokerhouse.analysis.casino_holdem.strategy import StrategyTable
from pokerhouse.analysis.casino_holdem.symmetry import (
    PAIR_INDEX,
    PAIR_PERMUTATIONS,
    PAIRS,
    board_classes,
    combinations_array,
    flop_classes,
    subset_rank,
)
from pokerhouse.analysis.casino_holdem.tables import hand_tables
from pokerhouse.errors import InvalidSpec
from pokerhouse.games.casino_holdem.paytables import AntePays

#: Turn, river and dealer cards after one (hole, flop) deal: C(47, 2) * C(45, 2).
COMPLETIONS = HOLE_HANDS * DEALER_HANDS
#: (hole, flop) deals: C(52, 2) * C(50, 3).
DEALS = 1326 * 19600
_PAIRS_PER_FLOP = 1176  # C(49, 2)
_PACK = float(1 << 25)  # two counts per float64: each sum stays below 2**25

Progress = Callable[[int, int], None]


@dataclass(frozen=True, eq=False)
class ExactResult:
    """Exact figures for the Ante and Call under best play (per ante, from the box's side).

    ``outcomes`` splits all deals (weighted by their completions) into
    ``folded``, ``dealer_not_qualified``, ``won``, ``stand_off`` and ``lost``.
    """

    ante_pays: AntePays
    max_payout: Fraction | None
    deals: int
    ev: Fraction
    call_rate: Fraction
    dealer_qualifies: Fraction
    always_call_ev: Fraction
    outcomes: dict[str, Fraction]
    flop_classes: int
    seconds: float
    strategy: StrategyTable = field(repr=False)

    @property
    def house_edge(self) -> Fraction:
        """The house's expected gain per ante (the box's loss)."""
        return -self.ev

    @property
    def average_wager(self) -> Fraction:
        """Average chips risked per ante: the ante plus the call when made."""
        return 1 + 2 * self.call_rate

    @property
    def element_of_risk(self) -> Fraction:
        """The house edge per chip risked (ante plus call)."""
        return self.house_edge / self.average_wager

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures (fractions as floats, with the exact ones as text)."""
        figures = {
            "house_edge": self.house_edge,
            "ev": self.ev,
            "call_rate": self.call_rate,
            "element_of_risk": self.element_of_risk,
            "average_wager": self.average_wager,
            "dealer_qualifies": self.dealer_qualifies,
            "always_call_ev": self.always_call_ev,
        }
        return {
            "ante_pays": self.ante_pays.describe(),
            "max_payout_antes": None if self.max_payout is None else str(self.max_payout),
            "deals": self.deals,
            "completions_per_deal": COMPLETIONS,
            "flop_classes": self.flop_classes,
            **{name: float(value) for name, value in figures.items()},
            "outcomes": {name: float(value) for name, value in self.outcomes.items()},
            "exact": {
                **{name: str(value) for name, value in figures.items()},
                "outcomes": {name: str(value) for name, value in self.outcomes.items()},
            },
            "seconds": round(self.seconds, 1),
        }


def _board_flops(boards: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """For each board's ten three-card subsets: flop class and relabelling to canonical."""
    classes = flop_classes()
    subsets = combinations_array(5, 3)
    index = subset_rank(boards[:, subsets], 52)  # (boards, 10); rows of boards are sorted
    return classes.class_of[index], classes.permutation_of[index]


@dataclass(frozen=True, eq=False)
class FlopTotals:
    """Per flop class (rows) and two-card hand (columns, :data:`~.symmetry.PAIRS` order).

    Sums over the 1,070,190 completions of each deal: ``payoff`` (calling's
    total result, times ``Payouts.scale``), and the counts ``nq``, ``nw``,
    ``m`` of :mod:`~pokerhouse.analysis.casino_holdem.counting`. Entries for
    hands that meet the flop, or classes not computed, are 0.
    """

    payoff: NDArray[np.float64]
    nq: NDArray[np.float64]
    nw: NDArray[np.float64]
    m: NDArray[np.float64]


def _payoff(
    payouts: Payouts,
    classes: NDArray[np.int32],
    nq: NDArray[Any],
    nw: NDArray[Any],
    m: NDArray[Any],
) -> NDArray[np.int64]:
    category = hand_tables().ante_category[classes]
    win = np.array(payouts.win, dtype=np.int64)[category]
    not_qualified = np.array(payouts.not_qualified, dtype=np.int64)[category]
    result: NDArray[np.int64] = (
        win * nw + (not_qualified - win) * nq + 3 * payouts.scale * (m - DEALER_HANDS)
    )
    return result


def flop_totals(
    payouts: Payouts,
    wanted: NDArray[np.bool_],
    *,
    batch: int = 500,
    progress: Progress | None = None,
) -> FlopTotals:
    """The totals of every flop class marked in ``wanted``, through board classes.

    >>> wanted = np.zeros(1755, dtype=bool)
    >>> wanted[0] = True  # 2c 2d 2h
    >>> totals = flop_totals(Payouts.of(AntePays()), wanted)
    >>> int(totals.m[0].max()) <= COMPLETIONS, int(totals.payoff[1].sum())
    (True, 0)
    """
    flops = flop_classes()
    boards = board_classes()
    board_class, board_perm = _board_flops(boards.cards)
    use = wanted[board_class]
    board_ids = np.flatnonzero(use.any(axis=1))
    positions = hole_positions()
    size = len(flops.cards) * 1326
    totals = np.zeros(size)
    nw_nq = np.zeros(size)
    m_sums = np.zeros(size)
    total_boards = len(board_ids)
    for start in range(0, total_boards, batch):
        ids = board_ids[start : start + batch]
        counts = board_counts(boards.cards[ids])
        weight = boards.weights[ids][:, None]
        nq = counts.nq.astype(np.int64)
        nw = counts.nw.astype(np.int64)
        m = counts.m.astype(np.int64)
        payoff = _payoff(payouts, counts.classes, nq, nw, m)
        hole = PAIR_INDEX[counts.unseen[:, positions[:, 0]], counts.unseen[:, positions[:, 1]]]
        rows, slots = np.nonzero(use[ids])
        # Each (board, flop) adds the board's row, relabelled, to its flop class.
        target = (board_class[ids][rows, slots] * 1326)[:, None] + PAIR_PERMUTATIONS[
            board_perm[ids][rows, slots][:, None], hole[rows]
        ]
        flat = target.ravel()
        totals += np.bincount(flat, (payoff * weight)[rows].ravel(), minlength=size)
        nw_nq += np.bincount(flat, ((nw + nq * _PACK) * weight)[rows].ravel(), minlength=size)
        m_sums += np.bincount(flat, (m * weight)[rows].ravel(), minlength=size)
        if progress is not None:
            progress(min(start + batch, total_boards), total_boards)
    packed = _symmetrize(nw_nq, flops.stabilizers, wanted)
    nq_total = np.floor(packed / _PACK)
    return FlopTotals(
        payoff=_symmetrize(totals, flops.stabilizers, wanted),
        nq=nq_total,
        nw=packed - nq_total * _PACK,
        m=_symmetrize(m_sums, flops.stabilizers, wanted),
    )


def flop_totals_direct(flop: NDArray[np.integer], payouts: Payouts) -> FlopTotals:
    """One flop's totals (one row), straight from its 1,176 boards with no symmetry.

    Slower per flop than :func:`flop_totals` but independent of its
    bookkeeping: the tests compare the two.

    >>> from pokerhouse.cards import parse_cards
    >>> totals = flop_totals_direct(np.array(parse_cards("Kc 8d 3h")), Payouts.of(AntePays()))
    >>> int((totals.nq > 0).sum())  # every two-card hand that misses the flop
    1176
    """
    flop = np.sort(np.asarray(flop, dtype=np.int64))
    rest = np.setdiff1d(np.arange(52), flop)
    turn_river = rest[combinations_array(len(rest), 2)]
    boards = np.sort(np.column_stack([np.repeat(flop[None, :], len(turn_river), 0), turn_river]), 1)
    counts = board_counts(boards)
    positions = hole_positions()
    hole = PAIR_INDEX[counts.unseen[:, positions[:, 0]], counts.unseen[:, positions[:, 1]]]
    nq = counts.nq.astype(np.int64)
    nw = counts.nw.astype(np.int64)
    m = counts.m.astype(np.int64)
    payoff = _payoff(payouts, counts.classes, nq, nw, m)

    def total(values: NDArray[np.int64]) -> NDArray[np.float64]:
        out = np.zeros(1326)
        np.add.at(out, hole.ravel(), values.ravel().astype(np.float64))
        return out[None, :]

    return FlopTotals(payoff=total(payoff), nq=total(nq), nw=total(nw), m=total(m))


def exact_analysis(
    ante_pays: AntePays | None = None,
    *,
    max_payout: Fraction | int | str | None = None,
    flop_class_ids: Iterable[int] | None = None,
    batch: int = 500,
    progress: Progress | None = None,
) -> ExactResult:
    """Best play's exact figures over every deal (or only flops of ``flop_class_ids``).

    ``max_payout`` caps a box's winnings on Ante plus Call, in antes (the
    table's max payout over the ante); ``None`` leaves them uncapped, as the
    published figures are. ``progress(done, total)`` is called after each
    batch of boards. The full run takes a minute or two.

    >>> result = exact_analysis(flop_class_ids=[0])  # one class: three deuces
    >>> result.deals, result.flop_classes
    (4704, 1)
    """
    pays = ante_pays if ante_pays is not None else AntePays()
    payouts = Payouts.of(pays, max_payout)
    started = time.perf_counter()
    flops = flop_classes()
    n_classes = len(flops.cards)
    wanted = np.zeros(n_classes, dtype=bool)
    if flop_class_ids is None:
        wanted[:] = True
    else:
        ids = np.array(sorted(set(flop_class_ids)), dtype=np.int64)
        if len(ids) == 0 or ids.min() < 0 or ids.max() >= n_classes:
            raise InvalidSpec("bad_flop_class", f"flop classes run from 0 to {n_classes - 1}")
        wanted[ids] = True
    totals = flop_totals(payouts, wanted, batch=batch, progress=progress)

    valid = _valid_holes(flops.cards) & wanted[:, None]
    fold = -COMPLETIONS * payouts.scale
    calls = valid & (totals.payoff > fold)
    folds = valid & ~calls
    weights = flops.weights[:, None]
    deals = int((flops.weights * wanted).sum()) * _PAIRS_PER_FLOP
    denominator = deals * COMPLETIONS

    def weighted(values: NDArray[np.float64], where: NDArray[np.bool_]) -> int:
        # Exact: every entry is an integer below 2**53; sum per class in int64.
        per_class = np.where(where, values, 0).astype(np.int64).sum(axis=1)
        return sum(int(w) * int(s) for w, s in zip(flops.weights, per_class, strict=True))

    folded = int((weights * folds).sum())
    called = int((weights * calls).sum())
    best_total = weighted(totals.payoff, calls) + fold * folded
    nq_called = weighted(totals.nq, calls)
    nw_called = weighted(totals.nw, calls)
    m_called = weighted(totals.m, calls)
    outcomes = {
        "folded": Fraction(folded, deals),
        "dealer_not_qualified": Fraction(nq_called, denominator),
        "won": Fraction(nw_called - nq_called, denominator),
        "stand_off": Fraction(m_called - nw_called, denominator),
        "lost": Fraction(called * COMPLETIONS - m_called, denominator),
    }
    return ExactResult(
        ante_pays=pays,
        max_payout=payouts.max_payout,
        deals=deals,
        ev=Fraction(best_total, denominator * payouts.scale),
        call_rate=Fraction(called, deals),
        dealer_qualifies=1 - Fraction(weighted(totals.nq, valid), denominator),
        always_call_ev=Fraction(weighted(totals.payoff, valid), denominator * payouts.scale),
        outcomes=outcomes,
        flop_classes=int(wanted.sum()),
        seconds=time.perf_counter() - started,
        strategy=StrategyTable(calls=calls, covered=wanted.copy()),
    )


def _symmetrize(
    flat: NDArray[np.float64], stabilizers: tuple[NDArray[np.int64], ...], wanted: NDArray[np.bool_]
) -> NDArray[np.float64]:
    """Sum each flop class's totals over its suit symmetries, then divide by 24.

    A board class of weight ``24 / |stabilizer(board)|`` was added once per
    (board, flop) through one relabelling; the relabellings that also map
    the flop to its canonical cards are that one composed with the flop's
    stabilizer. Summing over the stabilizer counts every real (flop, board)
    24 times.
    """
    sums = flat.reshape(len(stabilizers), 1326)
    out = np.zeros_like(sums)
    for cls in np.flatnonzero(wanted):
        for perm in stabilizers[cls]:
            out[cls] += sums[cls, PAIR_PERMUTATIONS[perm]]
    return out / 24


def _valid_holes(flop_cards: NDArray[np.int64]) -> NDArray[np.bool_]:
    """Two-card hands that share no card with each class's canonical flop."""
    hits = np.zeros((len(flop_cards), 1326), dtype=bool)
    for column in range(flop_cards.shape[1]):
        card = flop_cards[:, column][:, None]
        hits |= (PAIRS[:, 0][None, :] == card) | (PAIRS[:, 1][None, :] == card)
    return ~hits
