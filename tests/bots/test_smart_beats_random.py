"""Each pool game's sensible bot beats the random bot by more than the 95% interval."""

from __future__ import annotations

import random

import pytest

from pokerhouse.cli.simulate import simulate

#: Heads-up, so every chip the smart bot wins the random bot loses; seeded throughout.
HANDS = 2000


@pytest.mark.parametrize("game", ["3x4", "razz", "teen-patti"])
def test_smart_bot_beats_random_bot_outside_the_95_percent_interval(game: str) -> None:
    result = simulate(game, ["smart", "random"], hands=HANDS, stack=200, rng=random.Random(2024))
    smart, rand = result.seats
    assert result.chips_conserved
    assert (smart.bot, rand.bot) == ("smart", "random")
    low, _ = smart.ci95
    # The whole interval of the smart bot's result per 100 hands is above zero.
    assert low > 0, f"{game}: smart {smart.per_100:+.1f}/100 hands, interval {smart.ci95}"
    assert rand.rebuys > 0
