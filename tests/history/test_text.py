"""The readable text history: what it says, and that it never shows a hidden card."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerhouse.cards import Card
from pokerhouse.engine import Action, ActionKind, Limit
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
        "Razz: ante 50000, bring-in 50000, small bet 200000, big bet 400000, "
        "max raises 3, heads-up uncapped no"
    )
    assert lines[1] == "View: the full history, every card"
    assert lines[2:7] == [
        "Seat 1: 6600000 in chips",
        "Seat 2: 5425000 in chips",
        "Seat 3: 4575000 in chips",
        "Seat 4: 7050000 in chips",
        "Seat 5: 6050000 in chips",
    ]


def test_text_tells_the_streets_actions_showdown_pots_and_summary() -> None:
    text = to_text(hand_24(), SERVER)  # type: ignore[arg-type]
    for line in [
        "*** ANTES ***",
        "Seat 1 posts the ante 50000",
        "*** THIRD STREET ***",
        "Dealt to Seat 1: [6s 3h] Kh",
        "Seat 1 brings in for 50000",
        "Seat 2 calls 50000",
        "Seat 3 completes to 200000",
        "Seat 4 folds",
        "Seat 2 raises to 400000",
        "*** FOURTH STREET ***",
        "Dealt to Seat 3: 8s",
        "Seat 3 bets 200000",
        "*** SEVENTH STREET ***",
        "Dealt to Seat 3: [6c]",
        "*** SHOWDOWN ***",
        "Seat 3 shows [4s 3d 2d 8s 3s 5s 6c] (6-5-4-3-2 low)",
        "Seat 2 mucks",
        "Seat 3 wins the main pot (3900000) with 6-5-4-3-2 low",
        "*** SUMMARY ***",
        "Seat 2: 5425000 -> 3575000 (-1850000)",
        "Seat 3: 4575000 -> 6625000 (+2050000)",
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
    assert text.startswith("3x4 Poker: ante 1, small bet 2, big bet default, limit fixed-limit")


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
