"""A stored hand dealt again: its deck and every logged action applied once more.

A hand is a pure function of its spec, stacks, setup, deck and actions
(DESIGN.md, "How a hand flows"), so its log re-creates it exactly: the same
events, the same seat to act. There is one way to do it, :func:`deal_again`:
the log's deal and actions go to a :class:`~pokerhouse.table.Table` as the
commands they were. The room carries a running hand on with it, on the table
it loaded from the store; :func:`rebuild_hand` does it on a table of its own,
seated as the log says, to read the hand. A log that does not replay (a card
missing, a seat not as dealt, an action the rules refuse) is damaged:
:class:`DamagedLog`, and the room voids the hand.

>>> import random
>>> from pokerhouse.cards import Deck
>>> from pokerhouse.engine import Action
>>> from pokerhouse.games import new_hand
>>> from pokerhouse.store.handlog import HandLog, HandSeat, LoggedAction
>>> deck = Deck(random.Random(4))
>>> order = tuple(str(card) for card in deck.order())
>>> live = new_hand("3x4", [100, 100], deck=Deck.from_order(order, random.Random(9)))
>>> _ = live.act(Action.check())
>>> log = HandLog(1, 1, 1, "3x4", {}, {}, (HandSeat(0, 1, 100), HandSeat(1, 2, 100)),
...               order, 9, 0, "running", (LoggedAction(0, 0, "check", None, 1, "c1"),))
>>> rebuild_hand(log).events == live.events
True

The room's own table, seated as it was stored, goes on from the log:

>>> table = Table("3x4", seats=6, seated=[(0, "Ann", 100, 1), (1, "Bob", 100, 2)])
>>> applied = set()
>>> step = deal_again(table, log, applied)
>>> table.hand.events == live.events, table.to_act(), applied
(True, 1, {(1, 'c1')})
>>> deal_again(Table("3x4", seats=6, seated=[(0, "Ann", 90, 1), (1, "Bob", 100, 2)]), log)
Traceback (most recent call last):
...
pokerhouse.store.errors.DamagedLog: hand 1: seat 0 is not as dealt
"""

from __future__ import annotations

import random

from pokerhouse.cards import parse_cards
from pokerhouse.engine.actions import Action, ActionKind
from pokerhouse.engine.hand import Hand
from pokerhouse.errors import PokerError
from pokerhouse.games import get_game
from pokerhouse.history.json_history import spec_from_dict
from pokerhouse.store.errors import DamagedLog
from pokerhouse.store.handlog import HandLog
from pokerhouse.table import Act, StartHand, Step, Table


def deal_again(
    table: Table, log: HandLog, applied: set[tuple[int, str]] | None = None
) -> Step | None:
    """Deal ``log``'s hand again on ``table`` and apply its actions in order: the last
    action's step (``None`` before the first action).

    ``table``'s seats must hold what the hand was dealt (account and stack);
    each action's ``(account, client id)`` joins ``applied``. Raises
    :class:`DamagedLog` when the log does not replay; the table may then hold
    the hand part-way, and the caller voids it.
    """
    seats = tuple(seat.table_seat for seat in log.seats)
    for seat in log.seats:
        info = table.seat(seat.table_seat) if 0 <= seat.table_seat < table.size else None
        if info is None or info.account != seat.user_id or info.stack != seat.stack:
            raise DamagedLog(
                "damaged_log", f"hand {log.id}: seat {seat.table_seat} is not as dealt"
            )
    try:
        order = parse_cards(list(log.deck_order))
        table.apply(StartHand(order, log.deck_seed, seats, tuple(sorted(log.setup.items()))))
    except (PokerError, TypeError, ValueError) as error:
        raise DamagedLog("damaged_log", f"hand {log.id} cannot be dealt again: {error}") from None
    last = None
    for expected, logged in enumerate(log.actions):
        if logged.seq != expected:
            raise DamagedLog(
                "damaged_log", f"hand {log.id}: action {expected} is missing (found {logged.seq})"
            )
        if not 0 <= logged.seat < len(seats):
            raise DamagedLog(
                "damaged_log", f"hand {log.id}: action {logged.seq} names no seat of the hand"
            )
        try:
            action = Action(ActionKind(logged.kind), logged.amount)
            last = table.apply(Act(seats[logged.seat], action, None, logged.client_id))
        except (PokerError, ValueError) as error:
            raise DamagedLog(
                "damaged_log", f"hand {log.id}: logged action {logged.seq} does not replay: {error}"
            ) from None
        if applied is not None and logged.user_id is not None and logged.client_id is not None:
            applied.add((logged.user_id, logged.client_id))
    return last


def rebuild_hand(log: HandLog) -> Hand:
    """The hand of ``log`` with every logged action applied again, dealt by
    :func:`deal_again` on a table of its own seated as the log says."""
    try:
        info = get_game(log.game)
        table = Table(
            info.name,
            spec=spec_from_dict(info.spec_type, log.spec),
            rng=random.Random(log.deck_seed),
            hands_played=log.number - 1,
            seated=[(s.table_seat, f"seat {s.table_seat}", s.stack, s.user_id) for s in log.seats],
        )
    except (PokerError, TypeError, ValueError) as error:
        raise DamagedLog("damaged_log", f"hand {log.id} cannot be dealt again: {error}") from None
    deal_again(table, log)
    hand = table.last_hand
    assert hand is not None  # deal_again dealt it
    return hand
