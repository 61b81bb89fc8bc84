"""Teen Patti property tests: random tables and random play, legal and illegal."""

from __future__ import annotations

import dataclasses
import pickle
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from pokerhouse.cards import Card, Deck
from pokerhouse.engine import Action, ActionKind, Limit
from pokerhouse.engine.events import (
    ActionTaken,
    HandEnded,
    HandShown,
    event_from_dict,
    event_to_dict,
)
from pokerhouse.errors import OutOfTurn, PokerError
from pokerhouse.games.teen_patti import (
    CardsLooked,
    SideshowCompared,
    TeenPattiHand,
    TeenPattiSpec,
)

STEP_LIMIT = 3000


@dataclasses.dataclass(frozen=True)
class Table:
    spec: TeenPattiSpec
    stacks: tuple[int, ...]
    seed: int


@st.composite
def tables(draw: st.DrawFn) -> Table:
    players = draw(st.integers(2, 7))
    stack = st.one_of(st.integers(1, 12), st.integers(12, 400))
    spec = TeenPattiSpec(
        ante=draw(st.integers(1, 5)),
        limit=draw(st.sampled_from(list(Limit)[:2])),
        sideshow=draw(st.booleans()),
    )
    stacks = tuple(draw(st.lists(stack, min_size=players, max_size=players)))
    return Table(spec, stacks, draw(st.integers(0, 2**32)))


def start(table: Table) -> TeenPattiHand:
    return TeenPattiHand(table.spec, table.stacks, Deck(random.Random(table.seed)))


def choose(hand: TeenPattiHand, rng: random.Random) -> Action:
    """A random legal action, favouring looks, small bets, shows and sideshows."""
    legal = hand.legal_actions()
    weights = {
        ActionKind.FOLD: 1,
        ActionKind.LOOK: 4,
        ActionKind.BET: 6,
        ActionKind.SHOW: 2,
        ActionKind.SIDESHOW: 3,
        ActionKind.ACCEPT: 1,
        ActionKind.DECLINE: 1,
    }
    options = list(legal)
    pick = rng.choices(options, [weights[a.kind] for a in options])[0]
    if pick.min_amount is None or pick.max_amount is None:
        return Action(pick.kind)
    low, high = pick.min_amount, pick.max_amount
    roll = rng.random()
    amount = low if roll < 0.7 else high if roll < 0.75 else rng.randint(low, high)
    return Action(pick.kind, amount)


def listed(hand: TeenPattiHand, action: Action) -> bool:
    """Whether ``legal_actions()`` allows exactly this action."""
    legal = hand.legal_actions().get(action.kind)
    if legal is None:
        return False
    if legal.min_amount is None or legal.max_amount is None:
        return action.amount is None
    return action.amount is not None and legal.min_amount <= action.amount <= legal.max_amount


def random_action(rng: random.Random) -> Action:
    kind = rng.choice(list(ActionKind))
    amount = rng.choice([None, rng.randint(-3, 5), rng.randint(0, 500)])
    return Action(kind, amount)


def cards_in(value: object) -> set[Card]:
    """Every Card anywhere inside a value (events, views, tuples, dicts)."""
    found: set[Card] = set()
    stack: list[object] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, Card):
            found.add(item)
        elif isinstance(item, list | tuple | set | frozenset):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif item is None or isinstance(item, int | str):
            continue
        elif dataclasses.is_dataclass(item) and not isinstance(item, type):
            stack.extend(getattr(item, f.name) for f in dataclasses.fields(item))
    return found


def known_to(hand: TeenPattiHand, seat: int | None) -> set[Card]:
    """Cards ``seat`` may know, from the log: its look, its sideshows, every show."""
    known: set[Card] = set()
    for event in hand.events:
        if isinstance(event, HandShown):
            known.update(event.cards)
        elif isinstance(event, CardsLooked) and event.seat == seat:
            known.update(c for c in event.cards if c is not None)
        elif isinstance(event, SideshowCompared) and seat in (event.asker, event.target):
            known.update(c for c in event.asker_cards + event.target_cards if c is not None)
    return known


def assert_private(hand: TeenPattiHand) -> None:
    for seat in [None, *range(hand.players)]:
        view = hand.view(seat)
        events = hand.events_for(seat)
        visible = cards_in(view) | cards_in(events)
        leaked = visible - known_to(hand, seat)
        assert not leaked, f"seat {seat} sees {sorted(leaked)}"
        if seat is None:
            continue
        if not hand.seen[seat] and not hand.revealed[seat]:
            assert all(card is None for card in view.cards[seat]), "blind player sees own cards"
        elif hand.cards[seat]:
            assert view.cards[seat] == hand.cards[seat]


def assert_chips_sound(hand: TeenPattiHand, total: int) -> None:
    assert all(stack >= 0 for stack in hand.stacks)
    assert sum(hand.stacks) + hand.pot_total == total
    assert sum(pot.amount for pot in hand.pots()) == hand.pot_total


@settings(max_examples=400, deadline=None)
@given(tables(), st.integers(0, 2**32))
def test_random_hands_conserve_chips_end_and_keep_cards_private(table: Table, seed: int) -> None:
    hand = start(table)
    rng = random.Random(seed)
    total = sum(table.stacks)
    steps = 0
    while not hand.is_over:
        assert_chips_sound(hand, total)
        if steps % 3 == 0:
            assert_private(hand)
        hand.act(choose(hand, rng))
        steps += 1
        assert steps < STEP_LIMIT, "hand did not end"
    assert_chips_sound(hand, total)
    assert_private(hand)
    assert sum(hand.results()) == 0 and hand.pot_total == 0
    assert isinstance(hand.events[-1], HandEnded)
    assert hand.events[-1].stacks == hand.stacks
    assert len(hand.legal_actions()) == 0 and hand.to_act is None


@settings(max_examples=300, deadline=None)
@given(tables(), st.integers(0, 2**32))
def test_random_illegal_actions_are_rejected_and_change_nothing(table: Table, seed: int) -> None:
    hand = start(table)
    rng = random.Random(seed)
    steps = 0
    while not hand.is_over:
        for _ in range(3):
            action = random_action(rng)
            before = pickle.dumps(hand)
            if listed(hand, action):
                continue
            try:
                hand.act(action)
            except PokerError:
                assert pickle.dumps(hand) == before, f"rejected {action} changed the hand"
            else:
                raise AssertionError(f"{action} was accepted but not listed")
        assert hand.to_act is not None
        wrong = (hand.to_act + 1) % hand.players
        before = pickle.dumps(hand)
        try:
            hand.act(choose(hand, rng), seat=wrong)
        except OutOfTurn:
            assert pickle.dumps(hand) == before
        else:
            raise AssertionError(f"seat {wrong} acted out of turn")
        hand.act(choose(hand, rng))
        steps += 1
        assert steps < STEP_LIMIT
    before = pickle.dumps(hand)
    try:
        hand.act(Action.fold())
    except PokerError as error:
        assert error.code == "hand_over"
    assert pickle.dumps(hand) == before


@settings(max_examples=150, deadline=None)
@given(tables(), st.integers(0, 2**32))
def test_random_hands_replay_and_serialise_exactly(table: Table, seed: int) -> None:
    hand = start(table)
    rng = random.Random(seed)
    while not hand.is_over:
        hand.act(choose(hand, rng))
    again = TeenPattiHand(table.spec, table.stacks, Deck(random.Random(table.seed)), **hand.setup())
    for seat, action in hand.actions:
        again.act(action, seat)
    assert again.events == hand.events
    for seat in [None, *range(hand.players)]:
        for event in hand.events_for(seat):
            assert event_from_dict(event_to_dict(event)) == event


def seen_kind(hand: TeenPattiHand, kind: ActionKind) -> bool:
    return any(isinstance(e, ActionTaken) and e.action.kind is kind for e in hand.events)


def test_random_play_reaches_every_kind_of_ending() -> None:
    """The random policy above is not vacuous: it shows, sideshows and goes all-in."""
    seen: Counter[str] = Counter()
    for seed in range(400):
        rng = random.Random(seed)
        spec = TeenPattiSpec(ante=rng.randint(1, 3), sideshow=seed % 2 == 0)
        stacks = [rng.choice([5, 30, 200]) for _ in range(rng.randint(2, 6))]
        hand = TeenPattiHand(spec, stacks, Deck(random.Random(seed)))
        while not hand.is_over:
            hand.act(choose(hand, rng))
        for event in hand.events:
            if isinstance(event, ActionTaken):
                seen[event.action.kind.value] += 1
        if seen_kind(hand, ActionKind.SHOW):
            seen["show"] += 1
        elif any(isinstance(e, HandShown) for e in hand.events):
            seen["all-in showdown"] += 1
        else:
            seen["all but one folded"] += 1
        seen["look"] += sum(1 for e in hand.events if isinstance(e, CardsLooked))
        seen["all-in"] += any(e.all_in for e in hand.events if isinstance(e, ActionTaken))
        seen["sideshow compared"] += any(isinstance(e, SideshowCompared) for e in hand.events)
    outcomes = ("show", "all-in showdown", "all but one folded", "all-in", "sideshow compared")
    for outcome in (*outcomes, "accept", "decline", "look", "fold"):
        assert seen[outcome] > 5, seen
