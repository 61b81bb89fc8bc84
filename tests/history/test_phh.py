"""PHH for Razz: reading, writing, seat mapping and bad input."""

from __future__ import annotations

import random
import tomllib

import pytest

from pokerhouse.cards import ScriptedDeck, parse_cards
from pokerhouse.engine import Action
from pokerhouse.errors import HistoryError
from pokerhouse.games import new_hand
from pokerhouse.games.razz import RazzHand, RazzSpec
from pokerhouse.history import read_phh, replay_phh, to_phh
from pokerhouse.history.phh import parse_phh_cards
from tests.helpers import play_out
from tests.history.test_wsop_razz import LOCAL

HAND_24 = (LOCAL / "wsop-2023-43-5-24-razz.phh").read_text()


def played(seed: int, players: int = 4) -> RazzHand:
    hand = new_hand("razz", [150] * players, seed=seed)
    play_out(hand, random.Random(seed))
    assert isinstance(hand, RazzHand)
    return hand


# ---------------------------------------------------------------- reading


def test_read_phh_gives_the_standard_fields() -> None:
    history = read_phh(HAND_24)
    assert history.variant == "FR"
    assert history.antes == (50000,) * 5
    assert (history.bring_in, history.small_bet, history.big_bet) == (50000, 200000, 400000)
    assert history.players == (
        "James Obst",
        "Talal Shakerchi",
        "Brian Rast",
        "Matthew Ashton",
        "Kristopher Tong",
    )
    assert history.ante_trimming_status is True
    assert history.metadata["hand"] == 24 and history.metadata["city"] == "Las Vegas"
    assert history.actions[0].text == "d dh p1 6s3hKh"
    assert history.actions[0].line == 8  # the actions list is on line 8


def test_phh_player_one_is_our_seat_zero_first_left_of_the_dealer() -> None:
    hand = replay_phh(HAND_24)
    assert parse_phh_cards("6s3hKh") == tuple(hand.cards[0])  # type: ignore[attr-defined]
    assert parse_phh_cards("5h4hJs") == tuple(hand.cards[4])  # type: ignore[attr-defined]


def test_parse_phh_cards_reads_unknown_cards() -> None:
    assert parse_phh_cards("??Kc") == (None, parse_cards("Kc")[0])
    with pytest.raises(HistoryError, match="two-letter cards"):
        parse_phh_cards("Kc7")


def test_unknown_hole_cards_are_filled_when_nobody_shows_them() -> None:
    # Hand 20 ends by a fold: nobody's down cards matter, so they may be unknown.
    text = (LOCAL / "wsop-2023-43-5-20-razz.phh").read_text()
    hidden = text.replace("'d dh p4 Qd7h2d'", "'d dh p4 ????2d'")
    assert replay_phh(hidden).stacks == read_phh(text).finishing_stacks


# ---------------------------------------------------------------- writing


def test_written_phh_is_valid_toml_with_the_required_fields() -> None:
    hand = played(1)
    data = tomllib.loads(to_phh(hand, players=["Ann", "Bo", "Cy", "Di"], event="club night"))
    for name in ("variant", "antes", "bring_in", "small_bet", "big_bet", "starting_stacks"):
        assert name in data
    assert data["variant"] == "FR"
    assert data["antes"] == [1, 1, 1, 1]
    assert data["players"] == ["Ann", "Bo", "Cy", "Di"]
    assert data["event"] == "club night"
    assert data["finishing_stacks"] == list(hand.stacks)
    assert data["actions"][0].startswith("d dh p1 ")


def test_written_phh_replays_in_ours_to_identical_events() -> None:
    for seed in range(40):
        hand = played(seed, players=2 + seed % 7)
        again = replay_phh(to_phh(hand))
        assert again.stacks == hand.stacks
        assert again.actions == hand.actions


def test_unfinished_hand_is_written_without_finishing_stacks() -> None:
    hand = new_hand("razz", [100, 100, 100], seed=3)
    hand.act(Action.parse("bring_in"))
    text = to_phh(hand)
    assert "finishing_stacks" not in text
    again = replay_phh(text)
    assert not again.is_over and again.to_act == hand.to_act


def test_only_razz_is_written_as_phh() -> None:
    with pytest.raises(HistoryError, match="no variant for 3x4") as caught:
        to_phh(new_hand("3x4", [100, 100], seed=1))
    assert caught.value.code == "unsupported_game"


def test_strings_with_quotes_are_written_as_valid_toml() -> None:
    text = to_phh(played(2), event='Bob\'s "big" game\n')
    assert tomllib.loads(text)["event"] == 'Bob\'s "big" game\n'


def test_all_in_hands_show_before_the_last_cards_as_pokerkit_expects() -> None:
    spec = RazzSpec(ante=1, bring_in=2, small_bet=5, big_bet=10)
    cards = {0: parse_cards("2c 3c Kd Qc Jc Tc 9c"), 1: parse_cards("4c 5c 7h 8d 6d 4d 3d")}
    hand = RazzHand(spec, [8, 100], ScriptedDeck(cards))
    while not hand.is_over:
        legal = hand.legal_actions()
        hand.act(Action(legal.kinds[-1], legal.actions[-1].min_amount))
    actions = tomllib.loads(to_phh(hand))["actions"]
    first_show = next(i for i, a in enumerate(actions) if " sm " in a)
    assert any(a.startswith("d dh") for a in actions[first_show:])


# ---------------------------------------------------------------- bad input


def test_malformed_toml_names_the_line() -> None:
    broken = HAND_24.replace("bring_in = 50000", "bring_in = = 50000")
    with pytest.raises(HistoryError, match=r"not valid TOML: .*line 4, column 12") as caught:
        read_phh(broken)
    assert caught.value.code == "bad_phh"


def test_truncated_phh_is_refused() -> None:
    with pytest.raises(HistoryError, match="not valid TOML"):
        read_phh(HAND_24[: len(HAND_24) // 2])
    without = "\n".join(line for line in HAND_24.splitlines() if not line.startswith("actions"))
    with pytest.raises(HistoryError, match="has no actions") as caught:
        read_phh(without)
    assert caught.value.code == "truncated_history"


def test_phh_whose_actions_stop_early_is_truncated() -> None:
    cut = HAND_24.replace(", 'p3 cbr 400000', 'p2 cc', 'p3 sm 4s3d2d8s3s5s6c', 'p2 sm']", "]")
    assert cut != HAND_24
    with pytest.raises(HistoryError, match="stop before the hand ends") as caught:
        replay_phh(cut)
    assert caught.value.code == "truncated_history"


@pytest.mark.parametrize(
    ("variant", "message"),
    [
        ("F7S", r"'F7S' \(fixed-limit seven card stud\) is not played here"),
        ("NT", "no-limit Texas hold'em"),
        ("XYZ", "unknown PHH variant 'XYZ'"),
    ],
)
def test_unknown_variant_is_refused(variant: str, message: str) -> None:
    with pytest.raises(HistoryError, match=message) as caught:
        read_phh(HAND_24.replace("variant = 'FR'", f"variant = '{variant}'"))
    assert caught.value.code == "unknown_variant"


def test_illegal_action_names_the_line_and_the_action() -> None:
    bad = HAND_24.replace("'p3 cbr 200000', 'p4 f'", "'p3 cbr 250000', 'p4 f'")
    with pytest.raises(HistoryError, match=r"line 8, action 7 'p3 cbr 250000'") as caught:
        replay_phh(bad)
    assert caught.value.code == "illegal_action"


def test_action_out_of_turn_is_named() -> None:
    bad = HAND_24.replace("'p1 pb', 'p2 cc'", "'p2 pb', 'p2 cc'")
    with pytest.raises(HistoryError, match=r"action 5 'p2 pb': p2 acts out of turn.*p1") as c:
        replay_phh(bad)
    assert c.value.code == "out_of_turn"


def test_actions_one_per_line_get_their_own_line_numbers() -> None:
    hand = played(5)
    text = to_phh(hand).replace("'p1 f'", "'p1 x'", 1)
    if "'p1 x'" not in text:
        text = to_phh(hand).replace("'p2 cc'", "'p2 x'", 1)
    target = next(i for i, line in enumerate(text.splitlines(), 1) if "x'," in line)
    with pytest.raises(HistoryError, match=rf"line {target}, action \d+ 'p\d x'"):
        replay_phh(text)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("'d dh p1 6s3hKh'", "'d dh p9 6s3hKh'", "'p9' is not a player"),
        ("'d dh p1 6s3hKh'", "'d dh p1 6s3hKX'", "unknown suit"),
        ("'d dh p1 6s3hKh'", "'d dh p1 6s3hKd'", "deals Kd twice"),
        ("'p1 pb'", "'p1 dance'", "not a razz action"),
        ("'d dh p1 6s3hKh'", "'d dh p1'", "action 0 'd dh p1': not a dealing action"),
        ("'d dh p1 6s3hKh'", "'d xx p1 6s3hKh'", "not a dealing action"),
        ("'p3 sm 4s3d2d8s3s5s6c'", "'p3 sm 4s3d2d8s3s5sXX'", r"action 29 .*unknown rank 'X'"),
        ("'p2 cc'", "'p2 cbr lots'", "'lots' is not a whole number"),
        ("'p2 cc'", "'p2 cbr ²'", "'²' is not a whole number"),
        ("'p2 cc'", "'p2 cbr -5'", "'-5' is not a whole number"),
        ("'p2 cc'", f"'p2 cbr {'9' * 5000}'", "an amount of 5000 digits is too long"),
        ("'p2 cc'", f"'p{'1' * 5000} cc'", "is not a player"),
        ("'d dh p1 6s3hKh'", f"'d dh p{'1' * 5000} 6s3hKh'", "is not a player"),
        ("'p3 sm 4s3d2d8s3s5s6c'", "'p3 sm 4s3d2d8s3s5sAc'", "p3 was never dealt Ac"),
        ("finishing_stacks = [6500000,", "finishing_stacks = [6500001,", "the replay gives"),
        ("bring_in = 50000", "bring_in = 500000", "bring-in .* must be smaller"),
        ("antes = [50000, 50000, 50000, 50000, 50000]", "antes = [1, 2, 3, 4, 5]", "differ"),
        ("antes = [50000, 50000, 50000, 50000, 50000]", "antes = [1]", "1 antes for 5"),
        ("small_bet = 200000", "small_bet = 'big'", "'small_bet' must be a whole number"),
    ],
)
def test_bad_phh_is_refused_with_a_clear_error(old: str, new: str, message: str) -> None:
    assert old in HAND_24
    with pytest.raises(HistoryError, match=message):
        replay_phh(HAND_24.replace(old, new))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("variant = 'FR'\nx = " + "[" * 100_000, "nested too deeply"),
        ("variant = 'FR'\nx = " + "9" * 5000, "a number too long"),
    ],
)
def test_hostile_toml_is_refused_as_bad_phh(text: str, message: str) -> None:
    with pytest.raises(HistoryError, match=message) as caught:
        read_phh(text)
    assert caught.value.code == "bad_phh"


@pytest.mark.parametrize("variant", ["['FR']", "{ name = 'FR' }", "7"])
def test_a_variant_that_is_not_text_is_refused(variant: str) -> None:
    with pytest.raises(HistoryError, match="unknown PHH variant") as caught:
        read_phh(HAND_24.replace("variant = 'FR'", f"variant = {variant}"))
    assert caught.value.code == "unknown_variant"


def test_player_count_must_be_two_to_eight() -> None:
    one = HAND_24.replace(
        "starting_stacks = [6600000, 5425000, 4575000, 7050000, 6050000]",
        "starting_stacks = [6600000]",
    )
    with pytest.raises(HistoryError, match="2 to 8 players, not 1"):
        read_phh(one)
