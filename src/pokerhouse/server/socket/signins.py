"""Which open sockets each session signed in, so that ending a session reaches all of them.

A websocket handshake looks its session up in the database, and a logout
may commit while that lookup (or the accept after it) is under way: the
socket is not yet among the session's sockets, so the logout would miss it
and it would stay signed in. So a handshake says it is coming
(:meth:`SessionSockets.expect`) *before* the lookup; ending the session
marks every handshake still coming; and the handshake, after its lookup,
checks the mark and joins the session's sockets in one synchronous step
(:meth:`SessionSockets.join`, no ``await`` between), or comes up
anonymous when the session ended meanwhile.

>>> sessions = SessionSockets()
>>> coming = sessions.expect("hash-of-token")
>>> sessions.end("hash-of-token")   # a logout lands during the lookup
[]
>>> sessions.join(coming, "a socket")
False
>>> sessions.sockets
{}
"""

from __future__ import annotations

from typing import Generic, TypeVar

C = TypeVar("C")


class Coming:
    """A handshake that looks its session up: ``ended`` once the session ends meanwhile."""

    __slots__ = ("ended", "session")

    def __init__(self, session: str) -> None:
        self.session = session
        self.ended = False


class SessionSockets(Generic[C]):
    """Open sockets by session (the hash of its token), and handshakes still coming."""

    def __init__(self) -> None:
        #: The signed-in sockets of each live session.
        self.sockets: dict[str, set[C]] = {}
        self._coming: dict[str, set[Coming]] = {}

    def expect(self, session: str) -> Coming:
        """A handshake is about to look ``session`` up: call before the lookup, and then
        :meth:`join` or :meth:`forget` exactly once."""
        coming = Coming(session)
        self._coming.setdefault(session, set()).add(coming)
        return coming

    def join(self, coming: Coming, conn: C) -> bool:
        """``conn`` is signed in with ``coming``'s session, unless it ended meanwhile
        (then ``False``: the socket must not be signed in)."""
        self.forget(coming)
        if coming.ended:
            return False
        self.sockets.setdefault(coming.session, set()).add(conn)
        return True

    def forget(self, coming: Coming) -> None:
        """The handshake is over (joined, anonymous or gone)."""
        waiting = self._coming.get(coming.session)
        if waiting is not None:
            waiting.discard(coming)
            if not waiting:
                del self._coming[coming.session]

    def leave(self, session: str, conn: C) -> None:
        """``conn`` closed."""
        open_ = self.sockets.get(session)
        if open_ is not None:
            open_.discard(conn)
            if not open_:
                del self.sockets[session]

    def end(self, session: str) -> list[C]:
        """The session ended: its open sockets (to close), every handshake still coming
        marked so that it does not join."""
        for coming in self._coming.get(session, ()):
            coming.ended = True
        return list(self.sockets.pop(session, ()))
