"""Who watches a table, what each may see, and sending it to them.

Each watcher is a connection with a viewer: the seats its player holds at
the table (none for a spectator). An event is encoded at most twice: once
as its audience sees it and once as everyone else does; an event a watcher
may not see at all becomes a placeholder, so every watcher's stream stays
gapless. Snapshots and ``private`` messages (a player's own hand name and
decision) are built from the engine's views for that viewer alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from pokerhouse.engine.events import BoardDealt, CardsDealt, HandShown
from pokerhouse.games.teen_patti.events import CardsLooked
from pokerhouse.server import frames
from pokerhouse.server.connection import Connection
from pokerhouse.server.views import mine, table_view
from pokerhouse.table import Logged, Table

#: Events after which a player's own hand may have a new name.
CARD_EVENTS = (CardsDealt, BoardDealt, HandShown, CardsLooked)


class Audience:
    """The watchers of one table."""

    def __init__(self, table_id: int, seats_of: Callable[[int], frozenset[int]]) -> None:
        self.table_id = table_id
        self._seats_of = seats_of
        self.watchers: set[Connection] = set()
        #: Watchers that asked for a fresh snapshot after every step (``views``).
        self.view_watchers: set[Connection] = set()
        self._present: Counter[int] = Counter()

    def add(self, conn: Connection, views: bool = False) -> None:
        """Start sending this table to ``conn`` (``views``: a snapshot after every step too)."""
        if views:
            self.view_watchers.add(conn)
        else:
            self.view_watchers.discard(conn)
        if conn not in self.watchers:
            self.watchers.add(conn)
            if conn.user_id is not None:
                self._present[conn.user_id] += 1

    def remove(self, conn: Connection) -> None:
        """Stop sending this table to ``conn``."""
        self.view_watchers.discard(conn)
        if conn in self.watchers:
            self.watchers.discard(conn)
            if conn.user_id is not None:
                self._present[conn.user_id] -= 1
                if self._present[conn.user_id] <= 0:
                    del self._present[conn.user_id]

    def present(self, user_id: int) -> bool:
        """Whether ``user_id`` has a connection watching the table."""
        return self._present.get(user_id, 0) > 0

    def viewer(self, conn: Connection) -> frozenset[int]:
        """The seats ``conn``'s player holds here (empty: a spectator)."""
        user = conn.user_id
        return frozenset() if user is None else self._seats_of(user)

    def broadcast(self, frame: bytes) -> None:
        """The same frame to every watcher."""
        for conn in self.watchers:
            conn.send(frame)

    def events(self, step: Iterable[Logged]) -> bool:
        """Send a step's events to everyone, each as its viewer may see it.

        Returns whether any of them may have changed a player's own hand.
        """
        table = self.table_id
        # Whose seats each watcher holds matters only for an event some may not see.
        viewers: list[tuple[Connection, frozenset[int]]] | None = None
        cards = False
        for logged in step:
            event = logged.event
            audience = event.visible_to()
            if audience is None:
                frame = frames.event_frame(table, logged.seq, frames.encode_event(event))
                for conn in self.watchers:
                    conn.send(frame)
            else:
                if viewers is None:
                    viewers = [(conn, self.viewer(conn)) for conn in self.watchers]
                full: bytes | None = None
                other: bytes | None = None
                for conn, seats in viewers:
                    if not audience.isdisjoint(seats):
                        if full is None:
                            full = frames.event_frame(table, logged.seq, frames.encode_event(event))
                        conn.send(full)
                    else:
                        if other is None:
                            hidden = event.redacted()
                            payload = None if hidden is None else frames.encode_event(hidden)
                            other = frames.event_frame(table, logged.seq, payload)
                        conn.send(other)
            cards = cards or isinstance(event, CARD_EVENTS)
        return cards

    def snapshot(self, conn: Connection, table: Table, extras: dict[str, Any]) -> None:
        """Send ``conn`` the whole table as its viewer may see it."""
        view = table_view(table, self.viewer(conn))
        view.update(extras)
        conn.send(frames.message("snapshot", table=self.table_id, seq=table.seq, view=view))

    def views(self, table: Table, extras: dict[str, Any]) -> None:
        """A fresh snapshot to each watcher that asked for one after every step.

        Watchers with the same seats (every spectator) share one encoded frame.
        """
        encoded: dict[frozenset[int], bytes] = {}
        for conn in list(self.view_watchers):
            if conn.closed:
                self.view_watchers.discard(conn)
                continue
            seats = self.viewer(conn)
            frame = encoded.get(seats)
            if frame is None:
                view = table_view(table, seats)
                view.update(extras)
                frame = frames.message("snapshot", table=self.table_id, seq=table.seq, view=view)
                encoded[seats] = frame
            conn.send(frame)

    def private(self, table: Table, only: frozenset[int] | None = None) -> None:
        """Send each seated watcher its own hand's name and decision (``only``: these seats)."""
        if table.hand is None:
            return
        for conn in self.watchers:
            seats = self.viewer(conn)
            if not seats or (only is not None and seats.isdisjoint(only)):
                continue
            conn.send(
                frames.message(
                    "private",
                    table=self.table_id,
                    seq=table.seq,
                    hand=table.hand_number,
                    mine=mine(table, seats),
                )
            )
