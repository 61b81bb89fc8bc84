"""The AA Bonus: exact returns from enumerating every five-card hand, checked by formula."""

from __future__ import annotations

from fractions import Fraction
from math import comb

from pokerhouse.analysis.casino_holdem import BonusPays, bonus_counts, bonus_return
from pokerhouse.games.casino_holdem.paytables import BonusCategory as C


def counts_by_formula() -> dict[C, int]:
    """The textbook counts of five-card hands, written out independently."""
    straight_flushes = 10 * 4
    counts = {
        C.ROYAL_FLUSH: 4,
        C.STRAIGHT_FLUSH: straight_flushes - 4,
        C.FOUR_OF_A_KIND: 13 * 48,
        C.FULL_HOUSE: 13 * comb(4, 3) * 12 * comb(4, 2),
        C.FLUSH: 4 * comb(13, 5) - straight_flushes,
        C.STRAIGHT: 10 * 4**5 - straight_flushes,
        C.THREE_OF_A_KIND: 13 * comb(4, 3) * comb(12, 2) * 4**2,
        C.TWO_PAIR: comb(13, 2) * comb(4, 2) ** 2 * 11 * 4,
        C.PAIR_OF_ACES: comb(4, 2) * comb(12, 3) * 4**3,
    }
    counts[C.LOSES] = comb(52, 5) - sum(counts.values())
    return counts


def test_enumeration_matches_the_formulas() -> None:
    assert bonus_counts() == counts_by_formula()


def test_flat_seven_to_one_return() -> None:
    result = bonus_return()
    wins = comb(52, 5) - counts_by_formula()[C.LOSES]
    assert result.wins == wins == 282_660
    assert result.ev == Fraction(8 * wins - comb(52, 5), comb(52, 5)) == Fraction(-201, 1547)
    assert round(float(result.house_edge) * 100, 2) == 12.99


def test_common_table_return() -> None:
    counts = counts_by_formula()
    odds = {
        C.ROYAL_FLUSH: 100,
        C.STRAIGHT_FLUSH: 50,
        C.FOUR_OF_A_KIND: 40,
        C.FULL_HOUSE: 30,
        C.FLUSH: 20,
        C.STRAIGHT: 7,
        C.THREE_OF_A_KIND: 7,
        C.TWO_PAIR: 7,
        C.PAIR_OF_ACES: 7,
    }
    paid = sum(odds[c] * counts[c] for c in odds) - counts[C.LOSES]
    result = bonus_return(BonusPays.named("common"))
    assert result.ev == Fraction(paid, comb(52, 5)) == Fraction(-5809, 92820)
    assert round(float(result.house_edge) * 100, 2) == 6.26


def test_any_table() -> None:
    generous = bonus_return(BonusPays.flat(9))
    assert generous.ev == Fraction(10 * 282_660 - comb(52, 5), comb(52, 5))
    assert generous.ev > 0  # 9:1 flat would favour the player
    assert bonus_return(BonusPays.flat(0)).ev == -bonus_return().counts[C.LOSES] / Fraction(
        comb(52, 5)
    )
    assert bonus_return().to_dict()["counts"]["pair_of_aces"] == 84_480
