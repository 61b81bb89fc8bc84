"""The keys and tables behind the fast paths."""

from __future__ import annotations

import subprocess
import sys
from itertools import pairwise

import numpy as np
import pytest

from pokerhouse import evaluate
from pokerhouse.evaluate import tables
from pokerhouse.evaluate.classes import high_classes, low_classes, teen_patti_classes


@pytest.mark.parametrize("size", [5, 6, 7])
def test_rank_key_sums_are_distinct_for_every_multiset_of_ranks(size: int) -> None:
    keys = tables.RANK_KEYS[size]
    sums = np.array([sum(keys[r] for r in ranks) for ranks in tables.multisets(size)])
    assert len(np.unique(sums)) == len(sums)
    assert len(tables.high_table(size)) == 0 or len(tables.high_table(size)) == sums.max() + 1


@pytest.mark.parametrize("size", [5, 6, 7])
def test_suit_counters_never_overflow_and_flag_exactly_five_or_more(size: int) -> None:
    for suited in range(size + 1):
        # ``suited`` cards of spades, the rest spread over the other suits.
        cards = [4 * r + 3 for r in range(suited)]
        cards += [4 * r + (r % 3) for r in range(suited, size)]
        total = sum(tables.CARD_KEYS[size][c] for c in cards)
        assert bool(total & tables.FLUSH_BITS) == (suited >= 5)
        if suited >= 5:
            assert tables.flush_suit(total) == 3


def test_categories_rise_with_the_value() -> None:
    for classes in (high_classes(), low_classes(), teen_patti_classes()):
        categories = [category for category, _ in classes]
        assert all(a <= b for a, b in pairwise(categories))
        assert len(set(classes)) == len(classes)


def test_values_are_dense_and_sized_as_documented() -> None:
    assert len(high_classes()) == evaluate.HIGH_VALUES == 7462
    assert len(low_classes()) == evaluate.LOW_VALUES == 6175
    assert len(teen_patti_classes()) == evaluate.TEEN_PATTI_VALUES == 741


def test_tables_are_built_once() -> None:
    evaluate.high_value(list(range(7)))
    table = tables.high_table(7)
    assert tables.ensure_high(7) is False
    evaluate.high_value([8, 9, 10, 11, 12, 13, 14])
    assert tables.high_table(7) is table


FIRST_CALLS = """
import threading
from pokerhouse import evaluate
from pokerhouse.cards import parse_cards as p

results = []
def worker():
    results.append(evaluate.high_value(p("As Ks Qs Js Ts 2c 3d")))
threads = [threading.Thread(target=worker) for _ in range(8)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
assert results == [7462] * 8, results
assert evaluate.high_value(p("Ah Kh 9h 7h 4h 2d")) == evaluate.high_value(p("Ah Kh 9h 7h 4h"))
assert evaluate.high_value(p("7c 5d 4h 3s 2c")) == 1
assert evaluate.low_value(p("5c 4d 3h 2s Ac Kd")) == 6175
assert evaluate.low_value(p("5c 4d 3h 2s Ac Kd Kh")) == 6175
assert evaluate.low_value(p("5c 4d 3h 2s Ac")) == 6175
assert evaluate.teen_patti_value(p("Ac Ad Ah")) == 741
try:
    evaluate.high_value([0, 1, 2, 3, 99])
except IndexError:
    pass
else:
    raise AssertionError("no IndexError")
"""


def test_first_calls_build_the_tables_even_from_several_threads() -> None:
    # A fresh interpreter, where every table is still empty.
    subprocess.run([sys.executable, "-c", FIRST_CALLS], check=True, timeout=120)
