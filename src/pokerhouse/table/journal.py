"""A step in the making, and the step a table returns: numbered events and records.

:meth:`Table.apply <pokerhouse.table.Table.apply>` collects what a command
causes in a :class:`Journal` while it runs, then hands back a :class:`Step`:
the events, each a :class:`Logged` with the table's gapless sequence number,
and the records a room stores before it tells anyone.

>>> from pokerhouse.engine.events import BetReturned
>>> logged = Logged(7, BetReturned(seat=0, amount=5), seats=(3, 5))
>>> logged.seq, logged.event
(7, BetReturned(seat=3, amount=5))
>>> logged.readers is None  # a public event: everybody may read it
True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, overload

from pokerhouse.engine.events import Event, renumber
from pokerhouse.engine.visibility import audience
from pokerhouse.table.records import Record


class Logged:
    """One event of a table's stream, with its sequence number (1, 2, 3... no gaps).

    A hand's event is put into table seat numbers when first read: a caller
    that never looks at an event (a simulation) never pays for renumbering it.
    ``accounts`` maps the table seats of the event's hand to the accounts that
    held them when it happened: :attr:`readers` says who may read the event
    whole, whoever holds those seats later.
    """

    __slots__ = ("_accounts", "_event", "_seats", "seq")

    def __init__(
        self,
        seq: int,
        event: Event,
        seats: Sequence[int] | None = None,
        accounts: Mapping[int, int] | None = None,
    ) -> None:
        self.seq = seq
        self._event = event
        self._seats = seats
        self._accounts = accounts

    @property
    def event(self) -> Event:
        """The event, in table seat numbers."""
        if self._seats is not None:
            self._event = renumber(self._event, self._seats)
            self._seats = None
        return self._event

    @property
    def readers(self) -> frozenset[int] | None:
        """The accounts that may read the whole event, as seated when it happened.

        ``None`` for a public event. A restricted event of a seat nobody
        with an account held (a caller that gave none) has no readers.

        >>> from pokerhouse.cards import parse_cards
        >>> from pokerhouse.engine.events import CardsDealt
        >>> dealt = CardsDealt(seat=1, cards=parse_cards("As Kd 7c"), face_up=(False,) * 3)
        >>> sorted(Logged(3, dealt, seats=(4, 6), accounts={4: 11, 6: 12}).readers)
        [12]
        """
        seats = audience(self.event)
        if seats is None:
            return None
        accounts = self._accounts or {}
        return frozenset([accounts[seat] for seat in seats if seat in accounts])

    def viewer(self, account: int | None) -> frozenset[int] | None:
        """The viewer ``account`` reads the event as: the table seats it held when the
        event happened (``None``: a spectator, or an account that held none).

        >>> from pokerhouse.engine.events import BetReturned
        >>> logged = Logged(3, BetReturned(seat=1, amount=5), seats=(4, 6), accounts={4: 11, 6: 12})
        >>> logged.viewer(12), logged.viewer(13), logged.viewer(None)
        (frozenset({6}), None, None)
        """
        if account is None or not self._accounts:
            return None
        held = frozenset([seat for seat, owner in self._accounts.items() if owner == account])
        return held or None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Logged):
            return NotImplemented
        return self.seq == other.seq and self.event == other.event

    def __hash__(self) -> int:
        return hash((self.seq, self.event))

    def __repr__(self) -> str:
        return f"Logged(seq={self.seq}, event={self.event!r})"


#: An event not yet numbered: the event, the seat map of its hand, its hand's accounts.
Pending = tuple[Event, Sequence[int] | None, Mapping[int, int] | None]


class Journal:
    """What the command being applied has caused so far (events, then their numbers)."""

    __slots__ = ("events", "records", "seq")

    def __init__(self, seq: int) -> None:
        #: The sequence number of the last event numbered.
        self.seq = seq
        self.events: list[Pending] = []
        self.records: list[Record] = []

    def emit(
        self,
        event: Event,
        seats: Sequence[int] | None = None,
        accounts: Mapping[int, int] | None = None,
    ) -> int:
        """Add ``event``; the sequence number it will have."""
        self.events.append((event, seats, accounts))
        return self.seq + len(self.events)

    def take(self) -> tuple[list[Pending], int, tuple[Record, ...]]:
        """Hand the events (numbered from the second value on) and the records over; the
        journal is empty after. The events become :class:`Logged` only when read."""
        events, first = self.events, self.seq + 1
        self.seq += len(events)
        records = tuple(self.records) if self.records else ()
        self.events = []
        self.records = []
        return events, first, records

    def drop(self) -> None:
        """Forget everything since the last :meth:`take` (a refused command)."""
        self.events = []
        self.records = []


def numbered(events: list[Pending], first: int) -> tuple[Logged, ...]:
    """``events`` as :class:`Logged`, numbered from ``first``."""
    return tuple(
        [
            Logged(first + n, event, seats, accounts)
            for n, (event, seats, accounts) in enumerate(events)
        ]
    )


class Step(Sequence[Logged]):
    """What one command did: its numbered :attr:`events` and the :attr:`records` to store.

    It is the sequence of its events, in order. They are made :class:`Logged`
    when first read, so a caller that never reads them (a simulation) pays
    nothing for them.
    """

    __slots__ = ("_events", "_first", "_pending", "_undo", "records")

    def __init__(
        self,
        pending: list[Pending],
        first: int,
        records: tuple[Record, ...],
        undo: Any = None,
    ) -> None:
        self._pending = pending
        self._first = first
        self._events: tuple[Logged, ...] | None = None
        self.records = records
        # What Table.revert needs to take the step back (None: it cannot be).
        self._undo = undo

    @property
    def events(self) -> tuple[Logged, ...]:
        """The step's events, each with its sequence number."""
        if self._events is None:
            self._events = numbered(self._pending, self._first)
        return self._events

    @property
    def last_seq(self) -> int:
        """The sequence number of the step's last event (one below its first if none)."""
        return self._first + len(self._pending) - 1

    @property
    def revertible(self) -> bool:
        """Whether :meth:`Table.revert <pokerhouse.table.Table.revert>` can take it back
        (a step that seated players or added chips)."""
        return self._undo is not None

    @overload
    def __getitem__(self, index: int) -> Logged: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Logged, ...]: ...

    def __getitem__(self, index: int | slice) -> Logged | tuple[Logged, ...]:
        return self.events[index]

    def __len__(self) -> int:
        return len(self._pending)

    def __iter__(self) -> Iterator[Logged]:
        return iter(self.events)

    def __repr__(self) -> str:
        return f"Step(events={list(self.events)!r}, records={list(self.records)!r})"
