"""The cards a hand dealt, read from its event log: each seat's and the board, in deal order.

A reader registered for each dealing event's type (:func:`register_deal_reader`)
says whose cards an event dealt; a replay feeds exactly these cards back
through a :class:`~pokerhouse.cards.ScriptedDeck`. A viewer's copy of a
history fills in the hidden cards it learned later (:func:`fill_shown`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from pokerhouse.cards import Card
from pokerhouse.engine.events import BoardDealt, CardsDealt, Event

#: How to read dealt cards out of an event: ``(seat or None for the board, cards)``.
DealReader = Callable[[Event], tuple[int | None, tuple[Card | None, ...]]]


def _seat_cards(event: Event) -> tuple[int | None, tuple[Card | None, ...]]:
    assert isinstance(event, CardsDealt)
    return event.seat, event.cards


def _board_cards(event: Event) -> tuple[int | None, tuple[Card | None, ...]]:
    assert isinstance(event, BoardDealt)
    return None, tuple(event.cards)


_DEAL_READERS: dict[type[Event], DealReader] = {CardsDealt: _seat_cards, BoardDealt: _board_cards}


def register_deal_reader(event_type: type[Event], reader: DealReader) -> None:
    """Teach histories a game's own dealing event.

    ``reader(event)`` returns ``(seat, cards)`` for cards the deck dealt with
    ``deck.deal(seat)``, or ``(None, cards)`` for cards dealt with
    ``deck.deal()`` (board, community or house cards), in deal order. A replay
    feeds exactly these cards back through a :class:`~pokerhouse.cards.ScriptedDeck`.
    """
    _DEAL_READERS[event_type] = reader


def dealt_cards(
    events: Iterable[Event],
) -> tuple[dict[int, tuple[Card | None, ...]], tuple[Card | None, ...]]:
    """Each seat's dealt cards and the board, in deal order, from an event log.

    >>> from pokerhouse.cards import parse_cards
    >>> seats, board = dealt_cards([CardsDealt(1, parse_cards("As Kd"), (False, True)),
    ...                             BoardDealt(parse_cards("2c 3c"))])
    >>> seats, board
    ({1: (As, Kd)}, (2c, 3c))
    """
    seats: dict[int, list[Card | None]] = {}
    board: list[Card | None] = []
    for event in events:
        reader = _DEAL_READERS.get(type(event))
        if reader is None:
            continue
        seat, cards = reader(event)
        if seat is None:
            board.extend(cards)
        else:
            seats.setdefault(seat, []).extend(cards)
    return {seat: tuple(cards) for seat, cards in sorted(seats.items())}, tuple(board)


def fill_shown(
    seats: dict[int, tuple[Card | None, ...]], events: Iterable[Event]
) -> dict[int, tuple[Card | None, ...]]:
    """Fill hidden cards the viewer learned later: shown at showdown, its own look, or a
    sideshow it took part in.

    ``events`` are the viewer's own copies (:meth:`Hand.events_for
    <pokerhouse.engine.hand.Hand.events_for>`): a card the viewer was not shown
    is ``None`` in them and fills nothing. Teen Patti deals face down to nobody;
    a seat sees its own cards only when it looks (an event that others receive
    without the cards). Every event that shows cards says so through
    :meth:`~pokerhouse.engine.events.Event.shown_cards`.
    """
    filled = dict(seats)
    for event in events:
        for seat, cards in event.shown_cards():
            known = filled.get(seat, ())
            if len(known) == len(cards):
                filled[seat] = tuple(
                    card if card is not None or shown is None else shown
                    for card, shown in zip(known, cards, strict=True)
                )
    return filled
