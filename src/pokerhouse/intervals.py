"""Results per 100 hands with a 95% confidence interval, the statistics every ranking shares.

A bot's result is its mean net per hand, times 100; the interval is the
normal approximation ``mean ± z·s/√n`` with ``z = 1.96`` (:data:`Z95`) and
``s`` the sample standard deviation. :func:`per_100` takes the samples
themselves; :func:`per_100_of_sums` takes only their count, sum and sum of
squares, so a leaderboard kept as running sums gives the same answer.

>>> mean, (low, high) = per_100([10, -10, 10, -10])
>>> mean, round(low), round(high)
(0.0, -1132, 1132)
>>> mean, (low, high) = per_100_of_sums(4, 0, 400)  # the same four, as sums
>>> mean, round(low), round(high)
(0.0, -1132, 1132)
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054

#: A result per 100 hands and its 95% interval ``(low, high)``.
Per100 = tuple[float, tuple[float, float]]


def per_100(results: Sequence[float]) -> Per100:
    """Mean result per 100 hands and its 95% confidence interval.

    One sample is one hand's result; with fewer than two the interval is the mean alone.

    >>> per_100([]), per_100([3])
    ((0.0, (0.0, 0.0)), (300.0, (300.0, 300.0)))
    """
    n = len(results)
    if n == 0:
        return 0.0, (0.0, 0.0)
    mean = 100 * statistics.fmean(results)
    if n < 2:
        return mean, (mean, mean)
    half = 100 * Z95 * statistics.stdev(results) / math.sqrt(n)
    return mean, (mean - half, mean + half)


def per_100_of_sums(
    count: int, total: float, total_squares: float, *, hands_per_sample: int = 1
) -> Per100:
    """:func:`per_100` from ``count`` samples' sum and sum of squares.

    A sample may hold several hands (``hands_per_sample``: a duplicate deal
    played in every seat is one sample of its hands' summed result); the
    answer is still per 100 hands.

    >>> samples = [3, -1, 4, -1, 5, -9, 2, 6]
    >>> mean, (low, high) = per_100_of_sums(8, sum(samples), sum(x * x for x in samples))
    >>> _, (low_too, high_too) = per_100(samples)
    >>> mean, round(low - low_too, 9), round(high - high_too, 9)
    (112.5, 0.0, 0.0)
    >>> per_100_of_sums(2, 10, 50, hands_per_sample=2)  # two deals of two hands, +5 each
    (250.0, (250.0, 250.0))
    """
    if count <= 0:
        return 0.0, (0.0, 0.0)
    if hands_per_sample < 1:
        raise ValueError(f"a sample holds at least one hand, not {hands_per_sample}")
    scale = 100 / hands_per_sample
    mean_sample = total / count
    mean = scale * mean_sample
    if count < 2:
        return mean, (mean, mean)
    # Rounding can leave a tiny negative spread when every sample is equal.
    variance = max(0.0, (total_squares - total * mean_sample) / (count - 1))
    half = scale * Z95 * math.sqrt(variance / count)
    return mean, (mean - half, mean + half)
