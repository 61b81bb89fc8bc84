"""Where PokerKit's Razz and our rule book (RULES.md) part ways, one hand each.

Each test plays the same hand in both engines and pins down what each does,
so a change on either side shows up here. RULES.md wins for our engine; the
list is in docs/histories.md.
"""

from __future__ import annotations

import random

import pytest

from pokerhouse.cards import Deck, ScriptedDeck, parse_cards
from pokerhouse.engine import Action, ActionKind
from pokerhouse.errors import HistoryError
from pokerhouse.games.razz import RazzHand, RazzSpec
from pokerhouse.history import replay_phh, to_phh
from tests.history.pokerkit_play import PokerKitRefused, pokerkit_stacks

SPEC = RazzSpec(ante=1, bring_in=2, small_bet=5, big_bet=10)


def deal(cards: list[str], stacks: list[int], spec: RazzSpec = SPEC) -> RazzHand:
    seats = {seat: parse_cards(text) for seat, text in enumerate(cards)}
    return RazzHand(spec, stacks, ScriptedDeck(seats))


def act(hand: RazzHand, *moves: str) -> None:
    for move in moves:
        hand.act(Action.parse(move))


def play_one_passive(hand: RazzHand) -> None:
    legal = hand.legal_actions()
    kind = next(k for k in (ActionKind.BRING_IN, ActionKind.CHECK, ActionKind.CALL) if k in legal)
    hand.act(Action(kind))


def play_passively(hand: RazzHand) -> None:
    while not hand.is_over:
        play_one_passive(hand)


def phh(actions: list[str], stacks: list[int], *, ante: int, bring_in: int) -> str:
    quoted = ", ".join(f"'{action}'" for action in actions)
    return (
        "variant = 'FR'\nante_trimming_status = true\n"
        f"antes = {[ante] * len(stacks)}\nbring_in = {bring_in}\nsmall_bet = 5\nbig_bet = 10\n"
        f"starting_stacks = {stacks}\nactions = [{quoted}]\n"
    )


def test_short_bring_in_ours_others_call_the_full_bring_in_pokerkit_the_short_one() -> None:
    spec = RazzSpec(ante=1, bring_in=4, small_bet=10, big_bet=20)
    hand = deal(
        ["Kc Qc Kd Jc Tc 9c 8c", "Ac 2c 3c 4c 5c 6c 7c", "9h 8h 7h 9d 8d 7d 6d"],
        [3, 100, 100],
        spec,
    )
    play_passively(hand)  # seat 0 brings in 2 (all it has); the others call
    assert hand.stacks == (0, 108, 95)  # the callers put in the full bring-in of 4
    assert pokerkit_stacks(to_phh(hand)) == (0, 106, 97)  # PokerKit: they call 2


def test_short_all_in_raise_counts_toward_pokerkits_cap_not_ours() -> None:
    # Fourth street: bet 5, raise 10, an all-in "raise" to 12 (short), raise 17, raise 22.
    hand = deal(["2c 3c Kd Qd", "4c 5c 5h 4h", "6c 7c 6h 3h"], [15, 100, 100])
    act(hand, "bring_in", "call", "call")
    assert hand.to_act == 1
    act(hand, "bet 5", "raise 10", "raise 12", "raise 17")
    assert hand.all_in[0]
    assert "raise" in hand.legal_actions()  # ours: the short all-in was not a raise
    act(hand, "raise 22")
    play_passively(hand)
    with pytest.raises(PokerKitRefused, match="'p3 cbr 22': No more completion"):
        pokerkit_stacks(to_phh(hand))


def test_after_a_short_all_in_completion_ours_completes_pokerkit_raises_over_it() -> None:
    hand = deal(["2c 3c 8d", "4c 5c Kh", "6c 8c 9h"], [100, 100, 4])
    act(hand, "bring_in", "complete 3")  # seat 2 has 3 behind: completes all-in to 3
    assert hand.all_in[2]
    assert [str(a) for a in hand.legal_actions()] == ["fold", "call", "complete 5"]
    act(hand, "complete 5", "call")
    play_passively(hand)
    with pytest.raises(PokerKitRefused, match=r"'p1 cbr 5': The amount 5 is below .* 8"):
        pokerkit_stacks(to_phh(hand))


def test_pokerkit_reopens_the_betting_after_a_short_all_in_over_a_completion() -> None:
    # p1 brings in 4, p2 completes to 5, p3 raises all-in to 9 (4 short of a full raise).
    # PokerKit measures the completion from the bring-in (1 chip) and lets p2 raise again.
    text = phh(
        [
            "d dh p1 2c3cKd",
            "d dh p2 4c5c7h",
            "d dh p3 6c8c9h",
            "p1 pb",
            "p2 cbr 5",
            "p3 cbr 9",
            "p1 cc",
            "p2 cbr 14",
            "p1 cc",
        ],
        [100, 100, 10],
        ante=1,
        bring_in=4,
    )
    assert pokerkit_stacks(text, finish=False) == (85, 85, 0)  # PokerKit takes the re-raise
    with pytest.raises(HistoryError, match=r"action 7 'p2 cbr 14': no bet or raise is allowed"):
        replay_phh(text)


def test_odd_chips_ours_one_each_clockwise_pokerkit_all_to_the_first_winner() -> None:
    spec = RazzSpec(ante=2, bring_in=2, small_bet=5, big_bet=10)
    hand = deal(
        ["7c 5c Kc 4c 3c 2c Qc", "7d 5d Kd 4d 3d 2d Qd", "7h 5h Kh 4h 3h 2h Qh", "9s 8s Ts"],
        [100] * 4,
        spec,
    )
    act(hand, "bring_in", "fold")  # seat 2 (Kh) brings in; seat 3 folds
    play_passively(hand)  # the pot of 14 is split three ways
    assert hand.stacks == (101, 101, 100, 98)
    assert pokerkit_stacks(to_phh(hand)) == (102, 100, 100, 98)


def test_short_deck_eight_players_both_deal_a_community_card() -> None:
    hand = RazzHand(SPEC, [100] * 8, Deck(random.Random(8)))
    play_passively(hand)
    text = to_phh(hand)
    assert "'d db " in text
    assert pokerkit_stacks(text) == hand.stacks


def test_short_deck_ours_deals_a_community_card_pokerkit_reuses_folded_cards() -> None:
    # Eight players, one folds on fourth street, seven reach seventh street with
    # three cards in the stub: ours shuffles the three burned cards in (six cards,
    # still short) and deals a community card; PokerKit deals the folded player's
    # cards again, so it has no community card to deal.
    hand = RazzHand(SPEC, [100] * 8, Deck(random.Random(8)))
    while not hand.is_over:
        assert hand.street is not None
        if hand.street.name == "fourth" and hand.to_act == 1 and not hand.folded[1]:
            act(hand, "fold")
        else:
            play_one_passive(hand)
    assert sum(not folded for folded in hand.folded) == 7
    text = to_phh(hand)
    assert "'d db " in text
    with pytest.raises(PokerKitRefused, match=r"'d db .*No board dealing is pending"):
        pokerkit_stacks(text)
    assert replay_phh(text).stacks == hand.stacks  # our own PHH reads back


def test_pokerkit_reusing_a_folded_players_card_is_refused_with_the_reason() -> None:
    text = phh(
        ["d dh p1 2c3cKd", "d dh p2 4c5c7h", "p1 pb", "p2 f", "d dh p1 4c"],
        [100, 100],
        ante=1,
        bring_in=2,
    )
    with pytest.raises(HistoryError, match=r"deals 4c twice.*PokerKit deals folded") as caught:
        replay_phh(text)
    assert caught.value.code == "duplicate_card"


def test_raise_nobody_can_call_is_written_as_a_call_for_pokerkit() -> None:
    # Seat 1 brings in all-in; seat 0, still to act, has just the bring-in behind.
    # Seat 2 may complete by our rules (the part nobody calls comes back);
    # PokerKit only lets it call, so the PHH says "cc".
    hand = deal(["2c 3c 8d", "4c 5c Kh", "6c 8c 9h"], [3, 3, 100])
    act(hand, "bring_in")
    assert hand.all_in[1] and not hand.all_in[0]
    assert hand.to_act == 2 and "complete" in hand.legal_actions()
    act(hand, "complete 5", "call")
    play_passively(hand)
    text = to_phh(hand)
    assert "'p3 cbr 5'" not in text and "'p3 cc'" in text
    assert pokerkit_stacks(text) == hand.stacks
