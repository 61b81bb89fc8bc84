"""The login back-off kept in Redis: the same arithmetic as in memory, one count for all nodes."""

from __future__ import annotations

import pytest
import redis.asyncio

from pokerhouse.server.auth import Throttle
from pokerhouse.server.throttles import MemoryThrottle, RedisThrottle, ThrottleUnavailable
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
