"""Keeping a client within the room's limits: :class:`Pacer` for sends, :class:`Backoff`
for reconnects. Both take their time from an injectable clock and sleep.

The room takes 20 messages a second from an account (bursts of 60) and
answers more with ``rate_limited`` (docs/protocol.md). A :class:`Pacer`
spaces sends to ``rate`` a second with bursts of ``burst`` (by default half
the room's: 10 a second, bursts of 20), and after a ``rate_limited`` answer
holds every send back for a pause that doubles with each refusal in a row
(from 1 s to 8 s) and resets once a send goes through.

>>> now = [0.0]
>>> async def sleep(seconds: float) -> None:
...     now[0] += seconds
>>> import asyncio
>>> pacer = Pacer(rate=2, burst=2, clock=lambda: now[0], sleep=sleep)
>>> async def three() -> float:
...     for _ in range(3):
...         await pacer.wait()
...     return now[0]
>>> asyncio.run(three())
0.5
>>> backoff = Backoff(base=0.5, cap=4.0)
>>> [backoff.next() for _ in range(5)]
[0.5, 1.0, 2.0, 4.0, 4.0]
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


class Pacer:
    """A token bucket: :meth:`wait` before each send (see the module's docstring)."""

    def __init__(
        self,
        rate: float = 10.0,
        burst: int = 20,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.rate, self.burst = rate, burst
        self.clock, self.sleep = clock, sleep
        self._tokens = float(burst)
        self._at = clock()
        self._held_until = 0.0
        self._pause = 0.0

    async def wait(self) -> None:
        """Return when a message may go out."""
        now = self.clock()
        if now < self._held_until:
            await self.sleep(self._held_until - now)
            now = self.clock()
        self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
        self._at = now
        if self._tokens < 1:
            await self.sleep((1 - self._tokens) / self.rate)
            now = self.clock()
            self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
            self._at = now
        self._tokens -= 1

    def refused(self) -> float:
        """The room said ``rate_limited``: hold sends back; returns the pause in seconds."""
        self._pause = min(8.0, max(1.0, 2 * self._pause))
        self._held_until = self.clock() + self._pause
        self._tokens = 0.0
        return self._pause

    def accepted(self) -> None:
        """A send went through: the next refusal pauses from 1 s again."""
        self._pause = 0.0


class Backoff:
    """Exponential delays from ``base`` doubling up to ``cap`` seconds; :meth:`reset` after
    a success."""

    def __init__(self, base: float = 0.5, cap: float = 10.0) -> None:
        self.base, self.cap = base, cap
        self._tries = 0

    def next(self) -> float:
        """The delay before the next attempt."""
        delay = min(self.cap, self.base * 2.0**self._tries)
        self._tries += 1
        return delay

    def reset(self) -> None:
        """An attempt succeeded: start from ``base`` again."""
        self._tries = 0
