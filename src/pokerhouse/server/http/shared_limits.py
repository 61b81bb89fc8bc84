"""Failed logins and message rates counted once for the whole room, however many nodes.

The login back-off (:class:`~pokerhouse.server.http.rate_limits.Throttle`: per account
and per address, doubling after a few free failures) is one budget: a
guesser that spreads its guesses over every node gets no more of them.
Alone, a room keeps the counts in memory (:class:`MemoryThrottle`, on the
room's clock, so that a test can run a back-off out); on several nodes
(``serve --redis-url``) they live in Redis (:class:`RedisThrottle`): a hash
per key with its failures and the time of the last one, changed in one
transaction and forgotten by Redis itself once left alone long enough.
The websocket message and chat rates are one budget too
(:class:`SharedRateLimit`: local buckets, counts settled in Redis each second).

>>> import asyncio
>>> from pokerhouse.server.http.rate_limits import Throttle
>>> now = [0.0]
>>> logins = MemoryThrottle(Throttle(free=1, base=2.0), clock=lambda: now[0])
>>> async def guesses() -> list[float]:
...     for _ in range(3):
...         await logins.attempt("ann")
...     return [await logins.wait("ann"), await logins.wait("bob")]
>>> asyncio.run(guesses())
[4.0, 0.0]
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator, Callable
from typing import Any, Protocol

from pokerhouse.server.http.rate_limits import RateLimit, Throttle


class ThrottleUnavailable(Exception):
    """The shared counts cannot be read or changed now (Redis does not answer)."""


class Throttles(Protocol):
    """The back-off of failed attempts per key, as the login handler uses it."""

    async def wait(self, key: str) -> float:
        """Seconds ``key`` must wait before its next attempt (0: go ahead)."""
        ...

    async def attempt(self, key: str) -> None:
        """One more attempt for ``key``, a failure until :meth:`succeeded` or :meth:`undo`."""
        ...

    async def succeeded(self, key: str) -> None:
        """A success clears ``key``'s failures."""
        ...

    async def undo(self, key: str) -> None:
        """Take back one attempt of ``key`` that succeeded."""
        ...


class MemoryThrottle:
    """A :class:`~pokerhouse.server.http.rate_limits.Throttle` in this process, on ``clock``."""

    def __init__(self, throttle: Throttle, clock: Callable[[], float]) -> None:
        self.throttle = throttle
        self.clock = clock

    async def wait(self, key: str) -> float:
        return self.throttle.wait(key, self.clock())

    async def attempt(self, key: str) -> None:
        self.throttle.attempt(key, self.clock())

    async def succeeded(self, key: str) -> None:
        self.throttle.succeeded(key)

    async def undo(self, key: str) -> None:
        self.throttle.undo(key)


class RedisThrottle:
    """The same back-off kept in Redis under ``PREFIX:throttle:NAME:KEY``, shared by every
    node: the hash's ``f`` is the failures, ``l`` the wall-clock time of the last (the
    nodes' clocks kept in step by NTP); Redis forgets a key ``forget`` seconds after its
    last attempt. ``redis`` is a ``redis.asyncio.Redis`` client."""

    def __init__(
        self,
        redis: Any,
        name: str,
        *,
        prefix: str = "pokerhouse",
        free: int = 5,
        base: float = 1.0,
        cap: float = 300.0,
        forget: float = 3600.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.redis = redis
        self.prefix = f"{prefix}:throttle:{name}:"
        self.free = free
        self.base = base
        self.cap = cap
        self.forget = forget
        self.clock = clock

    def _key(self, key: str) -> str:
        return self.prefix + key

    async def wait(self, key: str) -> float:
        async with _reached():
            failures, last = await self.redis.hmget(self._key(key), "f", "l")
        if failures is None or last is None:
            return 0.0
        over = int(failures) - self.free
        if over <= 0:
            return 0.0
        until = float(last) + min(self.cap, self.base * 2.0 ** (over - 1))
        return max(0.0, until - self.clock())

    async def attempt(self, key: str) -> None:
        name = self._key(key)
        async with _reached():
            pipe = self.redis.pipeline(transaction=True)
            pipe.hincrby(name, "f", 1)
            pipe.hset(name, "l", repr(self.clock()))
            pipe.expire(name, max(1, round(self.forget)))
            await pipe.execute()

    async def succeeded(self, key: str) -> None:
        async with _reached():
            await self.redis.delete(self._key(key))

    async def undo(self, key: str) -> None:
        name = self._key(key)
        async with _reached():
            if await self.redis.hincrby(name, "f", -1) <= 0:
                # Nothing left to count; an attempt made meanwhile is one failure forgiven.
                await self.redis.delete(name)


@contextlib.asynccontextmanager
async def _reached() -> AsyncIterator[None]:
    """Redis's failures as :class:`ThrottleUnavailable`."""
    import redis.exceptions

    try:
        yield
    except (redis.exceptions.RedisError, OSError) as error:
        raise ThrottleUnavailable(str(error)) from error


class SharedRateLimit:
    """A :class:`~pokerhouse.server.http.rate_limits.RateLimit` that is one budget across nodes.

    Each node keeps its own token bucket per key (bursts are cut at once,
    with no round trip), counts what it let through, and every second or so
    (:meth:`settle`) adds its counts to Redis, per key and per window of
    ``window`` seconds (``PREFIX:rate:NAME:KEY:N``). A key whose total over
    every node passed ``rate * window + burst`` in the current window is
    refused on this node too until the window ends. So a player who opens
    sockets on several nodes has one budget, kept within a second of lag;
    one node alone behaves as the plain bucket.
    """

    def __init__(
        self,
        redis: Any,
        name: str,
        rate: float,
        burst: int,
        *,
        prefix: str = "pokerhouse",
        window: float = 10.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.local = RateLimit(rate, burst)
        self.redis = redis
        self.prefix = f"{prefix}:rate:{name}:"
        self.window = window
        self.most = rate * window + burst
        self.clock = clock
        self._counts: dict[str, int] = {}
        # Keys over the room's budget, and the window in which they are.
        self._refused: dict[str, int] = {}

    def allow(self, key: str, now: float | None = None) -> bool:
        """Take a token for ``key`` if it has one here and the room's budget is not spent."""
        if self._refused.get(key) == int(self.clock() // self.window):
            return False
        if not self.local.allow(key, now):
            return False
        self._counts[key] = self._counts.get(key, 0) + 1
        return True

    def forget(self, key: str) -> None:
        """Drop ``key``'s bucket here (its counts already sent stay in their window)."""
        self.local.forget(key)

    async def settle(self) -> None:
        """Add what this node let through to the room's counts; refuse the keys over budget
        for the rest of their window. Raises :class:`ThrottleUnavailable` (the counts
        stay, and go with the next settling)."""
        number = int(self.clock() // self.window)
        self._refused = {key: n for key, n in self._refused.items() if n == number}
        if not self._counts:
            return
        counts, self._counts = self._counts, {}
        keys = sorted(counts)
        try:
            async with _reached():
                pipe = self.redis.pipeline(transaction=False)
                for key in keys:
                    name = f"{self.prefix}{key}:{number}"
                    pipe.incrby(name, counts[key])
                    pipe.expire(name, max(1, round(2 * self.window)))
                totals = (await pipe.execute())[::2]
        except ThrottleUnavailable:
            for key, count in counts.items():
                self._counts[key] = self._counts.get(key, 0) + count
            raise
        for key, total in zip(keys, totals, strict=True):
            if total > self.most:
                self._refused[key] = number
