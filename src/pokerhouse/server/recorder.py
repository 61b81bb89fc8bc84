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

from collections.abc import Callable, Iterable

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
    starts: list[HandStart] = []
    actions: list[ActionRecord] = []
    finishes: list[HandFinish] = []
    voids: list[HandVoid] = []
    seats_in: list[SeatIn] = []
    seats_out: list[SeatOut] = []
    for record in step_records:
        match record:
            case records.ActionLogged():
                actions.append(
                    ActionRecord(
                        table_id,
                        record.number,
                        record.index,
                        record.hand_seat,
                        record.kind,
                        record.amount,
                        lease,
                        record.account or None,
                        record.client_id if record.account else None,
                    )
                )
            case records.HandStarted():
                starts.append(
                    HandStart(
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
                )
            case records.HandSettled():
                finishes.append(
                    HandFinish(
                        table_id,
                        record.number,
                        record.net,
                        record.rake,
                        record.house,
                        record.history,
                        lease,
                    )
                )
            case records.HandVoided():
                voids.append(HandVoid(table_id, record.number, record.reason[:_REASON], lease))
            case records.BuyIn() | records.ChipsIn():
                add = isinstance(record, records.ChipsIn)
                seats_in.append(
                    SeatIn(
                        table_id,
                        record.seat,
                        record.account,
                        record.amount,
                        f"{'add-chips' if add else 'buy-in'}:{table_id}:{record.seq}",
                        lease,
                        add=add,
                        fund=funded(record.account),
                    )
                )
            case records.CashOut():
                seats_out.append(
                    SeatOut(
                        table_id,
                        record.seat,
                        record.account,
                        record.chips,
                        f"cash-out:{table_id}:{record.seq}",
                        lease,
                    )
                )
    return Batch(starts, actions, finishes, voids, seats_in, seats_out)
