"""The table task's and the committer's queue: order, waking, a cancelled reader."""

from __future__ import annotations

import asyncio

import pytest

from pokerhouse.server.runtime.mailbox import Mailbox


async def test_items_come_out_in_order_and_a_waiting_reader_wakes() -> None:
    box: Mailbox[int] = Mailbox()
    reader = asyncio.ensure_future(box.get())
    await asyncio.sleep(0)
    assert not reader.done()
    box.put(1)
    box.put(2)
    assert await reader == 1
    assert len(box) == 1 and not box.empty()
    assert await box.get() == 2
    assert box.empty()
    with pytest.raises(IndexError):
        box.get_nowait()


async def test_a_cancelled_reader_leaves_the_box_usable_and_loses_nothing() -> None:
    box: Mailbox[str] = Mailbox()
    reader = asyncio.ensure_future(box.get())
    await asyncio.sleep(0)
    reader.cancel()
    with pytest.raises(asyncio.CancelledError):
        await reader
    box.put("kept")
    assert await box.get() == "kept"


async def test_a_second_reader_is_refused() -> None:
    box: Mailbox[int] = Mailbox()
    first = asyncio.ensure_future(box.get())
    await asyncio.sleep(0)
    with pytest.raises(RuntimeError, match="one reader"):
        await box.get()
    box.put(7)
    assert await first == 7
