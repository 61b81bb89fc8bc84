"""The room's garbage-collection policy: CPython's full collections off, the heap frozen,
cyclic garbage reclaimed by the sweep even once it was frozen."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from pokerhouse.server.runtime import collector


@pytest.fixture
def restored() -> Iterator[None]:
    thresholds = gc.get_threshold()
    yield
    gc.set_threshold(*thresholds)
    gc.unfreeze()


class Node:
    """An object in a reference cycle with itself."""

    def __init__(self) -> None:
        self.me = self


@pytest.mark.usefixtures("restored")
def test_take_over_turns_full_collections_off_and_gives_back_the_thresholds() -> None:
    before = gc.get_threshold()
    assert collector.take_over() == before
    young, middle, old = gc.get_threshold()
    assert (young, middle) == before[:2] and old == collector.NEVER


@pytest.mark.usefixtures("restored")
def test_frozen_cyclic_garbage_waits_for_the_sweep() -> None:
    node = Node()
    alive = weakref.ref(node)
    collector.freeze()  # frozen while alive
    del node
    gc.collect()  # a collection does not look at frozen objects
    assert alive() is not None
    collector.freeze(sweep=True)
    assert alive() is None
    assert gc.get_freeze_count() > 0  # and what is left is frozen again


@pytest.mark.usefixtures("restored")
def test_settle_freezes_the_start_up_heap_and_leaves_the_collector_on() -> None:
    before = gc.get_threshold()
    node = Node()
    alive = weakref.ref(node)
    del node  # garbage made before the start: settle collects it before freezing
    collector.settle()
    assert alive() is None
    assert gc.get_freeze_count() > 0 and gc.isenabled()
    assert gc.get_threshold() == before  # CPython's own collections, full ones too
    later = Node()  # made after the start: collected as usual
    made_later = weakref.ref(later)
    del later
    gc.collect()
    assert made_later() is None
    collector.unsettle()
    assert gc.get_freeze_count() == 0
