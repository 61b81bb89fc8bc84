"""The duplicate deck: each seat's cards kept for it, the rest from a common stub."""

from __future__ import annotations

import random

import pytest

from pokerhouse.cards import Deck
from pokerhouse.duplicate import STUB_AT_LEAST, DuplicateDeck
from pokerhouse.errors import InvalidCards

ORDER = Deck(random.Random(12)).order()


def test_each_seat_is_dealt_its_own_cards_in_any_order_of_asking() -> None:
    one = DuplicateDeck(ORDER, players=3, per_seat=2)
    two = DuplicateDeck(ORDER, players=3, per_seat=2)
    first = [one.deal(0), one.deal(1), one.deal(2), one.deal(0), one.deal(1), one.deal(2)]
    second = [two.deal(2), two.deal(2), two.deal(1), two.deal(0), two.deal(0), two.deal(1)]
    assert first == [ORDER[0], ORDER[2], ORDER[4], ORDER[1], ORDER[3], ORDER[5]]
    assert sorted(first) == sorted(second)
    assert [two.deal(2), two.deal(0)] == [ORDER[6], ORDER[7]]  # reserves spent: the stub


def test_burns_and_the_board_come_from_the_stub_whatever_the_seats_took() -> None:
    one = DuplicateDeck(ORDER, players=2, per_seat=3)
    one.deal(0)
    one.burn()
    assert one.deal() == ORDER[7] and one.remaining == 52 - 3
    assert one.order()[:5] == (ORDER[1], ORDER[2], ORDER[3], ORDER[4], ORDER[5])


def test_reserves_leave_the_stub_its_least() -> None:
    # Eight seats of seven cards would take 56: each keeps (52 - 4) // 8 = 6 instead.
    deck = DuplicateDeck(ORDER, players=8, per_seat=7)
    held = [deck.deal(seat) for _ in range(6) for seat in range(8)]
    assert sorted(held) == sorted(ORDER[:48])
    assert deck.remaining == STUB_AT_LEAST
    assert deck.deal(0) == ORDER[48]


def test_a_dry_stub_deals_from_reserves_no_seat_took_and_every_card_once() -> None:
    deck = DuplicateDeck(ORDER, players=2, per_seat=20)
    dealt = [deck.deal() for _ in range(52)]
    assert sorted(dealt) == sorted(ORDER)
    with pytest.raises(InvalidCards, match="empty"):
        deck.deal(0)


def test_burned_cards_go_back_into_the_stub_shuffled() -> None:
    deck = DuplicateDeck(ORDER, players=6, per_seat=7, rng=random.Random(1))
    for _ in range(3):
        deck.burn()
    left = deck.remaining
    deck.reshuffle_burned()
    assert deck.remaining == left + 3
    assert sorted(deck.order()) == sorted(ORDER)


@pytest.mark.parametrize(
    ("order", "code"),
    [
        (ORDER[:51], "card_count"),
        ((*ORDER[:51], ORDER[0]), "duplicate_card"),
        ((*ORDER[:51], 52), "bad_card"),
    ],
)
def test_an_order_that_is_not_one_deck_is_refused(order: tuple[int, ...], code: str) -> None:
    with pytest.raises(InvalidCards) as caught:
        DuplicateDeck(order, players=2, per_seat=3)
    assert caught.value.code == code
