"""The Redis bus on its own: one entry per node and turn, and a reader that fell behind."""

from __future__ import annotations

import asyncio
import logging
import threading

import pytest

from pokerhouse.server.bus import BusMessage, Resync, SessionEnded
from pokerhouse.server.redis_bus import RedisBus


async def test_a_node_that_fell_behind_past_the_cap_recovers_as_after_a_failure(
    redis_bus: tuple[str, str], caplog: pytest.LogCaptureFixture
) -> None:
    url, prefix = redis_bus
    seen: list[BusMessage] = []
    recovered: list[bool] = []
    bus = RedisBus(url, prefix=prefix, maxlen=50)
    await bus.start("b", seen.append, lambda: recovered.append(True), lambda n, m: None)

    async def flood() -> None:
        """Node a sends b 500 messages, in entries of one or a few."""
        sender = RedisBus(url, prefix=prefix, maxlen=50)
        await sender.start("a", lambda m: None, lambda: None, lambda n, m: None)
        for number in range(500):
            sender.send("b", Resync(origin=f"n{number}"))
            await asyncio.sleep(0.002)
        await sender.stop()

    try:
        await asyncio.sleep(0.2)  # b's reader waits on its stream
        with caplog.at_level(logging.WARNING, logger="pokerhouse.bus"):
            # b is stuck (its loop does not run) while the 500 arrive and its stream
            # keeps only about the last 50: most are never read.
            thread = threading.Thread(target=asyncio.run, args=(flood(),))
            thread.start()
            thread.join()
            deadline = asyncio.get_running_loop().time() + 30
            while not recovered and asyncio.get_running_loop().time() < deadline:
                await asyncio.sleep(0.05)
        assert recovered, "the loss was not noticed"
        assert "messages to this node were lost" in caplog.text
        origins = [m.origin for m in seen if isinstance(m, Resync)]
        assert origins[-1] == "n499" and len(origins) < 500
    finally:
        await bus.stop()


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
