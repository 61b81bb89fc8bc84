"""Events: who may see them, and their JSON form."""

from __future__ import annotations

import pytest

from pokerhouse.cards import parse_cards
from pokerhouse.engine import Action
from pokerhouse.engine.events import (
    EVENT_TYPES,
    ActionTaken,
    CardBurned,
    CardsDealt,
    HandEnded,
    event_from_dict,
    event_to_dict,
)
from pokerhouse.engine.visibility import shown_to
from pokerhouse.errors import HistoryError, InvalidAction


def test_face_down_cards_are_seen_only_by_their_owner() -> None:
    event = CardsDealt(seat=2, cards=parse_cards("As Kd Qh"), face_up=(False, True, False))
    assert shown_to(event, 2) == event
    other = shown_to(event, 0)
    assert isinstance(other, CardsDealt) and other.cards == (None, parse_cards("Kd")[0], None)
    assert shown_to(event, None) == other


def test_cards_the_owner_may_not_see_yet_are_hidden_from_the_owner_too() -> None:
    event = CardsDealt(
        seat=1, cards=parse_cards("As Kd Qh"), face_up=(False,) * 3, owner_sees=False
    )
    seen = shown_to(event, 1)
    assert isinstance(seen, CardsDealt) and seen.cards == (None, None, None)


@pytest.mark.parametrize(
    "event",
    [
        CardsDealt(seat=1, cards=parse_cards("As Kd"), face_up=(False, True)),
        ActionTaken(seat=0, action=Action.raise_to(40), added=30, total=40, all_in=False),
        HandEnded(net=(5, -5), stacks=(105, 95)),
        CardBurned(),
    ],
)
def test_events_round_trip_through_json(event: object) -> None:
    assert event_from_dict(event_to_dict(event)) == event  # type: ignore[arg-type]


def test_every_event_type_is_registered_under_its_name() -> None:
    for name, cls in EVENT_TYPES.items():
        assert cls.type_name == name


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({"type": "nope"}, "unknown_event"),
        ("hand_ended", "bad_event"),
        ({"type": "hand_ended", "net": "x", "stacks": [1]}, "bad_event"),
        ({"type": "hand_ended", "net": [1], "stacks": [1, 2]}, "bad_event"),
        (
            {"type": "pot_awarded", "pot": 0, "amount": 9, "winners": [0], "shares": [4, 5]},
            "bad_event",
        ),
        (
            {"type": "pot_awarded", "pot": 0, "amount": 9, "winners": [0, 1], "shares": [4, 4]},
            "bad_event",
        ),
        ({"type": "cards_dealt", "seat": 0, "cards": ["Zz"], "face_up": [True]}, "bad_event"),
        ({"type": "cards_dealt", "seat": 0, "cards": [5], "face_up": [True]}, "bad_event"),
        ({"type": "hand_shown", "seat": 0, "cards": [None]}, "bad_event"),
        ({"type": "hand_shown", "seat": 0, "cards": [{"rank": "A"}]}, "bad_event"),
        # A dealt event whose cards and face-up flags differ in number cannot be filtered.
        (
            {"type": "cards_dealt", "seat": 0, "cards": ["As"], "face_up": [False, True]},
            "bad_event",
        ),
        (
            {"type": "action_taken", "seat": 0, "action": {"kind": "bet", "amount": "x"}},
            "bad_event",
        ),
        (
            {"type": "action_taken", "seat": 0, "action": {"kind": "bet", "amount": 2.5}},
            "bad_event",
        ),
        ({"type": "action_taken", "seat": 0, "action": ["bet", 5]}, "bad_event"),
        (
            {"type": "action_taken", "seat": 0, "action": {"kind": "bet", "amount": True}},
            "bad_event",
        ),
    ],
)
def test_malformed_events_are_rejected(data: object, code: str) -> None:
    with pytest.raises(HistoryError) as error:
        event_from_dict(data)
    assert error.value.code == code


@pytest.mark.parametrize("seat", [True, 1.0, "1"])
def test_shown_to_refuses_a_viewer_that_is_not_a_seat_number(seat: object) -> None:
    # True == 1 and 1.0 == 1 would pass as seat 1 and see its face-down cards.
    event = CardsDealt(seat=1, cards=parse_cards("As Kd"), face_up=(False, False))
    with pytest.raises(InvalidAction) as error:
        shown_to(event, seat)  # type: ignore[call-overload]
    assert error.value.code == "bad_seat"
