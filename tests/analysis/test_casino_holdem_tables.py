"""The analysis's lookup tables agree with the evaluator and with an independent one (eval7)."""

from __future__ import annotations

import random
import warnings

import numpy as np

from pokerhouse.analysis.casino_holdem.tables import NUM_CLASSES, hand_tables
from pokerhouse.cards import FULL_DECK, parse_cards
from pokerhouse.evaluate import high_value
from pokerhouse.games.casino_holdem.paytables import (
    AnteCategory,
    BonusCategory,
    ante_category,
    bonus_category,
)

with warnings.catch_warnings():  # eval7 imports a deprecated pyparsing name
    warnings.simplefilter("ignore")
    import eval7

EVAL7 = {card: eval7.Card(str(card)) for card in FULL_DECK}


def random_hands(size: int, count: int, seed: int) -> np.ndarray:
    rng = random.Random(seed)
    return np.array([rng.sample(range(52), size) for _ in range(count)])


def test_seven_card_classes_order_hands_as_the_evaluator_does() -> None:
    tables = hand_tables()
    hands = random_hands(7, 5000, 1)
    classes = tables.classes7(hands)
    values = np.array([high_value([FULL_DECK[c] for c in hand]) for hand in hands])
    assert (tables.values[classes] == values).all()


def test_five_card_classes_order_hands_as_the_evaluator_does() -> None:
    tables = hand_tables()
    hands = random_hands(5, 5000, 2)
    classes = tables.classes5(hands)
    values = np.array([high_value([FULL_DECK[c] for c in hand]) for hand in hands])
    assert (tables.values[classes] == values).all()


def test_seven_card_order_matches_eval7() -> None:
    tables = hand_tables()
    hands = random_hands(7, 4000, 3)
    ours = tables.classes7(hands)
    theirs = np.array([eval7.evaluate([EVAL7[FULL_DECK[c]] for c in hand]) for hand in hands])
    order = np.argsort(ours, kind="stable")
    # Sorted by our classes, eval7's values never go down, and ties agree.
    assert (np.diff(theirs[order]) >= 0).all()
    assert ((np.diff(ours[order]) == 0) == (np.diff(theirs[order]) == 0)).all()


def test_seven_card_hands_reach_4824_of_the_7462_classes() -> None:
    tables = hand_tables()
    popcount = np.array([bin(mask).count("1") for mask in range(1 << 13)])
    reachable = set(tables.nonflush7[tables.nonflush7 >= 0].tolist())
    reachable |= set(tables.flush[(popcount >= 5) & (popcount <= 7)].tolist())
    assert len(reachable) == 4824 and max(reachable) == NUM_CLASSES - 1


def test_class_thresholds() -> None:
    tables = hand_tables()
    assert tables.class_of(parse_cards("4c 4d 5h 3s 2c")) == tables.pair_of_fours
    assert tables.class_of(parse_cards("3c 3d Ah Ks Qc Jd 9h")) < tables.pair_of_fours
    assert tables.class_of(parse_cards("7s 5s 4s 3s 2s")) == tables.flush_min
    assert tables.class_of(parse_cards("As Ks Qs Js Ts 2c 2d")) == NUM_CLASSES - 1


def test_category_arrays_match_the_games_functions() -> None:
    tables = hand_tables()
    for cls in range(0, NUM_CLASSES, 7):
        value = int(tables.values[cls])
        assert tables.ante_category[cls] == ante_category(value)
        assert tables.bonus_category[cls] == bonus_category(value)
    assert tables.ante_category[-1] == AnteCategory.ROYAL_FLUSH
    assert tables.bonus_category[tables.pair_of_fours] == BonusCategory.LOSES
