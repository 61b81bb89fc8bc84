"""Strategies: what a box does after the flop, as a function of its two cards and the flop.

A strategy is any callable ``strategy(hole, flop) -> bool`` (``True``: call).
It may also offer ``decide_many(holes, flops)`` over numpy arrays, which the
simulator uses when present. :class:`StrategyTable` is best play as the
exact analysis finds it: one decision per flop class and two-card hand.

>>> from pokerhouse.cards import parse_cards
>>> always_call(parse_cards("7c 2d"), parse_cards("As Kh 9d"))
True
"""

from __future__ import annotations

import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from pokerhouse.analysis.casino_holdem.symmetry import (
    CARD_PERMUTATIONS,
    PAIR_INDEX,
    flop_classes,
    subset_rank,
)
from pokerhouse.cards import Card, check_cards
from pokerhouse.errors import InvalidCards, InvalidSpec

Bools = NDArray[np.bool_]


class Strategy(Protocol):
    """Decides, from a box's two cards and the flop, whether to call (``True``) or fold."""

    def __call__(self, hole: Sequence[Card], flop: Sequence[Card]) -> bool: ...


def always_call(hole: Sequence[Card], flop: Sequence[Card]) -> bool:
    """Call every hand (a simple reference strategy)."""
    return True


def _always_call_many(holes: NDArray[np.integer], flops: NDArray[np.integer]) -> Bools:
    return np.ones(len(holes), dtype=bool)


always_call.decide_many = _always_call_many  # type: ignore[attr-defined]


@dataclass(frozen=True, eq=False)
class StrategyTable:
    """Call or fold for every flop class (rows, 1,755) and two-card hand (columns, 1,326).

    ``covered`` marks the flop classes the table was computed for; asking
    about another one is an error rather than a silent fold.

    >>> from pokerhouse.analysis.casino_holdem.exact import exact_analysis
    >>> from pokerhouse.cards import parse_cards
    >>> table = exact_analysis(flop_class_ids=[0]).strategy  # flops of three deuces
    >>> table(parse_cards("As Kd"), parse_cards("2s 2d 2h"))
    True
    >>> table(parse_cards("3c 4d"), parse_cards("2s 2c 2h"))
    False
    """

    calls: Bools
    covered: Bools

    def __call__(self, hole: Sequence[Card], flop: Sequence[Card]) -> bool:
        check_cards(list(hole) + list(flop), (5,))
        holes = np.array([list(hole)], dtype=np.int64)
        flops = np.array([list(flop)], dtype=np.int64)
        return bool(self.decide_many(holes, flops)[0])

    def decide_many(self, holes: NDArray[np.integer], flops: NDArray[np.integer]) -> Bools:
        """Decisions for many deals at once: ``holes`` shaped (n, 2), ``flops`` (n, 3)."""
        classes = flop_classes()
        ordered = np.sort(np.asarray(flops, dtype=np.int64), axis=1)
        flop_index = subset_rank(ordered, 52)
        cls = classes.class_of[flop_index]
        if not self.covered[cls].all():
            raise InvalidCards(
                "flop_not_covered", "this strategy table does not cover one of these flops"
            )
        perm = classes.permutation_of[flop_index]
        holes = np.asarray(holes, dtype=np.int64)
        pair = PAIR_INDEX[
            CARD_PERMUTATIONS[perm, holes[:, 0]], CARD_PERMUTATIONS[perm, holes[:, 1]]
        ]
        decided: Bools = self.calls[cls, pair]
        return decided

    def save(self, path: str | Path) -> None:
        """Write the table to a compressed ``.npz`` file."""
        np.savez_compressed(Path(path), calls=np.packbits(self.calls, axis=1), covered=self.covered)

    @classmethod
    def load(cls, path: str | Path) -> StrategyTable:
        """Read a table written by :meth:`save`.

        A file that cannot be read, or is not such a table, raises
        :class:`InvalidSpec` (``bad_strategy_file``) saying which.

        >>> StrategyTable.load(__file__)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        pokerhouse.errors.InvalidSpec: .../strategy.py is not a Casino Hold'em strategy table ...
        """
        not_a_table = (
            f"{path} is not a Casino Hold'em strategy table "
            "(a .npz file written by StrategyTable.save or analyze --save-strategy)"
        )
        try:
            # No pickles: a strategy is two arrays, and a pickle could run code.
            with np.load(Path(path), allow_pickle=False) as data:
                calls = np.unpackbits(data["calls"], axis=1)[:, :1326].astype(bool)
                covered = data["covered"].astype(bool)
        except OSError as error:
            reason = error.strerror or str(error)
            raise InvalidSpec(
                "bad_strategy_file", f"cannot read strategy {path}: {reason}"
            ) from None
        except (KeyError, ValueError, TypeError, EOFError, zipfile.BadZipFile, AttributeError):
            # numpy's own words here are about pickles and keys, not about strategies.
            raise InvalidSpec("bad_strategy_file", not_a_table) from None
        if calls.ndim != 2 or covered.ndim != 1 or calls.shape != (len(covered), 1326):
            raise InvalidSpec("bad_strategy_file", not_a_table)
        return cls(calls=calls, covered=covered)
