"""The canonical hand history: a versioned JSON document, the same for every game.

A :class:`HandRecord` holds what re-creates a hand (game, spec, starting
stacks, :meth:`Hand.setup`, each seat's dealt cards and the board, the action
log) and what it did (the event log, the finishing stacks). :func:`record`
takes one from a hand, as the server keeps it (``seat=SERVER``: every card)
or as one seat or a spectator may see it (``seat=2``, ``seat=None``: hidden
cards are absent, so such a record cannot be replayed).

This module takes a record from a hand. The record's document and its
reading are :mod:`pokerhouse.history.hand_record`; whose eyes a history is
for, :mod:`~pokerhouse.history.viewers`; the dealt cards read from the
events, :mod:`~pokerhouse.history.deals`; specs as JSON,
:mod:`~pokerhouse.history.spec_json`. Their names are importable from here too.

>>> from pokerhouse.games import new_hand
>>> from pokerhouse.engine import Action
>>> hand = new_hand("3x4", [100, 100], seed=5)
>>> _ = hand.act(Action.fold())
>>> history = record(hand)
>>> history.game, history.finishing_stacks, history.replayable
('3x4', (99, 101), True)
>>> from_json(history.to_json()) == history
True
>>> record(hand, seat=0).replayable
False
"""

from __future__ import annotations

import msgspec

from pokerhouse.engine.hand import Hand
from pokerhouse.errors import HistoryError
from pokerhouse.history.deals import DealReader, dealt_cards, fill_shown, register_deal_reader
from pokerhouse.history.hand_record import FORMAT, MAX_DEPTH, HandRecord, dumps, from_json
from pokerhouse.history.spec_json import spec_from_dict, spec_to_dict
from pokerhouse.history.viewers import SERVER, Audience, Viewer, check_viewer

__all__ = [
    "FORMAT",
    "MAX_DEPTH",
    "SERVER",
    "Audience",
    "DealReader",
    "HandRecord",
    "Viewer",
    "check_viewer",
    "dealt_cards",
    "dumps",
    "from_json",
    "record",
    "register_deal_reader",
    "spec_from_dict",
    "spec_to_dict",
    "to_json",
]


def record(hand: Hand, seat: Viewer = SERVER) -> HandRecord:
    """The history of ``hand`` for ``seat``: ``SERVER`` (everything), a seat, or ``None``.

    A seat's or a spectator's history holds only the events
    :meth:`Hand.events_for` gives it (each as
    :func:`~pokerhouse.engine.visibility.shown_to` shows it that viewer), and
    each seat's cards as those events show them, so other players' hidden
    cards are absent (``None``) and the record is not replayable.
    """
    seat = check_viewer(seat, hand.players)
    events = hand.events if seat is SERVER else tuple(hand.events_for(seat))
    seats, board = dealt_cards(events)
    if seat is not SERVER:
        seats = fill_shown(seats, events)
    spec = getattr(hand, "spec", None)
    if spec is None:
        raise HistoryError("no_spec", f"a {hand.game} hand has no spec to record")
    return HandRecord(
        game=hand.game,
        spec=spec_to_dict(spec),
        starting_stacks=hand.starting_stacks,
        setup=dict(hand.setup()),
        view=seat,
        cards=seats,
        board=board,
        actions=tuple(hand.actions),
        events=events,
        finishing_stacks=hand.stacks if hand.is_over else None,
    )


def to_json(hand: Hand, seat: Viewer = SERVER, *, compact: bool = False) -> str:
    """The JSON history of ``hand`` for ``seat`` (default: the full server-side one).

    One key and one action or event per line, for people to read; ``compact``:
    the same document on one line, written several times faster (what a room
    stores with every hand, and reads back with :func:`from_json`).

    >>> from pokerhouse.games import new_hand
    >>> hand = new_hand("razz", [50, 50], seed=1)
    >>> text = to_json(hand, seat=None)
    >>> '"view": "spectator"' in text and '"replayable": false' in text
    True
    >>> from_json(to_json(hand, compact=True)) == from_json(to_json(hand))
    True
    """
    found = record(hand, seat)
    return msgspec.json.encode(found.to_dict()).decode() if compact else found.to_json()
