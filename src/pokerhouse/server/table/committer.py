"""Group commit: many tables' hand-log writes in one database transaction.

Every table task hands its writes to the :class:`Committer` and waits; the
committer takes everything that has arrived while the last commit ran and
writes it as one :class:`~pokerhouse.store.Batch`, then wakes each waiter.
A batch that fails as a whole is retried part by part, so one table's
refused write (a stale lease, say) never fails another table's.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from pokerhouse.server.runtime.faults import crash_point
from pokerhouse.server.runtime.mailbox import Mailbox
from pokerhouse.store import Batch, BatchResult, Store
from pokerhouse.store.store import HEAVY_BATCH

#: At most this many parts share one commit (bounds a transaction's size).
MAX_PARTS = 256


@dataclass(slots=True)
class _Part:
    batch: Batch
    done: asyncio.Future[BatchResult]


@dataclass
class CommitStats:
    """What the committer has done: commits, parts, and time spent committing."""

    commits: int = 0
    parts: int = 0
    failures: int = 0
    seconds: float = 0.0
    last_seconds: float = 0.0
    observers: list[Callable[[float, int], None]] = field(default_factory=list)


class Committer:
    """Merges concurrent :meth:`commit` calls into group commits on one task."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.stats = CommitStats()
        self._queue: Mailbox[_Part] = Mailbox()
        self._task: asyncio.Task[None] | None = None
        #: Writes handed in, and writes answered (committed or refused), since the start.
        self.handed_in = 0
        self.answered = 0

    def start(self) -> None:
        """Start the committing task (on the running loop)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="committer")

    async def stop(self) -> None:
        """Stop after the writes already handed in."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def commit(self, batch: Batch) -> asyncio.Future[BatchResult]:
        """Write ``batch`` (with whatever else is waiting): await the result, which raises the
        store's error if refused. A malformed batch raises here, before it joins others.

        A plain function handing back the future, not a coroutine: every step of every
        table comes through here, and a waiting coroutine is one more object in flight.
        """
        checked = batch.checked()
        future: asyncio.Future[BatchResult] = asyncio.get_running_loop().create_future()
        self._queue.put(_Part(checked, future))
        self.handed_in += 1
        return future

    async def _run(self) -> None:
        # On SQLite a commit of more than HEAVY_BATCH rows goes to the writer's thread,
        # where it fights the busy event loop for the GIL at every statement (500 tables:
        # 165 tables' rows a commit took 474 ms). Smaller commits, one after another, on
        # the loop take a millisecond or two each.
        rows_bound = HEAVY_BATCH if self.store.dialect == "sqlite" else None
        carried: _Part | None = None  # taken from the queue, but for the next commit
        while True:
            first = carried if carried is not None else await self._queue.get()
            carried = None
            parts, rows = [first], len(first.batch)
            while len(parts) < MAX_PARTS and not self._queue.empty():
                part = self._queue.get_nowait()
                if rows_bound is not None and rows + len(part.batch) > rows_bound:
                    carried = part
                    break
                parts.append(part)
                rows += len(part.batch)
            await self._write(parts)

    async def _write(self, parts: list[_Part]) -> None:
        started = time.perf_counter()
        merged = Batch.merged([part.batch for part in parts])
        settles = bool(merged.finishes)
        crash_point("settle-before" if settles else "commit-before")
        try:
            result = await self.store.commit(merged)
            crash_point("settle-after" if settles else "commit-after")
        except Exception as error:
            if len(parts) == 1:
                self._fail(parts[0], error)
            else:
                # Find who was refused: each part on its own.
                for part in parts:
                    try:
                        self._succeed(part, await self.store.commit(part.batch))
                    except Exception as own:
                        self._fail(part, own)
        else:
            for part in parts:
                self._succeed(part, result)
        elapsed = time.perf_counter() - started
        stats = self.stats
        stats.commits += 1
        stats.parts += len(parts)
        stats.seconds += elapsed
        stats.last_seconds = elapsed
        for observe in stats.observers:
            observe(elapsed, len(parts))

    def _succeed(self, part: _Part, result: BatchResult) -> None:
        self.answered += 1
        if not part.done.done():
            part.done.set_result(result)

    def _fail(self, part: _Part, error: Exception) -> None:
        self.answered += 1
        self.stats.failures += 1
        if not part.done.done():
            part.done.set_exception(error)
