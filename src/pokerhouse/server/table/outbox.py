"""A table's watchers and what goes to each: frames built once per audience, one list each.

The outbox knows who watches the table (an address, the account behind it,
whether it wants a snapshot after every step) and nothing of sockets: it
hands each address one list of encoded messages through a ``deliver``
function (the room's connections, or later a bus to other nodes).

What each watcher is shown is decided by
:func:`pokerhouse.engine.visibility.shown_to` alone, once per audience: an
event has at most two copies, what its readers are shown and what everyone
else is (a redacted copy, or a placeholder that keeps everyone's stream
gapless), so each is encoded once. The readers are the accounts that held
the event's seats **when it happened** (:attr:`pokerhouse.table.Logged.readers`),
each shown the event as the seats it held then (:meth:`~pokerhouse.table.Logged.viewer`),
never as whoever holds those seats now. The outbox keeps the last events so encoded,
with their readers, for clients that come back after a drop (``resume``):
a replay hands out exactly the frames a live watcher with the same account
got, and costs no encoding.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pokerhouse.engine.events import BoardDealt, CardsDealt, Event, HandShown
from pokerhouse.engine.visibility import audience, shown_to
from pokerhouse.games.teen_patti.events import CardsLooked
from pokerhouse.server.socket import outgoing
from pokerhouse.server.table.views import mine, table_view
from pokerhouse.table import Logged, Table

#: Events after which a player's own hand may have a new name.
CARD_EVENTS = (CardsDealt, BoardDealt, HandShown, CardsLooked)

#: Sends encoded messages to an address (a connection's id).
Deliver = Callable[[int, Sequence[bytes]], None]

_NOBODY: tuple[int, ...] = ()


@dataclass(slots=True)
class Watcher:
    """One address watching the table: its account (``None``: a spectator), and whether
    it wants a fresh snapshot after every step."""

    account: int | None
    views: bool = False


@dataclass(slots=True)
class Post:
    """The messages of one step (or one request) for each address, in order."""

    lists: dict[int, list[bytes]] = field(default_factory=dict)

    def add(self, address: int, message: bytes) -> None:
        """One more message for ``address``."""
        found = self.lists.get(address)
        if found is None:
            self.lists[address] = [message]
        else:
            found.append(message)


class Outbox:
    """The watchers of one table, its resume buffer, and the frames each step sends."""

    def __init__(self, table_id: int, deliver: Deliver, keep: int = 256) -> None:
        self.table_id = table_id
        self._deliver = deliver
        self.watchers: dict[int, Watcher] = {}
        self._present: Counter[int] = Counter()
        # The last events as sent: (seq, frame for everyone else, frame for its
        # readers or None when it is public, the readers' accounts). Bytes and ints
        # only, so the collector never has to look inside.
        self._kept: deque[tuple[int, bytes, bytes | None, tuple[int, ...]]] = deque(maxlen=keep)
        self._post = Post()

    # ------------------------------------------------------------ watchers

    def add(self, address: int, account: int | None, views: bool = False) -> None:
        """Start sending the table to ``address`` (``views``: a snapshot after every step)."""
        known = self.watchers.get(address)
        if known is None:
            self.watchers[address] = Watcher(account, views)
            if account is not None:
                self._present[account] += 1
        else:
            known.views = views

    def remove(self, address: int) -> None:
        """Stop sending the table to ``address``."""
        known = self.watchers.pop(address, None)
        if known is not None and known.account is not None:
            self._present[known.account] -= 1
            if self._present[known.account] <= 0:
                del self._present[known.account]

    def present(self, account: int) -> bool:
        """Whether ``account`` has an address watching the table."""
        return self._present.get(account, 0) > 0

    # ------------------------------------------------------------ building a post

    def events(self, step: Iterable[Logged]) -> bool:
        """Each watcher's copy of a step's events; whether any may rename a player's hand."""
        table = self.table_id
        post = self._post
        cards = False
        for logged in step:
            event = logged.event
            seq = logged.seq
            # What a spectator is shown, and every watcher outside the event's audience:
            # the event itself when it is public.
            shown = shown_to(event, None)
            other = _frame(table, seq, shown)
            if shown is event:
                self._kept.append((seq, other, None, _NOBODY))
                for address in self.watchers:
                    post.add(address, other)
            else:
                readers = logged.readers or frozenset()
                full: bytes | None = None
                if readers:
                    # The readers' copy: the event as the seats of its audience are shown it.
                    full = _frame(table, seq, shown_to(event, audience(event)))
                for address, watcher in self.watchers.items():
                    account = watcher.account
                    if full is not None and account is not None and account in readers:
                        post.add(address, full)
                    else:
                        post.add(address, other)
                self._kept.append((seq, other, full, tuple(sorted(readers))))
            cards = cards or isinstance(event, CARD_EVENTS)
        return cards

    def broadcast(self, message: bytes) -> None:
        """The same message to every watcher."""
        for address in self.watchers:
            self._post.add(address, message)

    def reply(self, address: int, message: bytes) -> None:
        """A message for one address (an answer to its request)."""
        self._post.add(address, message)

    def private(self, table: Table, only: frozenset[int] | None = None) -> None:
        """Each seated watcher's own hands' names and decision (``only``: these seats')."""
        if table.hand is None:
            return
        for address, watcher in self.watchers.items():
            if watcher.account is None:
                continue
            seats = table.seats_of_account(watcher.account)
            if not seats or (only is not None and seats.isdisjoint(only)):
                continue
            self._post.add(
                address,
                outgoing.private(self.table_id, table.seq, table.hand_number, mine(table, seats)),
            )

    def private_to(self, address: int, account: int, table: Table) -> None:
        """One address's own hands' names and decision (after it came back)."""
        seats = table.seats_of_account(account)
        if table.hand is not None and seats:
            self._post.add(
                address,
                outgoing.private(self.table_id, table.seq, table.hand_number, mine(table, seats)),
            )

    def send_now(self, address: int, message: bytes) -> None:
        """One message to one address at once, outside any step (an answer counted apart)."""
        self._deliver(address, (message,))

    def snapshot(self, address: int, table: Table, extras: dict[str, Any]) -> None:
        """The whole table for one address, as its account may see it."""
        watcher = self.watchers.get(address)
        account = None if watcher is None else watcher.account
        self._post.add(address, self._snapshot(table, account, extras))

    def views(self, table: Table, extras: dict[str, Any]) -> None:
        """A fresh snapshot to each watcher that wants one after every step.

        Watchers that hold the same seats (every spectator) share one encoding.
        """
        encoded: dict[frozenset[int], bytes] = {}
        for address, watcher in self.watchers.items():
            if not watcher.views:
                continue
            seats = (
                frozenset() if watcher.account is None else table.seats_of_account(watcher.account)
            )
            frame = encoded.get(seats)
            if frame is None:
                frame = encoded[seats] = self._view(table, seats, extras)
            self._post.add(address, frame)

    def _snapshot(self, table: Table, account: int | None, extras: dict[str, Any]) -> bytes:
        seats = frozenset() if account is None else table.seats_of_account(account)
        return self._view(table, seats, extras)

    def _view(self, table: Table, seats: frozenset[int], extras: dict[str, Any]) -> bytes:
        view = table_view(table, seats)
        view.update(extras)
        return outgoing.encode(outgoing.Snapshot(table=self.table_id, seq=table.seq, view=view))

    @property
    def wants_views(self) -> bool:
        """Whether any watcher wants a snapshot after every step."""
        return any(watcher.views for watcher in self.watchers.values())

    # ------------------------------------------------------------ sending

    def flush(self) -> None:
        """Hand every address its messages of this post, one list each."""
        post, self._post = self._post, Post()
        for address, frames in post.lists.items():
            self._deliver(address, frames)

    def drop(self) -> None:
        """Forget what this post has gathered (its step was not stored)."""
        self._post = Post()

    # ------------------------------------------------------------ coming back

    def replay(self, address: int, since: int, now: int) -> bool:
        """Queue for ``address`` every event after ``since`` as its account read or would have
        read it live; ``False`` (nothing queued) when the events kept do not reach back to it.

        ``now`` is the table's last sequence number.
        """
        if since > now or since < 0:
            return False
        if since == now:
            return True
        kept = self._kept
        if not kept or kept[0][0] > since + 1 or kept[-1][0] != now:
            return False
        watcher = self.watchers.get(address)
        account = None if watcher is None else watcher.account
        for seq, other, full, readers in kept:
            if seq <= since:
                continue
            if full is not None and account is not None and account in readers:
                self._post.add(address, full)
            else:
                self._post.add(address, other)
        return True

    def forget(self) -> None:
        """Drop the events kept (the table reloads: a new run of numbers starts)."""
        self._kept.clear()

    @property
    def kept(self) -> int:
        """How many events are kept for clients coming back."""
        return len(self._kept)


def _frame(table: int, seq: int, event: Event | None) -> bytes:
    """One event as a viewer is shown it (``None``: a placeholder), encoded."""
    return outgoing.encode(
        outgoing.EventFrame(
            table=table, seq=seq, event=None if event is None else outgoing.encode_event(event)
        )
    )
