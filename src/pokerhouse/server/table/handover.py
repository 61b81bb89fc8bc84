"""What a table's room rules carry to the table's next owner: clocks, banks, away, window.

A table's owner keeps the room's rules (:mod:`.rules`) in memory; on several
nodes that memory dies with the node. So the owner notes after each input
whether anything in it changed, writes this small record to the bus's
shared store (Redis) at most once a second for each table that changed
(a decision started in the last second may be missing: its clock then
starts afresh on the next owner), and a node that takes
the table over reads it back: the decision under way goes on with the time
it had left (not a fresh clock), each seat keeps its time bank, a player
sat out keeps the time already spent away, and Casino Hold'em's betting
window stays open for what was left of it with the bets confirmed in it.

Times are kept as ages (seconds before ``written``, a wall-clock time), not
as readings of a node's clock: every node has its own monotonic clock, and
the nodes' wall clocks are kept in step (NTP). A record older than
:data:`KEEP_SECONDS` is dropped by Redis: a table left that long starts afresh.

>>> state = Carried(written=100.0, banks={2: 12.5}, decision=Carried.PendingDecision(7, 2, 3, 4.0))
>>> decode(encode(state)) == state
True
>>> state.age(now_wall=103.0, seconds=4.0)
7.0
"""

from __future__ import annotations

import msgspec

#: How long a table's carried record is kept after its last write.
KEEP_SECONDS = 3600


class Carried(msgspec.Struct, frozen=True, gc=False):
    """A table's room-rule state, as of ``written`` (wall-clock seconds)."""

    class PendingDecision(msgspec.Struct, array_like=True, frozen=True, gc=False):
        """The decision under way: hand number, seat, actions before it, seconds running."""

        hand: int
        seat: int
        actions: int
        elapsed: float

    written: float
    #: Seconds left in each seat's time bank (seats not named: a full bank).
    banks: dict[int, float] = {}
    decision: PendingDecision | None = None
    #: Seconds each sat-out seat has been away.
    away: dict[int, float] = {}
    #: Casino Hold'em: seconds the betting window has been open (``None``: closed), and
    #: the boxes whose player confirmed in it.
    window: float | None = None
    placed: list[int] = []

    def age(self, now_wall: float, seconds: float) -> float:
        """``seconds`` of age at writing, as of ``now_wall`` (never less than written)."""
        return seconds + max(0.0, now_wall - self.written)


_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(Carried)


def encode(state: Carried) -> bytes:
    """``state`` as stored."""
    return _encoder.encode(state)


def decode(data: bytes) -> Carried | None:
    """A stored state, or ``None`` if ``data`` is none (written by another version)."""
    try:
        return _decoder.decode(data)
    except msgspec.DecodeError:
        return None


def key(table: int) -> str:
    """The record's name, under the bus's prefix."""
    return f"table:{table}:rules"


class Carrier:
    """Whether a table's record is due to be kept: its rules' signature changed since.

    >>> carrier = Carrier()
    >>> carrier.note(("a",)); carrier.due
    True
    >>> carrier.due = False; carrier.note(("a",)); carrier.due
    False
    """

    def __init__(self) -> None:
        self.due = False
        self._last: tuple[object, ...] | None = None

    def note(self, signature: tuple[object, ...]) -> None:
        """The rules' signature after an input."""
        if signature != self._last:
            self._last = signature
            self.due = True


def record(table: int, state: Carried) -> tuple[str, bytes, int]:
    """``state`` as :meth:`~pokerhouse.server.cluster.bus.Bus.keep` takes it: key, value,
    seconds."""
    return key(table), encode(state), KEEP_SECONDS
