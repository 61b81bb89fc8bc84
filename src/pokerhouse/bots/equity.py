"""Monte Carlo equity from what a seat can see: its cards, others' up cards, the board.

The unseen cards (the deck less every card the seat can see, dead cards
included) are dealt at random to fill each player's hand and the board, a few
hundred times at once, and the batch evaluator scores every deal in one
numpy call. Equity is the seat's average share of the pot at showdown, ties
split.

>>> import numpy as np
>>> from pokerhouse import evaluate
>>> from pokerhouse.cards import parse_cards
>>> equity = monte_carlo_equity(
...     parse_cards("As Ad Ah"), [()], parse_cards("Ac 2d"),
...     hole_total=3, board_total=4, evaluate_batch=evaluate.high_batch,
...     samples=200, rng=np.random.default_rng(1))
>>> equity > 0.95
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from pokerhouse.cards import Card

#: Scores a batch of hands (rows of card ints); higher is better.
BatchEvaluator = Callable[[npt.NDArray[np.int64]], npt.NDArray[np.int64]]


def monte_carlo_equity(
    mine: Sequence[Card],
    opponents: Sequence[Sequence[Card]],
    board: Sequence[Card] = (),
    *,
    hole_total: int,
    board_total: int,
    evaluate_batch: BatchEvaluator,
    samples: int,
    rng: np.random.Generator,
    dead: Sequence[Card] = (),
) -> float:
    """The viewer's expected share of the pot against ``opponents`` at showdown.

    ``mine`` and each of ``opponents`` are the cards known so far (an
    opponent's up cards, or nothing); every player ends with ``hole_total``
    cards of their own and ``board_total`` shared ones. ``dead`` cards are
    seen but out of play (a folded player's up cards). When the unseen cards
    cannot fill every hand (eight players to Razz's seventh street), the last
    cards are shared, as the rule book's community card is.
    """
    if not opponents:
        return 1.0
    values = showdown_values(
        mine,
        opponents,
        board,
        hole_total=hole_total,
        board_total=board_total,
        evaluate_batch=evaluate_batch,
        samples=samples,
        rng=rng,
        dead=dead,
    )
    return float(pot_shares(values).mean())


def showdown_values(
    mine: Sequence[Card],
    opponents: Sequence[Sequence[Card]],
    board: Sequence[Card] = (),
    *,
    hole_total: int,
    board_total: int,
    evaluate_batch: BatchEvaluator,
    samples: int,
    rng: np.random.Generator,
    dead: Sequence[Card] = (),
) -> npt.NDArray[np.int64]:
    """Every player's showdown value in ``samples`` random completions of the deal.

    Row 0 is the viewer's, then one row per opponent, one column per
    completion (the arguments as for :func:`monte_carlo_equity`); higher is
    better.
    """
    known = [*mine, *board, *dead, *(card for cards in opponents for card in cards)]
    pool = np.setdiff1d(np.arange(52, dtype=np.int64), np.array(known, dtype=np.int64))
    holes = [list(mine), *(list(cards) for cards in opponents)]
    missing = [hole_total - len(cards) for cards in holes]
    board_missing = board_total - len(board)
    # Too few cards left: convert each player's last missing card into a shared one.
    while board_missing + sum(missing) > len(pool):
        missing = [max(0, n - 1) for n in missing]
        board_missing += 1
    needed = board_missing + sum(missing)
    order = np.argsort(rng.random((samples, len(pool))), axis=1)[:, :needed]
    fill = pool[order]
    shared = np.concatenate(
        [
            np.broadcast_to(np.array(board, dtype=np.int64), (samples, len(board))),
            fill[:, :board_missing],
        ],
        axis=1,
    )
    rows = []
    start = board_missing
    for cards, count in zip(holes, missing, strict=True):
        known_part = np.broadcast_to(np.array(cards, dtype=np.int64), (samples, len(cards)))
        rows.append(np.concatenate([known_part, fill[:, start : start + count], shared], axis=1))
        start += count
    return evaluate_batch(np.concatenate(rows, axis=0)).reshape(len(holes), samples)


def pot_shares(values: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    """Row 0's share of the pot in each column of :func:`showdown_values` (ties split)."""
    best = values.max(axis=0)
    winners = values == best
    shares: npt.NDArray[np.float64] = winners[0] / winners.sum(axis=0)
    return shares
