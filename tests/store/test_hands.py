"""Hand logs: starts, appends, finishes and voids; group commit; fencing; the deck stays secret."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any

import pytest

from pokerhouse.cards import Deck
from pokerhouse.store import (
    RAKE,
    Account,
    ActionRecord,
    Batch,
    DamagedLog,
    HandFinish,
    HandLogError,
    HandStart,
    HandVoid,
    IdempotencyConflict,
    LoggedAction,
    SeatIn,
    SeatOut,
    StaleLease,
    Store,
    TableBookError,
    TransactionKind,
    rebuild_hand,
)
from tests.helpers import policy_action
from tests.store.conftest import Clock, dump, make_table
from tests.store.writes import (
    add_chips,
    append_actions,
    begin_hand,
    buy_in,
    cash_out,
    finish_hand,
    void_hand,
)

ORDER = tuple(str(card) for card in Deck(random.Random(11)).order())


async def start_for(
    store: Store, table: int, number: int, *, lease: int | None = None, game: str = "3x4"
) -> HandStart:
    """A start for every seated player of ``table`` as the store has them."""
    seats = [(s.seat, s.user_id, s.stack) for s in await store.tables.seats(table)]
    return HandStart(table, number, game, {}, {}, seats, ORDER, 5, start_seq=100, lease=lease)


async def settle(
    store: Store, table: int, number: int, results: Sequence[int], **finish: Any
) -> None:
    """Start hand ``number`` at ``table`` and finish it with ``results``."""
    await store.commit(Batch(starts=[await start_for(store, table, number)]))
    await finish_hand(store, table, number, results, **finish)


async def seated_table(store: Store, players: int = 3, name: str = "T", **settings: Any) -> int:
    users = await make_users_named(store, players, name)
    table = await make_table(store, name, **settings)
    for seat, user in enumerate(users):
        await buy_in(store, table, seat, user, 500)
    return table


async def make_users_named(store: Store, count: int, prefix: str) -> list[int]:
    return [
        (await store.users.create(f"{prefix.replace(' ', '')}-p{i}", None, bot=True)).id
        for i in range(count)
    ]


async def test_a_hand_from_start_to_settlement(store: Store) -> None:
    table = await seated_table(store, 3)
    users = [s.user_id for s in await store.tables.seats(table)]
    hand_id = await begin_hand(
        store,
        table, 1, "3x4", {}, {}, [(0, users[0], 500), (1, users[1], 500), (2, users[2], 500)],
        {"order": list(ORDER), "seed": 5}, start_seq=40,
    )  # fmt: skip
    await append_actions(store, [ActionRecord(table, 1, 0, 0, "bet", 10)])
    await append_actions(
        store, [ActionRecord(table, 1, 1, 1, "fold"), ActionRecord(table, 1, 2, 2, "call")]
    )
    tx = await finish_hand(store, table, 1, [12, -1, -11], history='{"format": "x"}')
    assert tx.key == f"hand:{table}:1" and tx.kind is TransactionKind.SETTLEMENT
    assert {e.account: e.amount for e in tx.entries} == {
        Account.in_play(table, users[0]): 12,
        Account.in_play(table, users[1]): -1,
        Account.in_play(table, users[2]): -11,
    }
    assert [s.stack for s in await store.tables.seats(table)] == [512, 499, 489]
    record = await store.hands.get(hand_id)
    assert record.status == "finished" and record.results == (12, -1, -11)
    assert record.start_seq == 40 and record.settlement_id == tx.id
    assert [(a.seq, a.kind, a.amount) for a in record.actions] == [
        (0, "bet", 10),
        (1, "fold", None),
        (2, "call", None),
    ]
    assert record.history == '{"format": "x"}'
    summaries = await store.hands.played_by(users[0])
    assert [(h.id, h.result, h.status) for h in summaries] == [(hand_id, 12, "finished")]
    assert await store.hands.played_per_table() == {table: 1}
    assert await store.hands.unfinished() == []


async def test_rake_goes_to_the_rake_account(store: Store) -> None:
    table = await seated_table(store, 2, rake_bps=500, rake_cap=10)
    await settle(store, table, 1, [7, -10], rake=3)
    assert await store.ledger.balance(RAKE) == 3


async def test_a_hand_in_which_no_chip_moves_has_an_empty_settlement(store: Store) -> None:
    table = await seated_table(store, 2)
    await settle(store, table, 1, [0, 0])
    rows = await dump(store)
    (tx,) = [row for row in rows["ledger_transactions"] if row[1] == f"hand:{table}:1"]
    assert not [entry for entry in rows["ledger_entries"] if entry[1] == tx[0]]
    (hand,) = rows["hands"]
    assert hand[7] == "finished" and hand[15] == tx[0]


async def test_group_commit_of_several_tables_in_one_transaction(store: Store) -> None:
    tables = [await seated_table(store, 2, name=f"G{i}") for i in range(3)]
    batch = Batch(
        starts=[await start_for(store, t, 1) for t in tables],
        actions=[ActionRecord(t, 1, seq, seq % 2, "check") for t in tables for seq in range(3)],
    )
    result = await store.commit(batch)
    assert set(result.hand_ids) == {(t, 1) for t in tables}
    finish = Batch(
        actions=[ActionRecord(t, 1, 3, 1, "check") for t in tables],
        finishes=[HandFinish(t, 1, [5, -5]) for t in tables],
    )
    done = await store.commit(finish)
    assert set(done.settlements) == {(t, 1) for t in tables}
    for t in tables:
        assert [s.stack for s in await store.tables.seats(t)] == [505, 495]
        log = (await store.hands.get(result.hand_ids[t, 1])).actions
        assert [a.seq for a in log] == [0, 1, 2, 3]


async def test_one_bad_item_writes_nothing_of_the_batch(store: Store) -> None:
    tables = [await seated_table(store, 2, name=f"B{i}") for i in range(2)]
    await store.commit(Batch(starts=[await start_for(store, tables[0], 1)]))
    before = await dump(store)
    bad = Batch(
        starts=[await start_for(store, tables[1], 1)],
        actions=[ActionRecord(tables[0], 1, 0, 0, "check"), ActionRecord(tables[0], 1, 5, 1, "x")],
    )
    with pytest.raises(HandLogError) as caught:
        await store.commit(bad)
    assert caught.value.code == "bad_action"
    wrong_seq = Batch(
        starts=[await start_for(store, tables[1], 1)],
        actions=[ActionRecord(tables[0], 1, 1, 0, "check")],
    )
    with pytest.raises(HandLogError) as caught:
        await store.commit(wrong_seq)
    assert caught.value.code == "bad_sequence"
    assert await dump(store) == before
    # Several hands advanced in one statement: one out of order refuses them all.
    await store.commit(Batch(starts=[await start_for(store, tables[1], 1)]))
    both = await dump(store)
    with pytest.raises(HandLogError) as caught:
        await store.commit(
            Batch(actions=[ActionRecord(tables[0], 1, 0, 0, "check"),
                           ActionRecord(tables[1], 1, 4, 0, "check")])
        )  # fmt: skip
    assert caught.value.code == "bad_sequence" and f"table {tables[1]}" in str(caught.value)
    assert await dump(store) == both


async def test_appends_must_come_in_order(store: Store) -> None:
    table = await seated_table(store, 2)
    await store.commit(Batch(starts=[await start_for(store, table, 1)]))
    await append_actions(store, [ActionRecord(table, 1, 0, 0, "check")])
    before = await dump(store)
    cases = [
        ([ActionRecord(table, 1, 0, 0, "check")], "bad_sequence"),  # a repeat
        ([ActionRecord(table, 1, 2, 0, "check")], "bad_sequence"),  # a gap
        ([ActionRecord(table, 1, 1, 0, "check"), ActionRecord(table, 1, 3, 0, "check")],
         "bad_sequence"),
        ([ActionRecord(table, 2, 0, 0, "check")], "unknown_hand"),
        ([ActionRecord(table, 1, 1, 0, "bet", 2.5)], "bad_action"),  # type: ignore[arg-type]
        ([ActionRecord(table, 1, 1, 0, "bet", True)], "bad_action"),  # type: ignore[arg-type]
        ([ActionRecord(table, 1, 1, 10, "check")], "bad_action"),
        ([ActionRecord(table, 1, -1, 0, "check")], "bad_action"),
    ]  # fmt: skip
    for actions, code in cases:
        with pytest.raises(HandLogError) as caught:
            await append_actions(store, actions)
        assert caught.value.code == code, (actions, str(caught.value))
    with pytest.raises(TableBookError):
        await append_actions(store, [ActionRecord(999, 1, 1, 0, "check")])
    assert await dump(store) == before


async def test_hand_starts_are_checked_against_the_seats(store: Store) -> None:
    table = await seated_table(store, 2)
    seats = [(s.seat, s.user_id, s.stack) for s in await store.tables.seats(table)]
    before = await dump(store)
    bad_starts = [
        (HandStart(table, 1, "3x4", {}, {}, [(0, seats[0][1], 499), seats[1]], ORDER, 1),
         "seat_mismatch"),
        (HandStart(table, 1, "3x4", {}, {}, [(0, seats[1][1], 500), seats[1]], ORDER, 1),
         "seat_mismatch"),
        (HandStart(table, 1, "3x4", {}, {}, [seats[0], (5, seats[1][1], 500)], ORDER, 1),
         "seat_mismatch"),
        (HandStart(table, 1, "razz", {}, {}, seats, ORDER, 1), "bad_hand"),
        (HandStart(table, 1, "chess", {}, {}, seats, ORDER, 1), "bad_hand"),
        (HandStart(table, 1, "3x4", {}, {}, seats, ORDER[:51], 1), "bad_hand"),
        (HandStart(table, 1, "3x4", {}, {}, seats, (*ORDER[:51], ORDER[0]), 1), "bad_hand"),
        (HandStart(table, 1, "3x4", {}, {}, seats, (*ORDER[:51], "Xx"), 1), "bad_hand"),
        (HandStart(table, 1, "3x4", {}, {}, seats, ORDER, 1.5), "bad_hand"),  # type: ignore[arg-type]
        (HandStart(table, 0, "3x4", {}, {}, seats, ORDER, 1), "bad_hand"),
        (HandStart(table, 1, "3x4", {"x": object()}, {}, seats, ORDER, 1), "bad_hand"),
        (HandStart(table, 1, "3x4", {}, {}, [seats[0], seats[0]], ORDER, 1), "bad_hand"),
        (HandStart(table, 1, "3x4", {}, {}, [], ORDER, 1), "bad_hand"),
        (HandStart(table, 1, "3x4", {}, {}, [(0, 1)], ORDER, 1), "bad_hand"),  # type: ignore[list-item]
    ]  # fmt: skip
    for start, code in bad_starts:
        with pytest.raises(HandLogError) as caught:
            await store.commit(Batch(starts=[start]))
        assert caught.value.code == code, (start, str(caught.value))
    assert await dump(store) == before
    await store.commit(Batch(starts=[await start_for(store, table, 1)]))
    for number, code in [(2, "hand_running"), (1, "hand_exists")]:
        with pytest.raises(HandLogError) as caught:
            await store.commit(Batch(starts=[await start_for(store, table, number)]))
        assert caught.value.code == code


async def test_finishes_are_checked(store: Store) -> None:
    table = await seated_table(store, 2)
    await store.commit(Batch(starts=[await start_for(store, table, 1)]))
    before = await dump(store)
    for results, extra, code in [
        ([5, -4], {}, "bad_results"),  # does not balance
        ([5, -5, 0], {}, "bad_results"),  # one result too many
        ([501, -501], {}, "bad_results"),  # more than a stack
        ([5, -6], {"house_result": 1}, "bad_results"),  # no house in 3x4
        ([5, -5], {"rake": -1}, "bad_results"),
        ([5.0, -5.0], {}, "bad_results"),
        ([], {}, "bad_results"),
        ([5, -5], {"history": "{not json"}, "bad_results"),
    ]:
        with pytest.raises(HandLogError) as caught:
            await finish_hand(store, table, 1, results, **extra)
        assert caught.value.code == code, (results, extra, str(caught.value))
    with pytest.raises(HandLogError) as caught:
        await finish_hand(store, table, 7, [5, -5])
    assert caught.value.code == "unknown_hand"
    assert await dump(store) == before


async def test_a_repeated_finish_returns_the_first_settlement(store: Store) -> None:
    table = await seated_table(store, 2)
    await store.commit(Batch(starts=[await start_for(store, table, 1)]))
    first = await finish_hand(store, table, 1, [5, -5])
    before = await dump(store)
    assert await finish_hand(store, table, 1, [5, -5]) == first
    with pytest.raises(IdempotencyConflict):
        await finish_hand(store, table, 1, [6, -6])
    with pytest.raises(HandLogError) as caught:
        await append_actions(store, [ActionRecord(table, 1, 0, 0, "check")])
    assert caught.value.code == "hand_not_running"
    assert await dump(store) == before


async def test_a_void_moves_no_chip_and_says_why(store: Store) -> None:
    table = await seated_table(store, 2)
    hand_id = (await store.commit(Batch(starts=[await start_for(store, table, 1)]))).hand_ids[
        table, 1
    ]
    await append_actions(store, [ActionRecord(table, 1, 0, 0, "bet", 20)])
    await void_hand(store, table, 1, "the log does not replay")
    await void_hand(store, table, 1, "the log does not replay")  # again: nothing more
    record = await store.hands.get(hand_id)
    assert record.status == "voided" and record.void_reason == "the log does not replay"
    assert record.results is None and record.settlement_id is None
    assert [s.stack for s in await store.tables.seats(table)] == [500, 500]
    for call, code in [
        (finish_hand(store, table, 1, [5, -5]), "hand_not_running"),
        (void_hand(store, table, 1, "another reason"), "hand_not_running"),
        (void_hand(store, table, 9, "no such hand"), "unknown_hand"),
        (void_hand(store, table, 2, ""), "bad_hand"),
    ]:
        with pytest.raises(HandLogError) as caught:
            await call
        assert caught.value.code == code
    # The table deals on.
    await settle(store, table, 2, [1, -1])


async def test_chips_move_only_between_hands(store: Store) -> None:
    table = await seated_table(store, 2)
    users = [s.user_id for s in await store.tables.seats(table)]
    await store.commit(Batch(starts=[await start_for(store, table, 1)]))
    for call in (cash_out(store, table, 0, users[0]), add_chips(store, table, 1, users[1], 10)):
        with pytest.raises(TableBookError) as caught:
            await call
        assert caught.value.code == "seat_in_hand"
    # A new player may sit down meanwhile; they are dealt in from the next hand.
    newcomer = (await store.users.create("newcomer", None, bot=True)).id
    await buy_in(store, table, 2, newcomer, 300)
    await finish_hand(store, table, 1, [-20, 20])
    await cash_out(store, table, 0, users[0])
    assert await store.ledger.balance(Account.wallet(users[0])) == 10_000 - 20


async def test_writes_under_a_stale_lease_are_refused(store: Store, clock: Clock) -> None:
    """Every kind of table write: hand logs, settlements, voids, buy-ins, chips, cash-outs."""
    table = await seated_table(store, 2)
    extra = (await store.users.create("late", None, bot=True)).id
    old = await store.tables.acquire(table, "node-a")
    await store.commit(Batch(starts=[await start_for(store, table, 1, lease=old)]))
    await append_actions(store, [ActionRecord(table, 1, 0, 0, "check", lease=old)])
    clock.now += 11  # node-a's lease lapses and node-b takes the table
    new = await store.tables.acquire(table, "node-b")
    assert new == old + 1
    before = await dump(store)
    users = [s.user_id for s in await store.tables.seats(table)]
    for batch in [
        Batch(actions=[ActionRecord(table, 1, 1, 1, "check", lease=old)]),
        Batch(actions=[ActionRecord(table, 1, 1, 1, "check")]),
        Batch(finishes=[HandFinish(table, 1, [1, -1], lease=old)]),
        Batch(voids=[HandVoid(table, 1, "taken over", lease=old)]),
        Batch(actions=[ActionRecord(table, 1, 1, 1, "check", lease=new + 1)]),
        Batch(seats_in=[SeatIn(table, 2, extra, 100, "buy:late", lease=old)]),
        Batch(seats_in=[SeatIn(table, 0, users[0], 10, "add:0", lease=old, add=True)]),
        Batch(seats_out=[SeatOut(table, 1, users[1], 500, "out:1", lease=old)]),
    ]:
        with pytest.raises(StaleLease) as caught:
            await store.commit(batch)
        assert caught.value.code == "stale_lease"
    for call in (
        buy_in(store, table, 2, extra, 100, lease=old),
        add_chips(store, table, 0, users[0], 10, lease=old),
        cash_out(store, table, 1, users[1], lease=old),
    ):
        with pytest.raises(StaleLease):
            await call
    assert await dump(store) == before
    await append_actions(store, [ActionRecord(table, 1, 1, 1, "check", lease=new)])
    await finish_hand(store, table, 1, [1, -1], lease=new)
    await store.commit(Batch(seats_in=[SeatIn(table, 2, extra, 100, "buy:late", lease=new)]))
    await cash_out(store, table, 2, extra, lease=new)


async def test_a_lease_is_taken_only_when_free_expired_or_already_ones_own(
    store: Store, clock: Clock
) -> None:
    table = await seated_table(store, 2)
    first = await store.tables.acquire(table, "node-a", seconds=10)
    with pytest.raises(TableBookError) as held:
        await store.tables.acquire(table, "node-b", seconds=10)
    assert held.value.code == "lease_held" and "node-a" in str(held.value)
    again = await store.tables.acquire(table, "node-a", seconds=10)  # a reload by its holder
    assert again == first + 1
    clock.now += 8
    assert await store.tables.renew("node-a", {table: again}, seconds=10) == {table}
    clock.now += 8  # 16 s after the taking, 8 after the renewal: still held
    with pytest.raises(TableBookError):
        await store.tables.acquire(table, "node-b", seconds=10)
    assert await store.tables.renew("node-a", {table: first}, seconds=10) == set()  # stale
    clock.now += 3
    taken = await store.tables.acquire(table, "node-b", seconds=10)
    assert taken == again + 1
    assert await store.tables.renew("node-a", {table: again}, seconds=10) == set()
    assert not await store.tables.release(table, "node-a", again)
    assert await store.tables.release(table, "node-b", taken)
    assert await store.tables.acquire(table, "node-c", seconds=10) == taken + 1


async def test_the_deck_never_leaves_through_a_read_model(store: Store) -> None:
    table = await seated_table(store, 2)
    users = [s.user_id for s in await store.tables.seats(table)]
    hand_id = (await store.commit(Batch(starts=[await start_for(store, table, 1)]))).hand_ids[
        table, 1
    ]
    running = await store.hands.get(hand_id)
    await finish_hand(store, table, 1, [3, -3])
    shown = [
        running,
        await store.hands.get(hand_id),
        await store.hands.played_by(users[0]),
        await store.ledger.statement(users[0]),
        await store.tables.all(),
        await store.tables.seats(table),
    ]
    deck_text = " ".join(ORDER)
    for value in shown:
        assert deck_text not in repr(value) and "deck" not in repr(value)
    assert not hasattr(running, "deck_order") and not hasattr(running, "deck_seed")
    log = await store.hands.log(hand_id)
    assert log.deck_order == ORDER and log.deck_seed == 5


async def test_unfinished_hands_resume_by_replay(store: Store) -> None:
    table = await seated_table(store, 3)
    hand_id = (await store.commit(Batch(starts=[await start_for(store, table, 1)]))).hand_ids[
        table, 1
    ]
    live = rebuild_hand(await store.hands.log(hand_id))
    rng = random.Random(3)
    for seq in range(4):
        seat = live.to_act
        assert seat is not None
        action = policy_action(live, rng)
        live.act(action, seat)
        await append_actions(store, [ActionRecord.of(table, 1, seq, seat, action)])
    (log,) = await store.hands.unfinished()
    assert log.id == hand_id and len(log.actions) == 4
    assert (await store.hands.unfinished(table)) == [log]
    resumed = rebuild_hand(log)
    assert resumed.events == live.events and resumed.to_act == live.to_act


async def test_a_damaged_log_is_named_and_the_hand_voided(store: Store) -> None:
    table = await seated_table(store, 2)
    await store.commit(Batch(starts=[await start_for(store, table, 1)]))
    # The store logs what it is given; an action the rules refuse damages the log.
    await append_actions(store, [ActionRecord(table, 1, 0, 1, "raise", 10**6)])
    (log,) = await store.hands.unfinished()
    with pytest.raises(DamagedLog) as caught:
        rebuild_hand(log)
    assert caught.value.code == "damaged_log"
    for broken in [
        dataclasses.replace(log, deck_order=log.deck_order[:51]),
        dataclasses.replace(log, spec={"ante": "lots"}),
        dataclasses.replace(log, game="chess"),
        dataclasses.replace(log, setup={"antes": [1, 1]}),
        dataclasses.replace(log, actions=(LoggedAction(1, 0, "check", None),)),
        dataclasses.replace(log, actions=(LoggedAction(0, 0, "dance", None),)),
    ]:
        with pytest.raises(DamagedLog):
            rebuild_hand(broken)
    await void_hand(store, table, 1, f"damaged log: {caught.value}")
    assert await store.hands.unfinished() == []
