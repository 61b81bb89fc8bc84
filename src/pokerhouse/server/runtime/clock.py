"""Time for the room, injected: the system's clock, or a manual one tests move by hand.

A table task never reads the time itself; it asks its :class:`Clock` what
time it is and waits on it, so a test can drive the decision clock, time
banks and betting windows without sleeping. A table's timers are
:meth:`Clock.call_later` callbacks, not sleeping tasks: a decision's timer
is set and cancelled at every action, and a callback costs a fraction of a
task's creation and cancellation.

>>> import asyncio
>>> async def demo() -> list[str]:
...     clock = ManualClock()
...     seen: list[str] = []
...     async def sleeper() -> None:
...         await clock.sleep(10)
...         seen.append(f"woke at {clock.now():g}")
...     task = asyncio.create_task(sleeper())
...     _ = clock.call_later(5, lambda: seen.append(f"called at {clock.now():g}"))
...     clock.call_later(7, lambda: seen.append("never")).cancel()
...     await asyncio.sleep(0)
...     await clock.advance(4)
...     seen.append(f"at {clock.now():g} still asleep: {not task.done()}")
...     await clock.advance(6)
...     await task
...     return seen
>>> asyncio.run(demo())
['at 4 still asleep: True', 'called at 5', 'woke at 10']
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from typing import Protocol


class Timer(Protocol):
    """A callback to come, which :meth:`cancel` calls off."""

    def cancel(self) -> None:
        """Do not call it (nothing happens if it has run)."""
        ...


class Clock(Protocol):
    """What the room needs of time: the time now, and waiting."""

    def now(self) -> float:
        """Seconds on a monotonic scale."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` (at once for 0 or less)."""
        ...

    def call_later(self, seconds: float, callback: Callable[[], None]) -> Timer:
        """Call ``callback`` on the running loop in ``seconds`` (the next turn for 0 or less)."""
        ...


class SystemClock:
    """The real, monotonic clock."""

    def now(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))

    def call_later(self, seconds: float, callback: Callable[[], None]) -> Timer:
        return asyncio.get_running_loop().call_later(max(0.0, seconds), callback)


class _ManualTimer:
    __slots__ = ("callback", "cancelled")

    def __init__(self, callback: Callable[[], None]) -> None:
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """A clock that moves only when told: :meth:`advance` wakes the sleepers it passes
    and calls the timers it passes, in the order they are due."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None] | _ManualTimer]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self._now + seconds, next(self._order), future))
        await future

    def call_later(self, seconds: float, callback: Callable[[], None]) -> Timer:
        timer = _ManualTimer(callback)
        if seconds <= 0:
            asyncio.get_running_loop().call_soon(lambda: None if timer.cancelled else callback())
        else:
            heapq.heappush(self._sleepers, (self._now + seconds, next(self._order), timer))
        return timer

    async def advance(self, seconds: float) -> None:
        """Move the time on by ``seconds``, waking every sleeper due by then, in order."""
        target = self._now + seconds
        while self._sleepers and self._sleepers[0][0] <= target:
            due, _, waiter = heapq.heappop(self._sleepers)
            self._now = max(self._now, due)
            if isinstance(waiter, _ManualTimer):
                if not waiter.cancelled:
                    waiter.callback()
            elif not waiter.done():
                waiter.set_result(None)
            # Let the woken task run (and perhaps sleep again) before the next one.
            for _ in range(5):
                await asyncio.sleep(0)
        self._now = target
        for _ in range(5):
            await asyncio.sleep(0)

    @property
    def sleepers(self) -> int:
        """How many waits and timers are pending."""
        return sum(
            1
            for _, _, waiter in self._sleepers
            if not (waiter.cancelled if isinstance(waiter, _ManualTimer) else waiter.done())
        )
