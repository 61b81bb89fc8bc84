"""Bad input raises InvalidCards (a ValueError) with a code and a message naming the problem."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from pokerhouse import evaluate
from pokerhouse.errors import InvalidCards, PokerError

CHECKED: list[tuple[Callable[[Any], Any], str]] = [
    (evaluate.high, "As Ks Qs Js Ts"),
    (evaluate.low, "As 2s 3s 4s 5s"),
    (evaluate.teen_patti, "As 2s 3s"),
]


@pytest.mark.parametrize(("evaluator", "good"), CHECKED)
def test_wrong_card_count(evaluator: Callable[[Any], Any], good: str) -> None:
    with pytest.raises(InvalidCards, match=r"expected .*cards, got 2") as caught:
        evaluator("As Kd")
    assert caught.value.code == "card_count"
    with pytest.raises(InvalidCards, match="got 8"):
        evaluator("As Ks Qs Js Ts 9s 8s 7s")
    evaluator(good)


@pytest.mark.parametrize(("evaluator", "good"), CHECKED)
def test_duplicate_cards(evaluator: Callable[[Any], Any], good: str) -> None:
    duplicated = [*good.split()[:-1], "As"]
    with pytest.raises(InvalidCards, match="duplicate card As") as caught:
        evaluator(" ".join(duplicated))
    assert caught.value.code == "duplicate_card"
    with pytest.raises(InvalidCards, match="duplicate card As"):
        evaluator([51] * len(duplicated))


@pytest.mark.parametrize(("evaluator", "good"), CHECKED)
def test_unknown_rank_or_suit(evaluator: Callable[[Any], Any], good: str) -> None:
    with pytest.raises(InvalidCards, match="unknown rank 'X'") as caught:
        evaluator(["Xs", *good.split()[1:]])
    assert caught.value.code == "bad_rank"
    with pytest.raises(InvalidCards, match="unknown suit 'x'") as caught:
        evaluator(["Ax", *good.split()[1:]])
    assert caught.value.code == "bad_suit"
    with pytest.raises(InvalidCards, match="unknown rank 'Z'"):
        evaluator(good + " Zz")
    with pytest.raises(InvalidCards, match="unknown suit 'q'"):
        evaluator(good.replace("s", "q"))
    with pytest.raises(InvalidCards, match="cannot read"):
        evaluator(good.replace(" ", "") + "Q")


@pytest.mark.parametrize(("evaluator", "good"), CHECKED)
def test_card_index_out_of_range(evaluator: Callable[[Any], Any], good: str) -> None:
    with pytest.raises(InvalidCards, match=r"card index 52 is outside 0\.\.51"):
        evaluator([52, *range(len(good.split()) - 1)])
    with pytest.raises(InvalidCards, match=r"card index -1 is outside 0\.\.51"):
        evaluator([-1, *range(len(good.split()) - 1)])


def test_errors_are_value_errors_and_poker_errors() -> None:
    with pytest.raises(ValueError, match="duplicate"):
        evaluate.high("As As Ks Qs Js")
    with pytest.raises(PokerError):
        evaluate.low("As")


def test_fast_paths_reject_a_wrong_count() -> None:
    with pytest.raises(InvalidCards, match="5 to 7 cards, got 4"):
        evaluate.high_value([0, 1, 2, 3])
    with pytest.raises(InvalidCards, match="5 to 7 cards, got 8"):
        evaluate.low_value(list(range(8)))
    with pytest.raises(ValueError, match="unpack"):
        evaluate.teen_patti_value([0, 1])


def test_fast_paths_raise_index_error_for_big_card_numbers() -> None:
    with pytest.raises(IndexError):
        evaluate.high_value([0, 1, 2, 3, 99])
    with pytest.raises(IndexError):
        evaluate.low_value([0, 1, 2, 3, 4, 5, 99])


@pytest.mark.parametrize(
    "function",
    [
        evaluate.high_category,
        evaluate.high_description,
        evaluate.low_category,
        evaluate.low_description,
        evaluate.teen_patti_category,
        evaluate.teen_patti_description,
    ],
)
def test_value_helpers_reject_values_out_of_range(function: Callable[[int], Any]) -> None:
    with pytest.raises(ValueError, match="is not a"):
        function(0)
    with pytest.raises(ValueError, match="is not a"):
        function(10_000)


BATCHES = [evaluate.high_batch, evaluate.low_batch]


@pytest.mark.parametrize("batch", BATCHES)
def test_batch_shape(batch: Callable[[Any], Any]) -> None:
    with pytest.raises(
        InvalidCards, match=r"shape \(N, 5\), \(N, 6\) or \(N, 7\).*got \(7,\)"
    ) as caught:
        batch(np.arange(7))
    assert caught.value.code == "card_count"
    with pytest.raises(InvalidCards, match="one hand per row"):
        batch([[0, 1, 2, 3, 4], [5, 6, 7, 8, 9, 10]])
    with pytest.raises(InvalidCards, match=r"got \(2, 4\)"):
        batch(np.zeros((2, 4), dtype=np.int64))
    with pytest.raises(InvalidCards, match=r"shape \(N, 3\)"):
        evaluate.teen_patti_batch(np.zeros((2, 5), dtype=np.int64))


@pytest.mark.parametrize("batch", BATCHES)
def test_batch_dtype(batch: Callable[[Any], Any]) -> None:
    with pytest.raises(InvalidCards, match=r"must hold integers 0\.\.51, not float64"):
        batch(np.zeros((1, 7)))
    with pytest.raises(InvalidCards, match="not bool"):
        batch(np.ones((1, 7), dtype=bool))


@pytest.mark.parametrize("batch", BATCHES)
def test_batch_range(batch: Callable[[Any], Any]) -> None:
    hands = np.array([[0, 1, 2, 3, 4], [5, 6, 7, 8, 60]])
    with pytest.raises(InvalidCards, match=r"card index 60 \(row 1\) is outside 0..51"):
        batch(hands)
    with pytest.raises(InvalidCards, match=r"card index -3 \(row 0\)"):
        batch(np.array([[0, 1, 2, 3, -3]]))


@pytest.mark.parametrize("batch", [*BATCHES, evaluate.teen_patti_batch])
def test_batch_duplicates(batch: Callable[[Any], Any]) -> None:
    size = 3 if batch is evaluate.teen_patti_batch else 5
    hands = np.array([list(range(size)), [9, *range(10, 10 + size - 2), 9]])
    with pytest.raises(InvalidCards, match="row 1 holds a card twice") as caught:
        batch(hands)
    assert caught.value.code == "duplicate_card"
