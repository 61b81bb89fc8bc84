"""The room's rules around the hands, with no event loop: a table, numbers for the time.

RULES.md, "The room": each decision has a limit and then the time bank;
two timeouts sit a player out; a player away when a hand ends is sat out
and, ten minutes later, stood up; Casino Hold'em's bets stand and its
window closes once every seated person has confirmed; a player who asked
to leave is not waited for.
"""

from __future__ import annotations

import random

from pokerhouse.engine.actions import ActionKind
from pokerhouse.server.table import handover
from pokerhouse.server.table.room_rules import (
    BotTurn,
    CancelTimer,
    ClockStarted,
    RoomRules,
    SetTimer,
    Timing,
    WindowOpened,
)
from pokerhouse.table import Act, Leave, SetWager, Sit, SitOut, StartHand, Table, Timeout

TIMING = Timing(
    decision=15, bank=30, hand_pause=5, bots_pause=2, window=10, away=600, idle=2, bot_think=(1, 1)
)


def heads_up(game: str = "3x4") -> Table:
    table = Table(game, seats=3, rng=random.Random(4))
    table.apply(Sit(0, "Ann", 100, account=1))
    table.apply(Sit(1, "Bob", 100, account=2))
    return table


def timers(intents: list[object]) -> dict[str, float]:
    return {i.kind: i.delay for i in intents if isinstance(i, SetTimer)}


def test_a_persons_decision_starts_the_clock_and_its_bank_after_it() -> None:
    table, rules = heads_up(), RoomRules(TIMING, banked=False)
    assert rules.next_round(table, 0.0, frozenset()) == [StartHand()]
    table.apply(StartHand())
    intents = rules.after(table, 100.0, frozenset())
    seat = table.to_act()
    assert seat is not None and rules.started == seat
    clock = next(i for i in intents if isinstance(i, ClockStarted))
    assert (clock.seat, clock.limit_ms, clock.bank_ms) == (seat, 15_000, 30_000)
    assert timers(intents) == {"decision": 45.0}  # the limit, then the whole bank
    # Out of time: the room acts for the player, and the bank is spent.
    due = rules.decision_due(table, frozenset())
    assert due == Timeout(seat, hand=1)
    assert rules.banks.left(seat) == 0


def test_the_bank_pays_only_for_the_time_past_the_limit() -> None:
    table, rules = heads_up(), RoomRules(TIMING, banked=False)
    table.apply(StartHand())
    rules.after(table, 0.0, frozenset())
    first = table.to_act()
    assert first is not None
    table.apply(Act(first, table.default_action(first)))
    rules.after(table, 20.0, frozenset())  # acted 5 s into the bank
    assert rules.banks.left(first) == 25.0


def test_a_bot_moves_after_its_thinking_time_and_has_no_clock() -> None:
    table, rules = heads_up(), RoomRules(TIMING, banked=False)
    table.apply(StartHand())
    seat = table.to_act()
    assert seat is not None
    intents = rules.after(table, 0.0, frozenset({seat}))
    assert not any(isinstance(i, ClockStarted) for i in intents)
    assert timers(intents) == {"decision": 1.0} and rules.started is None
    assert rules.decision_due(table, frozenset({seat})) == BotTurn(seat, 1)


def test_a_losing_hand_is_shown_or_mucked_on_a_short_clock_that_spares_the_bank() -> None:
    table = Table("3x4", seats=2, rng=random.Random(9), hand_options={"manual_showdown": True})
    table.apply(Sit(0, "Ann", 100, account=1))
    table.apply(Sit(1, "Bob", 100, account=2))
    rules = RoomRules(TIMING, banked=False)
    for _ in range(50):  # deals until one reaches a show-or-muck
        table.apply(StartHand())
        while table.hand is not None:
            seat = table.to_act()
            assert seat is not None
            kinds = {a.kind for a in table.hand.legal_actions()}
            if kinds == {ActionKind.SHOW_HAND, ActionKind.MUCK}:
                intents = rules.after(table, 10.0, frozenset())
                clock = next(i for i in intents if isinstance(i, ClockStarted))
                assert (clock.seat, clock.limit_ms, clock.bank_ms) == (seat, 5_000, 0)
                assert timers(intents) == {"decision": 5.0} and rules.due_at == 15.0
                assert rules.decision_due(table, frozenset()) == Timeout(seat, hand=clock.hand)
                assert rules.banks.left(seat) == 30.0  # the bank is not spent on it
                step = table.apply(Timeout(seat, hand=clock.hand))
                assert [e.event.type_name for e in step][:2] == ["timed_out", "hand_mucked"]
                return
            table.apply(Act(seat, table.default_action(seat)))
    raise AssertionError("no hand reached a show-or-muck")


def test_a_player_who_asked_to_leave_is_not_waited_for() -> None:
    table, rules = heads_up(), RoomRules(TIMING, banked=False)
    table.apply(StartHand())
    rules.after(table, 0.0, frozenset())
    seat = table.to_act()
    assert seat is not None
    table.apply(Leave(seat))  # during the hand: leaving at its end
    intents = rules.after(table, 1.0, frozenset())
    assert timers(intents) == {"decision": 0.0}  # at once, not after the clock
    due = rules.decision_due(table, frozenset())
    assert isinstance(due, Act) and due.seat == seat
    assert due.action.kind in (ActionKind.FOLD, ActionKind.BRING_IN)
    assert rules.banks.left(seat) == 30.0  # no timeout counted against the player


def test_a_hand_stays_on_show_before_the_next_deal_and_a_seat_taken_does_not_cut_it() -> None:
    table, rules = heads_up(), RoomRules(TIMING, banked=False)
    table.apply(StartHand())
    while table.hand is not None:
        seat = table.to_act()
        assert seat is not None
        step = table.apply(Act(seat, table.default_action(seat)))
    seats = next(e.event.seats for e in step if e.event.type_name == "table_hand_ended")
    # Nobody reads a hand only bots played: a shorter pause.
    assert timers(rules.after(table, 50.0, frozenset(seats), ended=seats)) == {"next": 2.0}
    assert timers(rules.after(table, 50.0, frozenset(), ended=seats)) == {"next": 5.0}
    table.apply(Sit(2, "Cy", 100, account=3))
    assert timers(rules.after(table, 51.0, frozenset())) == {}  # the pause goes on
    # Between hands with nobody to deal to, a seat taken looks again at once.
    lonely = Table("3x4", seats=3, rng=random.Random(1))
    lonely.apply(Sit(0, "Ann", 100, account=1))
    idle = RoomRules(TIMING, banked=False)
    assert timers(idle.next_round(lonely, 0.0, frozenset())) == {"next": 2.0}
    lonely.apply(Sit(1, "Bob", 100, account=2))
    assert timers(idle.after(lonely, 0.5, frozenset())) == {"next": 0.0}


def test_away_at_the_end_of_a_hand_is_sat_out_then_stood_up_after_ten_minutes() -> None:
    table, rules = heads_up(), RoomRules(TIMING, banked=False)
    table.apply(StartHand())
    while table.hand is not None:
        seat = table.to_act()
        assert seat is not None
        table.apply(Act(seat, table.default_action(seat)))
    rules.after(table, 0.0, frozenset(), ended=(0, 1))
    present = {1: True, 2: False}  # Bob has no socket open
    commands, intents = rules.between_hands(table, 5.0, lambda a: present[a], frozenset())
    assert commands == [SitOut(1)] and timers(intents) == {"away": 600.0}
    table.apply(SitOut(1))
    commands, intents = rules.away_due(table, 604.0)
    assert commands == [] and timers(intents) == {"away": 1.0}
    commands, intents = rules.away_due(table, 605.0)
    assert commands == [Leave(1)] and CancelTimer("away") in intents


def test_casino_bets_stand_and_the_window_closes_once_every_person_confirmed() -> None:
    table = Table("casino-holdem", seats=4, rng=random.Random(2), options={"min_ante": 5})
    table.apply(Sit(0, "Ann", 500, account=1))
    table.apply(Sit(1, "Bot", 500, account=9))
    table.apply(Sit(2, "Bob", 500, account=2))
    rules = RoomRules(TIMING, banked=True)
    bots = frozenset({1})
    opened = rules.next_round(table, 0.0, bots)
    assert WindowOpened(10) in opened and timers(opened) == {"window": 10}  # type: ignore[arg-type]
    assert not any(isinstance(i, SetWager) for i in opened)  # the bot's default ante stands
    assert rules.confirmed(table, 0, 1.0, bots) == []  # Bob has not confirmed yet
    dealt = rules.confirmed(table, 2, 2.0, bots)
    assert StartHand() in dealt and CancelTimer("window") in dealt
    # Nobody confirmed in time next round: the standing bets are dealt all the same.
    assert not rules.window_open and rules.placed == set()
    before = [table.seat(s).ante for s in (0, 2)]  # type: ignore[union-attr]
    assert StartHand() in rules.deal(table, 20.0)
    assert [table.seat(s).ante for s in (0, 2)] == before  # type: ignore[union-attr]


def test_a_decision_taken_over_goes_on_with_the_time_it_had_left() -> None:
    table, rules = heads_up(), RoomRules(TIMING, banked=False)
    table.apply(StartHand())
    rules.after(table, 100.0, frozenset())
    first = table.to_act()
    assert first is not None
    table.apply(Act(first, table.default_action(first)))
    rules.after(table, 120.0, frozenset())  # 5 s into the first seat's bank: 25 s left
    second = table.to_act()
    assert second is not None
    # 10 s into the second seat's decision, its owner writes the state (wall clock 1,000)
    # and dies; another node, on a clock of its own, reads it 3 s later and goes on.
    state = handover.decode(handover.encode(rules.carry(now=130.0, wall=1_000.0)))
    assert state is not None
    heir = RoomRules(TIMING, banked=False)
    assert heir.restore(state, table, now=7.0, wall=1_003.0) == []
    intents = heir.after(table, 7.0, frozenset())
    clock = next(i for i in intents if isinstance(i, ClockStarted))
    assert (clock.seat, clock.limit_ms, clock.bank_ms) == (second, 2_000, 30_000)
    assert timers(intents) == {"decision": 32.0}
    assert heir.banks.left(first) == 25.0
    # A state whose decision is not the one due (the table moved on) starts it afresh.
    fresh = RoomRules(TIMING, banked=False)
    table.apply(Act(second, table.default_action(second)))
    fresh.restore(state, table, now=7.0, wall=1_003.0)
    clock = next(i for i in fresh.after(table, 7.0, frozenset()) if isinstance(i, ClockStarted))
    assert clock.limit_ms == 15_000


def test_the_time_away_and_an_open_window_are_carried_to_the_next_owner() -> None:
    table, rules = heads_up(), RoomRules(TIMING, banked=False)
    table.apply(SitOut(1))
    rules.between_hands(table, 0.0, lambda account: False, frozenset())
    state = rules.carry(now=100.0, wall=50.0)  # away for 100 s
    heir = RoomRules(TIMING, banked=False)
    assert timers(heir.restore(state, table, now=0.0, wall=60.0)) == {"away": 490.0}
    commands, _ = heir.away_due(table, 490.0)
    assert commands == [Leave(1)]

    casino = Table("casino-holdem", seats=4, rng=random.Random(2), options={"min_ante": 5})
    casino.apply(Sit(0, "Ann", 500, account=1))
    casino.apply(Sit(2, "Bob", 500, account=2))
    rules = RoomRules(TIMING, banked=True)
    rules.next_round(casino, 0.0, frozenset())
    rules.confirmed(casino, 0, 1.0, frozenset())
    state = rules.carry(now=4.0, wall=200.0)  # open 4 s, Ann confirmed
    heir = RoomRules(TIMING, banked=True)
    assert timers(heir.restore(state, casino, now=0.0, wall=201.0)) == {"window": 5.0}
    assert heir.window_open and heir.placed == {0}
    assert heir.next_round(casino, 0.0, frozenset()) == []  # not opened twice
    assert StartHand() in heir.confirmed(casino, 2, 1.0, frozenset())
