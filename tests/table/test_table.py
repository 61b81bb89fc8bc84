"""The table: seating, the seat draw, the button, buy-ins, busting, rebuys, sitting out."""

from __future__ import annotations

import pickle
import random
from collections.abc import Sequence

import pytest

from pokerhouse.bots import RandomBot
from pokerhouse.cards import FULL_DECK, Card, Deck, parse_cards
from pokerhouse.engine import Action, ActionKind, View
from pokerhouse.engine.events import CardsDealt, event_from_dict, event_to_dict
from pokerhouse.engine.hand import Hand
from pokerhouse.table import (
    Act,
    AddChips,
    ButtonPlaced,
    HandResult,
    Leave,
    PlayerBusted,
    PlayerLeaving,
    SeatDrawCard,
    SetWager,
    Sit,
    SitIn,
    SitOut,
    SitTogether,
    StartHand,
    Table,
    TableError,
    TableLimits,
    Timeout,
)


class TopCards:
    """An RNG whose shuffle puts the given cards on top of the deck, in order."""

    def __init__(self, text: str) -> None:
        self.top = list(parse_cards(text))

    def shuffle(self, cards: list[Card]) -> None:
        rest = [card for card in cards if card not in self.top]
        cards[:] = self.top + rest


def three_by_four_deck(holes: Sequence[str], board: str) -> Deck:
    """A deck dealing these hole cards (seat order) and this 4-card board, with burns."""
    hands = [parse_cards(text) for text in holes]
    flop = parse_cards(board)
    named = {card for cards in hands for card in cards} | set(flop)
    spare = iter(card for card in FULL_DECK if card not in named)
    order = [hands[seat][i] for i in range(3) for seat in range(len(hands))]
    order += [next(spare), flop[0], flop[1], next(spare), flop[2], next(spare), flop[3]]
    return Deck.stacked(order)


def check_or_call(seat: int, view: View) -> Action:
    return Action.check() if ActionKind.CHECK in view.legal else Action.call()


def start(table: Table, deck: Deck | None = None) -> Hand:
    """Deal a hand through the table's one door; the hand dealt."""
    table.apply(StartHand(None if deck is None else deck.order()))
    assert table.last_hand is not None
    return table.last_hand


def finish(table: Table) -> HandResult:
    """Play the running hand to its end, checking or calling; its summary."""
    hand = table.last_hand
    assert hand is not None
    while table.hand is not None:
        seat = table.to_act()
        assert seat is not None
        table.apply(Act(seat, check_or_call(seat, table.view(seat))))
    return table.last_summary(hand)


def table_3x4(seats: int = 6, **kwargs: object) -> Table:
    return Table("3x4", seats=seats, rng=random.Random(11), **kwargs)  # type: ignore[arg-type]


# ---------------------------------------------------------------- the button


def test_first_player_to_sit_takes_the_button() -> None:
    table = table_3x4()
    table.apply(Sit(3, "Ann", 100))
    table.apply(Sit(1, "Bob", 100))
    assert table.button == 3
    assert table.events[-1] != ButtonPlaced(seat=1, reason="first_to_sit")
    assert ButtonPlaced(seat=3, reason="first_to_sit") in table.events


def test_seat_draw_highest_card_takes_the_button() -> None:
    table = Table("3x4", seats=6, rng=TopCards("9c Qd 4s 2h"))
    step = table.apply(
        SitTogether([(0, "Ann", 100), (2, "Bob", 100), (3, "Cy", 100), (5, "Di", 100)])
    )
    drawn = {e.event.seat: e.event.card for e in step if isinstance(e.event, SeatDrawCard)}
    assert drawn == {
        0: Card.parse("9c"),
        2: Card.parse("Qd"),
        3: Card.parse("4s"),
        5: Card.parse("2h"),
    }
    assert table.button == 2


def test_seat_draw_ties_in_rank_go_by_suit_order() -> None:
    # Kings of hearts and spades: spades is the higher suit.
    table = Table("razz", seats=4, rng=TopCards("Kh Ks Kc Kd"))
    table.apply(SitTogether([(0, "Ann", 100), (1, "Bob", 100), (2, "Cy", 100), (3, "Di", 100)]))
    assert table.button == 1
    table = Table("razz", seats=4, rng=TopCards("Kd Kc"))
    table.apply(SitTogether([(0, "Ann", 100), (1, "Bob", 100)]))
    assert table.button == 0


def test_seat_draw_is_recorded_as_table_events() -> None:
    table = Table("3x4", seats=3, rng=TopCards("5c As 5d"))
    table.apply(SitTogether([(0, "Ann", 50), (1, "Bob", 50), (2, "Cy", 50)]))
    draws = [event for event in table.events if isinstance(event, SeatDrawCard)]
    assert [(e.seat, e.player, str(e.card)) for e in draws] == [
        (0, "Ann", "5c"),
        (1, "Bob", "As"),
        (2, "Cy", "5d"),
    ]
    assert table.events[-1] == ButtonPlaced(seat=1, reason="seat_draw")
    for event in table.events:
        assert event_from_dict(event_to_dict(event)) == event


def test_hand_seat_zero_is_first_player_left_of_the_button() -> None:
    table = table_3x4(seats=8)
    for seat, name in ((5, "Ann"), (1, "Bob"), (6, "Cy"), (3, "Di")):
        table.apply(Sit(seat, name, 100))
    start(table)
    # Button on 5: clockwise 6, then 1, 3 (wrapping), and the button last.
    assert table.hand_seats == (6, 1, 3, 5)
    assert table.hand_seat(5) == 3 and table.hand_seat(0) is None


def test_button_moves_one_occupied_seat_clockwise_past_empty_seats() -> None:
    table = table_3x4(seats=9)
    for seat, name in ((2, "Ann"), (5, "Bob"), (8, "Cy")):
        table.apply(Sit(seat, name, 100))
    buttons = []
    for _ in range(4):
        buttons.append(table.button)
        table.play_hand(check_or_call)
    assert buttons == [2, 5, 8, 2]
    assert ButtonPlaced(seat=5, reason="moved") in table.events


def test_button_moves_past_busted_players() -> None:
    table = Table("3x4", seats=4, limits=TableLimits(1, 500), rng=random.Random(3))
    table.apply(Sit(0, "Ann", 100))  # Ann deals first
    table.apply(Sit(1, "Bob", 1))  # all-in for the ante, and loses
    table.apply(Sit(2, "Cy", 100))
    table.apply(Sit(3, "Di", 100))
    # Hand seats: Bob, Cy, Di, Ann.
    deck = three_by_four_deck(["2c 3d 7h", "As Ad Ah", "9c 9d 4s", "Kc Qd 8s"], "Ks 5c Jd 6h")
    summary = table.play_hand(check_or_call, StartHand(deck.order()))
    assert summary.net[1] == -1
    assert PlayerBusted(seat=1, player="Bob") in table.events
    assert table.seat(1).busted  # type: ignore[union-attr]
    # From Ann (0), the button skips busted Bob (1) and goes to Cy (2).
    assert table.button == 2
    start(table)
    assert 1 not in table.hand_seats
    assert table.hand_seats == (3, 0, 2)


def test_button_moves_past_a_player_sitting_out() -> None:
    table = table_3x4(seats=4)
    for seat in range(4):
        table.apply(Sit(seat, f"P{seat}", 100))
    table.apply(SitOut(1))
    table.play_hand(check_or_call)
    assert table.button == 2


def test_button_skips_a_seat_that_left() -> None:
    table = table_3x4(seats=4)
    for seat in range(4):
        table.apply(Sit(seat, f"P{seat}", 100))
    table.play_hand(check_or_call)
    assert table.button == 1
    table.apply(Leave(2))
    table.play_hand(check_or_call)
    assert table.button == 3


def test_last_player_leaving_clears_the_button_for_the_next_first_to_sit() -> None:
    table = table_3x4(seats=4)
    table.apply(Sit(2, "Ann", 100))
    table.apply(Leave(2))
    assert table.button is None
    table.apply(Sit(3, "Bob", 100))
    assert table.button == 3


# ---------------------------------------------------------------- hands over time


def test_stacks_carry_over_from_hand_to_hand() -> None:
    table = table_3x4(seats=3)
    table.apply(SitTogether([(0, "Ann", 100), (1, "Bob", 100), (2, "Cy", 100)]))
    bot = RandomBot(rng=random.Random(4))
    for _ in range(5):
        before = {seat: table.seat(seat).stack for seat in range(3)}  # type: ignore[union-attr]
        summary = table.play_hand(lambda seat, view: bot.choose(view))
        for seat in range(3):
            after = table.seat(seat)
            assert after is not None and after.stack == before[seat] + summary.net.get(seat, 0)
        assert table.hand_seats == ()


def test_player_joining_mid_hand_waits_for_the_next_hand() -> None:
    table = table_3x4(seats=4)
    table.apply(Sit(0, "Ann", 100))
    table.apply(Sit(1, "Bob", 100))
    hand = start(table)
    table.apply(Sit(2, "Cy", 100))
    assert hand.players == 2 and table.hand_seat(2) is None
    assert table.seat(2).in_hand is False  # type: ignore[union-attr]
    with pytest.raises(TableError) as error:
        table.view(2)
    assert error.value.code == "not_in_hand"
    finish(table)
    start(table)
    assert 2 in table.hand_seats and len(table.hand_seats) == 3


def test_player_leaving_mid_hand_goes_when_the_hand_ends() -> None:
    table = table_3x4(seats=3)
    for seat in range(3):
        table.apply(Sit(seat, f"P{seat}", 100))
    start(table)
    assert [logged.event for logged in table.apply(Leave(1))] == [PlayerLeaving(1, "P1")]
    assert table.seat(1).leaving  # type: ignore[union-attr]
    assert table.leaving(1) and not table.leaving(0)
    with pytest.raises(TableError) as error:
        table.apply(Sit(1, "Zed", 100))
    assert error.value.code == "seat_taken"
    summary = finish(table)
    assert table.seat(1) is None and not table.leaving(1)
    with pytest.raises(TableError):
        table.leaving(9)
    left = [e for e in table.events if e.type_name == "player_left"]
    assert left[-1].chips == 100 + summary.net[1]  # type: ignore[attr-defined]
    assert table.chips_conserved()


def test_a_sitting_out_player_is_dealt_no_cards() -> None:
    table = table_3x4(seats=4)
    for seat in range(4):
        table.apply(Sit(seat, f"P{seat}", 100))
    table.apply(SitOut(2))
    hand = start(table)
    assert 2 not in table.hand_seats and hand.players == 3
    dealt_to = {table.hand_seats[e.seat] for e in hand.events if isinstance(e, CardsDealt)}
    assert dealt_to == {0, 1, 3}
    assert table.seat(2).stack == 100  # type: ignore[union-attr]
    finish(table)
    table.apply(SitIn(2))
    start(table)
    assert 2 in table.hand_seats


def test_sitting_out_during_a_hand_starts_with_the_next_one() -> None:
    table = table_3x4(seats=3)
    for seat in range(3):
        table.apply(Sit(seat, f"P{seat}", 100))
    start(table)
    table.apply(SitOut(0))
    assert 0 in table.hand_seats
    finish(table)
    start(table)
    assert 0 not in table.hand_seats


def test_not_enough_players_to_deal_changes_nothing() -> None:
    table = table_3x4(seats=4)
    table.apply(Sit(0, "Ann", 100))  # Ann has the button...
    table.apply(Sit(1, "Bob", 100))
    table.apply(SitOut(0))  # ... and sits out: the button would move to Bob
    before = pickle.dumps(table)
    with pytest.raises(TableError) as error:
        start(table)
    assert error.value.code == "not_enough_players"
    assert table.hand is None and table.button == 0
    assert pickle.dumps(table) == before


# ---------------------------------------------------------------- buy-ins and rebuys


@pytest.mark.parametrize(
    ("amount", "code"),
    [
        (19, "buy_in_too_small"),
        (501, "buy_in_too_large"),
        (0, "bad_amount"),
        (-5, "bad_amount"),
        (50.0, "bad_amount"),
        ("50", "bad_amount"),
    ],
)
def test_buy_in_must_be_within_the_table_limits(amount: object, code: str) -> None:
    table = Table("3x4", seats=4, limits=TableLimits(20, 500))
    before = pickle.dumps(table.seats)
    with pytest.raises(TableError) as error:
        table.apply(Sit(0, "Ann", amount))  # type: ignore[arg-type]
    assert error.value.code == code
    assert pickle.dumps(table.seats) == before and table.events == ()


def test_buy_ins_at_the_limits_are_accepted() -> None:
    table = Table("3x4", seats=4, limits=TableLimits(20, 500))
    table.apply(Sit(0, "Ann", 20))
    table.apply(Sit(1, "Bob", 500))
    assert [table.seat(n).stack for n in (0, 1)] == [20, 500]  # type: ignore[union-attr]


def test_rebuy_brings_a_busted_player_back() -> None:
    table = Table("3x4", seats=4, limits=TableLimits(1, 500), rng=random.Random(3))
    table.apply(Sit(0, "Ann", 100))
    table.apply(Sit(1, "Bob", 1))
    table.apply(Sit(2, "Cy", 100))
    table.apply(Sit(3, "Di", 100))
    deck = three_by_four_deck(["2c 3d 7h", "As Ad Ah", "9c 9d 4s", "Kc Qd 8s"], "Ks 5c Jd 6h")
    table.play_hand(check_or_call, StartHand(deck.order()))
    assert table.seat(1).busted  # type: ignore[union-attr]
    table.apply(AddChips(1, 80))
    info = table.seat(1)
    assert info is not None and (info.stack, info.rebuys, info.bought_in) == (80, 1, 81)
    assert info.net == -1
    start(table)
    assert 1 in table.hand_seats
    assert table.hand is not None


def test_rebuy_limits_and_timing() -> None:
    table = Table("3x4", seats=3, limits=TableLimits(50, 200), rng=random.Random(1))
    table.apply(Sit(0, "Ann", 150))
    table.apply(Sit(1, "Bob", 150))
    with pytest.raises(TableError) as error:
        table.apply(AddChips(0, 51))
    assert error.value.code == "buy_in_too_large"
    with pytest.raises(TableError) as error:
        table.apply(AddChips(2, 10))
    assert error.value.code == "seat_empty"
    with pytest.raises(TableError) as error:
        table.apply(AddChips(0, 0))
    assert error.value.code == "bad_amount"
    table.apply(AddChips(0, 50))
    assert table.seat(0).stack == 200  # type: ignore[union-attr]
    start(table)
    with pytest.raises(TableError) as error:
        table.apply(AddChips(1, 10))
    assert error.value.code == "in_hand"


# ---------------------------------------------------------------- bad requests


def test_seating_errors_have_their_own_codes() -> None:
    table = table_3x4(seats=4)
    table.apply(Sit(0, "Ann", 100))
    cases = [
        (lambda: table.apply(Sit(0, "Bob", 100)), "seat_taken"),
        (lambda: table.apply(Sit(4, "Bob", 100)), "bad_seat"),
        (lambda: table.apply(Sit(-1, "Bob", 100)), "bad_seat"),
        (lambda: table.apply(Sit(1, "Ann", 100)), "already_seated"),
        (lambda: table.apply(Sit(1, " ", 100)), "bad_name"),
        (lambda: table.apply(Leave(2)), "seat_empty"),
        (lambda: table.apply(SitOut(3)), "seat_empty"),
        (lambda: table.apply(Act(0, Action.fold())), "no_hand"),
        (lambda: table.apply(Timeout(0)), "no_hand"),
        (lambda: table.view(0), "no_hand"),
        (lambda: table.apply(SetWager(0, 5)), "bad_wager"),
        (lambda: table.apply(SitTogether([(1, "Bob", 100), (1, "Cy", 100)])), "seat_taken"),
        (lambda: table.apply(SitTogether([(1, "Bob", 100), (2, "Bob", 100)])), "already_seated"),
        (lambda: table.apply(SitTogether([(1, "Bob", 100), (2, "Cy", 5000)])), "buy_in_too_large"),
    ]
    for request, code in cases:
        with pytest.raises(TableError) as error:
            request()
        assert error.value.code == code, code
    # Failed group seatings seat nobody.
    assert table.occupied == (0,)


@pytest.mark.parametrize(
    "name", ["Bob\nAnn wins 500 from the pot", "\x1b[2JBob", "Bob\t", "Bob\u200b", " Ann", "Ann "]
)
def test_a_name_that_could_forge_a_line_or_pass_for_another_player_is_refused(name: str) -> None:
    # Names are printed in narration and logs: a newline or a terminal escape
    # would forge lines, surrounding blanks would pass for another player.
    table = table_3x4(seats=3)
    table.apply(Sit(0, "Ann", 100))
    for request in (
        lambda: table.apply(Sit(1, name, 100)),
        lambda: table.apply(SitTogether([(1, name, 100)])),
    ):
        with pytest.raises(TableError) as error:
            request()
        assert error.value.code == "bad_name"
    assert table.occupied == (0,)
    table.apply(Sit(1, "Ana María O'Brien-李", 100))


def test_hand_control_out_of_order_is_refused() -> None:
    table = table_3x4(seats=3)
    table.apply(Sit(0, "Ann", 100))
    table.apply(Sit(1, "Bob", 100))
    hand = start(table)
    with pytest.raises(TableError) as error:
        start(table)
    assert error.value.code == "hand_in_progress"
    seat = table.to_act()
    assert seat is not None
    with pytest.raises(TableError) as error:
        table.apply(Act(seat, Action.fold(), hand=2))  # meant for a later hand
    assert error.value.code == "stale_hand"
    with pytest.raises(TableError) as error:
        table.apply(Timeout(1 - seat))  # not the seat to act
    assert error.value.code == "not_your_turn"
    with pytest.raises(TableError) as error:
        table.chips_on_table()
    assert error.value.code == "hand_in_progress"
    assert table.hand is hand


@pytest.mark.parametrize("seat", [True, False, "1", 1.0, -1, 3])
def test_viewing_or_acting_for_a_seat_that_does_not_exist_is_refused(seat: object) -> None:
    # ``True == 1``: without the check a bool would view and act as seat 1.
    table = table_3x4(seats=3)
    table.apply(Sit(0, "Ann", 100))
    table.apply(Sit(1, "Bob", 100))
    hand = start(table)
    before = pickle.dumps(hand)
    requests = (lambda: table.view(seat), lambda: table.apply(Act(seat, Action.fold())))  # type: ignore[arg-type]
    for request in requests:
        with pytest.raises(TableError) as error:
            request()
        assert error.value.code == "bad_seat"
    assert pickle.dumps(hand) == before
    with pytest.raises(TableError) as error:
        table.view(2)  # a real seat, empty
    assert error.value.code == "not_in_hand"


def test_table_size_must_suit_the_game() -> None:
    with pytest.raises(TableError) as error:
        Table("razz", seats=9)
    assert error.value.code == "bad_seat"
    with pytest.raises(TableError) as error:
        TableLimits(100, 50)
    assert error.value.code == "bad_limits"


# ---------------------------------------------------------------- conservation


@pytest.mark.parametrize("game", ["3x4", "razz", "teen-patti"])
def test_chips_are_conserved_through_busts_rebuys_and_departures(game: str) -> None:
    rng = random.Random(game)
    table = Table(game, seats=5, limits=TableLimits(5, 100), rng=random.Random(7))
    table.apply(SitTogether([(seat, f"P{seat}", rng.randint(5, 100)) for seat in range(5)]))
    bots = {seat: RandomBot(fold=0.1, raise_=0.4, rng=random.Random(seat)) for seat in range(5)}
    names = 5
    for _ in range(150):
        for seat in range(5):
            info = table.seat(seat)
            if info is None:
                table.apply(Sit(seat, f"P{names}", rng.randint(5, 100)))
                names += 1
            elif info.busted:
                if rng.random() < 0.5:
                    table.apply(AddChips(seat, rng.randint(5, 100)))
                else:
                    table.apply(Leave(seat))
        if len(table.ready()) < 2:
            continue
        table.play_hand(lambda seat, view: bots[seat].choose(view))
        assert table.chips_conserved()
