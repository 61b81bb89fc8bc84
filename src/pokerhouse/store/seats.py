"""Seats as the store knows them: buy-ins, added chips and cash-outs.

A seat row (table, seat, player, stack) changes in the same database
transaction as the ledger transaction that moves its chips, so a player's
in-play account at a table always holds exactly the stacks of their seats
there. Chips are added and cashed out only between hands: a seat dealt into
a running hand is refused (``seat_in_hand``). These units run inside a
table's batch (:mod:`pokerhouse.store.hands`), behind its lease check.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pokerhouse.store.accounts import ISSUER, Account, AccountKind, Transaction, TransactionKind
from pokerhouse.store.errors import HandLogError, IdempotencyConflict, LedgerError, TableBookError
from pokerhouse.store.handlog import SeatIn, SeatOut
from pokerhouse.store.ledger import (
    SELECT_TRANSACTION,
    account_ids,
    apply,
    ensure_account,
    existing,
    load_transaction,
    posting,
    reserve,
    transaction_of,
)
from pokerhouse.store.sql import Context, Stmt, Unit, all_rows, one, run


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """An occupied seat: who sits there and with how many chips."""

    table_id: int
    seat: int
    user_id: int
    stack: int
    sat_at: float


@dataclass(frozen=True, slots=True)
class SeatChange:
    """What a seat operation did: the seat now (``None`` once left) and its transaction.

    A cash-out of an empty stack moves no chips and has no transaction.
    """

    seat: SeatRecord | None
    transaction: Transaction | None


BALANCE = Stmt("SELECT balance FROM ledger_accounts WHERE key = :key")
SELECT_LIMITS = Stmt(
    "SELECT seats, min_buy_in, max_buy_in, max_boxes, tournament_id FROM room_tables "
    "WHERE id = :table"
)
SELECT_SEATS = Stmt(
    "SELECT table_id, seat, user_id, stack, sat_at FROM table_seats "
    "WHERE table_id = :table ORDER BY seat"
)
SELECT_USER_SEATS = Stmt(
    "SELECT table_id, seat, user_id, stack, sat_at FROM table_seats "
    "WHERE user_id = :user ORDER BY table_id, seat"
)
SEAT_IN_HAND = Stmt(
    "SELECT h.number FROM hands h JOIN hand_players p ON p.hand_id = h.id "
    "WHERE h.table_id = :table AND h.status = 'running' AND p.table_seat = :seat"
)
INSERT_SEAT = Stmt(
    "INSERT INTO table_seats (table_id, seat, user_id, stack, sat_at) "
    "VALUES (:table, :seat, :user, :stack, :now) ON CONFLICT DO NOTHING RETURNING seat"
)
ADD_TO_STACK = Stmt(
    "UPDATE table_seats SET stack = stack + :amount "
    "WHERE table_id = :table AND seat = :seat AND user_id = :user"
)
# The room's own bots sit at one table at a time, whichever node seats them.
SEATED_ELSEWHERE = Stmt(
    "SELECT table_id FROM table_seats WHERE user_id = :user AND table_id <> :table LIMIT 1"
)
DELETE_SEAT = Stmt(
    "DELETE FROM table_seats WHERE table_id = :table AND seat = :seat AND user_id = :user"
)


def seat_of(row: Sequence[Any]) -> SeatRecord:
    """A :class:`SeatRecord` from a row of ``SELECT_SEATS``."""
    return SeatRecord(int(row[0]), int(row[1]), int(row[2]), int(row[3]), float(row[4]))


def seats_unit(ctx: Context, table_id: int) -> Unit[list[SeatRecord]]:
    """The occupied seats of a table."""
    return [seat_of(row) for row in (yield all_rows(SELECT_SEATS, table=table_id))]


def user_seats_unit(ctx: Context, user_id: int) -> Unit[list[SeatRecord]]:
    """Every seat one user holds, at every table."""
    return [seat_of(row) for row in (yield all_rows(SELECT_USER_SEATS, user=user_id))]


@dataclass(frozen=True, slots=True)
class _Limits:
    seats: int
    low: int
    high: int
    boxes: int
    #: The tournament whose table it is (``None``: a cash table).
    tournament: int | None


def _limits(table_id: int) -> Unit[_Limits]:
    row = yield one(SELECT_LIMITS, table=table_id)
    if row is None:
        raise TableBookError("unknown_table", f"there is no table {table_id!r}")
    tournament = None if row[4] is None else int(row[4])
    return _Limits(int(row[0]), int(row[1]), int(row[2]), int(row[3]), tournament)


def _source(limits: _Limits, user_id: int) -> Account:
    """Where a seat's chips come from and go back to: the player's wallet at a cash
    table, the tournament's chips at a tournament's table."""
    if limits.tournament is None:
        return Account.wallet(user_id)
    return Account.chips(limits.tournament)


def _ids(ctx: Context, table_id: int, user_id: int, source: Account) -> Unit[dict[str, int]]:
    if source.kind is AccountKind.CHIPS:
        ids = {source.key: (yield from ensure_account(ctx, source))}
    else:
        try:
            ids = yield from account_ids(ctx, [source.key])
        except LedgerError:
            raise TableBookError("unknown_user", f"there is no user {user_id}") from None
    in_play = Account.in_play(table_id, user_id)
    ids[in_play.key] = yield from ensure_account(ctx, in_play)
    return ids


def _held(seats: list[SeatRecord], seat: int, user_id: int) -> SeatRecord:
    for record in seats:
        if record.seat == seat:
            if record.user_id != user_id:
                break
            return record
    raise TableBookError("not_seated", f"user {user_id} does not sit in seat {seat}")


def _not_in_hand(table_id: int, seat: int) -> Unit[None]:
    row = yield one(SEAT_IN_HAND, table=table_id, seat=seat)
    if row is not None:
        raise TableBookError(
            "seat_in_hand", f"seat {seat} is dealt into hand {row[0]}: wait for it to end"
        )


def _current(ctx: Context, table_id: int, seat: int, user_id: int) -> Unit[SeatRecord | None]:
    for record in (yield from seats_unit(ctx, table_id)):
        if record.seat == seat and record.user_id == user_id:
            return record
    return None


def seat_in_unit(ctx: Context, move: SeatIn) -> Unit[SeatChange]:
    """Chips from the wallet (at a tournament's table: from the tournament's chips) to a
    seat: seat the player (a buy-in) or add to their seat.

    A repeated key returns the first transaction (and the seat as it is);
    the same key for other chips is a conflict.
    """
    table_id, seat, user_id, amount = move.table_id, move.seat, move.user_id, move.amount
    limits = yield from _limits(table_id)
    n_seats, low, high, max_boxes = limits.seats, limits.low, limits.high, limits.boxes
    if not 0 <= seat < n_seats:
        raise TableBookError("bad_seat", f"seats are numbered 0 to {n_seats - 1}, not {seat}")
    if limits.tournament is not None and (move.fund or move.add):
        raise TableBookError(
            "bad_seat", "a tournament's player brings their tournament chips, nothing more"
        )
    wallet = _source(limits, user_id)
    what = "add-chips" if move.add else "buy-in"
    post = posting(
        move.key,
        TransactionKind.BUY_IN,
        {wallet: -amount, Account.in_play(table_id, user_id): amount},
        meta={"table": table_id, "seat": seat},
        reserved=True,
    )
    ids = yield from _ids(ctx, table_id, user_id, wallet)
    if (yield one(SELECT_TRANSACTION, key=move.key)) is not None:
        # Done before (a retry): the first transaction, and no funding again.
        tx = yield from existing(ctx, post)
        return SeatChange((yield from _current(ctx, table_id, seat, user_id)), tx)
    if move.fund:
        yield from _fund(ctx, wallet, amount, f"{move.key}:fund"[:200])
    tx_id = yield from reserve(ctx, post)
    if tx_id is None:
        tx = yield from existing(ctx, post)
        return SeatChange((yield from _current(ctx, table_id, seat, user_id)), tx)
    seats = yield from seats_unit(ctx, table_id)
    if move.add:
        record = _held(seats, seat, user_id)
        yield from _not_in_hand(table_id, seat)
        if record.stack + amount > high:
            raise TableBookError(
                "buy_in_too_large",
                f"{record.stack} + {amount} chips is above the table maximum of {high}",
            )
    else:
        if any(record.seat == seat for record in seats):
            raise TableBookError("seat_taken", f"seat {seat} is taken")
        boxes = sum(record.user_id == user_id for record in seats)
        if boxes >= max_boxes:
            raise TableBookError(
                "too_many_boxes",
                f"user {user_id} holds {boxes} seat(s) at this table, the most one player may",
            )
        if amount < low:
            raise TableBookError(
                "buy_in_too_small", f"a {what} of {amount} is below the minimum of {low}"
            )
        if amount > high:
            raise TableBookError(
                "buy_in_too_large", f"a {what} of {amount} is above the maximum of {high}"
            )
    (after,) = yield from apply(ctx, [(tx_id, post)], ids)
    if move.fund and not move.add:
        # Asked only now that the wallet's row is locked (by the posting): a buy-in of the
        # same bot at another table, on another node, waits for this one and then sees it.
        elsewhere = yield one(SEATED_ELSEWHERE, user=user_id, table=table_id)
        if elsewhere is not None:
            raise TableBookError(
                "bot_busy", f"bot {user_id} already sits at table {int(elsewhere[0])}"
            )
    if move.add:
        yield run(ADD_TO_STACK, table=table_id, seat=seat, user=user_id, amount=amount)
        new = SeatRecord(table_id, seat, user_id, record.stack + amount, record.sat_at)
    else:
        row = yield one(
            INSERT_SEAT, table=table_id, seat=seat, user=user_id, stack=amount, now=ctx.now
        )
        if row is None:
            raise TableBookError("seat_taken", f"seat {seat} is taken")
        new = SeatRecord(table_id, seat, user_id, amount, ctx.now)
    return SeatChange(new, transaction_of(ctx, tx_id, post, after))


def _fund(ctx: Context, wallet: Account, amount: int, key: str) -> Unit[None]:
    """Top ``wallet`` up from the issuer so it holds ``amount`` (the room's bots)."""
    row = yield one(BALANCE, key=wallet.key)
    if row is None:
        raise TableBookError("unknown_user", f"there is no {wallet}")
    short = amount - int(row[0])
    if short <= 0:
        return
    top_up = posting(key, TransactionKind.TOP_UP, {ISSUER: -short, wallet: short}, memo="bot")
    ids = yield from account_ids(ctx, [ISSUER.key, wallet.key])
    tx_id = yield from reserve(ctx, top_up)
    if tx_id is None:
        yield from existing(ctx, top_up)
        return
    yield from apply(ctx, [(tx_id, top_up)], ids)


def seat_out_unit(ctx: Context, move: SeatOut) -> Unit[SeatChange]:
    """Stand the player up: the seat's stack goes back to the wallet, or to the
    tournament's chips at its table (``cash-out``).

    The stack must be ``move.chips`` (what the table says it holds); a
    repeated key returns the first transaction.
    """
    table_id, seat, user_id, key = move.table_id, move.seat, move.user_id, move.key
    meta = {"table": table_id, "seat": seat}
    done = yield one(SELECT_TRANSACTION, key=key)
    if done is not None:
        first = yield from load_transaction(ctx, done)
        if first.kind is not TransactionKind.CASH_OUT or first.meta != meta:
            raise IdempotencyConflict(
                "idempotency_conflict", f"key {key!r} was used for another transaction"
            )
        return SeatChange(None, first)
    record = _held((yield from seats_unit(ctx, table_id)), seat, user_id)
    yield from _not_in_hand(table_id, seat)
    if record.stack != move.chips:
        raise HandLogError(
            "seat_mismatch",
            f"seat {seat} at table {table_id} holds {record.stack} chips, not {move.chips}",
        )
    tx: Transaction | None = None
    if record.stack > 0:
        wallet = _source((yield from _limits(table_id)), user_id)
        in_play = Account.in_play(table_id, user_id)
        post = posting(
            key,
            TransactionKind.CASH_OUT,
            {in_play: -record.stack, wallet: record.stack},
            meta=meta,
            reserved=True,
        )
        ids = yield from _ids(ctx, table_id, user_id, wallet)
        tx_id = yield from reserve(ctx, post)
        if tx_id is None:
            # The same cash-out, committed by another connection a moment ago.
            return SeatChange(None, (yield from existing(ctx, post)))
        (after,) = yield from apply(ctx, [(tx_id, post)], ids)
        tx = transaction_of(ctx, tx_id, post, after)
    yield run(DELETE_SEAT, table=table_id, seat=seat, user=user_id)
    return SeatChange(None, tx)
