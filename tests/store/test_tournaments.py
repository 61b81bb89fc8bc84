"""Tournaments in the store: each director step saved with its money, all or nothing.

Every test runs on SQLite and PostgreSQL and ends with ``ledger check``
(the autouse fixture), which now also reconciles entries with the ledger,
empties ended pools and counts the chips in play.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from pokerhouse.store import (
    Batch,
    SeatIn,
    StaleLease,
    Store,
    TableBookError,
    TableConfig,
    User,
)
from pokerhouse.store.accounts import FEES, ISSUER, Account
from pokerhouse.store.errors import InsufficientFunds, TournamentBookError
from pokerhouse.store.tournaments import TournamentRecord
from pokerhouse.tournament import Cancel, Register, Start, TournamentSpec, Unregister, built_in
from pokerhouse.tournament.orders import Order
from pokerhouse.tournament.spec import sit_and_go
from pokerhouse.tournament.state import dump as dump_state
from tests.store.conftest import dump, make_users
from tests.store.test_check import tamper
from tests.store.test_hands import settle
from tests.tournament.harness import Harness


class Booked:
    """A scripted tournament (tests/tournament/harness.py) whose every step is saved."""

    def __init__(self, store: Store, record: TournamentRecord) -> None:
        self.store = store
        self.record = record
        self.harness = Harness(record.spec)
        self.harness.director.state = record.state()
        self._seen = 0

    async def save(self) -> None:
        orders: list[Order] = self.harness.orders[self._seen :]
        self._seen = len(self.harness.orders)
        self.record = await self.store.tournaments.step(
            self.record, self.harness.director.state, orders
        )

    async def give(self, given: Any) -> None:
        self.harness.give(given)
        await self.save()

    async def register(self, users: list[User]) -> None:
        for user in users:
            await self.give(Register(user.username, user.id, self.harness.now))

    async def play_out(self, seed: int = 5) -> None:
        rng = random.Random(seed)
        while self.harness.director.status == "running":
            self.harness.step(rng, bust_chance=0.4)
            await self.save()


async def wallets(store: Store, users: list[User]) -> list[int]:
    return [await store.balance(Account.wallet(user.id)) for user in users]


async def test_a_sit_and_go_pays_its_pool_out_and_keeps_its_fees(store: Store) -> None:
    users = await make_users(store, 4, grant=1_000)
    spec = sit_and_go("razz", seats=4, buy_in=100, fee=10)
    booked = Booked(store, await store.tournaments.create(spec))
    await booked.register(users)
    assert booked.record.status == "running" and booked.record.version == 4
    assert await store.balance(booked.record.pool) == 400
    assert await store.balance(FEES) == 40
    assert await wallets(store, users) == [890] * 4
    await booked.play_out()
    assert booked.record.status == "finished" and booked.record.finished_at is not None
    assert await store.balance(booked.record.pool) == 0
    entries = await store.tournaments.entries(booked.record.id)
    assert sorted(e.place for e in entries) == [1, 2, 3, 4]
    assert sum(e.prize for e in entries) == 400 and all(e.paid == 110 for e in entries)
    by_user = {e.user_id: e.prize for e in entries}
    assert await wallets(store, users) == [890 + by_user[u.id] for u in users]
    stored = await store.tournaments.get(booked.record.id)
    assert stored.state_json == booked.record.state_json and stored.version == booked.record.version


async def test_unregistering_gives_the_buy_in_and_fee_back(store: Store) -> None:
    users = await make_users(store, 2, grant=500)
    booked = Booked(store, await store.tournaments.create(sit_and_go("3x4", seats=4)))
    await booked.register(users)
    await booked.give(Unregister(users[0].username))
    assert await wallets(store, users) == [500, 390]
    assert await store.balance(booked.record.pool) == 100 and await store.balance(FEES) == 10
    (gone, kept) = await store.tournaments.entries(booked.record.id)
    assert (gone.paid, gone.refunded, kept.refunded) == (110, 110, 0)
    # Registering again is a new entry, paid again.
    await booked.give(Register(users[0].username, users[0].id))
    assert [e.number for e in await store.tournaments.entries(booked.record.id)] == [1, 2, 3]
    assert await wallets(store, users) == [390, 390]


async def test_an_entry_the_wallet_cannot_pay_writes_nothing(store: Store) -> None:
    (poor,) = await make_users(store, 1, grant=50)
    record = await store.tournaments.create(sit_and_go("razz", seats=2, buy_in=100, fee=10))
    booked = Booked(store, record)
    before = await dump(store)
    with pytest.raises(InsufficientFunds):
        await booked.give(Register(poor.username, poor.id))
    assert await dump(store) == before
    stored = await store.tournaments.get(record.id)
    assert stored.version == 0 and stored.state().entries == []


async def test_a_step_overtaken_by_another_is_refused_and_writes_nothing(store: Store) -> None:
    ann, bob = await make_users(store, 2)
    record = await store.tournaments.create(sit_and_go("razz", seats=3))
    first, second = Booked(store, record), Booked(store, record)
    await first.give(Register(ann.username, ann.id))
    before = await dump(store)
    with pytest.raises(TournamentBookError) as caught:
        await second.give(Register(bob.username, bob.id))
    assert caught.value.code == "stale_tournament"
    assert await dump(store) == before


async def test_a_guarantee_is_made_up_by_the_room_when_prizes_are_paid(store: Store) -> None:
    users = await make_users(store, 3)
    spec = TournamentSpec(
        "Guaranteed", "3x4", "scheduled", built_in("hyper", "3x4"), buy_in=20, fee=2,
        guarantee=500,
    )  # fmt: skip
    booked = Booked(store, await store.tournaments.create(spec, starts_at=1e9))
    await booked.register(users)
    await booked.give(Start(booked.harness.now))
    issued_before = await store.balance(ISSUER)
    await booked.play_out()
    assert booked.record.status == "finished" and booked.record.overlay == 440
    assert await store.balance(ISSUER) == issued_before - 440
    entries = await store.tournaments.entries(booked.record.id)
    assert sum(e.prize for e in entries) == 500


async def test_a_prize_beyond_the_pool_and_guarantee_is_refused(store: Store) -> None:
    users = await make_users(store, 2)
    record = await store.tournaments.create(sit_and_go("razz", seats=2, buy_in=100, fee=0))
    booked = Booked(store, record)
    await booked.register(users)
    await booked.play_out()
    assert await store.balance(booked.record.pool) == 0
    # A director that pays a prize the pool does not hold (here: the same one again).
    placed = [o for o in booked.harness.orders if type(o).__name__ == "Placed" and o.prize]
    again = Booked(store, booked.record)
    with pytest.raises(TournamentBookError) as caught:
        await store.tournaments.step(again.record, again.record.state(), placed)
    assert caught.value.code == "pool_short"


@pytest.mark.parametrize("busted", [False, True])
async def test_a_cancelled_tournament_refunds_and_shares_its_pool(
    store: Store, busted: bool
) -> None:
    users = await make_users(store, 3, grant=1_000)
    spec = TournamentSpec(
        "Evening", "teen-patti", "scheduled", built_in("regular", "teen-patti"), buy_in=100,
        fee=10, seats=2,
    )  # fmt: skip
    booked = Booked(store, await store.tournaments.create(spec))
    await booked.register(users)
    await booked.give(Start(0.0))
    if busted:
        table = min(booked.harness.seats)
        seats = sorted(booked.harness.seats[table])
        booked.harness.bust(table, [seats[0]], seats[1])
        await booked.save()
    await booked.give(Cancel("the room cannot carry it on", booked.harness.now))
    assert booked.record.status == "cancelled"
    assert await store.balance(booked.record.pool) == 0
    assert await store.balance(FEES) == 0
    total = sum(await wallets(store, users))
    assert total == 3_000
    entries = await store.tournaments.entries(booked.record.id)
    if busted:
        assert sum(e.prize for e in entries) == 300 and all(e.refunded == 10 for e in entries)
    else:
        assert all(e.refunded == 110 and e.prize == 0 for e in entries)


async def test_entries_without_a_room_account_are_refused(store: Store) -> None:
    record = await store.tournaments.create(sit_and_go("razz", seats=2))
    booked = Booked(store, record)
    with pytest.raises(TournamentBookError) as caught:
        await booked.give(Register("stranger"))
    assert caught.value.code == "bad_entry"


async def test_lists_and_bad_requests(store: Store) -> None:
    made = [await store.tournaments.create(sit_and_go("razz", seats=2)) for _ in range(3)]
    listed = await store.tournaments.find(["registering"], limit=2)
    assert [r.id for r in listed] == [made[2].id, made[1].id]
    assert await store.tournaments.find(["finished"]) == []
    for call, code in (
        (store.tournaments.find(["paused"]), "bad_status"),
        (store.tournaments.find(limit=0), "bad_limit"),
        (store.tournaments.get(999), "unknown_tournament"),
        (store.tournaments.get(0), "unknown_tournament"),
    ):
        with pytest.raises(TournamentBookError) as caught:
            await call
        assert caught.value.code == code


# ---------------------------------------------------------------- ledger check


async def _played(store: Store) -> Booked:
    users = await make_users(store, 3, grant=1_000)
    booked = Booked(store, await store.tournaments.create(sit_and_go("razz", seats=3)))
    await booked.register(users)
    return booked


async def test_ledger_check_reconciles_entries_with_the_ledger(store: Store) -> None:
    booked = await _played(store)
    await booked.play_out()
    assert (await store.check()).ok
    await tamper(store, "UPDATE tournament_entries SET prize = prize + 1 WHERE place = 1")
    report = await store.check()
    assert report.failed_check == "tournament entries are in the ledger"
    assert f"tournament {booked.record.id}" in (report.violation or "")
    await tamper(store, "UPDATE tournament_entries SET prize = prize - 1 WHERE place = 1")


async def test_ledger_check_finds_an_ended_tournament_with_chips_in_its_pool(
    store: Store,
) -> None:
    booked = await _played(store)
    tournament = booked.record.id
    await tamper(store, f"UPDATE tournaments SET status = 'cancelled' WHERE id = {tournament}")
    report = await store.check()
    assert report.failed_check == "tournament pools" and "330" not in (report.violation or "")
    assert "chips in its pool" in (report.violation or "")
    await tamper(store, f"UPDATE tournaments SET status = 'running' WHERE id = {tournament}")


async def test_ledger_check_counts_a_running_tournaments_chips(store: Store) -> None:
    booked = await _played(store)
    state = booked.record.state()
    state.entries[0].stack += 1
    await tamper(
        store,
        f"UPDATE tournaments SET state = '{dump_state(state).decode()}' "
        f"WHERE id = {booked.record.id}",
    )
    report = await store.check()
    assert report.failed_check == "tournament chips in play"
    await tamper(
        store,
        f"UPDATE tournaments SET state = '{booked.record.state_json}' "
        f"WHERE id = {booked.record.id}",
    )
    assert (await store.check()).ok


# ---------------------------------------------------------------- a tournament's tables


async def _seated(store: Store, players: int = 3) -> tuple[Booked, int, list[User]]:
    """A running sit-and-go whose one table the store has, every player seated there with
    the tournament's chips (as the room will seat them)."""
    users = await make_users(store, players, grant=1_000)
    booked = Booked(store, await store.tournaments.create(sit_and_go("3x4", seats=players)))
    await booked.register(users)
    table = await store.create_table(
        TableConfig(
            f"Tournament {booked.record.id} table 1", "3x4",
            dict(booked.record.spec.structure.stakes(0)), players,
            tournament=booked.record.id, tournament_table=1,
        )
    )  # fmt: skip
    by_user = {u.id: u for u in users}
    for entry in booked.harness.director.entries:
        await store.buy_in(table.id, entry.seat or 0, by_user[entry.account], entry.stack)
    return booked, table.id, users


async def test_a_tournaments_table_takes_its_chips_from_the_tournament(store: Store) -> None:
    booked, table, users = await _seated(store)
    stack = booked.record.spec.structure.stack
    chips = Account.chips(booked.record.id)
    assert await store.balance(chips) == -3 * stack
    # Room chips stay where they were: the wallets paid the buy-in and fee only.
    assert await wallets(store, users) == [890] * 3
    statement = await store.ledger_statement(users[0].id)
    assert statement.in_play == {} and statement.total == 890
    assert (await store.check()).ok
    # A hand moves tournament chips between the seats, as any hand does.
    await settle(store, table, 1, [stack // 2, -stack // 2, 0])
    # Standing up takes the seat's chips back to the tournament, not to the wallet (the
    # player who broke even: the director has not heard of the hand, so its chips for the
    # others are as they were before it, and ledger check would say so).
    even = next(s for s in await store.seats(table) if s.stack == stack)
    await store.cash_out(table, even.seat, even.user_id)
    assert await store.balance(chips) == -2 * stack
    assert await wallets(store, users) == [890] * 3


async def test_a_tournaments_table_is_opened_once(store: Store) -> None:
    booked, table, _ = await _seated(store)
    again = await store.create_table(
        TableConfig(
            "another name", "3x4", dict(booked.record.spec.structure.stakes(0)), 3,
            tournament=booked.record.id, tournament_table=1,
        )
    )  # fmt: skip
    assert again.id == table and again.config.tournament == booked.record.id
    for bad in (
        {"tournament": booked.record.id},
        {"tournament": booked.record.id, "tournament_table": 2, "bots": 1},
        {"tournament": 0, "tournament_table": 1},
    ):
        with pytest.raises(TableBookError) as caught:
            await store.create_table(
                TableConfig("bad", "3x4", dict(booked.record.spec.structure.stakes(0)), **bad)
            )
        assert caught.value.code == "bad_table"


async def test_a_tournaments_seat_brings_nothing_from_a_wallet(store: Store) -> None:
    _, table, users = await _seated(store, players=2)
    with pytest.raises(TableBookError) as caught:
        await store.add_chips(table, 0, users[0], 10)
    assert caught.value.code in ("bad_seat", "not_seated")


async def test_ledger_check_counts_the_chips_at_a_tournaments_tables(store: Store) -> None:
    booked, table, _ = await _seated(store)
    assert (await store.check()).ok
    # The director holds the chips of a player between tables: stand one up.
    seat = (await store.seats(table))[0]
    await store.cash_out(table, seat.seat, seat.user_id)
    assert (await store.check()).ok
    await tamper(store, f"UPDATE table_seats SET stack = stack + 5 WHERE table_id = {table}")
    report = await store.check()
    assert report.failed_check == "in-play accounts hold the seats"
    await tamper(store, f"UPDATE table_seats SET stack = stack - 5 WHERE table_id = {table}")
    state = booked.record.state()
    moved = next(e for e in state.entries if e.account == seat.user_id)
    moved.stack -= 7
    await tamper(
        store,
        f"UPDATE tournaments SET state = '{dump_state(state).decode()}' "
        f"WHERE id = {booked.record.id}",
    )
    report = await store.check()
    assert report.failed_check == "tournament chips in play"
    assert "entries times" in (report.violation or "")
    await tamper(
        store,
        f"UPDATE tournaments SET state = '{booked.record.state_json}' "
        f"WHERE id = {booked.record.id}",
    )


async def test_a_step_and_the_seat_moves_it_orders_are_stored_together_or_not_at_all(
    store: Store,
) -> None:
    """The director's step that seats a table is one transaction with the table's buy-ins:
    a table write refused (a stale lease) leaves neither; accepted, both are there."""
    users = await make_users(store, 2, grant=1_000)
    booked = Booked(store, await store.tournaments.create(sit_and_go("3x4", seats=2)))
    await booked.give(Register(users[0].username, users[0].id, booked.harness.now))
    table = await store.create_table(
        TableConfig(
            f"Tournament {booked.record.id} table 1", "3x4",
            dict(booked.record.spec.structure.stakes(0)), 2,
            tournament=booked.record.id, tournament_table=1,
        )
    )  # fmt: skip
    lease = await store.acquire_table(table.id, "node-a", seconds=60)
    booked.harness.give(Register(users[1].username, users[1].id, booked.harness.now))
    orders = booked.harness.orders[booked._seen :]
    stack = booked.record.spec.structure.stack
    moves = [
        SeatIn(table.id, seat, user.id, stack, f"t{table.id}-seat-{seat}", lease)
        for seat, user in enumerate(users)
    ]
    before = await dump(store)
    stale = Batch(seats_in=[dataclasses.replace(moves[0], lease=lease + 1), moves[1]])
    with pytest.raises(StaleLease):
        await store.tournaments.step(booked.record, booked.harness.director.state, orders, stale)
    assert await dump(store) == before  # neither the step nor the seats
    saved = await store.tournaments.step(
        booked.record, booked.harness.director.state, orders, Batch(seats_in=moves)
    )
    assert saved.version == booked.record.version + 1 and saved.status == "running"
    assert sorted(s.user_id for s in await store.seats(table.id)) == sorted(u.id for u in users)
    assert await store.balance(Account.chips(saved.id)) == -2 * stack
