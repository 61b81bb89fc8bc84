"""The bus between a room's nodes: a client's input to its table's owner, frames back.

Every node accepts every client. A client's input for a table another node
runs is **forwarded** to that node (:class:`ForwardWatch`,
:class:`ForwardRequest`, naming the node it came from); the owner's
outbox, which has filtered every frame for its audience already, sends the
client's frames back to the client's node (:class:`Frames`), so a hidden
card never travels to a node that has no right to it. An address (a connection's id) is unique
across the room: a node's number (:attr:`Bus.number`, new at every start)
above :data:`NODE_SHIFT` bits, the connection's id below. A bus that lost
messages says so: the sender hands the room back what it could not send,
and a node whose bus comes back after a failure has every relayed watch
resumed from the last sequence number it relayed (:class:`Resync` asks a
peer to do the same); a relaying node passes each event on once, in order,
and resumes a watch whose events skip a number (:mod:`.relay`).

The bus also carries the lobby (each node publishes its own tables' lines
and reads the others'), and the end of a session to every node
(:class:`SessionEnded`: a logout closes the session's sockets everywhere).

Two buses: :class:`LocalBus`, in one process (alone, the default: the room
is the single process it always was; or joined to a :class:`Hub` with other
rooms in the same process), and the one on Redis
(:class:`pokerhouse.server.cluster.redis_bus.RedisBus`), one stream per node.

>>> hub = Hub()
>>> seen: list[BusMessage] = []
>>> async def demo() -> list[BusMessage]:
...     a, b = LocalBus(hub), LocalBus(hub)
...     await a.start("a", seen.append, lambda: None, lambda node, message: None)
...     await b.start("b", lambda message: None, lambda: None, lambda node, message: None)
...     b.send("a", Resync(origin="b"))
...     await asyncio.sleep(0)
...     return seen
>>> asyncio.run(demo())
[Resync(origin='b')]
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Callable, Collection, Mapping, Sequence

import msgspec

from pokerhouse.server.table.inputs import Request, WatchInput

log = logging.getLogger("pokerhouse.bus")

#: An address's node number sits above this many bits, the connection's id below.
NODE_SHIFT = 32
#: The connection's id in an address.
LOCAL_MASK = (1 << NODE_SHIFT) - 1


class ForwardWatch(msgspec.Struct, tag="watch", frozen=True, gc=False):
    """A client on node ``origin`` starts or stops watching ``table``; ``hops``: sent on
    by nodes that no longer ran the table."""

    table: int
    origin: str
    watch: WatchInput
    hops: int = 0


class ForwardRequest(msgspec.Struct, tag="request", frozen=True, gc=False):
    """A client on node ``origin`` asks ``table`` something; ``hops``: sent on by nodes
    that no longer ran the table."""

    table: int
    origin: str
    request: Request
    hops: int = 0


class Frames(msgspec.Struct, tag="frames", frozen=True, gc=False):
    """``table``'s frames for one address."""

    table: int
    address: int
    frames: list[bytes]


class Resync(msgspec.Struct, tag="resync", frozen=True, gc=False):
    """Node ``origin`` lost messages (its frames to us, or ours to it): resume our watches
    of its tables, and send our actions there that have no answer yet again."""

    origin: str


class SessionEnded(msgspec.Struct, tag="session_ended", frozen=True, gc=False):
    """A session ended (a logout, or a new login in its place): every node closes the
    sockets signed in with it. ``session`` is the hash of its token, never the token."""

    session: str


class TournamentWatch(msgspec.Struct, tag="tournament_watch", frozen=True, gc=False):
    """A client on node ``origin`` (``address`` names its node) starts or stops following
    ``tournament``, which the receiving node runs."""

    tournament: int
    origin: str
    address: int
    on: bool = True


class TournamentAsk(msgspec.Struct, tag="tournament_ask", frozen=True, gc=False):
    """Player ``user`` asks, on node ``origin``, to register for ``tournament`` (or,
    ``register`` false, to unregister); ``ask`` numbers the question at the origin."""

    tournament: int
    origin: str
    ask: int
    user: int
    register: bool = True


class TournamentAnswer(msgspec.Struct, tag="tournament_answer", frozen=True, gc=False):
    """The answer to the origin's question ``ask``: ``status`` 200, or the HTTP status
    and stable code of a refusal."""

    ask: int
    status: int
    code: str = ""
    text: str = ""


class Told(msgspec.Struct, tag="told", frozen=True, gc=False):
    """A tournament's frames for one address on the receiving node."""

    address: int
    frames: list[bytes]


BusMessage = (
    ForwardWatch
    | ForwardRequest
    | Frames
    | Resync
    | SessionEnded
    | TournamentWatch
    | TournamentAsk
    | TournamentAnswer
    | Told
)
_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(BusMessage)
_batch_decoder = msgspec.msgpack.Decoder(list[BusMessage])

#: What a node does with a message for it, after the bus came back, with one it could not send.
Receive = Callable[[BusMessage], None]
Recovered = Callable[[], None]
Undelivered = Callable[[str, BusMessage], None]


def encode(message: BusMessage) -> bytes:
    """``message`` as the bus carries it (MessagePack).

    >>> decode(encode(Resync(origin="n1")))
    Resync(origin='n1')
    """
    return _encoder.encode(message)


def decode(data: bytes) -> BusMessage:
    """A message off the bus; ``msgspec.DecodeError`` (a ``ValueError``) if it is none."""
    return _decoder.decode(data)


def encode_batch(messages: Sequence[BusMessage]) -> bytes:
    """``messages`` for one node as one stream entry.

    >>> decode_batch(encode_batch([Resync(origin="n1"), Resync(origin="n2")]))
    [Resync(origin='n1'), Resync(origin='n2')]
    """
    return _encoder.encode(messages)


def decode_batch(data: bytes) -> list[BusMessage]:
    """The messages of one stream entry; ``msgspec.DecodeError`` if it holds none."""
    return _batch_decoder.decode(data)


class Bus:
    """What a room needs of a bus. This base is a bus with nobody else on it."""

    #: Whether other nodes may be on the bus (a lone node forwards nothing).
    shared = False

    def __init__(self) -> None:
        self.name = ""
        #: This node's number: the high bits of its connections' addresses (0: alone).
        self.number = 0

    async def start(
        self, name: str, receive: Receive, recovered: Recovered, undelivered: Undelivered
    ) -> None:
        """Join the bus as node ``name``: ``receive`` gets every message sent to it,
        ``recovered`` is called when the bus works again after a failure, ``undelivered``
        gets each message that could not be sent."""
        self.name = name

    def send(self, node: str, message: BusMessage) -> None:
        """Queue ``message`` for node ``node`` (never waits)."""

    def broadcast(self, message: BusMessage) -> None:
        """Queue ``message`` for every other live node (never waits)."""

    def keep(self, key: str, value: bytes, seconds: int) -> None:
        """Keep ``value`` under ``key`` for ``seconds`` for whichever node reads it next
        (best effort, never waits: a later keep of the key replaces one not yet written)."""

    async def kept(self, key: str) -> bytes | None:
        """What was last kept under ``key`` (``None``: nothing, or it could not be read)."""
        return None

    async def beat(self, seconds: float) -> None:
        """Say this node is alive for ``seconds`` more."""

    async def alive(self, numbers: Collection[int]) -> set[int]:
        """Which of the nodes ``numbers`` are alive (said so lately)."""
        return set(numbers)

    async def nodes(self) -> list[str]:
        """The names of the other nodes alive (said so lately)."""
        return []

    async def publish_lobby(self, lines: Mapping[int, bytes]) -> None:
        """This node's tables' lobby lines (JSON), for the other nodes' lobbies."""

    async def lobby(self) -> dict[int, bytes]:
        """Every table's last published lobby line."""
        return {}

    async def stop(self) -> None:
        """Leave the bus."""


class Hub:
    """Rooms in one process, and the lobby lines they publish: what :class:`LocalBus` joins."""

    def __init__(self) -> None:
        self.nodes: dict[str, LocalBus] = {}
        self.lines: dict[int, bytes] = {}
        self.kept: dict[str, bytes] = {}
        self.numbers = itertools.count(1)


class LocalBus(Bus):
    """A bus in one process: alone (``hub`` ``None``), or with the rooms of a :class:`Hub`."""

    def __init__(self, hub: Hub | None = None) -> None:
        super().__init__()
        self.hub = hub
        self.shared = hub is not None
        self._receive: Receive | None = None
        self._undelivered: Undelivered | None = None

    async def start(
        self, name: str, receive: Receive, recovered: Recovered, undelivered: Undelivered
    ) -> None:
        await super().start(name, receive, recovered, undelivered)
        self._receive, self._undelivered = receive, undelivered
        if self.hub is not None:
            self.number = next(self.hub.numbers)
            self.hub.nodes[name] = self

    def send(self, node: str, message: BusMessage) -> None:
        peer = None if self.hub is None else self.hub.nodes.get(node)
        loop = asyncio.get_running_loop()
        if peer is None or peer._receive is None:
            if self._undelivered is not None:
                loop.call_soon(self._undelivered, node, message)
            return
        # Encoded and decoded as on a real bus: what passes here would pass there.
        loop.call_soon(peer._receive, decode(encode(message)))

    def broadcast(self, message: BusMessage) -> None:
        if self.hub is not None:
            for name in sorted(self.hub.nodes):
                if name != self.name:
                    self.send(name, message)

    async def nodes(self) -> list[str]:
        return [] if self.hub is None else sorted(set(self.hub.nodes) - {self.name})

    async def alive(self, numbers: Collection[int]) -> set[int]:
        if self.hub is None:
            return set()
        return {bus.number for bus in self.hub.nodes.values()} & set(numbers)

    def keep(self, key: str, value: bytes, seconds: int) -> None:
        if self.hub is not None:
            self.hub.kept[key] = value

    async def kept(self, key: str) -> bytes | None:
        return None if self.hub is None else self.hub.kept.get(key)

    async def publish_lobby(self, lines: Mapping[int, bytes]) -> None:
        if self.hub is not None:
            self.hub.lines.update(lines)

    async def lobby(self) -> dict[int, bytes]:
        return {} if self.hub is None else dict(self.hub.lines)

    async def stop(self) -> None:
        if self.hub is not None and self.hub.nodes.get(self.name) is self:
            del self.hub.nodes[self.name]
        self._receive = None
