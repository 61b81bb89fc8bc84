"""Prizes by RULES.md "Tournaments", "Prizes": the table, the formula above 40, ties."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pokerhouse.tournament import places_paid, prizes, shares
from pokerhouse.tournament.payouts import tie_shares


@pytest.mark.parametrize(
    ("entrants", "percents"),
    [
        (2, [100]),
        (4, [100]),
        (5, [65, 35]),
        (7, [65, 35]),
        (8, [50, 30, 20]),
        (10, [50, 30, 20]),
        (11, [40, 25, 15, 12, 8]),
        (20, [40, 25, 15, 12, 8]),
        (21, [30, 20, 14, 10, 8, 7, 6, 5]),
        (40, [30, 20, 14, 10, 8, 7, 6, 5]),
    ],
)
def test_the_published_shares_up_to_40_entrants(entrants: int, percents: list[int]) -> None:
    assert [round(share * 100) for share in shares(entrants)] == percents
    pool = 100 * entrants
    assert list(prizes(pool, entrants)) == [pool * p // 100 for p in percents]


def test_the_rounding_remainder_goes_to_first_place() -> None:
    assert prizes(1001, 8) == (501, 300, 200)
    assert prizes(999, 21) == (306, 199, 139, 99, 79, 69, 59, 49)
    assert sum(prizes(999, 21)) == 999


@given(entrants=st.integers(41, 20_000), buy_in=st.integers(2, 10_000), guarantee=st.booleans())
def test_above_40_the_top_15_percent_share_the_pool_by_the_formula(
    entrants: int, buy_in: int, guarantee: bool
) -> None:
    pool = entrants * buy_in * (2 if guarantee else 1)
    won = prizes(pool, entrants)
    assert len(won) == places_paid(entrants) == entrants * 15 // 100
    assert sum(won) == pool
    assert sum(shares(entrants)) == pytest.approx(1.0, abs=1e-12)
    assert shares(entrants)[0] == pytest.approx(0.25)
    # First gets a quarter plus the crumbs (at most a chip per place); no place more than above.
    assert pool // 4 - 1 <= won[0] <= pool // 4 + len(won)
    assert all(higher >= lower for higher, lower in itertools.pairwise(won))
    assert won[-1] > buy_in


def test_no_prizes_without_two_entrants() -> None:
    assert places_paid(1) == 0 and prizes(100, 1) == () and shares(0) == ()


def test_tied_players_share_their_places_prizes_odd_chips_to_the_first() -> None:
    assert tie_shares((300, 200), 2) == (250, 250)
    assert tie_shares((301, 200, 100), 3) == (201, 200, 200)
    assert tie_shares((100,), 3) == (34, 33, 33)
    assert tie_shares((7, 0, 0), 3) == (3, 2, 2)
