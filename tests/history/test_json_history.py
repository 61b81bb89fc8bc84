"""The JSON hand history: what it holds, who may see what, replay and bad input."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from pokerhouse.cards import Card
from pokerhouse.engine import Action, ActionKind, Limit
from pokerhouse.engine.events import CardsDealt, HandShown
from pokerhouse.errors import HistoryError, PokerError
from pokerhouse.games import new_hand
from pokerhouse.history import (
    FORMAT,
    SERVER,
    HandRecord,
    from_json,
    record,
    replay,
    to_json,
)
from tests.helpers import allowed_cards, cards_in, play_out, policy_action


def finished(game: str, seed: int, players: int = 4, **options: Any) -> Any:
    rng = random.Random(seed)
    hand = new_hand(game, [200] * players, seed=seed, options=options)
    play_out(hand, rng)
    return hand


def document(hand: Any, seat: Any = SERVER) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(to_json(hand, seat))
    return data


# ---------------------------------------------------------------- contents


def test_json_history_holds_what_recreates_the_hand() -> None:
    hand = finished("razz", 1)
    data = document(hand)
    assert data["format"] == FORMAT == "pokerhouse-hand/1"
    assert data["game"] == "razz"
    assert data["view"] == "server" and data["replayable"] is True
    assert data["spec"] == {
        "ante": 1,
        "bring_in": 2,
        "small_bet": 5,
        "big_bet": 10,
        "max_raises": 3,
        "heads_up_uncapped": False,
    }
    assert data["starting_stacks"] == [200] * 4
    assert data["setup"] == {"always_show": [], "manual_showdown": False}
    assert data["actions"] == [{"seat": s, "action": str(a)} for s, a in hand.actions]
    assert len(data["events"]) == len(hand.events)
    assert data["finishing_stacks"] == list(hand.stacks)
    for seat, cards in enumerate(hand.cards):
        assert data["cards"][str(seat)] == [str(card) for card in cards]


def test_json_history_spec_enums_are_written_as_values() -> None:
    hand = finished("3x4", 2, limit=Limit.POT_LIMIT, ante=2, small_bet=4)
    data = document(hand)
    assert data["spec"]["limit"] == "pot-limit"
    assert data["board"] == [str(card) for card in hand.board]
    again = replay(to_json(hand))
    assert again.spec.limit is Limit.POT_LIMIT  # type: ignore[attr-defined]


def test_json_history_is_one_action_or_event_per_line() -> None:
    hand = finished("razz", 3)
    lines = to_json(hand).splitlines()
    assert sum(1 for line in lines if line.lstrip().startswith('{"seat"')) == len(hand.actions)
    assert sum(1 for line in lines if line.lstrip().startswith('{"type"')) == len(hand.events)


def test_unfinished_hand_history_replays_to_the_same_point() -> None:
    hand = new_hand("razz", [100, 100, 100], seed=4)
    rng = random.Random(4)
    for _ in range(4):
        hand.act(policy_action(hand, rng))
    data = document(hand)
    assert data["finishing_stacks"] is None
    again = replay(to_json(hand))
    assert not again.is_over
    assert again.events == hand.events and again.to_act == hand.to_act
    assert again.legal_actions() == hand.legal_actions()


def test_round_trip_through_text_gives_an_equal_record() -> None:
    hand = finished("3x4", 5)
    history = record(hand)
    assert from_json(history.to_json()) == history
    assert HandRecord.from_dict(history.to_dict()) == history


# ---------------------------------------------------------------- who sees what


@pytest.mark.parametrize("game", ["razz", "3x4"])
def test_seat_history_hides_other_players_hidden_cards(game: str) -> None:
    hand = finished(game, 6)
    for seat in [None, *range(hand.players)]:
        history = record(hand, seat)
        assert not history.replayable
        allowed = allowed_cards(hand, seat)
        assert cards_in(history.events) <= allowed
        visible = {card for cards in history.cards.values() for card in cards if card}
        assert visible <= allowed
        text = to_json(hand, seat)
        named = {Card.parse(token) for token in _card_tokens(text)}
        assert named <= allowed, f"seat {seat} history names {sorted(named - allowed)}"


def _card_tokens(text: str) -> list[str]:
    return re.findall(r'"([2-9TJQKA][cdhs])"', text)


def test_seat_history_keeps_its_own_cards_and_cards_shown_at_showdown() -> None:
    hand = finished("razz", 7)
    shown = {e.seat: e.cards for e in hand.events if isinstance(e, HandShown)}
    for seat in range(hand.players):
        history = record(hand, seat)
        assert history.view == seat
        assert history.cards[seat] == tuple(hand.cards[seat])  # type: ignore[attr-defined]
        for other, cards in shown.items():
            assert history.cards[other] == cards


def test_spectator_history_is_marked_and_not_replayable() -> None:
    hand = finished("razz", 8)
    data = document(hand, None)
    assert data["view"] == "spectator" and data["replayable"] is False
    with pytest.raises(HistoryError, match="written for a spectator") as caught:
        replay(json.dumps(data))
    assert caught.value.code == "not_replayable"
    seat_copy = to_json(hand, 1)
    with pytest.raises(HistoryError, match="written for seat 1"):
        replay(seat_copy)


@pytest.mark.parametrize("viewer", [True, False, "1", 1.0, -1, 4])
def test_a_history_for_a_viewer_that_is_no_seat_of_the_hand_is_refused(viewer: object) -> None:
    # ``True == 1``: a bool would get seat 1's hidden cards in a document marked "view": true.
    hand = finished("razz", 23)
    for write in (record, to_json):
        with pytest.raises(HistoryError, match="a seat from 0 to 3") as caught:
            write(hand, viewer)  # type: ignore[arg-type]
        assert caught.value.code == "bad_viewer"


def test_a_recorded_view_must_name_a_seat_of_the_hand() -> None:
    data = document(finished("razz", 24), 2)
    assert from_json(json.dumps(data)).view == 2
    for view in (-1, 4, True):
        with pytest.raises(HistoryError, match="'view' must be") as caught:
            from_json(json.dumps({**data, "view": view}))
        assert caught.value.code == "bad_history"


def test_seat_history_redacts_dealt_cards_rather_than_dropping_the_deal() -> None:
    hand = finished("3x4", 9)
    history = record(hand, 0)
    deals = [e for e in history.events if isinstance(e, CardsDealt)]
    assert len(deals) == hand.players
    assert all(all(card is None for card in e.cards) for e in deals if e.seat != 0)


# ---------------------------------------------------------------- bad input


def test_malformed_json_names_the_line() -> None:
    text = to_json(finished("razz", 10))
    broken = text.replace('"game": "razz",', '"game": "razz"')
    with pytest.raises(HistoryError, match=r"not valid JSON at line 4, column 3") as caught:
        from_json(broken)
    assert caught.value.code == "bad_json"


def test_truncated_json_is_refused() -> None:
    text = to_json(finished("razz", 11))
    with pytest.raises(HistoryError, match="not valid JSON"):
        replay(text[: len(text) // 2])
    data = json.loads(text)
    del data["events"]
    with pytest.raises(HistoryError, match="no 'events'") as caught:
        replay(data)
    assert caught.value.code == "truncated_history"


def test_history_missing_its_last_actions_is_truncated() -> None:
    data = document(finished("razz", 12))
    data["actions"] = data["actions"][:-1]
    with pytest.raises(HistoryError, match="stop before the hand ends") as caught:
        replay(data)
    assert caught.value.code == "truncated_history"


def test_unknown_game_and_bad_format_are_refused() -> None:
    data = document(finished("razz", 13))
    with pytest.raises(HistoryError, match="unknown game 'omaha'"):
        replay({**data, "game": "omaha"})
    with pytest.raises(HistoryError, match="not supported"):
        replay({**data, "format": "pokerhouse-hand/9"})
    with pytest.raises(HistoryError, match="not a pokerhouse hand history"):
        replay({"hello": 1})
    with pytest.raises(HistoryError, match="spec: unknown field colour"):
        replay({**data, "spec": {**data["spec"], "colour": "red"}})
    with pytest.raises(HistoryError, match="spec field 'ante'"):
        replay({**data, "spec": {**data["spec"], "ante": "one"}})


def test_illegal_action_names_the_action() -> None:
    data = document(finished("razz", 14))
    data["actions"][1] = {"seat": data["actions"][1]["seat"], "action": "raise 9999"}
    with pytest.raises(HistoryError, match=r"^action 1 \(seat \d: raise 9999\)") as caught:
        replay(data)
    assert caught.value.code == "illegal_action"


def test_action_out_of_turn_names_the_action() -> None:
    data = document(finished("razz", 15))
    data["actions"][0]["seat"] = (data["actions"][0]["seat"] + 1) % 4
    with pytest.raises(HistoryError, match=r"^action 0 .*turn"):
        replay(data)


def test_unreadable_action_names_its_index() -> None:
    data = document(finished("razz", 16))
    data["actions"][2] = {"seat": 0, "action": "dance"}
    with pytest.raises(HistoryError, match=r"actions\[2\] 'dance'"):
        replay(data)


def test_tampered_event_names_the_action_and_the_event() -> None:
    hand = finished("razz", 17)
    data = document(hand)
    index = next(i for i, e in enumerate(data["events"]) if e["type"] == "pot_awarded")
    # A self-consistent forgery (shares still add up), so only replay can catch it.
    data["events"][index]["amount"] += 1
    data["events"][index]["shares"][0] += 1
    with pytest.raises(HistoryError, match=rf"action \d+ .*: event {index} was recorded as") as c:
        replay(data)
    assert c.value.code == "events_mismatch"


def test_tampered_cards_are_caught_at_the_deal() -> None:
    hand = finished("razz", 18)
    data = document(hand)
    first, second = data["cards"]["0"][0], data["cards"]["1"][0]
    data["cards"]["0"][0], data["cards"]["1"][0] = second, first
    with pytest.raises(HistoryError, match=r"^the deal: event"):
        replay(data)


def test_tampered_finishing_stacks_are_caught() -> None:
    data = document(finished("razz", 19))
    data["finishing_stacks"][0] += 5
    with pytest.raises(HistoryError, match="finishing stacks: recorded") as caught:
        replay(data)
    assert caught.value.code == "stacks_mismatch"


def test_extra_action_after_the_end_is_refused() -> None:
    data = document(finished("razz", 20))
    data["actions"].append({"seat": 0, "action": "fold"})
    with pytest.raises(HistoryError, match="already over"):
        replay(data)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("starting_stacks", [100, "x"], "list of whole numbers"),
        ("cards", {"zero": []}, "not a seat number"),
        ("cards", {"0": ["Zz"]}, r"cards\['0'\]"),
        ("actions", {"seat": 0}, "must be a JSON array"),
        ("events", [{"type": "meteor"}], r"events\[0\]: unknown event type"),
        ("view", "everyone", "'view' must be"),
    ],
)
def test_malformed_fields_are_named(field: str, value: object, message: str) -> None:
    data = document(finished("razz", 21))
    data[field] = value
    with pytest.raises(HistoryError, match=message):
        replay(data)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 100_000, "nested too deeply"),
        ('{"format": "pokerhouse-hand/1", "game": ' + "[" * 100_000, "nested too deeply"),
        ('{"format": "pokerhouse-hand/1", "n": ' + "9" * 5000 + "}", "a number too long"),
    ],
)
def test_hostile_json_is_refused_as_bad_json(text: str, message: str) -> None:
    with pytest.raises(HistoryError, match=message) as caught:
        from_json(text)
    assert caught.value.code == "bad_json"


def test_a_history_nested_deeper_than_any_record_is_refused() -> None:
    data = document(finished("razz", 25))
    data["spec"] = {"ante": json.loads("[" * 400 + "]" * 400)}
    with pytest.raises(HistoryError, match="nested more than 32 levels") as caught:
        from_json(json.dumps(data))
    assert caught.value.code == "bad_history"
    looped: dict[str, object] = {**data}
    looped["setup"] = looped
    with pytest.raises(HistoryError, match="nested more than 32 levels"):
        HandRecord.from_dict(looped)


@pytest.mark.parametrize(
    "setup", [{"seed": 3}, {"options": {"ante": 5}}, {"deck": None}, {"colour": "red"}]
)
def test_setup_holds_only_what_the_hand_itself_takes(setup: dict[str, object]) -> None:
    # The setup is the hand's own keyword arguments; new_hand's (seed, options) are not.
    data = document(finished("teen-patti", 26, players=3))
    with pytest.raises(HistoryError, match="setup") as caught:
        replay({**data, "setup": setup})
    assert caught.value.code == "bad_setup"


def test_every_history_error_is_a_poker_error() -> None:
    with pytest.raises(PokerError):
        from_json("[]")


def test_a_valid_action_log_replays_to_a_hand_that_accepts_more_actions() -> None:
    hand = new_hand("3x4", [50, 50], seed=22)
    again = replay(to_json(hand))
    again.act(Action.fold())
    assert again.is_over


def test_a_teen_patti_seat_that_looked_has_its_own_cards_in_its_history() -> None:
    hand = new_hand("teen-patti", [100, 100, 100], seed=5)
    hand.act(Action(ActionKind.LOOK))
    own = record(hand, seat=0).cards[0]
    assert None not in own and tuple(own) == tuple(hand.cards[0])  # type: ignore[attr-defined]
    # Nobody else learns them, and a seat that has not looked sees nothing of its own.
    assert set(record(hand, seat=1).cards[0]) == {None}
    assert set(record(hand, seat=1).cards[1]) == {None}


def test_one_persons_several_boxes_are_one_view_of_every_box_and_read_back() -> None:
    hand = finished("casino-holdem", 5, players=4)
    both = record(hand, frozenset({0, 2}))
    data = both.to_dict()
    assert data["view"] == [0, 2]
    for seat in (0, 2):
        assert all(both.cards[seat]), "each of the person's boxes shows its cards"
        assert both.cards[seat] == record(hand, seat).cards[seat]
    for seat in (1, 3):  # the others' boxes: as a spectator sees them
        assert both.cards[seat] == record(hand, None).cards[seat]
    again = from_json(both.to_json())
    assert again.view == frozenset({0, 2}) and again.cards == both.cards
    assert record(hand, frozenset({1})).view == 1  # one seat is just that seat
    for bad in (frozenset(), frozenset({0, 9}), frozenset({True})):
        with pytest.raises(HistoryError):
            record(hand, bad)
    text = json.loads(both.to_json())
    for view in ([0, 0], [0], [0, 9], ["0", 1]):
        text["view"] = view
        with pytest.raises(HistoryError):
            HandRecord.from_dict(text)
