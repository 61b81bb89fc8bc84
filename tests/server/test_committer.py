"""Group commits on SQLite stay small enough for the event loop: a commit of more than
``HEAVY_BATCH`` rows would go to the writer's thread and fight the loop for the GIL."""

from __future__ import annotations

import asyncio
from typing import Any

from pokerhouse.server.table.committer import Committer
from pokerhouse.store import ActionRecord, Batch, BatchResult
from pokerhouse.store.store import HEAVY_BATCH


class RecordingStore:
    """A store that keeps the size of every batch it is asked to commit (and commits none)."""

    def __init__(self, dialect: str) -> None:
        self.dialect = dialect
        self.sizes: list[int] = []

    async def commit(self, batch: Batch) -> BatchResult:
        self.sizes.append(len(batch))
        return BatchResult()


def _part(table: int) -> Batch:
    return Batch(actions=[ActionRecord(table, 1, 0, 0, "check")])


async def _commit_many(dialect: str, tables: int) -> RecordingStore:
    store = RecordingStore(dialect)
    committer = Committer(store)  # type: ignore[arg-type]
    committer.start()
    try:
        pending: list[Any] = [committer.commit(_part(t)) for t in range(1, tables + 1)]
        await asyncio.gather(*pending)
    finally:
        await committer.stop()
    return store


async def test_sqlite_commits_are_bounded_by_the_heavy_batch_size() -> None:
    store = await _commit_many("sqlite", 300)
    assert sum(store.sizes) == 300
    assert max(store.sizes) <= HEAVY_BATCH
    assert max(store.sizes) > 1  # still grouped


async def test_postgresql_commits_group_every_waiting_table() -> None:
    store = await _commit_many("postgresql", 300)
    assert sum(store.sizes) == 300
    assert max(store.sizes) > HEAVY_BATCH
