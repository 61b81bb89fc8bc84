"""What reaches a table task's inbox: plain data, never a socket.

A request names who sent it (an account, or nobody) and the address its
answer goes to (a connection's id, which the room's outboxes deliver to);
a watch starts or stops an address watching the table; a tick is one of the
table's own timers going off. Nothing here holds a live connection, so a
request could as well have come from another node.

>>> Request(Caller(address=7, user_id=3, username="ann"), Ping())
Request(caller=Caller(address=7, user_id=3, username='ann'), message=Ping())
"""

from __future__ import annotations

from dataclasses import dataclass

from pokerhouse.server.protocol import ClientMessage, Ping

__all__ = ["Caller", "Input", "Ping", "Request", "Tick", "Watch"]


@dataclass(frozen=True, slots=True)
class Caller:
    """Who sent a request and where its answer goes: an address, and the signed-in
    account behind it (``None``: a spectator)."""

    address: int
    user_id: int | None = None
    username: str | None = None


@dataclass(frozen=True, slots=True)
class Request:
    """A client's message for a table, and who sent it."""

    caller: Caller
    message: ClientMessage


@dataclass(frozen=True, slots=True)
class Watch:
    """An address starts (``since``: resumes from there) or stops watching the table.

    ``views``: a fresh snapshot after every step too.
    """

    caller: Caller
    on: bool
    since: int | None = None
    views: bool = False


@dataclass(frozen=True, slots=True)
class Tick:
    """A table's timer of ``kind`` went off; ``token`` tells whether it still matters."""

    kind: str
    token: int


#: Everything a table task's inbox takes.
Input = Request | Watch | Tick
