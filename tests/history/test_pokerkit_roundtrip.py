"""Round trips with PokerKit: our Razz hands load in PokerKit, PokerKit's replay in ours.

Both directions must reach the same finishing stacks. A hand that runs into
one of the documented rule differences (docs/histories.md; each has its own
test in test_pokerkit_differences.py) may legitimately end elsewhere; every
other hand must agree exactly.
"""

from __future__ import annotations

import random

from pokerhouse.engine import Action, ActionKind
from pokerhouse.errors import HistoryError
from pokerhouse.games import new_hand
from pokerhouse.games.razz import RazzSpec
from pokerhouse.history import replay_phh, to_phh
from tests.history.pokerkit_play import (
    PokerKitRefused,
    differences_in_our_hand,
    pokerkit_stacks,
    random_pokerkit_hand,
)

HANDS = 250


def random_razz_hand(seed: int) -> object:
    """One of our Razz hands: 2 to 8 players, stacks down to ante plus bring-in."""
    rng = random.Random(seed)
    players = rng.randint(2, 8)
    spec = RazzSpec(ante=rng.randint(0, 3), bring_in=rng.randint(1, 4), small_bet=5, big_bet=10)
    stacks = [rng.randint(spec.ante + spec.bring_in, 150) for _ in range(players)]
    hand = new_hand("razz", stacks, spec=spec, seed=seed)
    while not hand.is_over:
        legal = hand.legal_actions()
        sized = [a for a in legal if a.min_amount is not None]
        roll = rng.random()
        if roll < 0.12 and ActionKind.FOLD in legal and ActionKind.CHECK not in legal:
            action = Action.fold()
        elif roll < 0.35 and sized:
            choice = rng.choice(sized)
            action = Action(choice.kind, choice.min_amount)
        else:
            kind = next(
                k for k in (ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN) if k in legal
            )
            action = Action(kind)
        hand.act(action)
    return hand


def test_our_razz_hands_written_as_phh_reach_the_same_stacks_in_pokerkit() -> None:
    exact = 0
    for seed in range(HANDS):
        hand = random_razz_hand(seed)
        known = differences_in_our_hand(hand)  # type: ignore[arg-type]
        text = to_phh(hand)  # type: ignore[arg-type]
        try:
            theirs = pokerkit_stacks(text)
        except PokerKitRefused as refusal:
            assert known, f"seed {seed}: PokerKit refused {refusal}\n{text}"
            continue
        if known and theirs != hand.stacks:  # type: ignore[attr-defined]
            continue
        assert theirs == hand.stacks, f"seed {seed}: PokerKit ends at {theirs}\n{text}"  # type: ignore[attr-defined]
        exact += 1
    assert exact >= 0.9 * HANDS


def test_pokerkit_razz_hands_replay_in_ours_to_the_same_stacks() -> None:
    exact = 0
    for seed in range(HANDS):
        theirs = random_pokerkit_hand(seed)
        if not theirs.finished:
            continue
        try:
            hand = replay_phh(theirs.text)
        except HistoryError as error:
            assert theirs.differences, f"seed {seed}: {error}\n{theirs.text}"
            continue
        if theirs.differences and hand.stacks != theirs.stacks:
            continue
        assert hand.stacks == theirs.stacks, f"seed {seed}\n{theirs.text}"
        exact += 1
    assert exact >= 0.85 * HANDS
