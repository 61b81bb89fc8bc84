"""Garbage collection for a room that runs for days: short pauses on a large heap.

A busy room holds hundreds of thousands of long-lived objects (each table's
resume buffer of events, its seats, the store's caches) and keeps replacing
them. CPython's full collection scans every tracked object, so on such a
heap it stops the event loop, and every table, for a tenth of a second or
more (measured: five full collections of 125 to 185 ms of CPU each in one
100-table run of 20 s). :func:`keep_frozen` collects the young generations and
then moves everything still alive out of the collector's sight
(``gc.freeze``) every ``interval`` seconds, so a full collection only scans
what was made since. Objects freed by reference counting are freed as
before; only cyclic garbage that was already frozen is never reclaimed, and
the room creates little: the load test's memory figures are the check.
"""

from __future__ import annotations

import asyncio
import gc

#: Seconds between freezes.
FREEZE_SECONDS = 30.0


def freeze(*, full: bool = False) -> None:
    """Collect the young generations' cyclic garbage (``full``: all of it, as at start-up,
    before any table plays), then freeze what is left."""
    gc.collect(2 if full else 1)
    gc.freeze()


async def keep_frozen(interval: float = FREEZE_SECONDS) -> None:
    """Freeze the heap every ``interval`` seconds, for ever (run it as a task).

    >>> import asyncio, gc
    >>> async def once() -> int:
    ...     task = asyncio.create_task(keep_frozen(0.01))
    ...     await asyncio.sleep(0.05)
    ...     task.cancel()
    ...     return gc.get_freeze_count()
    >>> asyncio.run(once()) > 0
    True
    >>> gc.unfreeze()
    """
    while True:
        await asyncio.sleep(interval)
        freeze()
