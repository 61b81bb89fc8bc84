"""Cards: parsing, formatting, indices and the deck."""

from __future__ import annotations

import pickle
import random

import pytest

from pokerhouse.cards import (
    FULL_DECK,
    Card,
    Deck,
    Rank,
    ScriptedDeck,
    Suit,
    format_cards,
    parse_cards,
)
from pokerhouse.errors import InvalidCards


def test_card_index_is_four_times_rank_plus_suit() -> None:
    for card in FULL_DECK:
        assert int(card) == 4 * card.rank + card.suit
    assert Card.parse("2c") == 0 and Card.parse("As") == 51
    assert Card.of(Rank.QUEEN, Suit.HEARTS) == Card.parse("Qh")


@pytest.mark.parametrize("text", ["As Kd", "AsKd", "as,kd", "[As Kd]", "As\tKd"])
def test_parse_accepts_common_spellings(text: str) -> None:
    assert parse_cards(text) == (Card.parse("As"), Card.parse("Kd"))


def test_ten_may_be_written_10() -> None:
    assert parse_cards("10d 10c") == parse_cards("Td Tc")


def test_format_round_trips() -> None:
    assert parse_cards(format_cards(FULL_DECK)) == FULL_DECK


@pytest.mark.parametrize(
    ("text", "code"),
    [("Xs", "bad_rank"), ("Az", "bad_suit"), ("As As", "duplicate_card"), ("As K", "bad_card")],
)
def test_bad_card_text_names_the_problem(text: str, code: str) -> None:
    with pytest.raises(InvalidCards) as error:
        parse_cards(text)
    assert error.value.code == code
    assert isinstance(error.value, ValueError)


def test_card_indices_are_checked() -> None:
    with pytest.raises(InvalidCards):
        Card(52)


def test_a_seeded_deck_deals_the_same_cards() -> None:
    first = Deck(random.Random(9)).deal_many(52)
    assert first == Deck(random.Random(9)).deal_many(52)
    assert sorted(first) == list(FULL_DECK)


def test_stacked_deck_deals_its_top_cards_first_and_burns_count() -> None:
    deck = Deck.stacked("Ah 2c")
    deck.burn()
    assert deck.deal() == Card.parse("2c") and deck.remaining == 50
    deck.reshuffle_burned()
    assert deck.remaining == 51


def test_scripted_deck_gives_each_seat_its_recorded_cards() -> None:
    deck = ScriptedDeck({0: parse_cards("As Kd"), 3: parse_cards("2c")}, board=parse_cards("Th"))
    assert deck.deal(3) == Card.parse("2c")
    assert deck.deal(None) == Card.parse("Th")
    deck.burn()
    assert deck.deal(0) == Card.parse("As")
    assert deck.remaining == 48


def test_cards_pickle_as_themselves() -> None:
    card = Card.parse("Qh")
    assert pickle.loads(pickle.dumps(card)) is card
