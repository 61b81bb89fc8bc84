"""A queue with one reader: what a table task and the committer wait on.

``asyncio.Queue`` serves many readers and writers, bounded sizes and
``join``; a table's inbox and the committer's have one reader and no bound,
and take an item for nearly every action the room plays. This keeps only
what they use: a deque and, while the reader sleeps, one future to wake it.

>>> import asyncio
>>> async def demo() -> list[str]:
...     box: Mailbox[str] = Mailbox()
...     box.put("a")
...     box.put("b")
...     first = await box.get()
...     return [first, box.get_nowait(), str(box.empty())]
>>> asyncio.run(demo())
['a', 'b', 'True']
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


class Mailbox(Generic[T]):
    """Unbounded, first in first out, for a single reading task."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: deque[T] = deque()
        self._waiter: asyncio.Future[None] | None = None

    def put(self, item: T) -> None:
        """Add ``item``; wake the reader if it waits."""
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    async def get(self) -> T:
        """The oldest item, waiting for one if there is none."""
        while not self._items:
            if self._waiter is not None:
                raise RuntimeError("a mailbox has one reader")
            waiter = self._waiter = asyncio.get_running_loop().create_future()
            try:
                await waiter
            finally:
                if self._waiter is waiter:  # cancelled while waiting
                    self._waiter = None
        return self._items.popleft()

    def get_nowait(self) -> T:
        """The oldest item; ``IndexError`` when there is none."""
        return self._items.popleft()

    def empty(self) -> bool:
        """Whether nothing waits to be read."""
        return not self._items

    def __len__(self) -> int:
        return len(self._items)
