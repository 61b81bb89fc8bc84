"""The pro bots, the exploiter and the station: legal in every game, reading, beating the rest.

The arena's full proof (20,000 deals a match) is ``bench/house_bots.py``; here
shorter duplicate matches, seeded, show the same: the pro bot's whole 95%
interval lies above zero against the smart bot, the exploiter and the
calling station.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerhouse.arena import play_match
from pokerhouse.bots import (
    ExploiterBot,
    Persona,
    RazzProBot,
    StationBot,
    TeenPattiProBot,
    ThreeByFourProBot,
)
from pokerhouse.bots import get as get_bot
from pokerhouse.bots.base import hand_over, new_hand
from pokerhouse.bots.pro import MAX_SAMPLES, MIN_SAMPLES
from pokerhouse.engine.actions import SIZED_KINDS, ActionKind
from pokerhouse.errors import InvalidSpec
from pokerhouse.games import get_game
from pokerhouse.games import new_hand as deal

POOL_GAMES = ["3x4", "razz", "teen-patti"]
KINDS = ["pro", "smart", "exploiter", "station", "random"]


@settings(max_examples=40, deadline=None)
@given(
    game=st.sampled_from(POOL_GAMES),
    kinds=st.lists(st.sampled_from(KINDS), min_size=2, max_size=6),
    seed=st.integers(0, 2**32 - 1),
)
def test_every_bot_plays_legal_hands_to_the_end_in_every_pool_game(
    game: str, kinds: list[str], seed: int
) -> None:
    """Mixed tables of every kind of bot, several hands each bot remembering the last."""
    rng = random.Random(seed)
    info = get_game(game)
    kinds = kinds[: info.max_players]
    bots = [get_bot(kind, game=game, rng=random.Random(rng.random())) for kind in kinds]
    names = [f"p{index}" for index in range(len(bots))]
    for _ in range(3):
        hand = deal(game, [200] * len(bots), seed=rng.getrandbits(32))
        for bot in bots:
            new_hand(bot, names)
        while not hand.is_over:
            seat = hand.to_act
            assert seat is not None
            hand.act(bots[seat].choose(hand.view(seat)))  # an illegal action raises
        assert sum(hand.results()) == 0
        for seat, bot in enumerate(bots):
            hand_over(bot, hand.view(seat))


def test_a_pro_bot_learns_who_folds_and_who_calls() -> None:
    """Against the exploiter its bets are always folded to; against the station never."""
    for opponent, low, high in (("exploiter", 0.85, 1.0), ("station", 0.0, 0.1)):
        pro = ThreeByFourProBot(rng=random.Random(4), persona=Persona(0.0, 0.8))
        play_match("3x4", [pro, opponent], hands=150, seed=9)
        record = pro.reads.records["bot 2"]  # the opponent's, by the name the arena gives
        assert record.faced >= 20, record
        assert low <= record.folded / record.faced <= high, (opponent, record)


def test_the_exploiter_and_the_station_play_as_named() -> None:
    hand = deal("3x4", [100, 100, 100], seed=3)
    first = hand.to_act
    assert first is not None
    opening = ExploiterBot().choose(hand.view(first))
    assert opening.kind in SIZED_KINDS and opening.amount == hand.view(first).pot
    hand.act(opening)
    seat = hand.to_act
    assert seat is not None
    assert ExploiterBot().choose(hand.view(seat)).kind is ActionKind.FOLD
    assert StationBot().choose(hand.view(seat)).kind is ActionKind.CALL


def test_a_style_is_drawn_per_bot_and_checked() -> None:
    styles = {RazzProBot(rng=random.Random(seed)).persona for seed in range(20)}
    assert len(styles) > 10
    labels = {style.label for style in styles}
    assert labels == {"tight-aggressive", "tight-passive", "loose-aggressive", "loose-passive"}
    for tightness, aggression in ((2.0, 0.5), (0.0, -0.1), (float("nan"), 0.5)):
        with pytest.raises(InvalidSpec) as refused:
            Persona(tightness, aggression)
        assert refused.value.code == "bad_persona"


def test_a_pro_bot_keeps_to_a_tiny_budget_and_still_plays() -> None:
    """With a budget of a microsecond it deals the fewest completions and decides legally."""
    bot = ThreeByFourProBot(rng=random.Random(1), budget=1e-6)
    hand = deal("3x4", [200, 200, 200], seed=5)
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        hand.act(bot.choose(hand.view(seat)))  # an illegal action raises
    assert sum(hand.results()) == 0
    assert bot.samples == MIN_SAMPLES  # the deals' measured cost leaves room for no more
    roomy = ThreeByFourProBot(rng=random.Random(1), budget=10.0)
    roomy.equity(deal("3x4", [200, 200], seed=6).view(0))
    assert roomy.samples == MAX_SAMPLES


@pytest.mark.parametrize("game", POOL_GAMES)
@pytest.mark.parametrize("opponent", ["exploiter", "station"])
def test_the_pro_bot_beats_the_fixed_strategies(game: str, opponent: str) -> None:
    result = play_match(game, ["pro", opponent], hands=400, seed=11)
    pro = result.bots[0]
    low, _ = pro.interval
    assert low > 0, f"{game}: pro {pro.per_100:+.1f} per 100 against {opponent}, {pro.interval}"


@pytest.mark.slow
@pytest.mark.parametrize("game", POOL_GAMES)
def test_the_pro_bot_beats_the_smart_bot(game: str) -> None:
    result = play_match(game, ["pro", "smart"], hands=1500, seed=12)
    pro = result.bots[0]
    low, _ = pro.interval
    assert low > 0, f"{game}: pro {pro.per_100:+.1f} per 100 against smart, {pro.interval}"


def test_the_teen_patti_pro_bot_raises_blind_into_players_who_always_fold() -> None:
    """Once it has seen the exploiter fold to every raise, it raises every hand it can."""
    pro = TeenPattiProBot(rng=random.Random(2), persona=Persona(0.0, 0.5))
    play_match("teen-patti", [pro, "exploiter"], hands=200, seed=3)
    record = pro.reads.records["bot 2"]
    assert record.faced > 50 and record.folded / record.faced > 0.85, record
