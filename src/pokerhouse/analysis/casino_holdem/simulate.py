"""Monte Carlo play of Casino Hold'em for any strategy, with confidence intervals.

Each round deals a box's two cards, the flop, the turn and river and the
dealer's two cards from a shuffled deck (numpy's seeded generator), asks the
strategy to call or fold, and settles Ante, Call and a one-unit AA Bonus.
Used to check the exact figures: their confidence intervals should cover
them.

>>> from pokerhouse.analysis.casino_holdem.strategy import always_call
>>> result = simulate(20_000, always_call, seed=1)
>>> result.rounds, -0.12 < result.result.mean < -0.04
(20000, True)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerhouse.analysis.casino_holdem.payouts import Payouts
from pokerhouse.analysis.casino_holdem.strategy import Strategy
from pokerhouse.analysis.casino_holdem.tables import hand_tables
from pokerhouse.cards import Card, parse_cards
from pokerhouse.errors import InvalidCards, InvalidSpec
from pokerhouse.games.casino_holdem.paytables import AntePays, BonusPays

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class Estimate:
    """A sample mean with its standard error.

    >>> [round(x, 4) for x in Estimate(mean=0.5, stderr=0.1, samples=100).interval()]
    [0.304, 0.696]
    """

    mean: float
    stderr: float
    samples: int

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """A normal-approximation confidence interval for the true mean."""
        z = NormalDist().inv_cdf(0.5 + confidence / 2)
        return (self.mean - z * self.stderr, self.mean + z * self.stderr)

    def covers(self, value: float | Fraction, confidence: float = 0.95) -> bool:
        """Whether ``value`` lies in the confidence interval."""
        low, high = self.interval(confidence)
        return low <= float(value) <= high

    @classmethod
    def of(cls, total: float, squares: float, samples: int) -> Estimate:
        """From a sum and a sum of squares over ``samples`` values.

        >>> Estimate.of(total=4.0, squares=10.0, samples=4).mean
        1.0
        """
        mean = float(total) / samples
        variance = max(squares / samples - mean * mean, 0.0) * samples / max(samples - 1, 1)
        return cls(mean, math.sqrt(variance / samples), samples)


@dataclass(frozen=True, slots=True)
class SimulatedEdge:
    """Simulated figures per round: ``result`` is the box's Ante-and-Call result in antes."""

    rounds: int
    result: Estimate
    bonus: Estimate
    call_rate: float
    dealer_qualifies: float
    seed: int | None

    @property
    def house_edge(self) -> Estimate:
        """The house's gain per ante (the box's result, negated)."""
        return Estimate(-self.result.mean, self.result.stderr, self.result.samples)

    def to_dict(self, confidence: float = 0.95) -> dict[str, Any]:
        """JSON-ready figures with ``confidence`` intervals."""
        return {
            "rounds": self.rounds,
            "seed": self.seed,
            "confidence": confidence,
            "house_edge": self.house_edge.mean,
            "house_edge_interval": list(self.house_edge.interval(confidence)),
            "ev": self.result.mean,
            "ev_stderr": self.result.stderr,
            "call_rate": self.call_rate,
            "dealer_qualifies": self.dealer_qualifies,
            "bonus_ev": self.bonus.mean,
            "bonus_ev_interval": list(self.bonus.interval(confidence)),
        }


def _known(cards: str | Iterable[str | int] | None, count: int, name: str) -> tuple[Card, ...]:
    if cards is None:
        return ()
    parsed = parse_cards(cards)
    if len(parsed) != count:
        raise InvalidCards("card_count", f"the {name} has {count} cards, got {len(parsed)}")
    return parsed


def simulate(
    rounds: int,
    strategy: Strategy,
    *,
    ante_pays: AntePays | None = None,
    bonus_pays: BonusPays | None = None,
    max_payout: Fraction | int | str | None = None,
    seed: int | None = None,
    hole: str | Iterable[str | int] | None = None,
    flop: str | Iterable[str | int] | None = None,
    chunk: int = 50_000,
    progress: Progress | None = None,
) -> SimulatedEdge:
    """Play ``rounds`` rounds with ``strategy`` and estimate the figures.

    ``hole`` and ``flop`` fix those cards (then only the rest is dealt),
    e.g. to check one piece of advice. ``max_payout`` caps a box's winnings
    on Ante plus Call, in antes. A strategy with ``decide_many(holes, flops)``
    is asked for a whole chunk of deals at once.
    """
    if type(rounds) is not int or rounds < 2:
        raise InvalidSpec("bad_rounds", f"simulate at least 2 rounds, not {rounds!r}")
    if seed is not None and (type(seed) is not int or seed < 0):
        raise InvalidSpec("bad_seed", f"a seed is a whole number >= 0, not {seed!r}")
    payouts = Payouts.of(ante_pays if ante_pays is not None else AntePays(), max_payout)
    bonus_odds = np.array((bonus_pays if bonus_pays is not None else BonusPays()).as_tuple())
    fixed_hole = _known(hole, 2, "hole")
    fixed_flop = _known(flop, 3, "flop")
    fixed = list(fixed_hole) + list(fixed_flop)
    if len(set(fixed)) != len(fixed):
        raise InvalidCards("duplicate_card", "a card is both a hole card and on the flop")
    deck = np.array([card for card in range(52) if card not in set(fixed)], dtype=np.int64)
    need = 9 - len(fixed)
    tables = hand_tables()
    rng = np.random.default_rng(seed)
    win = np.array(payouts.win, dtype=np.float64) / payouts.scale
    unqualified = np.array(payouts.not_qualified, dtype=np.float64) / payouts.scale
    decide_many = getattr(strategy, "decide_many", None)
    sums = np.zeros(7)  # result, result², bonus, bonus², calls, dealer qualifies, rounds
    done = 0
    while done < rounds:
        n = min(chunk, rounds - done)
        drawn = deck[np.argsort(rng.random((n, len(deck))), axis=1)[:, :need]]
        parts: list[NDArray[np.int64]] = []
        taken = 0
        for known, size in ((fixed_hole, 2), (fixed_flop, 3)):
            if known:
                parts.append(np.broadcast_to(np.array(known, dtype=np.int64), (n, size)))
            else:
                parts.append(drawn[:, taken : taken + size])
                taken += size
        holes, flops = parts
        rest = drawn[:, taken:]  # turn, river, then the dealer's two
        board = np.concatenate([flops, rest[:, :2]], axis=1)
        if decide_many is not None:
            calls = np.asarray(decide_many(holes, flops), dtype=bool)
        else:
            calls = np.array(
                [
                    bool(strategy(tuple(map(Card, h)), tuple(map(Card, f))))
                    for h, f in zip(holes.tolist(), flops.tolist(), strict=True)
                ]
            )
        box = tables.classes7(np.concatenate([holes, board], axis=1))
        dealer = tables.classes7(np.concatenate([rest[:, 2:], board], axis=1))
        qualifies = dealer >= tables.pair_of_fours
        category = tables.ante_category[box]
        called = np.select(
            [~qualifies, box > dealer, box == dealer],
            [unqualified[category], win[category], np.zeros(n)],
            default=-3.0,
        )
        result = np.where(calls, called, -1.0)
        bonus_class = tables.bonus_category[tables.classes5(np.concatenate([holes, flops], 1))]
        bonus = np.where(bonus_class > 0, bonus_odds[bonus_class], -1.0)  # class 0 loses
        sums += [
            result.sum(),
            (result * result).sum(),
            bonus.sum(),
            (bonus * bonus).sum(),
            calls.sum(),
            qualifies.sum(),
            n,
        ]
        done += n
        if progress is not None:
            progress(done, rounds)
    return SimulatedEdge(
        rounds=rounds,
        result=Estimate.of(sums[0], sums[1], rounds),
        bonus=Estimate.of(sums[2], sums[3], rounds),
        call_rate=float(sums[4] / rounds),
        dealer_qualifies=float(sums[5] / rounds),
        seed=seed,
    )
