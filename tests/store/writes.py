"""Table writes one at a time, for tests: seat moves and hand logs through ``Store.commit``.

The room writes a table's records in batches (``store.commit(Batch(...))``,
fenced by the table's lease); a test often wants one move and its answer.
Each helper checks its arguments as the store's books do, commits a batch
of one kind of write, and returns what that write made.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from pokerhouse.store import (
    ActionRecord,
    Batch,
    HandFinish,
    HandSeat,
    HandStart,
    HandVoid,
    SeatChange,
    SeatIn,
    SeatOut,
    Store,
    Transaction,
    User,
)
from pokerhouse.store.arguments import user_id_of, whole
from pokerhouse.store.ledger import check_amount


async def buy_in(
    store: Store,
    table_id: int,
    seat: int,
    user: User | int,
    amount: int,
    *,
    key: str | None = None,
    lease: int | None = None,
) -> SeatChange:
    """Sit ``user`` in ``seat`` with ``amount`` chips from their wallet (``buy-in``).

    ``key`` makes a retry safe; without one the buy-in gets a fresh key.
    ``lease`` is the table's fencing token (required once the table is leased).
    """
    move = _seat_in(table_id, seat, user, amount, key, lease, "buy-in", add=False)
    return await _move(store, move)


async def add_chips(
    store: Store,
    table_id: int,
    seat: int,
    user: User | int,
    amount: int,
    *,
    key: str | None = None,
    lease: int | None = None,
) -> SeatChange:
    """Add ``amount`` chips from the wallet to a seat between hands (``buy-in``)."""
    move = _seat_in(table_id, seat, user, amount, key, lease, "add-chips", add=True)
    return await _move(store, move)


async def cash_out(
    store: Store,
    table_id: int,
    seat: int,
    user: User | int,
    *,
    key: str | None = None,
    lease: int | None = None,
) -> SeatChange:
    """Stand ``user`` up from ``seat``; the stack goes back to the wallet (``cash-out``)."""
    user_id = user_id_of(user)
    whole(table_id, seat)
    held = {record.seat: record for record in await store.tables.seats(table_id)}.get(seat)
    # Whatever the seat holds goes; a repeated key finds its first cash-out.
    chips = held.stack if held is not None and held.user_id == user_id else 0
    move = SeatOut(
        table_id, seat, user_id, chips, key or f"cash-out:{uuid.uuid4().hex}", lease
    ).checked()
    return await _move(store, move)


async def begin_hand(
    store: Store,
    table_id: int,
    number: int,
    game: str,
    spec: Mapping[str, Any],
    setup: Mapping[str, Any],
    seats: Sequence[HandSeat | tuple[int, int, int]],
    deck: Mapping[str, Any],
    start_seq: int = 0,
    *,
    lease: int | None = None,
) -> int:
    """Log a new hand; its id. ``deck`` is ``{"order": [52 cards, top first], "seed": int}``."""
    if not isinstance(deck, Mapping) or set(deck) != {"order", "seed"}:
        start = HandStart(table_id, number, game, spec, setup, seats, (), 0, start_seq, lease)
    else:
        start = HandStart(
            table_id,
            number,
            game,
            spec,
            setup,
            seats,
            deck["order"],
            deck["seed"],
            start_seq,
            lease,
        )
    result = await store.commit(Batch(starts=[start]))
    return result.hand_ids[table_id, number]


async def append_actions(store: Store, actions: Sequence[ActionRecord]) -> None:
    """Log accepted actions (of one hand or several) in one commit."""
    await store.commit(Batch(actions=actions))


async def finish_hand(
    store: Store,
    table_id: int,
    number: int,
    results: Sequence[int],
    *,
    rake: int = 0,
    house_result: int = 0,
    history: str | None = None,
    lease: int | None = None,
) -> Transaction:
    """Settle a hand and mark it finished, in one transaction; the settlement."""
    finish = HandFinish(table_id, number, results, rake, house_result, history, lease)
    result = await store.commit(Batch(finishes=[finish]))
    return result.settlements[table_id, number]


async def void_hand(
    store: Store, table_id: int, number: int, reason: str, *, lease: int | None = None
) -> None:
    """Mark a hand void: no chip moves (stacks change only at settlement)."""
    await store.commit(Batch(voids=[HandVoid(table_id, number, reason, lease)]))


def _seat_in(
    table_id: int,
    seat: int,
    user: User | int,
    amount: int,
    key: str | None,
    lease: int | None,
    what: str,
    *,
    add: bool,
) -> SeatIn:
    """A checked move of ``amount`` chips from the wallet to a seat."""
    user_id = user_id_of(user)
    amount = check_amount(amount, what)
    whole(table_id, seat)
    return SeatIn(
        table_id, seat, user_id, amount, key or f"{what}:{uuid.uuid4().hex}", lease, add
    ).checked()


async def _move(store: Store, move: SeatIn | SeatOut) -> SeatChange:
    """One seat move in a commit of its own; the seat as it is after it, and its
    transaction (``None``: a cash-out of an empty stack)."""
    if isinstance(move, SeatIn):
        result = await store.commit(Batch(seats_in=[move]))
        held = [
            record
            for record in await store.tables.seats(move.table_id)
            if record.seat == move.seat and record.user_id == move.user_id
        ]
        return SeatChange(held[0] if held else None, result.moves[move.key])
    result = await store.commit(Batch(seats_out=[move]))
    return SeatChange(None, result.moves[move.key])
