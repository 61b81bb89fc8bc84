"""Events as readable lines, with players' names instead of seat numbers.

Terminal play, the demo and logs use these lines. An event this module does
not know (a new game's own event) still gets a plain line from its fields.

>>> from pokerhouse.cards import parse_cards
>>> from pokerhouse.engine import Action
>>> from pokerhouse.engine.events import ActionTaken, CardsDealt, PotAwarded
>>> names = ["Ann", "Bob"]
>>> narrate(ActionTaken(seat=1, action=Action.raise_to(60), added=40, total=60), names)
'Bob raises to 60'
>>> narrate(CardsDealt(seat=0, cards=(None, None, parse_cards("7c")[0]),
...                    face_up=(False, False, True)), names)
'Ann is dealt ?? ?? 7c'
>>> narrate(PotAwarded(pot=0, amount=40, winners=(0, 1), shares=(20, 20),
...                    description="Pair of aces"), names)
'Ann and Bob split the pot of 40 (20 each) with Pair of aces'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from pokerhouse.cards import Card
from pokerhouse.engine.actions import ActionKind
from pokerhouse.engine.events import Event


def name_of(seat: int, names: Sequence[str]) -> str:
    """The player's name for hand seat ``seat`` (``seat N`` when unknown)."""
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"


def cards_text(cards: Sequence[Card | None]) -> str:
    """Cards as text, ``??`` for a card the reader may not see.

    >>> from pokerhouse.cards import parse_cards
    >>> cards_text((None, *parse_cards("As")))
    '?? As'
    """
    return " ".join("??" if card is None else str(card) for card in cards)


def _join(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _action_line(event: Event, names: Sequence[str]) -> str:
    seat = getattr(event, "seat", -1)
    action = getattr(event, "action", None)
    added = getattr(event, "added", 0)
    who = name_of(seat, names)
    kind = getattr(action, "kind", None)
    amount = getattr(action, "amount", None)
    tail = " and is all-in" if getattr(event, "all_in", False) else ""
    if kind is ActionKind.FOLD:
        text = "folds"
    elif kind is ActionKind.CHECK:
        text = "checks"
    elif kind is ActionKind.CALL:
        text = f"calls {added}"
    elif kind is ActionKind.BRING_IN:
        text = f"brings in for {added}"
    elif kind is ActionKind.COMPLETE:
        text = f"completes to {amount}"
    elif kind is ActionKind.RAISE:
        text = f"raises to {amount}"
    elif kind is ActionKind.BET:
        text = f"bets {amount}"
    elif kind is ActionKind.LOOK:
        text = "looks at their cards"
    elif kind is ActionKind.SHOW:
        text = f"pays {added} for a show" if added else "asks for a show"
    elif kind is ActionKind.SIDESHOW:
        text = f"bets {added} and asks for a sideshow" if added else "asks for a sideshow"
    elif kind is ActionKind.ACCEPT:
        text = "accepts the sideshow"
    elif kind is ActionKind.DECLINE:
        text = "declines the sideshow"
    elif kind is ActionKind.SHOW_HAND:
        text = "shows"
    elif kind is ActionKind.MUCK:
        text = "mucks"
    else:
        text = str(action)
    return f"{who} {text}{tail}"


def _pot_line(event: Event, names: Sequence[str]) -> str:
    winners = [name_of(seat, names) for seat in getattr(event, "winners", ())]
    shares = tuple(getattr(event, "shares", ()))
    amount = getattr(event, "amount", 0)
    index = getattr(event, "pot", 0)
    pot = "the pot" if index == 0 else f"side pot {index}"
    description = getattr(event, "description", "")
    with_hand = f" with {description}" if description else ""
    if len(winners) == 1:
        return f"{winners[0]} wins {amount} from {pot}{with_hand}"
    each = f"{shares[0]} each" if len(set(shares)) == 1 else "/".join(map(str, shares))
    return f"{_join(winners)} split {pot} of {amount} ({each}){with_hand}"


def narrate(event: Event, names: Sequence[str]) -> str | None:
    """One readable line for ``event`` (``None`` for events not worth a line).

    ``names[i]`` is the name of hand seat ``i``.
    """
    kind = event.type_name
    if kind == "hand_started":
        return None
    if kind == "street_started":
        return f"*** {getattr(event, 'street', '').upper()} ***"
    if kind == "ante_posted":
        amount = getattr(event, "amount", 0)
        return f"{name_of(getattr(event, 'seat', -1), names)} posts an ante of {amount}"
    if kind == "cards_dealt":
        cards = getattr(event, "cards", ())
        return f"{name_of(getattr(event, 'seat', -1), names)} is dealt {cards_text(cards)}"
    if kind == "board_dealt":
        return f"Board: {cards_text(getattr(event, 'cards', ()))}"
    if kind == "card_burned":
        return None
    if kind == "deck_reshuffled":
        return "The burned cards are shuffled back into the stub"
    if kind == "action_taken":
        return _action_line(event, names)
    if kind == "bet_returned":
        seat = getattr(event, "seat", -1)
        return f"{getattr(event, 'amount', 0)} uncalled returned to {name_of(seat, names)}"
    if kind == "hand_shown":
        seat = getattr(event, "seat", -1)
        description = getattr(event, "description", "")
        suffix = f" ({description})" if description else ""
        return f"{name_of(seat, names)} shows {cards_text(getattr(event, 'cards', ()))}{suffix}"
    if kind == "hand_mucked":
        return f"{name_of(getattr(event, 'seat', -1), names)} mucks"
    if kind == "pot_awarded":
        return _pot_line(event, names)
    if kind == "hand_ended":
        net = getattr(event, "net", ())
        parts = [f"{name_of(seat, names)} {n:+d}" for seat, n in enumerate(net) if n]
        return "Result: " + (", ".join(parts) if parts else "no change")
    return _generic_line(event, names)


def _generic_line(event: Event, names: Sequence[str]) -> str:
    """A plain line for an event without a dedicated sentence."""
    words = event.type_name.replace("_", " ")
    parts: list[str] = []
    for field in dataclasses.fields(event):
        value = getattr(event, field.name)
        if field.name in ("seat", "asker", "target", "loser", "winner") and isinstance(value, int):
            parts.append(f"{field.name} {name_of(value, names)}")
        elif (
            isinstance(value, tuple)
            and value
            and all(item is None or isinstance(item, Card) for item in value)
        ):
            parts.append(f"{field.name.replace('_', ' ')} {cards_text(value)}")
        else:
            parts.append(f"{field.name.replace('_', ' ')} {value}")
    return f"{words[:1].upper()}{words[1:]}: " + ", ".join(parts) if parts else words.capitalize()
