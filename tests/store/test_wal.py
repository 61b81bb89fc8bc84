"""SQLite's WAL stays bounded under writes that never pause.

A checkpoint beside a busy writer never reaches the end of the WAL, and the
WAL starts over only after one that does; so without the writer's help the
WAL grows for as long as the writes go on (9.8 GB in ten minutes of a
500-table room). Here the limits are made small and the writes continuous.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from pokerhouse.store import Store, sqlite
from tests.conftest import FAST_HASHER

#: Small limits, so that a few thousand commits pass them many times over.
FRAMES_LIMIT = 200
BYTES_LIMIT = 2**20


@pytest.fixture
def small_wal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Checkpoints every 20 commits, the writer's help past 200 frames, a 1 MiB WAL file."""
    monkeypatch.setattr(sqlite, "CHECKPOINT_EVERY", 20)
    monkeypatch.setattr(sqlite, "WAL_FRAMES_LIMIT", FRAMES_LIMIT)
    monkeypatch.setattr(sqlite, "WAL_BYTES_LIMIT", BYTES_LIMIT)


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
async def test_the_wal_starts_over_under_writes_that_never_pause(
    db_url: str, small_wal: None
) -> None:
    path = Path(db_url.removeprefix("sqlite:///"))
    wal = path.with_name(path.name + "-wal")
    store = await Store.open(db_url, password_hasher=FAST_HASHER)
    try:
        users = [await store.create_user(f"writer{n}", None, bot=True) for n in range(8)]
        largest = 0
        for batch in range(100):
            # Eight writers at once, so a commit is always waiting for the one before.
            await asyncio.gather(
                *(
                    store.top_up(user, 1, key=f"top-up:{batch}:{user.id}:{n}")
                    for user in users
                    for n in range(5)
                )
            )
            largest = max(largest, wal.stat().st_size)
        writer = store.database._writer
        assert writer is not None
        # 4,000 commits of a few pages each went through the WAL ...
        assert writer.finished_checkpoints >= 3
        # ... and it never held much more than the limit, plus a checkpoint's worth of commits.
        assert largest < BYTES_LIMIT + 2 * FRAMES_LIMIT * 4_200
    finally:
        await store.close()
    assert not wal.exists() or wal.stat().st_size == 0
