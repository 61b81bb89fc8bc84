"""Actions: parsing, and the legal-action check with its error codes."""

from __future__ import annotations

import pytest

from pokerhouse.engine.actions import Action, ActionKind, LegalAction, LegalActions
from pokerhouse.errors import IllegalAction, InvalidAction

LEGAL = LegalActions(
    (
        LegalAction(ActionKind.FOLD),
        LegalAction(ActionKind.CALL),
        LegalAction(ActionKind.RAISE, 20, 90),
    ),
    stack_limit=90,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("fold", Action.fold()),
        ("  CALL ", Action.call()),
        ("r 60", Action.raise_to(60)),
        ("bet 10", Action.bet(10)),
        ("x", Action.check()),
        ("bring-in", Action(ActionKind.BRING_IN)),
    ],
)
def test_parse_reads_what_a_person_types(text: str, expected: Action) -> None:
    assert Action.parse(text) == expected


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "empty_action"),
        ("jump", "unknown_action"),
        ("bet ten", "bad_amount"),
        ("bet 1 2", "malformed_action"),
    ],
)
def test_parse_rejects_nonsense_with_a_code(text: str, code: str) -> None:
    with pytest.raises(InvalidAction) as error:
        Action.parse(text)
    assert error.value.code == code


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (Action.raise_to(10), "amount_too_small"),
        (Action.raise_to(95), "amount_exceeds_stack"),
        (Action.check(), "cannot_check"),
        (Action.bet(30), "raise_required"),
    ],
)
def test_check_names_what_is_wrong(action: Action, code: str) -> None:
    with pytest.raises(IllegalAction) as error:
        LEGAL.check(action)
    assert error.value.code == code
    assert str(error.value)


def test_amount_above_maximum_within_stack() -> None:
    legal = LegalActions((LegalAction(ActionKind.BET, 5, 30),), stack_limit=100)
    with pytest.raises(IllegalAction) as error:
        legal.check(Action.bet(31))
    assert error.value.code == "amount_too_large"


def test_legal_actions_pass_through() -> None:
    assert LEGAL.check(Action.raise_to(90)) == Action.raise_to(90)
    assert LEGAL.check(Action.call()) == Action.call()


@pytest.mark.parametrize("text", ["bet ²", "raise 1²", "bet " + "9" * 5000])
def test_parse_reads_only_plain_whole_numbers(text: str) -> None:
    # Superscripts pass str.isdigit but not int(); a 5000-digit number is past
    # Python's conversion limit: both must be a coded error, not a ValueError.
    with pytest.raises(InvalidAction) as error:
        Action.parse(text)
    assert error.value.code == "bad_amount"


@pytest.mark.parametrize("text", ["b -5", "raise -120"])
def test_a_negative_amount_is_said_to_need_to_be_positive(text: str) -> None:
    with pytest.raises(InvalidAction) as error:
        Action.parse(text)
    assert error.value.code == "bad_amount"
    assert "must be positive" in str(error.value)
    assert "not a whole number" not in str(error.value)
