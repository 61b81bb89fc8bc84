"""The director, pure: every rule of RULES.md "Tournaments" by name, without cards."""

from __future__ import annotations

import dataclasses
import random

import pytest

from pokerhouse.tournament import (
    Cancel,
    Director,
    HandReport,
    Register,
    Resume,
    SeatResult,
    Start,
    TournamentError,
    TournamentSpec,
    Unregister,
    built_in,
    dump,
    load,
    sit_and_go,
)
from pokerhouse.tournament.orders import (
    BreakEnded,
    BreakStarted,
    Cancelled,
    CloseTable,
    Deal,
    Finished,
    HandForHand,
    LevelUp,
    OpenTable,
    Placed,
    Refund,
    RegistrationClosed,
    SeatPlayer,
    Share,
    Started,
    UnseatPlayer,
)
from pokerhouse.tournament.structure import Structure
from tests.tournament.harness import Harness


def scheduled(
    game: str = "razz",
    seats: int = 8,
    *,
    structure: Structure | None = None,
    **options: object,
) -> TournamentSpec:
    return TournamentSpec(
        "Test",
        game,
        "scheduled",
        structure if structure is not None else built_in("regular", game),
        buy_in=100,
        fee=10,
        seats=seats,
        **options,  # type: ignore[arg-type]
    )


def of(kind: type, orders: list[object]) -> list[object]:
    return [order for order in orders if isinstance(order, kind)]


# ---------------------------------------------------------------- the draw


def test_the_draw_spreads_the_entrants_evenly_at_random_seats() -> None:
    draws = []
    for seed in (1, 2):
        harness = Harness(scheduled(seats=8), seed=seed)
        orders = harness.register(25)
        opened = of(OpenTable, orders)
        assert [len(order.seats) for order in opened] == [7, 6, 6, 6]
        assert of(Started, orders) == [Started(25, 4)]
        entries = sorted(s.entry for order in opened for s in order.seats)
        assert entries == list(range(1, 26))
        for order in opened:
            assert len({s.seat for s in order.seats}) == len(order.seats)
            assert all(s.stack == 1000 for s in order.seats)
        assert [order.table for order in of(Deal, orders)] == [1, 2, 3, 4]
        draws.append([[s.entry for s in order.seats] for order in opened])
    assert draws[0] != draws[1]


def test_the_same_seed_draws_the_same() -> None:
    first, second = Harness(scheduled(), seed=9), Harness(scheduled(), seed=9)
    assert first.register(30) == second.register(30)


def test_a_new_table_gives_the_button_to_the_highest_card() -> None:
    from pokerhouse.table import SeatDrawCard, SitTogether, Table, TableLimits

    harness = Harness(scheduled(seats=8), seed=4)
    (opened, *_) = of(OpenTable, harness.register(8))
    for seed in range(20):
        table = Table("razz", seats=8, limits=TableLimits(1, 10**9), rng=random.Random(seed))
        step = table.apply(SitTogether(tuple((s.seat, s.player, s.stack) for s in opened.seats)))
        cards = {
            logged.event.seat: logged.event.card
            for logged in step
            if isinstance(logged.event, SeatDrawCard)
        }
        assert len(cards) == 8
        assert table.button == max(cards, key=lambda seat: int(cards[seat]))


def test_a_sit_and_go_starts_when_its_seats_fill() -> None:
    harness = Harness(sit_and_go("3x4", seats=4), seed=1)
    for number in range(1, 4):
        assert harness.give(Register(f"p{number}")) == []
    orders = harness.give(Register("p4"))
    assert [type(order).__name__ for order in orders] == [
        "Started",
        "RegistrationClosed",
        "OpenTable",
        "Deal",
    ]
    assert of(RegistrationClosed, orders) == [RegistrationClosed(4, 400, (400,))]


# ---------------------------------------------------------------- levels


@pytest.mark.parametrize("game", ["3x4", "razz", "teen-patti"])
def test_the_level_changes_between_hands(game: str) -> None:
    structure = Structure(game, (10, 20, 40), level_seconds=60)
    harness = Harness(scheduled(game, seats=4, structure=structure))
    harness.register(8)
    assert sorted(harness.playing) == [1, 2]
    # Table 1 ends its hand after the level's time: it deals the next one at level 2.
    orders = harness.end(1, seconds=61)
    assert of(LevelUp, orders) == [LevelUp(1, structure.stakes(1))]
    (deal,) = of(Deal, orders)
    assert (deal.table, deal.level, deal.stakes) == (1, 1, structure.stakes(1))
    # Table 2's hand went on through the change; its next hand is at level 2 too.
    (deal,) = of(Deal, harness.end(2, seconds=1))
    assert deal.level == 1


def test_each_game_sets_its_amounts_from_the_small_bet() -> None:
    from pokerhouse.tournament import level_stakes

    for small in (10, 15, 20, 100, 1000):
        razz = dict(level_stakes("razz", small))
        assert razz["big_bet"] == 2 * small
        assert abs(razz["ante"] - small / 5) <= 0.5 and abs(razz["bring_in"] - small / 4) <= 0.5
        three = dict(level_stakes("3x4", small))
        assert three["small_bet"] == small and three["ante"] >= 1
        assert dict(level_stakes("teen-patti", small)) == {"ante": small}


def test_the_table_deals_the_next_hand_at_the_new_stakes() -> None:
    from pokerhouse.table import (
        SetStakes,
        Sit,
        StakesSet,
        StartHand,
        Table,
        TableError,
        TableLimits,
    )
    from pokerhouse.tournament import level_stakes

    table = Table("razz", seats=3, limits=TableLimits(1, 10**6), rng=random.Random(1))
    table.apply(SetStakes(level_stakes("razz", 10)))
    for seat in range(3):
        table.apply(Sit(seat, f"p{seat}", 1000))
    step = table.apply(SetStakes(level_stakes("razz", 20)))
    assert [logged.event for logged in step] == [
        StakesSet((("ante", 4), ("big_bet", 40), ("bring_in", 5), ("small_bet", 20)))
    ]
    table.apply(StartHand())
    assert table.hand is not None and table.hand.spec.small_bet == 20  # type: ignore[attr-defined]
    with pytest.raises(TableError) as refused:
        table.apply(SetStakes(level_stakes("razz", 30)))
    assert refused.value.code == "hand_in_progress"
    with pytest.raises(TableError):
        Table("razz", seats=3).apply(SetStakes((("bring_in", 50),)))
    with pytest.raises(TableError):
        Table("razz", seats=3).apply(SetStakes((("limit", 5),)))


def test_levels_by_hands_count_the_busiest_table() -> None:
    structure = Structure("3x4", (2, 4, 8), level_seconds=None, level_hands=2)
    harness = Harness(scheduled("3x4", seats=4, structure=structure))
    harness.register(8)
    assert of(LevelUp, harness.end(1)) == []
    assert of(LevelUp, harness.end(1)) == [LevelUp(1, structure.stakes(1))]
    assert of(LevelUp, harness.end(2)) == []


def test_a_break_stops_every_table_and_clock() -> None:
    structure = Structure("razz", (10, 20, 40), level_seconds=60, break_every=1, break_seconds=300)
    harness = Harness(scheduled(seats=4, structure=structure))
    harness.register(8)
    orders = harness.end(1, seconds=70)
    assert of(BreakStarted, orders) == [BreakStarted(300)] and of(Deal, orders) == []
    assert harness.director.level == 0 and harness.director.on_break
    assert of(Deal, harness.end(2, seconds=10)) == []
    assert of(Deal, harness.tick(200)) == []
    orders = harness.tick(80)  # 10 + 10 + 200 + 80: the break's 300 seconds are over
    assert of(BreakEnded, orders) and of(LevelUp, orders) == [LevelUp(1, structure.stakes(1))]
    assert sorted(order.table for order in of(Deal, orders)) == [1, 2]
    # The level clock stood still during the break: the full minute of level 2 is ahead.
    assert harness.director.state.level_left == pytest.approx(60)


def test_time_while_the_room_was_down_does_not_count() -> None:
    structure = Structure("razz", (10, 20), level_seconds=600)
    harness = Harness(scheduled(seats=4, structure=structure))
    harness.register(8)
    harness.tick(100)
    harness.now += 3600
    harness.give(Resume(harness.now))
    harness.tick(10)
    assert harness.director.level == 0
    assert harness.director.state.level_left == pytest.approx(490)


def test_a_runner_whose_clock_starts_again_lower_resumes_on_its_scale() -> None:
    """Another process (or machine) resumes: its monotonic clock may be far behind."""
    structure = Structure("razz", (10, 20), level_seconds=600)
    harness = Harness(scheduled(seats=4, structure=structure))
    harness.register(8)
    harness.tick(100)
    harness.now = 5.0
    harness.give(Resume(harness.now))
    harness.tick(10)
    assert harness.director.state.level_left == pytest.approx(490)


# ---------------------------------------------------------------- balancing and breaking


def test_balancing_moves_the_next_button_from_the_fullest_to_the_emptiest() -> None:
    harness = Harness(scheduled(seats=6), seed=3)
    harness.register(18)
    assert harness.sizes() == {1: 6, 2: 6, 3: 6}
    seats = sorted(harness.seats[1])
    # Two bust at table 1: 4 / 6 / 6. Table 1 itself has nobody to give.
    orders = harness.bust(1, seats[:2], seats[2])
    assert of(UnseatPlayer, orders)[0].reason == "busted" and harness.sizes()[1] == 4
    assert not [o for o in of(UnseatPlayer, orders) if o.reason == "moved"]
    # Table 2 ends its hand: it is one of the fullest, so it gives the player who
    # would get its button next to the emptiest table (1), at a free seat there.
    button = sorted(harness.seats[2])[3]
    mover = harness.seats[2][button]
    orders = harness.end(2, button=button)
    (moved,) = [o for o in of(UnseatPlayer, orders) if o.reason == "moved"]
    assert (moved.table, moved.seat, moved.entry, moved.to_table) == (2, button, mover, 1)
    assert harness.sizes() == {1: 5, 2: 5, 3: 6}  # counted where it goes
    # The player sits at table 1 once its hand ends, dealt in from its next hand.
    (seated,) = of(SeatPlayer, harness.end(1))
    assert seated.table == 1 and seated.seat.entry == mover
    assert harness.seats[1][seated.seat.seat] == mover


def test_a_move_waits_for_the_hand_at_the_new_table() -> None:
    harness = Harness(scheduled(seats=6), seed=5)
    harness.register(12)
    seats = sorted(harness.seats[1])
    # Table 1 loses two (4 / 6) while table 2 deals; table 1's next hand is under way.
    orders = harness.bust(1, seats[:2], seats[2])
    assert 1 in harness.playing
    # Table 2 ends: its mover leaves it now, but sits at table 1 only when that hand ends.
    orders = harness.end(2)
    (moved,) = [o for o in of(UnseatPlayer, orders) if o.reason == "moved"]
    assert of(SeatPlayer, orders) == []
    orders = harness.end(1)
    (seated,) = of(SeatPlayer, orders)
    assert seated.seat.entry == moved.entry and seated.table == 1
    assert harness.director.state.moves == 1


def test_the_table_with_fewest_players_breaks_the_highest_numbered_of_equals() -> None:
    harness = Harness(scheduled(seats=4), seed=2)
    harness.register(12)  # 4 / 4 / 4
    for table in (2, 3):
        seats = sorted(harness.seats[table])
        harness.bust(table, seats[:1], seats[1])  # 4 / 3 / 3: 10 players, fit in 3 tables
    assert len(harness.director.state.tables) == 3
    seats = sorted(harness.seats[1])
    orders = harness.bust(1, seats[:2], seats[2])  # 2 / 3 / 3: 8 fit in two tables
    assert 1 not in harness.director.state.tables and harness.director.state.broken == 1
    # Table 1 was between hands with the fewest (2): it breaks at once.
    assert of(CloseTable, orders) == [CloseTable(1)]
    movers = [o for o in of(UnseatPlayer, orders) if o.reason == "moved"]
    assert len(movers) == 2 and {o.to_table for o in movers} == {2, 3}
    harness2 = Harness(scheduled(seats=4), seed=2)
    harness2.register(12)
    for table in (1, 2):
        seats = sorted(harness2.seats[table])
        harness2.bust(table, seats[:2], seats[2])  # 2 / 2 / 4: 8 players, tables 1 and 2 tie
    assert harness2.director.state.tables.keys() == {1, 3}
    assert harness2.sizes() == {1: 4, 3: 4}


def test_tables_stay_within_one_when_one_breaks_into_the_others() -> None:
    harness = Harness(scheduled("3x4", seats=9), seed=11)
    harness.register(27)
    rng = random.Random(3)
    while len(harness.director.state.tables) > 1:
        harness.random_hand(rng, bust_chance=0.15)
        sizes = harness.sizes()
        if max(sizes.values()) - min(sizes.values()) > 1:
            fullest = [t for t, n in sizes.items() if n == max(sizes.values())]
            assert all(t in harness.playing for t in fullest) or harness.director.state.breaking


# ---------------------------------------------------------------- the bubble and places


def bubble_harness(seed: int = 1) -> Harness:
    """21 entrants on three tables of 7: eight places paid, the bubble at nine left."""
    long_levels = Structure("razz", (10, 20), level_seconds=10**6)
    harness = Harness(scheduled(seats=7, structure=long_levels), seed=seed)
    harness.register(21)
    assert len(harness.director.state.prizes) == 8
    return harness


def test_hand_for_hand_only_at_the_bubble() -> None:
    harness = bubble_harness()
    rng = random.Random(1)
    while len(harness.director.active()) > 10:
        orders = harness.random_hand(rng, bust_chance=0.05)
        assert of(HandForHand, orders) == []
    while len(harness.director.active()) > 9:
        orders = harness.random_hand(rng, bust_chance=0.02)
        if len(harness.director.active()) > 9:
            assert of(HandForHand, orders) == []
    assert HandForHand(True) in harness.orders
    # Now one hand at a time: a table that ends its hand deals nothing until all have.
    assert harness.director.state.hand_for_hand
    while len(harness.playing) > 1:
        table = min(harness.playing)
        assert of(Deal, harness.end(table)) == []
    orders = harness.end(min(harness.playing))
    assert sorted(order.table for order in of(Deal, orders)) == sorted(harness.seats)
    assert len(of(Deal, orders)) == len(harness.seats)


def reach_bubble(harness: Harness) -> None:
    """One bust a hand, at the fullest table dealing, until hand for hand begins."""
    while not harness.director.state.hand_for_hand:
        table = max(sorted(harness.playing), key=lambda number: len(harness.seats[number]))
        seats = sorted(harness.seats[table])
        harness.bust(table, seats[:1], seats[1])
    assert len(harness.director.active()) == 9
    # The hands under way end; only then does the first hand-for-hand round begin.
    while len(harness.playing) < len(harness.seats):
        harness.end(min(harness.playing))
    assert harness.director.state.round == 1


def test_bust_outs_at_different_tables_in_one_hand_for_hand_hand_tie() -> None:
    harness = bubble_harness(seed=3)
    reach_bubble(harness)
    assert len(harness.director.active()) == 9
    tables = sorted(harness.playing)
    assert len(tables) >= 2
    busted, orders = [], []
    for table in tables[:2]:
        seats = sorted(harness.seats[table])
        busted.append(harness.seats[table][seats[0]])
        orders += harness.bust(table, seats[:1], seats[1])
        if table == tables[0]:
            assert of(Placed, orders) == []  # not final until the round has ended everywhere
    for table in tables[2:]:
        orders += harness.end(table)
    placed = {o.entry: o for o in of(Placed, orders)}
    assert set(placed) == set(busted)
    prizes = harness.director.state.prizes
    for entry in busted:
        # Places 8 and 9 shared: the 8th's prize split in two (odd chip to the first).
        assert placed[entry].place == 8 and placed[entry].tied == 2
    assert sorted(o.prize for o in placed.values()) == [prizes[7] // 2, prizes[7] - prizes[7] // 2]
    assert HandForHand(False) in orders


def test_bust_outs_at_one_table_rank_by_the_chips_they_started_with() -> None:
    harness = Harness(sit_and_go("razz", seats=6), seed=1)
    harness.register(6)
    seats = sorted(harness.seats[1])
    entries = dict(harness.seats[1])
    # Give seat 0 more chips first, then bust three in one hand.
    harness.end(1, {seats[0]: 200, seats[1]: -100, seats[2]: -100})
    orders = harness.bust(1, seats[:3], seats[3])
    placed = {o.entry: (o.place, o.tied) for o in of(Placed, orders)}
    assert placed == {
        entries[seats[0]]: (4, 1),
        entries[seats[1]]: (5, 2),
        entries[seats[2]]: (5, 2),
    }


def test_the_last_one_standing_wins_and_every_entry_has_one_place() -> None:
    harness = Harness(sit_and_go("teen-patti", seats=5), seed=4)
    harness.register(5)
    rng = random.Random(5)
    while harness.director.status == "running":
        harness.random_hand(rng)
    placed = of(Placed, harness.orders)
    assert sorted(o.entry for o in placed) == [1, 2, 3, 4, 5]
    assert sum(o.prize for o in placed) == 500
    assert of(Finished, harness.orders) == [Finished()] and harness.seats == {}
    winner = [o for o in placed if o.place == 1]
    assert len(winner) == 1 and winner[0].prize == 325 and winner[0].tied == 1


# ---------------------------------------------------------------- entry, refunds, cancelling


def test_unregistering_before_the_start_gives_everything_back() -> None:
    harness = Harness(scheduled(), seed=1)
    harness.register(3, start=False)
    assert harness.give(Unregister("p2")) == [Refund(2, "p2", 2, 100, 10)]
    with pytest.raises(TournamentError) as refused:
        harness.give(Unregister("p2"))
    assert refused.value.code == "not_registered"
    harness.give(Start(0.0))
    with pytest.raises(TournamentError) as refused:
        harness.give(Unregister("p1"))
    assert refused.value.code == "not_registering"
    with pytest.raises(TournamentError) as refused:
        harness.give(Register("late"))
    assert refused.value.code == "not_registering"


def test_a_scheduled_tournament_short_of_its_minimum_is_cancelled_with_refunds() -> None:
    harness = Harness(scheduled(min_entrants=5), seed=1)
    harness.register(3, start=False)
    orders = harness.give(Start(0.0))
    assert of(Refund, orders) == [Refund(n, f"p{n}", n, 100, 10) for n in (1, 2, 3)]
    assert of(Cancelled, orders) and harness.director.status == "cancelled"


def test_cancelling_before_anyone_is_out_refunds_every_buy_in_and_fee() -> None:
    harness = Harness(scheduled(seats=4), seed=1)
    harness.register(8)
    harness.end(1, {})
    orders = harness.give(Cancel("the room cannot carry it on"))
    assert sorted((o.entry, o.buy_in, o.fee) for o in of(Refund, orders)) == [
        (n, 100, 10) for n in range(1, 9)
    ]
    assert of(Share, orders) == [] and of(CloseTable, orders) == [CloseTable(1), CloseTable(2)]


def test_cancelling_after_bust_outs_refunds_fees_and_shares_the_rest() -> None:
    harness = Harness(scheduled(seats=4), seed=1)
    harness.register(8)  # prizes 400/240/160 of 800
    seats = sorted(harness.seats[1])
    harness.bust(1, seats[:1], seats[1])
    orders = harness.give(Cancel("gone"))
    refunds = of(Refund, orders)
    assert len(refunds) == 8 and all((o.buy_in, o.fee) == (0, 10) for o in refunds)
    shares = {o.entry: o.amount for o in of(Share, orders)}
    assert len(shares) == 7 and sum(shares.values()) == 800  # the 8th place won nothing
    # Half equally (57 each), half by chips: a bigger stack gets more.
    stacks = {e.number: e.stack for e in harness.director.active()}
    biggest = max(stacks, key=lambda n: stacks[n])
    assert shares[biggest] == max(shares.values()) and min(shares.values()) >= 400 // 7


# ---------------------------------------------------------------- late entry


def test_late_registration_seats_new_entries_and_re_entries() -> None:
    structure = Structure("3x4", (2, 4, 8), level_seconds=60)
    harness = Harness(scheduled("3x4", seats=4, structure=structure, late_levels=1, reentries=1))
    harness.register(8)
    assert harness.director.state.registration_open
    harness.give(Register("late", account=99, now=harness.now))
    assert harness.sizes() in ({1: 5, 2: 4}, {1: 4, 2: 5}) or sum(harness.sizes().values()) == 9
    seats = sorted(harness.seats[1])
    busted = harness.seats[1][seats[0]]
    harness.bust(1, seats[:1], seats[1])
    player = f"p{busted}" if busted <= 8 else "late"
    harness.give(Register(player, account=busted, now=harness.now))  # the one re-entry
    with pytest.raises(TournamentError) as refused:
        harness.give(Register("late", now=harness.now))
    assert refused.value.code == "already_registered"
    orders = harness.tick(120)
    (closed,) = of(RegistrationClosed, orders)
    assert closed.entrants == 10 and closed.pool == 1000
    placed = of(Placed, orders)
    assert [(o.entry, o.place) for o in placed] == [(busted, 10)]
    assert harness.director.chips_in_play() == 10 * structure.stack


def test_bad_reports_are_refused_and_change_nothing() -> None:
    harness = Harness(sit_and_go("razz", seats=3), seed=1)
    harness.register(3)
    before = dump(harness.director.state)
    seats = sorted(harness.seats[1])
    stack = harness.stack(harness.seats[1][seats[0]])
    good = [SeatResult(seat, stack, stack) for seat in seats]
    bad_reports = [
        HandReport(2, tuple(good), 0, 1.0),  # no such table
        HandReport(1, tuple(good[:2]), 0, 1.0),  # a seat missing
        HandReport(1, (SeatResult(seats[0], stack, stack + 5), *good[1:]), 0, 1.0),  # chips made
        HandReport(1, (SeatResult(seats[0], stack + 1, stack + 1), *good[1:]), 0, 1.0),
        HandReport(1, tuple(good), 17, 1.0),  # no such seat for the button
        HandReport(1, tuple(good), 0, float("nan")),
        HandReport(1, tuple(good), 0, 1.0, True),  # type: ignore[arg-type]
        HandReport(1, tuple(good), 0, 1.0, "1"),  # type: ignore[arg-type]
    ]
    for report in bad_reports:
        with pytest.raises(TournamentError) as refused:
            harness.director.apply(report)
        assert refused.value.code == "bad_report"
        assert dump(harness.director.state) == before
    with pytest.raises(TournamentError):
        harness.director.apply(Register("", now=0.0))


def test_a_hand_reported_twice_is_taken_once_even_after_the_next_deal() -> None:
    """A table's report and a catch-up's of the same hand: the second is stale, even when
    the director has dealt the table its next hand in between (taken, it would end that
    hand with the old chips, and the real end of it would be refused)."""
    harness = Harness(sit_and_go("razz", seats=3), seed=1)
    harness.register(3)
    seats = sorted(harness.seats[1])
    stacks = [harness.stack(harness.seats[1][seat]) for seat in seats]
    unchanged = tuple(SeatResult(s, n, n) for s, n in zip(seats, stacks, strict=True))
    first = HandReport(1, unchanged, 0, 1.0, 1)
    orders = harness.director.apply(first)
    assert any(isinstance(order, Deal) and order.table == 1 for order in orders)
    before = dump(harness.director.state)
    with pytest.raises(TournamentError) as refused:
        harness.director.apply(first)
    assert refused.value.code == "stale_report"
    assert dump(harness.director.state) == before
    second = dataclasses.replace(first, now=2.0, hand=2)
    harness.director.apply(second)
    assert harness.director.state.tables[1].hands == 2


def test_a_stored_state_carries_the_tournament_on_exactly() -> None:
    rng_a, rng_b = random.Random(8), random.Random(8)
    whole = Harness(scheduled(seats=6), seed=6)
    whole.register(30)
    moved = Harness(scheduled(seats=6), seed=6)
    moved.register(30)
    for _ in range(40):
        whole.random_hand(rng_a, bust_chance=0.1)
        moved.random_hand(rng_b, bust_chance=0.1)
    # Another process takes the tournament over from its stored state.
    moved.director = Director(moved.spec, state=load(dump(moved.director.state)))
    while whole.director.status == "running":
        assert whole.random_hand(rng_a, bust_chance=0.1) == moved.random_hand(rng_b, 0.1)
    assert dump(whole.director.state) == dump(moved.director.state)


# ---------------------------------------------------------------- found in review


def long_levels(**options: object) -> TournamentSpec:
    return scheduled(
        seats=4, structure=Structure("razz", (10, 20, 40), level_seconds=10**6), **options
    )


def test_a_late_entry_after_a_table_was_chosen_to_break_keeps_both_tables() -> None:
    harness = Harness(long_levels(late_levels=2), seed=1)
    harness.register(8)
    seats = sorted(harness.seats[1])
    harness.bust(1, seats[:1], seats[1])
    seats = sorted(harness.seats[2])
    harness.bust(2, seats[:2], seats[2])
    seats = sorted(harness.seats[1])
    harness.bust(1, seats[:1], seats[1])  # 2 / 2: four fit one table, table 2 to break
    assert harness.director.state.breaking == 2
    harness.give(Register("late", account=99, now=harness.now))  # five: they no longer fit
    assert harness.director.state.breaking is None
    harness.end(2)  # table 2's hand ends: nothing breaks, nobody is lost
    harness.end(1)
    assert len(harness.director.state.tables) == 2
    assert all(entry.seated for entry in harness.director.active())
    assert harness.director.chips_in_play() == 9 * 1000


def test_a_table_broken_is_the_one_with_fewest_players_when_it_breaks() -> None:
    harness = Harness(long_levels(), seed=2)
    harness.register(12)  # 4 / 4 / 4
    for table, busts in ((2, 2), (3, 3)):
        seats = sorted(harness.seats[table])
        harness.bust(table, seats[:busts], seats[busts])
    # Table 2 (two players) was the fewest while it dealt; now table 3 (one) is, and goes.
    assert 3 not in harness.director.state.tables and 2 in harness.director.state.tables


def test_levels_by_hands_count_only_hands_dealt_at_the_level() -> None:
    structure = Structure("3x4", (2, 4, 8), level_seconds=None, level_hands=1)
    harness = Harness(scheduled("3x4", seats=4, structure=structure))
    harness.register(8)
    assert of(LevelUp, harness.end(1)) == [LevelUp(1, structure.stakes(1))]
    # Table 2's hand was dealt at level 1: it does not end level 2.
    assert of(LevelUp, harness.end(2)) == []
    assert of(LevelUp, harness.end(1)) == [LevelUp(2, structure.stakes(2))]


def test_a_late_table_opens_with_two_players_and_draws_for_the_button() -> None:
    harness = Harness(long_levels(late_levels=2), seed=1)
    harness.register(4)  # one full table
    assert harness.give(Register("late", account=99, now=harness.now)) == []
    assert harness.sizes() == {1: 4, 2: 1}
    orders = harness.end(1)  # table 1 gives a player to the new table: now two can be dealt
    (opened,) = of(OpenTable, orders)
    assert opened.table == 2 and len(opened.seats) == 2
    assert sorted(order.table for order in of(Deal, orders)) == [1, 2]


def test_a_late_entry_after_registration_closed_is_refused_and_changes_nothing() -> None:
    structure = Structure("razz", (10, 20), level_seconds=60)
    harness = Harness(scheduled(seats=4, structure=structure, late_levels=1), seed=1)
    harness.register(8)
    before = dump(harness.director.state)
    with pytest.raises(TournamentError) as refused:
        harness.director.apply(Register("late", now=5000.0))
    assert refused.value.code == "not_registering"
    assert dump(harness.director.state) == before
    harness.director.apply(Register("early", now=30.0))
    assert len(harness.director.entries) == 9


def test_no_hand_for_hand_when_the_bubble_leaves_one_table() -> None:
    harness = Harness(long_levels(), seed=4)
    harness.register(8)  # 2 tables of 4, three places paid: the bubble at four left
    for table in (1, 2):
        seats = sorted(harness.seats[table])
        harness.bust(table, seats[:2], seats[2])
    assert len(harness.director.state.tables) == 1
    assert not [o for o in harness.orders if isinstance(o, HandForHand)]


def test_bust_outs_of_hands_dealt_before_hand_for_hand_do_not_tie() -> None:
    harness = Harness(
        scheduled(seats=4, structure=Structure("razz", (10,), level_seconds=10**6)), seed=3
    )
    harness.register(21)
    while len(harness.director.active()) > 10:
        table = max(sorted(harness.playing), key=lambda number: len(harness.seats[number]))
        seats = sorted(harness.seats[table])
        harness.bust(table, seats[:1], seats[1])
    for table in sorted(harness.playing):
        harness.end(table)
    first, second = sorted(harness.playing)[:2]
    seats = sorted(harness.seats[first])
    harness.bust(first, seats[:1], seats[1])  # ten to nine: the bubble, hand for hand from now
    assert harness.director.state.hand_for_hand
    seats = sorted(harness.seats[second])
    orders = harness.bust(second, seats[:1], seats[1], seconds=30)  # a hand dealt before
    (placed,) = of(Placed, orders)
    assert (placed.place, placed.tied, placed.prize) == (9, 1, 0)


def test_one_account_holds_one_live_entry_whatever_the_name() -> None:
    harness = Harness(scheduled(), seed=1)
    harness.give(Register("ann", account=5))
    with pytest.raises(TournamentError) as refused:
        harness.give(Register("ann2", account=5))
    assert refused.value.code == "already_registered"


def test_one_person_enters_under_one_account_even_after_a_bust() -> None:
    """RULES.md, "One player, one seat": a player and their bot account (``person`` the
    player's account), or two bot accounts of one owner, never both enter; checked in the
    director's step, whatever asked first, and refused without a change."""
    harness = Harness(scheduled(), seed=1)
    harness.give(Register("ann", account=5, person=5))
    before = dump(harness.director.state)
    for name, account in (("ann_bot", 6), ("ann2_bot", 7)):
        with pytest.raises(TournamentError) as refused:
            harness.give(Register(name, account=account, person=5))
        assert refused.value.code == "same_owner"
    assert dump(harness.director.state) == before
    harness.give(Register("bob_bot", account=8, person=9))  # another person's bot: welcome
    with pytest.raises(TournamentError) as refused:
        harness.give(Register("bob", account=9, person=9))
    assert refused.value.code == "same_owner"


def test_every_paid_place_beats_a_one_chip_buy_in() -> None:
    from pokerhouse.tournament import prizes

    for entrants in (520, 1000, 2474, 3001):
        won = prizes(entrants, entrants)
        assert sum(won) == entrants and min(won) >= 2
