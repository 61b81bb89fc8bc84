"""PokerKit's side of the round trips: play a PHH in PokerKit, and deal random PokerKit hands.

Also what each engine does that the other does not (the rule differences
documented in docs/histories.md), so a round-trip test can tell a known
difference from a bug.
"""

from __future__ import annotations

import random
import warnings
from collections import Counter
from dataclasses import dataclass, field

from pokerkit import Automation, FixedLimitRazz, HandHistory
from pokerkit.notation import parse_action
from pokerkit.state import (
    BringInPosting,
    ChipsPushing,
    CompletionBettingOrRaisingTo,
    HoleDealing,
    State,
)

from pokerhouse.engine import ActionKind, Hand
from pokerhouse.engine.actions import SIZED_KINDS
from pokerhouse.engine.events import (
    ActionTaken,
    BoardDealt,
    DeckReshuffled,
    PotAwarded,
    StreetStarted,
)
from pokerhouse.games.razz import RazzSpec

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)

BIG_STREETS = ("fifth", "sixth", "seventh")


class PokerKitRefused(Exception):
    """PokerKit would not play an action of the history."""


def pokerkit_stacks(text: str, *, finish: bool = True) -> tuple[int, ...]:
    """Play a PHH through PokerKit's ``State`` and return its finishing stacks.

    Dealer steps PokerKit wants done by hand (burning a card, a show-or-muck
    it asks for before the history gives one) are done for it; a player
    action PokerKit refuses raises :class:`PokerKitRefused` naming it. With
    ``finish=False`` the stacks after the last action are returned.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "Returning reserved cards as dealable"
        return _play(text, finish)


def _play(text: str, finish: bool) -> tuple[int, ...]:
    history = HandHistory.loads(text)
    state = history.create_state()
    for index, action in enumerate(history.actions):
        while True:
            try:
                parse_action(state, action)
                break
            except ValueError as error:
                if state.can_burn_card():
                    state.burn_card("??")
                elif state.can_show_or_muck_hole_cards():
                    state.show_or_muck_hole_cards()
                else:
                    raise PokerKitRefused(f"action {index} {action!r}: {error}") from None
    while finish and state.status:
        if state.can_show_or_muck_hole_cards():
            state.show_or_muck_hole_cards()
        elif state.can_burn_card():
            state.burn_card("??")
        else:
            raise PokerKitRefused(f"the hand does not end (actor {state.actor_index})")
    return tuple(state.stacks)


def differences_in_our_hand(hand: Hand) -> set[str]:
    """Which documented PokerKit differences this hand of ours runs into."""
    spec = hand.spec  # type: ignore[attr-defined]
    assert isinstance(spec, RazzSpec)
    found: set[str] = set()
    street, current = "", 0
    for event in hand.events:
        if isinstance(event, StreetStarted):
            street, current = event.street, 0
        elif isinstance(event, ActionTaken):
            kind = event.action.kind
            if kind is ActionKind.BRING_IN and event.added < spec.bring_in:
                found.add("short bring-in")
            if kind in SIZED_KINDS and event.all_in:
                size = spec.big_bet if street in BIG_STREETS else spec.small_bet
                full = spec.small_bet if kind is ActionKind.COMPLETE else current + size
                if event.total < full:
                    found.add("short all-in bet or raise")
            current = max(current, event.total, spec.bring_in if kind is ActionKind.BRING_IN else 0)
        elif isinstance(event, DeckReshuffled | BoardDealt):
            found.add("short deck")
        elif isinstance(event, PotAwarded) and _odd_chips(event):
            found.add("odd chips among three or more")
    return found


def _odd_chips(award: PotAwarded) -> bool:
    """Ours hands odd chips out one each; PokerKit gives them all to the first winner."""
    return len(award.winners) > 2 and award.amount % len(award.winners) > 1


@dataclass
class PokerKitHand:
    """A random hand PokerKit dealt and played, as PHH, and what it ran into."""

    text: str
    stacks: tuple[int, ...]
    differences: set[str] = field(default_factory=set)
    finished: bool = True


def random_pokerkit_hand(seed: int) -> PokerKitHand:
    """A PokerKit Razz hand: 2 to 8 players, random stacks, a random policy.

    PokerKit shuffles with the global ``random``; it is seeded here and put
    back afterwards, so the deal is repeatable and nothing else is disturbed.
    """
    rng = random.Random(seed)
    players = rng.randint(2, 8)
    ante, bring_in = rng.randint(0, 3), rng.randint(1, 4)
    stacks = [rng.randint(ante + bring_in, 150) for _ in range(players)]
    game = FixedLimitRazz(AUTOMATIONS, True, ante, bring_in, 5, 10)
    saved = random.getstate()
    random.seed(seed)
    found: set[str] = set()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "Returning reserved cards as dealable"
            state = game(stacks, players)
            while state.status:
                if state.actor_index is None:
                    # Eight players on seventh street: PokerKit has no card left to
                    # deal and stops; our rules deal a community card.
                    return PokerKitHand("", (), {"short deck"}, finished=False)
                found |= _act(state, rng, bring_in)
    finally:
        random.setstate(saved)
    dealt = Counter(
        card
        for operation in state.operations
        if isinstance(operation, HoleDealing)
        for card in operation.cards
    )
    if any(count > 1 for count in dealt.values()):
        found.add("short deck")
    if any(
        isinstance(operation, ChipsPushing) and sum(1 for amount in operation.amounts if amount) > 2
        for operation in state.operations
    ):
        found.add("odd chips among three or more")
    text = HandHistory.from_game_state(game, state).dumps()
    return PokerKitHand(text, tuple(state.stacks), found)


def _act(state: State, rng: random.Random, bring_in: int) -> set[str]:
    """One decision by the random policy; returns the differences it ran into."""
    roll = rng.random()
    operation: object
    if state.can_post_bring_in() and roll < 0.7:
        operation = state.post_bring_in()
    elif roll < 0.12 and state.can_fold() and state.checking_or_calling_amount:
        operation = state.fold()
    elif roll < 0.35 and state.can_complete_bet_or_raise_to():
        operation = state.complete_bet_or_raise_to()
    elif state.can_check_or_call():
        operation = state.check_or_call()
    elif state.can_complete_bet_or_raise_to():
        operation = state.complete_bet_or_raise_to()
    else:
        operation = state.post_bring_in()
    found: set[str] = set()
    if isinstance(operation, BringInPosting) and operation.amount < bring_in:
        found.add("short bring-in")
    if (
        isinstance(operation, CompletionBettingOrRaisingTo)
        and not state.stacks[operation.player_index]
    ):
        found.add("short all-in bet or raise")  # every all-in raise, to be safe
    return found
