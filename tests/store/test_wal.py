"""SQLite's WAL stays bounded under writes that never pause.

A checkpoint beside a busy writer never reaches the end of the WAL, and the
WAL starts over only after one that does; so without the writer's help the
WAL grows for as long as the writes go on (9.8 GB in ten minutes of a
500-table room). Here the limits are made small and the writes continuous.
"""

from __future__ import annotations

import asyncio
import time
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


def wal_generation(wal: Path) -> int | None:
    """The WAL header's checkpoint sequence number: one more each time the WAL starts over."""
    try:
        with wal.open("rb") as file:
            header = file.read(16)
    except FileNotFoundError:
        return None
    return int.from_bytes(header[12:16], "big") if len(header) == 16 else None


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
async def test_the_wal_starts_over_under_writes_that_never_pause(
    db_url: str, small_wal: None
) -> None:
    # How many commits land while a background checkpoint runs, and so how long the WAL
    # gets between two restarts, depends on the machine's speed; the mechanism does not:
    # the writer finishes checkpoints and the WAL starts over, again and again.
    path = Path(db_url.removeprefix("sqlite:///"))
    wal = path.with_name(path.name + "-wal")
    store = await Store.open(db_url, password_hasher=FAST_HASHER)
    try:
        users = [await store.users.create(f"writer{n}", None, bot=True) for n in range(8)]
        writer = store.database._writer
        assert writer is not None
        generations: set[int] = set()
        largest = 0
        deadline = time.monotonic() + 120  # ample for a loaded laptop; a quiet one needs ~2 s
        batch = 0
        while len(generations) < 4 or writer.finished_checkpoints < 3:
            assert time.monotonic() < deadline, (
                f"after {batch} batches the WAL started over {len(generations) - 1} times"
                f" and the writer finished {writer.finished_checkpoints} checkpoints"
            )
            # Eight writers at once, so a commit is always waiting for the one before.
            await asyncio.gather(
                *(
                    store.ledger.top_up(user, 1, key=f"top-up:{batch}:{user.id}:{n}")
                    for user in users
                    for n in range(5)
                )
            )
            largest = max(largest, wal.stat().st_size)
            generation = wal_generation(wal)
            if generation is not None:
                generations.add(generation)
            batch += 1
        # And bounded: what a checkpoint's time lets land past the limit (up to 3.1 MB seen on
        # a loaded machine) is far below what a limit not kept would let the WAL reach (the
        # WAL took 123 MB here before the writer's help).
        assert largest < BYTES_LIMIT + 8 * FRAMES_LIMIT * 4_200, largest
    finally:
        await store.close()
    assert not wal.exists() or wal.stat().st_size == 0
