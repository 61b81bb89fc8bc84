"""Helpers shared by the game tests: random play, leak checks, stacked decks."""

from __future__ import annotations

import dataclasses
import pickle
import random
from collections.abc import Iterable, Iterator, Sequence

from pokerhouse.cards import FULL_DECK, Card, Deck, parse_cards
from pokerhouse.engine import Action, ActionKind, Hand, LegalAction
from pokerhouse.engine.events import CardsDealt, HandShown
from pokerhouse.engine.visibility import audience
from pokerhouse.errors import PokerError


def random_action(legal: LegalAction, rng: random.Random) -> Action:
    """A legal action of this kind with a random amount in range."""
    if legal.min_amount is None:
        return Action(legal.kind)
    assert legal.max_amount is not None
    return Action(legal.kind, rng.randint(legal.min_amount, legal.max_amount))


def policy_action(hand: Hand, rng: random.Random) -> Action:
    """A random policy that folds about 12% and raises about 15% of the time."""
    legal = hand.legal_actions()
    roll = rng.random()
    sized = [a for a in legal if a.min_amount is not None]
    if roll < 0.12 and ActionKind.FOLD in legal and ActionKind.CHECK not in legal:
        return Action.fold()
    if roll < 0.27 and sized:
        return random_action(rng.choice(sized), rng)
    for kind in (ActionKind.CHECK, ActionKind.CALL):
        if kind in legal:
            return Action(kind)
    return random_action(rng.choice(list(legal)), rng)


def play_out(hand: Hand, rng: random.Random, limit: int = 2000) -> int:
    """Play random legal actions until the hand ends; returns the number of actions."""
    steps = 0
    while not hand.is_over:
        hand.act(policy_action(hand, rng))
        steps += 1
        assert steps < limit, "hand did not end"
    return steps


def illegal_actions(hand: Hand, rng: random.Random) -> Iterator[Action | object]:
    """Actions that must be rejected now (wrong kind, bad amounts, garbage)."""
    legal = hand.legal_actions()
    for kind in ActionKind:
        if kind not in legal:
            yield Action(kind, 10 if kind in (ActionKind.BET, ActionKind.RAISE) else None)
    for action in legal:
        if action.min_amount is not None and action.max_amount is not None:
            yield Action(action.kind, action.min_amount - 1)
            yield Action(action.kind, action.max_amount + 1 + rng.randint(0, 100))
            yield Action(action.kind, None)
            yield Action(action.kind, float(action.min_amount))  # type: ignore[arg-type]
            yield Action(action.kind, True)
        elif action.kind is ActionKind.CALL:
            yield Action(ActionKind.CALL, 10**12)
    yield "fold"
    yield Action(ActionKind.CALL, -5) if ActionKind.CALL not in legal else Action.bet(-1)


def assert_rejected_unchanged(hand: Hand, action: object) -> None:
    """The action is refused with a PokerError and the hand is byte-for-byte unchanged."""
    before = pickle.dumps(hand)
    try:
        hand.act(action)  # type: ignore[arg-type]
    except PokerError:
        pass
    else:
        raise AssertionError(f"{action!r} was accepted")
    assert pickle.dumps(hand) == before, f"rejected {action!r} changed the hand"


def cards_in(obj: object) -> set[Card]:
    """Every Card anywhere inside a value (dataclasses, tuples, dicts...)."""
    found: set[Card] = set()
    stack: list[object] = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, Card):
            found.add(item)
        elif dataclasses.is_dataclass(item) and not isinstance(item, type):
            stack.extend(getattr(item, f.name) for f in dataclasses.fields(item))
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple, set, frozenset)):
            stack.extend(item)
    return found


def allowed_cards(hand: Hand, seat: int | None) -> set[Card]:
    """Cards ``seat`` may know: its own (when it may see them), face-up and shown cards."""
    allowed: set[Card] = set()
    for event in hand.events:
        if isinstance(event, CardsDealt):
            for card, up in zip(event.cards, event.face_up, strict=True):
                if card is not None and (up or (event.seat == seat and event.owner_sees)):
                    allowed.add(card)
        elif isinstance(event, HandShown):
            allowed.update(event.cards)
        else:
            seats = audience(event)
            if seats is None or (seat is not None and seat in seats):
                allowed.update(cards_in(event))
    return allowed


def assert_no_leak(hand: Hand) -> None:
    """No view and no filtered event stream holds a card its seat may not know."""
    for seat in [None, *range(hand.players)]:
        allowed = allowed_cards(hand, seat)
        seen = cards_in(hand.view(seat)) | cards_in(hand.events_for(seat))
        leaked = seen - allowed
        assert not leaked, f"seat {seat} can see {sorted(leaked)}"


def stacked_deck(order: Sequence[str], burns_at: Iterable[int] = ()) -> Deck:
    """A deck dealing ``order`` (card texts, with '?' for any unused card)."""
    wanted = [None if text == "?" else parse_cards(text)[0] for text in order]
    named = {card for card in wanted if card is not None}
    spare = iter(card for card in FULL_DECK if card not in named)
    cards = [card if card is not None else next(spare) for card in wanted]
    return Deck.stacked(cards)


def holdem_order(holes: Sequence[str], board: str, per_seat: int = 3) -> list[str]:
    """Deck order for a 3x4 deal: hole cards one at a time, then burn+2, burn+1, burn+1."""
    hands = [parse_cards(text) for text in holes]
    order = [str(hands[seat][i]) for i in range(per_seat) for seat in range(len(hands))]
    flop = parse_cards(board)
    order += ["?", str(flop[0]), str(flop[1]), "?", str(flop[2]), "?", str(flop[3])]
    return order
