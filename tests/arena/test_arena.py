"""The arena's duplicate deals and its intervals, on cases whose answers are known."""

from __future__ import annotations

import pytest

from pokerhouse.arena import PlayedHand, play_match
from pokerhouse.cards import Card
from pokerhouse.errors import PokerError
from pokerhouse.history.deals import dealt_cards
from pokerhouse.intervals import per_100
from tests.arena.sample_bots import CallingStation

GAMES = ["3x4", "razz", "teen-patti", "casino-holdem"]
POOL_GAMES = ["3x4", "razz", "teen-patti"]
STATION = "tests.arena.sample_bots:CallingStation"


def assert_same_but_shorter(runs: list[tuple[Card | None, ...]]) -> None:
    """Each run of cards is the start of the longest."""
    longest = max(runs, key=len)
    assert all(run == longest[: len(run)] for run in runs), runs


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("count", [2, 3, 6])
def test_every_deal_is_dealt_alike_in_every_rotation_of_the_seats(game: str, count: int) -> None:
    played: list[PlayedHand] = []
    play_match(game, ["random"] * count, hands=6, seed=11, on_hand=played.append)
    assert len(played) == 6 * count
    for number in range(1, 7):
        rotations = [hand for hand in played if hand.deal.number == number]
        assert [hand.rotation for hand in rotations] == list(range(count))
        # The cards each seat was really dealt (read from the hand's events), rotation by
        # rotation: the same, but for those a hand over early never dealt.
        dealt = [dealt_cards(hand.hand.events) for hand in rotations]
        for seat in range(count):
            assert_same_but_shorter([seats[seat] for seats, _ in dealt])
        assert_same_but_shorter([board for _, board in dealt])
        assert all(len(seats[seat]) >= 2 for seats, _ in dealt for seat in range(count))
        assert len({hand.deal.order for hand in rotations}) == 1
        # Bot i sits in seat (i + r) % count in rotation r: each bot in each seat once.
        for hand in rotations:
            assert hand.seats == tuple((seat - hand.rotation) % count for seat in range(count))
        for seat in range(count):
            assert sorted(hand.seats[seat] for hand in rotations) == list(range(count))
    assert len({hand.deal.order for hand in played}) == 6  # and the deals differ


@pytest.mark.parametrize("game", POOL_GAMES)
def test_random_against_random_holds_zero_and_conserves_chips(game: str) -> None:
    played: list[PlayedHand] = []
    result = play_match(game, ["random", "random"], hands=300, seed=5, on_hand=played.append)
    for bot in result.bots:
        low, high = bot.interval
        assert low < 0 < high
        assert bot.hands == 600
        assert bot.per_100 == pytest.approx(100 * bot.net / bot.hands)
    # No rake in the arena: what one bot won, the other lost, hand by hand.
    assert all(sum(hand.net) == 0 for hand in played)
    assert sum(bot.net for bot in result.bots) == 0 and result.house == 0


@pytest.mark.parametrize("game", POOL_GAMES)
def test_smart_against_smart_holds_zero(game: str) -> None:
    result = play_match(game, ["smart", "smart"], hands=60, seed=3)
    assert sum(bot.net for bot in result.bots) == 0
    for bot in result.bots:
        low, high = bot.interval
        assert low <= 0 <= high  # both ends 0 when the bots play every deal alike


def test_at_casino_holdem_best_play_against_itself_wins_exactly_alike() -> None:
    # Every bot plays every box of a deal against the same dealer: a deterministic
    # bot's boxes are the same boxes, whichever seat it started from.
    played: list[PlayedHand] = []
    result = play_match(
        "casino-holdem", ["smart", "smart", "smart"], hands=200, seed=8, on_hand=played.append
    )
    first = result.bots[0]
    assert all(
        (bot.net, bot.per_100, bot.interval) == (first.net, first.per_100, first.interval)
        for bot in result.bots
    )
    assert sum(bot.net for bot in result.bots) + result.house == 0
    assert result.house == sum(hand.house for hand in played)
    assert all(sum(hand.net) + hand.house == 0 for hand in played)


@pytest.mark.parametrize("game", POOL_GAMES)
@pytest.mark.parametrize("count", [2, 4])
def test_a_deterministic_bot_against_itself_breaks_exactly_even_on_every_deal(
    game: str, count: int
) -> None:
    # Same cards, same seat, same policy: each rotation repeats the others' hands,
    # so each bot's sample (its nets over a deal's rotations) is every seat's net: zero.
    result = play_match(game, [STATION] * count, hands=12, seed=2)
    for bot in result.bots:
        assert bot.name == "calling-station" and bot.spec == STATION
        assert (bot.net, bot.per_100, bot.interval) == (0, 0.0, (0.0, 0.0))


def test_bots_given_as_objects_are_named_by_their_class() -> None:
    result = play_match("razz", [CallingStation(), "random"], hands=20, seed=4)
    assert [bot.spec for bot in result.bots] == [STATION, "random"]
    assert sum(bot.net for bot in result.bots) == 0


def test_duplicate_deals_narrow_the_interval() -> None:
    # Against a calling station the cards decide most of a hand; rotated, their luck cancels.
    result = play_match("razz", ["random", STATION], hands=400, seed=6)
    duplicate = result.bots[0].interval
    played: list[PlayedHand] = []
    play_match("razz", ["random", STATION], hands=400, seed=6, on_hand=played.append)
    _, single = per_100([hand.net[hand.seats.index(0)] for hand in played])
    assert duplicate[1] - duplicate[0] < single[1] - single[0]


def test_the_same_seed_plays_the_same_match() -> None:
    first = play_match("3x4", ["random", "smart", "random"], hands=15, seed=9)
    second = play_match("3x4", ["random", "smart", "random"], hands=15, seed=9)
    assert first.bots == second.bots


def test_the_json_names_every_bot_and_the_match() -> None:
    result = play_match("teen-patti", ["random", STATION], hands=10, seed=1)
    data = result.as_dict()
    assert data["hands"] == 20 and data["deals"] == 10 and data["rotations"] == 2
    assert [bot["bot"] for bot in data["bots"]] == [1, 2]
    assert [bot["spec"] for bot in data["bots"]] == ["random", STATION]


@pytest.mark.parametrize(
    ("bot", "code"),
    [
        ("tests.arena.sample_bots:Cheater", "bot 2 (tests.arena.sample_bots:Cheater)"),
        ("tests.arena.sample_bots:Crasher", "ZeroDivisionError"),
    ],
)
def test_a_bot_that_breaks_the_rules_or_fails_is_named(bot: str, code: str) -> None:
    with pytest.raises(PokerError) as caught:
        play_match("3x4", ["random", bot], hands=5, seed=1)
    assert code in str(caught.value)


@pytest.mark.parametrize(
    ("game", "bots", "hands", "stack", "code"),
    [
        ("razz", ["random"], 5, 200, "bot_count"),
        ("razz", ["random"] * 9, 5, 200, "bot_count"),
        ("casino-holdem", ["random"] * 8, 5, 200, "bot_count"),
        ("3x4", ["random"] * 2, 0, 200, "bad_count"),
        ("3x4", ["random"] * 2, 5, 0, "bad_stack"),
        ("casino-holdem", ["random"] * 2, 5, 2, "bad_stack"),
        ("poker", ["random"] * 2, 5, 200, "unknown_game"),
    ],
)
def test_a_match_that_cannot_be_played_is_refused(
    game: str, bots: list[str], hands: int, stack: int, code: str
) -> None:
    with pytest.raises(PokerError) as caught:
        play_match(game, bots, hands=hands, stack=stack)
    assert caught.value.code == code


def test_razz_at_eight_seats_runs_short_of_cards_and_still_deals_every_card_once() -> None:
    # Calling stations take every seat to seventh street: 56 cards wanted from 52.
    played: list[PlayedHand] = []
    result = play_match("razz", [STATION] * 8, hands=5, seed=3, on_hand=played.append)
    assert sum(bot.net for bot in result.bots) == 0
    assert all(bot.net == 0 for bot in result.bots)  # alike in every seat, as ever
    for hand in played:
        seats, board = dealt_cards(hand.hand.events)
        cards = [card for held in seats.values() for card in held] + list(board)
        # Six cards each and one community card for seventh street, as the short-deck rule says.
        assert len(cards) == len(set(cards)) == 49 and len(board) == 1
        assert all(len(held) == 6 for held in seats.values())
        assert "deck_reshuffled" in [event.type_name for event in hand.hand.events]


def test_one_seed_deals_the_same_deals_whoever_plays_them() -> None:
    orders: list[list[tuple[Card, ...]]] = []
    for bots in (["random", "random"], ["smart", STATION, "random"], [CallingStation()] * 4):
        played: list[PlayedHand] = []
        play_match("teen-patti", bots, hands=5, seed=21, on_hand=played.append)
        orders.append([hand.deal.order for hand in played if hand.rotation == 0])
    assert orders[0] == orders[1] == orders[2] and len(set(orders[0])) == 5
