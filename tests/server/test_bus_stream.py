"""The Redis bus on its own: entries heard and read once each, a reader cut off, a quiet one."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import redis

from pokerhouse.server.cluster.bus import BusMessage, Resync, SessionEnded
from pokerhouse.server.cluster.redis_bus import RedisBus
from tests.server.process import RedisServer


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    """A ``redis-server`` of the test's own: it may cut connections and set users."""
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.kill()


async def started(url: str, name: str, seen: list[BusMessage], **options: Any) -> RedisBus:
    """A bus of node ``name`` on ``url`` that keeps what it receives in ``seen``."""
    bus = RedisBus(url, **options)
    await bus.start(name, seen.append, lambda: None, lambda node, message: None)
    return bus


def cut_listeners(url: str) -> None:
    """Close every subscribed connection of ``url``'s Redis (a server of the test's own)."""
    client = redis.Redis.from_url(url)
    try:
        client.client_kill_filter(_type="pubsub")
    finally:
        client.close()


async def until(condition: Callable[[], bool], seconds: float = 30.0) -> None:
    """Wait until ``condition`` holds, or fail after ``seconds``."""
    deadline = asyncio.get_running_loop().time() + seconds
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "not within the deadline"
        await asyncio.sleep(0.02)


async def test_what_arrived_while_a_node_was_not_listening_is_read_from_its_stream_once(
    own_redis: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    seen: list[BusMessage] = []
    buses = [await started(own_redis.url, "b", seen), await started(own_redis.url, "a", [])]
    try:
        with caplog.at_level(logging.WARNING, logger="pokerhouse.bus"):
            for number in range(300):
                buses[1].send("b", Resync(origin=f"n{number}"))
                await asyncio.sleep(0.001)
                if number in (100, 200):
                    # b hears nothing until it subscribes again: it reads the stream, and
                    # what it both hears and reads (added between the two) counts once.
                    cut_listeners(own_redis.url)
            await until(lambda: len(seen) >= 300)
            await asyncio.sleep(0.3)
        assert [m.origin for m in seen if isinstance(m, Resync)] == [f"n{n}" for n in range(300)]
        assert "reading failed" in caplog.text  # b was cut off indeed
        assert "were lost" not in caplog.text
    finally:
        for bus in buses:
            await bus.stop()


async def test_a_node_cut_off_past_its_streams_cap_recovers_as_after_a_failure(
    own_redis: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    seen: list[BusMessage] = []
    recovered: list[bool] = []
    bus = RedisBus(own_redis.url, maxlen=50)
    await bus.start("b", seen.append, lambda: recovered.append(True), lambda n, m: None)

    async def flood() -> None:
        """Node a sends b 500 messages, b's connection cut after the first five."""
        sender = await started(own_redis.url, "a", [], maxlen=50)
        for number in range(500):
            sender.send("b", Resync(origin=f"n{number}"))
            await asyncio.sleep(0.002)
            if number == 4:
                await asyncio.sleep(0.2)  # the five in b's socket, unread
                cut_listeners(own_redis.url)
        await sender.stop()

    try:
        await asyncio.sleep(0.2)  # b listens
        with caplog.at_level(logging.WARNING, logger="pokerhouse.bus"):
            # b is stuck (its loop does not run) while the 500 arrive; its stream keeps only
            # about the last 50, and b no longer listens: most are never read.
            thread = threading.Thread(target=asyncio.run, args=(flood(),))
            thread.start()
            thread.join()
            await until(lambda: "were lost" in caplog.text and bool(recovered))
        origins = [m.origin for m in seen if isinstance(m, Resync)]
        assert origins[:5] == [f"n{n}" for n in range(5)]
        assert origins[-1] == "n499" and len(origins) < 500
    finally:
        await bus.stop()


async def test_rooms_in_two_databases_of_one_redis_never_hear_each_other(
    own_redis: RedisServer,
) -> None:
    seen: dict[int, list[BusMessage]] = {0: [], 1: []}
    buses: list[RedisBus] = []
    try:
        for database in (0, 1):  # the same prefix and node names in each
            url = own_redis.url.rsplit("/", 1)[0] + f"/{database}"
            buses += [await started(url, "b", seen[database]), await started(url, "a", [])]
        buses[1].send("b", Resync(origin="room 0"))
        buses[3].send("b", Resync(origin="room 1"))
        await until(lambda: bool(seen[0]) and bool(seen[1]))
        await asyncio.sleep(0.3)
        assert seen == {0: [Resync(origin="room 0")], 1: [Resync(origin="room 1")]}
    finally:
        for bus in buses:
            await bus.stop()


async def test_a_node_not_allowed_to_listen_reads_its_stream_instead(
    own_redis: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    admin = redis.Redis.from_url(own_redis.url)
    # Every key and command, no channel (Redis 7's default for a new user).
    admin.acl_setuser("bus", enabled=True, nopass=True, keys=["*"], commands=["+@all"])
    admin.close()
    url = own_redis.url.replace("redis://", "redis://bus:any@")
    seen: list[BusMessage] = []
    buses: list[RedisBus] = []
    try:
        with caplog.at_level(logging.WARNING, logger="pokerhouse.bus"):
            buses = [await started(url, "b", seen), await started(url, "a", [])]
            for number in range(20):
                buses[1].send("b", Resync(origin=f"n{number}"))
                await asyncio.sleep(0.005)
            await until(lambda: len(seen) >= 20)
        assert seen == [Resync(origin=f"n{n}") for n in range(20)]
        assert "not allowed to listen" in caplog.text
        assert "sending failed" not in caplog.text  # the publish refused, the entry added
    finally:
        for bus in buses:
            await bus.stop()


@pytest.mark.slow
async def test_a_quiet_node_stays_listening_and_hears_the_next_message(
    redis_bus: tuple[str, str], caplog: pytest.LogCaptureFixture
) -> None:
    url, prefix = redis_bus
    seen: list[BusMessage] = []
    recovered: list[bool] = []
    bus = RedisBus(url, prefix=prefix)
    await bus.start("b", seen.append, lambda: recovered.append(True), lambda n, m: None)
    sender = await started(url, "a", [], prefix=prefix)
    try:
        with caplog.at_level(logging.WARNING, logger="pokerhouse.bus"):
            # Longer than the socket's timeout (5 s): a read that heard nothing would fail.
            await asyncio.sleep(7.0)
            sender.send("b", Resync(origin="a"))
            await until(lambda: bool(seen))
        assert seen == [Resync(origin="a")]
        assert not recovered and "failed" not in caplog.text
    finally:
        for each in (bus, sender):
            await each.stop()


async def test_a_broadcast_reaches_every_live_node_but_the_sender(
    redis_bus: tuple[str, str],
) -> None:
    url, prefix = redis_bus
    got: dict[str, list[BusMessage]] = {name: [] for name in "abc"}
    buses = {name: RedisBus(url, prefix=prefix) for name in "abc"}
    try:
        for name, bus in buses.items():
            await bus.start(name, got[name].append, lambda: None, lambda n, m: None)
            await bus.beat(30)
        assert await buses["a"].nodes() == ["b", "c"]
        await buses["c"].stop()  # gone: no longer listed
        assert await buses["a"].nodes() == ["b"]
        buses["a"].broadcast(SessionEnded("hash-of-a-token"))
        deadline = asyncio.get_running_loop().time() + 30
        while not got["b"] and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)
        assert got["b"] == [SessionEnded("hash-of-a-token")]
        await asyncio.sleep(0.3)
        assert got["a"] == [] and got["c"] == []
    finally:
        for bus in buses.values():
            await bus.stop()


class SilentProxy:
    """A TCP proxy to ``target`` on a free loopback port. :meth:`silence` makes every
    connection open now go quiet both ways (open, but nothing passes: a network that
    drops everything); connections made later pass."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = 0
        self._server: asyncio.Server | None = None
        self._pipes: list[tuple[asyncio.StreamWriter, asyncio.Event]] = []

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    def silence(self) -> None:
        for _writer, passing in self._pipes:
            passing.clear()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream_reader, upstream_writer = await asyncio.open_connection(*self.target)
        passing = asyncio.Event()
        passing.set()
        self._pipes += [(writer, passing), (upstream_writer, passing)]

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            while data := await source.read(65536):
                if passing.is_set():
                    sink.write(data)
                    await sink.drain()
            sink.close()

        await asyncio.gather(
            pipe(reader, upstream_writer), pipe(upstream_reader, writer), return_exceptions=True
        )

    async def stop(self) -> None:
        for writer, _passing in self._pipes:
            writer.close()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()


@pytest.mark.slow
async def test_a_listening_connection_gone_silent_is_found_and_the_node_listens_again(
    redis_bus: tuple[str, str], caplog: pytest.LogCaptureFixture
) -> None:
    url, prefix = redis_bus
    where = urlsplit(url)
    proxy = SilentProxy((where.hostname or "127.0.0.1", where.port or 6379))
    await proxy.start()
    seen: list[BusMessage] = []
    through = where._replace(netloc=f"127.0.0.1:{proxy.port}").geturl()
    bus = await started(through, "b", seen, prefix=prefix)
    sender = await started(url, "a", [], prefix=prefix)
    try:
        sender.send("b", Resync(origin="before"))
        await until(lambda: bool(seen))
        with caplog.at_level(logging.WARNING, logger="pokerhouse.bus"):
            # b's connections stay open but carry nothing: b hears no answer to its ping,
            # finds the connection broken within the socket's timeout, and listens again.
            proxy.silence()
            sender.send("b", Resync(origin="after"))
            await until(lambda: len(seen) >= 2)
        assert seen == [Resync(origin="before"), Resync(origin="after")]
        assert "reading failed" in caplog.text
    finally:
        for each in (bus, sender):
            await each.stop()
        await proxy.stop()


async def test_entries_leave_a_stream_by_age_and_an_idle_stream_goes_whole(
    own_redis: RedisServer,
) -> None:
    """Entries carry hole cards: none stays in Redis past the bus's ``keep`` seconds,
    whether more come after it or nothing does (a node that died)."""
    seen: list[BusMessage] = []
    buses = [
        await started(own_redis.url, "b", seen, keep_seconds=2),
        await started(own_redis.url, "a", [], keep_seconds=2),
    ]
    client = redis.Redis.from_url(own_redis.url)
    try:
        buses[1].send("b", Resync(origin="old"))
        await until(lambda: len(seen) == 1)
        stream = f"{buses[1].prefix}:node:b"
        assert client.xlen(stream) >= 1 and 0 < client.ttl(stream) <= 2
        await asyncio.sleep(3.2)
        buses[1].send("b", Resync(origin="new"))
        await until(lambda: len(seen) == 2)
        kept = [fields[b"m"] for _, fields in client.xrange(stream)]
        assert len(kept) == 1 and b"new" in kept[0]  # the old entry and the start are gone
        await buses[0].stop()  # b dies: nothing is written to its stream again
        await asyncio.sleep(3.2)
        assert client.exists(stream) == 0
    finally:
        client.close()
        for bus in buses:
            await bus.stop()
