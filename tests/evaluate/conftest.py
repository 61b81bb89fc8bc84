"""Shared helpers for the evaluator tests."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import pairwise

import pytest


def assert_same_order(ours: Sequence[int], theirs: Sequence[float]) -> None:
    """Assert that two scores rank the same hands the same way (ties included).

    ``theirs`` must be "higher is better" too: negate a lower-is-better score first.
    """
    assert len(ours) == len(theirs)
    by_ours: dict[int, set[float]] = {}
    for mine, other in zip(ours, theirs, strict=True):
        by_ours.setdefault(mine, set()).add(other)
    # Equal values of ours are equal for them...
    assert all(len(group) == 1 for group in by_ours.values())
    # ...and increasing values of ours increase strictly for them.
    in_our_order = [next(iter(by_ours[value])) for value in sorted(by_ours)]
    assert all(a < b for a, b in pairwise(in_our_order))


@pytest.fixture
def rng() -> random.Random:
    return random.Random(20240601)


def random_hands(rng: random.Random, size: int, count: int) -> list[list[int]]:
    """``count`` random hands of ``size`` distinct card indices."""
    deck = range(52)
    return [rng.sample(deck, size) for _ in range(count)]
