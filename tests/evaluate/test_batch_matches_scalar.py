"""The numpy batch evaluators give exactly the scalar values."""

from __future__ import annotations

import random

import numpy as np
import pytest

from pokerhouse import evaluate

from .conftest import random_hands


@pytest.mark.parametrize("size", [5, 6, 7])
@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.int32, np.int64, np.uint64])
def test_high_and_low_batches_equal_the_scalar_values(
    rng: random.Random, size: int, dtype: type[np.integer]
) -> None:
    hands = random_hands(rng, size, 40_000)
    array = np.array(hands, dtype=dtype)
    high = evaluate.high_batch(array)
    low = evaluate.low_batch(array)
    assert high.dtype == np.int64 and low.dtype == np.int64
    assert high.tolist() == [evaluate.high_value(hand) for hand in hands]
    assert low.tolist() == [evaluate.low_value(hand) for hand in hands]
    assert np.array_equal(evaluate.high_batch(array, check=False), high)
    assert np.array_equal(evaluate.low_batch(array, check=False), low)


def test_many_flushes_in_one_batch(rng: random.Random) -> None:
    # Two suits only: about half of these hands hold a flush.
    pool = [card for card in range(52) if card & 3 in (1, 3)]
    hands = [rng.sample(pool, 7) for _ in range(30_000)]
    assert evaluate.high_batch(hands).tolist() == [evaluate.high_value(h) for h in hands]


def test_teen_patti_batch_equals_the_scalar_values(rng: random.Random) -> None:
    hands = random_hands(rng, 3, 20_000)
    assert evaluate.teen_patti_batch(np.array(hands, dtype=np.int8)).tolist() == [
        evaluate.teen_patti_value(hand) for hand in hands
    ]


def test_lists_non_contiguous_and_empty_inputs() -> None:
    hands = np.array([[51, 47, 43, 39, 35, 0, 4], [0, 5, 10, 15, 24, 30, 40]])
    expected = [evaluate.high_value(hand) for hand in hands.tolist()]
    assert evaluate.high_batch(hands.tolist()).tolist() == expected
    fortran = np.asfortranarray(hands)
    assert evaluate.high_batch(fortran).tolist() == expected
    wide = np.zeros((2, 9), dtype=np.int64)
    wide[:, :7] = hands
    assert evaluate.high_batch(wide[:, :7]).tolist() == expected
    assert evaluate.high_batch(np.empty((0, 7), dtype=np.int64)).shape == (0,)
    assert evaluate.low_batch(np.empty((0, 5), dtype=np.uint8)).shape == (0,)


def test_batches_larger_than_one_chunk(rng: random.Random) -> None:
    count = evaluate.batch.CHUNK * 2 + 17
    hands = np.array(random_hands(rng, 7, count))
    high = evaluate.high_batch(hands)
    assert high[-17:].tolist() == [evaluate.high_value(h) for h in hands[-17:].tolist()]
