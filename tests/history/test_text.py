"""The readable text history: what it says, and that it never shows a hidden card."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerhouse.cards import Card, Deck
from pokerhouse.engine import Action, ActionKind, Hand, Limit
from pokerhouse.engine.events import Event, HandStarted
from pokerhouse.errors import HistoryError
from pokerhouse.games import GAMES, new_hand
from pokerhouse.history import SERVER, HandRecord, record, replay_phh, to_text
from tests.helpers import allowed_cards, play_out
from tests.history.test_wsop_razz import LOCAL


def hand_24() -> object:
    return replay_phh((LOCAL / "wsop-2023-43-5-24-razz.phh").read_text())


def test_text_header_names_the_game_the_stakes_and_each_seat() -> None:
    lines = to_text(hand_24(), SERVER).splitlines()  # type: ignore[arg-type]
    assert lines[0] == (
        "Razz: ante 50,000, bring-in 50,000, small bet 200,000, big bet 400,000, "
        "at most 3 raises a street, heads-up too"
    )
    assert lines[1] == "View: the full history, every card"
    assert lines[2:7] == [
        "Seat 1: 6,600,000 in chips",
        "Seat 2: 5,425,000 in chips",
        "Seat 3: 4,575,000 in chips",
        "Seat 4: 7,050,000 in chips",
        "Seat 5: 6,050,000 in chips",
    ]


def test_text_tells_the_streets_actions_showdown_pots_and_summary() -> None:
    text = to_text(hand_24(), SERVER)  # type: ignore[arg-type]
    for line in [
        "*** ANTES ***",
        "Seat 1 posts the ante 50,000",
        "*** THIRD STREET ***",
        "Dealt to Seat 1: [6s 3h] Kh",
        "Seat 1 brings in for 50,000",
        "Seat 2 calls 50,000",
        "Seat 3 completes to 200,000",
        "Seat 4 folds",
        "Seat 2 raises to 400,000",
        "*** FOURTH STREET ***",
        "Dealt to Seat 3: 8s",
        "Seat 3 bets 200,000",
        "*** SEVENTH STREET ***",
        "Dealt to Seat 3: [6c]",
        "*** SHOWDOWN ***",
        "Seat 3 shows [4s 3d 2d 8s 3s 5s 6c] (6-5-4-3-2 low)",
        "Seat 2 mucks",
        "Seat 3 wins the main pot (3,900,000) with 6-5-4-3-2 low",
        "*** SUMMARY ***",
        "Seat 2: 5,425,000 -> 3,575,000 (-1,850,000)",
        "Seat 3: 4,575,000 -> 6,625,000 (+2,050,000)",
    ]:
        assert line in text.splitlines(), line


def test_text_for_a_seat_hides_the_others_down_cards() -> None:
    text = to_text(hand_24(), 2)  # type: ignore[arg-type]
    assert "View: Seat 3's" in text
    assert "Dealt to Seat 3: [4s 3d] 2d" in text
    assert "Dealt to Seat 1: [?? ??] Kh" in text
    assert "Dealt to Seat 2: [??]" in text  # seventh street, mucked at the showdown
    assert "As6h3c" not in text and "As 6h" not in text


def test_text_for_a_spectator_shows_only_public_cards() -> None:
    text = to_text(hand_24())  # type: ignore[arg-type]
    assert "View: a spectator's" in text
    assert "Dealt to Seat 3: [?? ??] 2d" in text
    assert "Seat 3 shows [4s 3d 2d 8s 3s 5s 6c]" in text  # shown at showdown: public


def test_text_of_a_3x4_hand_names_flop_turn_river_and_the_board() -> None:
    hand = new_hand("3x4", [100, 100, 100], seed=3, options={"limit": Limit.FIXED_LIMIT})
    while not hand.is_over:
        legal = hand.legal_actions()
        hand.act(Action(ActionKind.CHECK if ActionKind.CHECK in legal else ActionKind.CALL))
    text = to_text(hand, SERVER)
    for title in ("*** HOLE ***", "*** FLOP ***", "*** TURN ***", "*** RIVER ***"):
        assert title in text
    assert f"Board: [{' '.join(map(str, hand.board))}]" in text  # type: ignore[attr-defined]
    assert text.startswith(
        "3x4 Poker, fixed-limit: ante 1, small bet 2, big bet 4, at most 3 raises a street\n"
    )


@pytest.mark.parametrize(
    ("game", "options", "header"),
    [
        ("3x4", {}, "3x4 Poker, no-limit: ante 1, minimum bet 2"),
        (
            "3x4",
            {"limit": "pot-limit", "small_bet": 5000},
            "3x4 Poker, pot-limit: ante 1, minimum bet 5,000",
        ),
        (
            "razz",
            {"heads_up_uncapped": True},
            "Razz: ante 1, bring-in 2, small bet 5, big bet 10, "
            "at most 3 raises a street, no cap heads-up",
        ),
        ("teen-patti", {}, "3 Card Poker (Teen Patti), no-limit: ante 1, no sideshow"),
        (
            "teen-patti",
            {"sideshow": True, "limit": "pot-limit"},
            "3 Card Poker (Teen Patti), pot-limit: ante 1, sideshow allowed",
        ),
        (
            "casino-holdem",
            {"bonus_pays": "common"},
            "Casino Hold'em: antes 1 to 100, max payout 10,000, ante pays royal flush 100:1, "
            "straight flush 20:1, four of a kind 10:1, full house 3:1, flush 2:1, "
            "straight or less 1:1, AA Bonus pays royal flush 100:1, straight flush 50:1, "
            "four of a kind 40:1, full house 30:1, flush 20:1, straight 7:1, "
            "three of a kind 7:1, two pair 7:1, pair of aces 7:1, AA Bonus from 1",
        ),
        (
            "casino-holdem",
            {"min_ante": 5, "max_ante": 500, "bonus_min": 10},
            "Casino Hold'em: antes 5 to 500, max payout 10,000, ante pays royal flush 100:1, "
            "straight flush 20:1, four of a kind 10:1, full house 3:1, flush 2:1, "
            "straight or less 1:1, AA Bonus pays 7:1 on a pair of aces or better, "
            "AA Bonus from 10",
        ),
    ],
)
def test_the_header_words_every_setting_readably(
    game: str, options: dict[str, object], header: str
) -> None:
    hand = new_hand(game, [1000, 1000], seed=1, options=options)
    assert to_text(hand).splitlines()[0] == header


def test_text_from_a_full_record_is_filtered_for_the_viewer() -> None:
    hand = hand_24()
    full = record(hand)  # type: ignore[arg-type]
    assert to_text(full, 2) == to_text(hand, 2)  # type: ignore[arg-type]
    assert to_text(full, None) == to_text(hand, None)  # type: ignore[arg-type]
    seat_copy = record(hand, 2)  # type: ignore[arg-type]
    assert to_text(seat_copy, SERVER) == to_text(hand, 2)  # type: ignore[arg-type]


@pytest.mark.parametrize("viewer", [True, "2", -1, 5])
def test_text_for_a_viewer_that_is_no_seat_of_the_hand_is_refused(viewer: object) -> None:
    hand = hand_24()
    for history in (hand, record(hand)):  # type: ignore[arg-type]
        with pytest.raises(HistoryError, match="a seat from 0 to 4") as caught:
            to_text(history, viewer)  # type: ignore[arg-type]
        assert caught.value.code == "bad_viewer"


@dataclass(frozen=True, slots=True)
class _Tipped(Event):
    type_name: ClassVar[str] = "dealer_tipped"
    seat: int
    amount: int


def test_text_prints_an_unknown_event_by_its_fields() -> None:
    history = HandRecord(
        game="mystery",
        spec={},
        starting_stacks=(10, 10),
        events=(HandStarted(game="mystery", stacks=(10, 10)), _Tipped(seat=1, amount=2)),
    )
    lines = to_text(history).splitlines()
    assert lines[0] == "mystery"
    assert lines[-1] == "Seat 2: dealer tipped (amount 2)"


CARD = re.compile(r"\b([2-9TJQKA][cdhs])\b")


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(sorted(GAMES)),
    st.lists(st.integers(1, 200), min_size=2, max_size=8),
    st.integers(0, 2**32),
)
def test_text_never_names_a_card_the_viewer_may_not_see(
    game: str, stacks: list[int], seed: int
) -> None:
    hand = new_hand(game, stacks[: GAMES[game].max_players], seed=seed)
    play_out(hand, random.Random(seed))
    for seat in [None, *range(hand.players)]:
        named = {Card.parse(token) for token in CARD.findall(to_text(hand, seat))}
        assert named <= allowed_cards(hand, seat)


@pytest.mark.parametrize("seat", [None, 0, 1])
def test_text_of_an_unfinished_hand_has_no_summary(seat: int | None) -> None:
    hand = new_hand("razz", [50, 50], seed=1)
    text = to_text(hand, seat)
    assert "*** THIRD STREET ***" in text and "SUMMARY" not in text


def teen_patti_sideshow() -> Hand:
    """Seat 1 bets blind, seat 2 looks and bets, seat 3 looks and wins a sideshow off seat 2."""
    hand = new_hand(
        "teen-patti",
        [100, 100, 100],
        deck=Deck.stacked("5d Kh 2c 6s Kd 3c As 9c 4d"),
        options={"ante": 2, "sideshow": True},
    )
    for action in ["bet 4", "look", "bet 8", "look", "sideshow", "accept"]:
        hand.act(Action.parse(action))
    return hand


def test_teen_patti_reads_naturally() -> None:
    lines = to_text(teen_patti_sideshow(), 1).splitlines()
    for line in [
        "Seat 1 bets 4 blind",
        "The stake rises to 4",
        "Seat 2 looks at their cards: Kh Kd 9c",
        "Seat 2 bets 8",
        "Seat 3 looks at their cards",
        "Seat 3 pays 8 and asks for a sideshow",
        "Seat 2 accepts the sideshow",
        "Seat 3 and Seat 2 compare hands privately: Seat 3 [2c 3c 4d], Seat 2 [Kh Kd 9c]; "
        "Seat 2 folds",
    ]:
        assert line in lines, line
    others = to_text(teen_patti_sideshow(), 0)
    assert "Seat 2 looks at their cards\n" in others
    assert "Seat 3 and Seat 2 compare hands privately; Seat 2 folds" in others
    assert "cards looked" not in others and "stake raised" not in others


def test_casino_holdem_reads_naturally() -> None:
    hand = new_hand("casino-holdem", [500, 300, 100], antes=[10, 5, 5], bonuses=[10, 0, 5], seed=4)
    for action in ["call", "fold", "call"]:
        hand.act(Action.parse(action))
    lines = to_text(hand, SERVER).splitlines()
    for line in [
        "Seat 1 bets 10 on the AA Bonus",
        "Seat 1 loses the AA Bonus (10)",
        "Seat 2 loses the ante (-5)",
        "Dealer shows [7d Ah] (Pair of queens)",
        "The dealer qualifies",
        "Seat 1 beats the dealer (+30)",
        "The house pays 25",
    ]:
        assert line in lines, line
    assert not [line for line in lines if "settled" in line or "(outcome" in line]


def test_players_are_called_by_name_when_names_are_given() -> None:
    text = to_text(hand_24(), 2, names=["Ann", "Bob", "Cy", "Di", "Ed"])  # type: ignore[arg-type]
    lines = text.splitlines()
    assert lines[1] == "View: Cy's (Seat 3)"
    assert lines[2] == "Seat 1: Ann (6,600,000 in chips)"
    assert "Ann brings in for 50,000" in lines and "Cy completes to 200,000" in lines
    assert "Cy: 4,575,000 -> 6,625,000 (+2,050,000)" in lines
    assert "Seat 3 " not in text


@pytest.mark.parametrize(
    "names", [["Ann", "Ann", "Cy", "Di", "Ed"], ["Ann", "\n", "Cy", "Di", "Ed"]]
)
def test_names_that_cannot_tell_the_players_apart_give_way_to_seat_numbers(
    names: list[str],
) -> None:
    assert to_text(hand_24(), names=names) == to_text(hand_24())  # type: ignore[arg-type]


def test_a_name_cannot_forge_a_line() -> None:
    names = ["Ann\nSeat 2 wins the pot (1,000,000)", "Bob", "Cy", "Di", "Ed"]
    text = to_text(hand_24(), names=names)  # type: ignore[arg-type]
    assert "\nSeat 2 wins the pot (1,000,000)" not in text
    with pytest.raises(HistoryError, match="expected 5 player names") as caught:
        to_text(hand_24(), names=["Ann"])  # type: ignore[arg-type]
    assert caught.value.code == "bad_names"


def test_text_numbers_the_seats_as_the_table_does() -> None:
    """A table numbers its seats; the hand's own seats start left of the button."""
    at_table = [4, 6, 0, 1, 2]  # hand seat 0 sits in table seat 4, printed "Seat 5"
    text = to_text(hand_24(), 2, seats=at_table)  # type: ignore[arg-type]
    lines = text.splitlines()
    assert lines[1] == "View: Seat 1's"
    assert lines[2:7] == [
        "Seat 5: 6,600,000 in chips",
        "Seat 7: 5,425,000 in chips",
        "Seat 1: 4,575,000 in chips",
        "Seat 2: 7,050,000 in chips",
        "Seat 3: 6,050,000 in chips",
    ]
    assert "Seat 5 brings in for 50,000" in lines
    named = to_text(hand_24(), 2, names=list("ABCDE"), seats=at_table)  # type: ignore[arg-type]
    assert named.splitlines()[1:3] == ["View: C's (Seat 1)", "Seat 5: A (6,600,000 in chips)"]


@pytest.mark.parametrize(
    "seats", [[0, 1, 2, 3], [0, 0, 1, 2, 3], [0, 1, 2, 3, -1], [0, 1, 2, 3, True]]
)
def test_text_refuses_table_seats_that_do_not_fit_the_hand(seats: list[object]) -> None:
    with pytest.raises(HistoryError) as caught:
        to_text(hand_24(), 2, seats=seats)  # type: ignore[arg-type]
    assert caught.value.code == "bad_seats"
