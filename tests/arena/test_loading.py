"""Bots from their specs: the house bots, a class of the user's, and every way a spec fails."""

from __future__ import annotations

import random

import pytest

from pokerhouse.bots import RandomBot, RazzBot
from pokerhouse.bots.loading import load_bot
from pokerhouse.errors import InvalidSpec
from tests.arena.sample_bots import CallingStation, SeededCaller

SAMPLES = "tests.arena.sample_bots"


def test_house_bots_by_name() -> None:
    assert isinstance(load_bot("random", "razz"), RandomBot)
    assert isinstance(load_bot(" Smart ", "razz"), RazzBot)


def test_a_class_without_an_rng_is_made_with_no_arguments() -> None:
    bot = load_bot(f"{SAMPLES}:CallingStation", "3x4", rng=random.Random(1))
    assert type(bot) is CallingStation and bot.name == "calling-station"


def test_a_class_that_takes_an_rng_is_given_the_match_s() -> None:
    rng = random.Random(1)
    bot = load_bot(f"{SAMPLES}:SeededCaller", "3x4", rng=rng)
    assert type(bot) is SeededCaller and bot.rng is rng


@pytest.mark.parametrize(
    ("spec", "code", "words"),
    [
        ("genius", "unknown_bot", "unknown bot 'genius'"),
        (f"{SAMPLES}:", "unknown_bot", "is not module:Class"),
        ("no_such_module_anywhere:Bot", "bot_not_importable", "No module named"),
        ("tests.arena.raises_on_import:Bot", "bot_not_importable", "this module is broken"),
        (f"{SAMPLES}:Missing", "bot_not_found", f"module {SAMPLES} has no Missing"),
        (f"{SAMPLES}:not_a_class", "not_a_bot", "is not a class"),
        (f"{SAMPLES}:Chooseless", "not_a_bot", "has no choose(view) method"),
        (f"{SAMPLES}:Nameless", "not_a_bot", "has no name"),
        (f"{SAMPLES}:NeedsArguments", "bot_failed", "missing 1 required positional argument"),
    ],
)
def test_a_spec_that_names_no_bot_is_refused_with_its_code(
    spec: str, code: str, words: str
) -> None:
    with pytest.raises(InvalidSpec) as caught:
        load_bot(spec, "3x4")
    assert caught.value.code == code
    assert words in str(caught.value)
