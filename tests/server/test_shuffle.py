"""The room shuffles with the system's secure source, and its shuffles are uniform.

The statistical test deals 100,000 decks the way the room does
(``Deck(services.rng).order()``) and counts, for each of the 52 positions,
how often each card lands there: 52 chi-square tests (51 degrees of freedom)
on the positions and 52 more on the cards. With 104 tests, a Bonferroni
correction gives each one a significance of 0.001 / 104, so a correct
shuffle fails the whole test at most once in a thousand runs (the bound is
conservative; the tests are not independent). The seed is not fixed, since
the source is the operating system's; the significance is, so the false
failure rate is known rather than flaky. A shuffle that leaves one card in
place one time in 50 fails it even on 10,000 decks.
"""

from __future__ import annotations

import math
import secrets
import statistics

import numpy as np
import pytest

from pokerhouse.cards import Deck
from pokerhouse.server.app import Site
from pokerhouse.server.table.services import Services
from pokerhouse.table.table import Table

SHUFFLES = 100_000
FAMILY_ALPHA = 0.001


def chi_square_limit(df: int, alpha: float) -> float:
    """The chi-square quantile 1 - alpha (Wilson and Hilferty's approximation).

    >>> round(chi_square_limit(51, 0.05), 1)  # tables: 68.7
    68.7
    """
    z = statistics.NormalDist().inv_cdf(1 - alpha)
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def statistics_of(counts: np.ndarray) -> np.ndarray:
    """Chi-square statistic of each row of a positions-by-cards count table."""
    expected = counts.sum(axis=1, keepdims=True) / counts.shape[1]
    return np.asarray(((counts - expected) ** 2 / expected).sum(axis=1))


def positions(rng: object, shuffles: int) -> np.ndarray:
    """How often each card lands at each position (rows) over ``shuffles`` decks."""
    orders = np.array(
        [Deck(rng).order() for _ in range(shuffles)],  # type: ignore[arg-type]
        dtype=np.int8,
    )
    return np.stack([np.bincount(orders[:, p], minlength=52) for p in range(52)])


async def test_the_room_and_its_tables_shuffle_with_the_system_source() -> None:
    site = Site(None)
    assert site._rng is None  # no seeded source unless a test passes one
    services = Services(None)  # type: ignore[arg-type]  # the source needs no store
    assert isinstance(services.rng, secrets.SystemRandom)
    assert isinstance(Table("3x4", seats=2)._rng, secrets.SystemRandom)
    assert isinstance(Deck()._rng, secrets.SystemRandom)


def test_the_check_catches_a_biased_shuffle() -> None:
    """The test has teeth: a shuffle that leaves the last card last one time in 50 fails."""

    class Lazy:
        def __init__(self) -> None:
            self.source = secrets.SystemRandom()
            self.calls = 0

        def shuffle(self, cards: list[object]) -> None:
            self.calls += 1
            top = cards[-1]
            self.source.shuffle(cards)
            if self.calls % 50 == 0:
                cards.remove(top)
                cards.append(top)

    counts = positions(Lazy(), 10_000)
    limit = chi_square_limit(51, FAMILY_ALPHA / 104)
    assert statistics_of(counts).max() > limit


@pytest.mark.slow
def test_a_hundred_thousand_shuffles_put_every_card_anywhere_evenly() -> None:
    counts = positions(secrets.SystemRandom(), SHUFFLES)
    limit = chi_square_limit(51, FAMILY_ALPHA / 104)
    by_position = statistics_of(counts)
    by_card = statistics_of(counts.T)
    worst = max(by_position.max(), by_card.max())
    print(f"shuffle: {SHUFFLES} decks, worst chi-square {worst:.1f} of limit {limit:.1f}")
    assert by_position.max() < limit, (by_position.argmax(), by_position.max())
    assert by_card.max() < limit, (by_card.argmax(), by_card.max())
