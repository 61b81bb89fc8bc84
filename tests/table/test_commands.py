"""The table's one door: commands in, numbered events out, in table seats.

Every test here drives a table only through ``Table.apply`` and checks that
what a command returns is exactly what the table's log records, that a
refused command changes nothing, and that chips are conserved.
"""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerhouse.bots import RandomBot
from pokerhouse.cards import Card, Deck
from pokerhouse.engine import Action, ActionKind
from pokerhouse.engine.events import CardsDealt, HandEnded, HandStarted
from pokerhouse.engine.visibility import shown_to
from pokerhouse.errors import EngineFault, PokerError
from pokerhouse.table import (
    Act,
    AddChips,
    Command,
    HandVoided,
    Leave,
    Logged,
    PlayerLeft,
    Rake,
    RakeTaken,
    SetWager,
    Sit,
    SitIn,
    SitOut,
    SittingOut,
    SitTogether,
    StartHand,
    Table,
    TableError,
    TableHandEnded,
    TableHandStarted,
    TableLimits,
    TimedOut,
    Timeout,
)

GAMES = ("3x4", "razz", "teen-patti", "casino-holdem")


def seated(game: str, players: int = 4, seats: int | None = None, **kwargs: object) -> Table:
    table = Table(
        game,
        seats=seats or players,
        limits=TableLimits(1, 1000),
        rng=random.Random(7),
        **kwargs,  # type: ignore[arg-type]
    )
    table.apply(SitTogether(tuple((seat, f"P{seat}", 200) for seat in range(players))))
    return table


def random_command(table: Table, rng: random.Random, bot: RandomBot) -> Command:
    """A command a real table might get now, legal or not."""
    roll = rng.random()
    seat = rng.randrange(table.size)
    if table.hand is not None and roll < 0.8:
        to_act = table.to_act()
        if to_act is not None and rng.random() < 0.9:
            if rng.random() < 0.05:
                return Timeout(to_act)
            return Act(to_act, bot.choose(table.view(to_act)))
        return Act(seat, Action.fold())
    if roll < 0.3:
        return StartHand()
    if roll < 0.45:
        return Sit(seat, f"N{rng.randrange(50)}", rng.choice((0, 50, 200, 5000)))
    if roll < 0.55:
        return Leave(seat)
    if roll < 0.65:
        return AddChips(seat, rng.choice((-1, 10, 100, 900)))
    if roll < 0.75:
        return SitOut(seat)
    if roll < 0.85:
        return SitIn(seat)
    if roll < 0.9:
        return SetWager(seat, rng.choice((0, 1, 5, 500)), rng.choice((0, 1, 3)))
    return StartHand()


# ---------------------------------------------------------------- the log


@settings(max_examples=24, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 2**32))
def test_each_command_returns_exactly_what_the_log_records_in_order_and_gapless(
    game: str, seed: int
) -> None:
    rng = random.Random(seed)
    table = seated(game, players=3, seats=5)
    bot = RandomBot(rng=random.Random(seed))
    returned: list[Logged] = list(table.log)
    for _ in range(200):
        command = random_command(table, rng, bot)
        before = pickle.dumps(table)
        try:
            step = table.apply(command)
        except PokerError:
            # A refused command changes nothing at all.
            assert pickle.dumps(table) == before, f"refused {command!r} changed the table"
            continue
        returned.extend(step)
        if table.hand is None:
            assert table.chips_conserved()
    assert [logged.seq for logged in returned] == list(range(1, table.seq + 1))
    assert returned == list(table.log)
    # Hand events reach the stream in table seats; the hand's own start and end
    # are restated by the table.
    assert not any(isinstance(logged.event, HandStarted | HandEnded) for logged in returned)


def test_a_hands_events_reach_the_stream_in_table_seats() -> None:
    table = Table("3x4", seats=6, rng=random.Random(3))
    table.apply(Sit(2, "Ann", 100))
    table.apply(Sit(5, "Bob", 100))
    step = table.apply(StartHand())
    hand = table.hand
    assert hand is not None and table.hand_seats == (5, 2)
    dealt = [logged.event for logged in step if isinstance(logged.event, CardsDealt)]
    assert sorted(event.seat for event in dealt) == [2, 5]
    for event in dealt:
        index = table.hand_seat(event.seat)
        assert index is not None and event.cards == tuple(hand.cards[index])  # type: ignore[attr-defined]
    started = step[0].event
    assert isinstance(started, TableHandStarted) and started.seats == (5, 2)


def test_since_gives_placeholders_for_what_a_viewer_may_not_see_and_none_past_the_buffer() -> None:
    table = Table("3x4", seats=2, rng=random.Random(3), log_size=50)
    table.apply(Sit(0, "Ann", 100, account=1))
    table.apply(Sit(1, "Bob", 100, account=2))
    mark = table.seq
    table.apply(StartHand())
    for_ann = table.since(mark, 1)
    for_spectator = table.since(mark, None)
    assert for_ann is not None and for_spectator is not None
    assert [seq for seq, _ in for_ann] == list(range(mark + 1, table.seq + 1))
    anns = [e for _, e in for_ann if isinstance(e, CardsDealt) and e.seat == 0]
    bobs = [e for _, e in for_ann if isinstance(e, CardsDealt) and e.seat == 1]
    assert anns and all(card is not None for card in anns[0].cards)
    assert bobs and all(card is None for card in bobs[0].cards)
    assert all(
        all(card is None for card in e.cards) for _, e in for_spectator if isinstance(e, CardsDealt)
    )
    assert table.since(table.seq, 1) == []
    assert table.since(table.seq + 1, 1) is None
    while table.seq < 200:
        seat = table.to_act() if table.hand is not None else None
        if seat is None:
            table.apply(StartHand())
        else:
            table.apply(Act(seat, table.default_action(seat)))
    assert table.since(mark, 1) is None  # long gone from a 50-event buffer
    assert len(table.log) == 50


@pytest.mark.parametrize("game", GAMES)
def test_a_seats_next_occupant_never_reads_what_its_last_one_was_dealt(game: str) -> None:
    """Events are read by the accounts that held their seats when they happened."""
    table = Table(game, seats=3, rng=random.Random(11), limits=TableLimits(1, 1000), log_size=None)
    table.apply(SitTogether(((0, "Ann", 300, 1), (1, "Bob", 300, 2), (2, "Cy", 300, 3))))
    mark = table.seq
    table.apply(StartHand())
    table.apply(Leave(1))  # Bob leaves at the end of the hand
    while table.hand is not None:
        seat = table.to_act()
        assert seat is not None
        table.apply(Act(seat, table.default_action(seat)))
    assert table.seat(1) is None
    table.apply(Sit(1, "Dee", 300, account=4))
    bob = table.since(mark, 2)
    dee = table.since(mark, 4)
    assert bob is not None and dee is not None
    bobs_cards = [
        card
        for _, event in bob
        if isinstance(event, CardsDealt) and event.seat == 1 and event.owner_sees
        for card in event.cards
    ]
    assert all(card is not None for card in bobs_cards)
    assert bobs_cards or game == "teen-patti"  # a Teen Patti hand is dealt blind
    for _, event in dee:
        if isinstance(event, CardsDealt) and event.seat == 1:
            assert all(
                card is None or up for card, up in zip(event.cards, event.face_up, strict=True)
            ), event
        readable = None if event is None else shown_to(event, None)
        assert event == readable, f"Dee reads more than a spectator: {event}"


# ---------------------------------------------------------------- clocks and timeouts


def test_a_razz_bring_in_that_times_out_posts_the_bring_in() -> None:
    """The bring-in may not fold (it is forced): out of time, it posts the bring-in."""
    for deal in range(20):
        table = seated("razz", players=3)
        table.apply(StartHand(Deck(random.Random(deal)).order()))
        seat = table.to_act()
        assert seat is not None
        legal = table.view(seat).legal
        assert ActionKind.BRING_IN in legal and ActionKind.FOLD not in legal
        step = table.apply(Timeout(seat))
        assert step[0].event == TimedOut(seat, f"P{seat}", Action(ActionKind.BRING_IN))
        assert table.to_act() != seat  # the hand went on


def test_a_timeout_checks_when_free_folds_otherwise_and_two_in_a_row_sit_out() -> None:
    table = seated("3x4", players=3)
    table.apply(StartHand())
    seat = table.to_act()
    assert seat is not None
    step = table.apply(Timeout(seat))
    assert isinstance(step[0].event, TimedOut) and step[0].event.action == Action.check()
    # Bet into the rest so that the timed-out player faces a bet next time.
    while table.hand is not None:
        to_act = table.to_act()
        assert to_act is not None
        if to_act == seat:
            step = table.apply(Timeout(seat))
            assert step[0].event == TimedOut(seat, f"P{seat}", Action.fold())
            continue
        legal = table.view(to_act).legal
        bet = legal.get(ActionKind.BET) or legal.get(ActionKind.RAISE)
        if bet is not None and bet.min_amount is not None:
            table.apply(Act(to_act, Action(bet.kind, bet.min_amount)))
        else:
            table.apply(Act(to_act, Action.call() if ActionKind.CALL in legal else Action.check()))
    info = table.seat(seat)
    assert info is not None and info.sitting_out
    assert SittingOut(seat, f"P{seat}", True, "timeouts") in table.events


def test_at_a_table_where_nobody_sits_out_the_clock_acts_every_hand() -> None:
    # A tournament's table: a player away is dealt in, and the clock acts, hand after hand.
    table = seated("3x4", players=2, may_sit_out=False)
    with pytest.raises(TableError) as refused:
        table.apply(SitOut(0))
    assert refused.value.code == "no_sitting_out" and not table.seat(0).sitting_out  # type: ignore[union-attr]
    for _ in range(4):
        table.apply(StartHand())
        assert 0 in table.hand_seats
        while table.hand is not None:
            to_act = table.to_act()
            assert to_act is not None
            if to_act == 0:
                table.apply(Timeout(0))
            else:
                legal = table.view(to_act).legal
                table.apply(
                    Act(to_act, Action.check() if ActionKind.CHECK in legal else Action.call())
                )
    assert not any(isinstance(event, SittingOut) for event in table.events)
    with pytest.raises(TableError):
        Table("3x4", seats=2, may_sit_out="no")  # type: ignore[arg-type]


@pytest.mark.parametrize(("pattern", "sat_out"), [("TATA", False), ("ATTA", True)])
def test_only_two_timeouts_in_a_row_sit_a_player_out(pattern: str, sat_out: bool) -> None:
    # Seat 0 times out (T) or acts in time (A) once per hand; seat 1 always bets.
    table = seated("teen-patti", players=2)
    for turn in pattern:
        if table.seat(0).sitting_out:  # type: ignore[union-attr]
            break
        table.apply(StartHand())
        while table.hand is not None:
            seat = table.to_act()
            assert seat is not None
            if seat == 0:
                table.apply(Timeout(0) if turn == "T" else Act(0, Action.fold()))
            else:
                bet = table.view(1).legal.get(ActionKind.BET)
                assert bet is not None and bet.min_amount is not None
                table.apply(Act(1, Action.bet(bet.min_amount)))
    info = table.seat(0)
    assert info is not None and info.sitting_out is sat_out


def test_timeouts_and_stale_actions_are_refused_unchanged() -> None:
    table = seated("razz", players=3)
    table.apply(StartHand())
    seat = table.to_act()
    assert seat is not None
    other = (seat + 1) % 3
    before = pickle.dumps(table)
    for command, code in (
        (Timeout(other), "not_your_turn"),
        (Act(seat, Action.fold(), hand=7), "stale_hand"),
        (Timeout(seat, hand=0), "stale_hand"),
        (Act(other, Action.fold()), "out_of_turn"),
    ):
        with pytest.raises(PokerError) as error:
            table.apply(command)
        assert error.value.code == code
        assert pickle.dumps(table) == before


# ---------------------------------------------------------------- a broken hand


def test_an_engine_fault_breaks_the_hand_and_the_table_voids_it() -> None:
    table = seated("3x4", players=3)
    stacks = [table.seat(seat).stack for seat in range(3)]  # type: ignore[union-attr]
    table.apply(StartHand())
    hand = table.hand
    assert hand is not None
    seat = table.to_act()
    assert seat is not None
    table.apply(Act(seat, Action.check()))

    def failing(*args: object) -> None:
        raise RuntimeError("injected")

    # The engine fails in the middle of applying an accepted action.
    hand._after_action = failing  # type: ignore[method-assign]
    seat = table.to_act()
    assert seat is not None
    logged_actions = list(hand.actions)
    step = table.apply(Act(seat, Action.check()))
    assert [type(logged.event) for logged in step][-1:] == [HandVoided]
    voided = step[-1].event
    assert isinstance(voided, HandVoided) and voided.number == 1
    assert "injected" in voided.reason
    # The hand refuses everything after, and never logged the failed action.
    assert isinstance(hand.fault, EngineFault) and hand.to_act is None
    with pytest.raises(EngineFault):
        hand.act(Action.fold())
    assert hand.actions == logged_actions
    # Every chip is back; the next hand is number 2.
    assert table.hand is None and table.hands_played == 1
    assert [table.seat(seat).stack for seat in range(3)] == stacks  # type: ignore[union-attr]
    assert table.chips_conserved()
    started = table.apply(StartHand())[0].event
    assert isinstance(started, TableHandStarted) and started.number == 2


# ---------------------------------------------------------------- rake


def play_out(table: Table, policy: str) -> tuple[Logged, ...]:
    events: list[Logged] = list(table.apply(StartHand()))
    while table.hand is not None:
        seat = table.to_act()
        assert seat is not None
        legal = table.view(seat).legal
        if policy == "fold" and ActionKind.CHECK in legal:
            action = Action.fold()
        elif ActionKind.CHECK in legal:
            action = Action.check()
        else:
            action = Action.call()
        events.extend(table.apply(Act(seat, action)))
    return tuple(events)


def test_rake_is_a_share_of_each_pot_capped_and_comes_from_the_winners() -> None:
    table = seated("3x4", players=4, rake=Rake(percent="10", cap=3))
    events = play_out(table, "check")
    raked = [logged.event for logged in events if isinstance(logged.event, RakeTaken)]
    ended = next(logged.event for logged in events if isinstance(logged.event, TableHandEnded))
    # Four antes of 1: a pot of 4, 10% rounded down is 0 -> no rake at this size.
    assert raked == [] and ended.rake == 0
    table = seated("3x4", players=4, rake=Rake(percent="10", cap=3), options={"ante": 20})
    events = play_out(table, "check")
    raked = [logged.event for logged in events if isinstance(logged.event, RakeTaken)]
    ended = next(logged.event for logged in events if isinstance(logged.event, TableHandEnded))
    assert len(raked) == 1 and raked[0].amount == 3 == ended.rake  # 8 before the cap
    assert sum(ended.net) == -3 and sum(raked[0].shares) == 3
    assert table.rake_taken == 3 and table.chips_conserved()


def test_no_rake_from_a_hand_that_ends_in_the_first_round() -> None:
    table = seated("3x4", players=4, rake=Rake(percent="10", cap=3), options={"ante": 20})
    events = play_out(table, "fold")
    assert not any(isinstance(logged.event, RakeTaken) for logged in events)
    assert table.rake_taken == 0 and table.chips_conserved()


def test_rake_settings_and_games_are_checked() -> None:
    for percent, cap in (("x", 1), (101, 1), (-1, 1), (5, -1), (True, 1)):
        with pytest.raises(TableError) as error:
            Rake(percent=percent, cap=cap)  # type: ignore[arg-type]
        assert error.value.code == "bad_rake"
    with pytest.raises(TableError) as error:
        Table("casino-holdem", rake=Rake(percent=5, cap=10))
    assert error.value.code == "bad_rake"


# ---------------------------------------------------------------- boxes


def test_a_player_may_hold_up_to_three_boxes_against_the_house() -> None:
    table = Table("casino-holdem", seats=7, limits=TableLimits(1, 1000), rng=random.Random(1))
    for seat in (0, 2, 5):
        table.apply(Sit(seat, "Ann", 100))
    with pytest.raises(TableError) as error:
        table.apply(Sit(6, "Ann", 100))
    assert error.value.code == "already_seated"
    assert table.seats_of("Ann") == (0, 2, 5)
    table.apply(SetWager(2, 0))  # box 2 sits this round out
    step = table.apply(StartHand())
    assert table.hand_seats == (0, 5)
    ann = frozenset({0, 5})
    mine = [
        shown_to(logged.event, ann)
        for logged in step
        if isinstance(logged.event, CardsDealt) and logged.event.seat in ann
    ]
    assert all(all(isinstance(card, Card) for card in event.cards) for event in mine)  # type: ignore[union-attr]
    while table.hand is not None:
        seat = table.to_act()
        assert seat is not None
        table.apply(Act(seat, Action.call()))
    assert table.chips_conserved()


def test_pool_games_seat_a_player_once() -> None:
    table = Table("razz", seats=4)
    table.apply(Sit(0, "Ann", 100))
    with pytest.raises(TableError) as error:
        table.apply(Sit(1, "Ann", 100))
    assert error.value.code == "already_seated"


def test_leaving_mid_hand_cashes_out_at_the_end_with_the_result() -> None:
    table = seated("teen-patti", players=3)
    table.apply(StartHand())
    step = table.apply(Leave(1))
    assert [type(logged.event).__name__ for logged in step] == ["PlayerLeaving"]
    assert table.seat(1) is not None
    while table.hand is not None:
        seat = table.to_act()
        assert seat is not None
        table.apply(Act(seat, table.default_action(seat)))
    left = [event for event in table.events if isinstance(event, PlayerLeft)]
    ended = [event for event in table.events if isinstance(event, TableHandEnded)][-1]
    result = dict(zip(ended.seats, ended.net, strict=True))
    assert left == [PlayerLeft(1, "P1", 200 + result[1])]
    assert table.seat(1) is None and table.chips_conserved()
