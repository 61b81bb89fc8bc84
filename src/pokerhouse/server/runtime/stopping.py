"""Stopping a background task for sure.

A cancel can be lost: a library that catches :class:`asyncio.CancelledError`
at the wrong moment (a driver's own timeout racing the cancel, say) turns it
into an ordinary error, which a loop that outlives errors logs and goes on
from, for ever. :func:`cancel_and_wait` cancels again every ``every``
seconds until the task has ended, so the next cancel lands in the loop's
next sleep.

>>> import asyncio
>>> async def stubborn():
...     while True:  # swallows every cancel but the last
...         try:
...             await asyncio.sleep(10)
...         except asyncio.CancelledError:
...             stubborn.swallowed += 1
...             if stubborn.swallowed == 3:
...                 raise
>>> stubborn.swallowed = 0
>>> async def demo():
...     task = asyncio.get_running_loop().create_task(stubborn())
...     await asyncio.sleep(0)
...     await cancel_and_wait(task, every=0.01)
...     return task.cancelled(), stubborn.swallowed
>>> asyncio.run(demo())
(True, 3)
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

#: Seconds between cancels of a task that has not ended yet.
RECANCEL_SECONDS = 1.0


async def cancel_and_wait(task: asyncio.Task[Any], every: float = RECANCEL_SECONDS) -> None:
    """Cancel ``task`` and wait until it has ended, cancelling again every ``every``
    seconds; an error it ended with (not its cancel) is raised."""
    while not task.done():
        task.cancel()
        await asyncio.wait([task], timeout=every)
    with contextlib.suppress(asyncio.CancelledError):
        task.result()
