"""What reaches a table task's inbox: plain data, never a socket.

A request names who sent it (an account, or nobody) and the address its
answer goes to (a connection's id, which the room's outboxes deliver to);
a watch starts or stops an address watching the table; a tick is one of the
table's own timers going off. Nothing here holds a live connection, so a
request could as well have come from another node. They are msgspec
structs of plain values and client messages, which can hold no reference
cycle: the garbage collector need not track them (``gc=False``), and a
busy room makes thousands a second.

>>> from pokerhouse.server.socket.incoming import PingMessage
>>> Request(Caller(address=7, user_id=3, username="ann"), PingMessage())
Request(caller=Caller(address=7, user_id=3, username='ann'), message=PingMessage())
"""

from __future__ import annotations

import msgspec

from pokerhouse.server.socket.incoming import ClientMessage

__all__ = ["Caller", "Directed", "Input", "Request", "TimerTick", "WatchInput"]


class Caller(msgspec.Struct, frozen=True, gc=False):
    """Who sent a request and where its answer goes: an address, and the signed-in
    account behind it (``None``: a spectator)."""

    address: int
    user_id: int | None = None
    username: str | None = None


class Request(msgspec.Struct, frozen=True, gc=False):
    """A client's message for a table, and who sent it."""

    caller: Caller
    message: ClientMessage


class WatchInput(msgspec.Struct, frozen=True, gc=False):
    """An address starts (``since``: resumes from there) or stops watching the table.

    ``views``: a fresh snapshot after every step too.
    """

    caller: Caller
    on: bool
    since: int | None = None
    views: bool = False


class TimerTick(msgspec.Struct, frozen=True, gc=False):
    """A table's timer of ``kind`` went off; ``token`` tells whether it still matters."""

    kind: str
    token: int


class Directed(msgspec.Struct, frozen=True):
    """A tournament director's order for its table (:mod:`pokerhouse.tournament.orders`, or
    :class:`~pokerhouse.table.SitTogether` for a new table's draw); ``done`` is told when
    it is carried out (an ``asyncio.Future``: tracked by the collector, unlike the rest)."""

    order: object
    done: object


#: Everything a table task's inbox takes.
Input = Request | WatchInput | TimerTick | Directed
