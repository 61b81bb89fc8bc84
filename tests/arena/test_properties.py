"""Properties of any match: chips conserved, every bot in every seat of every deal."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from pokerhouse.arena import PlayedHand, play_match
from pokerhouse.games import get_game


@settings(max_examples=40, deadline=None)
@given(
    game=st.sampled_from(["3x4", "razz", "teen-patti", "casino-holdem"]),
    count=st.integers(min_value=2, max_value=10),
    hands=st.integers(min_value=1, max_value=4),
    seed=st.integers(min_value=0, max_value=2**64),
)
def test_chips_are_conserved_and_every_bot_plays_every_seat(
    game: str, count: int, hands: int, seed: int
) -> None:
    count = min(count, get_game(game).max_players)
    played: list[PlayedHand] = []
    result = play_match(game, ["random"] * count, hands=hands, seed=seed, on_hand=played.append)
    assert [bot.hands for bot in result.bots] == [hands * count] * count
    assert len(played) == hands * count
    # Each bot once in each seat of each deal.
    places = Counter(
        (hand.deal.number, seat, bot) for hand in played for seat, bot in enumerate(hand.seats)
    )
    assert len(places) == hands * count * count and set(places.values()) == {1}
    # No rake: every hand's nets (and the house's, at Casino Hold'em) sum to zero.
    assert all(sum(hand.net) + hand.house == 0 for hand in played)
    assert sum(bot.net for bot in result.bots) + result.house == 0
    assert result.house == sum(hand.house for hand in played)
    if not get_game(game).banked:
        assert result.house == 0
    for bot in result.bots:
        assert bot.net == sum(hand.net[hand.seats.index(bot.index)] for hand in played)
        low, high = bot.interval
        assert low <= bot.per_100 <= high
