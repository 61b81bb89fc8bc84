"""The one rule: what ``shown_to`` gives each kind of viewer, for events and held cards."""

from __future__ import annotations

import ast
import pickle
import random
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pokerhouse
from pokerhouse.cards import parse_cards
from pokerhouse.engine.events import CardsDealt, HandShown
from pokerhouse.engine.visibility import Holding, audience, shown_to
from pokerhouse.errors import InvalidAction
from pokerhouse.games import new_hand
from tests.helpers import policy_action

GAMES = ("3x4", "razz", "teen-patti", "casino-holdem")


def test_a_seat_sees_its_own_face_down_cards_and_everyone_the_face_up_ones() -> None:
    held = Holding.owned(2).dealt(parse_cards("As Kd"), (False, False))
    held = held.dealt(parse_cards("7c"), (True,))
    assert shown_to(held, 2) == parse_cards("As Kd 7c")
    assert shown_to(held, frozenset({0, 2})) == parse_cards("As Kd 7c")
    for other in (0, frozenset({0, 1}), frozenset(), None):
        assert shown_to(held, other) == (None, None, *parse_cards("7c"))


def test_cards_shown_to_more_viewers_stay_shown_and_shown_to_all_are_public() -> None:
    blind = Holding(frozenset()).dealt(parse_cards("2c 3c 4c"), (False,) * 3)
    assert shown_to(blind, 0) == (None, None, None)  # not even its owner, before a look
    looked = blind.shown(frozenset({0}))
    compared = looked.shown(frozenset({0, 1}))
    assert shown_to(looked, 0) == shown_to(compared, 1) == parse_cards("2c 3c 4c")
    assert shown_to(compared, 2) == (None, None, None)
    assert shown_to(compared.shown(), None) == parse_cards("2c 3c 4c")
    assert audience(compared) == frozenset({0, 1}) and audience(compared.shown()) is None


def test_holdings_never_change_and_pickle_equal() -> None:
    held = Holding.owned(1)
    dealt = held.dealt(parse_cards("As"), (False,))
    assert held.cards == () and dealt.cards == parse_cards("As")
    assert pickle.loads(pickle.dumps(dealt)) == dealt
    assert shown_to(pickle.loads(pickle.dumps(dealt)), None) == (None,)
    with pytest.raises(ValueError):
        held.dealt(parse_cards("As Kd"), (False,))


def test_a_hands_seats_are_shown_as_each_seat_is() -> None:
    hands = enumerate(["As Kd", "2c 3c"])
    seats = [Holding.owned(n).dealt(parse_cards(text), (False, True)) for n, text in hands]
    for viewer in (None, 0, 1, frozenset({0, 1}), frozenset({1})):
        assert shown_to(seats, viewer) == tuple(shown_to(held, viewer) for held in seats)


@pytest.mark.parametrize("viewer", [True, 1.0, "1", frozenset({True}), frozenset({1.0}), [1]])
def test_a_viewer_that_is_not_seats_is_refused_for_events_and_cards(viewer: object) -> None:
    event = CardsDealt(seat=1, cards=parse_cards("As Kd"), face_up=(False, False))
    held = Holding.owned(1).dealt(parse_cards("As Kd"), (False, False))
    for subject in (event, held, [held]):
        with pytest.raises(InvalidAction):
            shown_to(subject, viewer)  # type: ignore[call-overload]


def test_a_public_event_is_the_event_itself_for_everyone() -> None:
    shown = HandShown(seat=0, cards=parse_cards("Ah Kh Qh"))
    assert audience(shown) is None
    assert all(shown_to(shown, v) is shown for v in (None, 0, 3, frozenset({1, 2})))


@settings(max_examples=40, deadline=None)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 2**32), players=st.integers(2, 5))
def test_an_event_has_two_copies_its_audiences_and_everyone_elses(
    game: str, seed: int, players: int
) -> None:
    """So a sender decides once per audience: every viewer outside it gets the spectator's."""
    rng = random.Random(seed)
    hand = new_hand(game, [rng.randrange(20, 200) for _ in range(players)], seed=seed)
    while not hand.is_over:
        hand.act(policy_action(hand, rng))
    viewers = [None, *range(players), *map(frozenset, combinations(range(players), 2))]
    for event in hand.events:
        seats = audience(event)
        spectator = shown_to(event, None)
        for viewer in viewers:
            held = {viewer} if isinstance(viewer, int) else set(viewer or ())
            inside = seats is None or bool(held & seats)
            assert shown_to(event, viewer) == (event if inside else spectator)
        if seats is not None and seats:
            assert shown_to(event, seats) is event


#: What events and holdings declare about who sees them: read by engine.visibility alone.
DECLARATIONS = ("visible_to", "redacted", "public")


def test_only_the_rule_reads_what_events_and_holdings_declare() -> None:
    """Nothing else filters cards: no module but engine.visibility reads an event's
    ``visible_to``/``redacted`` or a holding's ``public`` copy. (Reading an event back
    from JSON checks that its declarations work: the one exception.)"""
    root = Path(pokerhouse.__file__).resolve().parent
    readers = set()
    for path in sorted(root.rglob("*.py")):
        name = path.relative_to(root).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in DECLARATIONS:
                own = isinstance(node.value, ast.Name) and node.value.id == "self"
                if not own and name != "engine/visibility.py":
                    readers.add((name, node.attr))
    assert readers == {("engine/events.py", "visible_to"), ("engine/events.py", "redacted")}
