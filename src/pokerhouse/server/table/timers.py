"""A table's timers: one of each kind at a time, each going off as a :class:`TimerTick` input.

A timer does not act itself: it posts a tick to the table's inbox, so that
it takes the one way through like every other input. Setting a kind again
replaces its timer; a tick whose timer was replaced or cancelled meanwhile
is stale and :meth:`Timers.due` says so.

>>> from pokerhouse.server.runtime.clock import ManualClock
>>> posted: list[TimerTick] = []
>>> timers = Timers(ManualClock(), posted.append)
>>> timers.set("decision", 5)
>>> timers.set("decision", 5)  # replaces the first
>>> timers.set("next", 1)
>>> timers.cancel("next")
>>> sorted(timers.kinds)
['decision']
>>> [timers.due(TimerTick("decision", 1)), timers.due(TimerTick("decision", 2))]
[False, True]
>>> timers.kinds
set()
"""

from __future__ import annotations

from collections.abc import Callable

from pokerhouse.server.runtime.clock import Clock, Timer
from pokerhouse.server.table.inputs import TimerTick


class Timers:
    """The running timers of one table, by kind."""

    def __init__(self, clock: Clock, post: Callable[[TimerTick], None]) -> None:
        self._clock = clock
        self._post = post
        self._running: dict[str, tuple[int, Timer]] = {}
        self._tokens = 0

    @property
    def kinds(self) -> set[str]:
        """The kinds of timer running now."""
        return set(self._running)

    def set(self, kind: str, delay: float) -> None:
        """Post a ``kind`` tick in ``delay`` seconds (the running one of that kind, if any,
        is cancelled)."""
        self.cancel(kind)
        self._tokens += 1
        tick = TimerTick(kind, self._tokens)
        self._running[kind] = (tick.token, self._clock.call_later(delay, lambda: self._post(tick)))

    def cancel(self, kind: str) -> None:
        """Cancel the ``kind`` timer, if one runs."""
        entry = self._running.pop(kind, None)
        if entry is not None:
            entry[1].cancel()

    def cancel_all(self) -> None:
        """Cancel every timer."""
        for kind in list(self._running):
            self.cancel(kind)

    def due(self, tick: TimerTick) -> bool:
        """Whether ``tick`` is its kind's running timer going off (then no longer running),
        not one replaced or cancelled since it was set."""
        entry = self._running.get(tick.kind)
        if entry is None or entry[0] != tick.token:
            return False
        del self._running[tick.kind]
        return True
