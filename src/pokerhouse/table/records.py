"""What a table step leaves to be stored: plain records, returned by the table's door.

:meth:`Table.apply <pokerhouse.table.Table.apply>` returns a step: the events a
command caused and these records, exactly what a room must persist before
it tells anyone (as h11's ``send()`` returns the bytes to write). Nobody
rebuilds them from the table's insides. Seats are table seats unless a
field says "hand seat"; ``account`` is the id a seat was taken with
(:class:`~pokerhouse.table.Sit`'s ``account``: a room's user id, 0 when
the caller has none); ``seq`` is the sequence number of the event the
record comes from, a durable fact a room can build an idempotency key on.

>>> import random
>>> from pokerhouse.table import Sit, StartHand, Table
>>> table = Table("razz", seats=4, rng=random.Random(3))
>>> table.apply(Sit(1, "Ann", 100, account=7)).records
(BuyIn(seat=1, account=7, amount=100, seq=1),)
>>> _ = table.apply(Sit(3, "Bob", 100, account=8))
>>> started = table.apply(StartHand()).records[0]
>>> started.number, started.seats, started.accounts, started.stacks, len(started.deck_order)
(1, (3, 1), (8, 7), (100, 100), 52)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pokerhouse.cards import Card
from pokerhouse.engine.frozen import quick_init
from pokerhouse.engine.hand import Hand
from pokerhouse.history.json_history import to_json


@quick_init
@dataclass(frozen=True, slots=True)
class DealLogged:
    """Hand ``number`` dealt: everything that deals it again, the deck included.

    ``seats`` are table seats in hand order (the button last), each with its
    ``accounts`` entry and starting ``stacks`` entry; ``spec`` and ``setup``
    are JSON-ready (the game's spec fields, shared by the table's hands: copy
    before changing; the hand's own extra arguments, such as Casino Hold'em's
    antes); ``deck`` is the full deck, top card first (:attr:`deck_order` as
    text), and ``deck_seed`` seeds any later reshuffle. ``start_seq`` is the
    table's sequence number just before the hand's first event. A secret
    (the deck): a room stores it and never shows it.
    """

    number: int
    game: str
    seats: tuple[int, ...]
    accounts: tuple[int, ...]
    stacks: tuple[int, ...]
    spec: dict[str, Any]
    setup: dict[str, Any]
    deck: tuple[Card, ...] = field(repr=False)
    deck_seed: int = field(repr=False)
    start_seq: int

    @property
    def deck_order(self) -> tuple[str, ...]:
        """The deck as text, top card first (``"As"``, ``"Td"``...)."""
        return tuple(map(str, self.deck))


@quick_init
@dataclass(frozen=True, slots=True)
class ActionLogged:
    """Action ``index`` (0 for the first) of hand ``number``, by hand seat ``hand_seat``.

    ``account`` is whose seat it was; ``client_id`` the caller's id for the
    action (:class:`~pokerhouse.table.Act`'s ``client_id``), ``None`` for one
    the table took itself (a timeout) or one sent without an id.
    """

    number: int
    index: int
    hand_seat: int
    kind: str
    amount: int | None
    account: int
    client_id: str | None = None


@dataclass(frozen=True, slots=True)
class HandSettled:
    """Hand ``number`` is over: ``net[i]`` is hand seat ``i``'s result after rake.

    ``rake`` went to the room, ``house`` to the bank (a banked game); they and
    the results sum to zero. :attr:`history` is the hand's full JSON history
    (secret: it holds every card), made when first asked for.
    """

    number: int
    net: tuple[int, ...]
    rake: int
    house: int
    hand: Hand = field(repr=False, compare=False)

    @property
    def history(self) -> str:
        """The server-side JSON history of the hand (every card: never for a client)."""
        return to_json(self.hand, compact=True)


@quick_init
@dataclass(frozen=True, slots=True)
class VoidLogged:
    """Hand ``number`` is void: nothing is settled and every stack is as before its deal."""

    number: int
    reason: str


@quick_init
@dataclass(frozen=True, slots=True)
class BuyIn:
    """``account`` sat at ``seat`` with ``amount`` chips (they come from its wallet)."""

    seat: int
    account: int
    amount: int
    seq: int


@quick_init
@dataclass(frozen=True, slots=True)
class ChipsIn:
    """``amount`` chips added to ``seat``'s stack between hands (from the wallet)."""

    seat: int
    account: int
    amount: int
    seq: int


@quick_init
@dataclass(frozen=True, slots=True)
class CashOut:
    """``account`` stood up from ``seat`` with ``chips`` (they go back to its wallet)."""

    seat: int
    account: int
    chips: int
    seq: int


#: Everything a step may ask a room to store, in the order it happened.
Record = DealLogged | ActionLogged | HandSettled | VoidLogged | BuyIn | ChipsIn | CashOut

#: Records that move chips between a wallet and the table.
MONEY = (BuyIn, ChipsIn, CashOut)


def settled(hand: Hand, number: int, net: tuple[int, ...], rake: int, house: int) -> HandSettled:
    """The settlement record of ``hand`` (its history is made only when asked for)."""
    return HandSettled(number, net, rake, house, hand)
