"""The bus on Redis: one stream per node, for a room of several nodes.

Node ``NAME`` has a stream ``PREFIX:node:NAME``; the others add to it. The
stream is what counts: a subscriber of pub/sub that reconnects loses what
was published meanwhile, and a stream keeps it, up to its bound. But a
reader that asks for each entry (``XREAD``) pays a command for every turn
in which anything arrived, about twice the CPU of hearing it pushed. So each
entry is also published, in the same script, with its id, on the node's
channel (the stream's name and the database's number): the node hears its
entries pushed, and reads the stream only for what it missed while it was
not listening (at its start, and after a failure), skipping what it had
heard. A node that may not listen (an ACL without its channel) reads the
stream alone, as before. Entries are numbered per sender and
destination, so a reader finds a gap (an entry trimmed unread, or a Redis
that restarted empty) and the room recovers as after a failure.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Collection, Mapping
from typing import Any

import msgspec

from pokerhouse.server.cluster.bus import (
    Bus,
    BusMessage,
    Receive,
    Recovered,
    Undelivered,
    decode_batch,
    encode_batch,
)
from pokerhouse.server.runtime.mailbox import Mailbox
from pokerhouse.server.runtime.stopping import cancel_and_wait

log = logging.getLogger("pokerhouse.bus")

# Where a broadcast is queued: no node's name (names are never empty).
_EVERY_NODE = ""

#: Seconds a node's stream keeps an entry (its reader has long taken it by then; a node
#: away longer catches up from the store, as after any gap).
KEEP_SECONDS = 120

#: Seconds the reader may hear nothing before it pings Redis: a listening connection that
#: hears nothing at all, not even the answer, within the socket's timeout (5 s) is broken.
QUIET = 1.0

# Adds an entry to a node's stream (KEYS[1]) and publishes it, with its id, on the node's
# channel; ARGV: the stream's bound, the messages, the sender's number, the entry's, the
# channel, the seconds an entry is kept. One script: an entry is published only once it
# is in the stream. A publish refused (an ACL without the channel) leaves the entry in
# the stream, for a reader that reads the stream instead. Entries carry hole cards: every
# one older than its seconds goes (exactly: ids are Redis's own milliseconds), and a
# stream nobody writes to for that long goes whole.
_ADD = """
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*',
                      'm', ARGV[2], 's', ARGV[3], 'n', ARGV[4])
local keep = tonumber(ARGV[6])
local now = redis.call('TIME')
redis.call('XTRIM', KEYS[1], 'MINID', (tonumber(now[1]) - keep) * 1000)
redis.call('PEXPIRE', KEYS[1], keep * 1000)
redis.pcall('PUBLISH', ARGV[5], id .. ' ' .. ARGV[3] .. ' ' .. ARGV[4] .. ' ' .. ARGV[2])
return id
"""


def stream_entries(reply: Any) -> list[tuple[Any, dict[Any, Any]]]:
    """The entries (id, fields) of an ``XREAD`` of one stream, as Redis answered it: a list
    of streams (RESP2), a map of them (RESP3), or nothing (the block ran out).

    >>> stream_entries([[b"s", [[b"1-0", [b"m", b"x", b"n", b"1"]]]]])
    [(b'1-0', {b'm': b'x', b'n': b'1'})]
    >>> stream_entries({b"s": [[b"1-0", [b"m", b"x"]]]}), stream_entries(None)
    ([(b'1-0', {b'm': b'x'})], [])
    """
    if not reply:
        return []
    streams = reply.values() if isinstance(reply, dict) else (pair[1] for pair in reply)
    return [
        (entry, dict(zip(flat[::2], flat[1::2], strict=True)))
        for entries in streams
        for entry, flat in entries
    ]


def entry_order(entry: bytes) -> tuple[int, int]:
    """A stream entry's id as a key that sorts as Redis orders them.

    >>> entry_order(b"1700000000000-12") > entry_order(b"1700000000000-9")
    True
    """
    millis, _, sequence = entry.partition(b"-")
    return int(millis), int(sequence or 0)


class Cursor:
    """The last entry of a stream taken: each entry, heard pushed or read from the stream or
    both, is taken once, and in order.

    >>> cursor = Cursor(b"5-0")
    >>> [cursor.take(entry) for entry in (b"5-1", b"6-0", b"5-1", b"6-0", b"10-0")]
    [True, True, False, False, True]
    >>> cursor.last
    b'10-0'
    """

    __slots__ = ("_order", "last")

    def __init__(self, last: bytes) -> None:
        #: The last entry's id: the stream is read after it.
        self.last = last
        self._order = entry_order(last)

    def take(self, entry: bytes) -> bool:
        """Whether ``entry`` comes after the last one taken (then it is the last)."""
        order = entry_order(entry)
        if order <= self._order:
            return False
        self.last, self._order = entry, order
        return True


def _confirms(reply: Any) -> bool:
    """Whether ``reply`` confirms a subscription (RESP2 and RESP3 alike)."""
    return isinstance(reply, list) and bool(reply) and reply[0] == b"subscribe"


def pushed(reply: Any) -> bytes | None:
    """The data of a message pushed to a subscriber, as Redis sent it (RESP2 and RESP3
    alike); ``None`` for anything else (a subscription's confirmation, a pong).

    >>> pushed([b"message", b"channel", b"data"]), pushed([b"subscribe", b"channel", 1])
    (b'data', None)
    >>> pushed(b"PONG") is None
    True
    """
    if isinstance(reply, list) and len(reply) == 3 and reply[0] == b"message":
        data = reply[2]
        return data if isinstance(data, bytes) else None
    return None


class RedisBus(Bus):
    """The bus on Redis: node ``NAME`` reads its stream ``PREFIX:node:NAME``.

    Sends queued in one turn of the event loop go in one pipeline. Each
    stream is capped (``maxlen``, approximately) and keeps an entry ``keep_seconds``
    seconds at most: a node that died leaves at most that many messages
    behind, for that long (they carry hole cards). A failed read or send is
    retried every
    ``retry`` seconds, quietly after the first warning. The node listens on
    its channel, and reads its stream itself for what was added while it was
    not listening.
    """

    shared = True

    def __init__(
        self,
        url: str,
        *,
        prefix: str = "pokerhouse",
        maxlen: int = 10_000,
        keep_seconds: int = KEEP_SECONDS,
        retry: float = 0.5,
        client: Any = None,
    ) -> None:
        super().__init__()
        self.url = url
        # A `redis.asyncio.Redis` the caller shares with the bus (and closes itself).
        self._client = client
        self.prefix = prefix
        self.maxlen = maxlen
        self.keep_seconds = keep_seconds
        self.retry = retry
        # Entries sent to each node, and the last number read from each sender's run: a
        # number skipped is an entry lost (trimmed unread past the cap, or a Redis that
        # restarted empty).
        self._sent: dict[str, int] = {}
        self._seen: dict[bytes, int] = {}
        # The last entry of this node's stream taken.
        self._cursor = Cursor(b"0-0")
        self._redis: Any = None
        self._database = 0
        # The bus's own connections (not the pool's: a pooled command costs about a third
        # more CPU, and every action makes a few): one subscribed to this node's channel,
        # one that reads the stream, one that writes to the others'.
        self._listening: Any = None
        self._reading: Any = None
        self._writing: Any = None
        # Whether the listening connection is subscribed, and when it last heard anything.
        self._subscribed = False
        self._heard = 0.0
        self._outbox: Mailbox[tuple[str, BusMessage | None]] = Mailbox()
        # Values to keep, by key, written with the next batch (the last one of a key wins).
        self._keeps: dict[str, tuple[bytes, int]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._broken = False
        self._stopping = False

    def _stream(self, node: str) -> str:
        return f"{self.prefix}:node:{node}"

    def _channel(self, node: str) -> str:
        return f"{self._stream(node)}@{self._database}"

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
        # Channels are the server's, not a database's: the number in a channel's name keeps
        # two rooms that share a Redis, each in a database of its own, from hearing each other.
        self._database = int(self._redis.connection_pool.connection_kwargs.get("db", 0))
        # Read from here on: what an earlier process of this name left is for it, not us.
        start = await self._redis.xadd(self._stream(name), {"m": b""}, maxlen=self.maxlen)
        await self._redis.expire(self._stream(name), self.keep_seconds)
        self._cursor = Cursor(start)
        pool = self._redis.connection_pool
        self._listening = pool.make_connection()
        self._reading, self._writing = pool.make_connection(), pool.make_connection()
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._read(receive, recovered), name="bus-read"),
            loop.create_task(self._ping(), name="bus-ping"),
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

    async def _read(self, receive: Receive, recovered: Recovered) -> None:
        """Listen on this node's channel; at the start and after each failure, read from
        the stream what was added after the last entry taken (subscribed first: an entry
        added meanwhile is heard, or read, or both, and taken once)."""
        import redis.exceptions

        stream, conn = self._stream(self.name), self._listening
        loop = asyncio.get_running_loop()
        # Not `while True`: a cancel that lands in redis-py's read timeout may be taken
        # back by it (asyncio.timeout's uncancel); the read ends within its timeout anyway.
        while not self._stopping:
            try:
                try:
                    await conn.send_command("SUBSCRIBE", self._channel(self.name))
                    while not _confirms(await conn.read_response(push_request=True)):
                        pass
                except redis.exceptions.NoPermissionError as error:
                    log.warning("bus: not allowed to listen (%s): reading the stream", error)
                    await conn.disconnect()
                    await self._poll(stream, receive, recovered)
                    return
                self._heard, self._subscribed = loop.time(), True
                await self._catch_up(stream, receive, recovered)
                self._working(recovered)
                while not self._stopping:
                    # Nothing heard within the socket's timeout (pinged after QUIET): fails.
                    reply = await conn.read_response(push_request=True)
                    self._heard = loop.time()
                    # Heard (a pong at least every QUIET seconds): a send that failed since
                    # is recovered from now, not at the next send, which may never come.
                    self._working(recovered)
                    data = pushed(reply)
                    if data is None:
                        continue
                    try:
                        entry, sender, number, messages = data.split(b" ", 3)
                        taken = self._cursor.take(entry)
                    except ValueError:
                        log.warning("bus: a push that is no entry: %r", data[:40])
                        continue
                    if taken and self._take(sender, number, messages, receive):
                        self._lost(recovered)
            except (redis.exceptions.RedisError, OSError) as error:
                self._subscribed = False
                # Both connected anew by their next command (the stream's reader has likely
                # lost its connection too, and would find it out only by its own timeout).
                await conn.disconnect()
                await self._reading.disconnect()
                if self._stopping:
                    return
                self._failed("reading", error)
                await asyncio.sleep(self.retry)

    async def _catch_up(self, stream: str, receive: Receive, recovered: Recovered) -> None:
        """Take what the stream holds after the last entry taken."""
        conn = self._reading
        while True:
            await conn.send_command("XREAD", "COUNT", 1000, "STREAMS", stream, self._cursor.last)
            got = stream_entries(await conn.read_response())
            self._take_read(got, receive, recovered)
            if len(got) < 1000:
                return

    async def _poll(self, stream: str, receive: Receive, recovered: Recovered) -> None:
        """Read the stream alone, asking for each turn's entries (a blocking ``XREAD``):
        where this node may not listen on its channel."""
        import redis.exceptions

        conn = self._reading
        while not self._stopping:
            try:
                last = self._cursor.last
                await conn.send_command(
                    "XREAD", "COUNT", 1000, "BLOCK", 1000, "STREAMS", stream, last
                )
                got = stream_entries(await conn.read_response())
            except (redis.exceptions.RedisError, OSError) as error:
                await conn.disconnect()  # the next command connects again
                if self._stopping:
                    return
                self._failed("reading", error)
                await asyncio.sleep(self.retry)
                continue
            self._working(recovered)
            self._take_read(got, receive, recovered)

    def _take_read(
        self, got: list[tuple[Any, dict[Any, Any]]], receive: Receive, recovered: Recovered
    ) -> None:
        """Take the entries read from the stream (not those heard already)."""
        lost = False
        for entry, fields in got:
            if self._cursor.take(entry):
                messages = fields.get(b"m", b"")
                lost |= self._take(fields.get(b"s"), fields.get(b"n"), messages, receive)
        if lost:
            self._lost(recovered)

    async def _ping(self) -> None:
        """Ping Redis on the listening connection when it has heard nothing for a while:
        the answer keeps a quiet connection's read from timing out, and no answer finds a
        broken one."""
        import redis.exceptions

        loop = asyncio.get_running_loop()
        while not self._stopping:
            await asyncio.sleep(QUIET)
            conn = self._listening
            # Connected, or the ping would connect it again under the reader's feet.
            if self._subscribed and conn.is_connected and loop.time() - self._heard >= QUIET:
                try:
                    # No health check: it would read the answer, and only the reader reads.
                    await conn.send_command("PING", check_health=False)
                except (redis.exceptions.RedisError, OSError):
                    pass  # the reader finds the connection broken
                except Exception:  # the reader dropped the connection under the write
                    log.debug("bus: a ping not sent", exc_info=True)

    def _take(
        self,
        sender: bytes | None,
        number: bytes | None,
        data: bytes,
        receive: Receive,
    ) -> bool:
        """Take an entry of this node's stream (its sender's number, its own, its messages);
        whether it shows entries lost before it."""
        lost = self._skipped(sender, number)
        if not data:
            return lost
        try:
            messages = decode_batch(data)
        except msgspec.DecodeError as error:
            log.warning("bus: a message that is none: %s", error)
            return lost
        for message in messages:
            try:
                receive(message)
            except Exception:
                log.exception("bus: a bug receiving %r", message)
        return lost

    def _lost(self, recovered: Recovered) -> None:
        # Recovered as after a failure: watches resumed, actions sent again.
        log.warning("bus: messages to this node were lost (read too late, or Redis lost)")
        self._broken = True
        self._working(recovered)

    def _skipped(self, sender: bytes | None, number: bytes | None) -> bool:
        """Whether the entry's number skips one after its sender's last (its first entry
        read from a sender's run skips nothing: what went before is not known)."""
        if sender is None or number is None or not number.isdigit():
            return False
        count = int(number)
        before = self._seen.get(sender)
        self._seen[sender] = count
        return before is not None and count != before + 1

    async def _write(self, recovered: Recovered, undelivered: Undelivered) -> None:
        import redis.exceptions

        conn = self._writing
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
                commands: list[tuple[Any, ...]] = []
                for name, messages in by_node.items():
                    # Numbered per destination: a gap there is an entry it never read.
                    count = self._sent[name] = self._sent.get(name, 0) + 1
                    data = encode_batch(messages)
                    stream, channel = self._stream(name), self._channel(name)
                    commands.append(
                        (
                            "EVAL",
                            _ADD,
                            1,
                            stream,
                            self.maxlen,
                            data,
                            self.number,
                            count,
                            channel,
                            self.keep_seconds,
                        )
                    )
                for key, (value, seconds) in keeps.items():
                    commands.append(("SET", key, value, "EX", seconds))
                if commands:  # in one write, the answers read after (a pipeline)
                    await conn.send_packed_command(conn.pack_commands(commands))
                    for _ in commands:
                        await conn.read_response()
            except (redis.exceptions.RedisError, OSError) as error:
                await conn.disconnect()  # answers left unread: the next batch connects anew
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
        for conn in (self._listening, self._reading, self._writing):
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.disconnect()
        if self._redis is not None:
            with contextlib.suppress(Exception):
                # Gone: the owners drop this node's watchers at once, not at the expiry.
                await self._redis.delete(self._alive_key(self.number))
                await self._redis.zrem(self._nodes_key, self.name)
            if self._client is None:  # its own: closed here
                with contextlib.suppress(Exception):
                    await self._redis.aclose()
