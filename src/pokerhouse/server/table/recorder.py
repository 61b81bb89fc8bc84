"""A table step's records as the store's writes: one batch, fenced by the table's lease.

Pure: it reads the records the table's door returned and nothing else. Every
write carries the lease token; every chip move gets an idempotency key made
of durable facts (the table, and the sequence number of the event it comes
from, which is unique across the table's runs because each lease starts a
new range of numbers).

>>> import random
>>> from pokerhouse.table import Sit, Table
>>> table = Table("razz", seats=4, rng=random.Random(3), first_seq=7 << 32)
>>> step = table.apply(Sit(1, "Ann", 100, account=5))
>>> (move,) = batch(3, 7, step.records).seats_in
>>> move.key, move.lease, move.amount
('buy-in:3:30064771073', 7, 100)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from pokerhouse.history.figures import hand_figures
from pokerhouse.store import (
    ActionRecord,
    Batch,
    HandFinish,
    HandStart,
    HandVoid,
    SeatIn,
    SeatOut,
)
from pokerhouse.table import records

#: The longest void reason the store keeps.
_REASON = 400


def _never(account: int) -> bool:
    return False


def batch(
    table_id: int,
    lease: int,
    step_records: Iterable[records.Record],
    funded: Callable[[int], bool] = _never,
) -> Batch:
    """The store's writes for a step's records at table ``table_id`` under ``lease``.

    ``funded(account)`` says whose chips the room tops up from the issuer as
    they come to the table (its own bots').
    """
    # Most steps hold one action: kinds with no write share the empty tuple.
    found: list[Sequence[Any]] = [(), (), (), (), (), ()]
    for record in step_records:
        slot, write = _WRITERS[type(record)](table_id, lease, record, funded)
        found[slot] = (*found[slot], write)
    starts, actions, finishes, voids, seats_in, seats_out = found
    return Batch(starts, actions, finishes, voids, seats_in, seats_out)


# Each record kind's write, and its place in a Batch: starts, actions, finishes,
# voids, seats in, seats out (Batch's order).
_Writer = Callable[[int, int, Any, Callable[[int], bool]], tuple[int, Any]]


def _action(table_id: int, lease: int, record: records.ActionLogged, _: object) -> tuple[int, Any]:
    account = record.account
    return 1, ActionRecord(
        table_id,
        record.number,
        record.index,
        record.hand_seat,
        record.kind,
        record.amount,
        lease,
        account or None,
        record.client_id if account else None,
    )


def _start(table_id: int, lease: int, record: records.DealLogged, _: object) -> tuple[int, Any]:
    return 0, HandStart(
        table_id,
        record.number,
        record.game,
        record.spec,
        record.setup,
        list(zip(record.seats, record.accounts, record.stacks, strict=True)),
        record.deck_order,
        record.deck_seed,
        record.start_seq,
        lease,
    )


def _finish(table_id: int, lease: int, record: records.HandSettled, _: object) -> tuple[int, Any]:
    return 2, HandFinish(
        table_id,
        record.number,
        record.net,
        record.rake,
        record.house,
        record.history,
        lease,
        hand_figures(record.hand.events),
    )


def _void(table_id: int, lease: int, record: records.VoidLogged, _: object) -> tuple[int, Any]:
    return 3, HandVoid(table_id, record.number, record.reason[:_REASON], lease)


def _chips_in(
    table_id: int,
    lease: int,
    record: records.BuyIn | records.ChipsIn,
    funded: Callable[[int], bool],
) -> tuple[int, Any]:
    add = isinstance(record, records.ChipsIn)
    return 4, SeatIn(
        table_id,
        record.seat,
        record.account,
        record.amount,
        f"{'add-chips' if add else 'buy-in'}:{table_id}:{record.seq}",
        lease,
        add=add,
        fund=funded(record.account),
    )


def _cash_out(table_id: int, lease: int, record: records.CashOut, _: object) -> tuple[int, Any]:
    return 5, SeatOut(
        table_id,
        record.seat,
        record.account,
        record.chips,
        f"cash-out:{table_id}:{record.seq}",
        lease,
    )


_WRITERS: dict[type, _Writer] = {
    records.ActionLogged: _action,
    records.DealLogged: _start,
    records.HandSettled: _finish,
    records.VoidLogged: _void,
    records.BuyIn: _chips_in,
    records.ChipsIn: _chips_in,
    records.CashOut: _cash_out,
}
