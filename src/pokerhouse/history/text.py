"""A readable hand history, the way poker sites print one.

The text is built only from the events the viewer may see (a seat, a
spectator, or the server), so it never shows a card the viewer could not
have seen at the table. Seats are printed from 1 (``Seat 1`` is our seat 0,
the first seat left of the dealer), as on a table and in PHH.

>>> from pokerhouse.cards import Deck
>>> from pokerhouse.games import new_hand
>>> from pokerhouse.engine import Action
>>> hand = new_hand("razz", [100, 100], deck=Deck.stacked("Ah 2c 3d 4s Kc 5h"))
>>> _ = hand.act(Action(ActionKind.BRING_IN))
>>> _ = hand.act(Action.fold())
>>> print(to_text(hand, seat=1))  # doctest: +NORMALIZE_WHITESPACE
Razz: ante 1, bring-in 2, small bet 5, big bet 10, max raises 3, heads-up uncapped no
View: Seat 2's
Seat 1: 100 in chips
Seat 2: 100 in chips
*** ANTES ***
Seat 1 posts the ante 1
Seat 2 posts the ante 1
*** THIRD STREET ***
Dealt to Seat 1: [?? ??] Kc
Dealt to Seat 2: [2c 4s] 5h
Seat 1 brings in for 2
Seat 2 folds
Uncalled bet (2) returned to Seat 1
Seat 1 wins the pot (2)
*** SUMMARY ***
Seat 1: 100 -> 101 (+1)
Seat 2: 100 -> 99 (-1)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from pokerhouse.cards import Card
from pokerhouse.engine.actions import ActionKind
from pokerhouse.engine.events import (
    ActionTaken,
    AntePosted,
    BetReturned,
    BoardDealt,
    CardBurned,
    CardsDealt,
    DeckReshuffled,
    Event,
    HandEnded,
    HandMucked,
    HandShown,
    HandStarted,
    PotAwarded,
    StreetStarted,
    event_to_dict,
    for_seat,
)
from pokerhouse.engine.hand import Hand
from pokerhouse.errors import PokerError
from pokerhouse.games import get_game
from pokerhouse.history.json_history import SERVER, HandRecord, Viewer, check_viewer, record

#: How to print a game's own event: a line, or ``None`` to print nothing.
TextWriter = Callable[[Event], str | None]

_WRITERS: dict[type[Event], TextWriter] = {}


def register_text(event_type: type[Event], writer: TextWriter) -> None:
    """Teach the text history a game's own event (others print as ``name: field=value``)."""
    _WRITERS[event_type] = writer


def seat_name(seat: int) -> str:
    """``Seat 1`` for seat 0: tables count seats from one; a negative seat is the house.

    >>> seat_name(0), seat_name(-1)
    ('Seat 1', 'Dealer')
    """
    return "Dealer" if seat < 0 else f"Seat {seat + 1}"


def to_text(hand: Hand | HandRecord, seat: Viewer = None) -> str:
    """The hand as text for ``seat`` (``None``: a spectator; ``SERVER``: every card).

    A :class:`HandRecord` can be printed too: a full record is filtered for
    ``seat``; a record written for one viewer is printed as that viewer saw it.
    """
    if isinstance(hand, Hand):
        history = record(hand, seat)
        events: Iterable[Event] = history.events
    else:
        history = hand
        seat = check_viewer(seat, len(history.starting_stacks))
        if history.view is SERVER and seat is not SERVER:
            events = (e for e in (for_seat(event, seat) for event in history.events) if e)
        else:
            seat = history.view
            events = history.events
    lines = _header(history.game, history.spec, seat)
    lines += _Writer().lines(events)
    return "\n".join(lines)


def _header(game: str, spec: Mapping[str, Any], seat: Viewer) -> list[str]:
    try:
        title = get_game(game).title
    except PokerError:
        title = game
    settings = ", ".join(
        f"{name.replace('_', ' ').replace('bring in', 'bring-in').replace('heads up', 'heads-up')}"
        f" {_setting(value)}"
        for name, value in spec.items()
    )
    viewer = (
        "View: the full history, every card"
        if seat is SERVER
        else "View: a spectator's"
        if seat is None
        else f"View: {seat_name(seat)}'s"
    )
    return [f"{title}: {settings}" if settings else title, viewer]


def _setting(value: object) -> str:
    if value is None:
        return "default"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        items = ", ".join(f"{str(k).replace('_', ' ')} {_setting(v)}" for k, v in value.items())
        return f"({items})"
    if isinstance(value, list | tuple):
        return "(" + ", ".join(_setting(item) for item in value) + ")"
    return str(value)


def _cards(cards: Sequence[Card | None]) -> str:
    return " ".join("??" if card is None else str(card) for card in cards)


class _Writer:
    """Turns events into lines, keeping the little state a printout needs."""

    def __init__(self) -> None:
        self.starting: tuple[int, ...] = ()
        self.board: list[Card] = []
        self.showdown = False
        self.antes = False

    def lines(self, events: Iterable[Event]) -> list[str]:
        out: list[str] = []
        for event in events:
            line = self.line(event)
            if line:
                out.append(line)
        return out

    def line(self, event: Event) -> str | None:
        writer = _WRITERS.get(type(event))
        if writer is not None:
            return writer(event)
        if isinstance(event, HandStarted):
            self.starting = event.stacks
            return "\n".join(
                f"{seat_name(seat)}: {stack} in chips" for seat, stack in enumerate(event.stacks)
            )
        if isinstance(event, AntePosted):
            head = "" if self.antes else "*** ANTES ***\n"
            self.antes = True
            return f"{head}{seat_name(event.seat)} posts the ante {event.amount}"
        if isinstance(event, StreetStarted):
            self.showdown = self.showdown or event.street == "showdown"
            return f"*** {_street_title(event.street)} ***"
        if isinstance(event, CardsDealt):
            return f"Dealt to {seat_name(event.seat)}: {self.dealt(event)}"
        if isinstance(event, BoardDealt):
            self.board.extend(event.cards)
            return f"Board: [{_cards(self.board)}]"
        if isinstance(event, CardBurned):
            return None
        if isinstance(event, DeckReshuffled):
            return "The deck is short: the burned cards are shuffled into the stub"
        if isinstance(event, ActionTaken):
            return self.action(event)
        if isinstance(event, BetReturned):
            return f"Uncalled bet ({event.amount}) returned to {seat_name(event.seat)}"
        if isinstance(event, HandShown | HandMucked):
            head = "" if self.showdown else "*** SHOWDOWN ***\n"
            self.showdown = True
            if isinstance(event, HandMucked):
                return f"{head}{seat_name(event.seat)} mucks"
            described = f" ({event.description})" if event.description else ""
            return f"{head}{seat_name(event.seat)} shows [{_cards(event.cards)}]{described}"
        if isinstance(event, PotAwarded):
            return self.award(event)
        if isinstance(event, HandEnded):
            return self.summary(event)
        return self.fallback(event)

    @staticmethod
    def dealt(event: CardsDealt) -> str:
        down = [card for card, up in zip(event.cards, event.face_up, strict=True) if not up]
        up = [card for card, face in zip(event.cards, event.face_up, strict=True) if face]
        parts = ([f"[{_cards(down)}]"] if down else []) + ([_cards(up)] if up else [])
        return " ".join(parts)

    @staticmethod
    def action(event: ActionTaken) -> str:
        who = seat_name(event.seat)
        action = event.action
        kind = action.kind
        amount = action.amount if action.amount is not None else event.total
        verbs: dict[ActionKind, str] = {
            ActionKind.FOLD: "folds",
            ActionKind.CHECK: "checks",
            ActionKind.CALL: f"calls {event.added}",
            ActionKind.BET: f"bets {amount}",
            ActionKind.RAISE: f"raises to {amount}",
            ActionKind.BRING_IN: f"brings in for {event.added}",
            ActionKind.COMPLETE: f"completes to {amount}",
            ActionKind.LOOK: "looks at the cards",
            ActionKind.SHOW: f"pays {event.added} for a show",
            ActionKind.SIDESHOW: f"pays {event.added} and asks for a sideshow",
            ActionKind.ACCEPT: "accepts the sideshow",
            ActionKind.DECLINE: "declines the sideshow",
        }
        text = verbs.get(kind, kind.value.replace("_", " "))
        return f"{who} {text}{' and is all-in' if event.all_in else ''}"

    @staticmethod
    def award(event: PotAwarded) -> str:
        name = "the pot" if event.pot == 0 else f"side pot {event.pot}"
        if event.pot == 0 and event.description:
            name = "the main pot"
        described = f" with {event.description}" if event.description else ""
        if len(event.winners) == 1:
            return f"{seat_name(event.winners[0])} wins {name} ({event.amount}){described}"
        shares = ", ".join(
            f"{seat_name(seat)} {share}"
            for seat, share in zip(event.winners, event.shares, strict=True)
        )
        return f"{name[0].upper()}{name[1:]} ({event.amount}) is split{described}: {shares}"

    def summary(self, event: HandEnded) -> str:
        lines = ["*** SUMMARY ***"]
        starting = self.starting or tuple(
            s - n for s, n in zip(event.stacks, event.net, strict=True)
        )
        for seat, (start, end) in enumerate(zip(starting, event.stacks, strict=True)):
            lines.append(f"{seat_name(seat)}: {start} -> {end} ({end - start:+d})")
        return "\n".join(lines)

    @staticmethod
    def fallback(event: Event) -> str:
        data = event_to_dict(event)
        name = str(data.pop("type")).replace("_", " ")
        seat = data.pop("seat", None)
        who = f"{seat_name(seat)}: " if isinstance(seat, int) else ""
        fields = ", ".join(
            f"{key.replace('_', ' ')} {_value(value)}" for key, value in data.items()
        )
        return f"{who}{name}{' (' + fields + ')' if fields else ''}"


def _value(value: object) -> str:
    if isinstance(value, list):
        return "[" + " ".join("??" if item is None else str(item) for item in value) + "]"
    return str(value)


def _street_title(street: str) -> str:
    """``THIRD STREET`` for stud's numbered streets, else ``FLOP``, ``TURN``..."""
    if street in ("third", "fourth", "fifth", "sixth", "seventh"):
        return f"{street.upper()} STREET"
    return street.upper()
