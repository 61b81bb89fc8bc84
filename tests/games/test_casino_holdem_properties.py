"""Casino Hold'em property tests: random tables, random bets, random decisions."""

from __future__ import annotations

import dataclasses
import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from pokerhouse.cards import Deck, ScriptedDeck
from pokerhouse.engine import Action, ActionKind
from pokerhouse.engine.events import CardsDealt, HandEnded, event_from_dict, event_to_dict
from pokerhouse.errors import PokerError
from pokerhouse.games.casino_holdem import (
    DEALER,
    BonusPays,
    BoxSettled,
    CasinoHoldemHand,
    CasinoHoldemSpec,
)
from tests.helpers import assert_no_leak, assert_rejected_unchanged


@dataclasses.dataclass(frozen=True)
class Round:
    spec: CasinoHoldemSpec
    stacks: tuple[int, ...]
    antes: tuple[int, ...]
    bonuses: tuple[int, ...]
    seed: int


@st.composite
def rounds(draw: st.DrawFn) -> Round:
    boxes = draw(st.integers(1, 7))
    min_ante = draw(st.integers(1, 5))
    max_ante = draw(st.integers(min_ante, 40))
    spec = CasinoHoldemSpec(
        min_ante=min_ante,
        max_ante=max_ante,
        max_payout=draw(st.integers(1, 3000)),
        bonus_pays=draw(st.sampled_from([BonusPays(), BonusPays.named("common")])),
    )
    antes, bonuses, stacks = [], [], []
    for _ in range(boxes):
        ante = draw(st.integers(min_ante, max_ante))
        bonus = draw(st.one_of(st.just(0), st.integers(min_ante, max(min_ante, ante))))
        if bonus > ante:
            bonus = 0
        antes.append(ante)
        bonuses.append(bonus)
        # Some boxes can cover the call, some cannot.
        stacks.append(ante + bonus + draw(st.integers(0, 4 * ante)))
    return Round(spec, tuple(stacks), tuple(antes), tuple(bonuses), draw(st.integers(0, 2**32)))


def start(table: Round) -> CasinoHoldemHand:
    return CasinoHoldemHand(
        table.spec,
        table.stacks,
        Deck(random.Random(table.seed)),
        antes=table.antes,
        bonuses=table.bonuses,
    )


def play(hand: CasinoHoldemHand, rng: random.Random, check_illegal: bool = False) -> None:
    steps = 0
    while not hand.is_over:
        if check_illegal:
            seat = hand.to_act
            assert seat is not None
            for bad in (
                Action(ActionKind.CALL, hand.call_amount(seat) + 1),
                Action.bet(5),
                Action.check(),
            ):
                assert_rejected_unchanged(hand, bad)
        kinds = [legal.kind for legal in hand.legal_actions()]
        hand.act(Action(rng.choice(kinds)))
        steps += 1
        assert steps <= 7


@settings(max_examples=150, deadline=None)
@given(rounds(), st.integers(0, 2**32))
def test_chips_are_conserved_between_boxes_and_house(table: Round, choice_seed: int) -> None:
    hand = start(table)
    play(hand, random.Random(choice_seed))
    assert hand.is_over
    assert sum(hand.results()) + hand.house_result == 0
    assert all(stack >= 0 for stack in hand.stacks)
    ended = hand.events[-1]
    assert isinstance(ended, HandEnded) and ended.net == hand.results()
    # Every box's result is its box settlement plus its bonus.
    for seat in range(hand.players):
        settled = [e for e in hand.events if isinstance(e, BoxSettled) and e.seat == seat]
        assert len(settled) == 1
    assert all(on == 0 for on in hand.contributed)


@settings(max_examples=80, deadline=None)
@given(rounds(), st.integers(0, 2**32))
def test_illegal_actions_change_nothing(table: Round, choice_seed: int) -> None:
    hand = start(table)
    play(hand, random.Random(choice_seed), check_illegal=True)


@settings(max_examples=80, deadline=None)
@given(rounds(), st.integers(0, 2**32))
def test_no_view_shows_another_boxs_or_the_dealers_hidden_cards(
    table: Round, choice_seed: int
) -> None:
    hand = start(table)
    rng = random.Random(choice_seed)
    assert_no_leak(hand)
    while not hand.is_over:
        hand.act(Action(rng.choice([legal.kind for legal in hand.legal_actions()])))
        assert_no_leak(hand)
        if not hand.dealer_shown:
            for seat in [None, *range(hand.players)]:
                view = hand.view(seat)
                assert not set(hand.dealer_cards) & set(
                    c for cards in view.cards for c in cards if c is not None
                )
                assert view.dealer_cards == (None, None)


@settings(max_examples=60, deadline=None)
@given(rounds(), st.integers(0, 2**32))
def test_a_round_replays_from_its_setup_actions_and_dealt_cards(
    table: Round, choice_seed: int
) -> None:
    hand = start(table)
    play(hand, random.Random(choice_seed))
    dealt = {e.seat: e.cards for e in hand.events if isinstance(e, CardsDealt)}
    assert DEALER in dealt
    deck = ScriptedDeck(dealt, board=hand.board)  # type: ignore[arg-type]
    again = CasinoHoldemHand(table.spec, table.stacks, deck, **hand.setup())
    for seat, action in hand.actions:
        again.act(action, seat=seat)
    assert again.events == hand.events
    for event in hand.events:
        assert event_from_dict(event_to_dict(event)) == event
    assert pickle.loads(pickle.dumps(hand)).events == hand.events


def test_random_rounds_never_raise_for_legal_play() -> None:
    rng = random.Random(7)
    for _ in range(300):
        boxes = rng.randint(1, 7)
        hand = CasinoHoldemHand(
            CasinoHoldemSpec(), [rng.randint(3, 300) for _ in range(boxes)], Deck(rng)
        )
        try:
            play(hand, rng)
        except PokerError as error:  # pragma: no cover - the failure message
            raise AssertionError(f"legal play raised {error.code}") from error
        assert sum(hand.results()) + hand.house_result == 0
