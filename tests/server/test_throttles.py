"""The login back-off kept in Redis: the same arithmetic as in memory, one count for all nodes."""

from __future__ import annotations

import pytest
import redis.asyncio

from pokerhouse.server.http.rate_limits import Throttle
from pokerhouse.server.http.shared_limits import (
    MemoryThrottle,
    RedisThrottle,
    SharedRateLimit,
    ThrottleUnavailable,
)
from tests.server.process import free_port


async def test_redis_and_memory_back_off_alike(redis_bus: tuple[str, str]) -> None:
    url, prefix = redis_bus
    client = redis.asyncio.Redis.from_url(url)
    now = [1_000.0]
    options = {"free": 2, "base": 1.0, "cap": 8.0}
    shared = RedisThrottle(client, "logins", prefix=prefix, clock=lambda: now[0], **options)
    # Two nodes' views of one count: another throttle object on the same keys.
    other = RedisThrottle(client, "logins", prefix=prefix, clock=lambda: now[0], **options)
    memory = MemoryThrottle(Throttle(**options), clock=lambda: now[0])
    try:
        for attempts in range(1, 8):
            await (shared if attempts % 2 else other).attempt("ann")
            await memory.attempt("ann")
            assert await shared.wait("ann") == await memory.wait("ann") == await other.wait("ann")
        assert await shared.wait("ann") == 8.0  # capped
        assert await other.wait("bob") == 0.0
        now[0] += 3.0
        assert await shared.wait("ann") == 5.0 == await memory.wait("ann")
        await other.undo("ann")
        await memory.undo("ann")
        assert await shared.wait("ann") == await memory.wait("ann")
        await shared.succeeded("ann")
        assert await other.wait("ann") == 0.0
        # Forgotten by Redis itself after `forget` seconds: an expiry is set.
        await shared.attempt("cat")
        assert 0 < await client.ttl(f"{prefix}:throttle:logins:cat") <= 3600
    finally:
        await client.aclose()


async def test_an_unreachable_redis_is_a_clear_refusal_not_a_free_pass() -> None:
    client = redis.asyncio.Redis(
        host="127.0.0.1", port=free_port(), socket_timeout=2, socket_connect_timeout=2
    )
    throttle = RedisThrottle(client, "logins")
    try:
        with pytest.raises(ThrottleUnavailable):
            await throttle.wait("ann")
        with pytest.raises(ThrottleUnavailable):
            await throttle.attempt("ann")
    finally:
        await client.aclose()


async def test_message_rates_are_one_budget_across_nodes(redis_bus: tuple[str, str]) -> None:
    url, prefix = redis_bus
    client = redis.asyncio.Redis.from_url(url)
    wall = [1_000.0]  # the window's clock: window 100 is [1,000, 1,010)
    nodes = [
        SharedRateLimit(client, "messages", 1.0, 2, prefix=prefix, clock=lambda: wall[0])
        for _ in range(2)
    ]
    try:
        # Each node alone would let 1 a second through, after a burst of 2: over 8 s, 10
        # each. The room's budget is 1 x 10 + 2 = 12 a window for both together.
        allowed = [0, 0]
        for second in range(9):
            for index, node in enumerate(nodes):
                for _ in range(3):
                    allowed[index] += node.allow("user:7", now=float(second))
            nodes[1].allow("user:8", now=float(second))
        assert allowed == [10, 10]
        for node in nodes:
            await node.settle()
        # The second to settle found the room's count over: it refuses user 7 for the
        # rest of the window, tokens or not; the first finds out at its next settling.
        assert not nodes[1].allow("user:7", now=60.0)
        assert nodes[0].allow("user:7", now=60.0)
        await nodes[0].settle()
        assert not any(node.allow("user:7", now=60.0) for node in nodes)
        assert nodes[0].allow("user:8", now=60.0)  # another player's budget is untouched
        # Still refused after a settling with nothing new, within the window.
        await nodes[0].settle()
        assert not nodes[0].allow("user:7", now=61.0)
        wall[0] = 1_010.0  # the next window: a budget again
        await nodes[0].settle()
        assert nodes[0].allow("user:7", now=62.0)
    finally:
        await client.aclose()


async def test_counts_not_settled_are_kept_for_the_next_settling() -> None:
    client = redis.asyncio.Redis(
        host="127.0.0.1", port=free_port(), socket_timeout=2, socket_connect_timeout=2
    )
    limit = SharedRateLimit(client, "messages", 1.0, 5)
    try:
        assert limit.allow("user:1", now=0.0) and limit.allow("user:1", now=0.0)
        with pytest.raises(ThrottleUnavailable):
            await limit.settle()
        with pytest.raises(ThrottleUnavailable):
            await limit.settle()
        assert limit.allow("user:1", now=0.0)  # the local bucket still works alone
    finally:
        await client.aclose()
