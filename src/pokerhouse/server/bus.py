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
rooms in the same process), and :class:`RedisBus`, one Redis stream per
node (streams, not pub/sub: a subscriber that reconnects loses what was
published meanwhile; a stream keeps it, up to its bound).

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
import contextlib
import itertools
import logging
import secrets
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

import msgspec

from pokerhouse.server.inputs import Request, Watch
from pokerhouse.server.mailbox import Mailbox
from pokerhouse.server.stopping import cancel_and_wait

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
    watch: Watch
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
# Where a broadcast is queued: no node's name (names are never empty).
_EVERY_NODE = ""

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


class RedisBus(Bus):
    """The bus on Redis: node ``NAME`` reads its stream ``PREFIX:node:NAME``.

    Sends queued in one turn of the event loop go in one pipeline. Each
    stream is capped (``maxlen``, approximately): a node that died leaves at
    most that many messages behind. A failed read or send is retried every
    ``retry`` seconds, quietly after the first warning.
    """

    shared = True

    def __init__(
        self,
        url: str,
        *,
        prefix: str = "pokerhouse",
        maxlen: int = 10_000,
        retry: float = 0.5,
        client: Any = None,
    ) -> None:
        super().__init__()
        self.url = url
        # A `redis.asyncio.Redis` the caller shares with the bus (and closes itself).
        self._client = client
        self.prefix = prefix
        self.maxlen = maxlen
        self.retry = retry
        # Entries sent to each node, and the last number read from each sender's run: a
        # number skipped is an entry lost (trimmed unread past the cap, or a Redis that
        # restarted empty).
        self._sent: dict[str, int] = {}
        self._seen: dict[bytes, int] = {}
        self._redis: Any = None
        self._outbox: Mailbox[tuple[str, BusMessage | None]] = Mailbox()
        # Values to keep, by key, written with the next batch (the last one of a key wins).
        self._keeps: dict[str, tuple[bytes, int]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._broken = False
        self._stopping = False

    def _stream(self, node: str) -> str:
        return f"{self.prefix}:node:{node}"

    @property
    def _nodes_key(self) -> str:
        # Every node's name, scored by when it is no longer alive unless it beats again.
        return f"{self.prefix}:nodes"

    async def start(
        self, name: str, receive: Receive, recovered: Recovered, undelivered: Undelivered
    ) -> None:
        import redis.asyncio as redis

        await super().start(name, receive, recovered, undelivered)
        # Reads block a second at most: a socket timeout past it finds a frozen server.
        self._redis = self._client or redis.Redis.from_url(
            self.url, socket_timeout=5.0, socket_connect_timeout=5.0
        )
        self.number = await self._claim_number(name)
        # Read from here on: what an earlier process of this name left is for it, not us.
        start = await self._redis.xadd(self._stream(name), {"m": b""}, maxlen=self.maxlen)
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._read(start, receive, recovered), name="bus-read"),
            loop.create_task(self._write(recovered, undelivered), name="bus-write"),
        ]

    def _alive_key(self, number: int) -> str:
        return f"{self.prefix}:node-number:{number}"

    async def _claim_number(self, name: str) -> int:
        """A node number no running node holds: drawn at random (a Redis restarted empty
        forgets the claims, and a counter would start again at one) and claimed; the
        claim is the node's sign of life, renewed by :meth:`beat`."""
        while True:
            number = secrets.randbits(30) | 1 << 30
            if await self._redis.set(self._alive_key(number), name, nx=True, ex=60):
                return number

    async def beat(self, seconds: float) -> None:
        # Set, not renewed: a Redis restarted empty has forgotten the claim.
        now = time.time()
        pipe = self._redis.pipeline(transaction=False)
        pipe.set(self._alive_key(self.number), self.name, ex=max(1, round(seconds)))
        pipe.zadd(self._nodes_key, {self.name: now + seconds})
        pipe.zremrangebyscore(self._nodes_key, "-inf", now)
        await pipe.execute()

    async def nodes(self) -> list[str]:
        """The other nodes that beat lately (by their wall clocks: kept in step by NTP)."""
        names = await self._redis.zrangebyscore(self._nodes_key, time.time(), "+inf")
        return sorted(name.decode() for name in names if name.decode() != self.name)

    async def alive(self, numbers: Collection[int]) -> set[int]:
        ordered = sorted(numbers)
        if not ordered:
            return set()
        pipe = self._redis.pipeline(transaction=False)
        for number in ordered:
            pipe.exists(self._alive_key(number))
        found = await pipe.execute()
        return {number for number, there in zip(ordered, found, strict=True) if there}

    def send(self, node: str, message: BusMessage) -> None:
        self._outbox.put((node, message))

    def broadcast(self, message: BusMessage) -> None:
        self._outbox.put((_EVERY_NODE, message))

    def keep(self, key: str, value: bytes, seconds: int) -> None:
        if not self._keeps:
            self._outbox.put((_EVERY_NODE, None))  # wakes the writer
        self._keeps[f"{self.prefix}:{key}"] = (value, seconds)

    async def kept(self, key: str) -> bytes | None:
        import redis.exceptions

        try:
            value = await self._redis.get(f"{self.prefix}:{key}")
        except (redis.exceptions.RedisError, OSError) as error:
            log.warning("bus: %s not read: %s", key, error)
            return None
        return value if isinstance(value, bytes) else None

    def _failed(self, what: str, error: BaseException) -> None:
        if not self._broken:
            log.warning("bus: %s failed: %s", what, error)
        self._broken = True

    def _working(self, recovered: Recovered) -> None:
        if self._broken:
            self._broken = False
            log.warning("bus: working again")
            try:
                recovered()
            except Exception:  # a bug: logged; the bus itself goes on
                log.exception("bus: a bug resuming after a failure")

    async def _read(self, last: Any, receive: Receive, recovered: Recovered) -> None:
        import redis.exceptions

        stream = self._stream(self.name)
        # Not `while True`: a cancel that lands in redis-py's read timeout may be taken
        # back by it (asyncio.timeout's uncancel); the read ends within its block anyway.
        while not self._stopping:
            try:
                got = await self._redis.xread({stream: last}, count=1000, block=1000)
            except (redis.exceptions.RedisError, OSError) as error:
                if self._stopping:
                    return
                self._failed("reading", error)
                await asyncio.sleep(self.retry)
                continue
            self._working(recovered)
            lost = False
            for _, entries in got:
                for entry, fields in entries:
                    last = entry
                    lost |= self._skipped(fields)
                    data = fields.get(b"m")
                    if not data:
                        continue
                    try:
                        messages = decode_batch(data)
                    except msgspec.DecodeError as error:
                        log.warning("bus: a message that is none: %s", error)
                        continue
                    for message in messages:
                        try:
                            receive(message)
                        except Exception:
                            log.exception("bus: a bug receiving %r", message)
            if lost:
                # Recovered as after a failure: watches resumed, actions sent again.
                log.warning("bus: messages to this node were lost (read too late, or Redis lost)")
                self._broken = True
                self._working(recovered)

    def _skipped(self, fields: Mapping[bytes, bytes]) -> bool:
        """Whether the entry's number skips one after its sender's last (its first entry
        read from a sender's run skips nothing: what went before is not known)."""
        sender, number = fields.get(b"s"), fields.get(b"n")
        if sender is None or number is None or not number.isdigit():
            return False
        count = int(number)
        before = self._seen.get(sender)
        self._seen[sender] = count
        return before is not None and count != before + 1

    async def _write(self, recovered: Recovered, undelivered: Undelivered) -> None:
        import redis.exceptions

        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty():
                batch.append(self._outbox.get_nowait())
            keeps, self._keeps = self._keeps, {}
            try:
                broadcast = any(n == _EVERY_NODE and m is not None for n, m in batch)
                everyone = await self.nodes() if broadcast else []
                # One entry per node: a step's frames for its watchers there travel together.
                by_node: dict[str, list[BusMessage]] = {}
                for node, message in batch:
                    if message is None:
                        continue
                    for name in everyone if node == _EVERY_NODE else [node]:
                        by_node.setdefault(name, []).append(message)
                pipe = self._redis.pipeline(transaction=False)
                for name, messages in by_node.items():
                    # Numbered per destination: a gap there is an entry it never read.
                    count = self._sent[name] = self._sent.get(name, 0) + 1
                    entry = {"m": encode_batch(messages), "s": self.number, "n": count}
                    pipe.xadd(self._stream(name), entry, maxlen=self.maxlen, approximate=True)
                for key, (value, seconds) in keeps.items():
                    pipe.set(key, value, ex=seconds)
                await pipe.execute()
            except (redis.exceptions.RedisError, OSError) as error:
                if self._stopping:
                    return
                self._failed("sending", error)
                for node, message in batch:
                    if message is None:
                        continue  # a kept value: the next keep of its key writes it anew
                    try:
                        undelivered(node, message)
                    except Exception:
                        log.exception("bus: a bug handling %r not sent", message)
                await asyncio.sleep(self.retry)
                continue
            self._working(recovered)

    async def publish_lobby(self, lines: Mapping[int, bytes]) -> None:
        if lines:
            await self._redis.hset(f"{self.prefix}:lobby", mapping=dict(lines))

    async def lobby(self) -> dict[int, bytes]:
        found = await self._redis.hgetall(f"{self.prefix}:lobby")
        return {int(key): value for key, value in found.items()}

    async def stop(self) -> None:
        self._stopping = True  # the reader ends at its next turn if a cancel is lost
        for task in self._tasks:
            await cancel_and_wait(task)
        if self._redis is not None:
            with contextlib.suppress(Exception):
                # Gone: the owners drop this node's watchers at once, not at the expiry.
                await self._redis.delete(self._alive_key(self.number))
                await self._redis.zrem(self._nodes_key, self.name)
            if self._client is None:  # its own: closed here
                with contextlib.suppress(Exception):
                    await self._redis.aclose()
