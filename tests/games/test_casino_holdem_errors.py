"""Casino Hold'em bad input: every refusal has its own code and changes nothing."""

from __future__ import annotations

import pickle
import random

import pytest

from pokerhouse.cards import Deck
from pokerhouse.engine import Action, ActionKind
from pokerhouse.errors import IllegalAction, InvalidAction, InvalidSpec, OutOfTurn, PokerError
from pokerhouse.games import new_hand
from pokerhouse.games.casino_holdem import (
    AntePays,
    BonusPays,
    CasinoHoldemHand,
    CasinoHoldemSpec,
)


def hand(**kwargs: object) -> CasinoHoldemHand:
    stacks = kwargs.pop("stacks", [100, 100])
    spec = kwargs.pop("spec", CasinoHoldemSpec(min_ante=5, max_ante=50))
    return CasinoHoldemHand(spec, stacks, Deck(random.Random(1)), **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"antes": [4, 10]}, "ante_below_minimum"),
        ({"antes": [10, 51]}, "ante_above_maximum"),
        ({"antes": [10, 10], "bonuses": [11, 0]}, "bonus_above_ante"),
        ({"antes": [10, 10], "bonuses": [0, 4]}, "bonus_below_minimum"),
        ({"antes": [50, 10], "bonuses": [0, 0], "stacks": [49, 100]}, "stack_too_small"),
        ({"antes": [40, 10], "bonuses": [20, 0], "stacks": [59, 100]}, "stack_too_small"),
        ({"antes": [10]}, "bad_setup"),
        ({"antes": [10, "10"]}, "bad_setup"),
        ({"stacks": []}, "player_count"),
        ({"stacks": [100] * 8}, "player_count"),
    ],
)
def test_bad_bets_are_refused_with_their_own_code(kwargs: dict[str, object], code: str) -> None:
    with pytest.raises(InvalidSpec) as error:
        hand(**kwargs)
    assert error.value.code == code


def test_bonus_minimum_defaults_to_the_table_minimum_and_can_be_set() -> None:
    hand(antes=[10, 10], bonuses=[5, 0])
    spec = CasinoHoldemSpec(min_ante=5, max_ante=50, bonus_min=2)
    hand(spec=spec, antes=[10, 10], bonuses=[2, 0])


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"min_ante": 0}, "bad_spec"),
        ({"min_ante": 10, "max_ante": 5}, "bad_limits"),
        ({"max_payout": -1}, "bad_spec"),
        ({"bonus_min": 0}, "bad_spec"),
        ({"ante_pays": "100,20,10"}, "bad_pay_table"),
        ({"ante_pays": "royal=100"}, "bad_pay_table"),
        ({"ante_pays": "flush=two"}, "bad_pay_table"),
        ({"bonus_pays": "generous"}, "bad_pay_table"),
        ({"bonus_pays": 7}, "bad_pay_table"),
    ],
)
def test_bad_specs_are_refused(options: dict[str, object], code: str) -> None:
    with pytest.raises(InvalidSpec) as error:
        CasinoHoldemSpec(**options)  # type: ignore[arg-type]
    assert error.value.code == code


def test_pay_tables_read_from_text_and_mappings() -> None:
    assert CasinoHoldemSpec(ante_pays="200,20,10,3,2,1").ante_pays == AntePays(royal_flush=200)
    assert CasinoHoldemSpec(ante_pays={"flush": 3}).ante_pays.flush == 3
    assert CasinoHoldemSpec(bonus_pays="common").bonus_pays == BonusPays.named("common")
    assert BonusPays.coerce("100,50,40,30,20,7,7,7,7") == BonusPays.named("common")
    assert CasinoHoldemSpec(bonus_pays="pair_of_aces=8").bonus_pays.pair_of_aces == 8


def test_a_call_of_the_wrong_size_is_refused_and_changes_nothing() -> None:
    table = hand(antes=[10, 20])
    before = pickle.dumps(table)
    with pytest.raises(IllegalAction) as error:
        table.act(Action(ActionKind.CALL, 30))
    assert error.value.code == "wrong_call_amount"
    assert "20" in str(error.value)
    assert pickle.dumps(table) == before
    table.act(Action(ActionKind.CALL, 20))  # exactly twice the ante is fine
    with pytest.raises(IllegalAction) as error:
        table.act(Action(ActionKind.CALL, 20))
    assert error.value.code == "wrong_call_amount"


@pytest.mark.parametrize(
    ("action", "error_type", "code"),
    [
        (Action.check(), IllegalAction, "action_not_allowed"),
        (Action.bet(20), IllegalAction, "action_not_allowed"),
        (Action.raise_to(40), IllegalAction, "action_not_allowed"),
        (Action(ActionKind.SHOW_HAND), IllegalAction, "action_not_allowed"),
        (Action(ActionKind.FOLD, 5), InvalidAction, "unexpected_amount"),
        ("call", InvalidAction, "not_an_action"),
    ],
)
def test_other_actions_are_refused(action: object, error_type: type, code: str) -> None:
    table = hand(antes=[10, 10])
    before = pickle.dumps(table)
    with pytest.raises(error_type) as error:
        table.act(action)  # type: ignore[arg-type]
    assert error.value.code == code
    assert pickle.dumps(table) == before


def test_out_of_turn_and_after_the_end() -> None:
    table = hand(antes=[10, 10])
    with pytest.raises(OutOfTurn):
        table.act(Action.call(), seat=1)
    table.act(Action.fold())
    table.act(Action.fold())
    with pytest.raises(IllegalAction) as error:
        table.act(Action.call())
    assert error.value.code == "hand_over"


def test_house_result_only_when_over() -> None:
    table = hand(antes=[10, 10])
    with pytest.raises(IllegalAction) as error:
        _ = table.house_result
    assert error.value.code == "hand_not_over"


def test_cannot_afford_call_has_its_own_code() -> None:
    table = hand(stacks=[20, 100], antes=[10, 10])
    before = pickle.dumps(table)
    with pytest.raises(IllegalAction) as error:
        table.act(Action.call())
    assert error.value.code == "cannot_afford_call"
    assert pickle.dumps(table) == before


def test_new_hand_passes_bets_through() -> None:
    with pytest.raises(PokerError) as error:
        new_hand("casino-holdem", [100], seed=1, antes=[1000])
    assert error.value.code == "ante_above_maximum"
