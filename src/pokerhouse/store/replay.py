"""Rebuild a running hand from its log, by replay.

A hand is a pure function of its spec, stacks, setup, deck and actions
(DESIGN.md, "How a hand flows"), so the stored log re-creates it exactly:
the same events, the same seat to act. A log that does not replay (a card
missing, an action the rules refuse) is damaged; :class:`DamagedLog` tells the
server to void the hand.

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
...               order, 9, 0, "running", (LoggedAction(0, 0, "check", None),))
>>> rebuild_hand(log).events == live.events
True
"""

from __future__ import annotations

import random

from pokerhouse.cards import Deck, parse_cards
from pokerhouse.engine.actions import Action, ActionKind
from pokerhouse.engine.hand import Hand
from pokerhouse.errors import PokerError
from pokerhouse.games import get_game
from pokerhouse.history.json_history import spec_from_dict
from pokerhouse.store.errors import DamagedLog
from pokerhouse.store.handlog import HandLog


def rebuild_hand(log: HandLog) -> Hand:
    """The hand of ``log`` with every logged action applied again."""
    try:
        info = get_game(log.game)
        spec = spec_from_dict(info.spec_type, log.spec)
        deck = Deck.from_order(parse_cards(log.deck_order), random.Random(log.deck_seed))
        stacks = [seat.stack for seat in log.seats]
        hand = info.hand_type(spec, stacks, deck, **log.setup)
    except (PokerError, TypeError, ValueError) as error:
        raise DamagedLog("damaged_log", f"hand {log.id} cannot be dealt again: {error}") from None
    for expected, logged in enumerate(log.actions):
        if logged.seq != expected:
            raise DamagedLog(
                "damaged_log", f"hand {log.id}: action {expected} is missing (found {logged.seq})"
            )
        try:
            hand.act(Action(ActionKind(logged.kind), logged.amount), logged.seat)
        except (PokerError, ValueError) as error:
            raise DamagedLog(
                "damaged_log", f"hand {log.id}: logged action {logged.seq} does not replay: {error}"
            ) from None
    return hand
