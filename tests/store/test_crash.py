"""A process killed with SIGKILL in the middle of its postings leaves honest books.

The child plays hands at two tables as fast as it can (every finish a
settlement, two finishes per commit, transfers between them) and reports
each commit on stdout; the test kills it without warning mid-stream. What
it reported committed is there; what it had not committed is not; ``ledger
check`` passes.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

from pokerhouse.store import Store
from tests.store.test_hands import seated_table

CHILD = textwrap.dedent(
    """
    import asyncio, random, sys
    from pokerhouse.cards import Deck
    from pokerhouse.store import Account, Batch, HandFinish, HandStart, Store

    ORDER = [str(c) for c in Deck(random.Random(1)).order()]

    async def main(url, tables):
        store = await Store.open(url)
        rng = random.Random(7)
        number = 0
        while True:
            number += 1
            starts = []
            for table in tables:
                seats = [(s.seat, s.user_id, s.stack) for s in await store.tables.seats(table)]
                starts.append(HandStart(table, number, "3x4", {}, {}, seats, ORDER, 1))
            await store.commit(Batch(starts=starts))
            finishes = []
            for table in tables:
                won = rng.randint(1, 5)
                finishes.append(HandFinish(table, number, [won, -won]))
            await store.commit(Batch(finishes=finishes))
            await store.ledger.post(f"gift:{number}", "grant",
                             {Account.wallet(1): -1, Account.wallet(2): 1})
            print(number, flush=True)

    asyncio.run(main(sys.argv[1], [int(t) for t in sys.argv[2:]]))
    """
)


async def test_sigkill_mid_postings_leaves_a_database_that_passes_check(
    store: Store, db_url: str
) -> None:
    tables = [await seated_table(store, 2, name=f"K{i}") for i in range(2)]
    await store.close()
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, db_url, *map(str, tables)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    acknowledged = 0
    try:
        for line in child.stdout:
            acknowledged = int(line)
            if acknowledged >= 30:
                break
        else:
            raise AssertionError(
                f"the child stopped: {child.stderr.read() if child.stderr else ''}"
            )
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    assert child.returncode == -signal.SIGKILL
    after = await Store.open(db_url)
    try:
        report = await after.check()
        assert report.ok, report.summary()
        played = await after.hands.played_per_table()
        assert all(played[table] >= acknowledged for table in tables), (played, acknowledged)
        # Each round is three commits; the kill comes during a few more at most.
        assert all(played[table] <= acknowledged + 50 for table in tables)
        assert len(await after.hands.unfinished()) in (0, 2)
    finally:
        await after.close()
