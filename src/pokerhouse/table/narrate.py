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
>>> narrate(ActionTaken(seat=0, action=Action.call(), added=20, total=60), names, you=0)
'You call 20'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from pokerhouse.cards import Card
from pokerhouse.engine.actions import ActionKind
from pokerhouse.engine.events import Event

#: The house dealer's seat in banked games' events.
DEALER = -1

_OUTCOMES = {
    "folded": "loses the ante",
    "dealer_not_qualified": "is paid on the ante (the dealer does not qualify)",
    "won": "beats the dealer",
    "stand_off": "ties the dealer: stand-off",
    "lost": "loses to the dealer",
}


def name_of(seat: int, names: Sequence[str], you: int | None = None) -> str:
    """The player's name for hand seat ``seat`` (``You`` for the reader's seat)."""
    if you is not None and seat == you:
        return "You"
    if seat == DEALER:
        return "The dealer"
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


#: Each action's sentence: (third person, second person); ``{n}`` is an amount.
_ACTION_WORDS: dict[ActionKind, tuple[str, str]] = {
    ActionKind.FOLD: ("folds", "fold"),
    ActionKind.CHECK: ("checks", "check"),
    ActionKind.CALL: ("calls {added}", "call {added}"),
    ActionKind.BRING_IN: ("brings in for {added}", "bring in for {added}"),
    ActionKind.COMPLETE: ("completes to {amount}", "complete to {amount}"),
    ActionKind.RAISE: ("raises to {amount}", "raise to {amount}"),
    ActionKind.BET: ("bets {amount}", "bet {amount}"),
    ActionKind.LOOK: ("looks at their cards", "look at your cards"),
    ActionKind.SHOW: ("pays {added} for a show", "pay {added} for a show"),
    ActionKind.SIDESHOW: (
        "bets {added} and asks for a sideshow",
        "bet {added} and ask for a sideshow",
    ),
    ActionKind.ACCEPT: ("accepts the sideshow", "accept the sideshow"),
    ActionKind.DECLINE: ("declines the sideshow", "decline the sideshow"),
    ActionKind.SHOW_HAND: ("shows", "show"),
    ActionKind.MUCK: ("mucks", "muck"),
}


def _action_line(event: Event, names: Sequence[str], you: int | None) -> str:
    seat = getattr(event, "seat", -1)
    action = getattr(event, "action", None)
    kind = getattr(action, "kind", None)
    second = you is not None and seat == you
    words = _ACTION_WORDS.get(kind) if isinstance(kind, ActionKind) else None
    if words is None:
        text = str(action)
    else:
        text = words[1 if second else 0].format(
            added=getattr(event, "added", 0), amount=getattr(action, "amount", None)
        )
    if getattr(event, "all_in", False):
        text += " and are all-in" if second else " and is all-in"
    return f"{name_of(seat, names, you)} {text}"


def _pot_line(event: Event, names: Sequence[str], you: int | None) -> str:
    seats = tuple(getattr(event, "winners", ()))
    winners = [name_of(seat, names, you) for seat in seats]
    shares = tuple(getattr(event, "shares", ()))
    amount = getattr(event, "amount", 0)
    index = getattr(event, "pot", 0)
    pot = "the pot" if index == 0 else f"side pot {index}"
    description = getattr(event, "description", "")
    with_hand = f" with {description}" if description else ""
    if len(winners) == 1:
        verb = "win" if you is not None and seats[0] == you else "wins"
        return f"{winners[0]} {verb} {amount} from {pot}{with_hand}"
    each = f"{shares[0]} each" if len(set(shares)) == 1 else "/".join(map(str, shares))
    return f"{_join(winners)} split {pot} of {amount} ({each}){with_hand}"


def narrate(event: Event, names: Sequence[str], you: int | None = None) -> str | None:
    """One readable line for ``event`` (``None`` for events not worth a line).

    ``names[i]`` is the name of hand seat ``i``; the reader's own seat ``you``
    is spoken to in the second person.
    """
    kind = event.type_name
    seat = getattr(event, "seat", -1)
    who = name_of(seat, names, you)
    second = you is not None and seat == you
    if kind in ("hand_started", "card_burned"):
        return None
    if kind == "street_started":
        return f"*** {getattr(event, 'street', '').upper()} ***"
    if kind == "ante_posted":
        verb = "post" if second else "posts"
        return f"{who} {verb} an ante of {getattr(event, 'amount', 0)}"
    if kind == "cards_dealt":
        verb = "are dealt" if second else "is dealt"
        return f"{who} {verb} {cards_text(getattr(event, 'cards', ()))}"
    if kind == "board_dealt":
        return f"Board: {cards_text(getattr(event, 'cards', ()))}"
    if kind == "deck_reshuffled":
        return "The burned cards are shuffled back into the stub"
    if kind == "action_taken":
        return _action_line(event, names, you)
    if kind == "bet_returned":
        return f"{getattr(event, 'amount', 0)} uncalled returned to {who}"
    if kind == "hand_shown":
        description = getattr(event, "description", "")
        suffix = f" ({description})" if description else ""
        verb = "show" if second else "shows"
        return f"{who} {verb} {cards_text(getattr(event, 'cards', ()))}{suffix}"
    if kind == "hand_mucked":
        return f"{who} {'muck' if second else 'mucks'}"
    if kind == "pot_awarded":
        return _pot_line(event, names, you)
    if kind == "cards_looked":
        cards = tuple(getattr(event, "cards", ()))
        if cards and all(card is not None for card in cards):
            return f"{who} {'look' if second else 'looks'} at the cards: {cards_text(cards)}"
        return f"{who} {'look at your' if second else 'looks at their'} cards"
    if kind == "stake_raised":
        stake = getattr(event, "stake", 0)
        return f"The stake is now {stake} (blind bets at least {stake}, seen {2 * stake})"
    if kind == "sideshow_compared":
        asker, target = getattr(event, "asker", -1), getattr(event, "target", -1)
        loser = name_of(getattr(event, "loser", -1), names, you)
        shown = ""
        asker_cards = tuple(getattr(event, "asker_cards", ()))
        target_cards = tuple(getattr(event, "target_cards", ()))
        if all(card is not None for card in asker_cards + target_cards):
            shown = f" ({cards_text(asker_cards)} against {cards_text(target_cards)})"
        return (
            f"{name_of(asker, names, you)} and {name_of(target, names, you)} compare hands"
            f"{shown}: {loser} {'fold' if loser == 'You' else 'folds'}"
        )
    if kind == "bonus_posted":
        return f"{who} {'bet' if second else 'bets'} {getattr(event, 'amount', 0)} on the AA Bonus"
    if kind == "bonus_settled":
        stake = getattr(event, "stake", 0)
        if getattr(event, "won", False):
            description = getattr(event, "description", "")
            with_hand = f" with {description}" if description else ""
            paid = getattr(event, "paid", 0)
            return f"{who} {'win' if second else 'wins'} {paid} on the AA Bonus{with_hand}"
        return f"{who} {'lose' if second else 'loses'} the AA Bonus of {stake}"
    if kind == "dealer_qualified":
        verdict = "qualifies" if getattr(event, "qualifies", False) else "does not qualify"
        description = getattr(event, "description", "")
        return f"The dealer {verdict}" + (f" ({description})" if description else "")
    if kind == "box_settled":
        outcome = str(getattr(event, "outcome", ""))
        text = _OUTCOMES.get(outcome, outcome.replace("_", " "))
        if second:
            text = text.replace("loses", "lose").replace("beats", "beat")
            text = text.replace("is paid", "are paid").replace("ties", "tie")
        result = getattr(event, "net", 0)
        capped = getattr(event, "capped", 0)
        cap = f", {capped} over the max payout not paid" if capped else ""
        return f"{who} {text}: {result:+d}{cap}"
    if kind == "house_settled":
        return f"House result: {getattr(event, 'result', 0):+d}"
    if kind == "hand_ended":
        net = getattr(event, "net", ())
        parts = [f"{name_of(s, names, you)} {n:+d}" for s, n in enumerate(net) if n]
        return "Result: " + (", ".join(parts) if parts else "no change")
    return _generic_line(event, names, you)


def _generic_line(event: Event, names: Sequence[str], you: int | None) -> str:
    """A plain line for an event without a dedicated sentence."""
    words = event.type_name.replace("_", " ")
    parts: list[str] = []
    for field in dataclasses.fields(event):
        value = getattr(event, field.name)
        label = field.name.replace("_", " ")
        if field.name in ("seat", "asker", "target", "loser", "winner") and isinstance(value, int):
            parts.append(f"{label} {name_of(value, names, you)}")
        elif (
            isinstance(value, tuple)
            and value
            and all(item is None or isinstance(item, Card) for item in value)
        ):
            parts.append(f"{label} {cards_text(value)}")
        else:
            parts.append(f"{label} {value}")
    title = words[:1].upper() + words[1:]
    return f"{title}: " + ", ".join(parts) if parts else title
