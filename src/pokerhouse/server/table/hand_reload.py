"""A stored hand carried on: its deal and actions applied again to a table rebuilt from the store.

The hand log holds the hand's deck order, seed, seats, setup and every action
with the client's id; applied again in order they bring the table exactly to
where the hand was (the engine is deterministic given the deck). A log that
does not fit the table (a seat that is not as dealt, an action the rules
refuse, a seat the hand has not) is damaged: the caller voids the hand.
"""

from __future__ import annotations

from pokerhouse.cards import parse_cards
from pokerhouse.engine.actions import Action, ActionKind
from pokerhouse.server.errors import RoomError
from pokerhouse.store import HandLog
from pokerhouse.table import Act, StartHand, Step, Table


def replay(table: Table, stored: HandLog, applied: set[tuple[int, str]]) -> Step | None:
    """Deal ``stored`` again on ``table`` and apply its actions; the last action's step.

    Each action's ``(account, client id)`` joins ``applied``. Raises ``RoomError``
    (``damaged_log``), ``PokerError`` or ``ValueError`` on a damaged log.
    """
    seats = tuple(seat.table_seat for seat in stored.seats)
    for seat in stored.seats:
        info = table.seat(seat.table_seat)
        if info is None or info.account != seat.user_id or info.stack != seat.stack:
            raise RoomError("damaged_log", f"seat {seat.table_seat} is not as dealt")
    setup = tuple(sorted(stored.setup.items()))
    order = parse_cards(list(stored.deck_order))
    table.apply(StartHand(order, stored.deck_seed, seats, setup))
    last = None
    for logged in stored.actions:
        if logged.seat >= len(seats):
            raise RoomError("damaged_log", f"action {logged.seq} names no seat of the hand")
        action = Action(ActionKind(logged.kind), logged.amount)
        last = table.apply(Act(seats[logged.seat], action, None, logged.client_id))
        if logged.user_id is not None and logged.client_id is not None:
            applied.add((logged.user_id, logged.client_id))
    return last
