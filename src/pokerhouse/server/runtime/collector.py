"""An optional garbage-collection policy for a room with a very large heap.

The room leaves CPython's collector alone unless ``room.toml`` sets
``gc_freeze = true``; the pauses of every collection are a metric either way
(``pokerhouse_gc_pause_seconds``), so the choice stays measured. The room
keeps little that the collector must scan (each table's resume buffer holds
encoded bytes, which it never looks into), and the policy below was made for
an earlier room whose tables kept live event objects.

The policy, when asked for:

A busy room holds hundreds of thousands of long-lived objects (each table's
resume buffer of events, its seats, the store's caches) and keeps replacing
them. CPython's full collection scans every tracked object, so on such a
heap it stops the event loop, and every table, for a tenth of a second or
more (measured at 500 tables: full collections of 56 to 315 ms, and p99
latency from 10 ms with no collector to 130 ms with the default one at
1,000 actions/s). A busy table's new objects mostly live a while (its
resume buffer holds its last 256 events), so a room makes some 20,000
long-lived objects a second, and every full collection pays for all of
them. So the room manages the oldest generation itself:

- CPython's own full collections are turned off (:func:`take_over`); its
  young collections stay.
- :func:`keep_frozen` moves everything alive out of the collector's sight
  (``gc.freeze``, which costs nothing: it joins lists) every ``interval``
  seconds (a quarter), so neither the oldest generation nor the middle one
  grows: the young collections scan a quarter second's objects at most.
  At 500 tables and 2,000 actions/s, freezing every five seconds left
  middle-generation collections of 10 to 20 ms and p99 at 57 to 119 ms;
  every quarter second, p99 was 22 to 31 ms. It does not collect first (at
  500 tables a young collection just before a freeze took 48 to 66 ms). A
  table's play makes no reference cycles (the cyclic garbage a room makes
  comes from connections: an HTTP connection's protocol objects), so
  nearly everything frozen is freed by reference counting as before, and
  the rest waits for the sweep.
- Every ``sweep`` seconds (an hour) the whole heap is unfrozen and
  collected once, so cyclic garbage made of objects frozen while they were
  alive (a long connection's, once it closes) is reclaimed after all: one
  long pause an hour (0.5 to 0.7 s at 500 tables) rather than a leak.

"""

from __future__ import annotations

import asyncio
import gc
import time

#: Seconds between freezes.
FREEZE_SECONDS = 0.25
#: Seconds between collections of the whole heap, frozen part included.
SWEEP_SECONDS = 3600.0
#: A gen-2 threshold CPython never reaches: its own full collections are off.
NEVER = 1 << 30


def settle() -> None:
    """Collect once and freeze what the start-up left (modules, the evaluators' tables, the
    loaded room): it lives as long as the process, and CPython's full collections, which
    otherwise scan it every time, now leave it out. Everything made later is collected
    as usual; :func:`unsettle` hands the frozen objects back.

    The room does this by default (CPython's documentation suggests it for a server
    after its start-up); it is not the policy above, which ``gc_freeze`` asks for.
    """
    gc.collect()
    gc.freeze()


def unsettle() -> None:
    """Hand what :func:`settle` froze back to the collector (the process may go on)."""
    gc.unfreeze()


def take_over() -> tuple[int, int, int]:
    """Turn CPython's own full collections off (the young ones stay); the old thresholds."""
    before = gc.get_threshold()
    gc.set_threshold(before[0], before[1], NEVER)
    return before


def give_back(thresholds: tuple[int, int, int]) -> None:
    """Hand the collector back as :func:`take_over` found it (and unfreeze the heap)."""
    gc.set_threshold(*thresholds)
    gc.unfreeze()


def freeze(*, sweep: bool = False) -> None:
    """Freeze the heap (``sweep``: first collect the cyclic garbage of all of it, frozen
    part included, as at start-up)."""
    if sweep:
        gc.unfreeze()
        gc.collect()
    gc.freeze()


async def keep_frozen(interval: float = FREEZE_SECONDS, sweep: float = SWEEP_SECONDS) -> None:
    """Freeze the heap every ``interval`` seconds and sweep it every ``sweep``, for ever
    (run it as a task).

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
    last_sweep = time.monotonic()
    while True:
        await asyncio.sleep(interval)
        now = time.monotonic()
        due = now - last_sweep >= sweep
        if due:
            last_sweep = now
        freeze(sweep=due)
